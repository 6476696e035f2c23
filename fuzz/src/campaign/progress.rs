//! The progress line of a hunt.
//!
//! On a terminal: one line rewritten in place (`\r`) a few times a second. Elsewhere (CI
//! logs, pipes): a plain line every ten seconds. Findings are announced on their own line
//! with the directory they were saved to.

use super::stats::Totals;
use crate::diff::Signature;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

pub struct Progress {
    enabled: bool,
    tty: bool,
    total: Duration,
    last: Option<Instant>,
}

impl Progress {
    pub fn new(enabled: bool, total: Duration) -> Progress {
        Progress {
            enabled,
            tty: std::io::stderr().is_terminal(),
            total,
            last: None,
        }
    }

    fn line(&self, elapsed: Duration, t: &Totals, unique: usize) -> String {
        let rate = t.programs as f64 / elapsed.as_secs_f64().max(1e-9);
        let frac = (elapsed.as_secs_f64() / self.total.as_secs_f64().max(1e-9)).min(1.0);
        let filled = (frac * 20.0) as usize;
        format!(
            "[{}{}] {:>5.1}s  {} programs ({:.0}/s)  valid {:.1}%  findings {} ({} unique)",
            "#".repeat(filled),
            ".".repeat(20 - filled),
            elapsed.as_secs_f64(),
            t.programs,
            rate,
            t.valid_ratio() * 100.0,
            t.findings,
            unique
        )
    }

    pub fn tick(&mut self, elapsed: Duration, t: &Totals, unique: usize) {
        if !self.enabled {
            return;
        }
        let every = if self.tty {
            Duration::from_millis(250)
        } else {
            Duration::from_secs(10)
        };
        if self.last.is_some_and(|l| l.elapsed() < every) {
            return;
        }
        self.last = Some(Instant::now());
        let line = self.line(elapsed, t, unique);
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r{line}\x1b[K");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    pub fn finding(&mut self, sig: &Signature, dir: &Path) {
        if !self.enabled {
            return;
        }
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r\x1b[K");
        }
        let _ = writeln!(err, "finding {sig}: saved {}", dir.display());
    }

    pub fn finish(&mut self, elapsed: Duration, t: &Totals, unique: usize) {
        if !self.enabled {
            return;
        }
        let line = self.line(elapsed, t, unique);
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = writeln!(err, "\r{line}\x1b[K");
        } else {
            let _ = writeln!(err, "{line}");
        }
    }
}
