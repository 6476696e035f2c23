//! The `phicc` driver as a user runs it: options, stages, `-o`, and errors in the
//! `file:line:col: error: message` form with exit status 1 (usage errors: 2).

use std::path::PathBuf;
use std::process::Command;

fn phicc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_phicc"))
        .args(args)
        .output()
        .expect("run phicc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `text` to `name` inside the test's scratch directory (removed when the test's
/// `TempDir` drops, even when the test fails).
fn temp(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

const IR: &str = "func @f() -> i32 {\n.LBB0:\n    %0 = alloca i32, 4, 4\n    store i32 7:i32, %0\n    %1 = load i32 %0\n    ret i32 %1\n}\n";

#[test]
fn ir_input_prints_any_stage() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let f = temp(&scratch, "f.ir", IR);
    let (code, lowered, err) = phicc(&[&f, "--emit-ir=lowered"]);
    assert_eq!(code, 0, "{err}");
    assert!(lowered.contains("load i32"), "{lowered}");
    // mem2reg promotes the slot: its load and store are gone after it.
    let (code, promoted, err) = phicc(&[&f, "--emit-ir=mem2reg"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !promoted.contains("load") && !promoted.contains("store"),
        "{promoted}"
    );
    // The default is the last stage, the same as --emit-ir and --emit-ir=phi_elim.
    let (_, last, _) = phicc(&[&f]);
    let (_, plain, _) = phicc(&[&f, "--emit-ir"]);
    let (_, named, _) = phicc(&[&f, "--emit-ir=phi_elim"]);
    assert_eq!(last, plain);
    assert_eq!(last, named);
}

#[test]
fn dash_o_writes_the_output_to_a_file() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let f = temp(&scratch, "g.ir", IR);
    let out = scratch.path().join("g.out");
    let o = out.display().to_string();
    let (code, stdout, err) = phicc(&[&f, "--emit-ir=lowered", "-o", &o]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout, "");
    let (_, direct, _) = phicc(&[&f, "--emit-ir=lowered"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), direct);
}

#[test]
fn preprocess_only_with_defines_and_includes() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let dir = PathBuf::from(temp(&scratch, "inc/x.h", ""))
        .parent()
        .unwrap()
        .to_path_buf();
    temp(&scratch, "inc/x.h", "#define FROM_HEADER 7\n");
    let c = temp(
        &scratch,
        "p.c",
        "#include \"x.h\"\nint a = FROM_HEADER + N;\n",
    );
    let (code, out, err) = phicc(&["-E", "-DN=5", "-I", dir.to_str().unwrap(), &c]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "int a = 7 + 5;");
    let (code, out2, _) = phicc(&["-E", "-DN=5", &format!("-I{}", dir.display()), &c]);
    assert_eq!(code, 0);
    assert_eq!(out, out2);
}

#[test]
fn errors_have_file_line_col_and_status_1() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let c = temp(&scratch, "e.c", "int x;\n#error stop here\n");
    let (code, out, err) = phicc(&[&c]);
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(err.starts_with(&format!("{c}:2:")), "{err}");
    assert!(err.contains(": error: "), "{err}");
    let bad = temp(&scratch, "bad.ir", "func @f( -> i32 {\n");
    let (code, _, err) = phicc(&[&bad]);
    assert_eq!(code, 1);
    assert!(err.starts_with(&format!("{bad}:1:")), "{err}");
    let (code, _, err) = phicc(&["/nonexistent/phicc-missing.c"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let f = temp(&scratch, "u.ir", IR);
    assert_eq!(phicc(&[]).0, 2);
    assert_eq!(phicc(&[&f, "--frobnicate"]).0, 2);
    assert_eq!(phicc(&[&f, "--target", "vax"]).0, 2);
    assert_eq!(phicc(&[&f, "-I"]).0, 2);
    let (code, _, err) = phicc(&[&f, "--emit-ir=no_such_stage"]);
    assert_eq!(code, 2);
    assert!(err.contains("no stage named `no_such_stage`"), "{err}");
}

/// Needs the C front end (issue 5): a C file goes through every stage.
#[test]
fn c_input_prints_the_lowered_and_final_ir() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let c = temp(
        &scratch,
        "m.c",
        "int twice(int x) { return x * 2; }\nint main(void) { return twice(21); }\n",
    );
    for target in ["x86_64", "i686", "aarch64", "riscv64"] {
        let (code, out, err) = phicc(&[&c, "--target", target, "--emit-ir=lowered"]);
        assert_eq!(code, 0, "{target}: {err}");
        assert!(
            out.contains("func @main") && out.contains("func @twice"),
            "{out}"
        );
    }
    let (code, out, err) = phicc(&[&c]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("func @main"), "{out}");
}

