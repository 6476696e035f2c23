//! How each C parameter and result travels between caller and callee on each target:
//! the record-by-value part of the four psABIs, as gcc implements them, turned into an IR
//! signature of integer scalars.
//!
//! Why: a record passed by value must arrive where a gcc-compiled callee looks for it
//! (and leave where a gcc-compiled caller looks for it). Like clang's ABI lowering, the
//! front end decides this once, per target, here; the call lowering (`calls.rs`) and the
//! callee's prologue and `return` (`function.rs`, `stmt.rs`) both follow the
//! [`AbiSignature`] this file computes, so they cannot disagree. The IR needs no new
//! construct: a record travelling in registers or in stack slots becomes that many integer
//! *pieces* (`i64`, or `i32` on i686), read with the piece loads of
//! `crate::abi_intrinsics`, and the IR parameter list is ordered so that each backend's
//! plain "the k-th integer argument goes to the k-th register, the rest to consecutive
//! stack slots" rule puts every piece where gcc puts it.
//!
//! The rules (checked against the cross gccs' `-O2 -S` output, see
//! `tests/abi_records_gcc.rs`):
//! - x86-64 SysV: a record of at most 16 bytes whose non-bit-field members are all at
//!   offsets aligned for their type is INTEGER: one piece per eightbyte, in the next free
//!   GPRs, or — when not enough of the six GPRs are left for all of its pieces — all of it
//!   in the stack area (later scalars still take the free GPRs). Any other record is
//!   MEMORY: copied into the stack area. An INTEGER result comes back in %rax (and %rdx);
//!   a MEMORY one through a hidden pointer in %rdi that the callee returns in %rax.
//! - i686 SysV: every record is copied into the stack area (4-byte pieces); a record
//!   result goes through a hidden pointer in the first stack slot, which the callee pops
//!   (`ret $4`) and returns in %eax (`abi_intrinsics::AbiSret`, so such a callee is
//!   never inlined).
//! - AAPCS64: a record of at most 16 bytes in one or two X registers, or — when they do
//!   not both fit — on the stack, and no later argument uses a register (NGRN = 8);
//!   larger records by reference to a caller's copy; a result of at most 16 bytes in x0
//!   (and x1), a larger one through a hidden pointer in x8 (`abi_intrinsics::AbiSret`:
//!   not an IR parameter, so such a callee is never inlined either).
//! - RISC-V LP64: a record of at most 16 bytes in one or two a-registers, a pair split
//!   between a7 and the stack when only a7 is left; larger ones by reference; a result of
//!   at most 16 bytes in a0 (and a1); larger ones through a hidden pointer in a0.
//!
//! A result in two registers is the first piece as the IR result and the second through
//! the intrinsics of `abi_intrinsics::AbiHi`; such a function is never inlined (the
//! intrinsics must stay next to its `ret` and to the call).
//!
//! Records with a floating member that the psABI puts in floating registers (x86-64 SSE
//! eightbytes, AAPCS64 HFAs, RISC-V LP64D's flattened structs: `float_abi.rs`) travel as
//! [`ArgPlace::Parts`] / [`RetPlace::Parts`]: one IR parameter per register, `f32`/`f64`
//! for the float ones, placed only when all the registers they need are free (else as
//! MEMORY on x86-64, on the stack whole with no v register left after on AArch64, by the
//! integer convention on RISC-V). `va_arg` of such a record on x86-64 and AArch64 is
//! still refused. Records aligned to 16 bytes or more (only `aligned` makes them)
//! travel like the others except on the x86-64 and RISC-V stacks ([`record_facts`] says
//! what is placed and what is refused). A `float`/`double` scalar is one IR parameter of its own type; on x86-64 and
//! AArch64 it takes none of the integer registers counted here (the backends give floats
//! their own registers).
//!
//! Invariants: the caller and the callee build their signature with the same function
//! from the same C types, so the IR parameter list of a definition equals the argument
//! list of every call to it; every C parameter's pieces are listed in [`ArgPlace`] with
//! their IR indices; a piece always reads within the (padded) copy it is loaded from.

