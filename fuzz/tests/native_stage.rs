//! The native stage's plumbing, independent of phicc's backends: builds, runs and verdicts
//! with assembly written by hand or by gcc, so every expected value is known without the
//! code under test (hand-computed results, gcc's own binaries).
//!
//! - IR side: hand-written x86_64 and i686 functions linked with the generated driver;
//!   agreement, a wrong value, a trap, a timeout, a renamed `@main`;
//! - C side: gcc -S's assembly of a program must agree with gcc's binary, an edited copy
//!   must not; a program whose -O0 and -O2 builds disagree (strict aliasing) and one whose
//!   reference crashes are discarded, never failures.

use compiler::backend::RegallocMode;
use compiler::ir::text::parse_module;
use compiler::target::Target;
use oracle::{Outcome, Trap};
use phihunt::diff::FindingKind;
use phihunt::native::c_program::{gcc_reference, run_c_assembly, CReference};
use phihunt::native::ir_program::{run_ir_assembly, CallExpectation, IrStageResult};
use phihunt::native::{NativeLimits, NativeStage, RowVerdict};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

const MODULE: &str = "\
func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = add i32 %0, 1
    ret i32 %1
}
func @spin() -> i32 {
.LBB1:
    br .LBB1
}
func @trap() -> void {
.LBB2:
    unreachable
}
func @main(i32) -> i32 {
.LBB3:
    %0 = paramref 0, i32
    %1 = add i32 %0, 2
    ret i32 %1
}
";

/// The four functions of `MODULE`, by hand: f(x) = x + 1, spin loops, trap is ud2, and
/// main (renamed for the driver) is x + 2.
fn hand_assembly(t: Target) -> &'static str {
    match t {
        Target::X86_64 => {
            "\t.text\n\t.globl f\nf:\n\tleal 1(%rdi), %eax\n\tret\n\
             \t.globl spin\nspin:\n\tjmp spin\n\
             \t.globl trap\ntrap:\n\tud2\n\
             \t.globl __phihunt_ir_main\n__phihunt_ir_main:\n\tleal 2(%rdi), %eax\n\tret\n\
             \t.section .note.GNU-stack,\"\",@progbits\n"
        }
        Target::I686 => {
            "\t.text\n\t.globl f\nf:\n\tmovl 4(%esp), %eax\n\taddl $1, %eax\n\tret\n\
             \t.globl spin\nspin:\n\tjmp spin\n\
             \t.globl trap\ntrap:\n\tud2\n\
             \t.globl __phihunt_ir_main\n__phihunt_ir_main:\n\tmovl 4(%esp), %eax\n\taddl $2, %eax\n\tret\n\
             \t.section .note.GNU-stack,\"\",@progbits\n"
        }
        _ => unreachable!(),
    }
}

fn call(func: &str, args: &[i64], outcome: Outcome) -> CallExpectation {
    CallExpectation {
        func: func.into(),
        args: args.to_vec(),
        outcome,
        stdout: Some(Vec::new()),
    }
}

fn limits() -> NativeLimits {
    NativeLimits {
        run_timeout: Duration::from_millis(500),
        long_run_timeout: Duration::from_millis(1000),
        ..NativeLimits::default()
    }
}

fn x86_targets() -> Vec<Target> {
    [Target::X86_64, Target::I686]
        .into_iter()
        .filter(|t| oracle::native::available(*t))
        .collect()
}

#[test]
fn ir_calls_are_judged_against_their_expectations() {
    let module = parse_module(MODULE).unwrap();
    let targets = x86_targets();
    assert!(
        targets.contains(&Target::X86_64),
        "x86_64-linux-gnu-gcc is needed: run scripts/setup.sh"
    );
    for t in targets {
        let calls = [
            call("f", &[2], Outcome::Returned(Some(3))),
            call("f", &[2], Outcome::Returned(Some(4))),
            call("trap", &[], Outcome::Trapped(Trap::Unreachable)),
            call("main", &[5], Outcome::Returned(Some(7))),
            call("f", &[-1], Outcome::Returned(Some(0))),
            call("spin", &[], Outcome::Returned(Some(0))),
        ];
        let stage = NativeStage::new(t, RegallocMode::LinearScan);
        let r = run_ir_assembly(hand_assembly(t), &module, stage, &calls, &limits()).unwrap();
        let IrStageResult::Ran {
            calls: verdicts,
            times,
        } = r
        else {
            panic!("{t:?}: {r:?}");
        };
        assert!(times.build > Duration::ZERO);
        assert_eq!(verdicts[0], RowVerdict::Agrees, "{t:?}");
        match &verdicts[1] {
            RowVerdict::Failed(f) => {
                assert_eq!(f.kind, FindingKind::Mismatch);
                assert!(f.detail.contains("returning 3"), "{}", f.detail);
            }
            v => panic!("{t:?}: {v:?}"),
        }
        assert_eq!(verdicts[2], RowVerdict::Agrees, "{t:?}: ud2 is SIGILL");
        assert_eq!(verdicts[3], RowVerdict::Agrees, "{t:?}: @main renamed");
        assert_eq!(verdicts[4], RowVerdict::Agrees, "{t:?}");
        match &verdicts[5] {
            RowVerdict::Failed(f) => assert_eq!(f.kind, FindingKind::Timeout),
            v => panic!("{t:?}: {v:?}"),
        }
    }
}

