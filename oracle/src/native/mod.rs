//! The native runner: programs built by a real toolchain and run on a real (or emulated)
//! CPU, for all four targets — the reference that C input is compared with, and the
//! native stages (`native:x86_64`, ...) of every check (DESIGN.md: "the native runner
//! (cross gcc + qemu-user, timeouts)").
//!
//! One concept per file:
//! - `targets`: the target table (gcc driver and qemu-user binary per target) and which
//!   targets are installed here;
//! - `process`: running any child under a time limit with captured, bounded output;
//! - `build`: building a static executable from assembly and C sources in a temporary
//!   directory of its own;
//! - `run`: running a built executable (directly on the host's architecture, under qemu-user
//!   otherwise) with the oracle's `argv` and an empty environment;
//! - `compare`: what a native run means in the oracle's terms (exit status, signal → trap
//!   kind, stdout), against the oracle or against another native run;
//! - `ir_driver`: the generated C `main` that calls an IR function with arguments and
//!   reports its result, so IR `; run:` lines and generated IR programs run natively;
//! - `gcc`: the reference for C input (`gcc -O0`, on the host or on any target).
//!
//! Invariants: every child process has a timeout and runs in its own process group (killed
//! whole on timeout); every file is in a `tempfile` directory that is deleted when its
//! owner is dropped; a program that does not build, times out or dies by a signal is
//! reported as such, never as an exit status; `Err` means a broken setup, never something
//! the program did.

pub mod build;
pub mod c_stdout;
pub mod compare;
pub mod gcc;
pub mod ir_driver;
pub mod process;
pub mod run;
pub mod targets;

pub use build::{build, build_dir, first_error_line, Build, BuildConfig, BuildError, Source};
pub use compare::{judge_against_oracle, judge_against_reference, trap_signal, NativeVerdict};
pub use gcc::{reference_on, reference_run, NativeOutcome, NativeRun, ReferenceConfig};
pub use ir_driver::{driver_source, parse_result, rename_main, EntryCall, ENTRY_MAIN_RENAME};
pub use process::{run_limited, ProcessResult, Termination};
pub use run::{run, Execution, Exit, RunLimits};
pub use targets::{available, available_targets, missing_tools, native_target, NativeTarget};
