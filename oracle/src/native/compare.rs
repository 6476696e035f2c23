//! What a native run means in the oracle's terms: when a native [`Execution`] agrees with
//! the oracle's [`RunResult`] of the same entry call, or with another native run.
//!
//! Why: the harness decides "same behaviour or a finding" in one place, with one meaning
//! of every exit status and signal, so that every native stage on every target is judged
//! alike.
//!
//! Invariants (the correspondence):
//! - `Returned(v)` ⟺ the entry call returned (the IR driver's `phihunt-returned` line is
//!   on stderr), the program then exited 0, and the driver printed `v` (nothing for
//!   `void`): see [`super::ir_driver`];
//! - `Exited(c)` ⟺ exit status `c & 0xff` (the kernel keeps the low byte) and the call
//!   never returned;
//! - `Trapped(t)` ⟺ killed by [`trap_signal`]`(t)`: SIGFPE for division by zero and
//!   `MIN / -1`, SIGABRT for `abort()`, SIGILL for `unreachable` (every backend emits an
//!   instruction that raises SIGILL: `ud2` on x86, `udf` on aarch64, `unimp` on riscv64;
//!   gcc's `__builtin_trap` is not that on aarch64 and riscv64, where it raises SIGTRAP);
//! - and in every case the stdout bytes are equal;
//! - a native timeout never agrees with anything: whether it means "too slow" or "loops"
//!   is for the caller to decide *before* judging (compare with the oracle's fuel, rerun
//!   with a longer limit, ...), so a verdict of [`NativeVerdict::Agrees`] is always a
//!   real agreement;
//! - an invalid reference (`Undefined`, `OutOfFuel`) is never agreed with either: the
//!   caller discards such inputs before running anything natively.

use super::ir_driver::call_returned;
use super::run::{Execution, Exit};
use crate::{Outcome, RunResult, Trap};

/// The signal a native run dies by when the oracle traps with `t`.
pub fn trap_signal(t: Trap) -> i32 {
    match t {
        Trap::DivByZero | Trap::DivOverflow => libc::SIGFPE,
        Trap::Abort => libc::SIGABRT,
        Trap::Unreachable => libc::SIGILL,
    }
}

/// The verdict on one native run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NativeVerdict {
    /// Same outcome and same stdout.
    Agrees,
    /// They differ; one line: `expected ...; got ...`.
    Differs(String),
}

impl NativeVerdict {
    /// True for [`NativeVerdict::Agrees`].
    pub fn agrees(&self) -> bool {
        *self == NativeVerdict::Agrees
    }
}

/// Judges a native run of an entry call through the IR driver (`exec`, with `result` the
/// value [`super::ir_driver::parse_result`] read from its stderr) against the oracle's
/// run of the same call (`expected`). See the module doc for the correspondence; a
/// native timeout and an invalid `expected` never agree (callers classify both first).
pub fn judge_against_oracle(
    expected: &RunResult,
    exec: &Execution,
    result: Option<i64>,
) -> NativeVerdict {
    let returned = call_returned(&exec.stderr);
    let same_outcome = match (&expected.outcome, exec.exit) {
        (_, Exit::TimedOut) => false,
        (Outcome::Returned(v), Exit::Code(0)) => returned && result == *v,
        (Outcome::Returned(_), _) => false,
        (Outcome::Exited(c), Exit::Code(code)) => !returned && code == c & 0xff,
        (Outcome::Exited(_), _) => false,
        (Outcome::Trapped(t), Exit::Signal(s)) => s == trap_signal(*t),
        (Outcome::Trapped(_), _) => false,
        (Outcome::Undefined(..) | Outcome::OutOfFuel, _) => false,
    };
    if same_outcome && super::c_stdout::same_c_stdout(&exec.stdout, &expected.stdout) {
        return NativeVerdict::Agrees;
    }
    let mut got = exec.exit.describe();
    match (returned, result) {
        (_, Some(v)) => got.push_str(&format!(" after returning {v}")),
        (true, None) => got.push_str(" after returning"),
        (false, None) => {}
    }
    push_stdout(&mut got, &exec.stdout);
    let invalid = if expected.outcome.is_invalid_reference() {
        " (an invalid reference: never compared)"
    } else {
        ""
    };
    NativeVerdict::Differs(format!("expected {expected}{invalid}; got {got}"))
}

/// Judges a native run against another native run of the same program (gcc's build, or
/// phicc's with another allocator): the same [`Exit`] and the same stdout. A timeout on
/// either side never agrees (callers classify timeouts first).
pub fn judge_against_reference(reference: &Execution, exec: &Execution) -> NativeVerdict {
    let timed_out = reference.exit == Exit::TimedOut || exec.exit == Exit::TimedOut;
    if !timed_out
        && reference.exit == exec.exit
        && super::c_stdout::same_c_stdout(&reference.stdout, &exec.stdout)
    {
        return NativeVerdict::Agrees;
    }
    let mut expected = reference.exit.describe();
    push_stdout(&mut expected, &reference.stdout);
    let mut got = exec.exit.describe();
    push_stdout(&mut got, &exec.stdout);
    NativeVerdict::Differs(format!("expected {expected}; got {got}"))
}

