//! Record layout against real gcc on all four targets: random struct/union definitions
//! (nested records, arrays, bit-fields of every width and base type, unnamed and
//! zero-width bit-fields, `packed` and `aligned(N)` on records, members and bit-fields,
//! `#pragma pack`), plus hand-written corner cases, are parsed by phicc
//! and compiled by gcc for x86_64 (host `gcc`), i686, aarch64 and riscv64 (the
//! `*-linux-gnu-gcc` cross compilers), compile-only (`-S`, see `gcc_cross`): gcc's
//! answers are initialised globals read back from its assembly. For every record:
//! its size and alignment and every member's offset (`sizeof`, `_Alignof`,
//! `__builtin_offsetof` in an array), every bit-field's first bit and width (the bits set
//! in an object whose only non-zero member is that bit-field, all ones), and the bytes
//! of a statically initialized object of it (positional initializers for every named
//! member: bit-field values of every width, scalars, floats, arrays with brace
//! elision); phicc's `RecordDef`s and `StaticInit` images must give the same lines.
//! Expected values come from gcc only.
//!
//! Requires `gcc`, `i686-linux-gnu-gcc`, `aarch64-linux-gnu-gcc` and
//! `riscv64-linux-gnu-gcc` (installed by `scripts/setup.sh`); a missing one fails the
//! test with that advice. Every child process runs under a timeout.

use compiler::frontend::parse::parse_translation_unit;
use compiler::frontend::types::RecordDef;
use compiler::frontend::{preprocess_str, PreprocessOptions, Target};
use gcc_cross::{assert_no_differences, data_objects, gcc_asm, le_values, scratch_dir};
use std::fmt::Write as _;
use std::path::Path;

