//! The generator's switchable features, and swarm testing over them.
//!
//! Why: a program that uses every feature at once exercises each one thinly; swarm
//! testing (Groce et al., ISSTA 2012) gives each program a random subset, so some
//! programs are all loops, others all pointers. A feature switched off on the command
//! line (`--no FEATURE`) is never used; that is also how a construct phicc cannot compile
//! yet is kept out (see `DEFAULT_OFF`).
//!
//! Invariants: the subset for a program depends only on its random stream; a feature off
//! in the configuration is off in every subset.

use std::collections::BTreeSet;
use std::fmt;

macro_rules! features {
    ($($variant:ident = $name:literal : $doc:literal,)*) => {
        /// A feature the generator can use or leave out.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Feature { $(#[doc = $doc] $variant,)* }

        impl Feature {
            pub const ALL: &'static [Feature] = &[$(Feature::$variant,)*];

            pub fn name(self) -> &'static str {
                match self { $(Feature::$variant => $name,)* }
            }

            pub fn describe(self) -> &'static str {
                match self { $(Feature::$variant => $doc,)* }
            }
        }
    };
}

features! {
    Char = "char": "8-bit types (signed char, unsigned char)",
    Short = "short": "16-bit types",
    Long = "long": "long and unsigned long (32 or 64 bits by target)",
    LongLong = "long-long": "long long and unsigned long long",
    Unsigned = "unsigned": "unsigned types",
    MulDiv = "muldiv": "* / %",
    Shifts = "shifts": "<< >>",
    Bitwise = "bitwise": "& | ^ ~",
    Compare = "compare": "< <= > >= == !=",
    Logical = "logical": "&& || !",
    Ternary = "ternary": "?:",
    Comma = "comma": "the comma operator",
    Casts = "casts": "explicit integer casts",
    Compound = "compound": "compound assignment (+= <<= ...)",
    IncDec = "incdec": "++ and --",
    Arrays = "arrays": "arrays, up to three dimensions",
    Structs = "structs": "structs, assigned whole",
    Bitfields = "bitfields": "bit-fields in structs",
    Unions = "unions": "unions of integers and floats (an integer member read after a write of another member of at least its size; a float member read after a float write of its kind, else through a conversion of the narrowest member)",
    Packed = "packed": "__attribute__((packed)) structs",
    Pointers = "pointers": "pointers to globals, locals, array elements and fields (integers and floats)",
    PtrToPtr = "ptr-to-ptr": "pointers to pointers",
    PtrMembers = "ptr-members": "pointers stored in structs and arrays (they hold addresses of globals), and pointers to pointers through them",
    PtrArith = "ptr-arith": "pointer arithmetic (p + k, p - k, p++, p += k) within one object, relational comparison and difference of pointers into one object",
    Volatile = "volatile": "volatile globals",
    Const = "const": "const globals",
    StaticLocals = "static-locals": "static local variables",
    Loops = "loops": "for, while and do loops with bounded trip counts",
    BreakContinue = "break-continue": "break and continue",
    Goto = "goto": "forward goto",
    Switch = "switch": "switch, dense and sparse, with fall-through",
    Calls = "calls": "calls to other functions",
    StructArgs = "struct-args": "structs and unions passed and returned by value (float records too: HFAs, float+integer pairs, more than 16 bytes)",
    Recursion = "recursion": "bounded recursion through a depth parameter",
    FuncPtrs = "func-ptrs": "functions called only through function pointers",
    Swaps = "swaps": "swaps and rotations of variables through a temporary (phi cycles)",
    Print = "print": "printf of values along the way",
    Floats = "floats": "float and double variables, arithmetic, comparisons, conversions to and from integers (guarded), their bits printed",
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Feature {
    type Err = String;
    fn from_str(s: &str) -> Result<Feature, String> {
        Feature::ALL
            .iter()
            .copied()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Feature::ALL.iter().map(|f| f.name()).collect();
                format!("unknown feature `{s}` (features: {})", names.join(", "))
            })
    }
}

/// Features off unless asked for: none today. (phicc compiles every construct above;
/// a construct it refuses goes here, with the reason, until it does.)
pub const DEFAULT_OFF: &[Feature] = &[];

/// A set of features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureSet(pub BTreeSet<Feature>);

impl FeatureSet {
    /// Every feature but `DEFAULT_OFF`.
    pub fn default_on() -> FeatureSet {
        FeatureSet(
            Feature::ALL
                .iter()
                .copied()
                .filter(|f| !DEFAULT_OFF.contains(f))
                .collect(),
        )
    }

    pub fn has(&self, f: Feature) -> bool {
        self.0.contains(&f)
    }

    /// Parses `a,b,c` into features.
    pub fn parse_list(s: &str) -> Result<Vec<Feature>, String> {
        s.split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(str::parse)
            .collect()
    }

    /// The names, comma-separated.
    pub fn names(&self) -> String {
        self.0
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_errors() {
        for f in Feature::ALL {
            assert_eq!(f.name().parse::<Feature>(), Ok(*f));
        }
        assert!("complex".parse::<Feature>().is_err());
    }
}
