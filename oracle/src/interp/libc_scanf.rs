//! `fscanf`'s format engine (C11 7.21.6.2), over any byte source.
//!
//! Why it exists: c-torture's `fprintf-2.c` and `printf-2.c` read back the file they wrote
//! with `fscanf (f, "%s", buf)`; the engine is separate from the files (`libc_files.rs`)
//! so that another source (`sscanf`'s string) can use it.
//!
//! Supported: white space (skips any), ordinary bytes (must match), `%%`, and the
//! conversions `d i u x X o` (integers, stored in the width the length modifier `hh h l ll
//! z j` gives), `s`, `c`, `n`, each with `*` (no assignment) and a field width. Anything
//! else (`[`, floating conversions, `p`) is `BadLibcCall`: no verdict, never a guess.
//!
//! Semantics as glibc's: leading white space is skipped before every conversion except
//! `c` and `n`; the result is the number of assignments, or `EOF` (-1) when the input ends
//! before the first conversion; an integer out of range is stored truncated to its width
//! (glibc's `strtol` saturates before that for `l`/`ll`: a difference a program sees only
//! on out-of-range input, which C leaves undefined, C11 7.21.6.2p10).

use super::memory::Memory;
use crate::outcome::Ub;
use compiler::ir::IrType;

/// Where the bytes come from.
pub(crate) trait ByteSource {
    /// The next byte, not consumed (`None` at the end).
    fn peek(&mut self) -> Result<Option<u8>, Ub>;
    /// The next byte, consumed.
    fn next(&mut self) -> Result<Option<u8>, Ub>;
}

