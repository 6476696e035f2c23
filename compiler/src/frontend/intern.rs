//! String interning for token spellings.
//!
//! Why it exists: the preprocessor copies tokens all the time (macro bodies, arguments,
//! rescans); with spellings interned, a pre-processing token is a small `Copy` value and
//! a macro lookup is an index into a vector instead of a string hash.
//!
//! Invariants: a `Sym` is only ever produced by the interner it indexes; equal strings
//! get equal symbols; the well-known names below are interned first, in the order of
//! `WELL_KNOWN`, so their `Sym` constants are valid in every interner.

use rustc_hash::FxHashMap;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// Names the preprocessor compares against; `Sym(i)` is `WELL_KNOWN[i]`.
const WELL_KNOWN: [&str; 28] = [
    "defined",
    "__VA_ARGS__",
    "__FILE__",
    "__LINE__",
    "__DATE__",
    "__TIME__",
    "_Pragma",
    "define",
    "undef",
    "include",
    "if",
    "ifdef",
    "ifndef",
    "elif",
    "else",
    "endif",
    "line",
    "error",
    "warning",
    "pragma",
    "once",
    "pack",
    "0",
    "1",
    "",
    "include_next",
    "ident",
    "sccs",
];

/// `Sym` constants of the well-known names (index into `WELL_KNOWN`).
pub mod wk {
    use super::Sym;
    pub const DEFINED: Sym = Sym(0);
    pub const VA_ARGS: Sym = Sym(1);
    pub const FILE: Sym = Sym(2);
    pub const LINE: Sym = Sym(3);
    pub const DATE: Sym = Sym(4);
    pub const TIME: Sym = Sym(5);
    pub const PRAGMA_OP: Sym = Sym(6);
    pub const DEFINE: Sym = Sym(7);
    pub const UNDEF: Sym = Sym(8);
    pub const INCLUDE: Sym = Sym(9);
    pub const IF: Sym = Sym(10);
    pub const IFDEF: Sym = Sym(11);
    pub const IFNDEF: Sym = Sym(12);
    pub const ELIF: Sym = Sym(13);
    pub const ELSE: Sym = Sym(14);
    pub const ENDIF: Sym = Sym(15);
    pub const LINE_DIRECTIVE: Sym = Sym(16);
    pub const ERROR: Sym = Sym(17);
    pub const WARNING: Sym = Sym(18);
    pub const PRAGMA: Sym = Sym(19);
    pub const ONCE: Sym = Sym(20);
    pub const PACK: Sym = Sym(21);
    pub const ZERO: Sym = Sym(22);
    pub const ONE: Sym = Sym(23);
    pub const EMPTY: Sym = Sym(24);
    pub const INCLUDE_NEXT: Sym = Sym(25);
    pub const IDENT: Sym = Sym(26);
    pub const SCCS: Sym = Sym(27);
}

#[derive(Debug)]
pub struct Interner {
    map: FxHashMap<Rc<str>, Sym>,
    strings: Vec<Rc<str>>,
}

impl Default for Interner {
    fn default() -> Self {
        Interner::new()
    }
}

impl Interner {
    pub fn new() -> Interner {
        let mut interner = Interner {
            map: FxHashMap::default(),
            strings: Vec::new(),
        };
        for name in WELL_KNOWN {
            interner.intern(name);
        }
        interner
    }

    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&sym) = self.map.get(s) {
            return sym;
        }
        let sym = Sym(u32::try_from(self.strings.len()).unwrap_or(u32::MAX));
        let rc: Rc<str> = Rc::from(s);
        self.strings.push(rc.clone());
        self.map.insert(rc, sym);
        sym
    }

    /// The spelling of `sym`; the empty string for a symbol from another interner.
    pub fn get(&self, sym: Sym) -> &str {
        self.strings.get(sym.0 as usize).map_or("", |s| s)
    }

    /// A shared handle to the spelling of `sym` (clones are reference-count bumps).
    pub fn rc(&self, sym: Sym) -> Rc<str> {
        self.strings
            .get(sym.0 as usize)
            .cloned()
            .unwrap_or_else(|| Rc::from(""))
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.strings.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_symbols_match_their_names() {
        let interner = Interner::new();
        assert_eq!(interner.get(wk::DEFINED), "defined");
        assert_eq!(interner.get(wk::VA_ARGS), "__VA_ARGS__");
        assert_eq!(interner.get(wk::PACK), "pack");
        assert_eq!(interner.get(wk::SCCS), "sccs");
        assert_eq!(interner.len(), WELL_KNOWN.len());
    }

    #[test]
    fn equal_strings_share_a_symbol() {
        let mut interner = Interner::new();
        let a = interner.intern("foo");
        let b = interner.intern("bar");
        assert_ne!(a, b);
        assert_eq!(interner.intern("foo"), a);
        assert_eq!(interner.get(b), "bar");
        assert_eq!(interner.get(Sym(1_000_000)), "");
    }
}
