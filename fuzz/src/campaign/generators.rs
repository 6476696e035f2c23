//! The IR generators as campaign program sources.
//!
//! Invariant: the candidate for a seed is exactly `gen::generate_from_seed(kind, seed)`,
//! so `phihunt gen KIND --seed S` reproduces any program a hunt ran.

use super::source::{Candidate, ProgramSource};
use crate::gen::{generate_from_seed, GenKind};

/// A generator kind as a program source.
pub struct IrGenerator(pub GenKind);

impl ProgramSource for IrGenerator {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn make(&self, seed: u64) -> Candidate {
        let p = generate_from_seed(self.0, seed);
        Candidate {
            features: p
                .features
                .scalars()
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| (k.to_string(), n))
                .collect(),
            module: p.module,
            entry: p.entry,
            arg_vectors: p.arg_vectors,
        }
    }
}

/// `cfg`, `phi` or `all` to the list of sources.
pub fn sources_for(name: &str) -> Result<Vec<IrGenerator>, String> {
    if name == "all" {
        return Ok(GenKind::ALL.iter().map(|k| IrGenerator(*k)).collect());
    }
    name.split(',')
        .map(|n| n.trim().parse::<GenKind>().map(IrGenerator))
        .collect()
}
