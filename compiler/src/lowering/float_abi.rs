//! Records with a `float` or `double` member passed or returned by value: which of them
//! travel in floating-point registers on each target, and as which register-sized parts.
//!
//! Why: `abi.rs` moves a record as integer pieces, which is gcc's placement only while
//! no member is floating. Three psABIs give such records floating registers, each by its
//! own rule, and this file is those rules (checked against the cross gccs in
//! `tests/abi_records_gcc.rs`):
//! - x86-64 SysV: a record of at most 16 bytes (not MEMORY) is cut in eightbytes; an
//!   eightbyte whose members are all floating is SSE (one `%xmm` register, two `float`s
//!   packed in its low 64 bits), any other is INTEGER. Each eightbyte is one part: `f64`
//!   for SSE (its eight bytes as the bits of a double), `i64` for INTEGER.
//! - AAPCS64: a homogeneous floating-point aggregate (HFA: one to four members of one
//!   floating type, through nested records, arrays and unions, without padding) is one
//!   `f32`/`f64` part per member, each in its own v register.
//! - RISC-V LP64D (named arguments and results only): a struct that flattens (through
//!   nested structs and arrays; a union or a pointer anywhere stops it, as in gcc's
//!   `riscv_flatten_aggregate_field`) to one floating member, two floating members, or
//!   one floating and one integer member is one part per member, in fa (and a)
//!   registers.
//!
//! i686 passes every record in memory and returns it through a hidden pointer, whatever
//! its members, so nothing here concerns it. Whether the registers a [`FloatParts`]
//! needs are still free is the caller's business (`abi::place`).
//!
//! Invariants: the parts are in increasing offset order; a part of type `t` reads
//! `t`'s size (an `i8`/`i16` part: its own size; an x86-64 part: always 8) from its
//! offset, within the record padded to a multiple of 8 bytes; parts never overlap;
//! records nest without a bound the lowering controls, so every walk is iterative and
//! bounded, and only records of at most [`LARGEST_FLOAT_RECORD`] bytes are walked (the
//! bound then only stops pathological zero-size members).

use super::ModuleCtx;
use crate::frontend::types::{FloatKind, RecordKind, Type};
use crate::frontend::Target;
use crate::ir::IrType;

/// The largest record any of the psABIs gives floating registers: an AArch64 HFA of four
/// 16-byte members (x86-64 and RISC-V stop at 16 bytes). A larger record travels as
/// memory whatever its members, so it is never walked.
const LARGEST_FLOAT_RECORD: u64 = 64;

/// One register-sized part of a record: its IR type and its byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub ty: IrType,
    pub offset: u64,
}

/// A record that travels in floating-point (and maybe integer) registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloatParts {
    /// In memory order.
    pub parts: Vec<Part>,
    /// AArch64 HFA: when the v registers do not suffice it goes on the stack whole (by
    /// value, whatever its size) and no later argument uses a v register.
    pub hfa: bool,
}

impl FloatParts {
    /// Floating-point registers the parts take.
    pub fn fprs(&self) -> usize {
        self.parts.iter().filter(|p| p.ty.is_float()).count()
    }

    /// Integer registers the parts take.
    pub fn gprs(&self) -> usize {
        self.parts.len() - self.fprs()
    }
}

/// One scalar member as the classifications see it.
#[derive(Clone, Copy, Debug)]
struct Leaf {
    offset: u64,
    size: u64,
    /// `Some` for `float` / `double` / `long double`.
    float: Option<FloatKind>,
    bitfield: bool,
    /// An integer or pointer (not a bit-field).
    ir: Option<IrType>,
}

