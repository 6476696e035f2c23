//! The project's IR corpus (`corpus/ir/*.ir`, text form): every file must verify as SSA
//! input, and its phi elimination must verify, replay and keep its phis' meaning.

use super::build::{assert_verifies, with_mutant};
use crate::ir::text::parse_module;
use crate::ir::verify::VerifyMode;
use crate::ir::IrModule;
use crate::mem2reg::phi_eliminate::eliminate_phis;
use crate::mem2reg::phi_eliminate::replay::check_module;
use crate::mutants::Mutant;
use std::path::Path;

/// Every `corpus/ir/*.ir` file meant to run (it has a `; run:` line, so it must be a valid
/// program), parsed, with its file name; empty if there is no corpus.
fn corpus() -> Vec<(String, IrModule)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/ir");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let name = path.display().to_string();
            let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
            if !src.lines().any(|l| l.trim_start().starts_with("; run:")) {
                return None;
            }
            let m = parse_module(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
            Some((name, m))
        })
        .collect()
}

#[test]
fn corpus_files_verify_and_their_phis_are_eliminated_correctly() {
    let files = corpus();
    let mut phis = 0;
    for (name, before) in &files {
        assert_verifies(before, VerifyMode::Ssa);
        let mut after = before.clone();
        phis += eliminate_phis(&mut after);
        assert_verifies(&after, VerifyMode::PostPhiElim);
        check_module(before, &after).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    assert!(
        files.is_empty() || phis > 0,
        "the corpus has phis to eliminate"
    );
}

#[test]
fn corpus_catches_every_phi_elimination_mutant() {
    let files = corpus();
    if files.is_empty() {
        return;
    }
    for mutant in [
        Mutant::PhiElimNoTemporaries,
        Mutant::PhiElimNoTrampoline,
        Mutant::PhiElimRepeatedTargetOnce,
    ] {
        let caught: Vec<&str> = files
            .iter()
            .filter(|(_, before)| {
                let mut after = before.clone();
                with_mutant(mutant, || eliminate_phis(&mut after));
                assert_verifies(&after, VerifyMode::PostPhiElim);
                check_module(before, &after).is_err()
            })
            .map(|(name, _)| name.as_str())
            .collect();
        assert!(!caught.is_empty(), "{mutant}: no corpus file catches it");
    }
}
