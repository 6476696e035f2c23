//! What x86-64 and i686 share: the general-purpose registers and their names at every
//! width, condition codes, and AT&T operand-size suffixes.
//!
//! Why it exists: both x86 backends write AT&T syntax over the same register file (i686
//! sees its low eight registers); one table of names and one mapping from IR comparison
//! predicates to condition codes keeps them from disagreeing.
//!
//! Invariants: `Reg as u8` is the hardware encoding number (rax = 0 ... r15 = 15), and it
//! is the [`PReg`] number the register allocator sees; i686 uses only numbers 0..=7.
//!
//! Submodules, shared by both x86 backends: [`inst`] (the machine instructions
//! instruction selection produces, with concrete operands) and [`emit`] (their AT&T
//! text, parameterised by the address width), [`sse`] (the SSE2/x87 instructions) and
//! [`float`] (floating-point selection both backends share).

pub mod emit;
pub mod float;
pub mod inst;
pub mod sse;

use super::regalloc::PReg;
use crate::ir::CmpPred;
use crate::mutants::{self, Mutant};

/// A general-purpose register, by hardware number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Reg {
    Rax = 0,
    Rcx = 1,
    Rdx = 2,
    Rbx = 3,
    Rsp = 4,
    Rbp = 5,
    Rsi = 6,
    Rdi = 7,
    R8 = 8,
    R9 = 9,
    R10 = 10,
    R11 = 11,
    R12 = 12,
    R13 = 13,
    R14 = 14,
    R15 = 15,
}

impl Reg {
    pub const ALL: [Reg; 16] = [
        Reg::Rax,
        Reg::Rcx,
        Reg::Rdx,
        Reg::Rbx,
        Reg::Rsp,
        Reg::Rbp,
        Reg::Rsi,
        Reg::Rdi,
        Reg::R8,
        Reg::R9,
        Reg::R10,
        Reg::R11,
        Reg::R12,
        Reg::R13,
        Reg::R14,
        Reg::R15,
    ];

    pub fn preg(self) -> PReg {
        PReg(self as u8)
    }

    /// The register an allocator's `PReg` names. Panics on a number above 15 (a bug of
    /// the backend: only this file's registers are ever handed to the allocator).
    pub fn from_preg(p: PReg) -> Reg {
        Reg::ALL[p.0 as usize]
    }

    /// The AT&T name (with `%`) of the low `bytes` bytes (1, 2, 4 or 8).
    pub fn name(self, bytes: u32) -> &'static str {
        const NAMES: [[&str; 4]; 16] = [
            ["%al", "%ax", "%eax", "%rax"],
            ["%cl", "%cx", "%ecx", "%rcx"],
            ["%dl", "%dx", "%edx", "%rdx"],
            ["%bl", "%bx", "%ebx", "%rbx"],
            ["%spl", "%sp", "%esp", "%rsp"],
            ["%bpl", "%bp", "%ebp", "%rbp"],
            ["%sil", "%si", "%esi", "%rsi"],
            ["%dil", "%di", "%edi", "%rdi"],
            ["%r8b", "%r8w", "%r8d", "%r8"],
            ["%r9b", "%r9w", "%r9d", "%r9"],
            ["%r10b", "%r10w", "%r10d", "%r10"],
            ["%r11b", "%r11w", "%r11d", "%r11"],
            ["%r12b", "%r12w", "%r12d", "%r12"],
            ["%r13b", "%r13w", "%r13d", "%r13"],
            ["%r14b", "%r14w", "%r14d", "%r14"],
            ["%r15b", "%r15w", "%r15d", "%r15"],
        ];
        let column = match bytes {
            1 => 0,
            2 => 1,
            4 => 2,
            _ => 3,
        };
        NAMES[self as usize][column]
    }

    /// On i686 only eax, ecx, edx and ebx have a low-byte name (`%sil` and friends need
    /// a REX prefix, which 32-bit code does not have).
    pub fn has_byte_name_on_i686(self) -> bool {
        (self as u8) < 4
    }
}

/// The AT&T operand-size suffix for `bytes` (1, 2, 4, 8).
pub fn suffix(bytes: u32) -> char {
    match bytes {
        1 => 'b',
        2 => 'w',
        4 => 'l',
        _ => 'q',
    }
}

/// The condition code (`e`, `l`, `b`, ...) under which `cmp B, A` (AT&T: compares A with
/// B) makes `pred(A, B)` true; for `set<cc>` and `j<cc>`.
pub fn condition_code(pred: CmpPred) -> &'static str {
    let pred = if mutants::enabled(Mutant::X86UnsignedCmpAsSigned) {
        match pred {
            CmpPred::Ult => CmpPred::Slt,
            CmpPred::Ule => CmpPred::Sle,
            CmpPred::Ugt => CmpPred::Sgt,
            CmpPred::Uge => CmpPred::Sge,
            p => p,
        }
    } else {
        pred
    };
    match pred {
        CmpPred::Eq => "e",
        CmpPred::Ne => "ne",
        CmpPred::Slt => "l",
        CmpPred::Sle => "le",
        CmpPred::Sgt => "g",
        CmpPred::Sge => "ge",
        CmpPred::Ult => "b",
        CmpPred::Ule => "be",
        CmpPred::Ugt => "a",
        CmpPred::Uge => "ae",
    }
}

/// The condition code that holds exactly when `cc` (one [`condition_code`] returns) does
/// not; `None` for a code this file never produces.
pub fn inverse_condition_code(cc: &str) -> Option<&'static str> {
    Some(match cc {
        "e" => "ne",
        "ne" => "e",
        "l" => "ge",
        "ge" => "l",
        "le" => "g",
        "g" => "le",
        "b" => "ae",
        "ae" => "b",
        "be" => "a",
        "a" => "be",
        _ => return None,
    })
}

#[cfg(test)]
mod condition_tests {
    use super::*;

    #[test]
    fn every_condition_code_has_an_inverse_that_inverts_back() {
        for pred in CmpPred::ALL {
            let cc = condition_code(pred);
            let inverse = inverse_condition_code(cc).expect("an inverse");
            assert_ne!(inverse, cc);
            assert_eq!(inverse_condition_code(inverse), Some(cc));
        }
        // Hand-checked pairs: below/above-or-equal, less-or-equal/greater.
        assert_eq!(inverse_condition_code("b"), Some("ae"));
        assert_eq!(inverse_condition_code("le"), Some("g"));
        assert_eq!(inverse_condition_code("s"), None);
    }
}
