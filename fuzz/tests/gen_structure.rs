//! Generators: determinism, robustness on any bytes, and structural promises.

use arbitrary::Unstructured;
use compiler::ir::text::print_module;
use compiler::ir::verify::{verify_module, VerifyMode};
use phihunt::gen::wellformed::check_wellformed;
use phihunt::gen::{cfg, generate, generate_from_seed, phi, CfgGenConfig, GenKind, PhiGenConfig};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

#[test]
fn same_seed_gives_the_same_program() {
    for kind in GenKind::ALL {
        for seed in [0u64, 1, 17, 12345, u64::MAX] {
            let a = generate_from_seed(kind, seed);
            let b = generate_from_seed(kind, seed);
            assert_eq!(a, b, "{kind} seed {seed}");
            assert_eq!(print_module(&a.module), print_module(&b.module));
        }
    }
}

#[test]
fn different_seeds_give_different_programs() {
    for kind in GenKind::ALL {
        let texts: BTreeSet<String> = (0..40u64)
            .map(|s| print_module(&generate_from_seed(kind, s).module))
            .collect();
        assert_eq!(texts.len(), 40, "{kind}: two seeds gave the same module");
    }
}

#[test]
fn same_bytes_give_the_same_program_through_either_entry_point() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut bytes = vec![0u8; 3000];
    rng.fill_bytes(&mut bytes);
    let a = cfg::generate(&mut Unstructured::new(&bytes), &CfgGenConfig::default()).unwrap();
    let b = generate(GenKind::Cfg, &mut Unstructured::new(&bytes)).unwrap();
    assert_eq!(a, b);
    let a = phi::generate(&mut Unstructured::new(&bytes), &PhiGenConfig::default()).unwrap();
    let b = generate(GenKind::Phi, &mut Unstructured::new(&bytes)).unwrap();
    assert_eq!(a, b);
}

/// Generates from `bytes`, which must succeed and keep every promise, verifier included.
fn check_bytes(kind: GenKind, bytes: &[u8]) {
    let p = match generate(kind, &mut Unstructured::new(bytes)) {
        Ok(p) => p,
        Err(e) => panic!("{kind} failed on {} bytes: {e}", bytes.len()),
    };
    if let Err(e) = check_wellformed(&p) {
        panic!(
            "{kind} on {} bytes: {e}\n{}",
            bytes.len(),
            print_module(&p.module)
        );
    }
    if let Err(errs) = verify_module(&p.module, VerifyMode::Ssa) {
        panic!(
            "{kind} on {} bytes fails the verifier: {}\n{}",
            bytes.len(),
            errs[0],
            print_module(&p.module)
        );
    }
}

#[test]
fn empty_short_and_degenerate_inputs_give_valid_programs() {
    for kind in GenKind::ALL {
        check_bytes(kind, &[]);
        for len in [1usize, 2, 3, 7, 16, 64, 300] {
            check_bytes(kind, &vec![0u8; len]);
            check_bytes(kind, &vec![0xffu8; len]);
            check_bytes(kind, &vec![0x80u8; len]);
        }
    }
}

#[test]
fn random_byte_buffers_never_break_a_promise() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for round in 0..1500 {
        let len = match round % 4 {
            0 => rng.gen_range(0..32),
            1 => rng.gen_range(0..512),
            _ => rng.gen_range(0..4096),
        };
        let mut bytes = vec![0u8; len];
        rng.fill_bytes(&mut bytes);
        for kind in GenKind::ALL {
            check_bytes(kind, &bytes);
        }
    }
}

#[test]
fn seeded_programs_keep_every_promise() {
    for kind in GenKind::ALL {
        for seed in 0..100u64 {
            let p = generate_from_seed(kind, seed);
            if let Err(e) = check_wellformed(&p) {
                panic!("{kind} seed {seed}: {e}");
            }
            assert!((3..=4).contains(&p.arg_vectors.len()), "{kind} seed {seed}");
            for (i, a) in p.arg_vectors.iter().enumerate() {
                assert!(
                    !p.arg_vectors[i + 1..].contains(a),
                    "{kind} seed {seed}: duplicate {a:?}"
                );
            }
            assert_eq!(p.entry, "main");
        }
    }
}

#[test]
fn small_configs_are_respected() {
    let cfg = CfgGenConfig {
        max_functions: 1,
        max_blocks: 6,
        max_globals: 0,
        ..CfgGenConfig::default()
    };
    for seed in 0..50u64 {
        let p = cfg::generate_from_seed(seed, &cfg);
        assert_eq!(p.module.functions.len(), 1);
        // Data globals are off; format strings may remain.
        assert!(p.module.globals.iter().all(|g| g.is_const));
        // The block budget is the only source of blocks.
        assert!(p.module.functions[0].blocks.len() <= 6, "seed {seed}");
    }
    let pcfg = PhiGenConfig {
        max_functions: 1,
        max_blocks: 5,
        ..PhiGenConfig::default()
    };
    for seed in 0..50u64 {
        let p = phi::generate_from_seed(seed, &pcfg);
        assert_eq!(p.module.functions.len(), 1);
        assert!(p.module.functions[0].blocks.len() <= 5, "seed {seed}");
        assert!(p.module.functions[0].blocks.iter().all(|b| !b
            .insts
            .iter()
            .any(|i| matches!(i, compiler::ir::Inst::Alloca { .. }))));
    }
}

/// The cfg generator's targeted shapes (issue 15): an irreducible cycle entered through a
/// block of its own, which one pass of the dominator iteration gets wrong, and a value
/// compared with a function of itself (`-x == x`). Counted by the situation census from
/// the modules, not from the generator's intentions.
#[test]
fn cfg_programs_present_late_dominators_and_self_comparisons() {
    let (mut late, mut selfcmp) = (0, 0);
    for seed in 0..300u64 {
        let m = generate_from_seed(GenKind::Cfg, seed).module;
        for s in phihunt::census::situations::classify_module(&m).values() {
            late += usize::from(s.has("late_dominator"));
            selfcmp += usize::from(s.has("self_comparison"));
        }
    }
    assert!(
        late >= 20,
        "{late} functions with a late dominator in 300 programs"
    );
    assert!(
        selfcmp >= 20,
        "{selfcmp} functions with a self comparison in 300 programs"
    );
}
