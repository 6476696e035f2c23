//! The generator's state while it builds one program: the random stream, the features
//! of this program, the program so far, and where in it the next statement goes.
//!
//! Why: expressions, statements, functions and globals are built by separate files
//! (`expr.rs`, `stmt.rs`, `func.rs`, `globals.rs`) that share this state.
//!
//! Invariants: every random choice comes from `rng` (seeded from the program's seed);
//! `readonly` holds the variables no statement may write (loop counters, the recursion
//! depth); `visible_locals` bounds the locals an initializer may read (those declared
//! before it).

use super::ast::{Program, VarRef};
use super::features::{Feature, FeatureSet};
use super::types::{DataModel, IntKind};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The data model whose ranges every constant must fit: `long` constants stay within 32
/// bits so that one text serves ILP32 and LP64.
pub const NARROW_DM: DataModel = DataModel { long_bits: 32 };

/// How a program is generated.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Program size (1 small .. 10 large); scales functions, globals and statements.
    pub size: u32,
    /// The features allowed at all.
    pub features: FeatureSet,
    /// Give each program a random subset of the allowed features.
    pub swarm: bool,
    /// Evaluation steps a program may take (longer programs are generated again).
    pub fuel: u64,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            size: 3,
            features: FeatureSet::default_on(),
            swarm: true,
            fuel: 300_000,
        }
    }
}

/// The generator's state.
pub struct Gen<'c> {
    pub rng: ChaCha8Rng,
    pub cfg: &'c GenConfig,
    /// This program's features.
    pub feats: FeatureSet,
    pub prog: Program,
    /// The function being built.
    pub f: usize,
    pub readonly: Vec<VarRef>,
    /// Locals with an index below this are visible (all of them in a body).
    pub visible_locals: usize,
    /// Labels later in an enclosing block that a `goto` may jump to.
    pub labels: Vec<u32>,
    pub next_label: u32,
    pub loop_depth: u32,
    pub switch_depth: u32,
    /// Statement nesting depth.
    pub nest: u32,
    /// A volatile object has been read in the current statement (one read at most).
    pub volatile_used: bool,
    /// How many index expressions are being generated inside each other.
    pub in_index: u32,
    /// Only globals may be named (initializers of globals).
    pub globals_only: bool,
    /// The integer kinds this program uses.
    pub kinds: Vec<IntKind>,
}

impl<'c> Gen<'c> {
    pub fn has(&self, f: Feature) -> bool {
        self.feats.has(f)
    }

    /// Pointers in structs and arrays are on (they need pointers). Such a pointer only
    /// ever holds the address of a global, so copying the aggregate anywhere (into a
    /// global, out of a function) never makes it dangle; `g_0` is then a plain `int`, a
    /// target that always exists.
    pub fn ptr_members(&self) -> bool {
        self.has(Feature::PtrMembers) && self.has(Feature::Pointers)
    }

    /// The type of a pointer stored in an aggregate.
    pub fn member_ptr_ty() -> super::types::Ty {
        super::types::Ty::Ptr(Box::new(super::types::Ty::Int(IntKind::Int)))
    }

    /// Pointer arithmetic is on (it needs pointers).
    pub fn ptr_arith(&self) -> bool {
        self.has(Feature::PtrArith) && self.has(Feature::Pointers)
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p.clamp(0.0, 1.0))
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.gen_range(0..n.max(1))
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: u32, hi: u32) -> u32 {
        self.rng.gen_range(lo..=hi.max(lo))
    }

    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }

    /// An index into `weights` chosen with those weights (a zero weight is never chosen;
    /// all zero gives 0).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return 0;
        }
        let mut r = self.rng.gen_range(0..total);
        for (i, w) in weights.iter().enumerate() {
            if r < *w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }

    /// An integer kind this program uses.
    pub fn kind(&mut self) -> IntKind {
        let ks = self.kinds.clone();
        self.pick(&ks)
    }

    pub fn fresh_label(&mut self) -> u32 {
        self.next_label += 1;
        self.next_label
    }
}

/// The integer kinds the features allow (`int` always).
pub fn kinds_for(feats: &FeatureSet) -> Vec<IntKind> {
    let mut ks = vec![IntKind::Int];
    let unsigned = feats.has(Feature::Unsigned);
    let mut add = |s: IntKind, on: bool| {
        if on {
            ks.push(s);
            if unsigned {
                ks.push(s.to_unsigned());
            }
        }
    };
    add(IntKind::SChar, feats.has(Feature::Char));
    add(IntKind::Short, feats.has(Feature::Short));
    add(IntKind::Long, feats.has(Feature::Long));
    add(IntKind::LLong, feats.has(Feature::LongLong));
    if unsigned {
        ks.push(IntKind::UInt);
    }
    ks
}
