//! Feature totals over the first N programs of a generator.
//!
//! `cargo run -p phihunt --example gen_features -- cfg 500`

use phihunt::gen::{generate_from_seed, FeatureCounts, GenKind};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind: GenKind = args
        .first()
        .and_then(|s| s.parse().ok())
        .unwrap_or(GenKind::Cfg);
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(500);
    let mut total = FeatureCounts::default();
    let mut with: std::collections::BTreeMap<&'static str, u64> = Default::default();
    for seed in 0..n {
        let p = generate_from_seed(kind, seed);
        for (name, v) in p.features.scalars() {
            if v > 0 {
                *with.entry(name).or_default() += 1;
            }
        }
        total.merge(&p.features);
    }
    println!("{:<28} {:>9} {:>9}", "feature", "total", "programs");
    for (name, v) in total.scalars() {
        println!(
            "{name:<28} {v:>9} {:>9}",
            with.get(name).copied().unwrap_or(0)
        );
    }
    println!("slot types {:?}", total.slot_types);
    println!("ops {:?}", total.ops);
}