/// The scalar members of `ty` with their offsets; `None` when the walk gives up (too
/// many steps, or an incomplete member). `in_union` reports whether any union was met.
fn leaves(ctx: &ModuleCtx, ty: &Type, in_union: &mut bool) -> Option<Vec<Leaf>> {
    let target = ctx.target;
    let mut out = Vec::new();
    let mut stack: Vec<(&Type, u64)> = vec![(ty, 0)];
    let mut steps = 0usize;
    while let Some((t, base)) = stack.pop() {
        steps += 1;
        if steps > 10_000 {
            return None;
        }
        match t {
            Type::Record(id) => {
                let r = ctx.unit.records.records.get(id.0 as usize)?;
                if r.kind == RecordKind::Union {
                    *in_union = true;
                }
                for f in r.fields.iter().rev() {
                    if let Some(bf) = &f.bitfield {
                        if bf.width == 0 {
                            continue;
                        }
                        let first = bf.bit_offset / 8;
                        let last = (bf.bit_offset + u64::from(bf.width) - 1) / 8;
                        out.push(Leaf {
                            offset: base + first,
                            size: last - first + 1,
                            float: None,
                            bitfield: true,
                            ir: None,
                        });
                        continue;
                    }
                    stack.push((&f.ty.ty, base + f.offset));
                }
            }
            Type::Array(elem, n) => {
                let size = elem.ty.size(target, &ctx.unit.records)?;
                for i in (0..n.unwrap_or(0)).rev() {
                    stack.push((&elem.ty, base + i * size));
                    if stack.len() > 10_000 {
                        return None;
                    }
                }
            }
            Type::Float(k) => out.push(Leaf {
                offset: base,
                size: k.size(target),
                float: Some(*k),
                bitfield: false,
                ir: None,
            }),
            Type::Bool | Type::Int(_) | Type::Pointer(_) => {
                let size = t.size(target, &ctx.unit.records)?;
                // A pointer is no integral type to RISC-V's flattening.
                let ir = match (t, size) {
                    (Type::Pointer(_), _) => None,
                    (_, 1) => Some(IrType::I8),
                    (_, 2) => Some(IrType::I16),
                    (_, 4) => Some(IrType::I32),
                    _ => Some(IrType::I64),
                };
                out.push(Leaf {
                    offset: base,
                    size,
                    float: None,
                    bitfield: false,
                    ir,
                });
            }
            Type::Void | Type::Function(_) => return None,
        }
    }
    out.sort_by_key(|l| l.offset);
    Some(out)
}

/// The float type of one part.
fn float_ir(k: FloatKind) -> Option<IrType> {
    match k {
        FloatKind::Float => Some(IrType::F32),
        FloatKind::Double => Some(IrType::F64),
        FloatKind::LongDouble => None,
    }
}

/// The end of the last byte any scalar member of record `ty` occupies (`None` when it is
/// nested too deeply to tell): below its size only when trailing padding comes from an
/// `aligned` attribute.
pub fn members_end(ctx: &ModuleCtx, ty: &Type) -> Option<u64> {
    let mut in_union = false;
    let leaves = leaves(ctx, ty, &mut in_union)?;
    Some(leaves.iter().map(|l| l.offset + l.size).max().unwrap_or(0))
}

