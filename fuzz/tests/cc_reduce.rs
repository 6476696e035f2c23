//! A `--cc` finding is reduced automatically, like phicc's own C findings: the hunt reruns
//! the compiler under test on every candidate, and keeps only defined candidates (the UB
//! judge at `lowered`, gcc -O0 and -O2 agreeing with the oracle).
//!
//! The compiler under test is a fake whose bug the test decides: a wrapper around the
//! host gcc that turns every `^` of the program into `|` before compiling it (and gets
//! the hello-world smoke test right: it has no `^`). Every generated program mixes its
//! checksum with `^`, so the first program is a `mismatch@cc`; its reduced program must be
//! a few lines that still use `^` and still make the fake print something else than gcc.
//! `phihunt reduce FILE.c --cc CMD` does the same by hand.

mod common;

use compiler::target::Target;
use phihunt::c::cc::{CcStage, CompilerUnderTest};
use phihunt::c::gen::GenConfig;
use phihunt::c::hunt::CGenerator;
use phihunt::campaign::source::ProgramSource;
use phihunt::campaign::{hunt, HuntConfig};
use phihunt::diff::DiffConfig;
use phihunt::native::{NativeLimits, NativePlan};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The fake compiler: gcc -O0 on a copy of the program with `|` for `^` (the program
/// itself stays as it was: the hunt confirms the reference on it).
const XOR_AS_OR: &str = "#!/bin/sh
sed 's/\\^/|/g' program.c > xor-as-or.c
for a in \"$@\"; do
  shift
  if [ \"$a\" = program.c ]; then set -- \"$@\" xor-as-or.c; else set -- \"$@\" \"$a\"; fi
done
exec gcc -O0 -w \"$@\"
";

/// Builds `source` with `compiler` (a command word) in `dir` and runs it: its stdout.
fn build_and_run(compiler: &str, source: &Path, dir: &Path) -> Vec<u8> {
    std::fs::copy(source, dir.join("program.c")).unwrap();
    let built = Command::new(compiler)
        .args(["-o", "a.out", "program.c"])
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(built.success(), "{compiler} failed on {}", source.display());
    let run = Command::new(dir.join("a.out")).output().unwrap();
    run.stdout
}

#[test]
fn a_cc_finding_is_reduced_to_a_few_defined_lines_that_still_show_it() {
    let bin = tempfile::tempdir().unwrap();
    let fake = bin.path().join("xor-as-or-cc");
    std::fs::write(&fake, XOR_AS_OR).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let limits = NativeLimits {
        run_timeout: Duration::from_secs(2),
        long_run_timeout: Duration::from_secs(3),
        ..NativeLimits::default()
    };
    let compiler = CompilerUnderTest::new(fake.to_str().unwrap(), Target::X86_64).unwrap();
    compiler.smoke_test(&limits).unwrap();
    let out = tempfile::tempdir().unwrap();
    let cfg = HuntConfig {
        native: NativePlan::none().with_limits(limits),
        native_every: 1,
        duration: Duration::from_secs(300),
        base_seed: 4,
        jobs: 1,
        out_dir: out.path().to_path_buf(),
        mutants: Vec::new(),
        diff: DiffConfig::default(),
        stop_at_first: false,
        reduce_budget: Duration::from_secs(90),
        corpus_found: None,
        max_programs: Some(1),
        show_progress: false,
        cc: Some(CcStage {
            compiler,
            phicc: false,
        }),
        keep_per_signature: u64::MAX,
        persist: None,
        seeds: phihunt::campaign::seeds::SeedScheme::Spread,
        resume: None,
    };
    // A small program (size 1, seed 4: 40 lines) keeps the reduction within its budget
    // on a loaded machine.
    let source = CGenerator {
        cfg: GenConfig {
            size: 1,
            ..GenConfig::default()
        },
    };
    let sources: [&dyn ProgramSource; 1] = [&source];
    let r = hunt(&sources, &cfg).unwrap();
    assert_eq!(
        r.signatures.len(),
        1,
        "one finding expected: {:?}",
        r.totals
    );
    let s = &r.signatures[0];
    assert_eq!(s.signature.to_string(), "mismatch@cc");
    let reduced = s
        .reduced_c
        .as_ref()
        .unwrap_or_else(|| {
            let why = std::fs::read_to_string(Path::new(&s.first).join("reduce-c.txt"));
            panic!("no reduced.c: {why:?}")
        })
        .clone();
    let text = std::fs::read_to_string(&reduced).unwrap();
    let original = std::fs::read_to_string(Path::new(&s.first).join("program.c")).unwrap();
    let code_lines = |t: &str| {
        t.lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
            .count()
    };
    assert!(
        code_lines(&text) <= 15 && code_lines(&text) < code_lines(&original) / 2,
        "not reduced enough ({} lines of {}):\n{text}",
        code_lines(&text),
        code_lines(&original)
    );
    assert!(text.contains('^'), "the bug's operator is gone:\n{text}");
    // Still the bug, judged independently of the reducer: the fake prints something
    // else than gcc -O0 and -O2, which agree.
    let work = tempfile::tempdir().unwrap();
    let with_fake = build_and_run(fake.to_str().unwrap(), Path::new(&reduced), work.path());
    let wrapper = bin.path().join("gcc-opt");
    for opt in ["-O0", "-O2"] {
        std::fs::write(&wrapper, format!("#!/bin/sh\nexec gcc {opt} -w \"$@\"\n")).unwrap();
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
        let with_gcc = build_and_run(wrapper.to_str().unwrap(), Path::new(&reduced), work.path());
        assert_ne!(
            with_fake, with_gcc,
            "gcc {opt} prints what the fake prints:\n{text}"
        );
        // The reduced file's header records gcc's (and the oracle's) output.
        let expected: String = String::from_utf8_lossy(&with_gcc)
            .lines()
            .map(|l| format!("// | {l}\n"))
            .collect();
        assert!(text.contains(&expected), "{text}");
    }
    // Defined: gcc's sanitizers find nothing.
    let sanitized = work.path().join("san");
    let built = Command::new("gcc")
        .args([
            "-O0",
            "-w",
            "-fsanitize=undefined,address",
            "-fno-sanitize-recover=all",
            "-o",
        ])
        .arg(&sanitized)
        .arg(&reduced)
        .status()
        .unwrap();
    assert!(built.success());
    let run = Command::new(&sanitized).output().unwrap();
    assert!(
        run.status.success(),
        "{}\n{text}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn reduce_with_cc_keeps_the_compilers_bug_and_drops_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("xor-as-or-cc");
    std::fs::write(&fake, XOR_AS_OR).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = dir.path().join("two.c");
    // 12 ^ 10 is 6, 12 | 10 is 14: the fake gets the first number wrong, not the others.
    std::fs::write(
        &file,
        "#include <stdio.h>\nint main(void) {\n    unsigned a = 12, b = 10, c = 3;\n    \
         unsigned d = a + c;\n    printf(\"%u %u %u\\n\", a ^ b, d, c * 2);\n    return 0;\n}\n",
    )
    .unwrap();
    let out = dir.path().join("two.reduced.c");
    let (code, stdout, stderr) = common::phihunt(&[
        "reduce",
        file.to_str().unwrap(),
        "--cc",
        fake.to_str().unwrap(),
        "--targets",
        "none",
        "--time",
        "60s",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("signature mismatch@cc"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains('^'), "{text}");
    assert!(
        !text.contains("c * 2"),
        "the unrelated output stayed:\n{text}"
    );
    let work = tempfile::tempdir().unwrap();
    let with_fake = build_and_run(fake.to_str().unwrap(), &out, work.path());
    let gcc = dir.path().join("gcc-o0");
    std::fs::write(&gcc, "#!/bin/sh\nexec gcc -O0 -w \"$@\"\n").unwrap();
    std::fs::set_permissions(&gcc, std::fs::Permissions::from_mode(0o755)).unwrap();
    let with_gcc = build_and_run(gcc.to_str().unwrap(), &out, work.path());
    assert_ne!(with_fake, with_gcc, "{text}");
}

/// Writes the fake compiler and the two-output program of the test above into `dir`.
fn fake_and_program(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let fake = dir.join("xor-as-or-cc");
    std::fs::write(&fake, XOR_AS_OR).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = dir.join("two.c");
    std::fs::write(
        &file,
        "#include <stdio.h>\nint main(void) {\n    unsigned a = 12, b = 10, c = 3;\n    \
         unsigned d = a + c;\n    printf(\"%u %u %u\\n\", a ^ b, d, c * 2);\n    return 0;\n}\n",
    )
    .unwrap();
    (fake, file)
}

/// Runs C-Vise's interestingness script for `test` on `case` (in a fresh directory, as
/// C-Vise does): its exit code.
fn run_script(test: &phihunt::c::reduce::cvise::ScriptTest, case: &str) -> i32 {
    let work = tempfile::tempdir().unwrap();
    let script = work.path().join("interesting.sh");
    let text =
        phihunt::c::reduce::cvise::script_text(Path::new(env!("CARGO_BIN_EXE_phihunt")), test);
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(work.path().join("case.c"), case).unwrap();
    Command::new(&script)
        .current_dir(work.path())
        .env_remove("PHIHUNT_MUTANT")
        .env_remove("PHIHUNT_DISABLE_PASSES")
        .status()
        .unwrap()
        .code()
        .unwrap_or(-1)
}

#[test]
fn the_cvise_script_of_a_cc_finding_reruns_the_compiler_under_test() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, file) = fake_and_program(dir.path());
    let cc = CompilerUnderTest::new(fake.to_str().unwrap(), Target::X86_64).unwrap();
    let signature = phihunt::c::reduce::interesting::parse_signature("mismatch@cc").unwrap();
    let lint: Vec<String> = phihunt::c::reduce::interesting::LINT_FLAGS
        .iter()
        .map(|s| s.to_string())
        .collect();
    let pipeline = compiler::pipeline::PipelineOptions::default();
    let test = phihunt::c::reduce::cvise::ScriptTest {
        signature: &signature,
        include_dirs: &[],
        lint: &lint,
        pipeline: &pipeline,
        cc: Some(&cc),
    };
    let with_xor = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        run_script(&test, &with_xor),
        0,
        "the fake's bug must be interesting"
    );
    // Without `^` the fake compiles the program right: not interesting.
    let without_xor = with_xor.replace("a ^ b", "a & b");
    assert_eq!(run_script(&test, &without_xor), 1);
    // An undefined candidate is never interesting, whatever the compiler does with it.
    let undefined = with_xor.replace("unsigned d = a + c;", "unsigned d; d = d + c;");
    assert_eq!(run_script(&test, &undefined), 1);
    // Without the compiler under test the script cannot see a `*@cc` signature.
    let no_cc = phihunt::c::reduce::cvise::ScriptTest { cc: None, ..test };
    assert_ne!(run_script(&no_cc, &with_xor), 0);
}

#[test]
fn reduce_with_cc_and_cvise_keeps_the_compilers_bug() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, file) = fake_and_program(dir.path());
    let out = dir.path().join("two.reduced.c");
    let (code, stdout, stderr) = common::phihunt(&[
        "reduce",
        file.to_str().unwrap(),
        "--cc",
        fake.to_str().unwrap(),
        "--cvise",
        "--targets",
        "none",
        "--time",
        "20s",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("C-Vise:"),
        "C-Vise did not run or its result was not judged:\n{stdout}{stderr}"
    );
    assert!(!stderr.contains("warning: C-Vise"), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains('^'), "{text}");
    let work = tempfile::tempdir().unwrap();
    let with_fake = build_and_run(fake.to_str().unwrap(), &out, work.path());
    let gcc = dir.path().join("gcc-o0");
    std::fs::write(&gcc, "#!/bin/sh\nexec gcc -O0 -w \"$@\"\n").unwrap();
    std::fs::set_permissions(&gcc, std::fs::Permissions::from_mode(0o755)).unwrap();
    let with_gcc = build_and_run(gcc.to_str().unwrap(), &out, work.path());
    assert_ne!(with_fake, with_gcc, "{text}");
}
