//! Where a campaign's programs come from.
//!
//! Why: the campaign loop is the same for every generator (random CFGs, phi graphs, C
//! programs later); a source turns a seed into a candidate program and says what it
//! contains, and the campaign does the rest.
//!
//! Invariant: `make(seed)` is a pure function of the seed — `phihunt gen NAME --seed S`
//! prints exactly the program a campaign ran under that seed.

use compiler::ir::IrModule;
use std::collections::BTreeMap;

/// A program ready for the differential.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub module: IrModule,
    pub entry: String,
    pub arg_vectors: Vec<Vec<i64>>,
    /// Feature name -> count, summed over the campaign for the coverage table.
    pub features: BTreeMap<String, u64>,
}

/// A named, seeded program generator.
pub trait ProgramSource: Sync {
    /// The generator's name (`cfg`, `phi`, ...).
    fn name(&self) -> &'static str;
    /// The program for `seed`.
    fn make(&self, seed: u64) -> Candidate;
}
