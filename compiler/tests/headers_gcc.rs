//! phicc's own C headers (compiler/include) checked with the real gcc.
//!
//! Why: phicc compiles csmith programs without the host's libc headers, so its headers
//! must (a) be plain C99 that parses alone, (b) give every type and limit the value and
//! the type the standard and the target's ABI ask for, on LP64 and ILP32, and (c) be
//! enough for csmith's runtime headers and generated programs, and ABI-compatible with
//! glibc for what those programs call. gcc is the independent judge of all three:
//!   1. each header alone (and twice, and all together) passes
//!      `gcc -std=c99 -pedantic-errors -Wall -Wextra -Werror -nostdinc`; gcc's
//!      `-Wbuiltin-declaration-mismatch` also compares every libc prototype with its own;
//!   2. tests/headers_support/check_headers.c, a file of static assertions against
//!      hand-written values and gcc's predefined target types, compiles;
//!   3. csmith programs (seeds 1..=20, default options and `--no-bitfields
//!      --no-packed-struct`) compile with only our headers and csmith's;
//!   4. the same programs, built with our headers and linked with the real libc, print
//!      what they print when built with glibc's headers;
//!   5. assert() aborts, and NDEBUG removes it, at run time.
//!
//! Points 1 and 2 run under four data models: -m64 and -m32 (gcc's x86_64 compiler
//! proper does both even without 32-bit libraries), each also with unsigned plain char
//! (and a 16-bit unsigned wchar_t on -m64), which stand in for aarch64's and riscv64's
//! unsigned char. Nothing is skipped: a missing gcc or csmith fails with the way to
//! install them. Every external process runs under a time limit.

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// The headers phicc ships, all of which must stand alone.
const HEADERS: [&str; 11] = [
    "assert.h",
    "ctype.h",
    "float.h",
    "limits.h",
    "math.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
];

/// Where libcsmith-dev (Debian) installs csmith's runtime headers.
const CSMITH_INCLUDE: &str = "/usr/include/csmith";

/// Static assertions on the headers; compiles only if they all hold.
const CHECKER: &str = include_str!("headers_support/check_headers.c");

const SETUP_HINT: &str = "run scripts/setup.sh (it installs gcc, csmith and libcsmith-dev)";

/// gcc flags that select a data model, with a name for messages.
const MODELS: [(&str, &[&str]); 4] = [
    ("LP64", &["-m64"]),
    ("ILP32", &["-m32"]),
    (
        "LP64, unsigned char, 16-bit wchar_t",
        &["-m64", "-funsigned-char", "-fshort-wchar"],
    ),
    ("ILP32, unsigned char", &["-m32", "-funsigned-char"]),
];

/// csmith seeds, each generated with both option sets below.
const CSMITH_SEEDS: std::ops::RangeInclusive<u32> = 1..=20;
const CSMITH_OPTION_SETS: [(&str, &[&str]); 2] = [
    ("default", &[]),
    (
        "no-bitfields-packed",
        &["--no-bitfields", "--no-packed-struct"],
    ),
];

/// Limits for external processes: csmith can occasionally hang, gcc should never take
/// long, and a generated program may legitimately run (nearly) forever.
const CSMITH_LIMIT: Duration = Duration::from_secs(10);
const GCC_LIMIT: Duration = Duration::from_secs(60);
const RUN_LIMIT: Duration = Duration::from_secs(3);

/// At least this many of the 40 csmith programs must finish within RUN_LIMIT with
/// glibc's headers, so that the run comparison means something (36 do with csmith 2.3.0).
const MIN_PROGRAMS_COMPARED: usize = 30;

/// Worker threads for the csmith loops (the machine is shared: two is plenty).
const WORKERS: usize = 2;

fn include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

/// A fresh scratch directory for one test, under cargo's per-target tmp dir.
fn scratch_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("headers_gcc")
        .join(test);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("clean {}: {e}", dir.display()));
    }
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    dir
}

/// How a process under a time limit ended.
#[derive(Debug)]
struct Finished {
    /// None if the process was killed at the time limit.
    status: Option<ExitStatus>,
    stdout: Vec<u8>,
    stderr: String,
}