/// `, stdout "..."` (abbreviated) unless `stdout` is empty.
fn push_stdout(s: &mut String, stdout: &[u8]) {
    if !stdout.is_empty() {
        s.push_str(&format!(", stdout {}", super::gcc::quote_stdout(stdout)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native::ir_driver::{RESULT_PREFIX, RETURNED_LINE};
    use std::time::Duration;

    fn exec(exit: Exit, stdout: &str, stderr: &str) -> Execution {
        Execution {
            exit,
            stdout: stdout.as_bytes().to_vec(),
            stderr: stderr.as_bytes().to_vec(),
            truncated: false,
            elapsed: Duration::ZERO,
        }
    }

    fn expected(outcome: Outcome, stdout: &str) -> RunResult {
        RunResult {
            outcome,
            stdout: stdout.as_bytes().to_vec(),
            steps: 1,
        }
    }

    fn returned_with(v: i64) -> String {
        format!("{RETURNED_LINE}\n{RESULT_PREFIX}{v}\n")
    }

    #[test]
    fn trap_kinds_map_to_their_signals() {
        assert_eq!(trap_signal(Trap::DivByZero), 8);
        assert_eq!(trap_signal(Trap::DivOverflow), 8);
        assert_eq!(trap_signal(Trap::Abort), 6);
        assert_eq!(trap_signal(Trap::Unreachable), 4);
    }

    #[test]
    fn returns_agree_on_value_status_and_stdout() {
        let want = expected(Outcome::Returned(Some(-5)), "hi");
        let ok = exec(Exit::Code(0), "hi", &returned_with(-5));
        assert!(judge_against_oracle(&want, &ok, Some(-5)).agrees());
        assert!(!judge_against_oracle(&want, &ok, Some(5)).agrees());
        assert!(!judge_against_oracle(&want, &ok, None).agrees());
        let other_stdout = exec(Exit::Code(0), "ho", &returned_with(-5));
        assert!(!judge_against_oracle(&want, &other_stdout, Some(-5)).agrees());
        let nonzero = exec(Exit::Code(1), "hi", &returned_with(-5));
        assert!(!judge_against_oracle(&want, &nonzero, Some(-5)).agrees());
        // void: the call returned, nothing printed.
        let void = expected(Outcome::Returned(None), "");
        let returned = exec(Exit::Code(0), "", &format!("{RETURNED_LINE}\n"));
        assert!(judge_against_oracle(&void, &returned, None).agrees());
        // exit(0) inside the call is not a return.
        let exited = exec(Exit::Code(0), "", "");
        assert!(!judge_against_oracle(&void, &exited, None).agrees());
    }

    #[test]
    fn exits_compare_the_low_byte_and_must_not_return() {
        let want = expected(Outcome::Exited(300), "");
        assert!(judge_against_oracle(&want, &exec(Exit::Code(44), "", ""), None).agrees());
        assert!(!judge_against_oracle(&want, &exec(Exit::Code(45), "", ""), None).agrees());
        let zero = expected(Outcome::Exited(0), "");
        let returned = exec(Exit::Code(0), "", &returned_with(0));
        assert!(!judge_against_oracle(&zero, &returned, Some(0)).agrees());
        assert!(judge_against_oracle(&zero, &exec(Exit::Code(0), "", ""), None).agrees());
    }

    #[test]
    fn traps_compare_signals_and_timeouts_never_agree() {
        let div = expected(Outcome::Trapped(Trap::DivByZero), "x");
        assert!(judge_against_oracle(&div, &exec(Exit::Signal(8), "x", ""), None).agrees());
        assert!(!judge_against_oracle(&div, &exec(Exit::Signal(6), "x", ""), None).agrees());
        assert!(!judge_against_oracle(&div, &exec(Exit::Code(136), "x", ""), None).agrees());
        let unreachable = expected(Outcome::Trapped(Trap::Unreachable), "");
        assert!(judge_against_oracle(&unreachable, &exec(Exit::Signal(4), "", ""), None).agrees());
        for o in [
            Outcome::Returned(None),
            Outcome::Exited(0),
            Outcome::OutOfFuel,
        ] {
            let v = judge_against_oracle(&expected(o, ""), &exec(Exit::TimedOut, "", ""), None);
            assert!(!v.agrees(), "{v:?}");
        }
        let oof = expected(Outcome::OutOfFuel, "");
        match judge_against_oracle(&oof, &exec(Exit::Code(0), "", ""), None) {
            NativeVerdict::Differs(m) => assert!(m.contains("invalid reference"), "{m}"),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn differences_are_one_readable_line() {
        let want = expected(Outcome::Returned(Some(7)), "a");
        let got = exec(Exit::Code(0), "b", &returned_with(8));
        assert_eq!(
            judge_against_oracle(&want, &got, Some(8)),
            NativeVerdict::Differs(
                "expected ret 7, stdout \"a\"; got exit 0 after returning 8, stdout \"b\"".into()
            )
        );
        let r = exec(Exit::Signal(8), "", "");
        assert_eq!(
            judge_against_reference(&r, &exec(Exit::Code(1), "z", "")),
            NativeVerdict::Differs("expected signal 8 (SIGFPE); got exit 1, stdout \"z\"".into())
        );
    }

    #[test]
    fn native_runs_agree_on_exit_and_stdout() {
        let a = exec(Exit::Code(3), "out", "err a");
        let b = exec(Exit::Code(3), "out", "err b");
        assert!(judge_against_reference(&a, &b).agrees());
        assert!(!judge_against_reference(&a, &exec(Exit::Code(3), "ou", "")).agrees());
        assert!(!judge_against_reference(&a, &exec(Exit::Signal(3), "out", "")).agrees());
        let t = exec(Exit::TimedOut, "", "");
        assert!(!judge_against_reference(&t, &t).agrees());
    }
}
