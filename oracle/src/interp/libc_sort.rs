//! `qsort` and `bsearch` (C11 7.22.5): the libc functions that call back into the
//! program's own code.
//!
//! Why it exists: c-torture's `pr34456.c` (and any program that sorts) hands `qsort` a
//! comparator the oracle must run as interpreted code, through the machine's normal call
//! path (`exec/callback.rs`), so every UB inside the comparator is caught where it happens.
//!
//! Which order of comparisons: the one of the glibc the natives link (2.36 on every
//! target here, statically). C leaves the algorithm open and defines the result only up
//! to the order of equal elements, but a program can observe more than the result: a
//! comparator with side effects (pr34456's counts calls that see a nonzero element, others
//! print) or one that is not a consistent total order (UB by C11 7.22.5p4, which the oracle
//! does not detect) sees the exact sequence of calls. So the oracle replays glibc's:
//! - `qsort` is glibc 2.36's `msort.c`: a top-down merge sort (halves `n / 2` and
//!   `n - n / 2`, left sorted first; the merge takes the left element when the comparator
//!   returns `<= 0`, so it is stable) through a scratch array. Elements of at most 32 bytes
//!   are moved themselves, and the comparator sees their current addresses inside the
//!   array; larger elements are sorted indirectly (an array of pointers to the unmoved
//!   elements, then one permutation), and the comparator sees their original addresses.
//!   glibc falls back to an in-place quicksort only when the scratch array cannot be had
//!   (`malloc` fails, or it would take more than a quarter of the machine's physical
//!   memory): the oracle's memory limit (256 MiB) keeps every run below that on the
//!   machines phihunt runs on, so it is not modelled; a scratch array past that limit
//!   ends the run as too big to judge (`OutputLimit`), never as a verdict on the program.
//! - `bsearch` is glibc's inline `bits/stdlib-bsearch.h`: `idx = (l + u) / 2`, the
//!   comparator called as `compar(key, element)`.
//!
//! Invariants: elements are moved with [`Memory::copy`], so initialisation and pointer
//! provenance travel with them as with `memcpy`; the scratch array is an oracle allocation
//! released before returning (also when the comparator ends the run, the run is over); an
//! array or key the comparator cannot be given (null with a nonzero count, out of bounds)
//! is reported by the first access, at the call.

use super::memory::{AllocKind, Memory};
use crate::outcome::{Outcome, Ub};

/// The sorting and searching functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SortFn {
    Qsort,
    Bsearch,
}

/// Why a sort stopped before returning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The sort itself misused memory (reported at the call).
    Ub(Ub),
    /// The comparator's run ended (its own UB, `exit`, `abort`, out of fuel).
    Ended(Outcome),
}

impl From<Ub> for Stop {
    fn from(u: Ub) -> Stop {
        Stop::Ub(u)
    }
}

/// What the sort needs from the machine: its memory and a way to run the comparator.
pub(crate) trait SortHost {
    fn mem(&mut self) -> &mut Memory;
    /// Runs the comparator on two element addresses; its `int` result.
    fn compare(&mut self, a: u64, b: u64) -> Result<i32, Stop>;
}

/// glibc's element size limit for direct sorting (`qsort_r` in `msort.c`).
const DIRECT_MAX_SIZE: u64 = 32;

impl SortFn {
    pub fn by_name(name: &str) -> Option<SortFn> {
        match name {
            "qsort" => Some(SortFn::Qsort),
            "bsearch" => Some(SortFn::Bsearch),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SortFn::Qsort => "qsort",
            SortFn::Bsearch => "bsearch",
        }
    }

    /// Named parameters of the C prototype (neither is variadic).
    pub fn arity(self) -> usize {
        match self {
            SortFn::Qsort => 4,
            SortFn::Bsearch => 5,
        }
    }
}

/// `qsort(base, n, size, compar)` (the comparator is the host's).
pub(crate) fn qsort(host: &mut dyn SortHost, base: u64, n: u64, size: u64) -> Result<(), Stop> {
    if n <= 1 {
        return Ok(());
    }
    let total = n.checked_mul(size).ok_or(Ub::BadLibcCall)?;
    if size > DIRECT_MAX_SIZE {
        return qsort_indirect(host, base, n, size, total);
    }
    let (_, tmp) = host
        .mem()
        .allocate(total, 16, AllocKind::Heap)
        .ok_or(Ub::OutputLimit)?;
    let sorted = merge_sort_direct(host, base, n, size, tmp);
    host.mem().free(tmp)?;
    sorted
}

