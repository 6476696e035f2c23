//! The C generator checked against independent judges on a fast sample: the host
//! gcc -O0 build must print exactly the expected output the generator computed, and
//! phicc's front end plus every pipeline stage in the oracle must too (for both data
//! models). `phihunt bench cgen` runs the same on thousands of seeds.

use compiler::pipeline::PipelineOptions;
use compiler::target::Target;
use oracle::RunConfig;
use phihunt::c::bench::{run_bench, CGenBenchArgs};
use phihunt::c::cli::CGenOptions;
use phihunt::c::gen::features::{Feature, FeatureSet};
use phihunt::c::gen::{generate, GenConfig};
use phihunt::c::hunt::CGenerator;
use phihunt::c::judge::{checked_front_end, front_end};
use phihunt::campaign::source::{Candidate, ProgramSource, Rejection};
use phihunt::campaign::{hunt, HuntConfig};
use phihunt::check::c_source::judge_stages;
use phihunt::diff::DiffConfig;
use phihunt::native::NativePlan;
use std::sync::Arc;
use std::time::Duration;

#[test]
fn thirty_seeds_agree_with_gcc_and_every_oracle_stage() {
    let out = tempfile::tempdir().unwrap();
    let args = CGenBenchArgs {
        count: 30,
        seed_start: 1,
        jobs: 2,
        gen: CGenOptions {
            size: 3,
            ..CGenOptions::default()
        },
        gcc: true,
        sanitize: false,
        oracle: true,
        out: out.path().to_path_buf(),
        target: Target::X86_64,
        run_timeout: Duration::from_secs(10),
        fuel: 100_000_000,
        pipeline: PipelineOptions::default(),
    };
    let t = run_bench(&args).expect("bench setup");
    let saved: Vec<_> = std::fs::read_dir(out.path())
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert_eq!(t.failures(), 0, "{t:?}\nsaved: {saved:?}");
    assert_eq!(t.gcc_agree, 30);
    assert_eq!(t.phicc_accepts, 30);
    assert_eq!(t.oracle_agree, 30);
}

#[test]
fn the_ilp32_expected_output_holds_at_every_stage_of_the_i686_module() {
    let cfg = GenConfig::default();
    let run = RunConfig {
        ptr_bytes: 4,
        fuel: 100_000_000,
        ..RunConfig::default()
    };
    // 500100 ...: a printed expression whose signedness differs between the data models
    // (`long long` op `unsigned long`), once printed by the ILP32 evaluation in the wrong
    // format (found by the native i686 stage of a hunt).
    for seed in (100..110).chain([500100, 500474, 500593, 500601]) {
        let p = generate(seed, &cfg).unwrap();
        let module = front_end(&p, Target::I686).unwrap();
        // The UB judge on i686's data model first (judge_stages asks it).
        let checked = checked_front_end(&p, Target::I686).unwrap();
        let want = (0, p.expected(Target::I686).as_bytes().to_vec());
        let j = judge_stages(&module, &checked, want, &PipelineOptions::default(), &run).unwrap();
        assert_eq!(j.first_mismatch(), None, "seed {seed}:\n{}", p.text);
    }
}

/// Seeds whose programs hold one subtree twice (the base of a pointer relation, the
/// lvalue of a compound assignment): with a rewrite cell per copy, one copy of
/// `g[(unsigned)(a - b) % 3U]` became `a + b` while the other stayed `a - b`, the two
/// "same-object" pointers landed in different rows, and the generator gave up on the seed
/// ("pointers into different objects compared"). Each must now generate, and every
/// oracle stage must print what the generator expects.
#[test]
fn a_subtree_printed_twice_is_rewritten_once() {
    let cfg = GenConfig::default();
    let run = RunConfig {
        fuel: 100_000_000,
        ..RunConfig::default()
    };
    for seed in [1937, 551964, 552001, 574611, 576743, 20290008] {
        let p = generate(seed, &cfg).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let module = front_end(&p, Target::X86_64).unwrap();
        let checked = checked_front_end(&p, Target::X86_64).unwrap();
        let want = (0, p.expected(Target::X86_64).as_bytes().to_vec());
        let j = judge_stages(&module, &checked, want, &PipelineOptions::default(), &run).unwrap();
        assert_eq!(j.first_mismatch(), None, "seed {seed}:\n{}", p.text);
    }
}

#[test]
fn a_program_is_a_pure_function_of_its_seed() {
    let cfg = GenConfig::default();
    let a = generate(7, &cfg).unwrap();
    let b = generate(7, &cfg).unwrap();
    let c = generate(8, &cfg).unwrap();
    assert_eq!(a.text, b.text);
    assert_eq!(a.expected_lp64, b.expected_lp64);
    assert_ne!(a.text, c.text);
    assert!(a.expected_lp64.contains("checksum = "));
}