use super::float_abi::{float_parts, FloatParts, Part};
use super::types::{object_align, object_size, scalar_type};
use super::ModuleCtx;
use crate::frontend::types::{QualType, RecordId, Type};
use crate::frontend::Target;
use crate::ir::IrType;

/// How one C argument travels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgPlace {
    /// A scalar: IR parameter `index`.
    Scalar { index: usize, ty: IrType },
    /// A record in integer pieces of type `piece`: piece k (bytes `k*w .. (k+1)*w` of the
    /// record) is IR parameter `indices[k]`.
    Pieces {
        piece: IrType,
        indices: Vec<usize>,
        size: u64,
        align: u32,
    },
    /// A record by reference: IR parameter `index` points to a copy the caller made.
    ByRef { index: usize, size: u64, align: u32 },
    /// A record in floating-point (and integer) registers (`float_abi.rs`): each part is
    /// IR parameter `.0`.
    Parts {
        parts: Vec<(usize, Part)>,
        size: u64,
        align: u32,
    },
}

/// A record result in floating-point (and integer) registers (`float_abi.rs`): one part
/// is the IR result (the integer one when there is one, else the first), every other
/// part is a float read or set through `abi_intrinsics::AbiFloatPart` with its index
/// among the float result registers (%xmm0-1, v0-3, fa0-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetParts {
    parts: [Part; 4],
    count: u8,
    /// Index of the IR result in `parts`.
    result: u8,
    pub size: u64,
    pub align: u32,
}

impl RetParts {
    fn new(fp: &FloatParts, size: u64, align: u32) -> Option<RetParts> {
        if fp.parts.is_empty() || fp.parts.len() > 4 {
            return None;
        }
        let mut parts = [Part {
            ty: IrType::I64,
            offset: 0,
        }; 4];
        parts[..fp.parts.len()].copy_from_slice(&fp.parts);
        let result = fp.parts.iter().position(|p| !p.ty.is_float()).unwrap_or(0);
        Some(RetParts {
            parts,
            count: fp.parts.len() as u8,
            result: result as u8,
            size,
            align,
        })
    }

    /// All parts, in memory order.
    pub fn parts(&self) -> &[Part] {
        &self.parts[..usize::from(self.count)]
    }

    /// The part that is the IR result.
    pub fn result(&self) -> Part {
        self.parts[usize::from(self.result)]
    }

    /// True when the IR result is part `i`.
    pub fn is_result(&self, i: usize) -> bool {
        i == usize::from(self.result)
    }

    /// The float result register of part `i` (its rank among the float parts).
    pub fn float_reg(&self, i: usize) -> u8 {
        self.parts()[..i].iter().filter(|p| p.ty.is_float()).count() as u8
    }

    /// True when some part travels through the float-part intrinsics.
    pub fn has_extra(&self) -> bool {
        self.count > 1
    }
}

/// How the result travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetPlace {
    Void,
    Scalar(IrType),
    /// A record in one integer piece (the IR return type).
    Piece {
        piece: IrType,
        size: u64,
        align: u32,
    },
    /// A record in two integer pieces: the first is the IR result, the second travels
    /// through `abi_intrinsics::AbiHi` (gcc's second result register).
    Pair {
        piece: IrType,
        size: u64,
        align: u32,
    },
    /// A record in floating-point registers (`RetParts`).
    Parts(RetParts),
    /// A record through a hidden pointer: IR parameter 0, or — with `out_of_band`
    /// (AArch64's x8; i686's first stack slot, which the callee pops) — through
    /// `abi_intrinsics::AbiSret`; with `returned` the callee also returns that pointer
    /// (the IR return type is `ptr`).
    Hidden {
        size: u64,
        align: u32,
        returned: bool,
        out_of_band: bool,
    },
}

/// A function type's IR signature and where every C argument sits in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbiSignature {
    pub params: Vec<IrType>,
    pub ret: IrType,
    pub ret_place: RetPlace,
    /// One per C argument, in C order.
    pub args: Vec<ArgPlace>,
}

