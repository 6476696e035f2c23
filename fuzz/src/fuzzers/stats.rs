//! Statistics a fuzz target prints while libFuzzer runs it.
//!
//! Why: libFuzzer reports coverage and exec/s, but not how many inputs were *valid* tests
//! or why the rest were discarded — the numbers that say whether a generator is doing its
//! job. Each target keeps a `FuzzStats` and prints it every ten seconds to stderr.
//!
//! Invariant: counting is lock-free for the common paths (atomics); reasons go through a
//! mutex only for discarded inputs.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Counters for one fuzz target.
pub struct FuzzStats {
    name: &'static str,
    pub execs: AtomicU64,
    pub valid: AtomicU64,
    pub findings: AtomicU64,
    /// Inputs whose native stages ran and agreed.
    pub native: AtomicU64,
    reasons: Mutex<BTreeMap<String, u64>>,
    started: Mutex<Option<Instant>>,
    last_print: Mutex<Option<Instant>>,
}

impl FuzzStats {
    pub const fn new(name: &'static str) -> FuzzStats {
        FuzzStats {
            name,
            execs: AtomicU64::new(0),
            valid: AtomicU64::new(0),
            findings: AtomicU64::new(0),
            native: AtomicU64::new(0),
            reasons: Mutex::new(BTreeMap::new()),
            started: Mutex::new(None),
            last_print: Mutex::new(None),
        }
    }

    /// The fuzz target's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Counts one input.
    pub fn exec(&self) {
        self.execs.fetch_add(1, Ordering::Relaxed);
        let mut started = self.started.lock().unwrap_or_else(|e| e.into_inner());
        started.get_or_insert_with(Instant::now);
    }

    pub fn valid(&self) {
        self.valid.fetch_add(1, Ordering::Relaxed);
    }

    pub fn discarded(&self, reason: &str) {
        let mut r = self.reasons.lock().unwrap_or_else(|e| e.into_inner());
        *r.entry(reason.to_string()).or_default() += 1;
    }

    pub fn native_ran(&self) {
        self.native.fetch_add(1, Ordering::Relaxed);
    }

    pub fn finding(&self) {
        self.findings.fetch_add(1, Ordering::Relaxed);
    }

    /// One line: execs, valid ratio, findings, discard reasons.
    pub fn line(&self) -> String {
        let execs = self.execs.load(Ordering::Relaxed);
        let valid = self.valid.load(Ordering::Relaxed);
        let secs = self
            .started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map_or(0.0, |s| s.elapsed().as_secs_f64());
        let reasons = self.reasons.lock().unwrap_or_else(|e| e.into_inner());
        let reasons: Vec<String> = reasons.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!(
            "phihunt[{}]: {} execs ({:.0}/s), valid {:.1}%, native {}, findings {}, discarded: {}",
            self.name,
            execs,
            execs as f64 / secs.max(1e-9),
            100.0 * valid as f64 / execs.max(1) as f64,
            self.native.load(Ordering::Relaxed),
            self.findings.load(Ordering::Relaxed),
            if reasons.is_empty() {
                "none".to_string()
            } else {
                reasons.join(" ")
            }
        )
    }

    /// Prints [`FuzzStats::line`] when ten seconds have passed since the last print.
    pub fn maybe_print(&self) {
        let mut last = self.last_print.lock().unwrap_or_else(|e| e.into_inner());
        let due = last.is_none_or(|l| l.elapsed() >= Duration::from_secs(10));
        if due {
            *last = Some(Instant::now());
            drop(last);
            eprintln!("{}", self.line());
        }
    }
}
