//! The libc subset the oracle implements for declared externals.
//!
//! Why: generated and hand-written programs print results and use a few memory and string
//! routines; the oracle gives them the meaning glibc gives (byte-exact output, the same
//! return values on x86-64) and calls every misuse undefined, so a reference run that
//! misuses libc is discarded rather than compared.
//!
//! Invariants:
//! - [`LibcFn::by_name`] is the whole supported set; `Program::new` refuses any other
//!   external, and any declaration whose shape (named parameter count, variadic or not)
//!   differs from the C prototype;
//! - arguments arrive canonical for the types written at the call; results are returned
//!   as raw bits and canonicalized by the caller in the call's return type;
//! - pointers are checked by [`Memory`] (bounds, liveness, initialisation); sizes are read
//!   unsigned; `memcpy`, `strcpy`, `strncpy` of overlapping ranges are undefined,
//!   `memmove` is not; `sprintf` writes its text and NUL through bounds-checked stores
//!   (so an overflowing buffer is undefined where it overflows); `free` of a
//!   pointer `malloc` did not return, or twice, is undefined; `malloc` past the memory
//!   limit returns null, as a real allocator may.

use super::ctype::CtypeFn;
use super::libc_files::FileFn;
use super::libc_os::OsFn;
use super::libc_signal::SignalFn;
use super::libc_sort::SortFn;
use super::libm::MathFn;
use super::memory::{AllocKind, Memory};
use super::output::Stdout;
use super::printf::printf;
use crate::outcome::Ub;
use compiler::ir::{IrDecl, IrType};

/// A supported libc function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LibcFn {
    Printf,
    Putchar,
    Puts,
    Abort,
    Exit,
    Memcpy,
    Memmove,
    Memset,
    Memcmp,
    Strcmp,
    Strlen,
    Strncmp,
    Malloc,
    Calloc,
    Free,
    Strcpy,
    Strncpy,
    Strchr,
    Strrchr,
    Sprintf,
    Memchr,
    /// GNU `mempcpy`: `memcpy` returning the end of the copy.
    Mempcpy,
    Snprintf,
    /// An exact `<math.h>` function (`libm.rs`).
    Math(MathFn),
    /// A `<ctype.h>` function (`ctype.rs`).
    Ctype(CtypeFn),
    /// `qsort`, `bsearch` (`libc_sort.rs`; run by the machine: they call back).
    Sort(SortFn),
    /// Files and `FILE *` streams, the standard ones too (`libc_files.rs`; run by the
    /// machine, which keeps the run's file system).
    File(FileFn),
    /// Anonymous memory mappings (`libc_os.rs`; run by the machine: `errno`).
    Os(OsFn),
    /// `signal`, `raise` (`libc_signal.rs`; run by the machine: handlers are called back).
    Signal(SignalFn),
}

/// The longest text one `sprintf` may produce (longer is `Undefined(OutputLimit)`).
const SPRINTF_MAX_BYTES: usize = 1 << 20;

/// How a libc call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LibcResult {
    /// Returned these bits (ignored for `void`).
    Value(u64),
    /// `exit(code)`.
    Exit(i32),
    /// `abort()`.
    Abort,
}