impl AbiSignature {
    /// True when the IR parameter list starts with a hidden result pointer.
    pub fn sret(&self) -> bool {
        matches!(
            self.ret_place,
            RetPlace::Hidden {
                out_of_band: false,
                ..
            }
        )
    }
}

/// A C argument's type as the classification sees it.
enum Class {
    Scalar(IrType),
    /// A record of `pieces` integer pieces that may go in registers.
    Small {
        pieces: usize,
        size: u64,
        align: u32,
    },
    /// A record copied into the stack area (x86-64 MEMORY, every record on i686).
    Stack {
        pieces: usize,
        size: u64,
        align: u32,
    },
    /// A record by reference.
    Large {
        size: u64,
        align: u32,
    },
    /// A record that may travel in floating-point registers (`float_abi.rs`); when the
    /// registers do not suffice it is `fallback`.
    Parts {
        fp: FloatParts,
        size: u64,
        align: u32,
        fallback: Box<Class>,
    },
}

impl Class {
    /// The record's alignment (0 for a scalar: its alignment never matters here).
    fn align(&self) -> u32 {
        match self {
            Class::Scalar(_) => 0,
            Class::Small { align, .. }
            | Class::Stack { align, .. }
            | Class::Large { align, .. }
            | Class::Parts { align, .. } => *align,
        }
    }
}

/// The integer registers for arguments, and the piece type of records.
fn arg_regs(target: Target) -> usize {
    match target {
        Target::X86_64 => 6,
        Target::I686 => 0,
        Target::Aarch64 | Target::Riscv64 => 8,
    }
}

/// Float argument registers on the targets that count them apart from the integer ones
/// (x86-64 %xmm0-7, AArch64 v0-7).
const FLOAT_ARG_REGS: usize = 8;

fn piece_type(target: Target) -> IrType {
    match target {
        Target::I686 => IrType::I32,
        _ => IrType::I64,
    }
}

/// Bytes per piece.
fn piece_bytes(target: Target) -> u64 {
    u64::from(piece_type(target).size(8))
}

/// The signature of a function (or a call through a function type) with parameters
/// `params` (for a variadic call: the arguments' types) returning `ret`.
pub fn abi_signature<'q>(
    ctx: &ModuleCtx,
    params: impl Iterator<Item = &'q QualType>,
    ret: &QualType,
) -> Result<AbiSignature, String> {
    abi_signature_named(ctx, params, usize::MAX, ret)
}

/// [`abi_signature`] of a call whose first `named` arguments are named (the others are
/// in the `...` part, which RISC-V passes by the integer convention).
pub fn abi_signature_named<'q>(
    ctx: &ModuleCtx,
    params: impl Iterator<Item = &'q QualType>,
    named: usize,
    ret: &QualType,
) -> Result<AbiSignature, String> {
    let target = ctx.target;
    let pb = piece_bytes(target);
    let ret_place = match &ret.ty {
        Type::Void => RetPlace::Void,
        Type::Record(_) => {
            let (size, align) = record_facts(ctx, &ret.ty)?;
            let memory = target == Target::X86_64 && x86_64_memory_class(ctx, &ret.ty);
            let fp = float_parts(ctx, &ret.ty, size, true, memory)?;
            let parts = fp.as_ref().and_then(|fp| RetParts::new(fp, size, align));
            let in_registers = target != Target::I686
                && size <= 2 * pb
                && !(target == Target::X86_64 && x86_64_memory_class(ctx, &ret.ty));
            if let Some(parts) = parts {
                RetPlace::Parts(parts)
            } else if in_registers && size <= pb {
                RetPlace::Piece {
                    piece: piece_type(target),
                    size,
                    align,
                }
            } else if in_registers {
                RetPlace::Pair {
                    piece: piece_type(target),
                    size,
                    align,
                }
            } else {
                RetPlace::Hidden {
                    size,
                    align,
                    returned: matches!(target, Target::X86_64 | Target::I686),
                    out_of_band: matches!(target, Target::Aarch64 | Target::I686),
                }
            }
        }
        t => RetPlace::Scalar(scalar_type(target, t)?),
    };
    let mut classes = Vec::new();
    for (i, p) in params.enumerate() {
        let class = classify(ctx, p, i < named)?;
        if target == Target::Riscv64 && i >= named && class.align() >= 16 {
            // LP64 puts such an unnamed argument in an even register pair (or a 16-byte
            // aligned stack slot), which the backend's in-order assignment cannot say.
            return Err(
                "a struct or union aligned to 16 bytes in the variadic part of a call is \
                 not supported on riscv64 yet"
                    .into(),
            );
        }
        classes.push(class);
    }
    let hidden = matches!(
        ret_place,
        RetPlace::Hidden {
            out_of_band: false,
            ..
        }
    );
    let mut sig = place(target, hidden, named, &classes)?;
    sig.ret = match ret_place {
        RetPlace::Void => IrType::Void,
        RetPlace::Scalar(t) => t,
        RetPlace::Piece { piece, .. } | RetPlace::Pair { piece, .. } => piece,
        RetPlace::Parts(p) => p.result().ty,
        RetPlace::Hidden { returned: true, .. } => IrType::Ptr,
        RetPlace::Hidden { .. } => IrType::Void,
    };
    sig.ret_place = ret_place;
    Ok(sig)
}

