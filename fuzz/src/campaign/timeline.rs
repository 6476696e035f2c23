//! The hunt's time series: counters sampled every few seconds, for the report's plots
//! (programs and findings over wall-clock time).
//!
//! Why: a total says how much a hunt did; the curve says whether it is still finding
//! anything (findings flatten out long before an 8-hour hunt ends) and whether the rate
//! dropped (a slow generator, a saturated disk).
//!
//! Invariants:
//! - samples are in increasing time and every counter in them is monotone (they are
//!   copies of the hunt's running totals);
//! - memory is bounded whatever the hunt's length: at most [`MAX_SAMPLES`] samples plus
//!   the final one; when full, every other sample is dropped and the sampling interval
//!   doubles, so the kept samples stay evenly spread over the whole hunt (an 8-hour hunt
//!   keeps one sample a minute or so);
//! - the first sample is at time zero (all counters zero) and [`Timeline::finish`] adds
//!   one at the hunt's end, so a plot spans the whole hunt.

use super::stats::Totals;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Samples kept before the series is thinned.
pub const MAX_SAMPLES: usize = 512;

/// The first sampling interval.
pub const FIRST_INTERVAL: Duration = Duration::from_secs(2);

/// The counters at one moment of the hunt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Seconds since the hunt started.
    pub t: f64,
    pub programs: u64,
    pub agreed: u64,
    pub discarded: u64,
    pub generator_bugs: u64,
    /// Findings (every one, duplicates of a signature included).
    pub findings: u64,
    /// Distinct signatures so far.
    pub unique: u64,
}

impl Sample {
    pub fn of(elapsed: Duration, t: &Totals, unique: usize) -> Sample {
        Sample {
            t: elapsed.as_secs_f64(),
            programs: t.programs,
            agreed: t.agreed,
            discarded: t.discarded,
            generator_bugs: t.generator_bugs,
            findings: t.findings,
            unique: unique as u64,
        }
    }
}

/// A bounded, evenly spaced time series of [`Sample`]s.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Timeline {
    /// Seconds between kept samples (grows as the series is thinned).
    pub interval_s: f64,
    pub samples: Vec<Sample>,
    #[serde(skip)]
    interval: Duration,
    #[serde(skip)]
    max: usize,
}

impl Default for Timeline {
    fn default() -> Timeline {
        Timeline::with_limits(FIRST_INTERVAL, MAX_SAMPLES)
    }
}

impl Timeline {
    /// A series sampled every `interval` at first, thinned to at most `max` (>= 2) samples.
    pub fn with_limits(interval: Duration, max: usize) -> Timeline {
        Timeline {
            interval_s: interval.as_secs_f64(),
            samples: vec![Sample::default()],
            interval,
            max: max.max(2),
        }
    }

    /// A finished series made elsewhere (`merge` sums shards' series): `samples` in
    /// increasing time with monotone counters, `interval_s` apart (or more).
    pub fn from_samples(samples: Vec<Sample>, interval_s: f64) -> Timeline {
        let interval = Duration::from_secs_f64(interval_s.max(0.0));
        Timeline {
            interval_s,
            max: samples.len().max(MAX_SAMPLES),
            samples,
            interval,
        }
    }

    /// Records the counters if the interval has passed since the last kept sample; cheap
    /// otherwise (call it as often as you like).
    pub fn tick(&mut self, elapsed: Duration, t: &Totals, unique: usize) {
        let last = self.samples.last().map_or(0.0, |s| s.t);
        if elapsed.as_secs_f64() < last + self.interval.as_secs_f64() {
            return;
        }
        self.push(Sample::of(elapsed, t, unique));
    }

    fn push(&mut self, s: Sample) {
        if self.samples.len() >= self.max {
            // Keep samples 0, 2, 4, ...: still evenly spaced, at twice the interval.
            let mut i = 0;
            self.samples.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.interval *= 2;
            self.interval_s = self.interval.as_secs_f64();
        }
        self.samples.push(s);
    }

    /// The final sample, at the hunt's end (always kept).
    pub fn finish(&mut self, elapsed: Duration, t: &Totals, unique: usize) {
        let s = Sample::of(elapsed, t, unique);
        match self.samples.last_mut() {
            Some(last) if last.t >= s.t => *last = s,
            _ => self.samples.push(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn totals(programs: u64) -> Totals {
        Totals {
            programs,
            agreed: programs,
            ..Totals::default()
        }
    }

    #[test]
    fn an_eight_hour_hunt_keeps_a_bounded_even_series() {
        let mut tl = Timeline::with_limits(Duration::from_secs(2), 64);
        // A tick every 200 ms for 8 hours, one program per tick.
        let ticks = 8 * 3600 * 5;
        for i in 1..=ticks {
            tl.tick(Duration::from_millis(200 * i), &totals(i), 0);
        }
        tl.finish(Duration::from_secs(8 * 3600), &totals(ticks), 0);
        assert!(tl.samples.len() <= 65, "{}", tl.samples.len());
        // 8 h in at most 64 samples: the interval doubled from 2 s to 512 s (2 * 2^8).
        assert_eq!(tl.interval_s, 512.0);
        let first = tl.samples[0];
        assert_eq!((first.t, first.programs), (0.0, 0));
        let last = tl.samples.last().unwrap();
        assert_eq!((last.t, last.programs), (8.0 * 3600.0, ticks));
        for w in tl.samples.windows(2) {
            assert!(w[0].t < w[1].t && w[0].programs <= w[1].programs);
        }
        // Evenly spread: no gap between kept samples exceeds the final interval.
        for w in tl.samples.windows(2) {
            assert!(w[1].t - w[0].t <= 512.0 + 1e-9, "{:?}", w);
        }
    }

    #[test]
    fn ticks_inside_the_interval_are_ignored() {
        let mut tl = Timeline::with_limits(Duration::from_secs(2), 16);
        tl.tick(Duration::from_millis(500), &totals(1), 0);
        tl.tick(Duration::from_millis(1999), &totals(2), 0);
        assert_eq!(tl.samples.len(), 1);
        tl.tick(Duration::from_millis(2000), &totals(3), 1);
        assert_eq!(tl.samples.len(), 2);
        assert_eq!(tl.samples[1].programs, 3);
        assert_eq!(tl.samples[1].unique, 1);
    }
}
