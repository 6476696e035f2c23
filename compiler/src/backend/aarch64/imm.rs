//! Which constants AArch64 instructions can encode, and how to build the others.
//!
//! Why it exists: an A64 instruction is 32 bits, so immediates come in a few narrow
//! shapes — add/sub take 12 bits (optionally shifted left by 12), logical operations a
//! "bitmask immediate" (a rotated run of ones, replicated), `movz/movn/movk` a 16-bit
//! chunk at a 16-bit-aligned position. A constant that fits none is built in a register
//! first. Getting a shape wrong is either an assembler error or, worse, a silently
//! different constant; these functions are the only place that decides.
//!
//! Invariants: [`add_sub_imm`] and [`is_logical_imm`] accept exactly the values the
//! architecture encodes (the unit tests check hand-worked cases; the assembler rejects
//! anything else, so a mistake here fails loudly); [`mov_sequence`] builds exactly `v`
//! (its low 32 bits for [`Width::W`]), first instruction `movz` or `movn`, then `movk`s.

use super::inst::{MovWideOp, Width};

/// True when `v` is an add/sub immediate: `0..=4095`, or that shifted left by 12.
pub fn add_sub_imm(v: u64) -> bool {
    v <= 0xfff || (v & 0xfff == 0 && v >> 12 <= 0xfff)
}

/// True when `v` (its low 32 bits for `Width::W`) is a logical (bitmask) immediate: a
/// pattern of 2, 4, ..., 64 bits, replicated to the width, whose element is one run of
/// ones rotated (neither all zeros nor all ones).
pub fn is_logical_imm(v: u64, w: Width) -> bool {
    let v = match w {
        Width::W => {
            let low = v & 0xffff_ffff;
            low | (low << 32)
        }
        Width::X => v,
    };
    if v == 0 || v == u64::MAX {
        return false;
    }
    let mut size = 2u32;
    while size <= 64 {
        let mask = if size == 64 {
            u64::MAX
        } else {
            (1u64 << size) - 1
        };
        let element = v & mask;
        let replicates = (0..64 / size).all(|i| (v >> (i * size)) & mask == element);
        if replicates && is_rotated_run(element, size) {
            return true;
        }
        size *= 2;
    }
    false
}

/// True when the `size`-bit `element` is one run of ones on a circle: exactly two bit
/// changes going once around (so neither all zeros nor all ones).
fn is_rotated_run(element: u64, size: u32) -> bool {
    let bit = |i: u32| (element >> (i % size)) & 1;
    (0..size).filter(|&i| bit(i) != bit(i + 1)).count() == 2
}