/// How record `ty` of `size` bytes travels in floating registers on `ctx.target`, if it
/// does (`named`: a named argument or a result, not one in the `...` part; `x86_64_memory`:
/// x86-64 classifies it MEMORY for a misaligned member). `Err` for the records whose
/// classification phicc does not implement.
pub fn float_parts(
    ctx: &ModuleCtx,
    ty: &Type,
    size: u64,
    named: bool,
    x86_64_memory: bool,
) -> Result<Option<FloatParts>, String> {
    if ctx.target == Target::I686 || size > LARGEST_FLOAT_RECORD {
        // In memory on every target: no walk (a 64 KiB array member would be 16,384
        // leaves, more than the walk's bound).
        return Ok(None);
    }
    let mut in_union = false;
    let Some(leaves) = leaves(ctx, ty, &mut in_union) else {
        return Err(
            "a struct or union with too many members (or an incomplete one) to classify for \
             the ABI"
                .into(),
        );
    };
    if !leaves.iter().any(|l| l.float.is_some()) {
        return Ok(None);
    }
    if leaves
        .iter()
        .any(|l| l.float == Some(FloatKind::LongDouble))
    {
        return match ctx.target {
            Target::I686 => Ok(None),
            Target::X86_64 if size > 16 || x86_64_memory => Ok(None),
            Target::Riscv64 => Ok(None),
            _ => Err(
                "a struct or union with a `long double` member passed or returned by value is \
                 not supported"
                    .into(),
            ),
        };
    }
    Ok(match ctx.target {
        Target::I686 => None,
        Target::X86_64 => {
            if size > 16 || x86_64_memory {
                return Ok(None);
            }
            x86_64_eightbytes(&leaves, size)
        }
        Target::Aarch64 => aarch64_hfa(&leaves, size),
        Target::Riscv64 => {
            if !named || size > 16 {
                return Ok(None);
            }
            if in_union {
                // gcc flattens only structs and arrays: a union anywhere makes it an
                // integer record.
                return Ok(None);
            }
            if leaves.iter().any(|l| l.bitfield) {
                return Err(
                    "a struct with a floating-point member and a bit-field passed or returned \
                     by value is not supported on riscv64"
                        .into(),
                );
            }
            riscv_flatten(&leaves)
        }
    })
}

/// x86-64: one part per eightbyte, `f64` where only floating members touch it.
fn x86_64_eightbytes(leaves: &[Leaf], size: u64) -> Option<FloatParts> {
    let n = size.div_ceil(8) as usize;
    // Per eightbyte: touched by an integer member, touched by a float.
    let mut integer = vec![false; n];
    let mut float = vec![false; n];
    for l in leaves {
        let first = (l.offset / 8) as usize;
        let last = ((l.offset + l.size.max(1) - 1) / 8) as usize;
        for e in first..=last.min(n - 1) {
            if l.float.is_some() {
                float[e] = true;
            } else {
                integer[e] = true;
            }
        }
    }
    let parts: Vec<Part> = (0..n)
        .map(|e| Part {
            ty: if float[e] && !integer[e] {
                IrType::F64
            } else {
                IrType::I64
            },
            offset: 8 * e as u64,
        })
        .collect();
    parts
        .iter()
        .any(|p| p.ty.is_float())
        .then_some(FloatParts { parts, hfa: false })
}

/// AArch64: the HFA's members, if `leaves` make one.
fn aarch64_hfa(leaves: &[Leaf], size: u64) -> Option<FloatParts> {
    let kind = leaves.first()?.float?;
    if leaves.iter().any(|l| l.float != Some(kind)) {
        return None;
    }
    let ty = float_ir(kind)?;
    let base = u64::from(ty.size(8));
    if size == 0 || !size.is_multiple_of(base) || size / base > 4 {
        return None;
    }
    let n = (size / base) as usize;
    let mut covered = vec![false; n];
    for l in leaves {
        if !l.offset.is_multiple_of(base) {
            return None;
        }
        *covered.get_mut((l.offset / base) as usize)? = true;
    }
    covered.iter().all(|c| *c).then(|| FloatParts {
        parts: (0..n)
            .map(|i| Part {
                ty,
                offset: i as u64 * base,
            })
            .collect(),
        hfa: true,
    })
}

/// RISC-V LP64D: the flattened struct, if it is one or two floats or a float and an
/// integer (of at most 8 bytes each).
fn riscv_flatten(leaves: &[Leaf]) -> Option<FloatParts> {
    if leaves.is_empty() || leaves.len() > 2 {
        return None;
    }
    let floats = leaves.iter().filter(|l| l.float.is_some()).count();
    if floats == 0 {
        return None;
    }
    let parts = leaves
        .iter()
        .map(|l| {
            let ty = match l.float {
                Some(k) => float_ir(k)?,
                None => l.ir?,
            };
            Some(Part {
                ty,
                offset: l.offset,
            })
        })
        .collect::<Option<Vec<Part>>>()?;
    Some(FloatParts { parts, hfa: false })
}
