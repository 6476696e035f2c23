//! The native stages: phicc's binaries on real targets (directly or under qemu-user),
//! judged against a reference — one piece of code for `check`, `hunt`, the fuzz targets,
//! the reducer, `bench csmith` and `bench native`.
//!
//! A native stage is `native:TARGET` (the linear-scan allocator) or
//! `native:TARGET/stack` (`--regalloc=stack`, the allocator's differential reference).
//! Its input is the pipeline's last stage (`phi_elim`) of the program compiled *for that
//! target* (C: the front end's data model differs, i686 is ILP32); phicc's backend makes
//! assembly (the allocation checker always on), the target's gcc driver assembles and
//! links it, and the binary runs. The C side and the IR side differ only in their
//! reference:
//! - C (`c_program`): gcc -O0's binary of the same file on the same target, with gcc
//!   -O2's as a check that the program is defined (if they disagree it is not, and the
//!   row is discarded and counted);
//! - IR (`ir_program`, `differential`): the oracle's outcome — a `; run:` line's
//!   expectation, or the oracle's run of `lowered` at the target's pointer width.
//!
//! One concept per file:
//! - `plan`: which stages run (`--targets`), their names and limits;
//! - `verdict`: agrees / discarded (why) / failed (kind, detail), and times;
//! - `backend`: the phi-eliminated module to assembly, failures classified;
//! - `ir_program`: one build per (IR program, stage), one run per call;
//! - `differential`: the native stages of a generated IR program after the stage
//!   differential, with the reference at each target's width and the `STAGE@4` bisection;
//! - `c_program`: the C side, gcc -O0/-O2 references and phicc's build.
//!
//! Invariant (never a false positive): timeouts, undefined behaviour (gcc -O0 vs -O2,
//! the oracle at the target's width), a reference that crashes and a build that times
//! out are classified and counted, never findings; every failure names its stage.

pub mod backend;
pub mod c_program;
pub mod differential;
pub mod ir_program;
pub mod plan;
pub mod verdict;

pub use differential::{full_verdict, native_differential, NativeReport, StageTally};
pub use plan::{choose_targets, NativeLimits, NativePlan, NativeStage, TargetChoice};
pub use verdict::{NativeFailure, NativeTimes, RowVerdict};
