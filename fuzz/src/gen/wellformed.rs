//! The structural promises of a generated program, checked.
//!
//! Why: the verifier checks the IR's rules; this checks what the generators promise on
//! top of them, so tests and fuzz targets can assert it on any input: block ids unique
//! across the module, every value defined once and every used value defined, branch
//! targets present, and argument vectors that fit the entry function.
//!
//! Invariants: never panics; reports the first broken promise as text.

use super::GeneratedProgram;
use compiler::ir::{BlockId, Inst, Value};
use rustc_hash::FxHashSet;

/// `Ok` when `p` keeps every structural promise; otherwise the first one broken.
pub fn check_wellformed(p: &GeneratedProgram) -> Result<(), String> {
    let m = &p.module;
    let mut blocks: FxHashSet<BlockId> = FxHashSet::default();
    for f in &m.functions {
        if f.blocks.is_empty() {
            return Err(format!("@{} has no blocks", f.name));
        }
        for b in &f.blocks {
            if !blocks.insert(b.label) {
                return Err(format!("block {} defined twice in the module", b.label));
            }
        }
    }
    for f in &m.functions {
        let labels: FxHashSet<BlockId> = f.blocks.iter().map(|b| b.label).collect();
        let mut defined: FxHashSet<Value> = FxHashSet::default();
        for b in &f.blocks {
            for i in &b.insts {
                if let Some(d) = i.dest() {
                    if !defined.insert(d) {
                        return Err(format!("@{}: {d} defined twice", f.name));
                    }
                }
            }
        }
        for b in &f.blocks {
            let mut undefined = None;
            for i in &b.insts {
                i.for_each_used_value(|v| {
                    if !defined.contains(&v) {
                        undefined = Some(v);
                    }
                });
                if let Inst::Phi { incoming, .. } = i {
                    if let Some((_, l)) = incoming.iter().find(|(_, l)| !labels.contains(l)) {
                        return Err(format!(
                            "@{} {}: phi names missing block {l}",
                            f.name, b.label
                        ));
                    }
                }
            }
            b.term.for_each_used_value(|v| {
                if !defined.contains(&v) {
                    undefined = Some(v);
                }
            });
            if let Some(v) = undefined {
                return Err(format!(
                    "@{} {}: {v} used but never defined",
                    f.name, b.label
                ));
            }
            let mut missing = None;
            b.term.for_each_successor(|t| {
                if !labels.contains(&t) {
                    missing = Some(t);
                }
            });
            if let Some(t) = missing {
                return Err(format!(
                    "@{} {}: branch to missing block {t}",
                    f.name, b.label
                ));
            }
        }
    }
    let Some(entry) = m.function(&p.entry) else {
        return Err(format!("no entry function @{}", p.entry));
    };
    if p.arg_vectors.is_empty() {
        return Err("no argument vectors".into());
    }
    for args in &p.arg_vectors {
        if args.len() != entry.params.len() {
            return Err(format!(
                "argument vector {args:?} does not fit @{}",
                entry.name
            ));
        }
        for (&v, &ty) in args.iter().zip(&entry.params) {
            if ty.canonicalize(v as u64, 8) as i64 != v {
                return Err(format!("argument {v} is not canonical for {ty}"));
            }
        }
    }
    Ok(())
}
