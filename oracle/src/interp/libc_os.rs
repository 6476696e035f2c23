//! Anonymous memory mappings: `mmap`, `munmap`, `mprotect` (POSIX `<sys/mman.h>`).
//!
//! Why it exists: c-torture's `loop-2f.c` and `loop-2g.c` map 64 KiB of anonymous memory
//! and walk pointers inside it. C says nothing about `mmap`; POSIX and Linux define it,
//! and the oracle gives what glibc 2.36 on Linux gives where a program can see it.
//!
//! Model:
//! - a mapping is one allocation of its length rounded up to whole 4 KiB pages, page
//!   aligned and zero-filled (as the kernel's anonymous pages); accesses inside it are
//!   checked like any object's, an access past its end is `OutOfBounds` (natively the
//!   next page may be mapped or not: no verdict either way is safe, so the judge's is
//!   the strict one), after `munmap` `UseAfterFree`; `free` of it is `BadLibcCall`;
//! - only anonymous mappings (`MAP_ANONYMOUS`, `fd` ignored as Linux ignores it) that
//!   are readable and writable: a file mapping, or `PROT_NONE`/read-only pages, are not
//!   modelled and end the run with `BadLibcCall` (no verdict). An access to a page its
//!   protection forbids raises `SIGSEGV` on POSIX (defined behaviour, not UB), and the
//!   oracle has no signal outcome to compare with the native's death, so it does not
//!   pretend to have one;
//! - `MAP_FIXED` cannot place the mapping at the requested address (the oracle's
//!   addresses carry provenance, `memory.rs`): the mapping goes elsewhere. A program that
//!   only uses the returned pointer (loop-2f, loop-2g) behaves the same; one that
//!   compares it with the requested address would not — a known limit of the model;
//! - `munmap` and `mprotect` work on whole mappings (from the start, the rounded length);
//!   a part of one is not modelled (`BadLibcCall`);
//! - errors as the kernel's: a zero length, neither `MAP_SHARED` nor `MAP_PRIVATE`, a
//!   misaligned offset or fixed address give `MAP_FAILED`/-1 and `errno = EINVAL`.

use super::libc_files::Files;
use super::memory::{AllocKind, Memory};
use crate::outcome::Ub;
use compiler::ir::IrType;

const PAGE: u64 = 4096;
const PROT_READ: u64 = 1;
const PROT_WRITE: u64 = 2;
const PROT_EXEC: u64 = 4;
const MAP_SHARED: u64 = 0x01;
const MAP_PRIVATE: u64 = 0x02;
const MAP_FIXED: u64 = 0x10;
const MAP_ANONYMOUS: u64 = 0x20;
const EINVAL: u32 = 22;

/// The mapping functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OsFn {
    Mmap,
    Munmap,
    Mprotect,
}

impl OsFn {
    pub fn by_name(name: &str) -> Option<OsFn> {
        match name {
            "mmap" => Some(OsFn::Mmap),
            "munmap" => Some(OsFn::Munmap),
            "mprotect" => Some(OsFn::Mprotect),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OsFn::Mmap => "mmap",
            OsFn::Munmap => "munmap",
            OsFn::Mprotect => "mprotect",
        }
    }

    /// Named parameters (none is variadic).
    pub fn arity(self) -> usize {
        match self {
            OsFn::Mmap => 6,
            OsFn::Munmap => 2,
            OsFn::Mprotect => 3,
        }
    }
}

/// `len` rounded up to whole pages (`None` when it overflows).
fn pages(len: u64) -> Option<u64> {
    len.checked_add(PAGE - 1).map(|l| l & !(PAGE - 1))
}