impl LibcFn {
    const ALL: [LibcFn; 23] = [
        LibcFn::Printf,
        LibcFn::Putchar,
        LibcFn::Puts,
        LibcFn::Abort,
        LibcFn::Exit,
        LibcFn::Memcpy,
        LibcFn::Memmove,
        LibcFn::Memset,
        LibcFn::Memcmp,
        LibcFn::Strcmp,
        LibcFn::Strlen,
        LibcFn::Strncmp,
        LibcFn::Malloc,
        LibcFn::Calloc,
        LibcFn::Free,
        LibcFn::Strcpy,
        LibcFn::Strncpy,
        LibcFn::Strchr,
        LibcFn::Strrchr,
        LibcFn::Sprintf,
        LibcFn::Memchr,
        LibcFn::Mempcpy,
        LibcFn::Snprintf,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LibcFn::Printf => "printf",
            LibcFn::Putchar => "putchar",
            LibcFn::Puts => "puts",
            LibcFn::Abort => "abort",
            LibcFn::Exit => "exit",
            LibcFn::Memcpy => "memcpy",
            LibcFn::Memmove => "memmove",
            LibcFn::Memset => "memset",
            LibcFn::Memcmp => "memcmp",
            LibcFn::Strcmp => "strcmp",
            LibcFn::Strlen => "strlen",
            LibcFn::Strncmp => "strncmp",
            LibcFn::Malloc => "malloc",
            LibcFn::Calloc => "calloc",
            LibcFn::Free => "free",
            LibcFn::Strcpy => "strcpy",
            LibcFn::Strncpy => "strncpy",
            LibcFn::Strchr => "strchr",
            LibcFn::Strrchr => "strrchr",
            LibcFn::Sprintf => "sprintf",
            LibcFn::Memchr => "memchr",
            LibcFn::Mempcpy => "mempcpy",
            LibcFn::Snprintf => "snprintf",
            LibcFn::Math(m) => m.name(),
            LibcFn::Ctype(c) => c.name(),
            LibcFn::Sort(s) => s.name(),
            LibcFn::File(f) => f.name(),
            LibcFn::Os(o) => o.name(),
            LibcFn::Signal(s) => s.name(),
        }
    }

    /// The supported function called `name`.
    pub fn by_name(name: &str) -> Option<LibcFn> {
        LibcFn::ALL
            .iter()
            .copied()
            .find(|f| f.name() == name)
            .or_else(|| MathFn::by_name(name).map(LibcFn::Math))
            .or_else(|| CtypeFn::by_name(name).map(LibcFn::Ctype))
            .or_else(|| SortFn::by_name(name).map(LibcFn::Sort))
            .or_else(|| FileFn::by_name(name).map(LibcFn::File))
            .or_else(|| OsFn::by_name(name).map(LibcFn::Os))
            .or_else(|| SignalFn::by_name(name).map(LibcFn::Signal))
    }

    /// Whether the machine runs it (`exec/callback.rs`): it calls back into the program
    /// or keeps state of the run beyond memory and stdout.
    pub fn needs_machine(self) -> bool {
        matches!(
            self,
            LibcFn::Sort(_) | LibcFn::File(_) | LibcFn::Os(_) | LibcFn::Signal(_)
        )
    }

    /// Named parameters of the C prototype, and whether it is variadic.
    pub(crate) fn prototype(self) -> (usize, bool) {
        match self {
            LibcFn::Sort(s) => (s.arity(), false),
            LibcFn::File(f) => f.prototype(),
            LibcFn::Os(o) => (o.arity(), false),
            LibcFn::Signal(s) => (s.arity(), false),
            LibcFn::Printf => (1, true),
            LibcFn::Sprintf => (2, true),
            LibcFn::Snprintf => (3, true),
            LibcFn::Ctype(_) => (1, false),
            LibcFn::Abort => (0, false),
            LibcFn::Math(m) => (m.arity(), false),
            LibcFn::Putchar
            | LibcFn::Puts
            | LibcFn::Exit
            | LibcFn::Strlen
            | LibcFn::Malloc
            | LibcFn::Free => (1, false),
            LibcFn::Strcmp | LibcFn::Calloc | LibcFn::Strcpy | LibcFn::Strchr | LibcFn::Strrchr => {
                (2, false)
            }
            LibcFn::Memcpy
            | LibcFn::Memmove
            | LibcFn::Memset
            | LibcFn::Memcmp
            | LibcFn::Strncmp
            | LibcFn::Strncpy
            | LibcFn::Memchr
            | LibcFn::Mempcpy => (3, false),
        }
    }

    /// Checks that a declaration has the C prototype's shape.
    pub fn check_decl(self, decl: &IrDecl) -> Result<(), String> {
        let (named, variadic) = self.prototype();
        if decl.params.len() != named || decl.variadic != variadic {
            return Err(format!(
                "@{} is declared with {} parameter(s){}, but libc's {} takes {}{}",
                decl.name,
                decl.params.len(),
                if decl.variadic { " and ..." } else { "" },
                self.name(),
                named,
                if variadic { " and ..." } else { "" }
            ));
        }
        Ok(())
    }
}