mod gcc_cross;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Integer types usable as bit-field bases, with their width in bits (`long` differs
/// between the targets; the generator keeps `long` bit-fields within 32 bits).
const BITFIELD_TYPES: [(&str, u32); 11] = [
    ("_Bool", 1),
    ("char", 8),
    ("signed char", 8),
    ("unsigned char", 8),
    ("short", 16),
    ("unsigned short", 16),
    ("int", 32),
    ("unsigned int", 32),
    ("long", 32),
    ("long long", 64),
    ("unsigned long long", 64),
];

const SCALARS: [&str; 16] = [
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "_Bool",
    "float",
    "double",
    "long double",
    "void *",
];

/// A named member the checker prints: name and whether it is a bit-field.
struct Named {
    name: String,
    bitfield_bool: Option<bool>,
    /// The member's initializer in the static object `v<i>`.
    init: String,
}

/// A value that fits a bit-field of `ty` and `width` bits (plain `char` counts as
/// signed; on aarch64 and riscv64, where it is unsigned, a negative value converts
/// modulo 2^width as gcc does).
fn bitfield_value(rng: &mut Rng, ty: &str, width: u32) -> String {
    if ty == "_Bool" {
        return rng.below(2).to_string();
    }
    if ty.starts_with("unsigned") {
        let max = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        let v = if max == u64::MAX {
            rng.next()
        } else {
            rng.next() % (max + 1)
        };
        return format!("{v}ull");
    }
    let half = 1i128 << (width - 1);
    let v = i128::from(rng.next()) % (2 * half) - half;
    format!("{v}ll")
}

/// A value for a scalar member of type `ty` (in range for the type).
fn scalar_value(rng: &mut Rng, ty: &str) -> String {
    let signed = |rng: &mut Rng, bits: u32| {
        let half = 1i64 << (bits - 1);
        (rng.next() % (2 * half as u64)) as i64 - half
    };
    match ty {
        "char" | "signed char" => signed(rng, 8).to_string(),
        "unsigned char" => rng.below(256).to_string(),
        "short" => signed(rng, 16).to_string(),
        "unsigned short" => rng.below(65536).to_string(),
        "int" | "long" => signed(rng, 31).to_string(),
        "unsigned" | "unsigned long" => format!("{}u", rng.below(1 << 32)),
        "long long" => format!("{}ll", signed(rng, 63)),
        "unsigned long long" => format!("{}ull", rng.next()),
        "_Bool" => rng.below(2).to_string(),
        "float" | "double" => format!(
            "{}.{}",
            signed(rng, 10),
            [0, 25, 5, 75][rng.below(4) as usize]
        ),
        _ => "0".to_string(),
    }
}

struct Def {
    tag: String,
    text: String,
    named: Vec<Named>,
}

fn gen_record(rng: &mut Rng, index: usize, previous: &[Def]) -> Def {
    let is_union = rng.chance(20);
    let kw = if is_union { "union" } else { "struct" };
    let tag = format!("R{index}");
    let mut body = String::new();
    let mut named = Vec::new();
    let n = 1 + rng.below(8);
    let mut has_named = false;
    for m in 0..n {
        let name = format!("m{m}");
        let kind = rng.below(10);
        if kind < 4 {
            // A bit-field (named, unnamed, or zero-width).
            let (ty, bits) = BITFIELD_TYPES[rng.below(BITFIELD_TYPES.len() as u64) as usize];
            let flavour = rng.below(10);
            // Sometimes `aligned(N)` or `packed` on the bit-field itself.
            let attr = match rng.below(20) {
                0 => format!(" __attribute__((aligned({})))", 1u64 << rng.below(4)),
                1 => " __attribute__((packed))".to_string(),
                _ => String::new(),
            };
            if flavour == 0 && ty != "_Bool" {
                let _ = writeln!(body, "  {ty} : 0{attr};");
            } else if flavour == 1 {
                let w = 1 + rng.below(u64::from(bits));
                let _ = writeln!(body, "  {ty} : {w}{attr};");
            } else {
                let w = 1 + rng.below(u64::from(bits));
                let _ = writeln!(body, "  {ty} {name} : {w}{attr};");
                let init = bitfield_value(rng, ty, w as u32);
                named.push(Named {
                    name,
                    bitfield_bool: Some(ty == "_Bool"),
                    init,
                });
                has_named = true;
            }
            continue;
        }
        let scalar = kind < 8 || previous.is_empty();
        let base = if scalar {
            SCALARS[rng.below(SCALARS.len() as u64) as usize].to_string()
        } else {
            let p = &previous[rng.below(previous.len() as u64) as usize];
            let k = if p.text.starts_with("union") || p.text.contains("\nunion") {
                "union"
            } else {
                "struct"
            };
            format!("{k} {}", p.tag)
        };
        let mut decl = format!("{base} {name}");
        let mut init = if scalar {
            scalar_value(rng, &base)
        } else {
            "{0}".to_string()
        };
        if rng.chance(25) {
            let _ = write!(decl, "[{}]", 1 + rng.below(4));
            if rng.chance(30) {
                let _ = write!(decl, "[{}]", 1 + rng.below(3));
            }
            // A scalar array gets its first element (brace elision for 2-D arrays).
            init = if scalar {
                format!("{{ {} }}", scalar_value(rng, &base))
            } else {
                "{0}".to_string()
            };
        }
        if rng.chance(6) {
            let _ = write!(decl, " __attribute__((aligned({})))", 1u64 << rng.below(5));
        }
        if rng.chance(4) {
            decl.push_str(" __attribute__((packed))");
        }
        let _ = writeln!(body, "  {decl};");
        named.push(Named {
            name,
            bitfield_bool: None,
            init,
        });
        has_named = true;
    }
    if !has_named {
        body.push_str("  int last;\n");
        named.push(Named {
            name: "last".into(),
            bitfield_bool: None,
            init: "7".into(),
        });
    }
    let mut attrs = String::new();
    if rng.chance(12) {
        attrs.push_str(" __attribute__((packed))");
    }
    if rng.chance(10) {
        let _ = write!(attrs, " __attribute__((aligned({})))", 1u64 << rng.below(5));
    }
    let inits: Vec<&str> = named.iter().map(|n| n.init.as_str()).collect();
    let inits = if is_union {
        inits[..1].join(", ")
    } else {
        inits.join(", ")
    };
    let mut text = format!("{kw} {tag} {{\n{body}}}{attrs};\n");
    let object = format!("{kw} {tag} v{index} = {{ {inits} }};\n");
    if rng.chance(15) {
        let p = 1u64 << rng.below(4);
        text = if rng.chance(50) {
            format!("#pragma pack(push, {p})\n{text}#pragma pack(pop)\n")
        } else {
            format!("#pragma pack(push)\n#pragma pack({p})\n{text}#pragma pack(pop)\n")
        };
    }
    text.push_str(&object);
    Def { tag, text, named }
}

fn kind_of(def: &Def) -> &'static str {
    if def.text.contains(&format!("union {} {{", def.tag)) {
        "union"
    } else {
        "struct"
    }
}

