//! For each seeded bug (mutant), how many of the first N programs of each generator
//! expose it in the stage differential.
//!
//! `cargo run -p phihunt --example gen_mutants -- 200`

use compiler::mutants::{set_active, Mutant};
use phihunt::diff::{differential, DiffConfig, Verdict};
use phihunt::gen::{generate_from_seed, GenKind};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    for kind in GenKind::ALL {
        let programs: Vec<_> = (0..n).map(|s| generate_from_seed(kind, s)).collect();
        for m in Mutant::ALL {
            set_active(&[m]);
            let mut found = 0;
            let mut first = None;
            for (seed, p) in programs.iter().enumerate() {
                if let Verdict::Finding(_) =
                    differential(&p.module, &p.entry, &p.arg_vectors, &DiffConfig::default())
                {
                    found += 1;
                    first.get_or_insert(seed);
                }
            }
            set_active(&[]);
            println!(
                "{kind} {:<32} {found:>4}/{n} first seed {first:?}",
                m.name()
            );
        }
    }
}
