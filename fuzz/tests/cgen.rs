//! The C generator checked against independent judges on a fast sample: the host
//! gcc -O0 build must print exactly the expected output the generator computed, and
//! phicc's front end plus every pipeline stage in the oracle must too (for both data
//! models). `phihunt bench cgen` runs the same on thousands of seeds.

use compiler::pipeline::PipelineOptions;
use compiler::target::Target;
use oracle::RunConfig;
use phihunt::c::bench::{run_bench, CGenBenchArgs};
use phihunt::c::cli::CGenOptions;
use phihunt::c::gen::features::{Feature, FeatureSet};
use phihunt::c::gen::{generate, GenConfig};
use phihunt::c::hunt::CGenerator;
use phihunt::c::judge::{checked_front_end, front_end};
use phihunt::campaign::source::{Candidate, ProgramSource, Rejection};
use phihunt::campaign::{hunt, HuntConfig};
use phihunt::check::c_source::judge_stages;
use phihunt::diff::DiffConfig;
use phihunt::native::NativePlan;
use std::sync::Arc;
use std::time::Duration;

#[test]
fn thirty_seeds_agree_with_gcc_and_every_oracle_stage() {
    let out = tempfile::tempdir().unwrap();
    let args = CGenBenchArgs {
        count: 30,
        seed_start: 1,
        jobs: 2,
        gen: CGenOptions {
            size: 3,
            ..CGenOptions::default()
        },
        gcc: true,
        sanitize: false,
        oracle: true,
        out: out.path().to_path_buf(),
        target: Target::X86_64,
        run_timeout: Duration::from_secs(10),
        fuel: 100_000_000,
        pipeline: PipelineOptions::default(),
    };
    let t = run_bench(&args).expect("bench setup");
    let saved: Vec<_> = std::fs::read_dir(out.path())
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert_eq!(t.failures(), 0, "{t:?}\nsaved: {saved:?}");
    assert_eq!(t.gcc_agree, 30);
    assert_eq!(t.phicc_accepts, 30);
    assert_eq!(t.oracle_agree, 30);
}

#[test]
fn the_ilp32_expected_output_holds_at_every_stage_of_the_i686_module() {
    let cfg = GenConfig::default();
    let run = RunConfig {
        ptr_bytes: 4,
        fuel: 100_000_000,
        ..RunConfig::default()
    };
    // 500100 ...: a printed expression whose signedness differs between the data models
    // (`long long` op `unsigned long`), once printed by the ILP32 evaluation in the wrong
    // format (found by the native i686 stage of a hunt).
    for seed in (100..110).chain([500100, 500474, 500593, 500601]) {
        let p = generate(seed, &cfg).unwrap();
        let module = front_end(&p, Target::I686).unwrap();
        // The UB judge on i686's data model first (judge_stages asks it).
        let checked = checked_front_end(&p, Target::I686).unwrap();
        let want = (0, p.expected(Target::I686).as_bytes().to_vec());
        let j = judge_stages(&module, &checked, want, &PipelineOptions::default(), &run).unwrap();
        assert_eq!(j.first_mismatch(), None, "seed {seed}:\n{}", p.text);
    }
}

/// Seeds whose programs hold one subtree twice (the base of a pointer relation, the
/// lvalue of a compound assignment): with a rewrite cell per copy, one copy of
/// `g[(unsigned)(a - b) % 3U]` became `a + b` while the other stayed `a - b`, the two
/// "same-object" pointers landed in different rows, and the generator gave up on the seed
/// ("pointers into different objects compared"). Each must now generate, and every
/// oracle stage must print what the generator expects.
#[test]
fn a_subtree_printed_twice_is_rewritten_once() {
    let cfg = GenConfig::default();
    let run = RunConfig {
        fuel: 100_000_000,
        ..RunConfig::default()
    };
    for seed in [1937, 551964, 552001, 574611, 576743, 20290008] {
        let p = generate(seed, &cfg).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let module = front_end(&p, Target::X86_64).unwrap();
        let checked = checked_front_end(&p, Target::X86_64).unwrap();
        let want = (0, p.expected(Target::X86_64).as_bytes().to_vec());
        let j = judge_stages(&module, &checked, want, &PipelineOptions::default(), &run).unwrap();
        assert_eq!(j.first_mismatch(), None, "seed {seed}:\n{}", p.text);
    }
}

