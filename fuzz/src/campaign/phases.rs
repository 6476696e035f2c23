//! Where a hunt's time goes: generation, the oracle's stages, native builds and runs, gcc
//! references, reduction.
//!
//! Why: a compiler engineer reading the report asks "what is this hunt paying for?" — if
//! gcc references take half the time, csmith is the bottleneck; if native runs do, the
//! `--native-every` ratio is. Code anywhere in the harness wraps a call in
//! [`timed`] (or reports a duration it measured itself with [`add`]); the worker drains
//! its thread's accumulator with [`take`] after each program into the hunt's shared
//! [`PhaseTotals`].
//!
//! Invariants:
//! - times are *exclusive*: a phase nested in another (a gcc reference inside csmith's
//!   program generation, a native build inside the native stage) is charged to the inner
//!   phase only and subtracted from the outer one, so the phases add up to the time the
//!   workers spent in them and a pie of them means something;
//! - accumulators are per thread (no lock, nothing leaks between workers); a thread that
//!   never calls [`take`] simply keeps its numbers to itself;
//! - the sum over phases never exceeds the workers' wall time (jobs × elapsed) plus the
//!   main thread's reduction time.

use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A phase of a hunt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// Making a program from a seed (the generators, csmith, the C front end, the UB judge).
    Generation,
    /// The stage differential: the oracle running every pipeline stage.
    Oracle,
    /// phicc compiling for a native target (front end, pipeline, backend).
    NativePhicc,
    /// Assembling and linking phicc's output (the gcc driver).
    NativeBuild,
    /// Running phicc's binaries (directly or under qemu-user).
    NativeRun,
    /// gcc's reference builds and runs (csmith's expected output, confirmations).
    GccReference,
    /// Reducing findings.
    Reduction,
    /// The rest of a worker's time on a program: saving findings, the oracle's
    /// references at other widths for the native stages, bookkeeping.
    Other,
}

impl Phase {
    pub const ALL: [Phase; 8] = [
        Phase::Generation,
        Phase::Oracle,
        Phase::NativePhicc,
        Phase::NativeBuild,
        Phase::NativeRun,
        Phase::GccReference,
        Phase::Reduction,
        Phase::Other,
    ];

    /// The stable name used in `summary.json` and the reports.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Generation => "generation",
            Phase::Oracle => "oracle stages",
            Phase::NativePhicc => "native: phicc",
            Phase::NativeBuild => "native: builds",
            Phase::NativeRun => "native: runs",
            Phase::GccReference => "gcc references",
            Phase::Reduction => "reduction",
            Phase::Other => "other",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Microseconds per phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    us: [u64; Phase::ALL.len()],
}

impl PhaseTimes {
    pub fn get(&self, p: Phase) -> Duration {
        Duration::from_micros(self.us[p.index()])
    }

    pub fn add(&mut self, p: Phase, d: Duration) {
        self.us[p.index()] += d.as_micros() as u64;
    }

    pub fn total(&self) -> Duration {
        Duration::from_micros(self.us.iter().sum())
    }

    /// `(name, seconds)` for every phase, in [`Phase::ALL`]'s order.
    pub fn seconds(&self) -> Vec<(&'static str, f64)> {
        Phase::ALL
            .iter()
            .map(|p| (p.name(), self.get(*p).as_secs_f64()))
            .collect()
    }
}

/// In `summary.json`: `{"generation": seconds, ...}`.
impl Serialize for PhaseTimes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map: BTreeMap<&str, f64> = self.seconds().into_iter().collect();
        map.serialize(s)
    }
}

/// Reads `summary.json`'s `{"generation": seconds, ...}` back (`phihunt merge`); an
/// unknown phase name is an error, a missing one zero.
impl<'de> serde::Deserialize<'de> for PhaseTimes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, f64>::deserialize(d)?;
        let mut times = PhaseTimes::default();
        for (name, secs) in map {
            let phase = Phase::ALL
                .into_iter()
                .find(|p| p.name() == name)
                .ok_or_else(|| serde::de::Error::custom(format!("unknown phase `{name}`")))?;
            times.add(phase, Duration::from_secs_f64(secs.max(0.0)));
        }
        Ok(times)
    }
}

/// One open [`timed`] call: its phase, start, and the time its nested phases took.
struct Frame {
    phase: Phase,
    start: Instant,
    nested: Duration,
}

#[derive(Default)]
struct ThreadClock {
    open: Vec<Frame>,
    done: PhaseTimes,
}

thread_local! {
    static CLOCK: RefCell<ThreadClock> = RefCell::new(ThreadClock::default());
}

/// An open phase: from [`enter`] until dropped (also when unwinding from a panic, so
/// frames never pile up).
#[must_use = "the phase ends when the guard is dropped"]
pub struct PhaseGuard {
    // Not Send: the frame lives in this thread's clock.
    _not_send: std::marker::PhantomData<*const ()>,
}