#[test]
fn switched_off_features_never_appear() {
    let mut cfg = GenConfig {
        swarm: false,
        ..GenConfig::default()
    };
    for f in [
        Feature::Goto,
        Feature::Switch,
        Feature::Structs,
        Feature::Loops,
        Feature::Pointers,
        Feature::Volatile,
        Feature::LongLong,
        Feature::Unions,
        // The float helpers copy bits with `memcpy(&u, &x, ...)`, which is no pointer
        // expression of the program's own.
        Feature::Floats,
    ] {
        cfg.features.0.remove(&f);
    }
    for seed in 0..20 {
        let p = generate(seed, &cfg).unwrap();
        for token in [
            "goto ",
            "switch (",
            "struct S",
            "for (",
            "while (",
            "volatile",
            "long long g",
            "(&",
            "union ",
            "float ",
            "double ",
        ] {
            assert!(
                !p.text.contains(token),
                "seed {seed} has `{token}`:\n{}",
                p.text
            );
        }
    }
    // And with everything on, each of those appears somewhere in a few programs.
    let all = GenConfig {
        swarm: false,
        features: FeatureSet::default_on(),
        ..GenConfig::default()
    };
    let text: String = (0..20).map(|s| generate(s, &all).unwrap().text).collect();
    for token in [
        "goto ", "switch (", "struct S", "for (", "while (", "volatile", "(&", "union S",
    ] {
        assert!(text.contains(token), "no `{token}` in 20 programs");
    }
}

/// A source whose expected output is wrong (as a buggy generator's would be).
struct WrongExpected;

impl ProgramSource for WrongExpected {
    fn name(&self) -> &'static str {
        "c-wrong"
    }

    fn make(&self, seed: u64) -> Result<Candidate, Rejection> {
        let mut cand = CGenerator::default().make(seed)?;
        let mut p = (**cand.c_program.as_ref().unwrap()).clone();
        p.expected_lp64 = "checksum = 0000000000000000\n".into();
        cand.c_program = Some(Arc::new(p));
        Ok(cand)
    }
}

/// gcc contradicts the expected output: every program is a generator bug, saved with its
/// program, and none is a compiler finding.
#[test]
fn a_wrong_expected_output_is_a_generator_bug_never_a_finding() {
    let out = tempfile::tempdir().unwrap();
    let cfg = HuntConfig {
        native: NativePlan::none(),
        native_every: 1,
        duration: Duration::from_secs(120),
        base_seed: 1,
        jobs: 1,
        out_dir: out.path().to_path_buf(),
        mutants: Vec::new(),
        diff: DiffConfig::default(),
        stop_at_first: false,
        reduce_budget: Duration::ZERO,
        corpus_found: None,
        max_programs: Some(3),
        show_progress: false,
        keep_per_signature: u64::MAX,
        persist: None,
        resume: None,
        cc: None,
    };
    let r = hunt(&[&WrongExpected], &cfg).unwrap();
    assert_eq!(r.totals.programs, 3);
    assert_eq!(r.totals.generator_bugs, 3, "{:?}", r.totals);
    // Confirmed by gcc -O0 and -O2 agreeing with each other, not with the expected output;
    // counted under the reason's name.
    assert_eq!(
        r.totals
            .generator_bug_reasons
            .get("expected-output-contradicted"),
        Some(&3),
        "{:?}",
        r.totals.generator_bug_reasons
    );
    assert_eq!(r.totals.findings, 0);
    assert!(r.signatures.is_empty());
    // One folder per program (`c-wrong-SEED`), each with the program and the reason.
    let saved: Vec<_> = std::fs::read_dir(out.path().join("generator-bugs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(saved.len(), 3, "{saved:?}");
    for dir in &saved {
        let name = dir.file_name().unwrap().to_string_lossy();
        assert!(name.starts_with("c-wrong-"), "{name}");
        assert!(dir.join("program.c").is_file() && dir.join("reason.txt").is_file());
    }
    let report = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(
        report.contains("| c-wrong | 3 | 0 | 0 | 0 | 3 |"),
        "{report}"
    );
    assert!(report.contains("expected-output-contradicted"), "{report}");
    for dir in &saved {
        let reason = std::fs::read_to_string(dir.join("reason.txt")).unwrap();
        assert!(reason.contains("gcc -O0 and -O2 give exit 0"), "{reason}");
    }
}

#[test]
fn the_ub_judge_calls_a_program_with_ub_a_generator_bug_and_passes_the_generated_ones() {
    use phihunt::c::judge::ub_judge;
    let run = RunConfig::default();
    let mut p = generate(3, &GenConfig::default()).unwrap();
    for target in [Target::X86_64, Target::I686] {
        assert_eq!(ub_judge(&p, target, &run), Ok(()), "seed 3 on {target:?}");
    }
    // `long` is 32 bits on i686 only: defined on x86_64, signed overflow on i686.
    p.text = "int main(void) { volatile long x = 2147483647L; long y = x + 1; \
              return (int)(y & 1); }\n"
        .into();
    assert_eq!(ub_judge(&p, Target::X86_64, &run), Ok(()));
    let why = ub_judge(&p, Target::I686, &run).unwrap_err();
    assert!(
        why.contains("SignedOverflow") && why.contains("i686"),
        "{why}"
    );
}
