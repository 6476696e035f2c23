//! `printf` with the integer conversions, byte-exact with glibc (the floating ones are
//! `printf_float.rs`).
//!
//! Why: the differential harness compares stdout byte for byte with native builds linked
//! against glibc, so the oracle's printf must print what glibc prints: conversions
//! `d i u x X o c s p %`, flags `- + space # 0`, field width and precision (digits or
//! `*`), length modifiers `hh h l ll z j t`.
//!
//! Invariants:
//! - every conversion that takes an argument checks it: present, and of the size the
//!   conversion reads after C's default promotions (`int` for `%d %c %hhd` and `*`,
//!   `long` and `size_t` of pointer width, `long long` 8 bytes), a `ptr` for `%s %p`;
//!   a `double` for `%f %e %g %a` (and their upper-case forms, `l` allowed);
//!   a mismatch, a missing argument, or a conversion outside the subset (`%Lf`, `%n`,
//!   `%1$d`, `%lc`, ...) is `Undefined(BadLibcCall)`, never a guess;
//! - the rules follow glibc's `vfprintf`: a precision turns the `0` flag off for
//!   integers; `-` beats `0`; `+` beats space; unsigned conversions ignore `+` and space;
//!   `#` adds `0x`/`0X` only to non-zero hex values and makes octal start with `0`; `%c` and
//!   `%s` pad with spaces; a null `%p` prints `(nil)`; `%%` takes no flags' effect;
//! - output goes through [`Stdout`], so a huge width ends the run at the stdout limit
//!   instead of allocating.

use super::memory::Memory;
use super::output::Stdout;
use crate::outcome::Ub;
use compiler::ir::IrType;

/// The variadic arguments, consumed in order within each class: a `double` conversion
/// takes the next `f64`, any other conversion the next non-`f64` argument. The call's IR
/// argument list is in the ABI's order — register arguments first, then the stack ones
/// (`lowering::abi`), and on x86-64 and AArch64 the floats, which have registers of their
/// own, are not in C order relative to the integers past the registers — but within each
/// class it is C's order, which is all `printf` needs (as glibc's `va_arg` cursors do).
/// `i8` fillers (registers left free before a stack argument) are skipped: no promoted
/// argument has that type. With 4-byte pointers (the ILP32 lowering, i686's: every
/// argument on the stack, the list in C's order) one cursor reads them all, so an `int`
/// where a `double` is due (or the reverse) stays `BadLibcCall` in the ILP32 judge; the
/// LP64 list cannot tell that apart, as x86-64's own `va_arg` cannot.
struct Args<'a> {
    list: &'a [(IrType, u64)],
    /// The next position the integer and pointer cursor (the only one when `!per_class`)
    /// looks at.
    next: usize,
    /// The next position the `double` cursor looks at.
    next_float: usize,
    per_class: bool,
}

