//! The native runner end to end on every target: building C and assembly with the target's
//! gcc driver, running under qemu-user (or directly), and how exits, signals, timeouts,
//! argv, the environment and output limits come back. Expected values are what the C
//! programs below do by definition (exit 3, abort, ...) and what the hardware does
//! (integer division by zero traps on x86 only; `__builtin_trap` is `ud2` on x86 and
//! `brk`/`ebreak` — SIGTRAP — on aarch64/riscv64).

mod native_common;

use compiler::target::Target;
use native_common::require;
use oracle::native::{build, run, Build, BuildConfig, BuildError, Exit, RunLimits, Source};
use std::path::Path;
use std::time::{Duration, Instant};

/// One program, many behaviours, chosen by `argv[1]`.
const PROBE: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern char **environ;
int answer(void); /* in assembly */
static void illegal(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("ud2");
#elif defined(__aarch64__)
	__asm__ volatile("udf #0");
#elif defined(__riscv)
	__asm__ volatile("unimp");
#else
#error "unknown target"
#endif
}
int main(int argc, char **argv)
{
	volatile int zero = 0;
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "div"))
		return 10 / zero;
	if (!strcmp(mode, "abort"))
		abort();
	if (!strcmp(mode, "builtin-trap"))
		__builtin_trap();
	if (!strcmp(mode, "illegal"))
		illegal();
	if (!strcmp(mode, "segv"))
		*(volatile int *)0 = 1;
	if (!strcmp(mode, "loop"))
		for (;;) {
		}
	if (!strcmp(mode, "answer"))
		return answer();
	if (!strcmp(mode, "big")) {
		for (int i = 0; i < 10000; i++)
			fputs("0123456789", stdout);
		return 0;
	}
	if (!strcmp(mode, "write")) {
		/* 2: an earlier run's file is still here. */
		if (fopen("written-by-the-program", "r"))
			return 2;
		FILE *f = fopen("written-by-the-program", "w");
		return f ? 0 : 1;
	}
	printf("argc=%d", argc);
	for (int i = 0; i < argc; i++)
		printf(" [%s]", argv[i]);
	int n = 0;
	for (char **e = environ; *e; e++)
		n++;
	printf(" env=%d\n", n);
	fputs("to stderr\n", stderr);
	return 3;
}
"#;

/// `int answer(void) { return 42; }` in the target's assembly.
fn answer_asm(t: Target) -> &'static str {
    match t {
        Target::X86_64 | Target::I686 => {
            "\t.text\n\t.globl answer\nanswer:\n\tmovl $42, %eax\n\tret\n"
        }
        Target::Aarch64 => "\t.text\n\t.globl answer\nanswer:\n\tmov w0, #42\n\tret\n",
        Target::Riscv64 => "\t.text\n\t.globl answer\nanswer:\n\tli a0, 42\n\tret\n",
    }
}

fn build_probe(t: Target) -> Build {
    let sources = [Source::C(PROBE), Source::Asm(answer_asm(t))];
    build(t, &sources, &BuildConfig::default())
        .unwrap_or_else(|e| panic!("{}: the probe does not build: {e}", t.name()))
}

fn run_probe(t: Target, b: &Build, args: &[&str], limits: &RunLimits) -> oracle::native::Execution {
    run(t, b, args, limits).unwrap_or_else(|e| panic!("{}: cannot run: {e}", t.name()))
}

/// True when some process still runs `binary` (directly: its `/proc/PID/exe`; under
/// qemu: a command-line argument).
fn process_running(binary: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        panic!("/proc is not readable");
    };
    let needle = binary.as_os_str().as_encoded_bytes();
    entries.flatten().any(|e| {
        let pid_dir = e.path();
        if !e
            .file_name()
            .to_string_lossy()
            .bytes()
            .all(|b| b.is_ascii_digit())
        {
            return false;
        }
        let exe_matches = std::fs::read_link(pid_dir.join("exe")).is_ok_and(|p| p == binary);
        let cmdline = std::fs::read(pid_dir.join("cmdline")).unwrap_or_default();
        exe_matches || cmdline.split(|&b| b == 0).any(|arg| arg == needle)
    })
}