/// Runs the format at `fmt_addr` on `src`, storing through the pointers of `args`.
pub(crate) fn fscanf(
    mem: &mut Memory,
    mut src: impl ByteSource,
    fmt_addr: u64,
    args: &[(IrType, u64)],
    ptr_bytes: u32,
) -> Result<u64, Ub> {
    let fmt = mem.c_string(fmt_addr, None)?.to_vec();
    let mut assigned = 0u64;
    let mut conversions = 0u64;
    let mut consumed = 0u64;
    let mut next_arg = 0usize;
    let mut i = 0;
    // The result when the input ends: EOF before any conversion, else the count.
    macro_rules! input_failure {
        () => {
            return Ok(if conversions == 0 { u64::MAX } else { assigned })
        };
    }
    macro_rules! skip_space {
        () => {
            while let Some(b) = src.peek()? {
                if !b.is_ascii_whitespace() {
                    break;
                }
                src.next()?;
                consumed += 1;
            }
        };
    }
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c.is_ascii_whitespace() {
            skip_space!();
            continue;
        }
        if c != b'%' {
            match src.peek()? {
                None => input_failure!(),
                Some(b) if b == c => {
                    src.next()?;
                    consumed += 1;
                    continue;
                }
                Some(_) => return Ok(assigned),
            }
        }
        let suppress = fmt.get(i) == Some(&b'*');
        if suppress {
            i += 1;
        }
        let mut width = 0usize;
        while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
            width = width.saturating_mul(10).saturating_add((d - b'0') as usize);
            i += 1;
        }
        let mut size = 4usize;
        loop {
            match fmt.get(i) {
                Some(b'h') if fmt.get(i + 1) == Some(&b'h') => {
                    size = 1;
                    i += 2;
                }
                Some(b'h') => {
                    size = 2;
                    i += 1;
                }
                Some(b'l') if fmt.get(i + 1) == Some(&b'l') => {
                    size = 8;
                    i += 2;
                }
                Some(b'l') | Some(b'z') => {
                    size = ptr_bytes as usize;
                    i += 1;
                }
                Some(b'j') => {
                    size = 8;
                    i += 1;
                }
                _ => break,
            }
        }
        let Some(&conv) = fmt.get(i) else {
            return Err(Ub::BadLibcCall);
        };
        i += 1;
        let mut target = || -> Result<u64, Ub> {
            let a = args.get(next_arg).ok_or(Ub::BadLibcCall)?.1;
            next_arg += 1;
            Ok(a)
        };
        match conv {
            b'%' => {
                skip_space!();
                match src.peek()? {
                    None => input_failure!(),
                    Some(b'%') => {
                        src.next()?;
                        consumed += 1;
                    }
                    Some(_) => return Ok(assigned),
                }
            }
            b'n' => {
                if !suppress {
                    let p = target()?;
                    mem.store(p, size, consumed)?;
                }
            }
            b'c' => {
                let n = if width == 0 { 1 } else { width };
                let mut bytes = Vec::with_capacity(n);
                while bytes.len() < n {
                    match src.next()? {
                        Some(b) => bytes.push(b),
                        None => break,
                    }
                }
                if bytes.len() < n {
                    input_failure!();
                }
                consumed += n as u64;
                conversions += 1;
                if !suppress {
                    let p = target()?;
                    for (k, &b) in bytes.iter().enumerate() {
                        mem.store(p.wrapping_add(k as u64), 1, u64::from(b))?;
                    }
                    assigned += 1;
                }
            }
            b's' => {
                skip_space!();
                let limit = if width == 0 { usize::MAX } else { width };
                let mut bytes = Vec::new();
                while bytes.len() < limit {
                    match src.peek()? {
                        Some(b) if !b.is_ascii_whitespace() => {
                            src.next()?;
                            bytes.push(b);
                        }
                        _ => break,
                    }
                }
                if bytes.is_empty() {
                    input_failure!();
                }
                consumed += bytes.len() as u64;
                conversions += 1;
                if !suppress {
                    let p = target()?;
                    for (k, &b) in bytes.iter().chain(&[0]).enumerate() {
                        mem.store(p.wrapping_add(k as u64), 1, u64::from(b))?;
                    }
                    assigned += 1;
                }
            }
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' => {
                skip_space!();
                if src.peek()?.is_none() {
                    input_failure!();
                }
                let limit = if width == 0 { usize::MAX } else { width };
                let mut taken = 0usize;
                let mut negative = false;
                if let Some(s @ (b'+' | b'-')) = src.peek()? {
                    if taken < limit {
                        negative = s == b'-';
                        src.next()?;
                        taken += 1;
                    }
                }
                let mut base: u32 = match conv {
                    b'd' | b'u' => 10,
                    b'x' | b'X' => 16,
                    b'o' => 8,
                    _ => 0,
                };
                let mut digits = 0usize;
                if (base == 0 || base == 16) && taken < limit && src.peek()? == Some(b'0') {
                    src.next()?;
                    taken += 1;
                    digits = 1;
                    if taken < limit && matches!(src.peek()?, Some(b'x' | b'X')) {
                        src.next()?;
                        taken += 1;
                        base = 16;
                        digits = 0;
                    } else if base == 0 {
                        base = 8;
                    }
                }
                if base == 0 {
                    base = 10;
                }
                let mut value: u64 = 0;
                while taken < limit {
                    let Some(d) = src.peek()?.and_then(|b| (b as char).to_digit(base)) else {
                        break;
                    };
                    src.next()?;
                    taken += 1;
                    digits += 1;
                    value = value
                        .wrapping_mul(u64::from(base))
                        .wrapping_add(u64::from(d));
                }
                consumed += taken as u64;
                if digits == 0 {
                    // A matching failure (the sign or `0x` read is lost, as in glibc).
                    return Ok(assigned);
                }
                conversions += 1;
                if negative {
                    value = value.wrapping_neg();
                }
                if !suppress {
                    let p = target()?;
                    mem.store(p, size, value)?;
                    assigned += 1;
                }
            }
            _ => return Err(Ub::BadLibcCall),
        }
    }
    Ok(assigned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::memory::AllocKind;

    struct Bytes<'a>(&'a [u8]);

    impl ByteSource for Bytes<'_> {
        fn peek(&mut self) -> Result<Option<u8>, Ub> {
            Ok(self.0.first().copied())
        }
        fn next(&mut self) -> Result<Option<u8>, Ub> {
            let b = self.0.first().copied();
            if b.is_some() {
                self.0 = &self.0[1..];
            }
            Ok(b)
        }
    }

    fn global(mem: &mut Memory, bytes: &[u8]) -> u64 {
        let (id, p) = mem
            .allocate(bytes.len() as u64, 8, AllocKind::Global)
            .unwrap();
        mem.set_global_bytes(id, 0, bytes);
        p
    }

    /// Results worked by hand from C11 7.21.6.2 (and checked with glibc's `sscanf`).
    #[test]
    fn conversions_and_results() {
        let mut mem = Memory::new(8);
        let fmt = global(&mut mem, b"%d %s%n x%2c%%%*d %hhx\0");
        let int = global(&mut mem, &[0; 4]);
        let buf = global(&mut mem, &[0; 16]);
        let n = global(&mut mem, &[0; 4]);
        let two = global(&mut mem, &[0; 2]);
        let byte = global(&mut mem, &[0; 1]);
        let args = [
            (IrType::Ptr, int),
            (IrType::Ptr, buf),
            (IrType::Ptr, n),
            (IrType::Ptr, two),
            (IrType::Ptr, byte),
        ];
        let got = fscanf(&mut mem, Bytes(b"  -42 word  xyz%17 0x1ff"), fmt, &args, 8);
        assert_eq!(got, Ok(4));
        assert_eq!(mem.load(int, 4), Ok((-42i32) as u32 as u64));
        assert_eq!(mem.read_bytes(buf, 5), Ok(&b"word\0"[..]));
        assert_eq!(mem.load(n, 4), Ok(10));
        assert_eq!(mem.read_bytes(two, 2), Ok(&b"yz"[..]));
        assert_eq!(mem.load(byte, 1), Ok(0xff));
        // End of input before the first conversion: EOF; a matching failure: the count.
        let fmt = global(&mut mem, b"%d\0");
        assert_eq!(fscanf(&mut mem, Bytes(b"  "), fmt, &args, 8), Ok(u64::MAX));
        assert_eq!(fscanf(&mut mem, Bytes(b"z"), fmt, &args, 8), Ok(0));
    }
}