/// Size and alignment of a record type, refusing alignments the piece layout cannot
/// place as gcc does.
/// An alignment of 16 or more (only `aligned(N)` or the bare `aligned` makes one)
/// changes nothing in registers for named arguments on any target and nothing on the
/// stack on i686 (gcc's `ix86_function_arg_boundary`: 4 bytes without vector members)
/// and AArch64 (gcc ≥ 9 uses the members' natural alignment, at most 8 for phicc's
/// types); on x86-64 a 16-byte aligned record on the stack starts at a 16-byte boundary
/// ([`place`] inserts a filler slot) and larger alignments are refused; RISC-V aligns
/// such a record on the stack (and an unnamed one to an even register pair), both
/// refused.
fn record_facts(ctx: &ModuleCtx, ty: &Type) -> Result<(u64, u32), String> {
    let size = object_size(ctx, ty)?;
    let align = object_align(ctx, ty);
    if align == 16 && ctx.target == Target::X86_64 && size == 16 {
        // gcc gives a trailing eightbyte of padding no register (NO_CLASS), which the
        // piece layout (one piece per eightbyte) cannot say.
        let end = super::float_abi::members_end(ctx, ty).unwrap_or(size);
        if end <= 8 {
            return Err(
                "a struct or union aligned to 16 bytes whose second eightbyte is only padding \
                 is not supported on x86_64 yet"
                    .into(),
            );
        }
    }
    if align > 16 && ctx.target == Target::X86_64 {
        // gcc aligns such a stack argument to its alignment (realigning the caller's
        // frame); the other targets cap it at 16 (RISC-V) or ignore it.
        return Err(format!(
            "a struct or union aligned to {align} bytes passed or returned by value is not \
             supported yet"
        ));
    }
    Ok((size, align))
}

/// The class of a C argument of type `p` (`named`: not in the `...` part).
fn classify(ctx: &ModuleCtx, p: &QualType, named: bool) -> Result<Class, String> {
    let target = ctx.target;
    match &p.ty {
        Type::Record(_) => {
            let (size, align) = record_facts(ctx, &p.ty)?;
            let pb = piece_bytes(target);
            let pieces = size.div_ceil(pb) as usize;
            let memory = target == Target::X86_64 && x86_64_memory_class(ctx, &p.ty);
            if let Some(fp) = float_parts(ctx, &p.ty, size, named, memory)? {
                // Without the registers: x86-64 MEMORY, AAPCS64's HFA on the stack whole,
                // RISC-V's integer convention.
                let fallback = match target {
                    Target::Riscv64 => Class::Small {
                        pieces,
                        size,
                        align,
                    },
                    _ => Class::Stack {
                        pieces,
                        size,
                        align,
                    },
                };
                return Ok(Class::Parts {
                    fp,
                    size,
                    align,
                    fallback: Box::new(fallback),
                });
            }
            Ok(match target {
                Target::I686 => Class::Stack {
                    pieces,
                    size,
                    align,
                },
                Target::X86_64 if size > 16 || x86_64_memory_class(ctx, &p.ty) => Class::Stack {
                    pieces,
                    size,
                    align,
                },
                _ if size > 16 => Class::Large { size, align },
                _ => Class::Small {
                    pieces,
                    size,
                    align,
                },
            })
        }
        Type::Void => Err("a parameter has type void".into()),
        t => Ok(Class::Scalar(scalar_type(target, t)?)),
    }
}

