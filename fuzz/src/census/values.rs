//! The value census: which classes of values met each integer operation at run time.
//!
//! Why: the generators bias constants toward boundary values (`gen::consts::interesting`),
//! but what matters to a rewrite is the value that reaches the operation when the program
//! runs — after loads, masks, casts and phis. This observer sits in the oracle's reference
//! run (`oracle::OperandObserver`) and counts, per operation, width and operand, the class
//! of every operand it sees, so the report can show that divisions really met MIN, shifts
//! really met `width - 1`, comparisons really met values one apart from the bound.
//!
//! Invariants:
//! - a value is classified by its bit pattern at the operation's width (the same pattern
//!   for a signed and an unsigned type), into exactly one class: the first of [`CLASSES`]
//!   that matches, so the classes partition the values;
//! - comparisons are counted in three groups: `eq` (`eq ne`), `scmp` (signed order) and
//!   `ucmp` (unsigned order); pointer and float operations are not counted;
//! - counts only grow; [`ValueCensus::features`] names each non-zero count
//!   `value/OP/iW/SIDE/CLASS` (side `a` or `b`), the form the campaign sums.

use compiler::ir::{BinOp, CmpPred};
use oracle::interp::{ObservedOp, ObservedSite, OperandObserver};
use std::collections::BTreeMap;

/// The operation rows, in report order.
pub const OPS: [&str; 16] = [
    "add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "and", "or", "xor", "shl", "ashr", "lshr",
    "eq", "scmp", "ucmp",
];

/// The widths, in report order.
pub const WIDTHS: [u32; 4] = [8, 16, 32, 64];

/// The value classes, in the order they are tried (the first that matches wins).
pub const CLASSES: [&str; 14] = [
    "0",
    "1",
    "-1",
    "min",
    "max",
    "min+1,max-1",
    "top of narrower",
    "2^k",
    "2^k±1",
    "-2^k(±1)",
    "min+small",
    "neg odd",
    "small",
    "other",
];

const SIDES: usize = 2;

/// The row index of an observed operation (`None`: not counted).
fn op_index(op: ObservedOp) -> usize {
    match op {
        ObservedOp::Bin(b) => match b {
            BinOp::Add => 0,
            BinOp::Sub => 1,
            BinOp::Mul => 2,
            BinOp::SDiv => 3,
            BinOp::UDiv => 4,
            BinOp::SRem => 5,
            BinOp::URem => 6,
            BinOp::And => 7,
            BinOp::Or => 8,
            BinOp::Xor => 9,
            BinOp::Shl => 10,
            BinOp::AShr => 11,
            BinOp::LShr => 12,
        },
        ObservedOp::Cmp(p) => match p {
            CmpPred::Eq | CmpPred::Ne => 13,
            CmpPred::Slt | CmpPred::Sle | CmpPred::Sgt | CmpPred::Sge => 14,
            CmpPred::Ult | CmpPred::Ule | CmpPred::Ugt | CmpPred::Uge => 15,
        },
    }
}

fn width_index(bits: u32) -> Option<usize> {
    WIDTHS.iter().position(|&w| w == bits)
}

/// The class (index into [`CLASSES`]) of the `bits`-wide pattern `v` (higher bits
/// ignored).
pub fn classify(v: u64, bits: u32) -> usize {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let x = v & mask;
    let min = 1u64 << (bits - 1);
    let max = mask >> 1;
    let neg = x.wrapping_neg() & mask;
    let near_pow2 = |y: u64| y.is_power_of_two() || (y > 2 && (y - 1).is_power_of_two());
    if x == 0 {
        0
    } else if x == 1 {
        1
    } else if x == mask {
        2
    } else if x == min {
        3
    } else if x == max {
        4
    } else if x == min + 1 || x == max - 1 {
        5
    } else if narrower_top(x, bits, mask) {
        6
    } else if x.is_power_of_two() {
        7
    } else if (x - 1).is_power_of_two() || (x + 1).is_power_of_two() {
        8
    } else if x & min != 0 && (near_pow2(neg) || near_pow2(neg + 1)) {
        9
    } else if x & min != 0 && (x & max) < 16 {
        10
    } else if x & min != 0 && x & 1 == 1 {
        11
    } else if x <= 16 {
        12
    } else {
        13
    }
}

/// True when `x` is the top bit of a narrower width (8, 16, 32), zero- or sign-extended,
/// or a neighbour of one.
fn narrower_top(x: u64, bits: u32, mask: u64) -> bool {
    [8u32, 16, 32].iter().filter(|&&n| n < bits).any(|&n| {
        let top = 1u64 << (n - 1);
        let sext = mask & !(top - 1);
        [top, sext]
            .iter()
            .any(|&t| x == t || x == t.wrapping_add(1) & mask || x == t.wrapping_sub(1) & mask)
    })
}

/// Counts of operand classes, per operation, width and side.
#[derive(Clone)]
pub struct ValueCensus {
    counts: Vec<u64>,
}

impl Default for ValueCensus {
    fn default() -> ValueCensus {
        ValueCensus {
            counts: vec![0; OPS.len() * WIDTHS.len() * SIDES * CLASSES.len()],
        }
    }
}