/// The C program whose initialised globals hold gcc's answers, read back from its
/// assembly: for record `R<i>`, `L<i>` holds its size, its alignment and the offset of
/// every named member that is not a bit-field (in order, as `unsigned long long`);
/// `B<i>_<m>` is an object of the record whose bit-field `m` alone is all ones (`1` for
/// a `_Bool`) and every other bit zero; `v<i>` is the record's static object.
fn checker_program(defs: &[Def]) -> String {
    let mut s = String::new();
    for d in defs {
        s.push_str(&d.text);
    }
    for d in defs {
        let k = kind_of(d);
        let t = format!("{k} {}", d.tag);
        let i = &d.tag[1..];
        let mut values = vec![format!("sizeof({t})"), format!("_Alignof({t})")];
        for m in &d.named {
            match m.bitfield_bool {
                None => values.push(format!("__builtin_offsetof({t}, {})", m.name)),
                Some(is_bool) => {
                    let v = if is_bool { "1" } else { "~0" };
                    let _ = writeln!(s, "{t} B{i}_{} = {{ .{} = {v} }};", m.name, m.name);
                }
            }
        }
        let _ = writeln!(
            s,
            "unsigned long long L{i}[] = {{ {} }};",
            values.join(", ")
        );
    }
    s
}

/// gcc's answers for `target` in the checker's format: one line per record,
/// `R<i> size align` then per named member its offset or, for a bit-field, `first:count`
/// of its set bits, then `=` and the bytes of `v<i>` in hex.
fn gcc_lines(target: Target, defs: &[Def], dir: &Path) -> Vec<String> {
    let asm = gcc_asm(target, &checker_program(defs), &[], dir, target.name());
    let objects = data_objects(&asm, target);
    let object = |name: &str| -> &Vec<u8> {
        objects
            .get(name)
            .unwrap_or_else(|| panic!("{}: no object {name} in gcc's assembly", target.name()))
    };
    defs.iter()
        .map(|d| {
            let i = &d.tag[1..];
            let values = le_values(object(&format!("L{i}")), 8);
            let mut values = values.into_iter();
            let mut next = || values.next().expect("one value per entry");
            let mut line = format!("{} {} {}", d.tag, next(), next());
            for m in &d.named {
                if m.bitfield_bool.is_none() {
                    let _ = write!(line, " {}", next());
                    continue;
                }
                let bytes = object(&format!("B{i}_{}", m.name));
                let (mut lo, mut cnt) = (-1i64, 0);
                for bit in 0..bytes.len() * 8 {
                    if (bytes[bit / 8] >> (bit % 8)) & 1 == 1 {
                        if lo < 0 {
                            lo = bit as i64;
                        }
                        cnt += 1;
                    }
                }
                let _ = write!(line, " {lo}:{cnt}");
            }
            line.push_str(" =");
            for b in object(&format!("v{i}")) {
                let _ = write!(line, "{b:02x}");
            }
            line
        })
        .collect()
}

