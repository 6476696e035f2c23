//! The IR generators as campaign program sources.
//!
//! Invariant: the candidate for a seed is exactly `gen::generate_from_seed(kind, seed)`,
//! so `phihunt gen KIND --seed S` reproduces any program a hunt ran.

use super::source::{Candidate, ProgramSource, Rejection};
use crate::c::hunt::CGenerator;
use crate::gen::{generate_from_seed, GenKind};

/// A generator kind as a program source.
pub struct IrGenerator(pub GenKind);

impl ProgramSource for IrGenerator {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn make(&self, seed: u64) -> Result<Candidate, Rejection> {
        let p = generate_from_seed(self.0, seed);
        Ok(Candidate {
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
            c_program: None,
        })
    }
}

/// `cfg`, `phi`, `c`, `csmith`, `mutate` (a list of them) or `all` (every one but csmith
/// and mutate) to the list of sources.
pub fn sources_for(name: &str) -> Result<Vec<Box<dyn ProgramSource>>, String> {
    let one = |n: &str| -> Result<Box<dyn ProgramSource>, String> {
        if n == "c" {
            return Ok(Box::new(CGenerator::default()));
        }
        // Not in `all`: csmith is a baseline (gcc in its inner loop), not a hunter here.
        if n == "csmith" {
            return Ok(Box::new(crate::c::csmith_source::CsmithSource::default()));
        }
        // Not in `all` either: gcc confirms every mutant in the inner loop.
        if n == "mutate" {
            return Ok(Box::new(
                crate::c::mutate::source::MutateSource::from_corpus()?,
            ));
        }
        n.parse::<GenKind>()
            .map(|k| Box::new(IrGenerator(k)) as Box<dyn ProgramSource>)
            .map_err(|e| format!("{e} (or `c`, `csmith`, `mutate`)"))
    };
    if name == "all" {
        // Every IR generator, the float variants included (all four backends compile
        // floats), then generated C.
        let mut all: Vec<Box<dyn ProgramSource>> = GenKind::EVERY
            .iter()
            .map(|k| Box::new(IrGenerator(*k)) as Box<dyn ProgramSource>)
            .collect();
        all.push(Box::new(CGenerator::default()));
        return Ok(all);
    }
    name.split(',').map(|n| one(n.trim())).collect()
}
