//! The oracle: what is right. An interpreter for every stage of the IR (alloca form, SSA
//! with phis, post-phi-elimination copies) with the meaning `../shared/IR.md` gives, and
//! the outcomes runs end in; and the native runner (`native`): real compilers and real
//! runs as the reference for C input. The oracle knows nothing of generators.

pub mod interp;
pub mod native;
pub mod outcome;

pub use interp::{run, InterpError, InterpErrorKind, Program, RunConfig};
pub use outcome::{Location, Outcome, RunResult, Trap, Ub};
