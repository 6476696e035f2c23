//! `const_fold`, `simplify`, `gvn` and `licm` on very large functions: 100k blocks in a
//! chain (a dominator tree 100k deep), 30k loops one after another (90k blocks), loops
//! nested 600 deep. Nothing may overflow the stack; the output must verify and compute
//! the same result.

use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::text::parse_module;
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::ir::IrModule;
use compiler::passes;
use oracle::{Program, RunConfig};
use std::fmt::Write;
use std::time::Instant;

/// Runs the four passes on every function; prints the time each took.
fn run_all(module: &mut IrModule) -> [usize; 4] {
    let mut changes = [0; 4];
    for f in &mut module.functions {
        let t = Instant::now();
        changes[0] += passes::const_fold::run(f);
        let t_fold = t.elapsed();
        changes[1] += passes::simplify::run(f);
        let t_simplify = t.elapsed() - t_fold;
        let cfg = CfgAnalysis::build(f);
        let t_cfg = t.elapsed() - t_fold - t_simplify;
        changes[2] += passes::gvn::run(f, &cfg);
        let t_gvn = t.elapsed() - t_fold - t_simplify - t_cfg;
        changes[3] += passes::licm::run(f, &cfg);
        let t_licm = t.elapsed() - t_fold - t_simplify - t_cfg - t_gvn;
        println!(
            "const_fold {t_fold:?}, simplify {t_simplify:?}, analysis {t_cfg:?}, \
             gvn {t_gvn:?}, licm {t_licm:?}"
        );
    }
    changes
}

/// Runs the four passes, verifies, and compares `@f(args)` before and after.
fn check(text: &str, args: &[i64]) -> [usize; 4] {
    let mut module = parse_module(text).expect("generated module parses");
    let cfg = RunConfig {
        fuel: 50_000_000,
        ..RunConfig::default()
    };
    let before = Program::new(&module, &cfg).unwrap().run("f", args).unwrap();
    let start = Instant::now();
    let changes = run_all(&mut module);
    println!("passes took {:?}, changes {changes:?}", start.elapsed());
    verify_module(&module, VerifyMode::Ssa).expect("output verifies");
    let after = Program::new(&module, &cfg).unwrap().run("f", args).unwrap();
    assert!(
        after.agrees_with(&before),
        "{} vs {}",
        before.outcome,
        after.outcome
    );
    changes
}

#[test]
fn a_chain_of_100k_blocks() {
    // Each block recomputes x * 3 + 0 and adds it: GVN reuses the first, simplify drops
    // the + 0, const_fold folds the 2 + 2 of every block.
    let mut t = String::from("func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n");
    t.push_str("    %1 = copy i32 0\n    br .LBB1\n");
    let n = 100_000;
    for b in 1..=n {
        let v = 10 * b;
        let prev = if b == 1 { 1 } else { 10 * (b - 1) + 4 };
        writeln!(
            t,
            ".LBB{b}:\n    %{v} = mul i32 %0, 3\n    %{} = add i32 %{v}, 0\n    \
             %{} = add i32 2, 2\n    %{} = add i32 %{prev}, %{}\n    %{} = add i32 %{}, %{}",
            v + 1,
            v + 2,
            v + 3,
            v + 1,
            v + 4,
            v + 3,
            v + 2
        )
        .unwrap();
        if b < n {
            writeln!(t, "    br .LBB{}", b + 1).unwrap();
        } else {
            writeln!(t, "    ret i32 %{}\n}}", v + 4).unwrap();
        }
    }
    let changes = check(&t, &[5]);
    assert_eq!(changes[0], n as usize);
    assert!(changes[1] >= n as usize);
    assert!(changes[2] >= n as usize - 1);
}