#[test]
fn assembly_the_assembler_rejects_is_asm_rejected() {
    let module = parse_module(MODULE).unwrap();
    let stage = NativeStage::new(Target::X86_64, RegallocMode::Stack);
    let calls = [call("f", &[1], Outcome::Returned(Some(2)))];
    let r = run_ir_assembly("\tbogus %eax\n", &module, stage, &calls, &limits()).unwrap();
    match r {
        IrStageResult::Failed(f, _) => {
            assert_eq!(f.kind, FindingKind::AsmRejected);
        }
        r => panic!("{r:?}"),
    }
}

fn temp_c(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    (dir, p)
}

/// gcc's own assembly for `path` on `t` (the gcc driver of the target, -O0).
fn gcc_assembly(t: Target, path: &std::path::Path) -> String {
    let gcc = oracle::native::native_target(t).gcc;
    let out = Command::new(gcc)
        .args(["-O0", "-S", "-o", "-"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn c_programs_are_judged_against_gcc_on_the_same_target() {
    let (_dir, path) = temp_c(
        "seven.c",
        "#include <stdio.h>\nint main(void) { printf(\"seven %d\\n\", (int)sizeof(long)); return 7; }\n",
    );
    for t in x86_targets() {
        let stage = NativeStage::new(t, RegallocMode::LinearScan);
        let CReference::Usable { o0, .. } = gcc_reference(t, &path, &[], &limits()).unwrap() else {
            panic!("{t:?}: the reference should be usable");
        };
        // sizeof(long) is 8 on x86_64 and 4 on i686 (the target's own data model).
        let want = format!("seven {}\n", t.sizeof_long());
        assert_eq!(o0.stdout, want.as_bytes(), "{t:?}");
        let asm = gcc_assembly(t, &path);
        let (v, _) = run_c_assembly(&asm, stage, &o0, &limits()).unwrap();
        assert_eq!(v, RowVerdict::Agrees, "{t:?}");
        let edited = asm.replacen("$7", "$8", 1);
        assert_ne!(edited, asm);
        match run_c_assembly(&edited, stage, &o0, &limits()).unwrap().0 {
            RowVerdict::Failed(f) => {
                assert_eq!(f.kind, FindingKind::Mismatch);
                assert!(
                    f.detail.contains("exit 7") && f.detail.contains("exit 8"),
                    "{}",
                    f.detail
                );
            }
            v => panic!("{t:?}: {v:?}"),
        }
    }
}

#[test]
fn undefined_or_crashing_references_are_discarded() {
    // An int written through a `short *` (C99 6.5p7: undefined): gcc -O0 reads back what
    // was stored last (2 on these little-endian targets), gcc -O2 assumes the `short`
    // store cannot change the int and returns 1.
    let (_d1, ub) = temp_c(
        "alias.c",
        "#include <stdio.h>\n\
         int f(int *p, short *q) { *p = 1; *q = 2; return *p; }\n\
         int main(void) { int x = 0; printf(\"%d\\n\", f(&x, (short *)&x)); return 0; }\n",
    );
    let (_d2, crash) = temp_c(
        "abort.c",
        "#include <stdlib.h>\nint main(void) { abort(); }\n",
    );
    for t in x86_targets() {
        match gcc_reference(t, &ub, &[], &limits()).unwrap() {
            CReference::Discarded(why) => assert!(why.starts_with("ub: gcc -O0 and -O2"), "{why}"),
            r => panic!("{t:?}: {r:?}"),
        }
        match gcc_reference(t, &crash, &[], &limits()).unwrap() {
            CReference::Discarded(why) => assert!(why.contains("crashed"), "{why}"),
            r => panic!("{t:?}: {r:?}"),
        }
    }
}
