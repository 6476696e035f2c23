//! Program seeds: the seed a hunt gives its program index `i`.
//!
//! Why: hunts started with nearby base seeds must not hunt the same programs. The first
//! scheme, `base + i`, made them overlap almost entirely: `scripts/nightly.sh` seeds each
//! night with the epoch second, so two nights 86,400 apart ran the same programs from the
//! 86,400th on — a night of a million programs redid 91% of the night before. Now the base
//! seed is first spread over the 64-bit space by SplitMix64's step (an invertible mixing
//! function), and program `i` gets `spread(base) + i`: two hunts overlap only when their
//! spread bases fall within one hunt's length of each other, about one chance in 10^13
//! for a hunt of a million programs.
//!
//! Invariants:
//! - [`program_seed`] and [`program_index`] are inverse for one base seed (wrapping
//!   arithmetic), so a resumed hunt finds the index of every finding on disk from its seed;
//! - the program of a seed does not depend on the base it came from: `phihunt gen G --seed
//!   S` makes exactly the program the hunt ran with seed `S`;
//! - changing this mapping changes which programs a base seed names, so it bumps the hunt
//!   state's version (`state::STATE_VERSION`): a hunt started under another mapping is
//!   refused on resume instead of being continued with other programs.

/// How a run of the campaign engine names its programs' seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedScheme {
    /// A hunt: [`program_seed`], so hunts with nearby base seeds share no programs.
    Spread,
    /// A bench over a seed range (`bench csmith --seed-start S --count N`): program `i`
    /// has seed `base + i`, exactly the seeds the bench names (its baseline is keyed by
    /// them).
    Consecutive,
}

impl SeedScheme {
    /// The seed of program `index`.
    pub fn seed(self, base_seed: u64, index: u64) -> u64 {
        match self {
            SeedScheme::Spread => program_seed(base_seed, index),
            SeedScheme::Consecutive => base_seed.wrapping_add(index),
        }
    }

    /// The index of the program whose seed is `seed`.
    pub fn index(self, base_seed: u64, seed: u64) -> u64 {
        match self {
            SeedScheme::Spread => program_index(base_seed, seed),
            SeedScheme::Consecutive => seed.wrapping_sub(base_seed),
        }
    }
}

/// SplitMix64's golden-ratio increment.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The base seed spread over the 64-bit space (one SplitMix64 step: a bijection).
fn spread(base_seed: u64) -> u64 {
    let mut z = base_seed.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of program `index` of the hunt with base seed `base_seed`.
pub fn program_seed(base_seed: u64, index: u64) -> u64 {
    spread(base_seed).wrapping_add(index)
}

/// The program index whose seed is `seed` in the hunt with base seed `base_seed`.
pub fn program_index(base_seed: u64, seed: u64) -> u64 {
    seed.wrapping_sub(spread(base_seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_seed_are_inverse() {
        for base in [0, 1, 7, 86_400, u64::MAX] {
            for i in [0, 1, 1_000_000, u64::MAX - 3] {
                assert_eq!(program_index(base, program_seed(base, i)), i);
            }
        }
    }

    #[test]
    fn nightly_bases_do_not_overlap() {
        // Two consecutive nightly seeds (epoch seconds a day apart) and a day-long hunt
        // of 10^8 programs: the seed ranges must be disjoint. Under `base + i` they
        // shared all but the first 86,400 seeds.
        let night = 1_795_000_000u64;
        let (a, b) = (spread(night), spread(night + 86_400));
        let gap = a.wrapping_sub(b).min(b.wrapping_sub(a));
        assert!(
            gap > 100_000_000,
            "spread bases {a:#x} and {b:#x} are {gap} apart"
        );
        // Neighbouring bases too (seeds 1, 2, 3 in tests and by hand).
        for base in 0..1000u64 {
            let (a, b) = (spread(base), spread(base + 1));
            let gap = a.wrapping_sub(b).min(b.wrapping_sub(a));
            assert!(gap > 100_000_000, "bases {base} and {} overlap", base + 1);
        }
    }
}
