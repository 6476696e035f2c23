//! Seeded bugs ("mutants") for measuring the harness.
//!
//! Why: a harness is only as good as the bugs it finds; switching on one known bug and
//! timing how long the hunters take to find it measures them. Each mutant is a named,
//! deliberately wrong variant of one decision in one pass (or, for the `X86*`, `I686*`,
//! `Aarch64*`, `Riscv64*`, `Regalloc*` and `ParallelMove*` ones, in one backend).
//!
//! Invariants: off by default; the switch is per thread (so parallel tests and parallel
//! hunt jobs do not see each other's mutants) and costs one thread-local load when off;
//! a pass consults [`enabled`] at the exact decision the mutant breaks.

use crate::target::Target;
use std::cell::Cell;
use std::fmt;

/// Every seeded bug, with its stable name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutant {
    /// Phi elimination never uses temporaries: the lost-copy / swap problem.
    PhiElimNoTemporaries,
    /// Phi elimination puts copies at the end of a multi-successor predecessor.
    PhiElimNoTrampoline,
    /// A predecessor reaching a block through several edges gets its copies on one only.
    PhiElimRepeatedTargetOnce,
    /// mem2reg promotes allocas whose address is used as a gep base.
    M2rPromoteGepBase,
    /// mem2reg's renamer forgets to pop definition stacks when leaving a block.
    M2rNoStackPop,
    /// mem2reg's phi placement skips frontier blocks that are loop headers.
    M2rFrontierSkipsLoopHeader,
    /// mem2reg keeps wide literals unnarrowed when storing into narrow slots.
    M2rNoNarrowing,
    /// The inliner forgets to store the last argument into the callee's parameter slot.
    InlineSkipParamStore,
    /// CFG simplification merges a block into its predecessor without renaming the
    /// merged block in its successors' phi incoming labels.
    CfgSimplifyNoPhiFix,
    /// Copy propagation also runs after phi elimination (where copies are moves, not
    /// SSA definitions).
    CopyPropAfterPhiElim,
    /// Constant folding folds `udiv`/`urem` with signed division.
    ConstFoldUdivSigned,
    /// Algebraic simplification rewrites `ashr` by a constant as `lshr`.
    SimplifyAshrAsLshr,
    /// Constant folding computes `f32` arithmetic in `f64` and narrows the result by
    /// cutting off the extra mantissa bits (round toward zero) instead of rounding.
    ConstFoldF32Truncated,
    /// Constant folding evaluates an unordered float comparison as its ordered twin
    /// (`une` as `one`, `uge` as `oge`, ...): wrong exactly when an operand is a NaN.
    ConstFoldFcmpOrdered,
    /// Constant folding converts `f64` to `f32` by cutting off mantissa bits (one ulp
    /// toward zero half the time) instead of rounding to nearest-even.
    ConstFoldFptruncTruncates,
    /// GVN gives two loads of the same address the same number across a store.
    GvnLoadAcrossStore,
    /// LICM hoists a division out of a loop even when the loop guards its divisor.
    LicmHoistGuardedDiv,
    /// DCE deletes stores to allocas as if they had no effect.
    DceRemovesStore,
    /// Dead static function elimination ignores references by `globaladdr`.
    DeadStaticIgnoresAddressTaken,
    /// Backend (x86_64 prologue): the last callee-saved register the allocation uses is
    /// not saved and restored.
    X86_64CalleeSavedNotSaved,
    /// Backend (linear scan): a spilled value reuses the spill slot of the previously
    /// spilled value even while that value is still live.
    RegallocSharedSpillSlot,
    /// Backend (x86 isel, both targets): an `i8` load zero-extends instead of
    /// sign-extending.
    X86I8LoadNoSignExtend,
    /// Backend (x86, both targets): unsigned comparisons use the signed condition codes.
    X86UnsignedCmpAsSigned,
    /// Backend (x86_64 ABI): stack-passed arguments (the seventh on) are stored 8 bytes
    /// too high.
    X86_64StackArgOffBy8,
    /// Backend (parallel moves): moves are emitted in the order given, without ordering
    /// or breaking cycles.
    ParallelMoveInOrder,
    /// Backend (i686): a 64-bit add forgets the carry into the high word (`add` for `adc`).
    I686AddNoCarry,
    /// Backend (aarch64): a narrow incoming parameter is used without re-extending it
    /// (AAPCS64 leaves the bits above its width unspecified).
    Aarch64NarrowParamNotExtended,
    /// Backend (aarch64): division by zero is not tested (the hardware gives 0, no trap).
    Aarch64DivZeroNoTrap,
    /// Backend (aarch64): a constant wider than 16 bits is built with `movz` alone (the
    /// `movk` of the upper parts is lost).
    Aarch64WideImmediateTruncated,
    /// Backend (riscv64): a narrow incoming parameter is used without re-extending it.
    Riscv64NarrowParamNotExtended,
    /// Backend (riscv64): division by zero is not tested (the hardware gives -1 or the
    /// dividend, no trap).
    Riscv64DivZeroNoTrap,
    /// Backend (riscv64): `lui`/`addi` constant pairs forget to round the upper part when
    /// the low 12 bits are 0x800 or more (the `addi` immediate is sign-extended).
    Riscv64LuiNoRounding,
    /// Backend (riscv64): a 32-bit add uses `add` instead of `addw`, so the result is not
    /// sign-extended from bit 31.
    Riscv64I32AddNotWord,
    // Issue 15 item 5 (seeds): bugs of the kinds the first catalog lacked.
    /// C lowering: an `unsigned short` value (not a constant) converted to a wider type is
    /// sign-extended instead of zero-extended (`movswl` for `movzwl`).
    LowerU16WidenSignExtends,
    /// C lowering: `lhs op= rhs` on an 8- or 16-bit `lhs` computes in `lhs`'s own type (the
    /// right operand truncated to it) instead of the promoted common type: wrong for `/`,
    /// `%`, `>>` and shifts when `rhs` does not fit the narrow type or the signedness differs.
    LowerCompoundNarrowInLhsType,
    /// C lowering: a signed bit-field held in a one-byte storage unit is read zero-extended
    /// (the byte-unit fast path forgets the sign extension).
    LowerBitfieldByteNoSignExtend,
    /// C lowering: the case values of a 64-bit `switch` are truncated to 32 bits (zero-extended),
    /// so `case -1:` on a `long` is 4294967295.
    LowerSwitchCaseTruncated32,
    /// C lowering: `p - q` divides the byte difference by the element size unsigned (`udiv`),
    /// wrong whenever `p` is below `q`.
    LowerPtrDiffUnsignedDivide,
    /// Algebraic simplification rewrites `sdiv x, 2^k` (k >= 1) as `ashr x, k` without the
    /// rounding fix: wrong for negative `x` that is not a multiple of 2^k.
    SimplifySdivPow2AsAshr,
    /// Algebraic simplification rewrites `srem x, 2^k` as `and x, 2^k - 1`: wrong for negative
    /// `x` that is not a multiple of 2^k.
    SimplifySremPow2AsMask,
    /// Algebraic simplification folds `cmp PRED (add x, c1), c2` into `cmp PRED x, c2 - c1`
    /// ignoring that the `add` wraps: wrong when `x + c1` or `c2 - c1` overflows the width.
    SimplifyAddCmpIgnoresOverflow,
    /// Algebraic simplification rewrites `cmp eq/ne (neg x), x` as `cmp eq/ne x, 0`: wrong for
    /// the minimum of the width, which is its own negation.
    SimplifyNegEqSelfAsZero,
    /// LICM's loop detection walks the body back from the first latch only (it assumes one back
    /// edge): blocks that reach only another latch are taken for outside the loop.
    LicmSingleBackEdge,
    /// LICM takes a loop header's first outside predecessor for the preheader even when the
    /// loop has several entries (the others bypass what is hoisted).
    LicmPreheaderFirstEntry,
    /// The dominator computation stops after its first pass over the reverse postorder
    /// (enough for reducible CFGs): in an irreducible one, a block entered through a
    /// retreating edge keeps an immediate dominator that does not dominate it.
    DominatorsSinglePass,
    /// Backend (i686): a 64-bit shift by a variable count forgets that x86 masks the count
    /// to 5 bits: for counts 32..63 the words are not moved over (`shld`/`shl` alone).
    I686WideShiftNoWordFixup,
    // -- floats in the aarch64 and riscv64 backends (farm) --
    /// Backend (aarch64): an unsigned integer converts to a float with `scvtf` (a `u64`
    /// at or above 2^63 comes out negative).
    Aarch64UnsignedToFloatSigned,
    /// Backend (aarch64): `fcmp olt` reads the flags with `lt` (true for unordered
    /// operands too) instead of `mi`.
    Aarch64FcmpOltAsLt,
    /// Backend (riscv64): an unsigned integer converts to a float with `fcvt.{s,d}.l`
    /// (a `u64` at or above 2^63 comes out negative).
    Riscv64UnsignedToFloatSigned,
    /// Backend (riscv64): `fcmp ole`/`oge` use `flt` instead of `fle` (equal operands
    /// compare false).
    Riscv64FleAsFlt,
    // Floats in the x86 backends (fx86).
    /// Backend (x86_64): `fcmp oeq`/`une` ignore the parity flag `ucomis` sets for
    /// unordered operands, so a NaN compares equal to everything.
    X86_64FcmpIgnoresParity,
    /// Backend (i686): an `f64` constant operand is put together with its two 32-bit
    /// halves swapped (the high word where the low one goes).
    I686F64ConstHalvesSwapped,
    // Floats in the C front end and lowering, found from generated C (cgenfloat, issue 14).
    /// Front end (constant expressions): a `float` operation is computed in `f64` and kept
    /// there (not rounded to `f32` after each operation, as FLT_EVAL_METHOD 1 would): a
    /// chain `a * b + c` of `float` constants in a static initializer rounds once at the
    /// end instead of after every operation.
    ConstEvalFloatKeptInDouble,
    /// C lowering: `a != b` on floats is `fcmp one` (ordered) instead of `une`: a NaN
    /// operand makes it false.
    LowerFloatNeOrdered,
    /// Constant folding converts an integer to a float rounding toward zero instead of to
    /// nearest-even: one ulp low in magnitude for an integer wider than the mantissa
    /// (a 32-bit `int` above 2^24 to `float`, a 64-bit one above 2^53 to `double`).
    ConstFoldIntToFloatTowardZero,
}

