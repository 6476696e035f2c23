//! A short, time-bounded smoke loop of every fuzzer's `check` on stable Rust
//! (regalloc2's arbtest idea): the same code cargo fuzz runs, fed seeded random bytes,
//! so `cargo test` catches a broken fuzzer or an easy crash without nightly.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Feeds `check` random inputs for about `budget`, at least `min_runs` times; returns runs.
fn smoke(name: &str, budget: Duration, min_runs: usize, check: fn(&[u8])) -> usize {
    let seed = 0x5eed_0000 ^ name.len() as u64;
    eprintln!("smoke {name}: seed {seed:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = Instant::now();
    let mut runs = 0;
    let mut buf = Vec::new();
    while runs < min_runs || start.elapsed() < budget {
        let len = rng.gen_range(0..4096);
        buf.resize(len, 0);
        rng.fill_bytes(&mut buf);
        check(&buf);
        runs += 1;
        if start.elapsed() > budget * 4 {
            break;
        }
    }
    runs
}

/// Valid IR with random edits: random bytes alone almost never parse.
fn ir_parse_mutated(data: &[u8]) {
    const BASE: &str = include_str!("../../corpus/ir/fib.ir");
    let mut text = BASE.as_bytes().to_vec();
    for chunk in data
        .chunks(3)
        .take(1 + data.first().map_or(0, |n| usize::from(n % 4)))
    {
        if let [a, b, c] = *chunk {
            let at = (usize::from(a) << 8 | usize::from(b)) % text.len().max(1);
            let ch = b" ;%.@:,[]0123456789-"[usize::from(c) % 20];
            match c % 3 {
                0 => text[at] = ch,
                1 => {
                    text.remove(at);
                }
                _ => text.insert(at, ch),
            }
        }
    }
    phihunt::fuzzers::ir_parse::check(&text);
}

#[test]
fn ir_parse_smoke() {
    let runs = smoke(
        "ir_parse",
        Duration::from_secs(2),
        200,
        phihunt::fuzzers::ir_parse::check,
    );
    let mutated = smoke(
        "ir_parse_mutated",
        Duration::from_secs(2),
        200,
        ir_parse_mutated,
    );
    eprintln!("{}", phihunt::fuzzers::ir_parse::STATS.line());
    assert!(runs + mutated >= 400);
    // The mutated inputs must reach the parser's success path sometimes, or the loop
    // tests nothing but error paths.
    assert!(
        phihunt::fuzzers::ir_parse::STATS
            .valid
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
    );
}

#[test]
fn ir_pipeline_smoke() {
    use std::sync::atomic::Ordering::Relaxed;
    let runs = smoke(
        "ir_pipeline",
        Duration::from_secs(3),
        20,
        phihunt::fuzzers::ir_pipeline::check,
    );
    let stats = &phihunt::fuzzers::ir_pipeline::STATS;
    eprintln!("{}", stats.line());
    assert!(runs >= 20);
    // Random bytes must make mostly valid programs, or the target fuzzes nothing.
    assert!(
        stats.valid.load(Relaxed) * 2 >= stats.execs.load(Relaxed),
        "{}",
        stats.line()
    );
}

#[test]
fn phi_elim_smoke() {
    use std::sync::atomic::Ordering::Relaxed;
    let runs = smoke(
        "phi_elim",
        Duration::from_secs(3),
        20,
        phihunt::fuzzers::phi_elim::check,
    );
    let stats = &phihunt::fuzzers::phi_elim::STATS;
    eprintln!("{}", stats.line());
    assert!(runs >= 20);
    assert!(
        stats.valid.load(Relaxed) * 2 >= stats.execs.load(Relaxed),
        "{}",
        stats.line()
    );
}

/// The differential targets' native path: every input that agrees at the stages also runs
/// on x86_64 (both allocators) and i686; nothing may be reported (a finding panics).
#[test]
fn differential_targets_native_smoke() {
    use compiler::target::Target;
    use phihunt::fuzzers::differential::check_generated_with;
    use phihunt::fuzzers::stats::FuzzStats;
    use std::sync::atomic::Ordering::Relaxed;
    static STATS: FuzzStats = FuzzStats::new("native_smoke");
    let plan = phihunt::native::NativePlan::for_targets(&[Target::X86_64, Target::I686])
        .with_limits(phihunt::campaign::cli::hunt_native_limits());
    for (i, kind) in [phihunt::gen::GenKind::Cfg, phihunt::gen::GenKind::Phi]
        .into_iter()
        .enumerate()
    {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_1000 + i as u64);
        for _ in 0..4 {
            let mut buf = vec![0u8; rng.gen_range(256..2048)];
            rng.fill_bytes(&mut buf);
            check_generated_with(kind, &buf, &STATS, &plan, 1);
        }
    }
    eprintln!("{}", STATS.line());
    assert!(STATS.native.load(Relaxed) >= 4, "{}", STATS.line());
}

/// corpus/c files (with `test.h` pasted in) with random byte edits: random bytes alone
/// almost never get past the parser.
fn c_frontend_mutated(data: &[u8]) {
    const HEADER: &str = include_str!("../../corpus/c/test.h");
    const BASES: [&str; 4] = [
        include_str!("../../corpus/c/arith.c"),
        include_str!("../../corpus/c/struct.c"),
        include_str!("../../corpus/c/switch.c"),
        include_str!("../../corpus/c/init.c"),
    ];
    let base = BASES[usize::from(data.first().copied().unwrap_or(0)) % BASES.len()];
    let mut text = base.replace("#include \"test.h\"", HEADER).into_bytes();
    for chunk in data
        .chunks(3)
        .skip(1)
        .take(1 + data.get(1).map_or(0, |n| usize::from(n % 4)))
    {
        if let [a, b, c] = *chunk {
            let at = (usize::from(a) << 8 | usize::from(b)) % text.len().max(1);
            let ch = b" ;{}()[]*&,=+-<>0123456789xi"[usize::from(c) % 28];
            match c % 3 {
                0 => text[at] = ch,
                1 => {
                    text.remove(at);
                }
                _ => text.insert(at, ch),
            }
        }
    }
    phihunt::fuzzers::c_frontend::check(&text);
}

#[test]
fn c_frontend_smoke() {
    let runs = smoke(
        "c_frontend",
        Duration::from_secs(2),
        100,
        phihunt::fuzzers::c_frontend::check,
    );
    let mutated = smoke(
        "c_frontend_mutated",
        Duration::from_secs(3),
        20,
        c_frontend_mutated,
    );
    eprintln!("{}", phihunt::fuzzers::c_frontend::STATS.line());
    assert!(runs >= 100 && mutated >= 20);
    // Some mutated programs must compile, or the loop tests nothing but error paths.
    assert!(
        phihunt::fuzzers::c_frontend::STATS
            .valid
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
    );
}
