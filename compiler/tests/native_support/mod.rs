//! What the four native backend tests (`native_x86_64.rs`, `native_i686.rs`,
//! `native_aarch64.rs`, `native_riscv64.rs`) share: building phicc's code for a
//! `Target` with gcc's cross toolchain, running it (natively or under qemu-user), and
//! the checks every backend must pass — the C corpus against gcc -O0, the IR corpus's
//! `; run:` lines through a gcc-compiled C driver, every operation at every width against
//! `ir::eval`, frames and memcpy, traps.
//!
//! Why: the four files were written in parallel and repeated each other; one copy of each
//! check, parameterized by the target, means a check added for one backend runs on all
//! four, and a fix to a helper (a timeout, a driver type) reaches every backend. What is
//! specific to one backend (far branches, ABI details, its seeded bugs) stays in its file
//! and uses the helpers here.
//!
//! Invariants: every child process runs under a time limit ([`gcc_cross::run_limited`]);
//! every file goes into a `tempfile` directory; a missing toolchain fails the test with
//! the way to install it ([`toolchain::require_toolchain`]), never a skip; every expected
//! value comes from gcc, `ir::eval` or a hand computation, never from phicc.
// Each test file uses a part of this module.
#![allow(dead_code, unused_imports)]

#[path = "../gcc_cross/mod.rs"]
pub mod gcc_cross;

/// The harness's one C stdout comparison (a printed NaN's sign and padding do not
/// count), shared with the oracle by path: the compiler crate cannot depend on it.
#[path = "../../../oracle/src/native/c_stdout.rs"]
pub mod c_stdout;
pub mod corpus;
pub mod float_abi;
pub mod float_ops;
// fx86's float test (values, constants on either side, selects, bitcasts), run on the
// x86 targets; `float_ops` is farm's, run on aarch64/riscv64. Folding them is left.
pub mod float_ops_x86;
pub mod forking_driver;
pub mod frames;
pub mod ir_driver;
pub mod ops;
pub mod phicc;
pub mod process;
pub mod run_lines;
pub mod toolchain;
pub mod traps;

pub use corpus::{corpus_c_runs_like_gcc, csmith_programs_run_like_gcc};
pub use float_ops::every_float_operation_predicate_and_conversion;
pub use frames::frames_stack_arguments_and_memcpy_of_every_size;
pub use ir_driver::corpus_ir_run_lines_hold;
pub use ops::{
    every_binary_operation_at_every_width, unary_ops_comparisons_casts_selects_and_switches,
};
pub use traps::traps_happen_exactly_where_the_ir_traps;
