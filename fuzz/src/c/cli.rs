//! The C wing's command-line entry points: `phihunt gen c` and `phihunt bench cgen`.
//!
//! Why: keeps the C generator's options out of the shared `cli.rs`, which only parses
//! them and calls here.

use super::gen::features::{FeatureSet, DEFAULT_OFF};
use super::gen::{generate, GenConfig};
use compiler::target::Target;

/// The generator options shared by `gen c`, `bench cgen` and `hunt --gen c`.
#[derive(Clone, Debug, Default)]
pub struct CGenOptions {
    /// Program size (1..=10).
    pub size: u32,
    /// Features switched off (comma-separated names).
    pub no: Option<String>,
    /// Features switched on that are off by default.
    pub with: Option<String>,
    /// Every program gets every allowed feature (no swarm subsets).
    pub no_swarm: bool,
}

impl CGenOptions {
    /// The generator configuration these options ask for.
    pub fn config(&self) -> Result<GenConfig, String> {
        let mut cfg = GenConfig {
            size: self.size.clamp(1, 10),
            swarm: !self.no_swarm,
            ..GenConfig::default()
        };
        if let Some(with) = &self.with {
            cfg.features.0.extend(FeatureSet::parse_list(with)?);
        }
        if let Some(no) = &self.no {
            for f in FeatureSet::parse_list(no)? {
                cfg.features.0.remove(&f);
            }
        }
        let _ = DEFAULT_OFF;
        Ok(cfg)
    }
}

/// `phihunt gen c --seed S [--target T] [--expected]`: prints the program, or the exact
/// stdout it must produce on `target`.
pub fn gen_c_command(seed: u64, target: &str, expected: bool, opts: &CGenOptions) -> i32 {
    let target = match Target::from_name(target) {
        Some(t) => t,
        None => {
            eprintln!("error: unknown target `{target}` (x86_64, i686, aarch64, riscv64)");
            return 2;
        }
    };
    let cfg = match opts.config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let text = match generate(seed, &cfg) {
        Ok(p) if expected => p.expected(target).to_string(),
        Ok(p) => format!(
            "/* phihunt gen c --seed {seed} --size {} (features: {}) */\n{}",
            cfg.size,
            p.features.names(),
            p.text
        ),
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    // A reader that stops early (`| head`) is not an error; any other write error is.
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: cannot write the program: {e}");
            2
        }
    }
}

/// `phihunt gen mutate --seed S`: the mutant a `--gen mutate` hunt runs under seed S (of
/// the default corpus pool), before its judges; 1 when none can be made.
pub fn gen_mutate_command(seed: u64) -> i32 {
    use super::mutate::{mutant, pool::Pool, source::with_header};
    let made = Pool::default_corpus().and_then(|pool| {
        eprintln!("mutate: pool of {}", pool.describe());
        for (name, why) in pool.left_out() {
            eprintln!("mutate: {name} is not in the pool ({why})");
        }
        mutant(&pool, seed)
    });
    match made {
        Ok(m) => {
            eprintln!("mutations: {}", m.applied.join(", "));
            print!("{}", with_header(&m.text, &m.base));
            0
        }
        Err(e) => {
            eprintln!("error: seed {seed}: {e}");
            1
        }
    }
}