#[test]
fn a_program_is_a_pure_function_of_its_seed() {
    let cfg = GenConfig::default();
    let a = generate(7, &cfg).unwrap();
    let b = generate(7, &cfg).unwrap();
    let c = generate(8, &cfg).unwrap();
    assert_eq!(a.text, b.text);
    assert_eq!(a.expected_lp64, b.expected_lp64);
    assert_ne!(a.text, c.text);
    assert!(a.expected_lp64.contains("checksum = "));
}

#[test]
fn switched_off_features_never_appear() {
    let mut cfg = GenConfig {
        swarm: false,
        ..GenConfig::default()
    };
    for f in [
        Feature::Goto,
        Feature::Switch,
        Feature::Structs,
        Feature::Loops,
        Feature::Pointers,
        Feature::Volatile,
        Feature::LongLong,
        Feature::Unions,
        // The float helpers copy bits with `memcpy(&u, &x, ...)`, which is no pointer
        // expression of the program's own.
        Feature::Floats,
    ] {
        cfg.features.0.remove(&f);
    }
    for seed in 0..20 {
        let p = generate(seed, &cfg).unwrap();
        for token in [
            "goto ",
            "switch (",
            "struct S",
            "for (",
            "while (",
            "volatile",
            "long long g",
            "(&",
            "union ",
            "float ",
            "double ",
        ] {
            assert!(
                !p.text.contains(token),
                "seed {seed} has `{token}`:\n{}",
                p.text
            );
        }
    }
    // And with everything on, each of those appears somewhere in a few programs.
    let all = GenConfig {
        swarm: false,
        features: FeatureSet::default_on(),
        ..GenConfig::default()
    };
    let text: String = (0..20).map(|s| generate(s, &all).unwrap().text).collect();
    for token in [
        "goto ", "switch (", "struct S", "for (", "while (", "volatile", "(&", "union S",
    ] {
        assert!(text.contains(token), "no `{token}` in 20 programs");
    }
}

/// A source whose expected output is wrong (as a buggy generator's would be).
struct WrongExpected;

impl ProgramSource for WrongExpected {
    fn name(&self) -> &'static str {
        "c-wrong"
    }

    fn make(&self, seed: u64) -> Result<Candidate, Rejection> {
        let mut cand = CGenerator::default().make(seed)?;
        let mut p = (**cand.c_program.as_ref().unwrap()).clone();
        p.expected_lp64 = "checksum = 0000000000000000\n".into();
        cand.c_program = Some(Arc::new(p));
        Ok(cand)
    }
}