impl Finished {
    fn succeeded(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }
}

/// Runs `cmd` to completion or until `limit`, killing it then; its stdout and stderr are
/// drained by threads so that a chatty child cannot block on a full pipe.
fn run_limited(cmd: &mut Command, limit: Duration) -> Result<Finished, String> {
    let shown = format!("{cmd:?}");
    let mut child: Child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {shown}: {e}; {SETUP_HINT}"))?;
    let drain = |mut pipe: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            // A read error only truncates what we show; the exit status still decides.
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout is piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr is piped")));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => {
                // Kill can only fail if the child has just exited; wait reaps it either way.
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for {shown}: {e}")),
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&stderr.join().unwrap_or_default()).into_owned();
    Ok(Finished {
        status,
        stdout,
        stderr,
    })
}

/// Runs gcc with `args`; Err carries the command line and gcc's diagnostics.
fn gcc<S: AsRef<OsStr>>(args: &[S]) -> Result<(), String> {
    let mut cmd = Command::new("gcc");
    cmd.args(args);
    let shown = format!("{cmd:?}");
    let done = run_limited(&mut cmd, GCC_LIMIT)?;
    match done.status {
        Some(s) if s.success() => Ok(()),
        Some(s) => Err(format!("{shown} failed ({s}):\n{}", done.stderr)),
        None => Err(format!("{shown} timed out after {GCC_LIMIT:?}")),
    }
}

/// Fails the test, with the way out, unless gcc is here.
fn require_gcc() {
    let gcc_ok = run_limited(Command::new("gcc").arg("--version"), GCC_LIMIT)
        .map(|f| f.succeeded())
        .unwrap_or(false);
    assert!(gcc_ok, "gcc is missing: {SETUP_HINT}");
}

/// csmith's version line (e.g. "csmith 2.3.0"), or an error with the way out if csmith
/// or its runtime headers are missing.
fn csmith_version() -> Result<String, String> {
    // Even `csmith --version` writes a platform.info into its working directory.
    let mut probe = Command::new("csmith");
    probe
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .arg("--version");
    let done =
        run_limited(&mut probe, CSMITH_LIMIT).map_err(|e| format!("csmith is missing: {e}"))?;
    let version = String::from_utf8_lossy(&done.stdout);
    let version = version.lines().next().unwrap_or("").trim().to_string();
    if !done.succeeded() || version.is_empty() {
        return Err(format!("csmith --version failed: {SETUP_HINT}"));
    }
    let header = Path::new(CSMITH_INCLUDE).join("csmith.h");
    if !header.is_file() {
        return Err(format!("{} is missing: {SETUP_HINT}", header.display()));
    }
    Ok(version)
}

/// Fails the test unless gcc can compile for -m32 (x86_64's gcc can, with -nostdinc,
/// even without 32-bit libraries), which stands in for the ILP32 target i686.
fn require_m32() {
    let probe = run_limited(
        Command::new("gcc").args(["-m32", "-E", "-x", "c", "/dev/null"]),
        GCC_LIMIT,
    );
    let ok = probe.as_ref().map(Finished::succeeded).unwrap_or(false);
    assert!(
        ok,
        "gcc cannot compile for -m32 (an x86_64 gcc is needed for the ILP32 checks): {probe:?}"
    );
}

/// `flags` as owned strings, to be extended with paths.
fn owned(flags: &[&str]) -> Vec<String> {
    flags.iter().map(|s| s.to_string()).collect()
}

