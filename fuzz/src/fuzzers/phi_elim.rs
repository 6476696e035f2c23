//! Fuzzer `phi_elim`: SSA functions with random parallel-copy graphs (the `phi`
//! generator), aimed at phi elimination, through every stage.

use super::differential::check_generated;
use super::stats::FuzzStats;
use crate::gen::GenKind;

pub static STATS: FuzzStats = FuzzStats::new("phi_elim");

/// Checks one input; panics on a finding (after saving it).
pub fn check(data: &[u8]) {
    check_generated(GenKind::Phi, data, &STATS);
}
