//! Decisions drawn from fuzzer bytes.
//!
//! Why: one generator serves both `cargo fuzz` (bytes from libFuzzer) and seeded
//! generation (bytes from a ChaCha stream), so every random decision goes through
//! `arbitrary::Unstructured`. These helpers give the few shapes of decision the generators
//! need, and never fail on bad ranges.
//!
//! Invariants: no helper returns an error for an empty or reversed range (it returns the
//! lower end); when the bytes run out every helper returns its "least" answer (`false`,
//! the lower bound, the first item), so exhausted input yields the smallest program and
//! generation still terminates.

use arbitrary::{Result, Unstructured};

/// The decision shapes the generators use.
pub trait Pick {
    /// True with probability `percent`/100; false when the bytes have run out.
    fn chance(&mut self, percent: u32) -> Result<bool>;
    /// A number in `lo..=hi` (the lower end when `hi < lo`).
    fn between(&mut self, lo: u32, hi: u32) -> Result<u32>;
    /// An index in `0..len` (0 when `len` is 0).
    fn index(&mut self, len: usize) -> Result<usize>;
    /// An index drawn with the given weights (0 when they are all zero).
    fn weighted(&mut self, weights: &[u32]) -> Result<usize>;
    /// Any 64-bit pattern.
    fn bits64(&mut self) -> Result<u64>;
}

impl Pick for Unstructured<'_> {
    fn chance(&mut self, percent: u32) -> Result<bool> {
        if percent == 0 {
            return Ok(false);
        }
        let x: u32 = self.int_in_range(0..=99)?;
        Ok(x >= 100u32.saturating_sub(percent))
    }

    fn between(&mut self, lo: u32, hi: u32) -> Result<u32> {
        if hi <= lo {
            return Ok(lo);
        }
        self.int_in_range(lo..=hi)
    }

    fn index(&mut self, len: usize) -> Result<usize> {
        if len <= 1 {
            return Ok(0);
        }
        self.int_in_range(0..=len - 1)
    }

    fn weighted(&mut self, weights: &[u32]) -> Result<usize> {
        let total: u64 = weights.iter().map(|&w| w as u64).sum();
        if total == 0 {
            return Ok(0);
        }
        let mut r: u64 = self.int_in_range(0..=total - 1)?;
        for (i, &w) in weights.iter().enumerate() {
            if r < w as u64 {
                return Ok(i);
            }
            r -= w as u64;
        }
        Ok(weights.len() - 1)
    }

    fn bits64(&mut self) -> Result<u64> {
        self.arbitrary::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhausted_input_gives_least_answers() {
        let mut u = Unstructured::new(&[]);
        assert!(!u.chance(50).unwrap());
        assert_eq!(u.between(3, 9).unwrap(), 3);
        assert_eq!(u.index(5).unwrap(), 0);
        assert_eq!(u.weighted(&[0, 4, 1]).unwrap(), 1);
    }

    #[test]
    fn bad_ranges_do_not_fail() {
        let mut u = Unstructured::new(&[0xff; 16]);
        assert_eq!(u.between(7, 2).unwrap(), 7);
        assert_eq!(u.index(0).unwrap(), 0);
        assert_eq!(u.weighted(&[]).unwrap(), 0);
        assert_eq!(u.weighted(&[0, 0]).unwrap(), 0);
        assert!(u.chance(100).unwrap());
        assert!(!u.chance(0).unwrap());
    }

    #[test]
    fn weighted_never_picks_zero_weight() {
        let data: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        let mut u = Unstructured::new(&data);
        for _ in 0..500 {
            let i = u.weighted(&[3, 0, 5, 0]).unwrap();
            assert!(i == 0 || i == 2, "picked {i}");
        }
    }
}
