//! The cfg generator: alloca-form modules, as a C front end's lowering produces them,
//! shaped to break SSA construction.
//!
//! Why: mem2reg and phi elimination fail on particular shapes — irreducible cycles,
//! several back edges, repeated targets, critical edges, unreachable predecessors,
//! escaping or volatile slots, narrowing stores, reads before writes on untaken paths —
//! and so do the optimizations after them: loop-invariant code motion on divisions that
//! a test of their invariant divisor guards (`invariant_div`), dead static function
//! elimination on static functions reached only through their address (`plan`, `stmt`).
//! This generator builds whole programs (several functions, an acyclic call graph,
//! globals, printf) that contain them, from `arbitrary::Unstructured`, so the same code
//! serves `cargo fuzz` and seeded campaigns.
//!
//! Invariants of every generated program (each kept by the module named):
//! - it verifies in SSA mode: allocas in the entry block, every use dominated by its
//!   definition (`function`'s scope rule), operand types equal to their context types;
//! - it terminates: every cycle passes a bounded counter test (`control`, `irreducible`),
//!   calls go only to later functions (`plan`), and `cost`, an upper bound on the
//!   instructions one run executes, stays below `max_cost` (`function`);
//! - it traps only where it means to: one unguarded division at the end of a few
//!   functions (`trapping_div`), whose divisor some argument vectors make zero;
//! - it is free of undefined behaviour: every slot read is initialized (`frame`,
//!   `guarded`), divisors and shift amounts are sanitized (`gen::arith`) or guarded
//!   (`invariant_div`), memory accesses
//!   are in bounds (`memory`), pointers never outlive their frame (`plan`), output stays
//!   below `max_prints` lines;
//! - the same bytes give the same module: no hash-order iteration, no clock.

mod call_args;
mod control;
mod expr;
mod float_expr;
mod frame;
mod function;
mod guarded;
mod invariant_div;
mod irreducible;
mod memory;
mod plan;
mod self_relation;
mod stmt;
mod trapping_div;
mod unreachable;

pub use plan::ENTRY;

use super::args::argument_vectors;
use super::builder::BlockCounter;
use super::renumber::renumber_module;
use super::seed::{bytes_from_seed, SEED_BYTES};
use super::{GeneratedProgram, GeneratedTest};
use arbitrary::{Result, Unstructured};
use compiler::ir::{IrDecl, IrModule, IrType};
use serde::{Deserialize, Serialize};

/// Settings of the cfg generator. Sizes are upper bounds; the bytes choose within them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CfgGenConfig {
    /// Functions per module (the entry plus callees).
    pub max_functions: u32,
    /// Blocks per function (a budget; small inputs give fewer).
    pub min_blocks: u32,
    pub max_blocks: u32,
    /// Data slots per function (parameter, counter and guarded slots come on top).
    pub min_slots: u32,
    pub max_slots: u32,
    /// Parameters per function.
    pub max_params: u32,
    /// Percent of callees with a wide signature: 7..=`max_wide_params` parameters of
    /// mixed widths, so calls pass arguments on the stack on every target.
    pub wide_signature_percent: u32,
    /// Parameters of a wide signature (at least 7 are always used).
    pub max_wide_params: u32,
    /// Percent of calls (to callees of three or more parameters) whose arguments are
    /// computed right before the call in a permuted order (see `call_args`).
    pub permuted_call_percent: u32,
    /// Data globals per module.
    pub max_globals: u32,
    /// Statements per nested sequence (the function body gets three times as many).
    pub max_stmts: u32,
    /// Nesting of loops and irreducible regions.
    pub max_loop_depth: u32,
    /// Largest trip bound of one loop (a loop runs at most bound + 1 times per entry).
    pub max_loop_bound: u32,
    /// Largest product of enclosing trip bounds at any point.
    pub max_weight: u64,
    /// Upper bound on instructions one run of a function executes, callees included.
    pub max_cost: u64,
    /// Upper bound on lines one run prints.
    pub max_prints: u64,
    /// Relative weight of irreducible regions among statements (simple statements: 12).
    pub irreducible_weight: u32,
    /// Relative weight of unreachable blocks among statements.
    pub unreachable_weight: u32,
    /// Relative weight of printf among straight-line statements (assignments: 8).
    pub printf_weight: u32,
    /// Percent of scalar data slots whose address may escape.
    pub escape_percent: u32,
    /// Percent of data slots that are volatile.
    pub volatile_percent: u32,
    /// Percent of loops that contain a division by a loop-invariant divisor, guarded by a
    /// test of the divisor.
    pub invariant_div_percent: u32,
    /// Percent of functions (with an integer parameter) that end with an unguarded
    /// division whose divisor some argument vectors make zero (or -1 under MIN): runs
    /// that trap, which a backend must turn into SIGFPE.
    pub trapping_div_percent: u32,
    /// Floats (`gen::floats`): percent of data slots that are `f32` or `f64`, and the
    /// weight of float sub-expressions in integer expressions. 0 (the default) switches
    /// floats off, leaving the programs exactly as without the feature.
    pub float_percent: u32,
}

