//! Seeded bytes: the bridge from a `u64` seed to the byte-driven generators.
//!
//! Why: campaigns name programs by seed, fuzzers by bytes; filling a buffer from a seeded
//! stream lets both use the same `generate(u, cfg)`.
//!
//! Invariants: the bytes depend on the seed and the length only (`rand_chacha` is pinned
//! in the workspace, so the stream never changes under us); no clock, no thread RNG.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Bytes per seeded program: enough that generation rarely runs out of decisions.
pub const SEED_BYTES: usize = 64 * 1024;

/// `len` bytes from `ChaCha8Rng::seed_from_u64(seed)`.
pub fn bytes_from_seed(seed: u64, len: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = vec![0u8; len];
    rng.fill_bytes(&mut buf);
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_bytes_other_seed_other_bytes() {
        assert_eq!(bytes_from_seed(7, 256), bytes_from_seed(7, 256));
        assert_ne!(bytes_from_seed(7, 256), bytes_from_seed(8, 256));
        assert_eq!(bytes_from_seed(7, 300)[..256], bytes_from_seed(7, 256)[..]);
    }
}