/// Runs `f` on `args` (each canonical for its type at the call).
pub(crate) fn call(
    f: LibcFn,
    args: &[(IrType, u64)],
    mem: &mut Memory,
    out: &mut Stdout,
    ptr_bytes: u32,
) -> Result<LibcResult, Ub> {
    let (named, variadic) = f.prototype();
    if args.len() < named || (!variadic && args.len() != named) {
        return Err(Ub::BadCall);
    }
    let arg = |i: usize| args[i].1;
    let value = match f {
        LibcFn::Printf => printf(mem, out, arg(0), &args[1..], ptr_bytes)?,
        LibcFn::Putchar => {
            let c = arg(0) as u8;
            out.write(&[c])?;
            c as u64
        }
        LibcFn::Puts => {
            let s = mem.c_string(arg(0), None)?;
            let n = s.len() as u64 + 1;
            out.write(s)?;
            out.write(b"\n")?;
            // glibc returns the number of bytes written, capped at INT_MAX.
            n.min(i32::MAX as u64)
        }
        LibcFn::Abort => return Ok(LibcResult::Abort),
        LibcFn::Math(m) => m.call(args, mem)?,
        LibcFn::Exit => return Ok(LibcResult::Exit(arg(0) as i32)),
        LibcFn::Memcpy | LibcFn::Memmove => {
            mem.copy(arg(0), arg(1), arg(2), f == LibcFn::Memmove)?;
            arg(0)
        }
        LibcFn::Memset => {
            mem.fill(arg(0), arg(1) as u8, arg(2))?;
            arg(0)
        }
        LibcFn::Memcmp => {
            let n = arg(2);
            let a = mem.read_bytes(arg(0), n)?;
            let b = mem.read_bytes(arg(1), n)?;
            byte_difference(a, b, false)
        }
        LibcFn::Strcmp => {
            let a = mem.c_string(arg(0), None)?;
            let b = mem.c_string(arg(1), None)?;
            byte_difference(a, b, true)
        }
        LibcFn::Strncmp => {
            let n = arg(2);
            let a = mem.c_string(arg(0), Some(n))?;
            let b = mem.c_string(arg(1), Some(n))?;
            byte_difference(a, b, a.len() < n as usize || b.len() < n as usize)
        }
        LibcFn::Strlen => mem.c_string(arg(0), None)?.len() as u64,
        LibcFn::Malloc => heap_block(mem, Some(arg(0)), false),
        LibcFn::Calloc => heap_block(mem, arg(0).checked_mul(arg(1)), true),
        LibcFn::Free => {
            if arg(0) != 0 {
                mem.free(arg(0))?;
            }
            0
        }
        LibcFn::Strcpy => {
            // The terminating NUL too; overlapping strings are undefined (`copy`).
            let n = mem.c_string(arg(1), None)?.len() as u64;
            mem.copy(arg(0), arg(1), n + 1, false)?;
            arg(0)
        }
        LibcFn::Strncpy => {
            // At most `n` bytes of the string, then NULs up to `n` bytes in all.
            let n = arg(2);
            let len = mem.c_string(arg(1), Some(n))?.len() as u64;
            mem.copy(arg(0), arg(1), len, false)?;
            mem.fill(arg(0).wrapping_add(len), 0, n - len)?;
            arg(0)
        }
        LibcFn::Strchr | LibcFn::Strrchr => {
            // The character converted to `char`; the terminating NUL can be found.
            let s = mem.c_string(arg(0), None)?;
            let c = arg(1) as u8;
            let at = if c == 0 {
                Some(s.len())
            } else if f == LibcFn::Strchr {
                s.iter().position(|&b| b == c)
            } else {
                s.iter().rposition(|&b| b == c)
            };
            at.map_or(0, |i| arg(0).wrapping_add(i as u64))
        }
        LibcFn::Ctype(c) => c.call(arg(0))?,
        // Run by the machine (`exec/callback.rs`), never here.
        LibcFn::Sort(_) | LibcFn::File(_) | LibcFn::Os(_) | LibcFn::Signal(_) => {
            return Err(Ub::BadLibcCall)
        }
        LibcFn::Mempcpy => {
            mem.copy(arg(0), arg(1), arg(2), false)?;
            arg(0).wrapping_add(arg(2))
        }
        LibcFn::Memchr => {
            // As if reading byte by byte, stopping at the first match (C11 7.24.5.1).
            let c = arg(1) as u8;
            let mut found = 0;
            for i in 0..arg(2) {
                let at = arg(0).wrapping_add(i);
                if mem.load(at, 1)? as u8 == c {
                    found = at;
                    break;
                }
            }
            found
        }
        LibcFn::Snprintf => {
            // The whole text's length is returned; at most `n - 1` bytes and a NUL are
            // stored (nothing when `n` is 0).
            let mut text = Stdout::new(SPRINTF_MAX_BYTES);
            let n = printf(mem, &mut text, arg(2), &args[3..], ptr_bytes)?;
            let bytes = text.into_bytes();
            let limit = arg(1);
            if limit > 0 {
                let kept = (bytes.len() as u64).min(limit - 1) as usize;
                for (i, &b) in bytes[..kept].iter().chain(&[0]).enumerate() {
                    mem.store(arg(0).wrapping_add(i as u64), 1, u64::from(b))?;
                }
            }
            n
        }
        LibcFn::Sprintf => {
            let mut text = Stdout::new(SPRINTF_MAX_BYTES);
            let n = printf(mem, &mut text, arg(1), &args[2..], ptr_bytes)?;
            let bytes = text.into_bytes();
            for (i, &b) in bytes.iter().chain(&[0]).enumerate() {
                mem.store(arg(0).wrapping_add(i as u64), 1, u64::from(b))?;
            }
            n
        }
    };
    Ok(LibcResult::Value(value))
}

