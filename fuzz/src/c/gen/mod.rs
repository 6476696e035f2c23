//! `phihunt gen c`: a csmith-style C program generator that is UB-free by construction
//! and knows its own expected output.
//!
//! Why: csmith's programs need gcc to say what they print, and wrap every operation in
//! safe-math functions the optimizer sees through. This generator (after YARPGen) runs
//! each program while it builds it (`eval.rs`): it knows every value, rewrites only the
//! operations that would be undefined for the values they meet, and prints a checksum of
//! every global plus values along the way, so its expected output is a third oracle,
//! independent of gcc and of the IR interpreter.
//!
//! Files: `types` (C types, promotions, conversions), `value` (integer arithmetic with
//! undefined cases detected), `ast` (the program tree), `context` (generator state and
//! configuration), `features` (the switchable features, swarm testing), `globals`,
//! `func`, `stmt`, `expr` (building the program), `float` (float values and IEEE
//! arithmetic), `float_expr` (building float expressions and statements), `eval` (running
//! it and rewriting what is undefined), `print` (its C text), `expected` (the output lines
//! and checksum).
//!
//! Invariants:
//! - program `seed` is a pure function of the seed and the configuration (`rand_chacha`);
//! - one C text serves every target: it is evaluated, and rewritten until defined, under
//!   both data models (LP64 and ILP32); the expected output differs by data model only;
//! - a program that would run longer than the configured fuel is thrown away and made
//!   again from the same random stream (so termination is cheap as well as certain).

pub mod ast;
pub mod context;
pub mod eval;
pub mod expected;
pub mod expr;
pub mod features;
pub mod float;
pub mod float_expr;
pub mod func;
pub mod globals;
pub mod print;
pub mod stmt;
pub mod types;
pub mod value;

use ast::{Expr, FExpr, LVal, Program, Stmt};
use compiler::target::Target;
pub use context::GenConfig;
use context::{kinds_for, Gen};
use features::FeatureSet;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use types::DataModel;

/// How many times a program that runs out of fuel is made again before giving up.
const ATTEMPTS: u32 = 20;

/// A generated program with its expected output.
#[derive(Clone, Debug)]
pub struct CProgram {
    pub seed: u64,
    pub text: String,
    /// stdout on LP64 targets (x86_64, aarch64, riscv64).
    pub expected_lp64: String,
    /// stdout on ILP32 targets (i686).
    pub expected_ilp32: String,
    /// The features this program could use (its swarm subset).
    pub features: FeatureSet,
    /// `-I` directories the program needs (none for generated programs; csmith's
    /// headers for csmith's).
    pub include_dirs: Vec<std::path::PathBuf>,
    /// Operations the evaluator rewrote: (operator swapped, made defined for all
    /// values, index guarded).
    pub rewrites: (u64, u64, u64),
}

impl CProgram {
    /// The exact stdout the program must print on `target`.
    pub fn expected(&self, target: Target) -> &str {
        if DataModel::of(target).long_bits == 32 {
            &self.expected_ilp32
        } else {
            &self.expected_lp64
        }
    }
}

/// The data models every program is evaluated under.
pub const DATA_MODELS: [DataModel; 2] = [DataModel { long_bits: 64 }, DataModel { long_bits: 32 }];

/// Program `seed` under `cfg`; `Err` is a generator bug (with the seed in the message).
pub fn generate(seed: u64, cfg: &GenConfig) -> Result<CProgram, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let feats = if cfg.swarm {
        use rand::Rng;
        FeatureSet(
            cfg.features
                .0
                .iter()
                .copied()
                .filter(|_| rng.gen_bool(0.7))
                .collect(),
        )
    } else {
        cfg.features.clone()
    };
    let mut gen = Gen {
        rng,
        cfg,
        kinds: kinds_for(&feats),
        feats,
        prog: Program {
            structs: Vec::new(),
            globals: Vec::new(),
            funcs: Vec::new(),
            main_args: Vec::new(),
            floats: false,
        },
        f: 0,
        readonly: Vec::new(),
        visible_locals: usize::MAX,
        labels: Vec::new(),
        next_label: 0,
        loop_depth: 0,
        switch_depth: 0,
        nest: 0,
        volatile_used: false,
        in_index: 0,
        globals_only: false,
    };
    for _ in 0..ATTEMPTS {
        gen.prog = Program {
            structs: Vec::new(),
            globals: Vec::new(),
            funcs: Vec::new(),
            main_args: Vec::new(),
            floats: gen.feats.has(features::Feature::Floats),
        };
        gen.next_label = 0;
        gen.make_structs();
        gen.make_globals();
        gen.make_signatures();
        for f in 0..gen.prog.funcs.len() {
            gen.make_body(f);
        }
        match eval::settle(&gen.prog, &DATA_MODELS, cfg.fuel) {
            Ok(outs) => {
                return Ok(CProgram {
                    seed,
                    text: print::program_text(&gen.prog),
                    expected_lp64: outs[0].clone(),
                    expected_ilp32: outs[1].clone(),
                    features: gen.feats.clone(),
                    include_dirs: Vec::new(),
                    rewrites: count_rewrites(&gen.prog),
                })
            }
            Err(eval::Stop::OutOfFuel) => continue,
            Err(eval::Stop::Restart) => unreachable!("settle restarts by itself"),
            Err(eval::Stop::Bug(m)) => return Err(format!("generator bug (seed {seed}): {m}")),
        }
    }
    Err(format!(
        "seed {seed}: every one of {ATTEMPTS} programs ran past the fuel ({}); lower --size",
        cfg.fuel
    ))
}