fn check_target(t: Target) {
    require(t);
    let name = t.name();
    let start = Instant::now();
    let probe = build_probe(t);
    let limits = RunLimits::default();

    // Exit status, stdout, stderr, argv[0] and the empty environment.
    let first = run_probe(t, &probe, &[], &limits);
    eprintln!(
        "{name}: build {:?}, first run {:?}, build + run {:?}",
        probe.elapsed,
        first.elapsed,
        start.elapsed()
    );
    assert_eq!(first.exit, Exit::Code(3), "{name}");
    assert_eq!(
        String::from_utf8_lossy(&first.stdout),
        "argc=1 [a.out] env=0\n",
        "{name}"
    );
    // Under qemu, qemu's own messages would come first; there are none on a clean exit.
    assert_eq!(
        String::from_utf8_lossy(&first.stderr),
        "to stderr\n",
        "{name}"
    );
    assert!(!first.truncated);
    // Arguments follow argv[0] unchanged; qemu does not read options after the binary.
    let with_args = run_probe(t, &probe, &["x y", "-0", ""], &limits);
    assert_eq!(
        String::from_utf8_lossy(&with_args.stdout),
        "argc=4 [a.out] [x y] [-0] [] env=0\n",
        "{name}"
    );

    // C and assembly sources link into one binary.
    let answer = run_probe(t, &probe, &["answer"], &limits);
    assert_eq!(answer.exit, Exit::Code(42), "{name}");

    // Signals come back as signals, under qemu too.
    let signal_of = |mode: &str| run_probe(t, &probe, &[mode], &limits).exit;
    let x86 = matches!(t, Target::X86_64 | Target::I686);
    let division = match t {
        Target::X86_64 | Target::I686 => Exit::Signal(libc::SIGFPE),
        // No trap: aarch64's sdiv gives 0, riscv64's div gives -1 (exit 255).
        Target::Aarch64 => Exit::Code(0),
        Target::Riscv64 => Exit::Code(255),
    };
    assert_eq!(signal_of("div"), division, "{name}: 10 / 0");
    assert_eq!(
        signal_of("abort"),
        Exit::Signal(libc::SIGABRT),
        "{name}: abort"
    );
    let builtin_trap = if x86 { libc::SIGILL } else { libc::SIGTRAP };
    assert_eq!(
        signal_of("builtin-trap"),
        Exit::Signal(builtin_trap),
        "{name}: __builtin_trap"
    );
    assert_eq!(
        signal_of("illegal"),
        Exit::Signal(libc::SIGILL),
        "{name}: ud2 / udf / unimp"
    );
    assert_eq!(
        signal_of("segv"),
        Exit::Signal(libc::SIGSEGV),
        "{name}: null store"
    );
    // No core file (qemu writes the guest's core into the working directory unless
    // RLIMIT_CORE is 0): the directory holds the sources and the binary only.
    let mut files: Vec<String> = std::fs::read_dir(probe.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["a.out", "s0.c", "s1.s"], "{name}");

    // Output past the limit: a prefix is kept and the run says so.
    let small = RunLimits {
        max_output: 1000,
        ..RunLimits::default()
    };
    let big = run_probe(t, &probe, &["big"], &small);
    assert_eq!(big.exit, Exit::Code(0), "{name}");
    assert_eq!(big.stdout, b"0123456789".repeat(100), "{name}");
    assert!(big.truncated, "{name}");

    // Each run has a fresh, empty working directory of its own, removed after the run:
    // the second run does not see the first one's file, and none is left.
    for _ in 0..2 {
        let wrote = run_probe(t, &probe, &["write"], &limits);
        assert_eq!(wrote.exit, Exit::Code(0), "{name}");
    }
    let left: Vec<_> = std::fs::read_dir(probe.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with("run-") || n == "written-by-the-program")
        .collect();
    assert!(left.is_empty(), "{name}: left behind {left:?}");

    // A timeout kills the program (and qemu) and leaves nothing behind.
    let short = RunLimits {
        timeout: Duration::from_millis(300),
        ..RunLimits::default()
    };
    let looping = run_probe(t, &probe, &["loop"], &short);
    assert_eq!(looping.exit, Exit::TimedOut, "{name}");
    assert!(
        looping.elapsed >= Duration::from_millis(300) && looping.elapsed < Duration::from_secs(5),
        "{name}: {:?}",
        looping.elapsed
    );
    assert!(
        !process_running(&probe.binary),
        "{name}: the loop still runs"
    );
    let dir = probe.dir().to_path_buf();
    drop(probe);
    assert!(!dir.exists(), "{name}: {} is left behind", dir.display());
}

#[test]
fn x86_64() {
    check_target(Target::X86_64);
}

#[test]
fn i686() {
    check_target(Target::I686);
}

#[test]
fn aarch64() {
    check_target(Target::Aarch64);
}

#[test]
fn riscv64() {
    check_target(Target::Riscv64);
}