/// `msort_with_tmp` for elements moved in place: sorts `n` elements at `b` using the
/// scratch array `tmp`.
fn merge_sort_direct(
    host: &mut dyn SortHost,
    b: u64,
    n: u64,
    size: u64,
    tmp: u64,
) -> Result<(), Stop> {
    if n <= 1 {
        return Ok(());
    }
    let (mut n1, mut n2) = (n / 2, n - n / 2);
    let (mut b1, mut b2) = (b, b.wrapping_add(n1 * size));
    merge_sort_direct(host, b1, n1, size, tmp)?;
    merge_sort_direct(host, b2, n2, size, tmp)?;
    let mut t = tmp;
    while n1 > 0 && n2 > 0 {
        if host.compare(b1, b2)? <= 0 {
            host.mem().copy(t, b1, size, false)?;
            b1 = b1.wrapping_add(size);
            n1 -= 1;
        } else {
            host.mem().copy(t, b2, size, false)?;
            b2 = b2.wrapping_add(size);
            n2 -= 1;
        }
        t = t.wrapping_add(size);
    }
    if n1 > 0 {
        host.mem().copy(t, b1, n1 * size, false)?;
    }
    host.mem().copy(b, tmp, (n - n2) * size, false)?;
    Ok(())
}

/// glibc's indirect sort of large elements: the comparisons of `msort_with_tmp` on an
/// array of pointers to the (unmoved) elements, then the elements permuted once.
fn qsort_indirect(
    host: &mut dyn SortHost,
    base: u64,
    n: u64,
    size: u64,
    total: u64,
) -> Result<(), Stop> {
    let mut order: Vec<u64> = (0..n).map(|i| base.wrapping_add(i * size)).collect();
    let mut scratch = vec![0u64; order.len()];
    merge_sort_indirect(host, &mut order, &mut scratch)?;
    let mem = host.mem();
    let (_, copy) = mem
        .allocate(total, 16, AllocKind::Heap)
        .ok_or(Ub::OutputLimit)?;
    mem.copy(copy, base, total, false)?;
    for (k, &from) in order.iter().enumerate() {
        let src = copy.wrapping_add(from.wrapping_sub(base));
        mem.copy(base.wrapping_add(k as u64 * size), src, size, false)?;
    }
    mem.free(copy)?;
    Ok(())
}

/// `msort_with_tmp` on pointers (`p->var == 3`): the comparator sees the pointed-to
/// elements.
fn merge_sort_indirect(
    host: &mut dyn SortHost,
    b: &mut [u64],
    tmp: &mut [u64],
) -> Result<(), Stop> {
    let n = b.len();
    if n <= 1 {
        return Ok(());
    }
    let n1 = n / 2;
    merge_sort_indirect(host, &mut b[..n1], tmp)?;
    merge_sort_indirect(host, &mut b[n1..], tmp)?;
    let (mut i, mut j, mut t) = (0, n1, 0);
    while i < n1 && j < n {
        if host.compare(b[i], b[j])? <= 0 {
            tmp[t] = b[i];
            i += 1;
        } else {
            tmp[t] = b[j];
            j += 1;
        }
        t += 1;
    }
    // The rest of the left run goes after the merged prefix; the right run's rest is
    // already in place.
    let left_rest = n1 - i;
    tmp[t..t + left_rest].copy_from_slice(&b[i..n1]);
    let settled = t + left_rest;
    b[..settled].copy_from_slice(&tmp[..settled]);
    Ok(())
}