/// (swapped, wrapped, guarded) operation counts of `p`.
fn count_rewrites(p: &Program) -> (u64, u64, u64) {
    let mut n = (0, 0, 0);
    fn lval(lv: &LVal, n: &mut (u64, u64, u64)) {
        match lv {
            LVal::Var(_) => {}
            LVal::Index(a, i, g) => {
                n.2 += g.get() as u64;
                lval(a, n);
                expr(i, n);
            }
            LVal::Field(a, _) | LVal::Member(a, _) => lval(a, n),
            LVal::Deref(e) => expr(e, n),
        }
    }
    fn expr(e: &Expr, n: &mut (u64, u64, u64)) {
        match e {
            Expr::Const(_) => {}
            Expr::Read(lv) | Expr::AddrOf(lv) => lval(lv, n),
            Expr::Cast(_, a) => expr(a, n),
            Expr::FCmp(_, a, b) => {
                fexpr(a, n);
                fexpr(b, n);
            }
            Expr::Float(a) => fexpr(a, n),
            Expr::FToInt(_, a, guarded) => {
                n.1 += guarded.get() as u64;
                fexpr(a, n);
            }
            Expr::Unary(_, a, fix) => {
                n.1 += fix.wrap.get().is_some() as u64;
                expr(a, n);
            }
            Expr::Binary(_, a, b, fix) => {
                n.0 += fix.swapped.get() as u64;
                n.1 += fix.wrap.get().is_some() as u64;
                expr(a, n);
                expr(b, n);
            }
            Expr::PtrAdd { base, off, fix, .. } => {
                n.0 += fix.swapped.get() as u64;
                n.1 += fix.zeroed.get() as u64;
                expr(base, n);
                expr(off, n);
            }
            Expr::PtrEq(_, a, b)
            | Expr::PtrCmp(_, a, b)
            | Expr::PtrDiff(a, b)
            | Expr::Logic(_, a, b)
            | Expr::Comma(a, b) => {
                expr(a, n);
                expr(b, n);
            }
            Expr::Cond(c, a, b) => {
                expr(c, n);
                expr(a, n);
                expr(b, n);
            }
        }
    }
    fn fexpr(e: &FExpr, n: &mut (u64, u64, u64)) {
        match e {
            FExpr::Const(_) => {}
            FExpr::Read(lv) => lval(lv, n),
            FExpr::Arith(_, a, b) => {
                fexpr(a, n);
                fexpr(b, n);
            }
            FExpr::Neg(a) | FExpr::Conv(_, a) => fexpr(a, n),
            FExpr::FromInt(_, a) => expr(a, n),
            FExpr::Cond(c, a, b) => {
                expr(c, n);
                fexpr(a, n);
                fexpr(b, n);
            }
            FExpr::Member(u, _, redirected) => {
                n.1 += redirected.get() as u64;
                lval(u, n);
            }
        }
    }
    fn stmts(ss: &[Stmt], n: &mut (u64, u64, u64)) {
        for s in ss {
            match s {
                Stmt::Assign { lv, rhs, .. } => {
                    lval(lv, n);
                    expr(rhs, n);
                }
                Stmt::Call { args, .. } => args.iter().for_each(|a| expr(a, n)),
                Stmt::If(c, a, b) => {
                    expr(c, n);
                    stmts(a, n);
                    if let Some(b) = b {
                        stmts(b, n);
                    }
                }
                Stmt::Loop { body, .. } | Stmt::Block(body) => stmts(body, n),
                Stmt::Switch(e, cases) => {
                    expr(e, n);
                    cases.iter().for_each(|c| stmts(&c.body, n));
                }
                Stmt::Return(Some(e)) | Stmt::Print(e) => expr(e, n),
                Stmt::FAssign {
                    lv, rhs, nan_guard, ..
                } => {
                    n.1 += nan_guard.get() as u64;
                    lval(lv, n);
                    fexpr(rhs, n);
                }
                Stmt::FPrint(e) => fexpr(e, n),
                _ => {}
            }
        }
    }
    for f in &p.funcs {
        stmts(&f.body, &mut n);
    }
    n
}