/// gcc contradicts the expected output: every program is a generator bug, saved with its
/// program, and none is a compiler finding.
#[test]
fn a_wrong_expected_output_is_a_generator_bug_never_a_finding() {
    let out = tempfile::tempdir().unwrap();
    let cfg = HuntConfig {
        native: NativePlan::none(),
        native_every: 1,
        duration: Duration::from_secs(120),
        base_seed: 1,
        jobs: 1,
        out_dir: out.path().to_path_buf(),
        mutants: Vec::new(),
        diff: DiffConfig::default(),
        stop_at_first: false,
        reduce_budget: Duration::ZERO,
        corpus_found: None,
        max_programs: Some(3),
        show_progress: false,
        keep_per_signature: u64::MAX,
        persist: None,
        seeds: phihunt::campaign::seeds::SeedScheme::Spread,
        resume: None,
        cc: None,
    };
    let r = hunt(&[&WrongExpected], &cfg).unwrap();
    assert_eq!(r.totals.programs, 3);
    assert_eq!(r.totals.generator_bugs, 3, "{:?}", r.totals);
    // Confirmed by gcc -O0 and -O2 agreeing with each other, not with the expected output;
    // counted under the reason's name.
    assert_eq!(
        r.totals
            .generator_bug_reasons
            .get("expected-output-contradicted"),
        Some(&3),
        "{:?}",
        r.totals.generator_bug_reasons
    );
    assert_eq!(r.totals.findings, 0);
    assert!(r.signatures.is_empty());
    // One folder per program (`c-wrong-SEED`), each with the program and the reason.
    let saved: Vec<_> = std::fs::read_dir(out.path().join("generator-bugs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(saved.len(), 3, "{saved:?}");
    for dir in &saved {
        let name = dir.file_name().unwrap().to_string_lossy();
        assert!(name.starts_with("c-wrong-"), "{name}");
        assert!(dir.join("program.c").is_file() && dir.join("reason.txt").is_file());
    }
    let report = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(
        report.contains("| c-wrong | 3 | 0 | 0 | 0 | 3 |"),
        "{report}"
    );
    assert!(report.contains("expected-output-contradicted"), "{report}");
    for dir in &saved {
        let reason = std::fs::read_to_string(dir.join("reason.txt")).unwrap();
        assert!(reason.contains("gcc -O0 and -O2 give exit 0"), "{reason}");
    }
}

#[test]
fn the_ub_judge_calls_a_program_with_ub_a_generator_bug_and_passes_the_generated_ones() {
    use phihunt::c::judge::ub_judge;
    let run = RunConfig::default();
    let mut p = generate(3, &GenConfig::default()).unwrap();
    for target in [Target::X86_64, Target::I686] {
        assert_eq!(ub_judge(&p, target, &run), Ok(()), "seed 3 on {target:?}");
    }
    // `long` is 32 bits on i686 only: defined on x86_64, signed overflow on i686.
    p.text = "int main(void) { volatile long x = 2147483647L; long y = x + 1; \
              return (int)(y & 1); }\n"
        .into();
    assert_eq!(ub_judge(&p, Target::X86_64, &run), Ok(()));
    let why = ub_judge(&p, Target::I686, &run).unwrap_err();
    assert!(
        why.contains("SignedOverflow") && why.contains("i686"),
        "{why}"
    );
}

/// What one generated program's C text holds of the float shapes, read from the text
/// alone (not from the generator's tree): records with float members passed or returned
/// by value, unions with float members, pointers to floats.
#[derive(Debug, Default)]
struct FloatShapes {
    /// Parameters and results of a record type with a float member (struct or union).
    by_value_float_records: u32,
    /// ... of which structs of 1 to 4 members of one float kind (arrays counted by
    /// element): AAPCS64 HFAs, all-SSE on x86-64.
    hfa: u32,
    /// ... structs with float and integer members.
    mixed: u32,
    /// ... records whose members take more than 16 bytes (a lower bound of the size).
    big: u32,
    /// ... unions.
    unions: u32,
    /// `float *` and `double *` locals, parameters and globals.
    float_ptr_decls: u32,
    /// `(*p)` of such a pointer.
    float_ptr_derefs: u32,
    /// `p + k`, `p - k`, `p++`, `p--`, `p += k`, `p -= k` on such a pointer.
    float_ptr_arith: u32,
    /// Reads of a union's float member (`u.fK` not on the left of `=`).
    union_float_reads: u32,
    /// Writes of a union's float member.
    union_float_writes: u32,
}

/// One member of a record: its type's base spelling, pointer or not, element count.
struct Member {
    base: String,
    ptr: bool,
    elems: u64,
    bitfield: bool,
}

fn is_float(base: &str) -> bool {
    base == "float" || base == "double"
}

/// Bytes of a member under LP64 (bit-fields 0: a lower bound).
fn member_bytes(m: &Member) -> u64 {
    if m.bitfield {
        return 0;
    }
    let one = if m.ptr {
        8
    } else {
        match m.base.as_str() {
            "signed char" | "unsigned char" => 1,
            "short" | "unsigned short" => 2,
            "int" | "unsigned int" | "float" => 4,
            _ => 8,
        }
    };
    one * m.elems
}

/// `TYPE NAME` or `TYPE *NAME` or `TYPE NAME[N][M]` (a declaration without `static`,
/// `const`, `volatile` or initializer): (base, pointer, elements, name).
fn declaration(decl: &str) -> (String, bool, u64, String) {
    let decl = decl.trim();
    let (base, declarator) = decl.rsplit_once(' ').unwrap_or(("", decl));
    let ptr = declarator.starts_with('*');
    let declarator = declarator.trim_start_matches('*');
    let mut parts = declarator.split('[');
    let name = parts.next().unwrap_or("").to_string();
    let elems = parts
        .map(|p| p.trim_end_matches(']').parse::<u64>().unwrap_or(1))
        .product();
    (base.to_string(), ptr, elems, name)
}

fn float_shapes(text: &str) -> FloatShapes {
    use std::collections::HashMap;
    let mut s = FloatShapes::default();
    // Record definitions: "struct S3 {" / "union S3 {", members, "};".
    let mut records: HashMap<String, (bool, Vec<Member>)> = HashMap::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if (l.starts_with("struct S") || l.starts_with("union S")) && l.ends_with(" {") {
            let tag = l.trim_end_matches(" {").to_string();
            let mut members = Vec::new();
            i += 1;
            while !lines[i].starts_with('}') {
                let m = lines[i].trim().trim_end_matches(';');
                let (decl, bitfield) = match m.split_once(" : ") {
                    Some((d, _)) => (d, true),
                    None => (m, false),
                };
                let (base, ptr, elems, _) = declaration(decl);
                members.push(Member {
                    base,
                    ptr,
                    elems,
                    bitfield,
                });
                i += 1;
            }
            records.insert(tag.clone(), (tag.starts_with("union"), members));
        }
        i += 1;
    }
    let has_float = |tag: &str| {
        records
            .get(tag)
            .is_some_and(|(_, ms)| ms.iter().any(|m| !m.ptr && is_float(&m.base)))
    };
    let record_of = |base: &str| {
        base.trim_start_matches("static ")
            .trim_start_matches("const ")
            .to_string()
    };
    let count_by_value = |tag: &str, s: &mut FloatShapes| {
        if !has_float(tag) {
            return;
        }
        let (union, members) = &records[tag];
        s.by_value_float_records += 1;
        if *union {
            s.unions += 1;
            return;
        }
        let floats: Vec<&Member> = members.iter().filter(|m| is_float(&m.base)).collect();
        let elems: u64 = floats.iter().map(|m| m.elems).sum();
        if floats.len() == members.len()
            && (1..=4).contains(&elems)
            && floats.iter().all(|m| m.base == floats[0].base && !m.ptr)
        {
            s.hfa += 1;
        }
        if floats.len() < members.len() {
            s.mixed += 1;
        }
        if members.iter().map(member_bytes).sum::<u64>() > 16 {
            s.big += 1;
        }
    };
    // Prototypes ("static RET func_N(PARAMS);"), then each body with its own scope.
    let mut globals: HashMap<String, (String, bool)> = HashMap::new();
    for l in &lines {
        if let Some(rest) = l.strip_prefix("static ") {
            if rest.contains(" func_") && rest.ends_with(");") && !rest.contains("(*") {
                let (ret, params) = rest.split_once(" func_").unwrap();
                count_by_value(ret, &mut s);
                let params = params.split_once('(').unwrap().1.trim_end_matches(");");
                for p in params.split(", ").filter(|p| *p != "void") {
                    let (base, ptr, _, _) = declaration(p);
                    if !ptr {
                        count_by_value(&base, &mut s);
                    }
                }
            } else if rest.contains(" g_") && rest.contains(" = ") {
                let (decl, _) = rest.split_once(" = ").unwrap();
                let (base, ptr, _, name) = declaration(decl);
                globals.insert(name, (record_of(&base), ptr));
            }
        }
    }
    let mut in_body: Option<HashMap<String, (String, bool)>> = None;
    for l in &lines {
        if l.starts_with("static ") && l.contains(" func_") && !l.ends_with(';') {
            let mut scope = globals.clone();
            let params = l.split_once('(').unwrap().1.trim_end_matches(')');
            for p in params.split(", ").filter(|p| *p != "void") {
                let (base, ptr, _, name) = declaration(p);
                scope.insert(name, (base, ptr));
            }
            in_body = Some(scope);
            continue;
        }
        let Some(scope) = in_body.as_mut() else {
            continue;
        };
        if *l == "}" {
            in_body = None;
            continue;
        }
        let t = l.trim();
        // A local's declaration: "TYPE l_N = ..." (static locals too).
        if let Some((decl, _)) = t.split_once(" = ") {
            let (base, ptr, _, name) = declaration(decl);
            let typed = decl.contains(' ') && !decl.contains('(');
            if typed && (name.starts_with("l_") || name.starts_with("s_")) {
                scope.insert(name, (record_of(&base), ptr));
                continue;
            }
        }
        for (name, (base, ptr)) in scope.iter() {
            if *ptr && is_float(base) {
                s.float_ptr_derefs += t.matches(&format!("(*{name})")).count() as u32;
                for op in [" + ", " - "] {
                    s.float_ptr_arith += t.matches(&format!("({name}{op}")).count() as u32;
                }
                for op in ["++", "--", " += ", " -= "] {
                    s.float_ptr_arith += t.matches(&format!("{name}{op}")).count() as u32;
                    s.float_ptr_arith += t.matches(&format!("{op}{name};")).count() as u32;
                }
            }
            let Some((true, members)) = records.get(base).map(|(u, m)| (*u, m)) else {
                continue;
            };
            if *ptr {
                continue;
            }
            for (k, m) in members.iter().enumerate() {
                if !is_float(&m.base) {
                    continue;
                }
                for (at, _) in t.match_indices(&format!("{name}.f{k}")) {
                    // Not a longer name (l_1 in l_12) and not an array's element name.
                    if at > 0 && !t[..at].ends_with(['(', ' ', '*', '!', '-']) {
                        continue;
                    }
                    let after = &t[at + name.len() + 2 + k.to_string().len()..];
                    if at == 0 && after.starts_with(" = ") {
                        s.union_float_writes += 1;
                    } else {
                        s.union_float_reads += 1;
                    }
                }
            }
        }
    }
    for (name, (base, ptr)) in &globals {
        if *ptr && is_float(base) && name.starts_with("g_") {
            s.float_ptr_decls += 1;
        }
    }
    for l in &lines {
        let t = l.trim_start();
        for kind in ["float *", "double *"] {
            if t.starts_with(kind) {
                s.float_ptr_decls += 1;
            }
            if t.starts_with("static ") && t.contains(" func_") && !t.ends_with(';') {
                s.float_ptr_decls += t.matches(&format!("({kind}p_")).count() as u32
                    + t.matches(&format!(", {kind}p_")).count() as u32;
            }
        }
    }
    s
}

/// Over 400 seeds of the default configuration, the float shapes appear, counted from
/// the programs' text. Each program uses a feature with probability 0.7 (swarm), so
/// floats, structs and struct-args are all on in 0.343 of them; a record is a union with
/// p = 0.7 * 0.35 = 0.245, else a float-ABI record (HFA 1/2, pair 1/3, over 16 bytes
/// 1/6) with p = 0.5; a size-3 program has about 2.5 functions of which 1.5 take 0-3
/// parameters (struct weight 2 of 15) and 2.5 results (struct weight 2 of 13). So about
/// 0.2 + 0.4 = 0.6 by-value records per such program, a third to a half with a float:
/// 400 * 0.343 * 0.6 * 0.35 = 29 by-value float records; HFAs ~ 29 * 0.4 = 12, mixed and
/// big at least a few each. Pointers to floats: pointers and floats are both on in 0.49
/// of the programs; a local is a pointer with p = 3/17 and points to a float with p =
/// 0.35, and a program has about 2.5 functions of 3 locals: 400 * 0.49 * 7.5 * 0.06 = 88
/// `float *`/`double *` locals, and a few parameters and globals more. The thresholds
/// are about half of these estimates (measured when written: 78 by-value float records,
/// 30 HFAs, 20 mixed, 9 big, 22 unions; 95 float pointer declarations, 43 derefs, 23
/// arithmetic; 74 union float member reads, 21 writes).
#[test]
fn float_records_by_value_unions_with_floats_and_float_pointers_appear() {
    let cfg = GenConfig::default();
    let mut total = FloatShapes::default();
    let mut programs_with = [0u32; 4];
    for seed in 0..400 {
        let p = generate(seed, &cfg).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let s = float_shapes(&p.text);
        programs_with[0] += (s.by_value_float_records > 0) as u32;
        programs_with[1] += (s.union_float_reads + s.union_float_writes > 0) as u32;
        programs_with[2] += (s.float_ptr_derefs > 0) as u32;
        programs_with[3] += (s.float_ptr_arith > 0) as u32;
        total.by_value_float_records += s.by_value_float_records;
        total.hfa += s.hfa;
        total.mixed += s.mixed;
        total.big += s.big;
        total.unions += s.unions;
        total.float_ptr_decls += s.float_ptr_decls;
        total.float_ptr_derefs += s.float_ptr_derefs;
        total.float_ptr_arith += s.float_ptr_arith;
        total.union_float_reads += s.union_float_reads;
        total.union_float_writes += s.union_float_writes;
    }
    eprintln!("400 seeds: {total:?}; programs with by-value float records, union float members, float derefs, float pointer arithmetic: {programs_with:?}");
    assert!(total.by_value_float_records >= 15, "{total:?}");
    assert!(total.hfa >= 6, "{total:?}");
    assert!(total.mixed >= 3, "{total:?}");
    assert!(total.big >= 2, "{total:?}");
    assert!(total.unions >= 1, "{total:?}");
    assert!(total.float_ptr_decls >= 45, "{total:?}");
    assert!(total.float_ptr_derefs >= 20, "{total:?}");
    assert!(total.float_ptr_arith >= 10, "{total:?}");
    assert!(total.union_float_reads >= 5, "{total:?}");
    assert!(total.union_float_writes >= 5, "{total:?}");
}

/// The programs with the float shapes above are defined: the UB judge passes them on
/// both data models (x86_64 and i686), and every oracle stage prints what the generator
/// expects (x86_64).
#[test]
fn programs_with_the_float_shapes_have_no_ub_and_agree_at_every_stage() {
    use phihunt::c::judge::ub_judge;
    let cfg = GenConfig::default();
    let run = RunConfig {
        fuel: 100_000_000,
        ..RunConfig::default()
    };
    let mut judged = 0;
    for seed in 0..400 {
        let p = generate(seed, &cfg).unwrap();
        let s = float_shapes(&p.text);
        let shaped = s.by_value_float_records
            + s.union_float_reads
            + s.union_float_writes
            + s.float_ptr_derefs
            + s.float_ptr_arith;
        if shaped == 0 {
            continue;
        }
        for target in [Target::X86_64, Target::I686] {
            assert_eq!(
                ub_judge(&p, target, &run),
                Ok(()),
                "seed {seed} on {target:?}:\n{}",
                p.text
            );
        }
        let module = front_end(&p, Target::X86_64).unwrap();
        let checked = checked_front_end(&p, Target::X86_64).unwrap();
        let want = (0, p.expected(Target::X86_64).as_bytes().to_vec());
        let j = judge_stages(&module, &checked, want, &PipelineOptions::default(), &run).unwrap();
        assert_eq!(j.first_mismatch(), None, "seed {seed}:\n{}", p.text);
        judged += 1;
        if judged == 40 {
            break;
        }
    }
    assert_eq!(judged, 40);
}