/// Runs `exe` with a timeout; (exit status, stdout).
fn run_exe(exe: &std::path::Path) -> (i32, String) {
    let mut child = Command::new(exe)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run the executable");
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > std::time::Duration::from_secs(10) {
            let _ = child.kill();
            panic!("{} ran for more than 10 s", exe.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("collect output");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

const PROGRAM: &str = "#include <stdio.h>\n\
    static int sum(int n) { int s = 0; for (int i = 1; i <= n; i++) s += i; return s; }\n\
    int main(void) { printf(\"sum = %d\\n\", sum(10)); return sum(4); }\n";

#[test]
fn dash_o_builds_an_executable_with_either_allocator() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("prog.c");
    std::fs::write(&c, PROGRAM).unwrap();
    for regalloc in ["--regalloc=linear", "--regalloc=stack"] {
        let exe = dir.path().join("prog");
        let (code, out, err) = phicc(&[c.to_str().unwrap(), regalloc, "-o", exe.to_str().unwrap()]);
        assert_eq!(code, 0, "{regalloc}: {err}");
        assert_eq!(out, "");
        // 1 + ... + 10 = 55 printed; 1 + ... + 4 = 10 returned.
        assert_eq!(run_exe(&exe), (10, "sum = 55\n".to_string()), "{regalloc}");
    }
    // An IR file too; `-o x.ir` still writes IR text.
    let ir = dir.path().join("f.ir");
    std::fs::write(&ir, IR.replace("@f()", "@main()")).unwrap();
    let exe = dir.path().join("from_ir");
    let (code, _, err) = phicc(&[
        ir.to_str().unwrap(),
        "--target=x86_64",
        "-o",
        exe.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(run_exe(&exe), (7, String::new()));
    let text = dir.path().join("out.ir");
    let (code, _, err) = phicc(&[ir.to_str().unwrap(), "-o", text.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&text)
        .unwrap()
        .contains("func @main"));
}

#[test]
fn dash_s_writes_assembly_that_assembles() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("prog.c");
    std::fs::write(&c, PROGRAM).unwrap();
    let (code, asm, err) = phicc(&[c.to_str().unwrap(), "-S"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        asm.contains("main:") && asm.contains("call printf"),
        "{asm}"
    );
    let s = dir.path().join("prog.s");
    let (code, stdout, err) = phicc(&[c.to_str().unwrap(), "-S", "-o", s.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout, "");
    assert_eq!(std::fs::read_to_string(&s).unwrap(), asm);
    let obj = dir.path().join("prog.o");
    let status = Command::new("x86_64-linux-gnu-gcc")
        .args(["-c", "-o"])
        .arg(&obj)
        .arg(&s)
        .status()
        .expect("run x86_64-linux-gnu-gcc (scripts/setup.sh installs it)");
    assert!(status.success());
}

#[test]
fn backend_errors_and_bad_backend_options_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let ir = dir.path().join("f.ir");
    std::fs::write(&ir, IR).unwrap();
    let f = ir.to_str().unwrap();
    // Targets without a backend yet: an error naming the target.
    for target in compiler::target::Target::ALL {
        if compiler::backend::supported_targets().contains(&target) {
            continue;
        }
        let (code, out, err) = phicc(&[f, "-S", &format!("--target={}", target.name())]);
        assert_eq!(code, 2, "{target:?}: {err}");
        assert_eq!(out, "");
        assert!(
            err.starts_with(&format!("phicc: error: {}", target.name())),
            "{err}"
        );
    }
    // An IR construct the backend refuses: an alloca outside the entry block.
    let late_alloca = dir.path().join("late.ir");
    std::fs::write(
        &late_alloca,
        "declare @puts(ptr) -> i32\nfunc @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
         condbr %0, .LBB1, .LBB2\n.LBB1:\n    %1 = alloca i8, 4, 4\n    store i8 0, %1\n    \
         %2 = call i32 @puts(ptr %1)\n    br .LBB2\n.LBB2:\n    ret i32 0\n}\n",
    )
    .unwrap();
    let (code, _, err) = phicc(&[late_alloca.to_str().unwrap(), "-S"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with("phicc: error: x86_64: in function @f: `%1 = alloca"),
        "{err}"
    );
    assert_eq!(phicc(&[f, "-S", "--regalloc=graph"]).0, 2);
    assert_eq!(phicc(&[f, "-S", "--emit-ir"]).0, 2);
    assert_eq!(phicc(&[f, "-S", "-E"]).0, 2);
}
