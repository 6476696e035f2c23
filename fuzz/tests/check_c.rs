//! `phihunt check FILE.c`: a C program is compiled by phicc's front end, run at every
//! stage in the oracle and compared with the host `gcc -O0` build (exit status and
//! stdout). Exit codes as for `.ir`: 0 all agree, 1 a mismatch, 2 invalid input.
//!
//! Expected values come from the C standard (and gcc), never from phihunt's output.

mod common;
use common::{counts, last_line, phihunt};

/// A C file in its own scratch directory: it reads as the file's path, and the directory
/// is removed when the guard drops (a shared static directory would never be dropped).
struct TempC {
    _dir: tempfile::TempDir,
    path: String,
}

impl std::ops::Deref for TempC {
    type Target = str;
    fn deref(&self) -> &str {
        &self.path
    }
}

impl std::fmt::Display for TempC {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path)
    }
}

/// Writes `text` to `name` in a fresh scratch directory (removed when the guard drops).
fn temp_c(name: &str, text: &str) -> TempC {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let p = dir.path().join(name);
    std::fs::write(&p, text).expect("write the C file");
    TempC {
        path: p.display().to_string(),
        _dir: dir,
    }
}

#[test]
fn a_front_end_error_is_invalid_input_with_its_location() {
    let f = temp_c("fe_error.c", "int main(void) { return 0; }\n#error no\n");
    let (code, out, err) = phihunt(&["check", "--targets", "none", &f]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains(&format!("{f}:2:")), "{out}");
    assert!(out.contains("error"), "{out}");
    assert_eq!(counts(last_line(&out)), (0, 0));
}

#[test]
fn c_needs_the_x86_64_data_model() {
    let f = temp_c("ilp32.c", "int main(void) { return 0; }\n");
    let (code, out, _) = phihunt(&["check", "--targets", "none", "--ptr-bytes", "4", &f]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("x86_64"), "{out}");
}

const AGREE: &str = "#include <stdio.h>\n\
int main(void) {\n\
    int s = 0;\n\
    for (int i = 1; i <= 10; i++) s += i;\n\
    printf(\"sum %d %X\\n\", s, 255u);\n\
    return s + 200;\n\
}\n";

/// Needs the front end.
#[test]
fn a_program_that_agrees_with_gcc_passes_every_stage() {
    let f = temp_c("agree.c", AGREE);
    let (code, out, err) = phihunt(&["check", "--targets", "none", &f]);
    assert_eq!(code, 0, "{out}{err}");
    // 255 & 0xff: the status gcc's binary exits with; stdout from C99 7.19.6.1.
    assert!(
        out.contains("reference (gcc -O0): exit 255, stdout \"sum 55 FF\\n\""),
        "{out}"
    );
    let (passed, failed) = counts(last_line(&out));
    assert_eq!(failed, 0);
    for stage in ["lowered", "mem2reg", "phi_elim"] {
        assert!(out.contains(&format!("\n{stage} ")), "{stage}: {out}");
    }
    assert!(passed >= 3, "{out}");
}

/// Needs the front end: `exit(N)` and the `main(int, char **)` form.
#[test]
fn exit_and_argc() {
    let f = temp_c(
        "exit.c",
        "#include <stdlib.h>\nint main(int argc, char **argv) { if (argc == 1) exit(7); return 1; }\n",
    );
    let (code, out, err) = phihunt(&["check", "--targets", "none", &f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("reference (gcc -O0): exit 7"), "{out}");
}

/// Needs the front end: a reference that never ends or crashes makes the input invalid.
#[test]
fn reference_timeouts_and_crashes_are_invalid_never_mismatches() {
    let looping = temp_c("loop.c", "int main(void) { for (;;) {} }\n");
    let (code, out, _) = phihunt(&[
        "check",
        "--targets",
        "none",
        "--ref-timeout",
        "300ms",
        &looping,
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("reference timeout"), "{out}");
    assert_eq!(counts(last_line(&out)), (0, 0));
    let crash = temp_c(
        "abort.c",
        "#include <stdlib.h>\nint main(void) { abort(); }\n",
    );
    let (code, out, _) = phihunt(&["check", "--targets", "none", &crash]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("reference crashed (signal 6)"), "{out}");
}

/// Needs the front end: undefined behaviour the UB judge sees at `lowered` (reading an
/// uninitialised variable) makes the input invalid, named by its category, whatever gcc's
/// binary printed.
#[test]
fn undefined_behaviour_at_lowered_is_invalid() {
    let f = temp_c("uninit.c", "int main(void) { int x; return x & 1; }\n");
    let (code, out, _) = phihunt(&["check", "--targets", "none", &f]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("undefined behaviour (UninitRead)"), "{out}");
}

/// Needs the front end: a seeded middle-end bug (arithmetic shift right done as a logical
/// one) makes later stages disagree with gcc: exit 1, and `lowered` still agrees.
#[test]
fn a_seeded_middle_end_bug_is_a_mismatch() {
    let f = temp_c(
        "shift.c",
        "#include <stdio.h>\n\
         int main(int argc, char **argv) {\n\
             int x = -8 * argc;\n\
             printf(\"%d\\n\", x >> 28);\n\
             return 0;\n\
         }\n",
    );
    let (code, out, err) = phihunt(&["check", "--targets", "none", &f]);
    assert_eq!(code, 0, "{out}{err}");
    // -8 >> 28 is -1 with gcc (arithmetic shift, implementation-defined in C99 6.5.7).
    assert!(out.contains("stdout \"-1\\n\""), "{out}");
    let (code, out, _) = phihunt(&[
        "--mutant",
        "simplify_ashr_as_lshr",
        "check",
        "--targets",
        "none",
        &f,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("lowered ") && l.ends_with(" ok")),
        "{out}"
    );
    assert!(out.contains("✗"), "{out}");
}

/// A directory holds `.ir` and `.c` inputs: both are picked up.
#[test]
fn directories_pick_up_c_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    std::fs::write(
        dir.join("a.ir"),
        "; run: @f(2) == 3\nfunc @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    %1 = add i32 %0, 1\n    ret i32 %1\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("b.c"), "int main(void) { return 0; }\n").unwrap();
    std::fs::write(dir.join("c.h"), "#error headers are not inputs\n").unwrap();
    let (_, out, _) = phihunt(&["check", "--targets", "none", dir.to_str().unwrap()]);
    assert!(out.contains("a.ir"), "{out}");
    assert!(out.contains("b.c"), "{out}");
    assert!(!out.contains("c.h"), "{out}");
}

#[test]
fn time_passes_lists_the_front_end_and_every_stage() {
    let f = temp_c("timed.c", AGREE);
    let (code, out, err) = phihunt(&["check", "--targets", "none", "--time-passes", &f]);
    assert_eq!(code, 0, "{out}{err}");
    let timing = out
        .split("time-passes: stage, changes, time\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no timing block in:\n{out}"));
    assert!(timing.trim_start().starts_with("front end"), "{out}");
    assert!(
        timing.contains("  mem2reg ") && timing.contains("  phi_elim "),
        "{out}"
    );
}