/// phicc's answers in the checker's format.
fn our_lines(defs: &[Def], target: Target) -> Vec<String> {
    let mut src = String::new();
    for d in defs {
        src.push_str(&d.text);
    }
    let opts = PreprocessOptions {
        target,
        ..PreprocessOptions::default()
    };
    let pp = preprocess_str("layout.c", &src, &opts).expect("preprocess");
    let out = parse_translation_unit(pp.tokens, &pp.sources, target)
        .unwrap_or_else(|e| panic!("phicc rejects the generated records: {}", e.headline()));
    let records = &out.unit.records.records;
    defs.iter()
        .map(|d| {
            let r: &RecordDef = records
                .iter()
                .find(|r| r.tag.as_deref() == Some(d.tag.as_str()))
                .expect("record");
            let mut line = format!("{} {} {}", d.tag, r.size, r.align);
            for m in &d.named {
                let f = r
                    .fields
                    .iter()
                    .find(|f| f.name.as_deref() == Some(m.name.as_str()))
                    .expect("field");
                match f.bitfield {
                    None => {
                        let _ = write!(line, " {}", f.offset);
                    }
                    Some(bf) => {
                        // A `_Bool` set to 1 sets only its lowest bit.
                        let cnt = if m.bitfield_bool == Some(true) {
                            1
                        } else {
                            bf.width
                        };
                        let _ = write!(line, " {}:{}", bf.bit_offset, cnt);
                    }
                }
            }
            let object = format!("v{}", &d.tag[1..]);
            let g = out
                .unit
                .globals
                .iter()
                .find(|g| g.name == object)
                .expect("object");
            let bytes = g.init.as_ref().map(|i| i.bytes.clone()).unwrap_or_default();
            line.push_str(" =");
            for b in bytes {
                let _ = write!(line, "{b:02x}");
            }
            line
        })
        .collect()
}

