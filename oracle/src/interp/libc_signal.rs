//! `<signal.h>`: `signal` and `raise` (C11 7.14), with glibc's numbers.
//!
//! Why it exists: c-torture's 20101011-1.c installs a `SIGFPE` handler and then divides
//! by zero. The division is undefined in C (6.5.5p5), so the UB judge must see the
//! program run up to it (a refusal of `<signal.h>` hid that); what the handler would do
//! natively does not matter then.
//!
//! Model: each run keeps a handler per signal (`SIG_DFL` at start). `signal` returns the
//! previous handler (glibc's BSD semantics: the handler stays installed), or `SIG_ERR`
//! with `errno = EINVAL` for a number outside 1..=64 or `SIGKILL`/`SIGSTOP`. `raise`
//! with a handler installed calls it as libc would (`exec/callback.rs`: a `void (int)`
//! call through the machine's normal path) and returns 0; with `SIG_IGN` returns 0; with
//! `SIG_DFL`, `SIGABRT` ends the run as `abort` does, and the other signals (whose default
//! action kills the process by that signal, an outcome the oracle has no value for) end it
//! with `BadLibcCall`: no verdict, never a wrong one. Signals the hardware raises (a
//! division by zero's `SIGFPE`) are never delivered: what raises them is a trap or UB of
//! the IR already.

/// `SIG_IGN`'s value (`SIG_DFL` is 0, `SIG_ERR` all ones).
pub(crate) const SIG_IGN: u64 = 1;
pub(crate) const SIGABRT: u64 = 6;
const SIGKILL: u64 = 9;
const SIGSTOP: u64 = 19;
/// Signal numbers are 1..=`NSIG - 1` (glibc's `_NSIG` is 65).
const NSIG: usize = 65;
pub(crate) const EINVAL: u32 = 22;

/// The signal functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SignalFn {
    Signal,
    Raise,
}

impl SignalFn {
    pub fn by_name(name: &str) -> Option<SignalFn> {
        match name {
            "signal" => Some(SignalFn::Signal),
            "raise" => Some(SignalFn::Raise),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SignalFn::Signal => "signal",
            SignalFn::Raise => "raise",
        }
    }

    pub fn arity(self) -> usize {
        match self {
            SignalFn::Signal => 2,
            SignalFn::Raise => 1,
        }
    }
}

/// The handlers of one run.
#[derive(Clone, Debug)]
pub(crate) struct Signals {
    handlers: [u64; NSIG],
}

impl Default for Signals {
    fn default() -> Signals {
        Signals {
            handlers: [0; NSIG],
        }
    }
}

impl Signals {
    /// Installs `handler` for `sig`: the previous one, or `None` (`SIG_ERR`, `EINVAL`).
    pub fn set(&mut self, sig: u64, handler: u64) -> Option<u64> {
        let i = Self::index(sig)?;
        if sig == SIGKILL || sig == SIGSTOP {
            return None;
        }
        Some(std::mem::replace(&mut self.handlers[i], handler))
    }

    /// The handler of `sig` (`None` for an invalid number).
    pub fn get(&self, sig: u64) -> Option<u64> {
        Self::index(sig).map(|i| self.handlers[i])
    }

    fn index(sig: u64) -> Option<usize> {
        let sig = sig as u32 as i32;
        (1..NSIG as i32).contains(&sig).then_some(sig as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handlers_are_kept_per_signal() {
        let mut s = Signals::default();
        assert_eq!(s.set(8, 0x1234), Some(0));
        assert_eq!(s.set(8, SIG_IGN), Some(0x1234));
        assert_eq!(s.get(8), Some(SIG_IGN));
        assert_eq!(s.set(SIGKILL, SIG_IGN), None);
        assert_eq!(s.set(0, SIG_IGN), None);
        assert_eq!(s.set(65, SIG_IGN), None);
        assert_eq!(s.get(64), Some(0));
    }
}
