//! The float generators (`cfg-float`, `phi-float`): their programs verify, round-trip
//! through text, contain float slots, phis and every float operation, agree at every stage
//! of the real pipeline (no false positive), expose the three seeded float bugs, and
//! leave the integer generators' programs untouched.

use compiler::ir::text::{parse_module, print_module};
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::ir::{Inst, IrType};
use compiler::mutants::{set_active, Mutant};
use phihunt::diff::{differential, DiffConfig, Verdict};
use phihunt::gen::{generate_from_seed, GenKind};
use std::collections::BTreeSet;

const FLOAT_KINDS: [GenKind; 2] = [GenKind::CfgFloat, GenKind::PhiFloat];
const SEEDS: u64 = 150;

#[test]
fn float_programs_verify_round_trip_and_contain_floats() {
    for kind in FLOAT_KINDS {
        let mut ops = BTreeSet::new();
        let mut float_phis = 0;
        for seed in 0..SEEDS {
            let p = generate_from_seed(kind, seed);
            if let Err(errs) = verify_module(&p.module, VerifyMode::Ssa) {
                panic!(
                    "{kind} seed {seed}: {}\n{}",
                    errs[0],
                    print_module(&p.module)
                );
            }
            let text = print_module(&p.module);
            assert_eq!(
                parse_module(&text).as_ref(),
                Ok(&p.module),
                "{kind} seed {seed}"
            );
            for f in &p.module.functions {
                for b in &f.blocks {
                    for i in &b.insts {
                        match i {
                            Inst::FBin { op, .. } => {
                                ops.insert(op.name().to_string());
                            }
                            Inst::FNeg { .. } => {
                                ops.insert("fneg".into());
                            }
                            Inst::FCmp { .. } => {
                                ops.insert("fcmp".into());
                            }
                            Inst::Bitcast { .. } => {
                                ops.insert("bitcast".into());
                            }
                            Inst::Cast { from, to, .. } if from.is_float() || to.is_float() => {
                                ops.insert(format!("cast {from} {to}"));
                            }
                            Inst::Phi { ty, .. } if ty.is_float() => float_phis += 1,
                            Inst::Alloca { ty, .. } if ty.is_float() => {
                                ops.insert("float slot".into());
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        for want in ["fadd", "fsub", "fmul", "fdiv", "fneg", "fcmp", "bitcast"] {
            assert!(
                ops.contains(want),
                "{kind}: no {want} in {SEEDS} programs: {ops:?}"
            );
        }
        for (from, to) in [(IrType::F64, IrType::F32), (IrType::F32, IrType::F64)] {
            assert!(
                ops.contains(&format!("cast {from} {to}")),
                "{kind}: {ops:?}"
            );
        }
        match kind {
            GenKind::CfgFloat => assert!(ops.contains("float slot"), "{ops:?}"),
            _ => assert!(float_phis > 100, "{kind}: {float_phis} float phis"),
        }
    }
}

#[test]
fn float_programs_agree_at_every_stage() {
    for kind in FLOAT_KINDS {
        let mut agreed = 0;
        for seed in 0..SEEDS {
            let p = generate_from_seed(kind, seed);
            match differential(&p.module, &p.entry, &p.arg_vectors, &DiffConfig::default()) {
                Verdict::Agree { .. } => agreed += 1,
                Verdict::Discarded { reason, .. } => eprintln!("{kind} seed {seed}: {reason}"),
                Verdict::Finding(f) => panic!(
                    "{kind} seed {seed}: {:?}: {}\n{}",
                    f.signature,
                    f.detail,
                    print_module(&p.module)
                ),
            }
        }
        assert!(
            agreed as u64 >= SEEDS * 99 / 100,
            "{kind}: {agreed} of {SEEDS} valid"
        );
    }
}

/// The first seed below `limit` whose program of `kind` exposes mutant `m`.
fn first_catch(kind: GenKind, m: Mutant, limit: u64) -> Option<u64> {
    (0..limit).find(|&seed| {
        let p = generate_from_seed(kind, seed);
        set_active(&[m]);
        let verdict = differential(&p.module, &p.entry, &p.arg_vectors, &DiffConfig::default());
        set_active(&[]);
        matches!(verdict, Verdict::Finding(_))
    })
}

#[test]
fn float_programs_expose_the_seeded_float_bugs() {
    for kind in FLOAT_KINDS {
        for m in [
            Mutant::ConstFoldF32Truncated,
            Mutant::ConstFoldFcmpOrdered,
            Mutant::ConstFoldFptruncTruncates,
        ] {
            let seed = first_catch(kind, m, 1500);
            eprintln!("{kind} catches {m} first at seed {seed:?}");
            assert!(seed.is_some(), "{kind}: no program of 1500 exposes {m}");
        }
    }
}

#[test]
fn integer_generators_make_no_floats() {
    for kind in GenKind::ALL {
        for seed in 0..50 {
            let text = print_module(&generate_from_seed(kind, seed).module);
            assert!(
                !text.contains("f32") && !text.contains("f64"),
                "{kind} seed {seed}"
            );
        }
    }
}
