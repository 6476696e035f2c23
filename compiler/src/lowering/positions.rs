//! Where each instruction of the `lowered` stage came from in the C source.
//!
//! Why: the oracle reports undefined behaviour at an IR position (`@main .LBB3 inst 4`);
//! a person (and the C reducer's log) wants `file.c:12:7`. The lowering records the
//! position of the innermost statement or expression being lowered for every instruction
//! it emits (`Builder::set_position`); this table maps the IR position back.
//!
//! Invariant: the table describes the module exactly as `lower_with_positions` returned
//! it; any later change to the module (a pass) invalidates it, so it is only used on the
//! `lowered` stage (the UB judge's checked lowering above all).

use super::builder::BlockPositions;
use crate::frontend::{Loc, SourceMap};
use crate::ir::BlockId;
use std::collections::HashMap;

/// The C position of every instruction of a lowered module.
#[derive(Clone, Debug, Default)]
pub struct SourcePositions {
    /// File names by `FileId`.
    files: Vec<String>,
    functions: HashMap<String, BlockPositions>,
}

impl SourcePositions {
    pub(crate) fn new(sources: &SourceMap) -> SourcePositions {
        let files = (0..sources.len())
            .map(|i| sources.name(crate::frontend::FileId(i as u32)).to_string())
            .collect();
        SourcePositions {
            files,
            functions: HashMap::new(),
        }
    }

    pub(crate) fn add_function(&mut self, name: &str, blocks: BlockPositions) {
        self.functions.insert(name.to_string(), blocks);
    }

    /// Inserts `count` copies of `at` before instruction `index` of `function`'s entry
    /// block (instructions the lowering added after the fact).
    pub(crate) fn insert_in_entry(&mut self, function: &str, index: usize, count: usize, at: Loc) {
        if let Some((_, locs)) = self.functions.get_mut(function).and_then(|b| b.first_mut()) {
            let index = index.min(locs.len());
            locs.splice(index..index, std::iter::repeat_n(at, count));
        }
    }

    /// The position of instruction `inst` of block `block` in `function` (`None`: the
    /// terminator, which takes its block's last instruction's position).
    pub fn loc(&self, function: &str, block: BlockId, inst: Option<usize>) -> Option<Loc> {
        let blocks = self.functions.get(function)?;
        let (_, locs) = blocks.iter().find(|(label, _)| *label == block)?;
        match inst {
            Some(i) => locs.get(i).copied(),
            None => locs.last().copied(),
        }
    }

    /// `file:line:col` of that instruction.
    pub fn describe(&self, function: &str, block: BlockId, inst: Option<usize>) -> Option<String> {
        let loc = self.loc(function, block, inst)?;
        let file = self.files.get(loc.file.0 as usize)?;
        Some(format!("{file}:{}:{}", loc.line, loc.col))
    }
}
