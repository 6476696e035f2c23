//! Prints one generated program, its argument vectors, feature counts and (with `--run`)
//! its outcomes at every stage, so a human can eyeball the generators.
//!
//! `cargo run -p phihunt --example gen_print -- cfg 7 [--run] [--features] [--small]`
//! (`--small`: a small configuration, for reading).

use compiler::ir::text::print_module;
use phihunt::gen::{cfg, generate_from_seed, phi, CfgGenConfig, GenKind, PhiGenConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind: GenKind = match args.first().map(|s| s.parse()) {
        Some(Ok(k)) => k,
        Some(Err(e)) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
        None => GenKind::Cfg,
    };
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let small = args.iter().any(|a| a == "--small");
    let p = match (kind, small) {
        (_, false) => generate_from_seed(kind, seed),
        (GenKind::Cfg | GenKind::CfgFloat, true) => cfg::generate_from_seed(
            seed,
            &CfgGenConfig {
                max_functions: 2,
                max_blocks: 14,
                max_slots: 4,
                max_params: 2,
                max_globals: 1,
                max_stmts: 3,
                ..kind.cfg_config().unwrap_or_default()
            },
        ),
        (GenKind::Phi | GenKind::PhiFloat, true) => phi::generate_from_seed(
            seed,
            &PhiGenConfig {
                max_functions: 1,
                max_vars: 4,
                max_type_groups: 1,
                max_blocks: 10,
                max_stmts: 3,
                ..kind.phi_config().unwrap_or_default()
            },
        ),
    };
    println!("; generator {kind}, seed {seed}");
    for v in &p.arg_vectors {
        let list: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        println!("; args: @{}({})", p.entry, list.join(", "));
    }
    print!("{}", print_module(&p.module));
    if args.iter().any(|a| a == "--run") {
        for v in &p.arg_vectors {
            match oracle::run(&p.module, &p.entry, v, &oracle::RunConfig::default()) {
                Ok(r) => println!("; {v:?} -> {r} ({} steps)", r.steps),
                Err(e) => println!("; {v:?} -> error {e}"),
            }
        }
    }
    if args.iter().any(|a| a == "--features") {
        println!(
            "{}",
            serde_json::to_string_pretty(&p.features).unwrap_or_default()
        );
    }
}
