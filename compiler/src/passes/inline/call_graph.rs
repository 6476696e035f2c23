//! The direct-call graph of a module: a bottom-up order of its functions and which of
//! them are recursive.
//!
//! Why: the inliner must never inline a function into itself, directly or through a cycle
//! (that would never end, or grow the code without bound), and it wants every callee in
//! its final form before copying it into a caller, so nested calls are inlined once, at
//! the bottom, and carried up.
//!
//! Invariants: only direct calls to functions defined in the module are edges (calls to
//! declarations and indirect calls cannot be inlined, so they cannot recurse through the
//! inliner); `order` lists every function exactly once, each strongly connected component
//! after every component it calls (Tarjan's algorithm emits them in that order); a function
//! is `recursive` when its component has more than one function or it calls itself. The
//! search is iterative (explicit stack), so a long call chain cannot overflow the stack.

use crate::ir::{Callee, Inst, IrModule};
use rustc_hash::FxHashMap;

/// The result of the analysis.
pub(super) struct CallGraph {
    /// Function indices, callees before their callers.
    pub order: Vec<usize>,
    /// `recursive[f]`: `f` can reach itself through direct calls.
    pub recursive: Vec<bool>,
}

/// Index of every function of `module` by name (the first one wins on a duplicate, which
/// the verifier rejects anyway).
pub(super) fn function_index(module: &IrModule) -> FxHashMap<String, usize> {
    let mut index = FxHashMap::default();
    for (i, f) in module.functions.iter().enumerate() {
        index.entry(f.name.clone()).or_insert(i);
    }
    index
}

/// Builds the direct-call graph of `module` and orders it bottom-up.
pub(super) fn build(module: &IrModule, index: &FxHashMap<String, usize>) -> CallGraph {
    let n = module.functions.len();
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut recursive = vec![false; n];
    // `called_by[g] == f + 1` once the edge f -> g is recorded.
    let mut called_by = vec![0usize; n];
    for (caller, f) in module.functions.iter().enumerate() {
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            if let Inst::Call {
                callee: Callee::Direct(name),
                ..
            } = inst
            {
                if let Some(&callee) = index.get(name) {
                    // Rule: a function that calls itself is recursive.
                    if callee == caller {
                        recursive[caller] = true;
                    }
                    if called_by[callee] != caller + 1 {
                        called_by[callee] = caller + 1;
                        callees[caller].push(callee);
                    }
                }
            }
        }
    }
    let order = tarjan(&callees, &mut recursive);
    CallGraph { order, recursive }
}

const UNVISITED: u32 = u32::MAX;

/// Tarjan's strongly connected components, iteratively. Returns the functions in the
/// order their components are completed (callees first) and marks every function of a
/// component with two or more members as recursive.
fn tarjan(callees: &[Vec<usize>], recursive: &mut [bool]) -> Vec<usize> {
    let n = callees.len();
    let mut index = vec![UNVISITED; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut component_stack: Vec<usize> = Vec::new();
    let mut order = Vec::with_capacity(n);
    let mut next_index = 0u32;
    // Explicit DFS stack: (function, position of the next callee to look at).
    let mut dfs: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNVISITED {
            continue;
        }
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        component_stack.push(root);
        on_stack[root] = true;
        dfs.push((root, 0));
        while let Some(&mut (f, ref mut pos)) = dfs.last_mut() {
            if let Some(&g) = callees[f].get(*pos) {
                *pos += 1;
                if index[g] == UNVISITED {
                    index[g] = next_index;
                    low[g] = next_index;
                    next_index += 1;
                    component_stack.push(g);
                    on_stack[g] = true;
                    dfs.push((g, 0));
                } else if on_stack[g] {
                    low[f] = low[f].min(index[g]);
                }
                continue;
            }
            dfs.pop();
            if let Some(&(parent, _)) = dfs.last() {
                low[parent] = low[parent].min(low[f]);
            }
            if low[f] == index[f] {
                // `f` roots a component: everything above it on the stack.
                let start = component_stack.iter().rposition(|&x| x == f).unwrap_or(0);
                let members = component_stack.split_off(start);
                // Rule: a component of two or more functions is a cycle of calls.
                let is_cycle = members.len() > 1;
                for &m in &members {
                    on_stack[m] = false;
                    if is_cycle {
                        recursive[m] = true;
                    }
                }
                order.extend(members);
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    fn graph(src: &str) -> (Vec<String>, CallGraph) {
        let m = parse_module(src).unwrap();
        let index = function_index(&m);
        let g = build(&m, &index);
        let names = m.functions.iter().map(|f| f.name.clone()).collect();
        (names, g)
    }

    #[test]
    fn callees_come_first_and_cycles_are_recursive() {
        // main -> a -> b, b -> c -> b (a cycle), d -> d (self), e alone.
        let (names, g) = graph(
            "func @main() -> void {\n.LBB0:\n call void @a()\n ret\n}\n\
             func @a() -> void {\n.LBB1:\n call void @b()\n ret\n}\n\
             func @b() -> void {\n.LBB2:\n call void @c()\n ret\n}\n\
             func @c() -> void {\n.LBB3:\n call void @b()\n ret\n}\n\
             func @d() -> void {\n.LBB4:\n call void @d()\n ret\n}\n\
             func @e() -> void {\n.LBB5:\n ret\n}\n",
        );
        let pos = |name: &str| {
            let i = names.iter().position(|n| n == name).unwrap();
            g.order.iter().position(|&x| x == i).unwrap()
        };
        assert_eq!(g.order.len(), 6);
        assert!(pos("b") < pos("a") && pos("c") < pos("a") && pos("a") < pos("main"));
        let recursive: Vec<&str> = (0..6)
            .filter(|&i| g.recursive[i])
            .map(|i| names[i].as_str())
            .collect();
        assert_eq!(recursive, ["b", "c", "d"]);
    }

    #[test]
    fn a_long_call_chain_does_not_overflow() {
        let n = 20_000;
        let mut src = String::new();
        for i in 0..n {
            if i + 1 < n {
                src += &format!(
                    "func @f{i}() -> void {{\n.LBB{i}:\n call void @f{}()\n ret\n}}\n",
                    i + 1
                );
            } else {
                src += &format!("func @f{i}() -> void {{\n.LBB{i}:\n ret\n}}\n");
            }
        }
        let (_, g) = graph(&src);
        assert_eq!(g.order.len(), n);
        assert_eq!(g.order[0], n - 1);
        assert!(g.recursive.iter().all(|r| !r));
    }
}
