//! Random differential test of `const_fold`, `simplify`, `gvn` and `licm`: generated SSA
//! functions (straight-line code, and a counted loop whose body guards a division) are run
//! in the oracle before and after each pass, alone and chained, on boundary arguments
//! (including a loop count of zero). Every outcome — value, trap — must agree; inputs whose
//! reference run is undefined are skipped. The generator leans on the patterns the passes
//! look for: constants (0, 1, -1, powers of two, wide `:i64` literals), repeated operands,
//! repeated expressions, loop-invariant operands.

use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::text::{parse_module, print_module};
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::ir::{BinOp, CmpPred, IrConst, IrModule, IrType, UnOp};
use compiler::mutants::{self, Mutant};
use compiler::passes;
use oracle::{Program, RunConfig};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const TYPES: [IrType; 7] = [
    IrType::I8,
    IrType::U8,
    IrType::I16,
    IrType::I32,
    IrType::U32,
    IrType::I64,
    IrType::U64,
];

const INTERESTING: [i64; 16] = [0, 1, -1, 2, 3, 4, 8, 7, 16, 31, 32, 63, 127, -128, 255, 256];

/// Builds one function's text, tracking which values are available (in scope).
struct Gen {
    rng: Rng,
    lines: Vec<String>,
    /// Values available here, with their types.
    scope: Vec<(u32, IrType)>,
    /// Earlier right-hand sides (for repeated expressions), with their result types.
    exprs: Vec<(String, IrType)>,
    /// Initialized stack slots that loads and stores may use, with their types.
    slots: Vec<(u32, IrType)>,
    next_value: u32,
}

impl Gen {
    fn fresh(&mut self) -> u32 {
        self.next_value += 1;
        self.next_value - 1
    }

    fn emit(&mut self, line: String) {
        self.lines.push(format!("    {line}"));
    }

    fn constant(&mut self, ty: IrType) -> String {
        let v = if self.rng.chance(70) {
            self.rng.pick(&INTERESTING)
        } else {
            self.rng.next() as i64
        };
        if self.rng.chance(20) {
            // A wide literal of another type: read at the position type.
            format!(
                "{}:i64",
                v.wrapping_add(if self.rng.chance(50) { 1 << 40 } else { 0 })
            )
        } else {
            IrConst::new(ty, v).to_string()
        }
    }