impl Mutant {
    pub const ALL: [Mutant; 55] = [
        Mutant::PhiElimNoTemporaries,
        Mutant::PhiElimNoTrampoline,
        Mutant::PhiElimRepeatedTargetOnce,
        Mutant::M2rPromoteGepBase,
        Mutant::M2rNoStackPop,
        Mutant::M2rFrontierSkipsLoopHeader,
        Mutant::M2rNoNarrowing,
        Mutant::InlineSkipParamStore,
        Mutant::CfgSimplifyNoPhiFix,
        Mutant::CopyPropAfterPhiElim,
        Mutant::ConstFoldUdivSigned,
        Mutant::SimplifyAshrAsLshr,
        Mutant::ConstFoldF32Truncated,
        Mutant::ConstFoldFcmpOrdered,
        Mutant::ConstFoldFptruncTruncates,
        Mutant::GvnLoadAcrossStore,
        Mutant::LicmHoistGuardedDiv,
        Mutant::DceRemovesStore,
        Mutant::DeadStaticIgnoresAddressTaken,
        Mutant::X86_64CalleeSavedNotSaved,
        Mutant::RegallocSharedSpillSlot,
        Mutant::X86I8LoadNoSignExtend,
        Mutant::X86UnsignedCmpAsSigned,
        Mutant::X86_64StackArgOffBy8,
        Mutant::ParallelMoveInOrder,
        Mutant::I686AddNoCarry,
        Mutant::Aarch64NarrowParamNotExtended,
        Mutant::Aarch64DivZeroNoTrap,
        Mutant::Aarch64WideImmediateTruncated,
        Mutant::Riscv64NarrowParamNotExtended,
        Mutant::Riscv64DivZeroNoTrap,
        Mutant::Riscv64LuiNoRounding,
        Mutant::Riscv64I32AddNotWord,
        Mutant::LowerU16WidenSignExtends,
        Mutant::LowerCompoundNarrowInLhsType,
        Mutant::LowerBitfieldByteNoSignExtend,
        Mutant::LowerSwitchCaseTruncated32,
        Mutant::LowerPtrDiffUnsignedDivide,
        Mutant::SimplifySdivPow2AsAshr,
        Mutant::SimplifySremPow2AsMask,
        Mutant::SimplifyAddCmpIgnoresOverflow,
        Mutant::SimplifyNegEqSelfAsZero,
        Mutant::LicmSingleBackEdge,
        Mutant::LicmPreheaderFirstEntry,
        Mutant::DominatorsSinglePass,
        Mutant::I686WideShiftNoWordFixup,
        Mutant::Aarch64UnsignedToFloatSigned,
        Mutant::Aarch64FcmpOltAsLt,
        Mutant::Riscv64UnsignedToFloatSigned,
        Mutant::Riscv64FleAsFlt,
        Mutant::X86_64FcmpIgnoresParity,
        Mutant::I686F64ConstHalvesSwapped,
        Mutant::ConstEvalFloatKeptInDouble,
        Mutant::LowerFloatNeOrdered,
        Mutant::ConstFoldIntToFloatTowardZero,
    ];

