//! Program generators for the stage differential.
//!
//! Why: the harness runs a generated program at every pipeline stage in the IR
//! interpreter; the first stage whose outcome differs from `lowered` is the broken one.
//! Two generators aim at the middle end's two halves:
//! - [`cfg`]: alloca-form modules, as lowered from C, shaped to break SSA construction;
//! - [`phi`]: SSA functions with phis written directly, shaped to break phi elimination.
//!
//! Both draw every decision from `arbitrary::Unstructured` (one generator for `cargo fuzz`
//! and for seeded runs, see [`seed`]) and return a [`GeneratedProgram`]: the module, its
//! entry, argument vectors to run it with, and its feature counts.
//!
//! Invariants shared by both: the same bytes (or seed and settings) give the same module;
//! generated programs terminate and are free of undefined behaviour by construction, so
//! a reference run is rarely discarded; block ids are unique across the module and every
//! value is defined once.

pub mod args;
pub mod arith;
pub mod builder;
pub mod census;
pub mod cfg;
pub mod checksum;
pub mod choice;
pub mod consts;
pub mod features;
pub mod floats;
pub mod phi;
pub mod renumber;
pub mod seed;
pub mod wellformed;

pub use cfg::CfgGenConfig;
pub use features::FeatureCounts;
pub use phi::PhiGenConfig;

use arbitrary::Unstructured;
use compiler::ir::{BasicBlock, BlockId, IrFunction, IrModule, IrType, Terminator};
use std::fmt;
use std::str::FromStr;

/// A generated program and how to run it.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedProgram {
    pub module: IrModule,
    /// The function to call.
    pub entry: String,
    /// Argument vectors for the entry, each value canonical for its parameter type.
    pub arg_vectors: Vec<Vec<i64>>,
    /// What the module contains.
    pub features: FeatureCounts,
}

/// A generated program without its feature census: what a fuzz target needs to run the
/// differential (the census costs about a twentieth of a fuzz exec and only campaigns
/// and the generator's own tests read it). Same bytes, same module as [`generate`].
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedTest {
    pub module: IrModule,
    /// The function to call.
    pub entry: String,
    /// Argument vectors for the entry, each value canonical for its parameter type.
    pub arg_vectors: Vec<Vec<i64>>,
}

impl GeneratedTest {
    /// Adds the feature census.
    pub fn measured(self) -> GeneratedProgram {
        let features = census::census(&self.module);
        GeneratedProgram {
            module: self.module,
            entry: self.entry,
            arg_vectors: self.arg_vectors,
            features,
        }
    }
}

impl GeneratedProgram {
    /// The smallest valid program: `@main() -> i32 { ret 0 }`. A last resort only.
    pub fn empty() -> GeneratedProgram {
        let module = IrModule {
            functions: vec![IrFunction {
                name: cfg::ENTRY.into(),
                params: vec![],
                ret: IrType::I32,
                variadic: false,
                attrs: Default::default(),
                blocks: vec![BasicBlock::new(
                    BlockId(0),
                    Terminator::Ret(Some((IrType::I32, compiler::ir::konst(IrType::I32, 0)))),
                )],
            }],
            ..Default::default()
        };
        let features = census::census(&module);
        GeneratedProgram {
            module,
            entry: cfg::ENTRY.into(),
            arg_vectors: vec![vec![]],
            features,
        }
    }
}

/// Which generator, and whether it makes floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GenKind {
    Cfg,
    Phi,
    /// `cfg` with floats on (`CfgGenConfig::float_percent`): `cfg-float`.
    CfgFloat,
    /// `phi` with floats on (`PhiGenConfig::float_percent`): `phi-float`.
    PhiFloat,
}

/// The percent of float slots and variables the `-float` generators use.
pub const FLOAT_PERCENT: u32 = 30;

impl GenKind {
    /// The integer IR generators (floats off). `--gen all` runs [`GenKind::EVERY`].
    pub const ALL: [GenKind; 2] = [GenKind::Cfg, GenKind::Phi];

    /// Every generator name `--gen` and `phihunt gen` accept.
    pub const EVERY: [GenKind; 4] = [
        GenKind::Cfg,
        GenKind::Phi,
        GenKind::CfgFloat,
        GenKind::PhiFloat,
    ];

    /// `cfg`, `phi`, `cfg-float` or `phi-float`.
    pub fn name(self) -> &'static str {
        match self {
            GenKind::Cfg => "cfg",
            GenKind::Phi => "phi",
            GenKind::CfgFloat => "cfg-float",
            GenKind::PhiFloat => "phi-float",
        }
    }

    /// The cfg generator's settings for this kind (`None` for the phi kinds).
    pub fn cfg_config(self) -> Option<CfgGenConfig> {
        match self {
            GenKind::Cfg => Some(CfgGenConfig::default()),
            GenKind::CfgFloat => Some(CfgGenConfig {
                float_percent: FLOAT_PERCENT,
                ..CfgGenConfig::default()
            }),
            GenKind::Phi | GenKind::PhiFloat => None,
        }
    }

    /// The phi generator's settings for this kind (`None` for the cfg kinds).
    pub fn phi_config(self) -> Option<PhiGenConfig> {
        match self {
            GenKind::Phi => Some(PhiGenConfig::default()),
            GenKind::PhiFloat => Some(PhiGenConfig {
                // Per type group (one to three per function): more than per slot.
                float_percent: 2 * FLOAT_PERCENT,
                ..PhiGenConfig::default()
            }),
            GenKind::Cfg | GenKind::CfgFloat => None,
        }
    }
}

impl fmt::Display for GenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GenKind {
    type Err = String;
    fn from_str(s: &str) -> Result<GenKind, String> {
        GenKind::EVERY
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!("unknown generator `{s}` (expected cfg, phi, cfg-float or phi-float)")
            })
    }
}

/// Generates a program of `kind` from `u` with default settings.
pub fn generate(kind: GenKind, u: &mut Unstructured) -> arbitrary::Result<GeneratedProgram> {
    match (kind.cfg_config(), kind.phi_config()) {
        (Some(c), _) => cfg::generate(u, &c),
        (None, p) => phi::generate(u, &p.unwrap_or_default()),
    }
}

/// Generates the program of `kind` from `u` with default settings, without the feature
/// census (the fuzz targets' path; [`generate`] is this plus the census).
pub fn generate_test(kind: GenKind, u: &mut Unstructured) -> arbitrary::Result<GeneratedTest> {
    match (kind.cfg_config(), kind.phi_config()) {
        (Some(c), _) => cfg::generate_test(u, &c),
        (None, p) => phi::generate_test(u, &p.unwrap_or_default()),
    }
}

/// Generates the program of `seed` of `kind` with default settings.
pub fn generate_from_seed(kind: GenKind, seed: u64) -> GeneratedProgram {
    match (kind.cfg_config(), kind.phi_config()) {
        (Some(c), _) => cfg::generate_from_seed(seed, &c),
        (None, p) => phi::generate_from_seed(seed, &p.unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fuzz_targets_path_generates_the_same_programs() {
        // `generate_test` (no census) must give exactly what `generate` gives, byte for
        // byte of input, so a fuzz artifact replays as the same program everywhere.
        for kind in GenKind::ALL {
            for len in [0usize, 1, 5, 16, 64, 300] {
                let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
                let full = generate(kind, &mut Unstructured::new(&bytes)).expect("generates");
                let test = generate_test(kind, &mut Unstructured::new(&bytes)).expect("generates");
                assert_eq!(test.clone().measured(), full, "{kind}, {len} bytes");
                assert_eq!(test.module, full.module);
            }
        }
    }
}