/// How one argument ended up travelling (`Class::Parts` resolved by the registers left).
enum Resolved {
    Scalar(IrType),
    Pieces {
        pieces: usize,
        size: u64,
        align: u32,
    },
    ByRef {
        size: u64,
        align: u32,
    },
    Parts {
        parts: Vec<Part>,
        size: u64,
        align: u32,
    },
}

impl Resolved {
    /// The IR types of its parameters.
    fn types(&self, piece: IrType) -> Vec<IrType> {
        match self {
            Resolved::Scalar(t) => vec![*t],
            Resolved::ByRef { .. } => vec![IrType::Ptr],
            Resolved::Pieces { pieces, .. } => vec![piece; *pieces],
            Resolved::Parts { parts, .. } => parts.iter().map(|p| p.ty).collect(),
        }
    }
}

/// The argument class `c` without its float parts (`fallback`).
fn resolve_plain(c: &Class) -> Resolved {
    match c {
        Class::Scalar(t) => Resolved::Scalar(*t),
        Class::Large { size, align } => Resolved::ByRef {
            size: *size,
            align: *align,
        },
        Class::Small {
            pieces,
            size,
            align,
        }
        | Class::Stack {
            pieces,
            size,
            align,
        } => Resolved::Pieces {
            pieces: *pieces,
            size: *size,
            align: *align,
        },
        Class::Parts { fallback, .. } => resolve_plain(fallback),
    }
}