#[test]
fn thirty_thousand_loops_in_sequence() {
    // Loop k: for (i = 0; i < c; i++) s += a * b; with its own preheader.
    let mut t = String::from(
        "func @f(i32, i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
         %1 = paramref 1, i32\n    %2 = paramref 2, i32\n    %3 = copy i32 0\n    br .LBB1\n",
    );
    let loops = 30_000;
    let mut sum = 3;
    for k in 0..loops {
        let (pre, head, body) = (3 * k + 1, 3 * k + 2, 3 * k + 3);
        let v = 10 * k + 10;
        let next = if k + 1 < loops {
            3 * k + 4
        } else {
            3 * loops + 1
        };
        writeln!(
            t,
            ".LBB{pre}:\n    br .LBB{head}\n\
             .LBB{head}:\n    %{v} = phi i32 [0, .LBB{pre}], [%{}, .LBB{body}]\n    \
             %{} = phi i32 [%{sum}, .LBB{pre}], [%{}, .LBB{body}]\n    \
             %{} = cmp slt i32 %{v}, %2\n    condbr %{}, .LBB{body}, .LBB{next}\n\
             .LBB{body}:\n    %{} = mul i32 %0, %1\n    %{} = add i32 %{}, %{}\n    \
             %{} = add i32 %{v}, 1\n    br .LBB{head}",
            v + 1,
            v + 2,
            v + 3,
            v + 4,
            v + 4,
            v + 5,
            v + 3,
            v + 2,
            v + 5,
            v + 1,
        )
        .unwrap();
        sum = v + 2;
    }
    writeln!(t, ".LBB{}:\n    ret i32 %{sum}\n}}", 3 * loops + 1).unwrap();
    // 2 iterations of s += 3 * 4 in each loop: 30k * 24.
    let changes = check(&t, &[3, 4, 2]);
    assert_eq!(changes[3], loops as usize);
}

#[test]
fn loops_nested_600_deep() {
    // for i1 < c { for i2 < c { ... for iD < c { s += a * b } ... } }, each loop with a
    // preheader; a * b moves out of all D loops, one level per loop.
    let depth = 600;
    let mut t = String::from(
        "func @f(i32, i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
         %1 = paramref 1, i32\n    %2 = paramref 2, i32\n    br .LBB1\n",
    );
    // Level k (1-based): preheader P_k, header H_k, latch L_k; the body of level k is
    // P_{k+1} (or the innermost work block W), exit of level k goes to L_{k-1} (or Exit).
    let pre = |k: usize| 4 * k - 3;
    let head = |k: usize| 4 * k - 2;
    let latch = |k: usize| 4 * k - 1;
    let work = 4 * depth + 1;
    let exit = 4 * depth + 2;
    let i = |k: usize| 10 * k;
    let s_in = |k: usize| 10 * k + 1;
    let s_out = |k: usize| 10 * k + 2;
    for k in 1..=depth {
        let outer_sum = if k == 1 {
            "0".to_string()
        } else {
            format!("%{}", s_in(k - 1))
        };
        let into = if k == depth { work } else { pre(k + 1) };
        let from_pred = pre(k);
        let out = if k == 1 { exit } else { latch(k - 1) };
        writeln!(
            t,
            ".LBB{}:\n    br .LBB{}\n\
             .LBB{}:\n    %{} = phi i32 [0, .LBB{from_pred}], [%{}, .LBB{}]\n    \
             %{} = phi i32 [{outer_sum}, .LBB{from_pred}], [%{}, .LBB{}]\n    \
             %{} = cmp slt i32 %{}, %2\n    condbr %{}, .LBB{into}, .LBB{out}\n\
             .LBB{}:\n    %{} = add i32 %{}, 1\n    br .LBB{}",
            pre(k),
            head(k),
            head(k),
            i(k),
            10 * k + 3,
            latch(k),
            s_in(k),
            s_out(k),
            latch(k),
            10 * k + 4,
            i(k),
            10 * k + 4,
            latch(k),
            10 * k + 3,
            i(k),
            head(k),
        )
        .unwrap();
    }
    // s_out(k) is what level k's latch carries around: the inner level's running sum
    // (or the work block's for the innermost level).
    let mut fixed = t;
    let w = 10 * depth + 5;
    writeln!(
        fixed,
        ".LBB{work}:\n    %{w} = mul i32 %0, %1\n    %{} = add i32 %{}, %{w}\n    br .LBB{}",
        s_out(depth),
        s_in(depth),
        latch(depth)
    )
    .unwrap();
    writeln!(fixed, ".LBB{exit}:\n    ret i32 %{}\n}}", s_in(1)).unwrap();
    // Each latch k < depth carries the inner loop's sum out: s_out(k) = s_in(k + 1).
    for k in 1..depth {
        fixed = fixed.replace(
            &format!(
                "%{} = add i32 %{}, 1\n    br .LBB{}",
                10 * k + 3,
                i(k),
                head(k)
            ),
            &format!(
                "%{} = add i32 %{}, 1\n    %{} = copy i32 %{}\n    br .LBB{}",
                10 * k + 3,
                i(k),
                s_out(k),
                s_in(k + 1),
                head(k)
            ),
        );
    }
    // c = 1: every level runs once; the work block adds a * b once: 3 * 4.
    let changes = check(&fixed, &[3, 4, 1]);
    assert_eq!(changes[3], depth);
}