    fn value_of(&mut self, ty: IrType) -> Option<u32> {
        let candidates: Vec<u32> = self
            .scope
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(v, _)| *v)
            .collect();
        (!candidates.is_empty()).then(|| self.rng.pick(&candidates))
    }

    fn operand(&mut self, ty: IrType, constant_percent: u64) -> String {
        if !self.rng.chance(constant_percent) {
            if let Some(v) = self.value_of(ty) {
                return format!("%{v}");
            }
        }
        self.constant(ty)
    }

    fn any_type_with_value(&mut self) -> IrType {
        let (_, ty) = self.scope[self.rng.below(self.scope.len())];
        ty
    }

    /// One random pure instruction; its value joins the scope.
    fn inst(&mut self) {
        let ty = if self.rng.chance(80) {
            self.any_type_with_value()
        } else {
            self.rng.pick(&TYPES)
        };
        if !self.slots.is_empty() && self.rng.chance(20) {
            self.memory_access();
            return;
        }
        let (rhs, result_ty) = match self.rng.below(100) {
            0..=44 => {
                let op = self.rng.pick(&BinOp::ALL);
                let a = self.operand(ty, 15);
                let b = if self.rng.chance(10) {
                    a.clone()
                } else if op.is_shift() && self.rng.chance(80) {
                    let width = ty.bits(8) as usize;
                    (self.rng.below(width + 2)).to_string()
                } else if op.can_trap() {
                    self.operand(ty, 60)
                } else {
                    self.operand(ty, 40)
                };
                let (a, b) = if self.rng.chance(15) { (b, a) } else { (a, b) };
                (format!("{op} {ty} {a}, {b}"), ty)
            }
            45..=54 => {
                let op = self.rng.pick(&UnOp::ALL);
                let a = self.operand(ty, 10);
                (format!("{op} {ty} {a}"), ty)
            }
            55..=66 => {
                let pred = self.rng.pick(&CmpPred::ALL);
                let a = self.operand(ty, 20);
                let b = if self.rng.chance(10) {
                    a.clone()
                } else {
                    self.operand(ty, 40)
                };
                (format!("cmp {pred} {ty} {a}, {b}"), IrType::I8)
            }
            67..=78 => {
                let to = self.rng.pick(&TYPES);
                let a = self.operand(ty, 10);
                (format!("cast {ty} {a} to {to}"), to)
            }
            79..=86 => {
                let cond_ty = self.any_type_with_value();
                let c = self.operand(cond_ty, 20);
                let c = if c.starts_with('%') {
                    c
                } else {
                    self.constant(IrType::I8)
                };
                let a = self.operand(ty, 30);
                let b = if self.rng.chance(15) {
                    a.clone()
                } else {
                    self.operand(ty, 30)
                };
                (format!("select {ty} {c}, {a}, {b}"), ty)
            }
            _ => {
                if self.exprs.is_empty() {
                    return;
                }
                let (rhs, t) = self.exprs[self.rng.below(self.exprs.len())].clone();
                (rhs, t)
            }
        };
        let d = self.fresh();
        self.emit(format!("%{d} = {rhs}"));
        self.scope.push((d, result_ty));
        self.exprs.push((rhs, result_ty));
    }

    /// A load from or a store to one of the slots.
    fn memory_access(&mut self) {
        let (slot, ty) = self.slots[self.rng.below(self.slots.len())];
        if self.rng.chance(55) {
            let rhs = format!("load {ty} %{slot}");
            let d = self.fresh();
            self.emit(format!("%{d} = {rhs}"));
            self.scope.push((d, ty));
            self.exprs.push((rhs, ty));
        } else {
            let v = self.operand(ty, 30);
            self.emit(format!("store {ty} {v}, %{slot}"));
        }
    }

    /// `%acc2 = acc * 31 + (i64) v` for a few values in scope; returns the new value.
    fn fold_into(&mut self, acc: u32, count: usize) -> u32 {
        let mut acc = acc;
        for _ in 0..count {
            let (v, ty) = self.scope[self.rng.below(self.scope.len())];
            let c = self.fresh();
            self.emit(format!("%{c} = cast {ty} %{v} to i64"));
            let m = self.fresh();
            self.emit(format!("%{m} = mul i64 %{acc}, 31"));
            let s = self.fresh();
            self.emit(format!("%{s} = add i64 %{m}, %{c}"));
            acc = s;
        }
        acc
    }
}

fn new_gen(seed: u64) -> Gen {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        lines: Vec::new(),
        scope: vec![(0, IrType::I32), (1, IrType::I64), (2, IrType::U8)],
        exprs: Vec::new(),
        slots: Vec::new(),
        next_value: 3,
    };
    g.emit("%0 = paramref 0, i32".into());
    g.emit("%1 = paramref 1, i64".into());
    g.emit("%2 = paramref 2, u8".into());
    g
}

/// `@s(i32, i64, u8) -> i64`: straight-line code with two stack slots.
fn straight_line(seed: u64) -> String {
    let mut g = new_gen(seed);
    for (ty, param) in [(IrType::I32, 0), (IrType::I64, 1)] {
        let slot = g.fresh();
        let size = ty.size(8);
        g.emit(format!("%{slot} = alloca {ty}, {size}, {size}"));
        g.emit(format!("store {ty} %{param}, %{slot}"));
        g.slots.push((slot, ty));
    }
    let n = 8 + g.rng.below(25);
    for _ in 0..n {
        g.inst();
    }
    let zero = g.fresh();
    g.emit(format!("%{zero} = copy i64 0"));
    let acc = g.fold_into(zero, 4);
    format!(
        "func @s(i32, i64, u8) -> i64 {{\n.LBB0:\n{}\n    ret i64 %{acc}\n}}\n",
        g.lines.join("\n")
    )
}

