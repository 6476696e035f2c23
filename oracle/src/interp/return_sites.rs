//! The oracle's `__builtin_return_address(0)` (`compiler::frame_intrinsics`): an opaque
//! code address per call site.
//!
//! Why: a program that compares return addresses (c-torture 20010122-1.c: three
//! functions called from one call instruction see the same one) needs only that two
//! calls from the same call instruction give the same address and calls from different
//! ones different addresses. The oracle has no machine code, so it numbers the call
//! sites (the caller's function and the pc the call returns to) in the order a run first
//! meets them and gives each an address in a range no object of `Memory` ever occupies;
//! the entry function's own return address (into libc) is one more site. Reading,
//! writing or calling such an address is an invalid pointer, as it would be for any
//! address the oracle did not allocate.
//!
//! Invariants: the same site gives the same address for the whole run, different sites
//! different addresses; each address is canonical for `ptr` at the run's pointer width.

use rustc_hash::FxHashMap;

/// Where the code addresses start with 8-byte pointers: object ids this large (the
/// high half of an address, `Memory`'s wide layout) are never reached within the fuel.
const WIDE_BASE: u64 = 0xC0DE_0000_0000_0000;
/// With 4-byte pointers: below the first object (`Memory`'s narrow layout allocates
/// upwards from 64 KiB), above the null page.
const NARROW_BASE: u64 = 0x1000;
const NARROW_END: u64 = 0x1_0000;
/// Bytes between two sites' addresses.
const SITE_STRIDE: u64 = 4;

/// The call sites met so far, numbered.
#[derive(Default)]
pub(crate) struct ReturnSites {
    sites: FxHashMap<(u32, u32), u64>,
}

impl ReturnSites {
    /// The address of call site `site` (the caller's function index and the pc its call
    /// returns to; `None` for the entry function's caller). `None` when the narrow range
    /// is exhausted (15,360 sites): the run cannot go on honestly.
    pub(crate) fn address(&mut self, site: Option<(u32, u32)>, ptr_bytes: u32) -> Option<u64> {
        let key = site.unwrap_or((u32::MAX, u32::MAX));
        let next = self.sites.len() as u64;
        let n = *self.sites.entry(key).or_insert(next);
        if ptr_bytes == 4 {
            let address = NARROW_BASE + n * SITE_STRIDE;
            (address < NARROW_END).then_some(address)
        } else {
            Some(WIDE_BASE + n * SITE_STRIDE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_per_site() {
        let mut s = ReturnSites::default();
        let a = s.address(Some((1, 7)), 8);
        let b = s.address(Some((1, 9)), 8);
        let entry = s.address(None, 8);
        assert_eq!(a, s.address(Some((1, 7)), 8));
        assert_ne!(a, b);
        assert_ne!(a, entry);
        assert_ne!(b, entry);
        let narrow = s.address(Some((2, 0)), 4).expect("room for a site");
        assert!((NARROW_BASE..NARROW_END).contains(&narrow));
    }
}
