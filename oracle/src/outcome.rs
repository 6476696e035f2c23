//! How a run ended, and when two runs agree.
//!
//! Why: the harness compares runs of the same program at different stages (and, later,
//! native runs); an outcome must say exactly what happened — returned, exited, trapped,
//! undefined behaviour (which, where), out of fuel — with the bytes written to stdout.
//!
//! Invariants: a returned value is canonical for the function's return type (so `-1:i8`
//! and `255:u8` are different values of different functions, never confused); two
//! outcomes *agree* when they are the same kind with the same value and the same stdout.
//! Where undefined behaviour happened is reported but not compared (instruction indexes
//! move between stages); a reference that is `Undefined` or `OutOfFuel` makes the input
//! invalid, never a finding.

use compiler::ir::BlockId;
use std::fmt;

/// Which trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trap {
    /// Division or remainder by zero.
    DivByZero,
    /// `sdiv`/`srem` of MIN by -1.
    DivOverflow,
    /// `abort()`.
    Abort,
    /// Control reached `unreachable`.
    Unreachable,
}

/// Which kind of undefined behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ub {
    /// Load/store/memcpy outside the allocation's bounds.
    OutOfBounds,
    /// Access through a pointer into a frame that has returned.
    DeadFrame,
    /// Reading memory bytes never written.
    UninitRead,
    /// Shift by an amount >= the width.
    ShiftTooLarge,
    /// A float converted to an integer type that cannot hold its truncated value, or a
    /// NaN converted to an integer (C11 6.3.1.4p1).
    FloatToIntOutOfRange,
    /// Access through a null or non-pointer value.
    InvalidPointer,
    /// Writing to a `const` global.
    WriteToConst,
    /// Reading a virtual register no instruction has assigned (possible only in broken
    /// post-phi-elimination code or malformed input).
    UndefinedValue,
    /// A call whose argument count or types do not match the callee.
    BadCall,
    /// A libc call with invalid arguments (bad format string, double free, ...).
    BadLibcCall,
    /// Call depth beyond the configured limit (a stack overflow on a real machine).
    StackOverflow,
    /// A phi with no entry for the edge taken.
    PhiMissingEdge,
    /// Access to a heap block after `free`.
    UseAfterFree,
    /// The program wrote more than `RunConfig::max_stdout` bytes; the run is too big to
    /// judge (stdout keeps the bytes that fit).
    OutputLimit,
    // ---- reported only by the checked lowering's intrinsics (docs/ub-judge.md) ----
    /// Signed `+ - *` or unary `-` in `int`, `long` or `long long` whose result does not
    /// fit (C99 6.5p5).
    SignedOverflow,
    /// `p - q` of pointers into different objects (C99 6.5.6p9).
    PointerSubtraction,
    /// `p < q` (`<=`, `>`, `>=`) of pointers into different objects (C99 6.5.8p5).
    PointerComparison,
    /// Access to a block-scope object after its block ended (C99 6.2.4p2,5).
    UseAfterScope,
    /// An array index (or arithmetic on an array's elements) outside the array, even when
    /// the enclosing object goes on (C99 6.5.6p8: `s.a[4]` of `int a[4]`).
    IndexOutOfBounds,
    /// Access through a pointer not aligned for the object's type (C99 6.3.2.3p7).
    Misaligned,
    /// `memcpy` of overlapping ranges (C99 7.21.2.1p2).
    MemcpyOverlap,
    /// A scalar object modified twice, or modified and read other than to compute the
    /// value stored, between two sequence points (C99 6.5p2: `i = i++`, `f(i++, i)`).
    Unsequenced,
    // ---- the `va_list` model (`interp::va`, C99 7.15) ----
    /// `va_arg` past the last unnamed argument the call passed (C99 7.15.1.1p2).
    VaArgPastEnd,
    /// `va_arg` of a type the next argument does not have (C99 7.15.1.1p2).
    VaArgWrongType,
    /// A `va_list` used that `va_start`/`va_copy` did not set up, or used after `va_end`,
    /// after its function returned, or after a copy of it was used elsewhere (a callee's
    /// `va_arg`, `vprintf`) (C99 7.15p3, 7.15.1).
    VaListInvalid,
    /// A read through an lvalue whose type is not compatible with the effective type of
    /// the bytes it reads (the type of the last typed store to them), nor its signed or
    /// unsigned variant, nor a character type (C11 6.5p7: `*(short *)&i` of an `int`).
    StrictAliasing,
    // ---- `setjmp`/`longjmp` (`interp/setjmp.rs`, C99 7.13.2.1) ----
    /// `longjmp` through a buffer that no `setjmp` filled (or whose contents were
    /// overwritten since).
    LongjmpInvalidBuffer,
    /// `longjmp` to a `setjmp` whose function has returned since (C99 7.13.2.1p2).
    LongjmpDeadFrame,
}

/// Where undefined behaviour happened.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub function: String,
    pub block: BlockId,
    /// Instruction index in the block; `None` for the terminator.
    pub inst: Option<usize>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The entry function returned this value (`None` for void), canonical for its type.
    Returned(Option<i64>),
    /// `exit(code)` was called.
    Exited(i32),
    Trapped(Trap),
    Undefined(Ub, Location),
    /// The fuel limit ran out first.
    OutOfFuel,
}

impl Outcome {
    /// True when this outcome cannot serve as a reference: the input is invalid.
    pub fn is_invalid_reference(&self) -> bool {
        matches!(self, Outcome::Undefined(..) | Outcome::OutOfFuel)
    }

    /// A short reason for discarding an invalid reference, for counting.
    pub fn discard_reason(&self) -> Option<String> {
        match self {
            Outcome::Undefined(ub, _) => Some(format!("ub:{ub:?}")),
            Outcome::OutOfFuel => Some("out_of_fuel".into()),
            _ => None,
        }
    }
}

/// One finished run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    pub outcome: Outcome,
    pub stdout: Vec<u8>,
    /// Instructions and terminators executed.
    pub steps: u64,
}

impl RunResult {
    /// Same outcome kind and value (UB compared by kind only) and the same stdout.
    pub fn agrees_with(&self, other: &RunResult) -> bool {
        let same = match (&self.outcome, &other.outcome) {
            (Outcome::Undefined(a, _), Outcome::Undefined(b, _)) => a == b,
            (a, b) => a == b,
        };
        same && self.stdout == other.stdout
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Returned(Some(v)) => write!(f, "ret {v}"),
            Outcome::Returned(None) => write!(f, "ret void"),
            Outcome::Exited(c) => write!(f, "exit {c}"),
            Outcome::Trapped(t) => write!(f, "trap {t:?}"),
            Outcome::Undefined(u, loc) => {
                write!(f, "UB {u:?} at @{} {}", loc.function, loc.block)?;
                match loc.inst {
                    Some(i) => write!(f, " inst {i}"),
                    None => write!(f, " terminator"),
                }
            }
            Outcome::OutOfFuel => write!(f, "out of fuel"),
        }
    }
}

impl fmt::Display for RunResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.outcome)?;
        if !self.stdout.is_empty() {
            write!(f, ", stdout {:?}", String::from_utf8_lossy(&self.stdout))?;
        }
        Ok(())
    }
}