/// Assigns IR parameter positions: the hidden result pointer (when `hidden`) and the
/// arguments that go in registers first (in order), then — only when some argument goes
/// on the stack while registers are left — unused filler parameters for the left
/// registers (integer ones, and on AArch64 after an HFA went to the stack, float ones),
/// then the stack arguments in order. On RISC-V the backend assigns registers in
/// argument order itself (the first `named` arguments named), so the order is C's and
/// only the float parts' fit is decided here.
fn place(
    target: Target,
    hidden: bool,
    named: usize,
    classes: &[Class],
) -> Result<AbiSignature, String> {
    let regs = arg_regs(target);
    let piece = piece_type(target);
    // (in registers?, how) per argument.
    let mut used = usize::from(hidden);
    let mut float_used = 0usize;
    let mut plan: Vec<(bool, Resolved)> = Vec::with_capacity(classes.len());
    let mut aligned_on_riscv_stack = false;
    for (i, c) in classes.iter().enumerate() {
        if target == Target::Riscv64 {
            let r = match c {
                Class::Parts {
                    fp, size, align, ..
                } if used + fp.gprs() <= regs && float_used + fp.fprs() <= FLOAT_ARG_REGS => {
                    used += fp.gprs();
                    float_used += fp.fprs();
                    Resolved::Parts {
                        parts: fp.parts.clone(),
                        size: *size,
                        align: *align,
                    }
                }
                Class::Scalar(t) if t.is_float() && i < named && float_used < FLOAT_ARG_REGS => {
                    float_used += 1;
                    Resolved::Scalar(*t)
                }
                c => {
                    let r = resolve_plain(c);
                    let n = r.types(piece).len();
                    if c.align() >= 16 && used + n > regs {
                        // gcc starts it at a 16-byte boundary of the stack area, which the
                        // backend's in-order slots do not know.
                        aligned_on_riscv_stack = true;
                    }
                    used = (used + n).min(regs);
                    r
                }
            };
            plan.push((true, r));
            continue;
        }
        let (in_regs, r) = match (target, c) {
            (_, Class::Stack { .. }) => (false, resolve_plain(c)),
            // Floats have registers of their own (x86-64 %xmm0-7, AArch64 v0-7) that the
            // backends count apart; they never take or leave an integer register. The
            // ninth and later go on the stack in argument order, among the other stack
            // arguments (va-arg-15.c: 9 doubles and 9 ints past the registers).
            (Target::X86_64 | Target::Aarch64, Class::Scalar(t)) if t.is_float() => {
                let in_float_regs = float_used < FLOAT_ARG_REGS;
                float_used += usize::from(in_float_regs);
                plan.push((in_float_regs, Resolved::Scalar(*t)));
                continue;
            }
            (
                _,
                Class::Parts {
                    fp, size, align, ..
                },
            ) => {
                let fits = used + fp.gprs() <= regs && float_used + fp.fprs() <= FLOAT_ARG_REGS;
                if fits {
                    used += fp.gprs();
                    float_used += fp.fprs();
                    plan.push((
                        true,
                        Resolved::Parts {
                            parts: fp.parts.clone(),
                            size: *size,
                            align: *align,
                        },
                    ));
                } else {
                    if fp.hfa {
                        // AAPCS64 C.3: the NSRN is set to 8.
                        float_used = FLOAT_ARG_REGS;
                    }
                    plan.push((false, resolve_plain(c)));
                }
                continue;
            }
            (_, Class::Small { pieces, .. }) => {
                let fits = used + pieces <= regs;
                if !fits && target == Target::Aarch64 {
                    used = regs;
                }
                (fits, resolve_plain(c))
            }
            _ => (used < regs, resolve_plain(c)),
        };
        if in_regs {
            used += r.types(piece).len();
        }
        plan.push((in_regs, r));
    }
    let mut params = Vec::new();
    if hidden {
        params.push(IrType::Ptr);
    }
    let mut first_index = vec![0usize; classes.len()];
    if target == Target::Riscv64 {
        for (i, (_, r)) in plan.iter().enumerate() {
            first_index[i] = params.len();
            params.extend(r.types(piece));
        }
    } else {
        for (i, (in_regs, r)) in plan.iter().enumerate() {
            if *in_regs {
                first_index[i] = params.len();
                params.extend(r.types(piece));
            }
        }
        // Fillers take the registers left free before the first stack argument: the
        // integer ones when anything is on the stack, the float ones when a float is.
        let on_stack: Vec<IrType> = plan
            .iter()
            .filter(|(r, _)| !r)
            .flat_map(|(_, r)| r.types(piece))
            .collect();
        if !on_stack.is_empty() {
            let mut ints = params.iter().filter(|t| !t.is_float()).count();
            while ints < regs {
                params.push(piece);
                ints += 1;
            }
        }
        if target == Target::Aarch64 && on_stack.iter().any(|t| t.is_float()) {
            let mut floats = params.iter().filter(|t| t.is_float()).count();
            while floats < FLOAT_ARG_REGS {
                params.push(IrType::F64);
                floats += 1;
            }
        }
        let stack_start = params.len();
        for (i, (in_regs, r)) in plan.iter().enumerate() {
            if !*in_regs {
                let aligned16 = matches!(r, Resolved::Pieces { align, .. } if *align >= 16);
                if target == Target::X86_64 && aligned16 && (params.len() - stack_start) % 2 == 1 {
                    // x86-64: a 16-byte aligned record on the stack starts at a 16-byte
                    // boundary; the 8-byte slot before it is a filler.
                    params.push(piece);
                }
                first_index[i] = params.len();
                params.extend(r.types(piece));
            }
        }
    }
    let args = plan
        .into_iter()
        .zip(&first_index)
        .map(|((_, r), &first)| match r {
            Resolved::Scalar(ty) => ArgPlace::Scalar { index: first, ty },
            Resolved::ByRef { size, align } => ArgPlace::ByRef {
                index: first,
                size,
                align,
            },
            Resolved::Pieces {
                pieces,
                size,
                align,
            } => ArgPlace::Pieces {
                piece,
                indices: (first..first + pieces).collect(),
                size,
                align,
            },
            Resolved::Parts { parts, size, align } => ArgPlace::Parts {
                parts: parts
                    .into_iter()
                    .enumerate()
                    .map(|(k, p)| (first + k, p))
                    .collect(),
                size,
                align,
            },
        })
        .collect();
    if aligned_on_riscv_stack {
        return Err(
            "a struct or union aligned to 16 bytes passed on the stack is not supported on \
             riscv64 yet"
                .into(),
        );
    }
    Ok(AbiSignature {
        params,
        ret: IrType::Void,
        ret_place: RetPlace::Void,
        args,
    })
}

