//! What a generated program contains, counted.
//!
//! Why: a generator that never produces an irreducible loop, a swap of phis or a volatile
//! slot cannot find the bugs that live there, and it fails silently. Every program comes
//! with these counts; campaigns add them up ([`FeatureCounts::merge`]) and tests assert
//! that each feature the generator promises shows up.
//!
//! Invariants: the counts are a pure function of the module (see `census`), never of the
//! generator's intentions, so they cannot claim what the program does not contain; maps
//! are ordered (`BTreeMap`) so serialized counts are deterministic.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

macro_rules! feature_counts {
    ($( $(#[doc = $doc:expr])+ $name:ident ),* $(,)?) => {
        /// Counts of program features (see the module doc).
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        pub struct FeatureCounts {
            $( $(#[doc = $doc])+ pub $name: u64, )*
            /// Allocas per slot type name (`i8`, ..., `ptr`).
            pub slot_types: BTreeMap<String, u64>,
            /// Instructions per opcode name (`add`, `sdiv`, `cast`, `cmp`, ...).
            pub ops: BTreeMap<String, u64>,
        }

        impl FeatureCounts {
            /// Adds `other` into `self` (campaign totals).
            pub fn merge(&mut self, other: &FeatureCounts) {
                $( self.$name += other.$name; )*
                for (k, v) in &other.slot_types {
                    *self.slot_types.entry(k.clone()).or_default() += v;
                }
                for (k, v) in &other.ops {
                    *self.ops.entry(k.clone()).or_default() += v;
                }
            }

            /// Every count as one flat map: scalar fields by name, then `slot_type:NAME`
            /// and `op:NAME` entries (what campaign reports sum up).
            pub fn as_map(&self) -> BTreeMap<String, u64> {
                let mut out = BTreeMap::new();
                $( out.insert(stringify!($name).to_string(), self.$name); )*
                for (k, v) in &self.slot_types {
                    out.insert(format!("slot_type:{k}"), *v);
                }
                for (k, v) in &self.ops {
                    out.insert(format!("op:{k}"), *v);
                }
                out
            }

            /// Every scalar count with its field name, in declaration order.
            pub fn scalars(&self) -> Vec<(&'static str, u64)> {
                vec![ $( (stringify!($name), self.$name), )* ]
            }
        }
    };
}

feature_counts! {
    /// Programs counted (1 per program; the campaign total is the program count).
    programs,
    /// Function definitions.
    functions,
    /// Basic blocks.
    blocks,
    /// Instructions and terminators.
    insts,
    /// Distinct loop headers (targets of back edges: edges to a dominator).
    loops,
    /// Back edges (to a block that dominates the source).
    back_edges,
    /// Loop headers with two or more back edges (continue-like edges).
    multi_back_edge_loops,
    /// Loop headers inside another loop's body.
    nested_loops,
    /// Distinct targets of retreating edges that do not dominate their source: cycles
    /// entered at more than one block.
    irreducible_regions,
    /// Terminators that name one target twice (`condbr %c, .LBB5, .LBB5`).
    repeated_targets,
    /// `switch` terminators.
    switches,
    /// Switches in which two edges (cases or default) share a target.
    switch_shared_targets,
    /// Edges from a block with two or more successors to one with two or more predecessors.
    critical_edges,
    /// Blocks the entry cannot reach.
    unreachable_blocks,
    /// Edges from an unreachable block into a reachable one.
    unreachable_into_reachable,
    /// `alloca` instructions.
    slots,
    /// Parameter slots (the entry stores `paramref N` into them).
    param_slots,
    /// `ptr`-typed slots.
    ptr_slots,
    /// Slots of at least two elements whose address is taken (arrays).
    array_slots,
    /// Slots larger than their type whose address is never taken (padded scalars).
    padded_slots,
    /// `volatile` slots.
    volatile_slots,
    /// Slots mem2reg may promote: scalar, at most 8 bytes, not volatile, address not taken.
    promotable_slots,
    /// Slots whose address is a `gep` base.
    escaped_gep,
    /// Slots whose address is passed to a call.
    escaped_call,
    /// Slots whose address is stored to memory.
    escaped_stored,
    /// Slots whose address is a `memcpy` operand.
    escaped_memcpy,
    /// Slots whose address flows into a `select`, `phi`, `copy`, `cmp` or return.
    escaped_other,
    /// Promotable slots the entry block does not store to (read-before-write candidates).
    uninitialized_at_entry,
    /// Global variables (format strings included).
    globals,
    /// `globaladdr` instructions.
    global_accesses,
    /// Stores of a constant whose type is wider than the stored type.
    narrowing_stores,
    /// Stores of a constant whose type differs from the stored type.
    wide_literal_stores,
    /// Calls to functions defined in the module.
    calls,
    /// Calls to module functions passing a `ptr` argument.
    calls_with_ptr_args,
    /// Calls to `printf`.
    printf_calls,
    /// Function definitions of seven or more parameters (some passed on the stack on
    /// every target).
    wide_signatures,
    /// Calls passing seven or more arguments.
    many_arg_calls,
    /// Calls passing two values defined in their own block in the opposite order of
    /// their definitions (what the parallel move into argument registers must reorder).
    permuted_call_args,
    /// Calls passing one value at two or more positions.
    repeated_call_args,
    /// Calls through a pointer (`call T %fp(...)`).
    indirect_calls,
    /// `static` function definitions.
    static_functions,
    /// Static functions some `call @f` names.
    called_statics,
    /// Static functions never called by name whose address some `globaladdr @f` takes.
    address_only_statics,
    /// Static functions named only by a global's initializer (`ptr @f`).
    initializer_only_statics,
    /// Static functions nothing names (dead code).
    unreferenced_statics,
    /// Divisions by a non-constant divisor in a loop with a preheader, both operands
    /// invariant in the loop, in a block entered only when a test showed the divisor
    /// non-zero (`if (d != 0) q = x / d;`).
    guarded_invariant_divs,
    /// Divisions whose divisor is a value neither sanitized (`or _, odd`) nor guarded by a
    /// test that excludes zero: some inputs may make them trap.
    trapping_divs,
    /// `phi` instructions.
    phis,
    /// Blocks with at least one phi.
    phi_blocks,
    /// Phi entries that name the phi itself (`%a = phi [.., %a]`).
    phi_self_refs,
    /// Two-cycles in an edge's parallel copy (swaps).
    phi_swaps,
    /// Cycles of three or more in an edge's parallel copy (rotations).
    phi_rotations,
    /// Copies reading another phi of the same block that is not in a cycle (chains).
    phi_chains,
    /// Values read by two or more phis of one block on one edge.
    phi_shared_sources,
    /// Constant phi entries.
    phi_constants,
    /// Predecessors naming a phi block twice in their terminator.
    phi_repeated_pred_edges,
    /// Critical edges into blocks with phis.
    phi_critical_edges,
    /// Phi entries reading a phi of a loop header from outside that header (exit phis).
    phi_reads_header_phi,
    /// Blocks with three or more predecessors.
    multi_pred_joins,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_fields_and_maps() {
        let mut a = FeatureCounts {
            loops: 2,
            ..Default::default()
        };
        a.ops.insert("add".into(), 3);
        let mut b = FeatureCounts {
            loops: 5,
            programs: 1,
            ..Default::default()
        };
        b.ops.insert("add".into(), 1);
        b.ops.insert("mul".into(), 4);
        a.merge(&b);
        assert_eq!(a.loops, 7);
        assert_eq!(a.programs, 1);
        assert_eq!(a.ops["add"], 4);
        assert_eq!(a.ops["mul"], 4);
        assert!(a.scalars().iter().any(|&(n, v)| n == "loops" && v == 7));
        let m = a.as_map();
        assert_eq!(m["loops"], 7);
        assert_eq!(m["op:mul"], 4);
    }

    #[test]
    fn serializes_deterministically() {
        let mut a = FeatureCounts::default();
        a.slot_types.insert("u8".into(), 1);
        a.slot_types.insert("i8".into(), 2);
        let s = serde_json::to_string(&a).unwrap();
        assert!(s.find("\"i8\"").unwrap() < s.find("\"u8\"").unwrap());
        let back: FeatureCounts = serde_json::from_str(&s).unwrap();
        assert_eq!(back, a);
    }
}