/// The difference of the first differing bytes (as unsigned chars), as glibc on x86-64
/// returns it; 0 when equal. With `terminated`, the shorter string's NUL takes part.
fn byte_difference(a: &[u8], b: &[u8], terminated: bool) -> u64 {
    let n = a.len().min(b.len());
    for i in 0..n {
        if a[i] != b[i] {
            return (a[i] as i64 - b[i] as i64) as u64;
        }
    }
    if terminated && a.len() != b.len() {
        let x = a.get(n).copied().unwrap_or(0) as i64;
        let y = b.get(n).copied().unwrap_or(0) as i64;
        return (x - y) as u64;
    }
    0
}

/// `malloc`/`calloc`: a fresh heap block (16-aligned), or null when too large.
fn heap_block(mem: &mut Memory, size: Option<u64>, zeroed: bool) -> u64 {
    let Some(size) = size else {
        return 0;
    };
    let Some((_, addr)) = mem.allocate(size, 16, AllocKind::Heap) else {
        return 0;
    };
    if zeroed {
        // Cannot fail: the block was just made, live and writable.
        let _ = mem.fill(addr, 0, size);
    }
    addr
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(mem: &mut Memory, s: &[u8]) -> u64 {
        let (id, addr) = mem.allocate(s.len() as u64, 1, AllocKind::Global).unwrap();
        mem.set_global_bytes(id, 0, s);
        addr
    }

    fn call8(f: LibcFn, args: &[u64], mem: &mut Memory, out: &mut Stdout) -> Result<u64, Ub> {
        let typed: Vec<(IrType, u64)> = args.iter().map(|&a| (IrType::U64, a)).collect();
        match call(f, &typed, mem, out, 8)? {
            LibcResult::Value(v) => Ok(v),
            other => panic!("{other:?}"),
        }
    }

    /// Every function phicc's own headers (`compiler/include/*.h`) declare is one the
    /// oracle runs, except the transcendental `math.h` functions it refuses by name, and
    /// the functions the compiler computes in IR (no call reaches the oracle).
    #[test]
    fn phicc_headers_declare_only_supported_functions() {
        const FLOAT_ONLY: [&str; 19] = crate::interp::libm::UNMODELLED;
        // `alloca` is a `dynalloca` (compiler/src/lowering/dyn_stack.rs).
        const COMPUTED_IN_IR: [&str; 1] = ["alloca"];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../compiler/include");
        let mut seen = 0;
        // The headers of the directory and of its subdirectories (`sys/`).
        let mut paths = Vec::new();
        let mut pending = vec![dir];
        while let Some(d) = pending.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    paths.push(path);
                }
            }
        }
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines() {
                // Prototypes are the lines `type name(params);` at the start of a line.
                let line = line.trim_end();
                if line.starts_with([' ', '*', '/', '#'])
                    || line.starts_with("typedef")
                    || !line.ends_with(");")
                {
                    continue;
                }
                let Some(open) = line.find('(') else { continue };
                let name = line[..open]
                    .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("");
                if FLOAT_ONLY.contains(&name) || COMPUTED_IN_IR.contains(&name) {
                    continue;
                }
                seen += 1;
                assert!(
                    LibcFn::by_name(name).is_some()
                        || crate::interp::va::VaFn::by_name(name).is_some()
                        || crate::interp::exec::setjmp::JmpFn::by_name(name).is_some(),
                    "{} declares {name}, which the oracle does not implement",
                    path.display()
                );
            }
        }
        // printf puts putchar abort exit malloc calloc free memcpy memmove memset memcmp
        // strcmp strncmp strlen (abort twice: stdlib.h and assert.h).
        assert!(seen >= 15, "only {seen} prototypes found");
    }

    #[test]
    fn strings_compare_like_glibc() {
        let mut mem = Memory::new(8);
        let mut out = Stdout::new(100);
        let abc = string(&mut mem, b"abc\0");
        let abd = string(&mut mem, b"abd\0");
        let ab = string(&mut mem, b"ab\0");
        let cmp = |m: &mut Memory, o: &mut Stdout, a, b| {
            call8(LibcFn::Strcmp, &[a, b], m, o).unwrap() as i64
        };
        assert_eq!(cmp(&mut mem, &mut out, abc, abd), -1);
        assert_eq!(cmp(&mut mem, &mut out, abd, abc), 1);
        assert_eq!(cmp(&mut mem, &mut out, abc, ab), b'c' as i64);
        assert_eq!(cmp(&mut mem, &mut out, ab, abc), -(b'c' as i64));
        assert_eq!(cmp(&mut mem, &mut out, abc, abc), 0);
        assert_eq!(
            call8(LibcFn::Strncmp, &[abc, abd, 2], &mut mem, &mut out),
            Ok(0)
        );
        assert_eq!(
            call8(LibcFn::Strncmp, &[ab, abc, 3], &mut mem, &mut out).map(|v| v as i64),
            Ok(-99)
        );
        assert_eq!(call8(LibcFn::Strlen, &[abc], &mut mem, &mut out), Ok(3));
        assert_eq!(
            call8(LibcFn::Memcmp, &[abc, abd, 3], &mut mem, &mut out).map(|v| v as i64),
            Ok(-1)
        );
        assert_eq!(
            call8(LibcFn::Memcmp, &[abc, abd, 2], &mut mem, &mut out),
            Ok(0)
        );
    }

    #[test]
    fn heap_and_memory_routines() {
        let mut mem = Memory::new(8);
        let mut out = Stdout::new(100);
        let p = call8(LibcFn::Malloc, &[8], &mut mem, &mut out).unwrap();
        assert_ne!(p, 0);
        assert_eq!(mem.load(p, 1), Err(Ub::UninitRead));
        call8(LibcFn::Memset, &[p, 0x141, 8], &mut mem, &mut out).unwrap();
        assert_eq!(mem.load(p, 2), Ok(0x4141));
        let q = call8(LibcFn::Calloc, &[2, 4], &mut mem, &mut out).unwrap();
        assert_eq!(mem.load(q, 8), Ok(0));
        assert_eq!(
            call8(LibcFn::Calloc, &[u64::MAX, 2], &mut mem, &mut out),
            Ok(0)
        );
        assert_eq!(
            call8(LibcFn::Malloc, &[u64::MAX], &mut mem, &mut out),
            Ok(0)
        );
        call8(LibcFn::Free, &[p], &mut mem, &mut out).unwrap();
        call8(LibcFn::Free, &[0], &mut mem, &mut out).unwrap();
        assert_eq!(
            call8(LibcFn::Free, &[p], &mut mem, &mut out),
            Err(Ub::BadLibcCall)
        );
        assert_eq!(
            call8(LibcFn::Memcpy, &[q, p, 1], &mut mem, &mut out),
            Err(Ub::UseAfterFree)
        );
        assert_eq!(
            call8(LibcFn::Memmove, &[q + 1, q, 4], &mut mem, &mut out),
            Ok(q + 1)
        );
        assert_eq!(
            call8(LibcFn::Memcpy, &[q + 1, q, 4], &mut mem, &mut out),
            Err(Ub::MemcpyOverlap)
        );
    }

    #[test]
    fn string_copies_and_searches() {
        let mut mem = Memory::new(8);
        let mut out = Stdout::new(100);
        let abca = string(&mut mem, b"abca\0");
        let (_, buf) = mem.allocate(8, 1, AllocKind::Heap).unwrap();
        assert_eq!(
            call8(LibcFn::Strcpy, &[buf, abca], &mut mem, &mut out),
            Ok(buf)
        );
        assert_eq!(mem.read_bytes(buf, 5), Ok(&b"abca\0"[..]));
        assert_eq!(
            call8(LibcFn::Strcpy, &[buf + 1, buf], &mut mem, &mut out),
            Err(Ub::MemcpyOverlap)
        );
        assert_eq!(
            call8(LibcFn::Strncpy, &[buf, abca, 8], &mut mem, &mut out),
            Ok(buf)
        );
        assert_eq!(mem.read_bytes(buf, 8), Ok(&b"abca\0\0\0\0"[..]));
        assert_eq!(
            call8(LibcFn::Strncpy, &[buf, abca, 9], &mut mem, &mut out),
            Err(Ub::OutOfBounds)
        );
        let find = |m: &mut Memory, o: &mut Stdout, f, c| call8(f, &[abca, c], m, o);
        assert_eq!(
            find(&mut mem, &mut out, LibcFn::Strchr, 'a' as u64),
            Ok(abca)
        );
        assert_eq!(
            find(&mut mem, &mut out, LibcFn::Strrchr, 'a' as u64),
            Ok(abca + 3)
        );
        assert_eq!(find(&mut mem, &mut out, LibcFn::Strchr, 'z' as u64), Ok(0));
        assert_eq!(
            find(&mut mem, &mut out, LibcFn::Strchr, 0x100),
            Ok(abca + 4)
        );
        assert_eq!(
            find(&mut mem, &mut out, LibcFn::Strrchr, 0x162),
            Ok(abca + 1)
        );
    }

    #[test]
    fn sprintf_writes_text_and_nul() {
        let mut mem = Memory::new(8);
        let mut out = Stdout::new(100);
        let fmt = string(&mut mem, b"x=%d;\0");
        let (_, buf) = mem.allocate(6, 1, AllocKind::Heap).unwrap();
        let args = [(IrType::Ptr, buf), (IrType::Ptr, fmt), (IrType::I32, 42)];
        assert_eq!(
            call(LibcFn::Sprintf, &args, &mut mem, &mut out, 8),
            Ok(LibcResult::Value(5))
        );
        assert_eq!(mem.read_bytes(buf, 6), Ok(&b"x=42;\0"[..]));
        let args = [(IrType::Ptr, buf), (IrType::Ptr, fmt), (IrType::I32, 420)];
        assert_eq!(
            call(LibcFn::Sprintf, &args, &mut mem, &mut out, 8),
            Err(Ub::OutOfBounds)
        );
        assert_eq!(out.into_bytes(), b"");
    }

    #[test]
    fn output_routines() {
        let mut mem = Memory::new(8);
        let mut out = Stdout::new(100);
        let hi = string(&mut mem, b"hi\0");
        assert_eq!(call8(LibcFn::Puts, &[hi], &mut mem, &mut out), Ok(3));
        assert_eq!(
            call8(LibcFn::Putchar, &[0x141], &mut mem, &mut out),
            Ok(0x41)
        );
        assert_eq!(out.into_bytes(), b"hi\nA");
        let mut out = Stdout::new(100);
        let typed = [(IrType::I32, (-3i64) as u64)];
        assert_eq!(
            call(LibcFn::Exit, &typed, &mut mem, &mut out, 8),
            Ok(LibcResult::Exit(-3))
        );
        assert_eq!(
            call(LibcFn::Abort, &[], &mut mem, &mut out, 8),
            Ok(LibcResult::Abort)
        );
        assert_eq!(
            call(LibcFn::Abort, &typed, &mut mem, &mut out, 8),
            Err(Ub::BadCall)
        );
    }
}