#[test]
fn rejected_sources_name_the_error_without_temporary_paths() {
    for t in native_common::all_targets() {
        let name = t.name();
        match build(
            t,
            &[Source::C("int main(void) { return x; }\n")],
            &BuildConfig::default(),
        ) {
            Err(BuildError::Rejected(m)) => {
                assert!(
                    m.starts_with("s0.c:1:") && m.contains("error"),
                    "{name}: {m}"
                )
            }
            other => panic!("{name}: {other:?}"),
        }
        let asm = [
            Source::C("int main(void) { return 0; }\n"),
            Source::Asm("\tbogus_op 1\n"),
        ];
        match build(t, &asm, &BuildConfig::default()) {
            Err(BuildError::Rejected(m)) => {
                assert!(m.starts_with("s1.s:1: Error:"), "{name}: {m}")
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn a_c_file_with_include_dirs_and_flags() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("answer.h"), "#define ANSWER (40 + EXTRA)\n").unwrap();
    let file = dir.path().join("main.c");
    std::fs::write(
        &file,
        "#include \"answer.h\"\nint main(void) { return ANSWER; }\n",
    )
    .unwrap();
    let cfg = BuildConfig {
        opt: "-O2".into(),
        include_dirs: vec![dir.path().to_path_buf()],
        extra_flags: vec!["-DEXTRA=2".into()],
        ..BuildConfig::default()
    };
    for t in native_common::all_targets() {
        let b = build(t, &[Source::CFile(&file)], &cfg).unwrap();
        let ran = run(t, &b, &[], &RunLimits::default()).unwrap();
        assert_eq!(ran.exit, Exit::Code(42), "{}", t.name());
    }
}

/// Set (to a target name) in the environment of the helper process that
/// [`a_killed_harness_leaves_no_process_and_its_directory_is_swept`] starts and kills.
const HELPER_ENV: &str = "PHIHUNT_NATIVE_KILLED_HARNESS_HELPER";
/// The helper's stdout line naming the binary it runs.
const HELPER_LINE: &str = "helper-binary: ";

/// Not a test of its own: the body of the helper process (a stand-in for a harness that
/// gets killed while a program loops). Without [`HELPER_ENV`] it returns at once.
#[test]
fn killed_harness_helper() {
    let Some(target) = std::env::var_os(HELPER_ENV) else {
        return;
    };
    let t = Target::from_name(&target.to_string_lossy()).expect("a target name");
    let probe = build_probe(t);
    println!("{HELPER_LINE}{}", probe.binary.display());
    let long = RunLimits {
        timeout: Duration::from_secs(60),
        ..RunLimits::default()
    };
    let _ = run(t, &probe, &["loop"], &long);
}

/// A harness killed with SIGKILL (no destructor runs) while a program loops: the
/// program (or its qemu) dies with it, and the build directory it leaves is removed by
/// the next `remove_stale_dirs` (which every process's first build runs).
#[test]
fn a_killed_harness_leaves_no_process_and_its_directory_is_swept() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    for t in native_common::all_targets() {
        let name = t.name();
        let mut helper = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "killed_harness_helper", "--nocapture"])
            .env(HELPER_ENV, name)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(helper.stdout.take().unwrap());
        let binary = stdout
            .lines()
            .map_while(Result::ok)
            .find_map(|l| l.strip_prefix(HELPER_LINE).map(std::path::PathBuf::from))
            .unwrap_or_else(|| panic!("{name}: the helper printed no binary"));
        let started = Instant::now();
        while !process_running(&binary) {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "{name}: never started"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        helper.kill().unwrap();
        helper.wait().unwrap();
        let killed = Instant::now();
        while process_running(&binary) {
            assert!(
                killed.elapsed() < Duration::from_secs(2),
                "{name}: the program outlived its harness"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let dir = binary.parent().unwrap();
        assert!(dir.exists(), "{name}: a killed process cannot clean up");
        oracle::native::build::remove_stale_dirs();
        assert!(!dir.exists(), "{name}: {} was not swept", dir.display());
    }
}

/// The C reference on a target: the target's own gcc (sizeof(long) tells which), run as
/// the target's binaries run, classified as `NativeOutcome`.
#[test]
fn reference_on_every_target() {
    use oracle::native::{reference_on, NativeOutcome, ReferenceConfig};
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let sizes = write(
        "sizes.c",
        "#include <stdio.h>\nint main(int argc, char **argv) {\n\
         printf(\"%d %d %s\", (int)sizeof(long), (int)sizeof(void *), argv[0]);\n\
         return 7;\n}\n",
    );
    let aborts = write(
        "abort.c",
        "#include <stdlib.h>\nint main(void) { abort(); }\n",
    );
    let bad = write("bad.c", "int main(void) { return x; }\n");
    let cfg = ReferenceConfig::default();
    for t in native_common::all_targets() {
        let name = t.name();
        let long = if t == Target::I686 {
            "4 4 a.out"
        } else {
            "8 8 a.out"
        };
        for opt in ["-O0", "-O2"] {
            let r = reference_on(t, &sizes, &cfg, opt).unwrap();
            assert_eq!(
                r.outcome,
                NativeOutcome::Exited {
                    code: 7,
                    stdout: long.as_bytes().to_vec()
                },
                "{name} {opt}"
            );
            assert!(r.compile_time > Duration::ZERO && r.run_time > Duration::ZERO);
        }
        let r = reference_on(t, &aborts, &cfg, "-O0").unwrap();
        assert_eq!(r.outcome, NativeOutcome::Signaled(libc::SIGABRT), "{name}");
        match reference_on(t, &bad, &cfg, "-O0").unwrap().outcome {
            NativeOutcome::CompileFailed(m) => assert!(m.contains("error"), "{name}: {m}"),
            o => panic!("{name}: {o:?}"),
        }
    }
}
