//! The i686 backend run under `qemu-i386` against gcc and against the IR's own
//! arithmetic, with both register allocators (the checks are shared with the other
//! backends: `native_support`):
//! - every `corpus/c` file, compiled by phicc's library for i686 (front end told the
//!   target, the whole pipeline, then `backend::compile_module`), linked `-static` with
//!   `i686-linux-gnu-gcc`, exits and prints like the `-O0` gcc build of the same file;
//! - every `; run:` line of the IR corpus holds when called from gcc's code across the
//!   i386 calling convention (ILP32: pointers are 4 bytes, 64-bit values are pairs);
//! - every operation at every width computes what `ir::eval` computes; frames, stack
//!   arguments, memcpy of every size and traps behave as the IR says.
//!
//! Why: only a run on the target shows that the assembly phicc writes for a 32-bit
//! machine — 64-bit values in register pairs, byte registers, the i386 calling
//! convention with libc — behaves as gcc's does.
//!
//! Invariants: a missing cross gcc or qemu fails the test with the way to install them
//! (`scripts/setup.sh`), never a skip; every child process runs under a time limit in a
//! `tempfile` directory; every difference is listed before the test fails. Run it in
//! release (`cargo test --release -p compiler --test native_i686`).

mod native_support;

use compiler::backend::Target;

const TARGET: Target = Target::I686;

#[test]
fn corpus_c_on_i686_agrees_with_gcc() {
    native_support::corpus_c_runs_like_gcc(TARGET);
}

#[test]
fn corpus_ir_run_lines_hold_when_called_from_gcc_code() {
    native_support::corpus_ir_run_lines_hold(TARGET);
}

#[test]
fn every_binary_operation_at_every_width_computes_what_ir_eval_computes() {
    native_support::every_binary_operation_at_every_width(TARGET);
}

#[test]
fn unary_ops_comparisons_casts_selects_and_switches_at_every_width() {
    native_support::unary_ops_comparisons_casts_selects_and_switches(TARGET);
}

#[test]
fn frames_stack_arguments_and_memcpy_of_every_size() {
    native_support::frames_stack_arguments_and_memcpy_of_every_size(TARGET);
}

#[test]
fn traps_happen_exactly_where_the_ir_traps() {
    native_support::traps_happen_exactly_where_the_ir_traps(TARGET);
}
