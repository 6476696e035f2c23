//! Record layout against real gcc: random struct/union definitions (nested records,
//! arrays, bit-fields of every width and base type, unnamed and zero-width bit-fields,
//! `packed`, `aligned(N)`, `#pragma pack`) are parsed by phicc and compiled by gcc for
//! x86_64 (host `gcc`) and i686 (`i686-linux-gnu-gcc -static`, which runs natively on
//! an x86_64 kernel). The gcc-compiled program prints every record's size and
//! alignment, every member's offset, and every bit-field's first bit and width (found
//! by setting the field to all ones in a zeroed object and scanning its bytes);
//! phicc's `RecordDef`s must give the same lines. Expected values come from gcc only.
//!
//! Requires `gcc` and `i686-linux-gnu-gcc` (installed by `scripts/setup.sh`); every
//! child process runs under a timeout.

use compiler::frontend::parse::parse_translation_unit;
use compiler::frontend::types::RecordDef;
use compiler::frontend::{preprocess_str, PreprocessOptions, Target};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
            if flavour == 0 && ty != "_Bool" {
                let _ = writeln!(body, "  {ty} : 0;");
            } else if flavour == 1 {
                let w = 1 + rng.below(u64::from(bits));
                let _ = writeln!(body, "  {ty} : {w};");
            } else {
                let w = 1 + rng.below(u64::from(bits));
                let _ = writeln!(body, "  {ty} {name} : {w};");
                named.push(Named {
                    name,
                    bitfield_bool: Some(ty == "_Bool"),
                });
                has_named = true;
            }
            continue;
        }
        let base = if kind < 8 || previous.is_empty() {
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
        if rng.chance(25) {
            let _ = write!(decl, "[{}]", 1 + rng.below(4));
            if rng.chance(30) {
                let _ = write!(decl, "[{}]", 1 + rng.below(3));
            }
        }
        if rng.chance(6) {
            let _ = write!(decl, " __attribute__((aligned({})))", 1u64 << rng.below(5));
        }
        let _ = writeln!(body, "  {decl};");
        named.push(Named {
            name,
            bitfield_bool: None,
        });
        has_named = true;
    }
    if !has_named {
        body.push_str("  int last;\n");
        named.push(Named {
            name: "last".into(),
            bitfield_bool: None,
        });
    }
    let mut attrs = String::new();
    if rng.chance(12) {
        attrs.push_str(" __attribute__((packed))");
    }
    if rng.chance(10) {
        let _ = write!(attrs, " __attribute__((aligned({})))", 1u64 << rng.below(5));
    }
    let mut text = format!("{kw} {tag} {{\n{body}}}{attrs};\n");
    if rng.chance(15) {
        let p = 1u64 << rng.below(4);
        text = if rng.chance(50) {
            format!("#pragma pack(push, {p})\n{text}#pragma pack(pop)\n")
        } else {
            format!("#pragma pack(push)\n#pragma pack({p})\n{text}#pragma pack(pop)\n")
        };
    }
    Def { tag, text, named }
}

fn kind_of(def: &Def) -> &'static str {
    if def.text.contains(&format!("union {} {{", def.tag)) {
        "union"
    } else {
        "struct"
    }
}

/// The C program printing gcc's answers.
fn checker_program(defs: &[Def]) -> String {
    let mut s = String::from(
        "#include <stdio.h>\n#include <string.h>\n#include <stddef.h>\n\
         static void bits(const void *v, unsigned n) {\n\
           const unsigned char *p = v; int lo = -1, cnt = 0; unsigned i;\n\
           for (i = 0; i < n * 8; i++) if ((p[i / 8] >> (i % 8)) & 1) { if (lo < 0) lo = (int)i; cnt++; }\n\
           printf(\" %d:%d\", lo, cnt);\n}\n",
    );
    for d in defs {
        s.push_str(&d.text);
    }
    s.push_str("int main(void) {\n");
    for d in defs {
        let k = kind_of(d);
        let t = format!("{k} {}", d.tag);
        let _ = writeln!(
            s,
            "  printf(\"{} %u %u\", (unsigned)sizeof({t}), (unsigned)_Alignof({t}));",
            d.tag
        );
        for m in &d.named {
            match m.bitfield_bool {
                None => {
                    let _ = writeln!(s, "  printf(\" %u\", (unsigned)offsetof({t}, {}));", m.name);
                }
                Some(is_bool) => {
                    let v = if is_bool { "1" } else { "~0" };
                    let _ = writeln!(
                        s,
                        "  {{ {t} o; memset(&o, 0, sizeof o); o.{} = {v}; bits(&o, sizeof o); }}",
                        m.name
                    );
                }
            }
        }
        s.push_str("  printf(\"\\n\");\n");
    }
    s.push_str("  return 0;\n}\n");
    s
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
            line
        })
        .collect()
}

fn run_with_timeout(cmd: &mut Command, limit: Duration) -> std::process::Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e} (run scripts/setup.sh)"));
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} timed out");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn gcc_lines(compiler: &str, extra: &[&str], program: &str, dir: &Path, name: &str) -> Vec<String> {
    let c = dir.join(format!("{name}.c"));
    let exe: PathBuf = dir.join(name);
    std::fs::write(&c, program).expect("write C");
    let out = run_with_timeout(
        Command::new(compiler)
            .args(["-std=gnu99", "-w", "-O0"])
            .args(extra)
            .arg(&c)
            .arg("-o")
            .arg(&exe),
        Duration::from_secs(120),
    );
    assert!(
        out.status.success(),
        "{compiler} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = run_with_timeout(&mut Command::new(&exe), Duration::from_secs(30));
    assert!(run.status.success(), "{name} failed to run");
    String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect()
}

#[test]
fn random_records_match_gcc_on_x86_64_and_i686() {
    let mut rng = Rng(0x5eed_1a70_u64);
    let mut defs: Vec<Def> = Vec::new();
    for i in 0..300 {
        let d = gen_record(&mut rng, i, &defs);
        defs.push(d);
    }
    let program = checker_program(&defs);
    let dir = std::env::temp_dir().join(format!("phicc_layout_gcc_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (target, compiler, extra) in [
        (Target::X86_64, "gcc", &[][..]),
        (Target::I686, "i686-linux-gnu-gcc", &["-static"][..]),
    ] {
        let want = gcc_lines(compiler, extra, &program, &dir, target.name());
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
    let _ = std::fs::remove_dir_all(&dir);
}