/// Runs `f` on `args`; `errno` lives in `files`.
pub(crate) fn call(
    f: OsFn,
    args: &[(IrType, u64)],
    mem: &mut Memory,
    files: &mut Files,
    ptr_bytes: u32,
) -> Result<u64, Ub> {
    if args.len() != f.arity() {
        return Err(Ub::BadCall);
    }
    let arg = |i: usize| args[i].1;
    let failed = if ptr_bytes == 4 {
        u64::from(u32::MAX)
    } else {
        u64::MAX
    };
    let rw = PROT_READ | PROT_WRITE;
    Ok(match f {
        OsFn::Mmap => {
            let (addr, len, prot, flags, off) = (arg(0), arg(1), arg(2), arg(3), arg(5));
            let prot = prot & 0xffff_ffff;
            let flags = flags & 0xffff_ffff;
            let invalid = len == 0
                || flags & (MAP_SHARED | MAP_PRIVATE) == 0
                || off & (PAGE - 1) != 0
                || (flags & MAP_FIXED != 0 && addr & (PAGE - 1) != 0)
                || prot & !(rw | PROT_EXEC) != 0;
            if invalid {
                files.set_errno(mem, EINVAL)?;
                return Ok(failed);
            }
            if flags & MAP_ANONYMOUS == 0 || prot & rw != rw {
                return Err(Ub::BadLibcCall);
            }
            let size = pages(len).ok_or(Ub::BadLibcCall)?;
            let (_, at) = mem
                .allocate(size, PAGE as u32, AllocKind::Mapped)
                .ok_or(Ub::OutputLimit)?;
            mem.fill(at, 0, size)?;
            at
        }
        OsFn::Munmap | OsFn::Mprotect => {
            let (addr, len) = (arg(0), arg(1));
            if len == 0 || addr & (PAGE - 1) != 0 {
                files.set_errno(mem, EINVAL)?;
                return Ok(failed);
            }
            let whole = mem
                .mapping_size(addr)
                .is_some_and(|s| Some(s) == pages(len));
            if !whole {
                return Err(Ub::BadLibcCall);
            }
            if f == OsFn::Munmap {
                mem.unmap(addr)?;
            } else if arg(2) & rw != rw {
                return Err(Ub::BadLibcCall);
            }
            0
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: OsFn, args: &[u64], mem: &mut Memory, files: &mut Files) -> Result<u64, Ub> {
        let typed: Vec<(IrType, u64)> = args.iter().map(|&a| (IrType::U64, a)).collect();
        call(f, &typed, mem, files, 8)
    }

    #[test]
    fn anonymous_mappings_are_zeroed_pages() {
        let mut mem = Memory::new(8);
        let mut files = Files::default();
        let p = run(
            OsFn::Mmap,
            &[0, 5000, 3, 0x22, u64::MAX, 0],
            &mut mem,
            &mut files,
        )
        .unwrap();
        assert_eq!(p % PAGE, 0);
        assert_eq!(mem.load(p + 8191, 1), Ok(0));
        assert_eq!(mem.load(p + 8192, 1), Err(Ub::OutOfBounds));
        assert_eq!(mem.free(p), Err(Ub::BadLibcCall));
        assert_eq!(
            run(OsFn::Mprotect, &[p, 8192, 7], &mut mem, &mut files),
            Ok(0)
        );
        assert_eq!(
            run(OsFn::Mprotect, &[p, 4096, 0], &mut mem, &mut files),
            Err(Ub::BadLibcCall)
        );
        assert_eq!(run(OsFn::Munmap, &[p, 5000], &mut mem, &mut files), Ok(0));
        assert_eq!(mem.load(p, 1), Err(Ub::UseAfterFree));
        // Zero length and no sharing type: EINVAL; a file mapping: not modelled.
        assert_eq!(
            run(OsFn::Mmap, &[0, 0, 3, 0x22, 0, 0], &mut mem, &mut files),
            Ok(u64::MAX)
        );
        assert_eq!(
            run(OsFn::Mmap, &[0, 10, 3, 0x20, 0, 0], &mut mem, &mut files),
            Ok(u64::MAX)
        );
        assert_eq!(
            run(OsFn::Mmap, &[0, 10, 3, 0x02, 3, 0], &mut mem, &mut files),
            Err(Ub::BadLibcCall)
        );
    }
}
