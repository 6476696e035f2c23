//! Include resolution: where `#include "x"` and `#include <x>` find their file, the
//! cache of file texts, `#pragma once`, and the include-guard optimisation.
//!
//! Why it exists: the search order is the one user-visible policy of `#include`, and
//! re-reading or re-lexing a guarded header on every inclusion is wasted work.
//!
//! Invariants:
//! - Search order: `"x"` looks in the directory of the including file, then in the
//!   `-I` directories, then in the system directories; `<x>` skips the first step.
//!   `#include_next` continues after the directory the current file was found in.
//!   An absolute name is used as is.
//! - A file is identified by its canonical path (falling back to the path when it
//!   cannot be canonicalised), so `#pragma once` and guards see through `./` and
//!   symlinks.
//! - A guard macro is recorded only for a file whose every token lies inside one
//!   `#ifndef X` ... `#endif` (see `GuardTracker`); it is skipped later only while `X`
//!   is defined, which is exactly when its inclusion would produce nothing.

use crate::frontend::intern::Sym;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The deepest `#include` nesting accepted (gcc's default).
pub(super) const MAX_INCLUDE_DEPTH: usize = 200;

/// A file found by the search.
#[derive(Clone, Debug)]
pub(super) struct Found {
    /// The path as built from the search directory (what diagnostics print).
    pub path: PathBuf,
    /// Index in the combined `-I` + system list of the directory it was found in.
    pub search_index: Option<usize>,
}

/// The combined search list: `-I` directories, then system directories.
pub(super) fn search(
    name: &str,
    quoted: bool,
    current_dir: Option<&Path>,
    search_dirs: &[PathBuf],
    start_after: Option<usize>,
) -> Option<Found> {
    let as_path = Path::new(name);
    if as_path.is_absolute() {
        return as_path.is_file().then(|| Found {
            path: as_path.to_path_buf(),
            search_index: None,
        });
    }
    if quoted && start_after.is_none() {
        let candidate = match current_dir {
            Some(dir) => dir.join(name),
            None => as_path.to_path_buf(),
        };
        if candidate.is_file() {
            return Some(Found {
                path: candidate,
                search_index: None,
            });
        }
    }
    let first = start_after.map_or(0, |i| i + 1);
    for (index, dir) in search_dirs.iter().enumerate().skip(first) {
        let candidate = dir.join(name);
        if super::embedded::own_header(&candidate).is_some() || candidate.is_file() {
            return Some(Found {
                path: candidate,
                search_index: Some(index),
            });
        }
    }
    None
}

/// The identity of a file for `#pragma once` and guards.
pub(super) fn file_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Reads a file as text (one of phicc's own headers from the binary, `embedded.rs`);
/// bytes that are not UTF-8 become escape characters
/// (`frontend::raw_bytes`, documented in `SourceFile::text`).
pub(super) fn read_text(path: &Path) -> std::io::Result<Rc<str>> {
    if let Some(text) = super::embedded::own_header(path) {
        return Ok(Rc::from(text));
    }
    let bytes = std::fs::read(path)?;
    Ok(Rc::from(crate::frontend::raw_bytes::decode_source(bytes)))
}

/// Texts read so far and what the preprocessor learned about each file.
#[derive(Debug, Default)]
pub(super) struct IncludeCache {
    texts: FxHashMap<PathBuf, Rc<str>>,
    pub once: FxHashSet<PathBuf>,
    pub guards: FxHashMap<PathBuf, Sym>,
}

impl IncludeCache {
    pub fn text(&mut self, key: &Path, path: &Path) -> std::io::Result<Rc<str>> {
        if let Some(text) = self.texts.get(key) {
            return Ok(text.clone());
        }
        let text = read_text(path)?;
        self.texts.insert(key.to_path_buf(), text.clone());
        Ok(text)
    }
}

/// Whether a file so far is one `#ifndef X` ... `#endif` block with nothing outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GuardTracker {
    /// Nothing but whitespace and comments yet.
    Start,
    /// Inside `#ifndef X` opened at conditional depth 1.
    Inside(Sym),
    /// The `#endif` closing the guard was seen, nothing after it yet.
    Closed(Sym),
    /// Not a guarded file.
    No,
}

impl GuardTracker {
    /// A token outside any directive, in a group that is not skipped.
    pub fn token(&mut self) {
        if matches!(self, GuardTracker::Start | GuardTracker::Closed(_)) {
            *self = GuardTracker::No;
        }
    }

    /// A directive line; `depth_before` is the conditional depth before it,
    /// `ifndef` the macro if it is an `#ifndef`.
    pub fn directive(&mut self, name: Sym, depth_before: usize, ifndef: Option<Sym>) {
        use crate::frontend::intern::wk;
        *self = match *self {
            GuardTracker::Start => match ifndef {
                Some(m) if depth_before == 0 => GuardTracker::Inside(m),
                _ => GuardTracker::No,
            },
            GuardTracker::Inside(m) if depth_before == 1 => {
                if name == wk::ENDIF {
                    GuardTracker::Closed(m)
                } else if name == wk::ELSE || name == wk::ELIF {
                    GuardTracker::No
                } else {
                    GuardTracker::Inside(m)
                }
            }
            GuardTracker::Closed(_) => GuardTracker::No,
            other => other,
        };
    }
}
