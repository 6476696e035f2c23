//! Diagnostics of the C front end: errors, warnings and their notes.
//!
//! Why it exists: every layer of the front end reports problems the same way, and the
//! caller (the driver, a test) prints them without access to the source map.
//!
//! Invariants:
//! - A `Diagnostic` is self-contained: file names and the include chain are resolved
//!   when it is built, so it can outlive the `SourceMap`.
//! - The headline is exactly `file:line:col: error: message` (or `warning`, `note`);
//!   `Display` prints gcc's `In file included from` lines before it and the notes after
//!   it, one per line, with no trailing newline.

use super::source::{Loc, SourceMap};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A resolved location: file name, 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl Place {
    pub fn resolve(sources: &SourceMap, loc: Loc) -> Place {
        Place {
            file: sources.name(loc.file).to_string(),
            line: loc.line,
            col: loc.col,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// A note attached to a diagnostic (e.g. "previous definition is here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub place: Option<Place>,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Where the problem is; `None` for problems with no source position (e.g. the
    /// main file cannot be read).
    pub place: Option<Place>,
    pub message: String,
    /// The `#include` directives that led to `place`, innermost first.
    pub included_from: Vec<Place>,
    pub notes: Vec<Note>,
}

impl Diagnostic {
    pub fn at(sources: &SourceMap, loc: Loc, severity: Severity, message: String) -> Diagnostic {
        Diagnostic {
            severity,
            place: Some(Place::resolve(sources, loc)),
            message,
            included_from: sources
                .include_chain(loc.file)
                .into_iter()
                .map(|l| Place::resolve(sources, l))
                .collect(),
            notes: Vec::new(),
        }
    }

    pub fn error(sources: &SourceMap, loc: Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic::at(sources, loc, Severity::Error, message.into())
    }

    pub fn warning(sources: &SourceMap, loc: Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic::at(sources, loc, Severity::Warning, message.into())
    }

    /// An error with no source position, printed as `phicc: error: message`.
    pub fn global_error(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            place: None,
            message: message.into(),
            included_from: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn with_note(mut self, sources: &SourceMap, loc: Loc, message: impl Into<String>) -> Self {
        self.notes.push(Note {
            place: Some(Place::resolve(sources, loc)),
            message: message.into(),
        });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: severity: message`, the first line gcc would print.
    pub fn headline(&self) -> String {
        match &self.place {
            Some(place) => format!("{place}: {}: {}", self.severity.as_str(), self.message),
            None => format!("phicc: {}: {}", self.severity.as_str(), self.message),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // gcc lists the outermost inclusion last: "In file included from b.h:2,\n
        // from a.c:1:" reads from the innermost includer outwards.
        for (i, place) in self.included_from.iter().enumerate() {
            let lead = if i == 0 {
                "In file included from"
            } else {
                "                 from"
            };
            let end = if i + 1 == self.included_from.len() {
                ":"
            } else {
                ","
            };
            writeln!(f, "{lead} {}:{}{end}", place.file, place.line)?;
        }
        write!(f, "{}", self.headline())?;
        for note in &self.notes {
            match &note.place {
                Some(place) => write!(f, "\n{place}: note: {}", note.message)?,
                None => write!(f, "\nphicc: note: {}", note.message)?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}
