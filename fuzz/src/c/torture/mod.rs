//! gcc's c-torture execute suite as phihunt's external C test suite (issue 14):
//! `phihunt torture DIR`, where DIR is gcc's `gcc.c-torture/execute` directory that
//! `scripts/c-torture.sh fetch` extracts from Debian's `gcc-12-source` (never committed).
//!
//! Why: phicc compiles csmith's programs and the project's own generated C, but real C is
//! wider; gcc's own regression tests are the external measure of the front end, the
//! oracle's libc and the backends on code nobody wrote for phicc (`docs/c-torture.md`).
//!
//! The flow, one concept per file:
//! - `suite`: the tests (every top-level `*.c`), sorted by name;
//! - `classify`: *standard* (ISO C89 or C11 under gcc -pedantic-errors, no floats, no
//!   varargs) or not, cached per host gcc;
//! - `selection`: gcc -O0's build and run of each test on each target — the tests that
//!   run cleanly are the suite there, and gcc's run is their reference — cached per gcc;
//! - `judge`: one (test, target) through phicc's front end, every stage in the oracle
//!   and phicc's binaries on the target, folded into one `outcome`;
//! - `child`: that judgement in a child process under a wall-time limit (`torture-one`);
//! - `run`: every selected pair on `--jobs` workers, wrong code saved as it is seen;
//! - `report`: tables per target, refusal reasons grouped, lists (markdown and JSON);
//! - `expected`: `corpus/torture/expected-failures.txt`, checked both ways;
//! - `cli`: the subcommand.

pub mod child;
pub mod classify;
pub mod cli;
pub mod expected;
pub mod judge;
pub mod outcome;
pub mod report;
pub mod run;
pub mod selection;
pub mod suite;