    /// The stable name used by `--mutant` and `PHIHUNT_MUTANT`.
    pub fn name(self) -> &'static str {
        match self {
            Mutant::PhiElimNoTemporaries => "phi_elim_no_temporaries",
            Mutant::PhiElimNoTrampoline => "phi_elim_no_trampoline",
            Mutant::PhiElimRepeatedTargetOnce => "phi_elim_repeated_target_once",
            Mutant::M2rPromoteGepBase => "m2r_promote_gep_base",
            Mutant::M2rNoStackPop => "m2r_no_stack_pop",
            Mutant::M2rFrontierSkipsLoopHeader => "m2r_frontier_skips_loop_header",
            Mutant::M2rNoNarrowing => "m2r_no_narrowing",
            Mutant::InlineSkipParamStore => "inline_skip_param_store",
            Mutant::CfgSimplifyNoPhiFix => "cfg_simplify_no_phi_fix",
            Mutant::CopyPropAfterPhiElim => "copy_prop_after_phi_elim",
            Mutant::ConstFoldUdivSigned => "const_fold_udiv_signed",
            Mutant::SimplifyAshrAsLshr => "simplify_ashr_as_lshr",
            Mutant::ConstFoldF32Truncated => "const_fold_f32_truncated",
            Mutant::ConstFoldFcmpOrdered => "const_fold_fcmp_ordered",
            Mutant::ConstFoldFptruncTruncates => "const_fold_fptrunc_truncates",
            Mutant::GvnLoadAcrossStore => "gvn_load_across_store",
            Mutant::LicmHoistGuardedDiv => "licm_hoist_guarded_div",
            Mutant::DceRemovesStore => "dce_removes_store",
            Mutant::DeadStaticIgnoresAddressTaken => "dead_static_ignores_address_taken",
            Mutant::X86_64CalleeSavedNotSaved => "x86_64_callee_saved_not_saved",
            Mutant::RegallocSharedSpillSlot => "regalloc_shared_spill_slot",
            Mutant::X86I8LoadNoSignExtend => "x86_i8_load_no_sign_extend",
            Mutant::X86UnsignedCmpAsSigned => "x86_unsigned_cmp_as_signed",
            Mutant::X86_64StackArgOffBy8 => "x86_64_stack_arg_off_by_8",
            Mutant::ParallelMoveInOrder => "parallel_move_in_order",
            Mutant::I686AddNoCarry => "i686_add_no_carry",
            Mutant::Aarch64NarrowParamNotExtended => "aarch64_narrow_param_not_extended",
            Mutant::Aarch64DivZeroNoTrap => "aarch64_div_zero_no_trap",
            Mutant::Aarch64WideImmediateTruncated => "aarch64_wide_immediate_truncated",
            Mutant::Riscv64NarrowParamNotExtended => "riscv64_narrow_param_not_extended",
            Mutant::Riscv64DivZeroNoTrap => "riscv64_div_zero_no_trap",
            Mutant::Riscv64LuiNoRounding => "riscv64_lui_no_rounding",
            Mutant::Riscv64I32AddNotWord => "riscv64_i32_add_not_word",
            Mutant::LowerU16WidenSignExtends => "lower_u16_widen_sign_extends",
            Mutant::LowerCompoundNarrowInLhsType => "lower_compound_narrow_in_lhs_type",
            Mutant::LowerBitfieldByteNoSignExtend => "lower_bitfield_byte_no_sign_extend",
            Mutant::LowerSwitchCaseTruncated32 => "lower_switch_case_truncated_32",
            Mutant::LowerPtrDiffUnsignedDivide => "lower_ptr_diff_unsigned_divide",
            Mutant::SimplifySdivPow2AsAshr => "simplify_sdiv_pow2_as_ashr",
            Mutant::SimplifySremPow2AsMask => "simplify_srem_pow2_as_mask",
            Mutant::SimplifyAddCmpIgnoresOverflow => "simplify_add_cmp_ignores_overflow",
            Mutant::SimplifyNegEqSelfAsZero => "simplify_neg_eq_self_as_zero",
            Mutant::LicmSingleBackEdge => "licm_single_back_edge",
            Mutant::LicmPreheaderFirstEntry => "licm_preheader_first_entry",
            Mutant::DominatorsSinglePass => "dominators_single_pass",
            Mutant::I686WideShiftNoWordFixup => "i686_wide_shift_no_word_fixup",
            Mutant::Aarch64UnsignedToFloatSigned => "aarch64_unsigned_to_float_signed",
            Mutant::Aarch64FcmpOltAsLt => "aarch64_fcmp_olt_as_lt",
            Mutant::Riscv64UnsignedToFloatSigned => "riscv64_unsigned_to_float_signed",
            Mutant::Riscv64FleAsFlt => "riscv64_fle_as_flt",
            Mutant::X86_64FcmpIgnoresParity => "x86_64_fcmp_ignores_parity",
            Mutant::I686F64ConstHalvesSwapped => "i686_f64_const_halves_swapped",
            Mutant::ConstEvalFloatKeptInDouble => "const_eval_float_kept_in_double",
            Mutant::LowerFloatNeOrdered => "lower_float_ne_ordered",
            Mutant::ConstFoldIntToFloatTowardZero => "const_fold_int_to_float_toward_zero",
        }
    }

    /// True for the seeded bugs below the IR (a backend, the register allocator, the
    /// parallel-move resolver): only native runs can find them.
    pub fn is_backend(self) -> bool {
        !self.targets().is_empty()
    }

    /// The targets whose generated code the seeded bug changes: one target for a bug in
    /// that target's backend, both x86 targets for the shared x86 code, every target for
    /// the shared register allocator and parallel-move resolver, none for a bug above the
    /// IR's backend boundary (every stage and target sees those).
    pub fn targets(self) -> &'static [Target] {
        use Target::*;
        match self {
            Mutant::RegallocSharedSpillSlot | Mutant::ParallelMoveInOrder => &Target::ALL,
            Mutant::X86I8LoadNoSignExtend | Mutant::X86UnsignedCmpAsSigned => &[X86_64, I686],
            Mutant::X86_64CalleeSavedNotSaved | Mutant::X86_64StackArgOffBy8 => &[X86_64],
            Mutant::I686AddNoCarry | Mutant::I686WideShiftNoWordFixup => &[I686],
            Mutant::X86_64FcmpIgnoresParity => &[X86_64],
            Mutant::I686F64ConstHalvesSwapped => &[I686],
            Mutant::Aarch64NarrowParamNotExtended
            | Mutant::Aarch64DivZeroNoTrap
            | Mutant::Aarch64WideImmediateTruncated
            | Mutant::Aarch64UnsignedToFloatSigned
            | Mutant::Aarch64FcmpOltAsLt => &[Aarch64],
            Mutant::Riscv64NarrowParamNotExtended
            | Mutant::Riscv64DivZeroNoTrap
            | Mutant::Riscv64LuiNoRounding
            | Mutant::Riscv64I32AddNotWord
            | Mutant::Riscv64UnsignedToFloatSigned
            | Mutant::Riscv64FleAsFlt => &[Riscv64],
            Mutant::PhiElimNoTemporaries
            | Mutant::PhiElimNoTrampoline
            | Mutant::PhiElimRepeatedTargetOnce
            | Mutant::M2rPromoteGepBase
            | Mutant::M2rNoStackPop
            | Mutant::M2rFrontierSkipsLoopHeader
            | Mutant::M2rNoNarrowing
            | Mutant::InlineSkipParamStore
            | Mutant::CfgSimplifyNoPhiFix
            | Mutant::CopyPropAfterPhiElim
            | Mutant::ConstFoldUdivSigned
            | Mutant::SimplifyAshrAsLshr
            | Mutant::ConstFoldF32Truncated
            | Mutant::ConstFoldFcmpOrdered
            | Mutant::ConstFoldFptruncTruncates
            | Mutant::GvnLoadAcrossStore
            | Mutant::LicmHoistGuardedDiv
            | Mutant::DceRemovesStore
            | Mutant::DeadStaticIgnoresAddressTaken
            | Mutant::LowerU16WidenSignExtends
            | Mutant::LowerCompoundNarrowInLhsType
            | Mutant::LowerBitfieldByteNoSignExtend
            | Mutant::LowerSwitchCaseTruncated32
            | Mutant::LowerPtrDiffUnsignedDivide
            | Mutant::SimplifySdivPow2AsAshr
            | Mutant::SimplifySremPow2AsMask
            | Mutant::SimplifyAddCmpIgnoresOverflow
            | Mutant::SimplifyNegEqSelfAsZero
            | Mutant::LicmSingleBackEdge
            | Mutant::LicmPreheaderFirstEntry
            | Mutant::DominatorsSinglePass
            | Mutant::ConstEvalFloatKeptInDouble
            | Mutant::LowerFloatNeOrdered
            | Mutant::ConstFoldIntToFloatTowardZero => &[],
        }
    }

    /// The mutant called `name`.
    pub fn from_name(name: &str) -> Option<Mutant> {
        Mutant::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// The active set is one `u64` mask: at most 64 seeded bugs (checked at compile time).
    fn bit(self) -> u64 {
        const _: () = assert!(Mutant::ALL.len() <= 64, "the active-mutant mask holds 64");
        1 << (self as u32)
    }
}

