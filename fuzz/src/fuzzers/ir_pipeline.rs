//! Fuzzer `ir_pipeline`: arbitrary alloca-form CFGs (the `cfg` generator) through every
//! stage of the pipeline, compared with the `lowered` reference.

use super::differential::check_generated;
use super::stats::FuzzStats;
use crate::gen::GenKind;

pub static STATS: FuzzStats = FuzzStats::new("ir_pipeline");

/// Checks one input; panics on a finding (after saving it).
pub fn check(data: &[u8]) {
    check_generated(GenKind::Cfg, data, &STATS);
}
