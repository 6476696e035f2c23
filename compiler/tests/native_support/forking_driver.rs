//! A C `main` that runs numbered cases, each in a child process of its own, and reports
//! how each ended: one program start (one qemu start) serves every case of a module.
//!
//! The caller defines `static void run_case(int i)`; [`forking_main`] forks a child per
//! case, which runs `run_case(i)` and exits 0 when it returns (or exits, traps or is
//! killed inside it). The parent, after each child, prints `end I STATUS` on stderr (the
//! exit status, or `signal N`) and [`end_marker`] on stdout; [`split_runs`] reads that
//! back.
//!
//! Why: starting qemu costs more than a fork, and the IR corpus and the trap cases are
//! hundreds of tiny runs per target.
//!
//! Invariants: every case starts from the program's initial state (the parent calls
//! nothing of the module before forking), so cases cannot affect each other; a case
//! that loops dies of SIGALRM after [`CASE_SECONDS`] and the cases after it still run;
//! stdout and stderr are unbuffered, so what a case printed before it died is seen, in
//! order; a case the parent never reached (the whole program was killed) has no status,
//! which never matches an expectation; a case whose child died of SIGSEGV runs once more
//! and only its second run counts (see [`forking_main`]).

use super::toolchain::RUN_TIMEOUT;
use std::time::Duration;

/// How long one case may take (`alarm` in the child).
pub const CASE_SECONDS: u32 = 10;

/// The headers [`forking_main`] needs (and `printf`/`exit` for the cases).
pub const FORKING_INCLUDES: &str =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <sys/wait.h>\n";

/// What the parent prints on stdout after case `i`'s own output.
pub fn end_marker(i: usize) -> String {
    format!("\n@@phihunt case {i} ended@@\n")
}

/// What the parent prints on stdout when it runs case `i` again: what the case printed
/// before it is dropped.
pub fn retry_marker(i: usize) -> String {
    format!("\n@@phihunt case {i} again@@\n")
}

/// The `main` that runs cases `0..count` through `run_case`, each in a forked child. A
/// child killed by SIGSEGV is run once more and the second run is the one reported:
/// under a loaded qemu-user a forked child was once seen dying of SIGSEGV where every
/// rerun trapped as expected (qemu's own fault, not the program's), while a real
/// segfault of the code under test is deterministic and shows again.
pub fn forking_main(count: usize) -> String {
    let marker = end_marker(0).replace('\n', "\\n").replace(" 0 ", " %d ");
    let again = retry_marker(0).replace('\n', "\\n").replace(" 0 ", " %d ");
    format!(
        "int main(void) {{\n  setvbuf(stdout, 0, _IONBF, 0);\n  setvbuf(stderr, 0, _IONBF, 0);\n  \
         for (int i = 0; i < {count}; i++) {{\n    int status = 0;\n    \
         for (int attempt = 0; attempt < 2; attempt++) {{\n      pid_t child = fork();\n      \
         if (child < 0) return 126;\n      \
         if (child == 0) {{ alarm({CASE_SECONDS}); run_case(i); exit(0); }}\n      \
         if (waitpid(child, &status, 0) != child) return 127;\n      \
         if (attempt == 0 && WIFSIGNALED(status) && WTERMSIG(status) == 11) {{\n        \
         fprintf(stderr, \"again %d\\n\", i);\n        printf(\"{again}\", i);\n        continue;\n      }}\n      \
         break;\n    }}\n    \
         if (WIFSIGNALED(status)) fprintf(stderr, \"end %d signal %d\\n\", i, WTERMSIG(status));\n    \
         else fprintf(stderr, \"end %d %d\\n\", i, WEXITSTATUS(status));\n    \
         printf(\"{marker}\", i);\n  }}\n  return 0;\n}}\n"
    )
}

/// The time limit for a whole forking program of `count` cases.
pub fn forking_limit(count: usize) -> Duration {
    RUN_TIMEOUT + Duration::from_secs(u64::from(CASE_SECONDS) * count as u64)
}

/// What one case did: its status (`None` when the parent never reported it), the
/// `result ` line it printed on stderr (if any) and its stdout.
#[derive(Debug, Default)]
pub struct CaseRun {
    pub status: Option<String>,
    pub result: Option<String>,
    pub stdout: Vec<u8>,
}

/// Splits a forking program's output into what each of `count` cases did.
pub fn split_runs(stdout: &[u8], stderr: &[u8], count: usize) -> Vec<CaseRun> {
    let mut runs: Vec<CaseRun> = (0..count).map(|_| CaseRun::default()).collect();
    let mut current = 0;
    for l in String::from_utf8_lossy(stderr).lines() {
        if let Some(r) = l.strip_prefix("result ") {
            if let Some(run) = runs.get_mut(current) {
                run.result.get_or_insert_with(|| r.to_string());
            }
        } else if l.starts_with("again ") {
            // The case runs again: what its first run printed does not count.
            if let Some(run) = runs.get_mut(current) {
                run.result = None;
            }
        } else if let Some(end) = l.strip_prefix("end ") {
            let Some((i, status)) = end.split_once(' ') else {
                continue;
            };
            if let Some(run) = i.parse::<usize>().ok().and_then(|i| runs.get_mut(i)) {
                run.status = Some(status.to_string());
            }
            current += 1;
        }
    }
    let mut rest = stdout;
    for (i, run) in runs.iter_mut().enumerate() {
        let marker = end_marker(i);
        let found = rest
            .windows(marker.len())
            .position(|w| w == marker.as_bytes());
        match found {
            Some(at) => {
                let mut own = &rest[..at];
                let again = retry_marker(i);
                if let Some(r) = own.windows(again.len()).position(|w| w == again.as_bytes()) {
                    own = &own[r + again.len()..];
                }
                run.stdout = own.to_vec();
                rest = &rest[at + marker.len()..];
            }
            None => {
                run.stdout = rest.to_vec();
                break;
            }
        }
    }
    runs
}

/// A case that really segfaults is reported as SIGSEGV after its one rerun, with only
/// the rerun's stdout; the cases around it are unaffected.
pub fn a_real_segfault_is_reported_after_its_rerun(target: compiler::backend::Target) {
    use super::toolchain::{gcc, require_toolchain, run_binary_for};
    require_toolchain(target);
    let program = format!(
        "{FORKING_INCLUDES}static void run_case(int i) {{\n  printf(\"case%d\", i);\n  \
         if (i == 1) *(volatile int *)0 = 1;\n}}\n{}",
        forking_main(3)
    );
    let dir = tempfile::tempdir().expect("a scratch directory");
    let c = dir.path().join("segv.c");
    let exe = dir.path().join("segv");
    std::fs::write(&c, program).expect("write the driver");
    gcc(target, &["-O0"], &[&c], &exe).expect("gcc builds the driver");
    let got = run_binary_for(target, &exe, dir.path(), &[], forking_limit(3)).expect("it runs");
    let runs = split_runs(&got.stdout, &got.stderr, 3);
    let status: Vec<Option<&str>> = runs.iter().map(|r| r.status.as_deref()).collect();
    assert_eq!(status, [Some("0"), Some("signal 11"), Some("0")], "{got:?}");
    let stdout: Vec<&[u8]> = runs.iter().map(|r| r.stdout.as_slice()).collect();
    assert_eq!(stdout, [&b"case0"[..], b"case1", b"case2"], "{got:?}");
    assert!(
        String::from_utf8_lossy(&got.stderr).contains("again 1"),
        "the segfaulting case should have run twice: {got:?}"
    );
}