/// The `movz`/`movn` + `movk` instructions that build `v` (its low 32 bits at `W`):
/// `(op, chunk, shift)`. `movn` starts when more chunks are all ones than all zeros.
pub fn mov_sequence(v: u64, w: Width) -> Vec<(MovWideOp, u16, u32)> {
    let chunks: Vec<u16> = (0..w.bits() / 16).map(|i| (v >> (16 * i)) as u16).collect();
    let zeros = chunks.iter().filter(|&&c| c == 0).count();
    let ones = chunks.iter().filter(|&&c| c == 0xffff).count();
    let inverted = ones > zeros;
    let filler = if inverted { 0xffff } else { 0 };
    let mut out = Vec::new();
    for (i, &c) in chunks.iter().enumerate() {
        if c == filler {
            continue;
        }
        let shift = 16 * i as u32;
        if out.is_empty() {
            if inverted {
                out.push((MovWideOp::Movn, !c, shift));
            } else {
                out.push((MovWideOp::Movz, c, shift));
            }
        } else {
            out.push((MovWideOp::Movk, c, shift));
        }
    }
    if out.is_empty() {
        // Every chunk is the filler: 0 or all ones.
        if inverted {
            out.push((MovWideOp::Movn, 0, 0));
        } else {
            out.push((MovWideOp::Movz, 0, 0));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `seq` as the hardware would.
    fn replay(seq: &[(MovWideOp, u16, u32)], w: Width) -> u64 {
        let mut r = 0u64;
        for &(op, c, shift) in seq {
            let chunk = u64::from(c) << shift;
            r = match op {
                MovWideOp::Movz => chunk,
                MovWideOp::Movn => !chunk,
                MovWideOp::Movk => (r & !(0xffffu64 << shift)) | chunk,
            };
        }
        match w {
            Width::W => r & 0xffff_ffff,
            Width::X => r,
        }
    }

    #[test]
    fn mov_sequences_build_their_constant() {
        let mut values = vec![
            0,
            1,
            0xffff,
            0x1_0000,
            0x1234_5678,
            0xffff_ffff,
            0x8000_0000,
            u64::MAX,
            u64::MAX - 1,
            i64::MIN as u64,
            0x1234_5678_9abc_def0,
            0xffff_ffff_7fff_ffff,
            0xffff_0000_ffff_0000,
            (-100i64) as u64,
            (-65536i64) as u64,
            (-65537i64) as u64,
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x);
            values.push(x & 0xffff_0000_0000_ffff);
            values.push(x | 0xffff_ffff_0000_0000);
        }
        for v in values {
            let seq = mov_sequence(v, Width::X);
            assert_eq!(replay(&seq, Width::X), v, "{v:#x}: {seq:?}");
            assert!(seq.len() <= 4);
            let seq = mov_sequence(v, Width::W);
            assert_eq!(replay(&seq, Width::W), v & 0xffff_ffff, "w {v:#x}: {seq:?}");
            assert!(seq.len() <= 2);
        }
        // The shortest forms, worked by hand.
        assert_eq!(mov_sequence(5, Width::X), vec![(MovWideOp::Movz, 5, 0)]);
        assert_eq!(
            mov_sequence((-128i64) as u64, Width::X),
            vec![(MovWideOp::Movn, 127, 0)]
        );
        assert_eq!(
            mov_sequence(0x8000_0000, Width::W),
            vec![(MovWideOp::Movz, 0x8000, 16)]
        );
        assert_eq!(
            mov_sequence(0x1_0001, Width::X),
            vec![(MovWideOp::Movz, 1, 0), (MovWideOp::Movk, 1, 16)]
        );
    }

    #[test]
    fn add_sub_immediates() {
        for v in [0, 1, 4095, 4096, 0xfff000, 0x5000] {
            assert!(add_sub_imm(v), "{v:#x}");
        }
        for v in [4097, 0x1000000, 0xfff001, u64::MAX] {
            assert!(!add_sub_imm(v), "{v:#x}");
        }
    }

    #[test]
    fn logical_immediates_by_hand() {
        // Encodable (checked against the architecture's definition by hand).
        for v in [
            0xff,
            0xff00,
            0x0f0f_0f0f_0f0f_0f0f,
            0x5555_5555_5555_5555,
            0xffff_ffff_ffff_ffc0, // -64: the realignment mask
            0x8000_0000_0000_0001, // a run of two ones wrapping around
            0x7fff_ffff_ffff_ffff,
            0x0000_ffff_0000_ffff,
            1,
        ] {
            assert!(is_logical_imm(v, Width::X), "{v:#x}");
        }
        for v in [
            0,
            u64::MAX,
            0x1234,
            0xff00_ff00_ff00_ff01,
            0x0000_0000_ffff_0001,
            5, // two runs
        ] {
            assert!(!is_logical_imm(v, Width::X), "{v:#x}");
        }
        assert!(is_logical_imm(0x0f0f_0f0f, Width::W));
        assert!(is_logical_imm(0xffff_0000, Width::W));
        assert!(!is_logical_imm(0xffff_ffff, Width::W));
        assert!(!is_logical_imm(0, Width::W));
        // The upper half is ignored at W.
        assert!(is_logical_imm(0x1234_5678_0000_00ff, Width::W));
    }

    #[test]
    fn logical_immediates_are_what_the_definition_enumerates() {
        // Every bitmask immediate, built the way the architecture defines them (element
        // size e, run length 1..e-1, rotation 0..e-1, replicated), is accepted; nothing
        // else of a large sample is.
        let mut all = std::collections::HashSet::new();
        for e in [2u32, 4, 8, 16, 32, 64] {
            for ones in 1..e {
                for rot in 0..e {
                    let run = (1u64 << ones) - 1;
                    let mask = if e == 64 { u64::MAX } else { (1u64 << e) - 1 };
                    let element = ((run >> rot) | (run << ((e - rot) % e))) & mask;
                    let mut v = 0u64;
                    for i in 0..64 / e {
                        v |= element << (i * e);
                    }
                    all.insert(v);
                }
            }
        }
        assert_eq!(all.len(), 5334);
        for &v in &all {
            assert!(is_logical_imm(v, Width::X), "{v:#x}");
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for v in [x, x & 0xff, x >> 40] {
                assert_eq!(is_logical_imm(v, Width::X), all.contains(&v), "{v:#x}");
            }
        }
    }
}