impl Default for CfgGenConfig {
    fn default() -> CfgGenConfig {
        CfgGenConfig {
            max_functions: 4,
            min_blocks: 4,
            max_blocks: 40,
            min_slots: 2,
            max_slots: 10,
            max_params: 3,
            wide_signature_percent: 30,
            max_wide_params: 12,
            permuted_call_percent: 60,
            max_globals: 3,
            max_stmts: 5,
            max_loop_depth: 3,
            max_loop_bound: 8,
            max_weight: 300,
            max_cost: 300_000,
            max_prints: 400,
            irreducible_weight: 2,
            unreachable_weight: 1,
            printf_weight: 1,
            escape_percent: 25,
            volatile_percent: 10,
            invariant_div_percent: 30,
            trapping_div_percent: 6,
            float_percent: 0,
        }
    }
}

/// Generates one program from `u`. Never fails on any input (exhausted bytes give the
/// smallest program); the `Result` is the `arbitrary` convention.
pub fn generate(u: &mut Unstructured, cfg: &CfgGenConfig) -> Result<GeneratedProgram> {
    generate_test(u, cfg).map(GeneratedTest::measured)
}

/// [`generate`] without the feature census.
pub fn generate_test(u: &mut Unstructured, cfg: &CfgGenConfig) -> Result<GeneratedTest> {
    let mut plan = plan::plan_module(u, cfg)?;
    let mut ids = BlockCounter::default();
    let n = plan.sigs.len();
    let mut functions = Vec::with_capacity(n);
    // Callees first: a caller needs their cost bounds.
    for fi in (0..n).rev() {
        functions.push(function::generate_function(
            u, cfg, &mut plan, fi, &mut ids,
        )?);
    }
    functions.reverse();
    let mut decls = Vec::new();
    if plan.formats.d || plan.formats.lld {
        decls.push(IrDecl {
            name: "printf".into(),
            params: vec![IrType::Ptr],
            variadic: true,
            ret: IrType::I32,
        });
    }
    let mut module = IrModule {
        globals: plan::build_globals(&plan),
        decls,
        functions,
    };
    renumber_module(&mut module);
    let params: Vec<IrType> = plan.sigs[0].params.iter().map(|p| p.ty()).collect();
    let arg_vectors = argument_vectors(u, &params)?;
    Ok(GeneratedTest {
        module,
        entry: ENTRY.to_string(),
        arg_vectors,
    })
}

/// Generates the program of `seed`: 64 KiB of ChaCha8 bytes fed to [`generate`].
pub fn generate_from_seed(seed: u64, cfg: &CfgGenConfig) -> GeneratedProgram {
    let bytes = bytes_from_seed(seed, SEED_BYTES);
    match generate(&mut Unstructured::new(&bytes), cfg) {
        Ok(p) => p,
        // `generate` does not fail; should it ever, the empty input still gives a program.
        Err(_) => {
            generate(&mut Unstructured::new(&[]), cfg).unwrap_or_else(|_| GeneratedProgram::empty())
        }
    }
}
