//! Feature coverage: over a few hundred seeds, every feature a generator promises shows
//! up at least once (counted from the modules themselves by `gen::census`).

use compiler::ir::{BinOp, IrType};
use phihunt::gen::{generate_from_seed, FeatureCounts, GenKind};

const SEEDS: u64 = 500;

fn totals(kind: GenKind) -> FeatureCounts {
    let mut t = FeatureCounts::default();
    for seed in 0..SEEDS {
        t.merge(&generate_from_seed(kind, seed).features);
    }
    t
}

fn assert_present(t: &FeatureCounts, names: &[&str], kind: GenKind) {
    let map = t.as_map();
    for name in names {
        let v = map.get(*name).copied().unwrap_or(0);
        assert!(
            v > 0,
            "{kind}: feature `{name}` never generated in {SEEDS} seeds"
        );
    }
}

#[test]
fn cfg_programs_contain_every_promised_feature() {
    let t = totals(GenKind::Cfg);
    assert_eq!(t.programs, SEEDS);
    assert_present(
        &t,
        &[
            "loops",
            "back_edges",
            "multi_back_edge_loops",
            "nested_loops",
            "irreducible_regions",
            "repeated_targets",
            "switches",
            "switch_shared_targets",
            "critical_edges",
            "unreachable_blocks",
            "unreachable_into_reachable",
            "param_slots",
            "ptr_slots",
            "array_slots",
            "padded_slots",
            "volatile_slots",
            "promotable_slots",
            "escaped_gep",
            "escaped_call",
            "escaped_stored",
            "escaped_memcpy",
            "uninitialized_at_entry",
            "globals",
            "global_accesses",
            "narrowing_stores",
            "wide_literal_stores",
            "calls",
            "calls_with_ptr_args",
            "printf_calls",
            "wide_signatures",
            "many_arg_calls",
            "permuted_call_args",
            "repeated_call_args",
            "multi_pred_joins",
            "indirect_calls",
            "static_functions",
            "called_statics",
            "address_only_statics",
            "initializer_only_statics",
            "unreferenced_statics",
            "guarded_invariant_divs",
            "trapping_divs",
        ],
        GenKind::Cfg,
    );
    // The shapes two passes need, often enough that a hunt meets them within seconds:
    // licm and guarded divisions by loop-invariant divisors, dead static elimination and
    // static functions reached only through their address.
    for (name, min) in [
        ("guarded_invariant_divs", SEEDS / 5),
        // Runs that trap (division by zero, MIN / -1): the backends' SIGFPE, where the
        // hardware divide does not trap.
        ("trapping_divs", SEEDS / 20),
        ("address_only_statics", SEEDS / 20),
        ("initializer_only_statics", SEEDS / 20),
        ("unreferenced_statics", SEEDS / 20),
        ("called_statics", SEEDS / 20),
        // The backend's argument passing: stack-passed arguments and the parallel move
        // into argument registers (permuted and repeated values).
        ("wide_signatures", SEEDS / 5),
        ("many_arg_calls", SEEDS / 5),
        ("permuted_call_args", SEEDS / 5),
        ("repeated_call_args", SEEDS / 10),
    ] {
        let v = t.as_map()[name];
        eprintln!("cfg: {name} = {v} in {SEEDS} seeds");
        assert!(
            v >= min,
            "{name}: {v} in {SEEDS} seeds, expected at least {min}"
        );
    }
    // Several functions per module, most of the time.
    assert!(
        t.functions > SEEDS + SEEDS / 2,
        "functions: {}",
        t.functions
    );
    // Slots of every integer type, and pointers.
    for ty in IrType::INTEGERS.iter().chain([IrType::Ptr].iter()) {
        assert!(
            t.slot_types.get(ty.name()).copied().unwrap_or(0) > 0,
            "no {ty} slot"
        );
    }
    // Every operation, and the memory operations of the alloca form.
    let ops: Vec<&str> = BinOp::ALL
        .iter()
        .map(|o| o.name())
        .chain([
            "neg",
            "not",
            "cmp",
            "cast",
            "select",
            "load",
            "store",
            "alloca",
            "paramref",
            "gep",
            "globaladdr",
            "memcpy",
            "call",
        ])
        .collect();
    for op in ops {
        assert!(
            t.ops.get(op).copied().unwrap_or(0) > 0,
            "no `{op}` generated"
        );
    }
    // The alloca form has no phis.
    assert_eq!(t.phis, 0);
}

#[test]
fn phi_programs_contain_every_promised_feature() {
    let t = totals(GenKind::Phi);
    assert_present(
        &t,
        &[
            "loops",
            "multi_back_edge_loops",
            "nested_loops",
            "repeated_targets",
            "switch_shared_targets",
            "critical_edges",
            "phis",
            "phi_self_refs",
            "phi_swaps",
            "phi_rotations",
            "phi_chains",
            "phi_shared_sources",
            "phi_constants",
            "phi_repeated_pred_edges",
            "phi_critical_edges",
            "phi_reads_header_phi",
            "multi_pred_joins",
            "calls",
        ],
        GenKind::Phi,
    );
    // SSA form: no memory at all.
    assert_eq!(t.slots, 0);
    assert_eq!(t.ops.get("load"), None);
    assert_eq!(t.unreachable_blocks, 0);
}

#[test]
fn argument_vectors_probe_the_edges() {
    // Over many programs, entry arguments include 0, -1 (as canonical for its type) and
    // the extremes of each type.
    let mut zero = false;
    let mut minus_one = false;
    let mut extreme = false;
    for kind in GenKind::ALL {
        for seed in 0..100u64 {
            let p = generate_from_seed(kind, seed);
            let params = &p.module.function(&p.entry).unwrap().params;
            for args in &p.arg_vectors {
                for (&v, &ty) in args.iter().zip(params) {
                    let bits = ty.bits(8);
                    let max_unsigned = if bits == 64 {
                        -1
                    } else {
                        ((1u64 << bits) - 1) as i64
                    };
                    zero |= v == 0;
                    minus_one |= v == -1 || (!ty.is_signed() && v == max_unsigned);
                    extreme |= ty.is_signed() && v as i128 == -(1i128 << (bits - 1));
                }
            }
        }
    }
    assert!(
        zero && minus_one && extreme,
        "zero {zero} minus_one {minus_one} min {extreme}"
    );
}