/// `@l(i32, i64, u8) -> i64` (blocks .LBB10 to .LBB15): `for (i = 0; i < (c & 7); i++) { A; if (d != 0) q = x / d;
/// B; acc = acc * 31 + ... }` with random A, B and invariant-heavy operands.
fn counted_loop(seed: u64) -> String {
    let mut g = new_gen(seed);
    for _ in 0..g.rng.below(6) {
        g.inst();
    }
    let wide = g.fresh();
    g.emit(format!("%{wide} = cast u8 %2 to i32"));
    let count = g.fresh();
    g.emit(format!("%{count} = and i32 %{wide}, 7"));
    let entry = std::mem::take(&mut g.lines);
    let entry_scope = g.scope.clone();

    let (i, acc, cond) = (g.fresh(), g.fresh(), g.fresh());
    let (i_next, acc_next) = (g.fresh(), g.fresh());
    let header = [
        format!("    %{i} = phi i32 [0, .LBB10], [%{i_next}, .LBB15]"),
        format!("    %{acc} = phi i64 [0, .LBB10], [%{acc_next}, .LBB15]"),
        format!("    %{cond} = cmp slt i32 %{i}, %{count}"),
        format!("    condbr %{cond}, .LBB12, .LBB13"),
    ];
    g.scope.push((i, IrType::I32));
    g.scope.push((acc, IrType::I64));
    for _ in 0..3 + g.rng.below(10) {
        g.inst();
    }
    // The guarded division: divisor and dividend of one type, often loop-invariant.
    let div_ty = g.rng.pick(&TYPES);
    let d = match g.value_of(div_ty) {
        Some(v) => format!("%{v}"),
        None => {
            let v = g.fresh();
            let src = g.rng.pick(&[0u32, 1, 2]);
            let src_ty = [IrType::I32, IrType::I64, IrType::U8][src as usize];
            g.emit(format!("%{v} = cast {src_ty} %{src} to {div_ty}"));
            g.scope.push((v, div_ty));
            format!("%{v}")
        }
    };
    let x = g.operand(div_ty, 20);
    let guard = g.fresh();
    g.emit(format!("%{guard} = cmp ne {div_ty} {d}, 0"));
    g.emit(format!("condbr %{guard}, .LBB14, .LBB15"));
    let body_a = std::mem::take(&mut g.lines);
    let op = g
        .rng
        .pick(&[BinOp::SDiv, BinOp::UDiv, BinOp::SRem, BinOp::URem]);
    let q = g.fresh();
    let guarded = format!("    %{q} = {op} {div_ty} {x}, {d}");
    let r = g.fresh();
    g.emit(format!("%{r} = phi {div_ty} [0, .LBB12], [%{q}, .LBB14]"));
    g.scope.push((r, div_ty));
    for _ in 0..g.rng.below(6) {
        g.inst();
    }
    let mixed = g.fold_into(acc, 2);
    g.emit(format!("%{acc_next} = copy i64 %{mixed}"));
    g.emit(format!("%{i_next} = add i32 %{i}, 1"));
    let body_b = std::mem::take(&mut g.lines);

    // The exit sees the entry's values and the header's phis only.
    g.scope = entry_scope;
    g.scope.push((acc, IrType::I64));
    let result = g.fold_into(acc, 2);
    let exit = std::mem::take(&mut g.lines);
    format!(
        "func @l(i32, i64, u8) -> i64 {{\n.LBB10:\n{}\n    br .LBB11\n.LBB11:\n{}\n.LBB12:\n{}\n\
         .LBB14:\n{guarded}\n    br .LBB15\n.LBB15:\n{}\n    br .LBB11\n.LBB13:\n{}\n    ret i64 %{result}\n}}\n",
        entry.join("\n"),
        header.join("\n"),
        body_a.join("\n"),
        body_b.join("\n"),
        exit.join("\n"),
    )
}

/// The pass configurations compared with the unoptimized function.
const CONFIGS: [&[&str]; 5] = [
    &["const_fold"],
    &["simplify"],
    &["gvn"],
    &["licm"],
    &[
        "const_fold",
        "simplify",
        "gvn",
        "licm",
        "const_fold",
        "simplify",
        "gvn",
        "licm",
    ],
];