#[test]
fn random_records_match_gcc_on_all_four_targets() {
    let mut rng = Rng(0x5eed_1a70_u64);
    let mut defs: Vec<Def> = Vec::new();
    for i in 0..300 {
        let d = gen_record(&mut rng, i, &defs);
        defs.push(d);
    }
    let dir = scratch_dir("layout_gcc");
    for target in Target::ALL {
        let want = gcc_lines(target, &defs, &dir);
        let got = our_lines(&defs, target);
        assert_eq!(want.len(), got.len(), "{}: line count", target.name());
        let mut mismatches = Vec::new();
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            if w != g {
                mismatches.push(format!(
                    "{}: gcc  {w}\n    phicc {g}\n{}",
                    target.name(),
                    defs[i].text
                ));
            }
        }
        assert!(
            mismatches.is_empty(),
            "{} of {} records differ; first ones:\n{}",
            mismatches.len(),
            defs.len(),
            mismatches
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Hand-written corner cases, one record `R<i>` per paragraph (a paragraph may also
/// declare what the record needs): unnamed and zero-width bit-fields (which raise the
/// record alignment on aarch64 only), `packed` and `aligned` on members and bit-fields,
/// `aligned` without argument, flexible array members, `long double` and pointer
/// members, `#pragma pack` with bit-fields, enum bit-fields, attributes before the
/// declarator, `aligned(N)` on (unnamed, zero-width) bit-fields under pack and packed.
const EDGE_RECORDS: &str = "\
struct R0 { char c; int : 5; };

struct R1 { char c; long : 0; char d; };

struct R2 { char c; int x __attribute__((packed)); };

struct R3 { char c; int x : 5 __attribute__((packed)); int y : 30; };

struct R4 { char c; int x : 5 __attribute__((aligned(8))); };

struct R5 { char c; } __attribute__((aligned));

struct R6 { char c; int a[]; };

struct R7 { char c; long double ld; char d; };

struct R8 { char c; double d; long long ll; short s; };

struct R9 { short s; struct { char c; int i; } in; char t; };

union R10 { char c[5]; int i; } __attribute__((packed));

enum e11 { E11A, E11B, E11C };
struct R11 { char c; enum e11 e : 2; enum e11 f; };

struct R12 { _Bool b : 1; _Bool c; char d : 1; unsigned char e : 7; };

#pragma pack(push, 2)
struct R13 { char c; int i : 20; int j : 20; long long k : 3; };
#pragma pack(pop)

#pragma pack(4)
struct R14 { char c; double d; long double ld; long long l; };
#pragma pack()

struct R15 { char c; int : 0; char d; short : 0; char e; };

struct R16 { char c; char : 0; char d; };

struct R17 { long long a : 1; char b; };

struct R18 { char a; long long b : 1; };

struct R19 { char c; short s : 9; short t : 9; short u : 9; };

struct R20 { int i : 1; } __attribute__((aligned(64)));

struct R21 { char c; __attribute__((aligned(16))) int x; };

struct R22 { char c; int x; } __attribute__((packed, aligned(2)));

struct R23 { char a; struct R22 b; char c; };

struct __attribute__((packed)) R24 { char a; long long b : 40; char c; };

struct R25 { char a; void (*fp)(void); char *p __attribute__((aligned(1))); };

struct R26 { char c; int : 5 __attribute__((aligned(8))); char d; int y : 5 __attribute__((aligned(2))); };

union R27 { char c; long long : 0; int : 3; };

struct R28 { char c; unsigned long long x : 63; char d; };

struct R29 { char c[3]; short s : 4; int i : 20; };

struct R30 { char c; long double ld[2]; } __attribute__((packed));

#pragma pack(1)
struct R31 { char c; int : 0; short s; long : 0; };
#pragma pack()

struct R32 { char c; struct R0 r; struct R1 r1; };

#pragma pack(2)
struct R33 { char c; int : 0 __attribute__((aligned(8))); char d; int x : 5 __attribute__((aligned(8))); };
#pragma pack()

struct __attribute__((packed)) R34 { char c; int x : 5 __attribute__((aligned(8))); char : 0 __attribute__((aligned(4))); char d; };

#pragma pack(1)
struct R35 { char c; int : 5 __attribute__((aligned(8))); char d; long long e : 5 __attribute__((aligned(2))); };
#pragma pack()

union R36 { char c; int x : 5 __attribute__((aligned(8))); };

struct R37 { char c; int x : 30 __attribute__((aligned(1))); long long y : 5 __attribute__((aligned(2))); };
";

/// The corner cases as `Def`s: named members and their bit-field kind come from phicc's
/// own parse of the text (x86_64: the member lists are target independent); each record
/// gets a zero-initialized object `v<i>`.
fn edge_defs() -> Vec<Def> {
    let opts = PreprocessOptions::default();
    let pp = preprocess_str("edge.c", EDGE_RECORDS, &opts).expect("preprocess");
    let out = parse_translation_unit(pp.tokens, &pp.sources, Target::X86_64)
        .unwrap_or_else(|e| panic!("phicc rejects the corner cases: {}", e.headline()));
    let records = &out.unit.records.records;
    EDGE_RECORDS
        .split("\n\n")
        .enumerate()
        .map(|(i, chunk)| {
            let tag = format!("R{i}");
            assert!(
                chunk.contains(&format!(" {tag} ")),
                "paragraph {i} defines {tag}"
            );
            let r = records
                .iter()
                .find(|r| r.tag.as_deref() == Some(tag.as_str()))
                .expect("record");
            let named = r
                .fields
                .iter()
                .filter_map(|f| {
                    let name = f.name.clone()?;
                    let bitfield_bool = f
                        .bitfield
                        .map(|_| f.ty.ty == compiler::frontend::types::Type::Bool);
                    Some(Named {
                        name,
                        bitfield_bool,
                        init: String::new(),
                    })
                })
                .collect();
            let kw = if chunk.contains(&format!("union {tag}")) {
                "union"
            } else {
                "struct"
            };
            let text = format!("{chunk}\n{kw} {tag} v{i} = {{ 0 }};\n");
            Def { tag, text, named }
        })
        .collect()
}

#[test]
fn corner_case_records_match_gcc_on_all_four_targets() {
    let defs = edge_defs();
    let dir = scratch_dir("layout_gcc_edges");
    let mut mismatches = Vec::new();
    for target in Target::ALL {
        let want = gcc_lines(target, &defs, &dir);
        let got = our_lines(&defs, target);
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            if w != g {
                mismatches.push(format!(
                    "{}: gcc  {w}\n    phicc {g}\n{}",
                    target.name(),
                    defs[i].text
                ));
            }
        }
    }
    assert_no_differences(&mismatches);
}

/// `aligned(N)` on a typedef name: gcc gives the name that alignment (for all four
/// targets `__alignof__` is 8 for each form below, and `struct { char c; T x; }` has
/// size 16), which phicc's types cannot carry, so phicc must reject every use of the name
/// rather than lay it out with alignment 4 (the declaration alone is harmless); on the
/// record a typedef defines, it is the record's alignment, which phicc supports (checked
/// against gcc here too), and so is an untagged record of 8 bytes defined in the typedef.
#[test]
fn aligned_typedefs_are_rejected_unless_on_the_record() {
    let dir = scratch_dir("layout_gcc_typedefs");
    let rejected = [
        "typedef int A __attribute__((aligned(8)));",
        "typedef int __attribute__((aligned(8))) A;",
        "typedef struct S { char c; } A __attribute__((aligned(8)));",
        "void f(void) { typedef int A __attribute__((aligned(8))); }",
    ];
    for target in Target::ALL {
        for (i, decl) in rejected.iter().enumerate() {
            // gcc's alignment for the typedef (the local one: same declaration at file
            // scope).
            let file_scope = decl
                .trim_start_matches("void f(void) { ")
                .trim_end_matches(" }");
            let program = format!(
                "{file_scope}\nunsigned long long L[] = {{ __alignof__(A), \
                 sizeof(struct {{ char c; A x; }}) }};\n"
            );
            let asm = gcc_asm(target, &program, &[], &dir, &format!("td{i}"));
            let got = le_values(&data_objects(&asm, target)["L"], 8);
            assert_eq!(got, [8, 16], "{}: gcc on {decl}", target.name());
            let opts = PreprocessOptions {
                target,
                ..PreprocessOptions::default()
            };
            let pp = preprocess_str("td.c", decl, &opts).expect("preprocess");
            if let Err(e) = parse_translation_unit(pp.tokens, &pp.sources, target) {
                panic!("{decl}: the declaration alone is refused: {}", e.headline());
            }
            let used = match decl.strip_suffix(" }") {
                Some(body) => format!("{body} A x; }}"),
                None => format!("{decl}\nA x;"),
            };
            let pp = preprocess_str("td.c", &used, &opts).expect("preprocess");
            match parse_translation_unit(pp.tokens, &pp.sources, target) {
                Err(e) => assert!(
                    e.headline()
                        .contains("with an 'aligned' attribute that changes its alignment"),
                    "{used}: {}",
                    e.headline()
                ),
                Ok(_) => panic!("{}: phicc accepts {used}", target.name()),
            }
        }
        let accepted = "typedef struct S { char c; } __attribute__((aligned(8))) A;\n\
                        struct T { char c; A x; };\n";
        let asm = gcc_asm(
            target,
            &format!("{accepted}unsigned long long L[] = {{ sizeof(struct T) }};\n"),
            &[],
            &dir,
            "td_ok",
        );
        let want = le_values(&data_objects(&asm, target)["L"], 8);
        let opts = PreprocessOptions {
            target,
            ..PreprocessOptions::default()
        };
        let pp = preprocess_str("td.c", accepted, &opts).expect("preprocess");
        let out = parse_translation_unit(pp.tokens, &pp.sources, target)
            .unwrap_or_else(|e| panic!("{}: {}", target.name(), e.headline()));
        let t = out
            .unit
            .records
            .records
            .iter()
            .find(|r| r.tag.as_deref() == Some("T"))
            .expect("struct T");
        assert_eq!(want, [t.size], "{}: sizeof(struct T)", target.name());
    }
}
