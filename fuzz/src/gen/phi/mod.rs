//! The phi generator: SSA functions written with phis directly (no allocas), shaped to
//! break phi elimination.
//!
//! Why: a generator that goes through mem2reg only produces the phis mem2reg makes; phi
//! elimination's own failure modes — lost copies, swaps, rotations, chains, self
//! references, critical and repeated edges into phi blocks, exit phis reading header phis
//! — need phis placed on purpose. This generator keeps its variables as SSA values and
//! merges them with phis wherever control merges (see `join`), with loop back edges that
//! permute the header's phis (see `shuffle`).
//!
//! Invariants of every generated program: SSA (each value defined once, every use and
//! every phi entry dominated by its definition: `function`, `join`); phi entries one per
//! distinct predecessor with constants of the phi's type; termination by counter phis
//! (`control`) and an acyclic call graph; no undefined behaviour (`gen::arith`, no memory
//! at all); the same bytes give the same module.

mod control;
mod float_expr;
mod function;
mod join;
mod shuffle;

use super::args::argument_vectors;
use super::builder::BlockCounter;
use super::choice::Pick;
use super::renumber::renumber_module;
use super::seed::{bytes_from_seed, SEED_BYTES};
use super::{GeneratedProgram, GeneratedTest};
use arbitrary::{Result, Unstructured};
use compiler::ir::{IrModule, IrType};
use function::PhiSig;
use serde::{Deserialize, Serialize};

/// The entry function's name.
pub const ENTRY: &str = "main";

/// Settings of the phi generator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhiGenConfig {
    /// Functions per module (the entry calls later ones).
    pub max_functions: u32,
    /// Variables per function (each a chain of SSA values).
    pub min_vars: u32,
    pub max_vars: u32,
    /// Distinct variable types per function (fewer types: more swap partners).
    pub max_type_groups: u32,
    /// Parameters per function (the entry has at least one).
    pub max_params: u32,
    /// Blocks per function (a budget).
    pub min_blocks: u32,
    pub max_blocks: u32,
    /// Statements per nested sequence (the function body gets three times as many).
    pub max_stmts: u32,
    /// Loop nesting.
    pub max_loop_depth: u32,
    /// Largest trip bound of one loop.
    pub max_loop_bound: u32,
    /// Largest product of enclosing trip bounds.
    pub max_weight: u64,
    /// Upper bound on instructions one run executes, callees included.
    pub max_cost: u64,
    /// Percent of agreeing variables that still get a phi at a join.
    pub extra_phi_percent: u32,
    /// Floats (`gen::floats`): percent of variable types that are `f32` or `f64`. 0 (the
    /// default) switches floats off, leaving the programs exactly as without the feature.
    #[serde(default)]
    pub float_percent: u32,
}

impl Default for PhiGenConfig {
    fn default() -> PhiGenConfig {
        PhiGenConfig {
            max_functions: 2,
            min_vars: 2,
            max_vars: 8,
            max_type_groups: 3,
            max_params: 3,
            min_blocks: 4,
            max_blocks: 40,
            max_stmts: 5,
            max_loop_depth: 3,
            max_loop_bound: 8,
            max_weight: 300,
            max_cost: 300_000,
            extra_phi_percent: 15,
            float_percent: 0,
        }
    }
}

/// Generates one program from `u`. Never fails on any input.
pub fn generate(u: &mut Unstructured, cfg: &PhiGenConfig) -> Result<GeneratedProgram> {
    generate_test(u, cfg).map(GeneratedTest::measured)
}

/// [`generate`] without the feature census.
pub fn generate_test(u: &mut Unstructured, cfg: &PhiGenConfig) -> Result<GeneratedTest> {
    let nfuncs = u.between(1, cfg.max_functions.max(1))? as usize;
    let mut sigs = Vec::new();
    for i in 0..nfuncs {
        let nparams = u.between(if i == 0 { 1 } else { 0 }, cfg.max_params)?;
        let params = (0..nparams)
            .map(|_| u.index(IrType::INTEGERS.len()).map(|k| IrType::INTEGERS[k]))
            .collect::<Result<Vec<_>>>()?;
        let ret = if i == 0 {
            if u.chance(50)? {
                IrType::I64
            } else {
                IrType::I32
            }
        } else {
            IrType::INTEGERS[u.index(IrType::INTEGERS.len())?]
        };
        let name = if i == 0 {
            ENTRY.to_string()
        } else {
            format!("f{i}")
        };
        sigs.push(PhiSig { name, params, ret });
    }
    let mut ids = BlockCounter::default();
    let mut costs = vec![0u64; nfuncs];
    let mut functions = Vec::with_capacity(nfuncs);
    // Callees first: callers need their cost bounds.
    for fi in (0..nfuncs).rev() {
        let (f, cost) = function::generate_function(u, cfg, &mut ids, &sigs, &costs, fi)?;
        costs[fi] = cost;
        functions.push(f);
    }
    functions.reverse();
    let mut module = IrModule {
        globals: Vec::new(),
        decls: Vec::new(),
        functions,
    };
    renumber_module(&mut module);
    let arg_vectors = argument_vectors(u, &sigs[0].params)?;
    Ok(GeneratedTest {
        module,
        entry: ENTRY.to_string(),
        arg_vectors,
    })
}

/// Generates the program of `seed`: 64 KiB of ChaCha8 bytes fed to [`generate`].
pub fn generate_from_seed(seed: u64, cfg: &PhiGenConfig) -> GeneratedProgram {
    let bytes = bytes_from_seed(seed, SEED_BYTES);
    match generate(&mut Unstructured::new(&bytes), cfg) {
        Ok(p) => p,
        Err(_) => {
            generate(&mut Unstructured::new(&[]), cfg).unwrap_or_else(|_| GeneratedProgram::empty())
        }
    }
}