/// Runs the named passes in order on every function; returns changes per pass name.
fn apply(module: &mut IrModule, names: &[&str], changes: &mut [usize; 4]) {
    for name in names {
        for f in &mut module.functions {
            let (slot, n) = match *name {
                "const_fold" => (0, passes::const_fold::run(f)),
                "simplify" => (1, passes::simplify::run(f)),
                "gvn" => (2, passes::gvn::run(f, &CfgAnalysis::build(f))),
                _ => (3, passes::licm::run(f, &CfgAnalysis::build(f))),
            };
            changes[slot] += n;
        }
    }
}

const ARGS: [[i64; 3]; 8] = [
    [0, 0, 0],
    [1, 1, 1],
    [-1, -1, 3],
    [7, -7, 5],
    [i32::MIN as i64, i64::MIN, 7],
    [i32::MAX as i64, i64::MAX, 255],
    [3, 1 << 40, 2],
    [-128, 255, 6],
];

/// What one differential run over many generated modules saw.
#[derive(Debug, Default)]
struct Tally {
    compared: usize,
    skipped: usize,
    /// The first disagreement, described.
    disagreement: Option<String>,
    disagreements: usize,
    changes: [usize; 4],
}

/// Generates a module per seed, applies each configuration, compares every outcome.
fn differential(seeds: std::ops::RangeInclusive<u64>, configs: &[&[&str]]) -> Tally {
    let cfg = RunConfig {
        fuel: 100_000,
        ..RunConfig::default()
    };
    let mut tally = Tally::default();
    for seed in seeds {
        let text = format!("{}\n{}", straight_line(seed), counted_loop(seed));
        let module = parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        if let Err(e) = verify_module(&module, VerifyMode::Ssa) {
            panic!("generator made invalid IR: {e:?}\n{text}");
        }
        let reference = Program::new(&module, &cfg).expect("reference compiles");
        for config in configs {
            let mut optimized = module.clone();
            apply(&mut optimized, config, &mut tally.changes);
            if let Err(e) = verify_module(&optimized, VerifyMode::Ssa) {
                panic!(
                    "{config:?} broke the verifier: {e:?}\nbefore:\n{text}\nafter:\n{}",
                    print_module(&optimized)
                );
            }
            let program = Program::new(&optimized, &cfg).expect("optimized compiles");
            for func in ["s", "l"] {
                for args in &ARGS {
                    let want = reference.run(func, args).unwrap();
                    if want.outcome.is_invalid_reference() {
                        tally.skipped += 1;
                        continue;
                    }
                    tally.compared += 1;
                    let got = program.run(func, args).unwrap();
                    if !got.agrees_with(&want) {
                        tally.disagreements += 1;
                        tally.disagreement.get_or_insert_with(|| {
                            format!(
                                "{config:?} changed @{func}{args:?}: {} became {}\n\
                                 before:\n{text}\nafter:\n{}",
                                want.outcome,
                                got.outcome,
                                print_module(&optimized)
                            )
                        });
                    }
                }
            }
        }
    }
    tally
}

#[test]
fn passes_preserve_outcomes_on_random_functions() {
    let tally = differential(1..=250, &CONFIGS);
    println!(
        "compared {}, skipped {}, changes {:?}",
        tally.compared, tally.skipped, tally.changes
    );
    if let Some(d) = &tally.disagreement {
        panic!("{} disagreements; the first:\n{d}", tally.disagreements);
    }
    assert!(
        tally.compared > tally.skipped,
        "too many undefined references"
    );
    for (pass, n) in ["const_fold", "simplify", "gvn", "licm"]
        .iter()
        .zip(tally.changes)
    {
        assert!(
            n > 100,
            "{pass} changed too little ({n}): the generator misses it"
        );
    }
}

#[test]
fn every_mutant_of_these_passes_is_caught() {
    for (mutant, pass) in [
        (Mutant::ConstFoldUdivSigned, "const_fold"),
        (Mutant::SimplifyAshrAsLshr, "simplify"),
        (Mutant::GvnLoadAcrossStore, "gvn"),
        (Mutant::LicmHoistGuardedDiv, "licm"),
    ] {
        mutants::set_active(&[mutant]);
        let tally = std::panic::catch_unwind(|| differential(1..=120, &[&[pass]]));
        mutants::set_active(&[]);
        let tally = tally.expect("the differential runs");
        println!("{mutant}: {} disagreements", tally.disagreements);
        assert!(tally.disagreements > 0, "{mutant} went unnoticed");
    }
}