fn slot(op: usize, width: usize, side: usize, class: usize) -> usize {
    ((op * WIDTHS.len() + width) * SIDES + side) * CLASSES.len() + class
}

impl OperandObserver for ValueCensus {
    fn operands(&mut self, site: &ObservedSite, a: u64, b: u64) {
        if !site.ty.is_integer() {
            return;
        }
        let bits = site.ty.bits(8);
        let Some(w) = width_index(bits) else {
            return;
        };
        let op = op_index(site.op);
        self.counts[slot(op, w, 0, classify(a, bits))] += 1;
        self.counts[slot(op, w, 1, classify(b, bits))] += 1;
    }
}

impl ValueCensus {
    /// Every non-zero count as `value/OP/iW/SIDE/CLASS -> n`.
    pub fn features(&self, out: &mut BTreeMap<String, u64>) {
        for (o, op) in OPS.iter().enumerate() {
            for (w, width) in WIDTHS.iter().enumerate() {
                for (s, side) in ["a", "b"].iter().enumerate() {
                    for (c, class) in CLASSES.iter().enumerate() {
                        let n = self.counts[slot(o, w, s, c)];
                        if n > 0 {
                            *out.entry(format!("value/{op}/i{width}/{side}/{class}"))
                                .or_default() += n;
                        }
                    }
                }
            }
        }
    }
}

/// One row of the value census table: `op iW`, the operations seen (counted once per
/// execution, from side `a`), and per class the counts of side `a` and side `b`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ValueRow {
    pub op: String,
    pub width: u32,
    pub executions: u64,
    pub per_class: Vec<(u64, u64)>,
}

/// The value census rows (every operation and width, zero rows included) from summed
/// campaign features.
pub fn value_rows(features: &BTreeMap<String, u64>) -> Vec<ValueRow> {
    let mut rows = Vec::new();
    for op in OPS {
        for width in WIDTHS {
            let mut per_class = vec![(0u64, 0u64); CLASSES.len()];
            for (c, class) in CLASSES.iter().enumerate() {
                let get = |side: &str| {
                    features
                        .get(&format!("value/{op}/i{width}/{side}/{class}"))
                        .copied()
                        .unwrap_or(0)
                };
                per_class[c] = (get("a"), get("b"));
            }
            rows.push(ValueRow {
                op: op.to_string(),
                width,
                executions: per_class.iter().map(|p| p.0).sum(),
                per_class,
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(v: i64, bits: u32) -> &'static str {
        CLASSES[classify(v as u64, bits)]
    }

    #[test]
    fn classes_by_hand() {
        assert_eq!(name(0, 8), "0");
        assert_eq!(name(1, 32), "1");
        assert_eq!(name(-1, 16), "-1");
        assert_eq!(name(0xff, 8), "-1");
        assert_eq!(name(-128, 8), "min");
        assert_eq!(name(0x8000_0000, 32), "min");
        assert_eq!(name(i64::MAX, 64), "max");
        assert_eq!(name(-127, 8), "min+1,max-1");
        assert_eq!(name(126, 8), "min+1,max-1");
        // 0x80 in 16 bits is the top bit of an 8-bit width; -0x8000 in 32 bits too.
        assert_eq!(name(0x80, 16), "top of narrower");
        assert_eq!(name(-0x8000, 32), "top of narrower");
        assert_eq!(name(0x7fff, 64), "top of narrower");
        assert_eq!(name(64, 32), "2^k");
        assert_eq!(name(1 << 40, 64), "2^k");
        assert_eq!(name(65, 32), "2^k±1");
        assert_eq!(name(3, 8), "2^k±1");
        assert_eq!(name(-64, 32), "-2^k(±1)");
        assert_eq!(name(-65, 32), "-2^k(±1)");
        assert_eq!(name(-2, 8), "-2^k(±1)");
        // 0x8000_0005 in 32 bits: the sign bit and 5.
        assert_eq!(name(0x8000_0005, 32), "min+small");
        assert_eq!(name(-11, 32), "neg odd");
        assert_eq!(name(12, 32), "small");
        assert_eq!(name(1000, 32), "other");
        assert_eq!(name(-1000, 32), "other");
    }

    #[test]
    fn counts_become_features_and_rows() {
        let mut c = ValueCensus::default();
        let site = ObservedSite {
            op: ObservedOp::Bin(BinOp::SDiv),
            ty: compiler::ir::IrType::I32,
        };
        c.operands(&site, 0x8000_0000, 0xffff_ffff_ffff_ffff);
        c.operands(&site, 7, 2);
        let mut f = BTreeMap::new();
        c.features(&mut f);
        assert_eq!(f.get("value/sdiv/i32/a/min"), Some(&1));
        assert_eq!(f.get("value/sdiv/i32/b/-1"), Some(&1));
        assert_eq!(f.get("value/sdiv/i32/b/2^k"), Some(&1));
        let rows = value_rows(&f);
        assert_eq!(rows.len(), OPS.len() * WIDTHS.len());
        let r = rows
            .iter()
            .find(|r| r.op == "sdiv" && r.width == 32)
            .unwrap();
        assert_eq!(r.executions, 2);
    }
}
