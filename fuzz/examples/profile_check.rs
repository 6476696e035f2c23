//! Profiling aid: runs a fuzz target's `check` on N seeded random inputs of a given size,
//! so `valgrind --tool=callgrind` or `perf` can show where a fuzz exec spends its time.
//! Usage: cargo run --release -p phihunt --example profile_check -- ir_pipeline 2000 16

use rand::{Rng, SeedableRng};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = args.get(1).map_or("ir_pipeline", |s| s.as_str());
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let len: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(64);
    let check: fn(&[u8]) = match target {
        "ir_pipeline" => phihunt::fuzzers::ir_pipeline::check,
        "phi_elim" => phihunt::fuzzers::phi_elim::check,
        "ir_parse" => phihunt::fuzzers::ir_parse::check,
        other => panic!("unknown target {other}"),
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let start = Instant::now();
    for _ in 0..n {
        let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        check(&bytes);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{target}: {n} execs of {len} bytes in {secs:.2}s = {:.0} exec/s",
        n as f64 / secs
    );
}