/// Opens `phase` on this thread until the returned guard is dropped: its time, less the
/// time of phases nested in it, is charged to `phase`. One line at the top of a function
/// (`let _phase = phases::enter(Phase::GccReference);`) times all of it.
pub fn enter(phase: Phase) -> PhaseGuard {
    CLOCK.with(|c| {
        c.borrow_mut().open.push(Frame {
            phase,
            start: Instant::now(),
            nested: Duration::ZERO,
        })
    });
    PhaseGuard {
        _not_send: std::marker::PhantomData,
    }
}

impl Drop for PhaseGuard {
    fn drop(&mut self) {
        CLOCK.with(|c| {
            let mut c = c.borrow_mut();
            if let Some(frame) = c.open.pop() {
                let all = frame.start.elapsed();
                c.done.add(frame.phase, all.saturating_sub(frame.nested));
                if let Some(outer) = c.open.last_mut() {
                    outer.nested += all;
                }
            }
        })
    }
}

/// Runs `f`, charging its time (less the time of phases nested in it) to `phase`.
pub fn timed<R>(phase: Phase, f: impl FnOnce() -> R) -> R {
    let _phase = enter(phase);
    f()
}

/// Charges `d`, measured by the caller, to `phase`; the enclosing [`timed`] call, if any,
/// is charged that much less.
pub fn add(phase: Phase, d: Duration) {
    CLOCK.with(|c| {
        let mut c = c.borrow_mut();
        c.done.add(phase, d);
        if let Some(outer) = c.open.last_mut() {
            outer.nested += d;
        }
    })
}

/// Charges a native stage's own measurements (phicc, build, run per stage, as its
/// tallies hold them) to the native phases.
pub fn add_native(stages: &BTreeMap<String, crate::native::StageTally>) {
    for t in stages.values() {
        add(Phase::NativePhicc, Duration::from_micros(t.phicc_us));
        add(Phase::NativeBuild, Duration::from_micros(t.build_us));
        add(Phase::NativeRun, Duration::from_micros(t.run_us));
    }
}

/// This thread's finished phase times since the last call (the open ones keep running).
pub fn take() -> PhaseTimes {
    CLOCK.with(|c| std::mem::take(&mut c.borrow_mut().done))
}

/// The hunt's totals, filled by every worker.
#[derive(Default)]
pub struct PhaseTotals {
    us: [AtomicU64; Phase::ALL.len()],
}

impl PhaseTotals {
    pub fn absorb(&self, t: PhaseTimes) {
        for (slot, us) in self.us.iter().zip(t.us) {
            slot.fetch_add(us, Ordering::Relaxed);
        }
    }

    pub fn snapshot(&self) -> PhaseTimes {
        let mut t = PhaseTimes::default();
        for (dst, slot) in t.us.iter_mut().zip(&self.us) {
            *dst = slot.load(Ordering::Relaxed);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(d: Duration) {
        let start = Instant::now();
        while start.elapsed() < d {
            std::hint::spin_loop();
        }
    }

    #[test]
    fn nested_phases_are_charged_exclusively() {
        let _ = take();
        let wall = Instant::now();
        timed(Phase::Generation, || {
            spin(Duration::from_millis(20));
            timed(Phase::GccReference, || spin(Duration::from_millis(30)));
        });
        let wall = wall.elapsed();
        let t = take();
        let (gen, gcc) = (t.get(Phase::Generation), t.get(Phase::GccReference));
        assert!(gcc >= Duration::from_millis(30), "{gcc:?}");
        assert!(gen >= Duration::from_millis(20), "{gen:?}");
        // Exclusive: the nested 30 ms are not counted twice.
        assert!(gen + gcc <= wall, "{gen:?} + {gcc:?} > {wall:?}");
        assert_eq!(take(), PhaseTimes::default(), "take drains");
    }

    #[test]
    fn an_added_duration_comes_off_the_enclosing_phase() {
        let _ = take();
        timed(Phase::Other, || {
            spin(Duration::from_millis(10));
            add(Phase::NativeRun, Duration::from_millis(4));
        });
        let t = take();
        assert_eq!(t.get(Phase::NativeRun), Duration::from_millis(4));
        let other = t.get(Phase::Other);
        assert!(other >= Duration::from_millis(6), "{other:?}");
        // An outer phase never goes negative when the caller's number exceeds it.
        timed(Phase::Other, || {
            add(Phase::NativeBuild, Duration::from_secs(5))
        });
        assert_eq!(take().get(Phase::Other), Duration::ZERO);
    }

    #[test]
    fn a_panicking_phase_is_closed() {
        let _ = take();
        let r = std::panic::catch_unwind(|| timed(Phase::Oracle, || panic!("stage")));
        assert!(r.is_err());
        timed(Phase::Generation, || spin(Duration::from_millis(5)));
        let t = take();
        assert!(t.get(Phase::Generation) >= Duration::from_millis(5));
        assert!(CLOCK.with(|c| c.borrow().open.is_empty()));
    }
}
