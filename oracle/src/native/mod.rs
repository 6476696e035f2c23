//! The native runner: C programs compiled by a real compiler and run on the machine, the
//! reference that phicc's stages are compared with (DESIGN.md: "the native runner (cross
//! gcc + qemu-user, timeouts)").
//!
//! One concept per file:
//! - `process`: running any child under a time limit with captured, bounded output;
//! - `gcc`: the reference build and run (`gcc -O0 -w`, then the binary), classified.
//!
//! Today only the host (x86_64) is supported; cross targets under qemu-user belong here
//! when they come. Invariant: every child process has a timeout; a reference that does not
//! compile, times out or dies by a signal is reported as such, never as an exit status.

pub mod gcc;
pub mod process;

pub use gcc::{reference_run, NativeOutcome, NativeRun, ReferenceConfig};
pub use process::{run_limited, ProcessResult, Termination};