impl fmt::Display for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

thread_local! {
    static ACTIVE: Cell<u64> = const { Cell::new(0) };
}

/// True when `m` is switched on for this thread.
#[inline]
pub fn enabled(m: Mutant) -> bool {
    ACTIVE.with(|a| a.get() & m.bit() != 0)
}

/// Switches on exactly the mutants in `set` for this thread (empty: the correct compiler).
pub fn set_active(set: &[Mutant]) {
    let bits = set.iter().fold(0, |acc, m| acc | m.bit());
    ACTIVE.with(|a| a.set(bits));
}

/// The mutants switched on for this thread.
pub fn active() -> Vec<Mutant> {
    Mutant::ALL
        .iter()
        .copied()
        .filter(|m| enabled(*m))
        .collect()
}

/// Reads `PHIHUNT_MUTANT` (comma-separated names). Unknown names are an error.
pub fn from_env() -> Result<Vec<Mutant>, String> {
    match std::env::var("PHIHUNT_MUTANT") {
        Ok(s) => parse_list(&s),
        Err(_) => Ok(Vec::new()),
    }
}

/// Parses a comma-separated list of mutant names.
pub fn parse_list(s: &str) -> Result<Vec<Mutant>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| {
            Mutant::from_name(n).ok_or_else(|| {
                let known: Vec<_> = Mutant::ALL.iter().map(|m| m.name()).collect();
                format!("unknown mutant `{n}` (known: {})", known.join(", "))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_switch_is_per_thread() {
        for m in Mutant::ALL {
            assert_eq!(Mutant::from_name(m.name()), Some(m));
        }
        // The backend mutants are exactly those named after a backend part.
        for m in Mutant::ALL {
            let below_ir = [
                "x86",
                "i686",
                "aarch64",
                "riscv64",
                "regalloc",
                "parallel_move",
            ]
            .iter()
            .any(|p| m.name().starts_with(p));
            assert_eq!(m.is_backend(), below_ir, "{m}");
        }
        set_active(&[Mutant::M2rNoStackPop]);
        assert!(enabled(Mutant::M2rNoStackPop));
        assert!(!enabled(Mutant::M2rNoNarrowing));
        std::thread::spawn(|| assert!(active().is_empty()))
            .join()
            .unwrap();
        set_active(&[]);
        assert!(active().is_empty());
        assert!(parse_list("m2r_no_narrowing, nope").is_err());
    }
}