impl Args<'_> {
    /// The next argument of the `double` class (`float`) or the other one, skipping
    /// fillers; `None` when there is none (or, with one cursor, when the next argument is
    /// of the other class).
    fn next_of_class(&mut self, float: bool) -> Option<(IrType, u64)> {
        if !self.per_class {
            while let Some(&(ty, v)) = self.list.get(self.next) {
                self.next += 1;
                if ty != IrType::I8 {
                    return ((ty == IrType::F64) == float).then_some((ty, v));
                }
            }
            return None;
        }
        let cursor = if float {
            &mut self.next_float
        } else {
            &mut self.next
        };
        while let Some(&(ty, v)) = self.list.get(*cursor) {
            *cursor += 1;
            if ty == IrType::I8 {
                continue;
            }
            if (ty == IrType::F64) == float {
                return Some((ty, v));
            }
        }
        None
    }

    /// The next argument, checked to be an integer of `size` bytes (or a pointer).
    fn take(&mut self, size: u32, pointer: bool, ptr_bytes: u32) -> Result<u64, Ub> {
        let (ty, v) = self.next_of_class(false).ok_or(Ub::BadLibcCall)?;
        let ok = if pointer {
            ty == IrType::Ptr
        } else {
            ty.is_integer() && ty.size(ptr_bytes) == size
        };
        if !ok {
            return Err(Ub::BadLibcCall);
        }
        Ok(v)
    }

    /// An `int` argument (for `*`).
    fn take_int(&mut self, ptr_bytes: u32) -> Result<i32, Ub> {
        Ok(self.take(4, false, ptr_bytes)? as i32)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Length {
    None,
    Char,
    Short,
    Long,
    LongLong,
    Size,
    Max,
    PtrDiff,
}

/// One parsed conversion specification.
#[derive(Clone, Copy, Debug, Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

/// Runs `printf(fmt_addr, args...)`; returns the number of bytes written.
pub(crate) fn printf(
    mem: &Memory,
    out: &mut Stdout,
    fmt_addr: u64,
    args: &[(IrType, u64)],
    ptr_bytes: u32,
) -> Result<u64, Ub> {
    let fmt = mem.c_string(fmt_addr, None)?;
    let start = out.len();
    let mut args = Args {
        list: args,
        next: 0,
        next_float: 0,
        per_class: ptr_bytes == 8,
    };
    let mut i = 0;
    while i < fmt.len() {
        let literal_end = fmt[i..]
            .iter()
            .position(|&b| b == b'%')
            .map_or(fmt.len(), |p| i + p);
        out.write(&fmt[i..literal_end])?;
        if literal_end == fmt.len() {
            break;
        }
        i = literal_end + 1;
        i = conversion(mem, out, fmt, i, &mut args, ptr_bytes)?;
    }
    Ok((out.len() - start) as u64)
}

/// Parses and prints one conversion starting after its `%`; returns the index after it.
fn conversion(
    mem: &Memory,
    out: &mut Stdout,
    fmt: &[u8],
    mut i: usize,
    args: &mut Args,
    ptr_bytes: u32,
) -> Result<usize, Ub> {
    let at = |i: usize| fmt.get(i).copied().unwrap_or(0);
    let mut spec = Spec::default();
    // Flags, in any order and repeated.
    loop {
        match at(i) {
            b'-' => spec.left = true,
            b'+' => spec.plus = true,
            b' ' => spec.space = true,
            b'#' => spec.alt = true,
            b'0' => spec.zero = true,
            _ => break,
        }
        i += 1;
    }
    // Field width: digits or `*` (a negative `*` width means `-` and its magnitude).
    if at(i) == b'*' {
        i += 1;
        let w = args.take_int(ptr_bytes)?;
        if w < 0 {
            spec.left = true;
        }
        spec.width = w.unsigned_abs() as usize;
    } else {
        let (w, next) = decimal(fmt, i)?;
        spec.width = w;
        i = next;
    }
    // Precision: `.` then digits (none means 0) or `*` (negative means none).
    if at(i) == b'.' {
        i += 1;
        if at(i) == b'*' {
            i += 1;
            let p = args.take_int(ptr_bytes)?;
            spec.precision = (p >= 0).then_some(p as usize);
        } else {
            let (p, next) = decimal(fmt, i)?;
            spec.precision = Some(p);
            i = next;
        }
    }
    let (length, next) = length_modifier(fmt, i);
    i = next;
    let conv = at(i);
    i += 1;
    let long_bytes = ptr_bytes; // ILP32 and LP64 alike: long is pointer-wide.
    let (int_size, bits) = match length {
        Length::None => (4, 32),
        Length::Char => (4, 8),
        Length::Short => (4, 16),
        Length::Long | Length::Size | Length::PtrDiff => (long_bytes, long_bytes * 8),
        Length::LongLong | Length::Max => (8, 64),
    };
    match conv {
        b'd' | b'i' => {
            let v = args.take(int_size, false, ptr_bytes)?;
            let shift = 64 - bits;
            let signed = ((v << shift) as i64) >> shift;
            let sign = if signed < 0 {
                Some(b'-')
            } else if spec.plus {
                Some(b'+')
            } else if spec.space {
                Some(b' ')
            } else {
                None
            };
            integer(out, &spec, sign, signed.unsigned_abs(), 10, false)?;
        }
        b'u' | b'o' | b'x' | b'X' => {
            let v = args.take(int_size, false, ptr_bytes)?;
            let shift = 64 - bits;
            let value = (v << shift) >> shift;
            let base = match conv {
                b'u' => 10,
                b'o' => 8,
                _ => 16,
            };
            integer(out, &spec, None, value, base, conv == b'X')?;
        }
        b'c' if length == Length::None => {
            let v = args.take(4, false, ptr_bytes)?;
            let pad = spec.width.saturating_sub(1);
            if !spec.left {
                out.repeat(b' ', pad)?;
            }
            out.write(&[v as u8])?;
            if spec.left {
                out.repeat(b' ', pad)?;
            }
        }
        b's' if length == Length::None => {
            let p = args.take(ptr_bytes, true, ptr_bytes)?;
            let s = mem.c_string(p, spec.precision.map(|p| p as u64))?;
            padded_string(out, &spec, s)?;
        }
        b'p' if length == Length::None => {
            let p = args.take(ptr_bytes, true, ptr_bytes)?;
            if p == 0 {
                padded_string(out, &spec, b"(nil)")?;
            } else {
                // glibc prints a pointer as `%#x` of its integer value, keeping the
                // `+` and space flags.
                let sign = if spec.plus {
                    Some(b'+')
                } else if spec.space {
                    Some(b' ')
                } else {
                    None
                };
                let spec = Spec { alt: true, ..spec };
                integer(out, &spec, sign, p, 16, false)?;
            }
        }
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A'
            if matches!(length, Length::None | Length::Long) =>
        {
            // `%lf` is `%f` (C99); a `float` argument arrives as a `double`.
            let (_, v) = args.next_of_class(true).ok_or(Ub::BadLibcCall)?;
            let float_spec = super::printf_float::FloatSpec {
                left: spec.left,
                plus: spec.plus,
                space: spec.space,
                alt: spec.alt,
                zero: spec.zero,
                width: spec.width,
                precision: spec.precision,
            };
            super::printf_float::print_float(out, &float_spec, conv, f64::from_bits(v))?;
        }
        b'%' if length == Length::None => out.write(b"%")?,
        _ => return Err(Ub::BadLibcCall),
    }
    Ok(i)
}

/// A run of decimal digits at `i` (possibly empty = 0); widths past `i32::MAX` are refused
/// like glibc refuses them.
fn decimal(fmt: &[u8], mut i: usize) -> Result<(usize, usize), Ub> {
    let mut n: usize = 0;
    while let Some(d) = fmt.get(i).filter(|b| b.is_ascii_digit()) {
        n = n * 10 + (d - b'0') as usize;
        if n > i32::MAX as usize {
            return Err(Ub::BadLibcCall);
        }
        i += 1;
    }
    Ok((n, i))
}

fn length_modifier(fmt: &[u8], i: usize) -> (Length, usize) {
    match (fmt.get(i), fmt.get(i + 1)) {
        (Some(b'h'), Some(b'h')) => (Length::Char, i + 2),
        (Some(b'h'), _) => (Length::Short, i + 1),
        (Some(b'l'), Some(b'l')) => (Length::LongLong, i + 2),
        (Some(b'l'), _) => (Length::Long, i + 1),
        (Some(b'z'), _) => (Length::Size, i + 1),
        (Some(b'j'), _) => (Length::Max, i + 1),
        (Some(b't'), _) => (Length::PtrDiff, i + 1),
        _ => (Length::None, i),
    }
}

/// A string padded with spaces to the field width.
fn padded_string(out: &mut Stdout, spec: &Spec, s: &[u8]) -> Result<(), Ub> {
    let pad = spec.width.saturating_sub(s.len());
    if !spec.left {
        out.repeat(b' ', pad)?;
    }
    out.write(s)?;
    if spec.left {
        out.repeat(b' ', pad)?;
    }
    Ok(())
}

/// An integer conversion: `[sign][0x][precision zeros]digits`, padded to the width.
fn integer(
    out: &mut Stdout,
    spec: &Spec,
    sign: Option<u8>,
    magnitude: u64,
    base: u64,
    upper: bool,
) -> Result<(), Ub> {
    let mut buf = [0u8; 24];
    let mut start = buf.len();
    let precision = spec.precision.unwrap_or(1);
    // A zero precision prints no digits for zero.
    if !(precision == 0 && magnitude == 0) {
        let digits: &[u8; 16] = if upper {
            b"0123456789ABCDEF"
        } else {
            b"0123456789abcdef"
        };
        let mut m = magnitude;
        loop {
            start -= 1;
            buf[start] = digits[(m % base) as usize];
            m /= base;
            if m == 0 {
                break;
            }
        }
    }
    if base == 8 && spec.alt {
        // `#o`: the result starts with 0, whether from the precision or an added digit.
        let len = buf.len() - start;
        if len == 0 || (magnitude != 0 && precision <= len) {
            start -= 1;
            buf[start] = b'0';
        }
    }
    let digits = &buf[start..];
    let zeros = precision.saturating_sub(digits.len());
    let prefix: &[u8] = if base == 16 && spec.alt && magnitude != 0 {
        if upper {
            b"0X"
        } else {
            b"0x"
        }
    } else {
        b""
    };
    let sign_len = sign.is_some() as usize;
    let body = sign_len + prefix.len() + zeros + digits.len();
    let fill = spec.width.saturating_sub(body);
    let zero_pad = spec.zero && !spec.left && spec.precision.is_none();
    if !spec.left && !zero_pad {
        out.repeat(b' ', fill)?;
    }
    if let Some(s) = sign {
        out.write(&[s])?;
    }
    out.write(prefix)?;
    out.repeat(b'0', zeros + if zero_pad { fill } else { 0 })?;
    out.write(digits)?;
    if spec.left {
        out.repeat(b' ', fill)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::memory::AllocKind;

    /// Formats `fmt` with integer `args` (each `(type, value)`), 8-byte pointers.
    fn fmt(f: &str, args: &[(IrType, i64)]) -> Result<String, Ub> {
        fmt_at(f, args, 8)
    }

    fn fmt_at(f: &str, args: &[(IrType, i64)], ptr_bytes: u32) -> Result<String, Ub> {
        let mut mem = Memory::new(ptr_bytes);
        let mut bytes = f.as_bytes().to_vec();
        bytes.push(0);
        let (id, addr) = mem
            .allocate(bytes.len() as u64, 1, AllocKind::ConstGlobal)
            .unwrap();
        mem.set_global_bytes(id, 0, &bytes);
        let args: Vec<(IrType, u64)> = args
            .iter()
            .map(|&(t, v)| (t, t.canonicalize(v as u64, ptr_bytes)))
            .collect();
        let mut out = Stdout::new(1 << 16);
        let n = printf(&mem, &mut out, addr, &args, ptr_bytes)?;
        let s = String::from_utf8(out.into_bytes()).unwrap();
        assert_eq!(n as usize, s.len());
        Ok(s)
    }

    use IrType::*;

    // Expected strings below are worked out from the C standard's rules by hand (and the
    // integration test `printf_matches_host_libc` checks the same cases against glibc).
    #[test]
    fn integers() {
        assert_eq!(fmt("%d|%i", &[(I32, -42), (I32, 7)]).unwrap(), "-42|7");
        assert_eq!(
            fmt("%5d|%-5d|%05d", &[(I32, -42), (I32, 42), (I32, -42)]).unwrap(),
            "  -42|42   |-0042"
        );
        assert_eq!(
            fmt("%+d|% d|%+ d", &[(I32, 5), (I32, 5), (I32, 5)]).unwrap(),
            "+5| 5|+5"
        );
        assert_eq!(
            fmt("%.3d|%8.3d|%08.3d", &[(I32, 7), (I32, -7), (I32, 7)]).unwrap(),
            "007|    -007|     007"
        );
        assert_eq!(
            fmt("%.0d|%.0u|%5.0x|", &[(I32, 0), (I32, 0), (I32, 0)]).unwrap(),
            "||     |"
        );
        assert_eq!(fmt("%u", &[(I32, -1)]).unwrap(), "4294967295");
        assert_eq!(
            fmt(
                "%x|%X|%#x|%#X|%#x",
                &[(I32, 255), (I32, 255), (I32, 255), (I32, 255), (I32, 0)]
            )
            .unwrap(),
            "ff|FF|0xff|0XFF|0"
        );
        assert_eq!(
            fmt(
                "%o|%#o|%#o|%#.0o|%#.4o",
                &[(I32, 8), (I32, 8), (I32, 0), (I32, 0), (I32, 8)]
            )
            .unwrap(),
            "10|010|0|0|0010"
        );
        assert_eq!(
            fmt("%#08x|%-#8x|", &[(I32, 26), (I32, 26)]).unwrap(),
            "0x00001a|0x1a    |"
        );
        assert_eq!(fmt("%+u|% x", &[(I32, 3), (I32, 3)]).unwrap(), "3|3");
        assert_eq!(fmt("%d", &[(I32, i32::MIN as i64)]).unwrap(), "-2147483648");
    }

    #[test]
    fn length_modifiers() {
        assert_eq!(
            fmt(
                "%hhd|%hhu|%hd|%hu",
                &[(I32, 255), (I32, -1), (I32, 40000), (I32, -1)]
            )
            .unwrap(),
            "-1|255|-25536|65535"
        );
        assert_eq!(
            fmt(
                "%ld|%lld|%jd|%zu|%td",
                &[
                    (I64, i64::MIN),
                    (I64, -1),
                    (I64, 1 << 40),
                    (U64, -1),
                    (I64, -3)
                ]
            )
            .unwrap(),
            "-9223372036854775808|-1|1099511627776|18446744073709551615|-3"
        );
        assert_eq!(fmt("%lx", &[(U64, -1)]).unwrap(), "ffffffffffffffff");
        // Under ILP32, long, size_t and ptrdiff_t are 4 bytes.
        assert_eq!(
            fmt_at("%ld|%zu|%lld", &[(I32, -1), (U32, -1), (I64, -1)], 4).unwrap(),
            "-1|4294967295|-1"
        );
        assert_eq!(fmt_at("%ld", &[(I64, 1)], 4), Err(Ub::BadLibcCall));
    }

    #[test]
    fn widths_from_arguments() {
        assert_eq!(
            fmt(
                "%*d|%-*d|%*d",
                &[(I32, 4), (I32, 1), (I32, 3), (I32, 2), (I32, -3), (I32, 3)]
            )
            .unwrap(),
            "   1|2  |3  "
        );
        assert_eq!(
            fmt("%.*d|%.*d", &[(I32, 3), (I32, 5), (I32, -1), (I32, 5)]).unwrap(),
            "005|5"
        );
    }

    #[test]
    fn characters_strings_pointers() {
        assert_eq!(
            fmt("%c|%3c|%-3c|", &[(I32, 65), (I32, 66), (I32, 67 + 256)]).unwrap(),
            "A|  B|C  |"
        );
        assert_eq!(fmt("%%|%5%", &[]).unwrap(), "%|%");
        assert_eq!(fmt("%p", &[(Ptr, 0)]).unwrap(), "(nil)");
        assert_eq!(fmt("%7p|", &[(Ptr, 0)]).unwrap(), "  (nil)|");
        assert_eq!(
            fmt("%p|%10p|", &[(Ptr, 0x1234), (Ptr, 0xab)]).unwrap(),
            "0x1234|      0xab|"
        );
    }

    #[test]
    fn strings_read_memory() {
        let mut mem = Memory::new(8);
        let (fid, f) = mem.allocate(16, 1, AllocKind::Global).unwrap();
        mem.set_global_bytes(fid, 0, b"[%s|%.2s|%5s]\0");
        let (sid, s) = mem.allocate(4, 1, AllocKind::Global).unwrap();
        mem.set_global_bytes(sid, 0, b"abc\0");
        let mut out = Stdout::new(100);
        let args = [(Ptr, s), (Ptr, s), (Ptr, s + 1)];
        printf(&mem, &mut out, f, &args, 8).unwrap();
        assert_eq!(out.into_bytes(), b"[abc|ab|   bc]");
    }

    #[test]
    fn bad_calls() {
        assert_eq!(fmt("%d", &[]), Err(Ub::BadLibcCall));
        assert_eq!(fmt("%d", &[(I64, 1)]), Err(Ub::BadLibcCall));
        assert_eq!(fmt("%ld", &[(I32, 1)]), Err(Ub::BadLibcCall));
        assert_eq!(fmt("%f", &[(I64, 1)]), Err(Ub::BadLibcCall));
        assert_eq!(fmt("%n", &[(Ptr, 1)]), Err(Ub::BadLibcCall));
        assert_eq!(fmt("%1$d", &[(I32, 1)]), Err(Ub::BadLibcCall));
        assert_eq!(fmt("%s", &[(Ptr, 0)]), Err(Ub::InvalidPointer));
        assert_eq!(fmt("%", &[]), Err(Ub::BadLibcCall));
        assert_eq!(fmt("%lc", &[(I32, 65)]), Err(Ub::BadLibcCall));
    }

    #[test]
    fn huge_width_hits_the_limit() {
        let mut mem = Memory::new(8);
        let (id, f) = mem.allocate(16, 1, AllocKind::Global).unwrap();
        mem.set_global_bytes(id, 0, b"%2000000000d\0");
        let mut out = Stdout::new(64);
        assert_eq!(
            printf(&mem, &mut out, f, &[(I32, 1)], 8),
            Err(Ub::OutputLimit)
        );
        assert_eq!(out.len(), 64);
    }

    #[test]
    fn doubles_and_integers_are_read_in_c_order_within_their_class() {
        let one_half = 1.5f64.to_bits() as i64;
        let two_half = 2.5f64.to_bits() as i64;
        // x86-64's IR order for printf("%.1f %d %.1f %d", 1.5, 2, 2.5, 4) past the
        // registers can put the doubles ahead of the integers: each class keeps C's order.
        let list = [
            (F64, one_half),
            (F64, two_half),
            (I32, 2),
            (I8, 0),
            (I32, 4),
        ];
        assert_eq!(fmt("%.1f %d %.1f %d", &list).unwrap(), "1.5 2 2.5 4");
        // With 4-byte pointers the list is C's order: a double where an int is due is UB.
        assert_eq!(
            fmt_at("%d %.1f", &[(F64, one_half), (I32, 2)], 4),
            Err(Ub::BadLibcCall)
        );
        assert_eq!(
            fmt_at("%.1f %d", &[(F64, one_half), (I32, 2)], 4).unwrap(),
            "1.5 2"
        );
        // A missing double is still missing when integers are left over.
        assert_eq!(fmt("%d %f", &[(I32, 1), (I32, 2)]), Err(Ub::BadLibcCall));
    }
}