/// Where `va_arg` finds a record argument: exactly where a call puts it (`place`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VaRecord {
    /// In `pieces` integer pieces that may sit in registers.
    Pieces {
        pieces: usize,
        size: u64,
        align: u32,
    },
    /// In `pieces` integer pieces always in the stack area (x86-64 MEMORY, i686).
    Memory {
        pieces: usize,
        size: u64,
        align: u32,
    },
    /// By reference to the caller's copy (a `ptr` argument).
    ByRef { size: u64, align: u32 },
}

/// How a record of type `ty` travels through `...`.
pub fn va_record(ctx: &ModuleCtx, ty: &QualType) -> Result<VaRecord, String> {
    let class = classify(ctx, ty, false)?;
    if matches!(ctx.target, Target::X86_64 | Target::Riscv64) && class.align() >= 16 {
        // The stack cursor (and RISC-V's register pair) would have to skip to an aligned
        // slot first.
        return Err(format!(
            "va_arg of a struct or union aligned to 16 bytes is not supported on {} yet",
            ctx.target.name()
        ));
    }
    Ok(match class {
        Class::Small {
            pieces,
            size,
            align,
        } => VaRecord::Pieces {
            pieces,
            size,
            align,
        },
        Class::Stack {
            pieces,
            size,
            align,
        } => VaRecord::Memory {
            pieces,
            size,
            align,
        },
        Class::Large { size, align } => VaRecord::ByRef { size, align },
        Class::Parts { .. } => {
            return Err(format!(
                "va_arg of a struct or union that travels in floating-point registers is not \
                 supported on {} yet",
                ctx.target.name()
            ))
        }
        Class::Scalar(_) => return Err("internal error: a scalar classified as a record".into()),
    })
}

/// The IR type of a record piece on `target`.
pub fn record_piece_type(target: Target) -> IrType {
    piece_type(target)
}

/// x86-64: a record with a non-bit-field member at an offset not aligned for the
/// member's type is MEMORY whatever its size (gcc's `classify_argument`).
fn x86_64_memory_class(ctx: &ModuleCtx, ty: &Type) -> bool {
    // Explicit stack of (record, offset): records nest without a bound the lowering controls.
    let Type::Record(id) = ty else {
        return false;
    };
    let mut stack: Vec<(RecordId, u64)> = vec![(*id, 0)];
    let mut steps = 0usize;
    while let Some((id, base)) = stack.pop() {
        steps += 1;
        if steps > 100_000 {
            return true;
        }
        let Some(r) = ctx.unit.records.records.get(id.0 as usize) else {
            continue;
        };
        for f in &r.fields {
            if f.bitfield.is_some() {
                continue;
            }
            let offset = base + f.offset;
            let mut t = &f.ty.ty;
            while let Type::Array(elem, _) = t {
                t = &elem.ty;
            }
            if let Type::Record(inner) = t {
                stack.push((*inner, offset));
                continue;
            }
            let align = u64::from(object_align(ctx, t));
            if offset % align != 0 {
                return true;
            }
        }
    }
    false
}