/// The flags that make gcc see only our headers (plus `extra` include dirs).
fn only_our_headers(extra_includes: &[&str]) -> Vec<String> {
    let mut flags = vec!["-nostdinc".to_string(), "-I".to_string()];
    flags.push(include_dir().display().to_string());
    for dir in extra_includes {
        flags.push("-I".to_string());
        flags.push(dir.to_string());
    }
    flags
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

/// The translation units of check 1: every header alone, every header twice (its guard,
/// or for assert.h its deliberate re-inclusion, must make that harmless), and all of
/// them together in both orders (size_t and NULL are shared between four headers).
fn standalone_sources() -> Vec<(String, String)> {
    // ISO C forbids an empty translation unit, so each file declares something.
    const ANCHOR: &str = "typedef int translation_unit_is_not_empty;\n";
    let include = |h: &str| format!("#include <{h}>\n");
    let mut units = Vec::new();
    for h in HEADERS {
        let stem = h.trim_end_matches(".h");
        units.push((format!("{stem}_alone.c"), include(h) + ANCHOR));
        units.push((format!("{stem}_twice.c"), include(h) + &include(h) + ANCHOR));
    }
    let forward: String = HEADERS.iter().map(|h| include(h)).collect();
    let backward: String = HEADERS.iter().rev().map(|h| include(h)).collect();
    units.push(("all_forward.c".to_string(), forward + ANCHOR));
    units.push(("all_backward.c".to_string(), backward + ANCHOR));
    units
}

#[test]
fn each_header_is_strict_c99_on_every_data_model() {
    require_gcc();
    require_m32();
    let dir = scratch_dir("standalone");
    let mut failures = Vec::new();
    for (name, source) in standalone_sources() {
        let path = dir.join(&name);
        write(&path, &source);
        for (model, model_flags) in MODELS {
            let mut args = owned(&[
                "-std=c99",
                "-pedantic-errors",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-fsyntax-only",
            ]);
            args.extend(owned(model_flags));
            args.extend(only_our_headers(&[]));
            args.push(path.display().to_string());
            if let Err(e) = gcc(&args) {
                failures.push(format!("[{model}] {name}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn static_checks_hold_on_every_data_model() {
    require_gcc();
    require_m32();
    let dir = scratch_dir("checker");
    let path = dir.join("check_headers.c");
    write(&path, CHECKER);
    let mut failures = Vec::new();
    for (model, model_flags) in MODELS {
        // C11 for _Static_assert, not -pedantic: see the checker's own comment.
        let mut args = owned(&["-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"]);
        args.extend(owned(model_flags));
        args.extend(only_our_headers(&[]));
        args.push(path.display().to_string());
        if let Err(e) = gcc(&args) {
            failures.push(format!("[{model}] {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The checker must be able to fail: a header with a wrong type is caught.
#[test]
fn static_checks_catch_a_wrong_header() {
    require_gcc();
    let dir = scratch_dir("checker_mutant");
    let include = dir.join("include");
    std::fs::create_dir_all(&include).expect("create include dir");
    for h in HEADERS {
        let text = std::fs::read_to_string(include_dir().join(h)).expect("read header");
        // int_fast16_t is long on LP64 with glibc; int is the classic mistake.
        let text = text.replace("typedef long int_fast16_t;", "typedef int int_fast16_t;");
        write(&include.join(h), &text);
    }
    let mutated = std::fs::read_to_string(include.join("stdint.h")).expect("read stdint.h");
    assert!(mutated.contains("typedef int int_fast16_t;\ntypedef long int_fast32_t;"));
    let path = dir.join("check_headers.c");
    write(&path, CHECKER);
    let include = include.display().to_string();
    let path = path.display().to_string();
    let args = [
        "-std=c11",
        "-Werror",
        "-fsyntax-only",
        "-m64",
        "-nostdinc",
        "-I",
        &include,
        &path,
    ];
    let err = gcc(&args).expect_err("a wrong int_fast16_t must fail the checker");
    assert!(
        err.contains("int_fast16_t"),
        "unexpected diagnostics:\n{err}"
    );
}

/// One csmith program on disk.
struct CsmithProgram {
    /// e.g. "seed7-no-bitfields-packed", for messages.
    name: String,
    path: PathBuf,
}

/// Generates the csmith programs once per test binary; both csmith tests share them.
/// csmith takes about half a second per program, so this runs in parallel, and keeps
/// the programs between runs: a program depends only on csmith's version, the seed and
/// the options, and the directory is named after the version.
fn csmith_programs() -> &'static [CsmithProgram] {
    static PROGRAMS: OnceLock<Result<Vec<CsmithProgram>, String>> = OnceLock::new();
    let programs = PROGRAMS.get_or_init(|| {
        require_gcc();
        let version = csmith_version()?;
        let version: String = version
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("headers_gcc")
            .join(format!("programs-{version}"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
        let jobs: Vec<(u32, &str, &[&str])> = CSMITH_SEEDS
            .flat_map(|seed| CSMITH_OPTION_SETS.map(|(name, options)| (seed, name, options)))
            .collect();
        parallel_map(&jobs, |&(seed, options_name, options)| {
            let name = format!("seed{seed}-{options_name}");
            let path = dir.join(format!("{name}.c"));
            if path.is_file() {
                return Ok(CsmithProgram { name, path });
            }
            let mut cmd = Command::new("csmith");
            // csmith writes a platform.info into its working directory: keep it here.
            cmd.current_dir(&dir);
            cmd.arg("--seed").arg(seed.to_string()).args(options);
            let done = run_limited(&mut cmd, CSMITH_LIMIT)?;
            if !done.succeeded() || done.stdout.is_empty() {
                return Err(format!(
                    "csmith for {name} failed or hung ({:?}): {}",
                    done.status, done.stderr
                ));
            }
            // Written whole, then renamed: an interrupted run leaves no half program.
            let partial = dir.join(format!("{name}.c.partial"));
            std::fs::write(&partial, &done.stdout)
                .and_then(|()| std::fs::rename(&partial, &path))
                .map_err(|e| format!("write {}: {e}", path.display()))?;
            Ok(CsmithProgram { name, path })
        })
        .into_iter()
        .collect()
    });
    match programs {
        Ok(programs) => programs,
        Err(e) => panic!("{e}"),
    }
}

/// `f` applied to every item by WORKERS threads; the results are in the items' order.
fn parallel_map<I: Sync, T: Send>(items: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new(items.iter().map(|_| None).collect());
    thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { break };
                let result = f(item);
                results.lock().unwrap_or_else(|p| p.into_inner())[index] = Some(result);
            });
        }
    });
    // A worker that panicked leaves its slot empty and has already failed the test
    // (thread::scope re-raises the panic), so every slot is filled here.
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.into_iter().flatten().collect()
}

/// Runs `check` on every program in parallel: the successes' values and the failures'
/// messages, each naming its program.
fn for_each_program<T: Send>(
    programs: &[CsmithProgram],
    check: impl Fn(&CsmithProgram) -> Result<T, String> + Sync,
) -> (Vec<T>, Vec<String>) {
    let mut values = Vec::new();
    let mut failures = Vec::new();
    for (program, outcome) in programs.iter().zip(parallel_map(programs, check)) {
        match outcome {
            Ok(value) => values.push(value),
            Err(e) => failures.push(format!("{}: {e}", program.name)),
        }
    }
    (values, failures)
}

#[test]
fn csmith_programs_compile_with_only_our_headers() {
    require_m32();
    let programs = csmith_programs();
    let (_, failures) = for_each_program(programs, |program| {
        for model in ["-m64", "-m32"] {
            let mut args = owned(&["-std=c99", "-fsyntax-only", "-w", model]);
            args.extend(only_our_headers(&[CSMITH_INCLUDE]));
            args.push(program.path.display().to_string());
            gcc(&args)?;
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What a program run shows: exit status (None: killed at RUN_LIMIT) and stdout.
fn run_program(binary: &Path) -> Result<(Option<ExitStatus>, Vec<u8>), String> {
    // The argument "1" makes csmith's main print every global's hash, not only the
    // final checksum, so that the comparison sees each printf.
    let done = run_limited(Command::new(binary).arg("1"), RUN_LIMIT)?;
    Ok((done.status, done.stdout))
}

#[test]
fn csmith_programs_built_with_our_headers_match_glibc_headers() {
    let programs = csmith_programs();
    let dir = scratch_dir("csmith_runs");
    let (compared, failures) = for_each_program(programs, |program| {
        let source = program.path.display().to_string();
        let reference = dir.join(format!("{}.glibc", program.name));
        let ours = dir.join(format!("{}.phicc-headers", program.name));
        let reference_str = reference.display().to_string();
        gcc(&[
            "-std=c99",
            "-w",
            "-O0",
            "-I",
            CSMITH_INCLUDE,
            &source,
            "-o",
            &reference_str,
        ])?;
        let mut args = owned(&["-std=c99", "-w", "-O0"]);
        args.extend(only_our_headers(&[CSMITH_INCLUDE]));
        args.extend([source.clone(), "-o".to_string(), ours.display().to_string()]);
        gcc(&args)?;

        let (reference_status, reference_stdout) = run_program(&reference)?;
        let Some(reference_status) = reference_status else {
            // Runs longer than RUN_LIMIT: nothing to compare; counted below.
            return Ok(false);
        };
        let (status, stdout) = run_program(&ours)?;
        if status != Some(reference_status) || stdout != reference_stdout {
            return Err(format!(
                "built with our headers: {status:?}, {} bytes of stdout ending {:?}; \
                 with glibc's: {reference_status}, {} bytes ending {:?}",
                stdout.len(),
                String::from_utf8_lossy(&stdout[stdout.len().saturating_sub(40)..]),
                reference_stdout.len(),
                String::from_utf8_lossy(
                    &reference_stdout[reference_stdout.len().saturating_sub(40)..]
                ),
            ));
        }
        if !reference_stdout.starts_with(b"...checksum after hashing")
            || !reference_stdout.windows(11).any(|w| w == b"checksum = ")
        {
            return Err("the program printed no hashes: was it run with \"1\"?".to_string());
        }
        Ok(true)
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let compared = compared.iter().filter(|&&c| c).count();
    assert!(
        compared >= MIN_PROGRAMS_COMPARED,
        "only {compared} of {} programs finished within {RUN_LIMIT:?}",
        programs.len()
    );
}

#[test]
fn assert_aborts_and_ndebug_removes_it_at_run_time() {
    require_gcc();
    let dir = scratch_dir("assert_runs");
    // main returns how often the asserted expression ran: once with assert on, never
    // with NDEBUG (check is then unused, hence -Wno-unused-function). Any argument
    // makes the assertion false.
    const PROGRAM: &str = "#include <assert.h>\n\
        static int evaluated;\n\
        static int check(int argc) { evaluated++; return argc == 1; }\n\
        int main(int argc, char **argv) {\n\
            (void)argv;\n\
            assert(check(argc));\n\
            return evaluated;\n\
        }\n";
    let source = dir.join("assert.c");
    write(&source, PROGRAM);
    let source = source.display().to_string();
    for (variant, define, expected_ok_exit) in [("on", None, 1), ("ndebug", Some("-DNDEBUG"), 0)] {
        let binary = dir.join(format!("assert-{variant}"));
        let binary_str = binary.display().to_string();
        let mut args = owned(&["-std=c99", "-Wall", "-Wno-unused-function", "-Werror"]);
        args.extend(define.map(str::to_string));
        args.extend(only_our_headers(&[]));
        args.extend([source.clone(), "-o".to_string(), binary_str]);
        gcc(&args).unwrap_or_else(|e| panic!("{e}"));

        let holds = run_limited(&mut Command::new(&binary), RUN_LIMIT).expect("run");
        assert_eq!(
            holds.status.and_then(|s| s.code()),
            Some(expected_ok_exit),
            "[{variant}] a holding assertion evaluates its expression once (0 times with NDEBUG)"
        );
        let fails = run_limited(Command::new(&binary).arg("x"), RUN_LIMIT).expect("run");
        let status = fails.status.expect("an assertion run must not hang");
        if define.is_some() {
            assert_eq!(
                status.code(),
                Some(0),
                "[{variant}] NDEBUG: nothing is checked"
            );
        } else {
            assert_eq!(
                status.signal(),
                Some(6),
                "[{variant}] a failed assert aborts (SIGABRT)"
            );
            assert!(
                fails.stdout.is_empty(),
                "[{variant}] and prints nothing to stdout"
            );
        }
    }
}
