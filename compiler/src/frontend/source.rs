//! Source management: every file the front end reads, by `FileId`, and the `Loc` type
//! that tokens and diagnostics carry.
//!
//! Why it exists: diagnostics must name `file:line:col` and the chain of `#include`s
//! that led to a file, long after the lexer that read it is gone.
//!
//! Invariants:
//! - Every *inclusion* of a file gets its own `FileId` (the text is shared through
//!   `Rc<str>`), so the include chain of a location is simply the chain of
//!   `included_from` links, and it always points to a smaller `FileId` (a file is
//!   registered only after the file that includes it), so walking it terminates.
//! - Lines and columns are 1-based; a column counts characters (Unicode scalar values,
//!   a tab is one character), not bytes.

use std::path::{Path, PathBuf};
use std::rc::Rc;

/// One registered file (one inclusion of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A position in a registered file: 1-based line, 1-based column in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

impl Loc {
    pub fn new(file: FileId, line: u32, col: u32) -> Loc {
        Loc { file, line, col }
    }
}

/// The text of one inclusion of a file and where it was included from.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name diagnostics print: the path as it was found (e.g. `dir/foo.h`), or a
    /// virtual name such as `<built-in>` or `<command-line>`.
    pub name: String,
    /// The path on disk (for virtual files, the virtual name).
    pub path: PathBuf,
    /// The whole text; each byte of the file that was not UTF-8 is one escape
    /// character (`frontend::raw_bytes`), which literals turn back into that byte.
    pub text: Rc<str>,
    /// The location of the `#include` directive that brought this file in.
    pub included_from: Option<Loc>,
}

/// All files read by one front-end run.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Registers one inclusion of a file and returns its id.
    pub fn add(
        &mut self,
        name: String,
        path: &Path,
        text: Rc<str>,
        included_from: Option<Loc>,
    ) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).unwrap_or(u32::MAX));
        self.files.push(SourceFile {
            name,
            path: path.to_path_buf(),
            text,
            included_from,
        });
        id
    }

    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// The display name of a file; `<unknown>` for an id this map never gave out.
    pub fn name(&self, id: FileId) -> &str {
        self.get(id).map_or("<unknown>", |f| f.name.as_str())
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The `#include` directives that led to `file`, innermost first.
    pub fn include_chain(&self, file: FileId) -> Vec<Loc> {
        let mut chain = Vec::new();
        let mut current = file;
        // The link always goes to a smaller id (see the module invariants); stopping
        // when it does not keeps this loop finite even on a corrupted map.
        while let Some(from) = self.get(current).and_then(|f| f.included_from) {
            if from.file >= current {
                break;
            }
            chain.push(from);
            current = from.file;
        }
        chain
    }

    /// The text of line `line` (1-based) of `file`, without its line terminator.
    pub fn line_text(&self, file: FileId, line: u32) -> Option<&str> {
        let text = &self.get(file)?.text;
        let index = usize::try_from(line).ok()?.checked_sub(1)?;
        text.split('\n')
            .nth(index)
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_chain_and_lines() {
        let mut map = SourceMap::new();
        let main = map.add("a.c".into(), Path::new("a.c"), Rc::from("x\r\ny\n"), None);
        let header = map.add(
            "b.h".into(),
            Path::new("b.h"),
            Rc::from(""),
            Some(Loc::new(main, 2, 1)),
        );
        let inner = map.add(
            "c.h".into(),
            Path::new("c.h"),
            Rc::from(""),
            Some(Loc::new(header, 7, 3)),
        );
        assert_eq!(
            map.include_chain(inner),
            [Loc::new(header, 7, 3), Loc::new(main, 2, 1)]
        );
        assert!(map.include_chain(main).is_empty());
        assert_eq!(map.line_text(main, 1), Some("x"));
        assert_eq!(map.line_text(main, 2), Some("y"));
        assert_eq!(map.line_text(main, 0), None);
        assert_eq!(map.name(FileId(99)), "<unknown>");
    }
}
