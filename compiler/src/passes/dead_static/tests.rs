//! Tests of `dead_static`.

use super::run;
use crate::ir::text::parse_module;
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::IrModule;
use crate::mutants::{set_active, Mutant};

/// @main (a root) calls @a and takes @d's address; @c calls @b but nothing calls @c;
/// @e is only in a global's data; @loop1 and @loop2 call each other and nothing else
/// reaches them; @pub is not static, so it stays unused.
const MODULE: &str = "
global @table : 8 align 8 = [ptr @e]
func static @a() -> i32 {
.LBB0:
    ret i32 1
}
func static @b() -> i32 {
.LBB1:
    ret i32 2
}
func static @c() -> i32 {
.LBB2:
    %0 = call i32 @b()
    ret i32 %0
}
func static @d() -> i32 {
.LBB3:
    ret i32 4
}
func static @e() -> i32 {
.LBB4:
    ret i32 5
}
func static @loop1() -> void {
.LBB5:
    call void @loop2()
    ret
}
func static @loop2() -> void {
.LBB6:
    call void @loop1()
    ret
}
func @pub() -> void {
.LBB7:
    ret
}
func @main() -> i32 {
.LBB8:
    %0 = call i32 @a()
    %1 = globaladdr @d
    %2 = call i32 %1()
    %3 = add i32 %0, %2
    ret i32 %3
}";

fn names(m: &IrModule) -> Vec<&str> {
    m.functions.iter().map(|f| f.name.as_str()).collect()
}

#[test]
fn unreferenced_static_functions_go_transitively() {
    let mut m = parse_module(MODULE).unwrap();
    verify_module(&m, VerifyMode::Ssa).unwrap();
    assert_eq!(run(&mut m), 4);
    assert_eq!(names(&m), ["a", "d", "e", "pub", "main"]);
    verify_module(&m, VerifyMode::Ssa).unwrap();
    assert_eq!(run(&mut m), 0);
}

#[test]
fn the_mutant_deletes_address_taken_functions_and_the_verifier_objects() {
    let mut m = parse_module(MODULE).unwrap();
    set_active(&[Mutant::DeadStaticIgnoresAddressTaken]);
    let n = run(&mut m);
    set_active(&[]);
    assert_eq!(n, 6);
    assert_eq!(names(&m), ["a", "pub", "main"]);
    assert!(verify_module(&m, VerifyMode::Ssa).is_err());
}