/// `bsearch(key, base, n, size, compar)`: the element's address, or null.
pub(crate) fn bsearch(
    host: &mut dyn SortHost,
    key: u64,
    base: u64,
    n: u64,
    size: u64,
) -> Result<u64, Stop> {
    let (mut l, mut u) = (0u64, n);
    while l < u {
        let idx = (l + u) / 2;
        let p = base.wrapping_add(idx.wrapping_mul(size));
        let c = host.compare(key, p)?;
        if c < 0 {
            u = idx;
        } else if c > 0 {
            l = idx + 1;
        } else {
            return Ok(p);
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host whose comparator compares the `i32` elements and logs each call as the pair
    /// of element values.
    struct Ints {
        mem: Memory,
        log: Vec<(i32, i32)>,
        /// Compare only the low byte (to make equal elements).
        low_byte: bool,
    }

    impl SortHost for Ints {
        fn mem(&mut self) -> &mut Memory {
            &mut self.mem
        }
        fn compare(&mut self, a: u64, b: u64) -> Result<i32, Stop> {
            let x = self.mem.load(a, 4)? as u32 as i32;
            let y = self.mem.load(b, 4)? as u32 as i32;
            self.log.push((x, y));
            let (kx, ky) = if self.low_byte {
                (x & 0xff, y & 0xff)
            } else {
                (x, y)
            };
            Ok(kx.cmp(&ky) as i32)
        }
    }

    fn array(mem: &mut Memory, values: &[i32], elem: u64) -> u64 {
        let (_, p) = mem
            .allocate(values.len() as u64 * elem, 8, AllocKind::Heap)
            .unwrap();
        mem.fill(p, 0, values.len() as u64 * elem).unwrap();
        for (i, &v) in values.iter().enumerate() {
            mem.store(p + i as u64 * elem, 4, v as u32 as u64).unwrap();
        }
        p
    }

    fn read(mem: &Memory, p: u64, n: usize, elem: u64) -> Vec<i32> {
        (0..n)
            .map(|i| mem.load(p + i as u64 * elem, 4).unwrap() as u32 as i32)
            .collect()
    }

    /// The comparison sequence of glibc 2.36's merge sort, worked by hand for
    /// [3, 1, 2]: sort [3] and [1, 2] (compare 1,2), merge: 3 vs 1, 3 vs 2.
    #[test]
    fn qsort_compares_in_glibcs_order_and_is_stable() {
        for elem in [4u64, 40] {
            let mut h = Ints {
                mem: Memory::new(8),
                log: Vec::new(),
                low_byte: false,
            };
            let p = array(&mut h.mem, &[3, 1, 2], elem);
            qsort(&mut h, p, 3, elem).unwrap();
            assert_eq!(read(&h.mem, p, 3, elem), [1, 2, 3], "element size {elem}");
            assert_eq!(h.log, [(1, 2), (3, 1), (3, 2)], "element size {elem}");
            // Equal keys (low byte 1) keep their order: 0x101 before 0x201.
            let mut h = Ints {
                mem: Memory::new(4),
                log: Vec::new(),
                low_byte: true,
            };
            let p = array(&mut h.mem, &[0x101, 0x2, 0x201, 0x0], elem);
            qsort(&mut h, p, 4, elem).unwrap();
            assert_eq!(read(&h.mem, p, 4, elem), [0x0, 0x101, 0x201, 0x2]);
        }
    }

    #[test]
    fn bsearch_probes_the_middle_first() {
        let mut h = Ints {
            mem: Memory::new(8),
            log: Vec::new(),
            low_byte: false,
        };
        let p = array(&mut h.mem, &[1, 3, 5, 7, 9], 4);
        let key = array(&mut h.mem, &[7], 4);
        assert_eq!(bsearch(&mut h, key, p, 5, 4), Ok(p + 12));
        // idx 2 (5): greater, l = 3; idx 4 (9): less, u = 4; idx 3 (7): found.
        assert_eq!(h.log, [(7, 5), (7, 9), (7, 7)]);
        let missing = array(&mut h.mem, &[4], 4);
        assert_eq!(bsearch(&mut h, missing, p, 5, 4), Ok(0));
        assert_eq!(bsearch(&mut h, missing, 0, 0, 4), Ok(0));
    }

    #[test]
    fn qsort_of_a_bad_array_is_reported() {
        let mut h = Ints {
            mem: Memory::new(8),
            log: Vec::new(),
            low_byte: false,
        };
        let p = array(&mut h.mem, &[2, 1], 4);
        assert_eq!(qsort(&mut h, p, 3, 4), Err(Stop::Ub(Ub::OutOfBounds)));
        assert_eq!(qsort(&mut h, 0, 1, 4), Ok(()));
        assert_eq!(
            qsort(&mut h, p, u64::MAX, 4),
            Err(Stop::Ub(Ub::BadLibcCall))
        );
    }
}
