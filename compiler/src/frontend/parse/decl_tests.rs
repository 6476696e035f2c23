//! Unit tests of the declarations part: specifiers, declarators, tags, layout through
//! the parser, linkage merging, initializers and static images. Expected values come
//! from the C standard and gcc's documented behaviour, worked out in the comments.

use super::{parse_translation_unit, ParseOutput};
use crate::frontend::ast::{ExprKind, GlobalVar, Initializer, RelocTarget, Stmt};
use crate::frontend::types::{FloatKind, IntKind, QualType, RecordDef, Type};
use crate::frontend::{preprocess_str, Diagnostic, PreprocessOptions, Target};

fn parse_t(src: &str, target: Target) -> Result<ParseOutput, Diagnostic> {
    let opts = PreprocessOptions {
        target,
        ..PreprocessOptions::default()
    };
    let pp = preprocess_str("t.c", src, &opts)?;
    parse_translation_unit(pp.tokens, &pp.sources, target)
}

fn parse(src: &str) -> ParseOutput {
    match parse_t(src, Target::X86_64) {
        Ok(o) => o,
        Err(e) => panic!("unexpected error: {}", e.headline()),
    }
}

fn error(src: &str) -> String {
    match parse_t(src, Target::X86_64) {
        Ok(_) => panic!("expected an error for {src}"),
        Err(e) => e.headline(),
    }
}

fn global<'a>(o: &'a ParseOutput, name: &str) -> &'a GlobalVar {
    o.unit
        .globals
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("no global {name}"))
}

fn record<'a>(o: &'a ParseOutput, tag: &str) -> &'a RecordDef {
    o.unit
        .records
        .records
        .iter()
        .find(|r| r.tag.as_deref() == Some(tag))
        .unwrap_or_else(|| panic!("no record {tag}"))
}

fn int(k: IntKind) -> Type {
    Type::Int(k)
}

fn ptr(t: Type) -> Type {
    Type::Pointer(std::rc::Rc::new(QualType::new(t)))
}

fn arr(t: Type, n: Option<u64>) -> Type {
    Type::Array(std::rc::Rc::new(QualType::new(t)), n)
}

#[test]
fn specifier_combinations() {
    let o = parse(
        "long long unsigned int a; signed char b; _Bool c; long double d; \
         unsigned e; short int f; long g; char h; double i; float j; int long signed k;",
    );
    let want = [
        ("a", int(IntKind::ULongLong)),
        ("b", int(IntKind::SChar)),
        ("c", Type::Bool),
        ("d", Type::Float(FloatKind::LongDouble)),
        ("e", int(IntKind::UInt)),
        ("f", int(IntKind::Short)),
        ("g", int(IntKind::Long)),
        ("h", int(IntKind::Char)),
        ("i", Type::Float(FloatKind::Double)),
        ("j", Type::Float(FloatKind::Float)),
        ("k", int(IntKind::Long)),
    ];
    for (n, t) in want {
        assert_eq!(global(&o, n).ty.ty, t, "{n}");
    }
}

#[test]
fn specifier_errors_are_gcc_worded() {
    assert!(error("int char x;").contains("two or more data types in declaration specifiers"));
    assert!(error("signed unsigned x;").contains("both 'signed' and 'unsigned'"));
    assert!(error("long long long x;").contains("'long long long' is too long for GCC"));
    assert!(error("static extern int x;").contains("multiple storage classes"));
    assert!(error("_Complex double z;").contains("not supported"));
    assert!(error("struct S { int x; } int y;").contains("two or more data types"));
    assert!(error("struct S { int a; } struct T { int b; };")
        .starts_with("t.c:1:21: error: expected ';', identifier or '(' before 'struct'"));
}

#[test]
fn declarators_nest_as_c_says() {
    // int *(*a[3])[4]: array 3 of pointer to array 4 of pointer to int.
    // int (*fp)(int): pointer to function (int) returning int.
    // char (*(*x())[5])(void) is not needed; a function returning a pointer works:
    // int *(g)(void): function returning pointer to int.
    let o = parse("int *(*a[3])[4]; int (*fp)(int); int *(g)(void);");
    let a = &global(&o, "a").ty.ty;
    assert_eq!(*a, arr(ptr(arr(ptr(Type::int()), Some(4))), Some(3)));
    let Type::Pointer(f) = &global(&o, "fp").ty.ty else {
        panic!("fp not a pointer")
    };
    let Type::Function(ft) = &f.ty else {
        panic!("fp not to a function")
    };
    assert_eq!(ft.params, vec![QualType::new(Type::int())]);
    assert!(ft.has_prototype && !ft.variadic);
    let g = &o.unit.externs.iter().find(|e| e.name == "g").expect("g").ty;
    assert_eq!(g.ret.ty, ptr(Type::int()));
    assert!(g.params.is_empty() && g.has_prototype);
}

#[test]
fn parameters_are_adjusted_and_old_style_has_no_prototype() {
    // Array and function parameters become pointers (C99 6.7.5.3p7-8).
    let o = parse("int f(int a[10], int g(void), const int x); int h(); int v(int, ...);");
    let f = &o.unit.externs.iter().find(|e| e.name == "f").expect("f").ty;
    assert_eq!(f.params[0].ty, ptr(Type::int()));
    assert!(matches!(&f.params[1].ty, Type::Pointer(p) if matches!(p.ty, Type::Function(_))));
    // Top-level qualifiers of parameters are not part of the function type.
    assert_eq!(f.params[2], QualType::new(Type::int()));
    let h = &o.unit.externs.iter().find(|e| e.name == "h").expect("h").ty;
    assert!(!h.has_prototype);
    let v = &o.unit.externs.iter().find(|e| e.name == "v").expect("v").ty;
    assert!(v.variadic);
    assert!(error("int f(void, int);").contains("'void' must be the only parameter"));
}

#[test]
fn typedef_names_and_shadowing() {
    // `T T;` in an inner scope declares an object T of type T (6.7.2p2: a typedef
    // name is a type specifier only when no other type specifier came before).
    let o = parse("typedef unsigned char T; T g; int main(void) { T T; T = 3; return T; }");
    assert_eq!(global(&o, "g").ty.ty, int(IntKind::UChar));
    let f = &o.unit.functions[0];
    assert_eq!(f.locals[0].name, "T");
    assert_eq!(f.locals[0].ty.ty, int(IntKind::UChar));
    // Qualifiers on a typedef'd array type qualify its elements (C99 6.7.3p8).
    let o = parse("typedef int A[3]; const A x = {1};");
    let Type::Array(elem, Some(3)) = &global(&o, "x").ty.ty else {
        panic!("x not an array")
    };
    assert!(elem.is_const);
}

#[test]
fn struct_layout_and_bitfields_via_parser() {
    // struct A: char c (0); int i (4); size 8 align 4.
    // struct B: unsigned a:3 (bits 0-2); unsigned b:30 would span bits 3..33,
    //   crossing the 32-bit unit -> bit 32; char c at byte 8; size 12.
    // struct C (packed): char c (0); int i (1); size 5, align 1.
    let o = parse(
        "struct A { char c; int i; } a;\n\
         struct B { unsigned a:3; unsigned b:30; char c; } b;\n\
         struct __attribute__((packed)) C { char c; int i; } c;\n",
    );
    let ra = record(&o, "A");
    assert_eq!((ra.size, ra.align, ra.fields[1].offset), (8, 4, 4));
    let rb = record(&o, "B");
    assert_eq!(
        rb.fields[1].bitfield.map(|b| (b.bit_offset, b.width)),
        Some((32, 30))
    );
    assert_eq!((rb.fields[2].offset, rb.size), (8, 12));
    let rc = record(&o, "C");
    assert_eq!((rc.size, rc.align, rc.fields[1].offset), (5, 1, 1));
}

#[test]
fn pragma_pack_push_pop_as_csmith_emits_it() {
    // Between push/1 and pop, struct P is packed to 1: size 1 + 4 = 5; Q afterwards
    // is laid out normally: 8.
    let o = parse(
        "#pragma pack(push)\n#pragma pack(1)\nstruct P { char c; int i; };\n#pragma pack(pop)\n\
         struct Q { char c; int i; };\n",
    );
    assert_eq!(record(&o, "P").size, 5);
    assert_eq!(record(&o, "Q").size, 8);
}

#[test]
fn tags_forward_declared_and_completed() {
    // `struct S *p;` before the definition refers to the same struct.
    let o = parse("struct S *p; struct S { int x; long y; }; struct S s;");
    let rs = record(&o, "S");
    assert!(rs.complete);
    assert_eq!(rs.size, 16);
    assert!(
        error("struct S { int x; }; struct S { int y; };").contains("redefinition of 'struct S'")
    );
    assert!(error("struct S; union S *p;").contains("'S' defined as wrong kind of tag"));
    assert!(error("struct S s;").contains("storage size of 's' isn't known"));
}

#[test]
fn block_scoped_tags_shadow() {
    // The inner `struct S` is a new type (size 1), the outer one keeps size 8.
    let o =
        parse("struct S { long x; }; int f(void) { struct S { char c; } s; return sizeof(s); }");
    let sizes: Vec<u64> = o
        .unit
        .records
        .records
        .iter()
        .filter(|r| r.tag.as_deref() == Some("S"))
        .map(|r| r.size)
        .collect();
    assert_eq!(sizes, vec![8, 1]);
}

#[test]
fn enums_pick_gcc_types() {
    // No negative value -> unsigned int; a negative one -> int; constants are ints.
    let o = parse("enum E { A, B = 5, C }; enum E e; enum F { N = -1, M }; enum F f; int arr[C];");
    assert_eq!(global(&o, "e").ty.ty, int(IntKind::UInt));
    assert_eq!(global(&o, "f").ty.ty, int(IntKind::Int));
    // C = 6.
    assert_eq!(global(&o, "arr").ty.ty, arr(Type::int(), Some(6)));
    // Values beyond int: gcc picks the first of unsigned int, unsigned long (LP64)
    // that holds them all, or long when one is negative.
    let o = parse("enum W { X = 0x100000000 } w; enum V { Y = -1, Z = 0x80000000 } v;");
    assert_eq!(global(&o, "w").ty.ty, int(IntKind::ULong));
    assert_eq!(global(&o, "v").ty.ty, int(IntKind::Long));
    assert!(error("enum E { A }; enum E { B };").contains("redeclaration of 'enum E'"));
    assert!(error("int A; enum E { A };").contains("redeclaration of 'A'"));
}

#[test]
fn linkage_merging() {
    // extern then definition: one global, defined. Tentative + incomplete array
    // completed later. extern never defined: is_extern_only.
    // completed later. extern never defined: align: None,
    let o = parse(
        "extern int x; int x = 3; int a[]; int a[4]; extern int e; static int s; static int s;",
    );
    assert_eq!(o.unit.globals.iter().filter(|g| g.name == "x").count(), 1);
    let x = global(&o, "x");
    assert!(!x.is_extern_only);
    assert_eq!(
        x.init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![3, 0, 0, 0])
    );
    assert_eq!(global(&o, "a").ty.ty, arr(Type::int(), Some(4)));
    assert!(global(&o, "e").is_extern_only);
    assert!(global(&o, "s").is_static);
    assert!(error("int x; long x;").contains("conflicting types for 'x'"));
    assert!(error("int f(int); int f(long);").contains("conflicting types for 'f'"));
    assert!(error("int f(); int f(char);").contains("conflicting types for 'f'"));
    assert!(error("int x = 1; int x = 2;").contains("redefinition of 'x'"));
    assert!(error("int x; static int x;").contains("static declaration of 'x' follows non-static"));
    assert!(error("int f; int f(void);").contains("redeclared as different kind of symbol"));
}

#[test]
fn tentative_incomplete_array_gets_one_element() {
    let o = parse("int a[];");
    assert_eq!(global(&o, "a").ty.ty, arr(Type::int(), Some(1)));
    assert!(!o.warnings.is_empty());
}

#[test]
fn function_definition_parameters_are_locals() {
    // Parameters are locals 0..n (unnamed included), static locals become globals
    // `f.name.N`.
    let o = parse(
        "static int __attribute__((noinline)) f(int a, char *, long c) { static int k = 7; int z = a; return z + k; }",
    );
    let f = &o.unit.functions[0];
    assert!(f.is_static && f.is_noinline);
    assert_eq!(f.params.len(), 3);
    assert!(f.locals[..3].iter().all(|l| l.is_param));
    assert_eq!(f.locals[3].name, "z");
    let k = global(&o, "f.k.0");
    assert_eq!(
        k.init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![7, 0, 0, 0])
    );
    assert!(error("int f(void) { return 0; } int f(void) { return 1; }")
        .contains("redefinition of 'f'"));
}

#[test]
fn csmith_parenthesised_function_names() {
    let o = parse(
        "typedef signed char int8_t;\n\
         static int8_t (safe_add)(int8_t si1, int8_t si2) { return si1 + si2; }\n\
         int main(void) { return safe_add(1, 2); }",
    );
    assert_eq!(o.unit.functions[0].name, "safe_add");
    assert_eq!(o.unit.functions[0].params.len(), 2);
}

#[test]
fn static_initializers_bytes_and_relocs() {
    // struct { char c; short s; int i; } = {1, 0x203, -1}: bytes
    //   01 00 03 02 ff ff ff ff (padding byte 1 is zero).
    // Bit-fields unsigned a:3 = 5, b:5 = 3 -> byte0 = 5 | 3<<3 = 0x1d.
    // int *p = &g[2] -> relocation to g, addend 8.
    // char s[] = "ab" -> 3 bytes; char t[2] = "ab" -> 2 bytes, no NUL.
    let o = parse(
        "struct T { char c; short s; int i; } t = {1, 0x203, -1};\n\
         struct U { unsigned a:3, b:5; } u = { 5, 3 };\n\
         int g[4]; int *p = &g[2];\n\
         char s[] = \"ab\"; char t2[2] = \"ab\";\n\
         int m[2][3] = { 1, 2, 3, { 4 } };\n\
         int d[5] = { [3] = 9, 1, [0] = 2 };\n",
    );
    assert_eq!(
        global(&o, "t").init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![1, 0, 3, 2, 0xff, 0xff, 0xff, 0xff])
    );
    assert_eq!(
        global(&o, "u").init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![0x1d, 0, 0, 0])
    );
    let p = global(&o, "p").init.clone().expect("p init");
    assert_eq!(p.relocs.len(), 1);
    assert_eq!(p.relocs[0].addend, 8);
    assert!(matches!(p.relocs[0].target, RelocTarget::Global(_)));
    let s = global(&o, "s");
    assert_eq!(s.ty.ty, arr(int(IntKind::Char), Some(3)));
    assert_eq!(
        s.init.as_ref().map(|i| i.bytes.clone()),
        Some(b"ab\0".to_vec())
    );
    assert_eq!(
        global(&o, "t2").init.as_ref().map(|i| i.bytes.clone()),
        Some(b"ab".to_vec())
    );
    // m = {{1,2,3},{4,0,0}} by brace elision.
    let m: Vec<u8> = [1u8, 2, 3, 4, 0, 0]
        .iter()
        .flat_map(|v| [*v, 0, 0, 0])
        .collect();
    assert_eq!(
        global(&o, "m").init.as_ref().map(|i| i.bytes.clone()),
        Some(m)
    );
    // d = {2, 0, 0, 9, 1}: [3]=9 then the next element [4]=1, then [0]=2.
    let d: Vec<u8> = [2u8, 0, 0, 9, 1]
        .iter()
        .flat_map(|v| [*v, 0, 0, 0])
        .collect();
    assert_eq!(
        global(&o, "d").init.as_ref().map(|i| i.bytes.clone()),
        Some(d)
    );
    assert!(error("int f(void); int x; int y = x;").contains("initializer element is not constant"));
}

#[test]
fn designators_into_nested_members() {
    // .b.y = 5 then 6 continues with the member after b.y inside b (b.z).
    // Layout: a at 0, b = {x 4, y 8, z 12}, c at 16.
    let o = parse(
        "struct In { int x, y, z; }; struct Out { int a; struct In b; int c; };\n\
         struct Out o = { .b.y = 5, 6, .a = 1 };",
    );
    let mut want = vec![0u8; 20];
    want[0] = 1;
    want[8] = 5;
    want[12] = 6;
    assert_eq!(
        global(&o, "o").init.as_ref().map(|i| i.bytes.clone()),
        Some(want)
    );
}

#[test]
fn local_initializers_are_flattened() {
    // int a[3] = {1, [2] = 3}: items at offsets 0 and 8.
    // struct S s = {1, 2}; struct S t = s;  (t from a struct expression)
    let o = parse(
        "struct S { char c; int i; };\n\
         int f(void) { int a[3] = {1, [2] = 3}; struct S s = {1, 2}; struct S t = s; int x = {4}; char str[] = \"hi\"; return 0; }",
    );
    let f = &o.unit.functions[0];
    let Stmt::Compound(body) = &f.body else {
        panic!("body")
    };
    let decls: Vec<&(crate::frontend::ast::LocalId, Option<Initializer>)> = body
        .iter()
        .filter_map(|s| match s.inner() {
            Stmt::Decl(d) => Some(d.iter()),
            _ => None,
        })
        .flatten()
        .collect();
    let Some(Initializer::List(a)) = &decls[0].1 else {
        panic!("a")
    };
    assert_eq!(a.iter().map(|i| i.offset).collect::<Vec<_>>(), vec![0, 8]);
    let Some(Initializer::List(s)) = &decls[1].1 else {
        panic!("s")
    };
    assert_eq!(s.iter().map(|i| i.offset).collect::<Vec<_>>(), vec![0, 4]);
    assert!(matches!(&decls[2].1, Some(Initializer::Expr(e)) if e.ty.ty.is_record()));
    assert!(matches!(&decls[3].1, Some(Initializer::List(l)) if l.len() == 1));
    assert_eq!(f.locals[4].ty.ty, arr(int(IntKind::Char), Some(3)));
    let Some(Initializer::List(st)) = &decls[4].1 else {
        panic!("str")
    };
    assert!(matches!(st[1].value.kind, ExprKind::IntLit(105)));
}

#[test]
fn i686_layout_of_long_long_and_double_members() {
    // i386 SysV: double and long long align to 4 inside structs.
    let o = parse_t(
        "struct D { char c; double d; long long l; } x;",
        Target::I686,
    )
    .unwrap_or_else(|e| panic!("{}", e.headline()));
    let r = record(&o, "D");
    assert_eq!(
        (r.fields[1].offset, r.fields[2].offset, r.size, r.align),
        (4, 12, 20, 4)
    );
}

/// Deep nesting is an error, never a stack overflow. Run on an 8 MiB stack, as the
/// driver's main thread has (the expression parser budgets 4 MiB of it).
#[test]
fn deep_declarators_are_an_error_not_a_crash() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(deep_declarators_body)
        .expect("thread")
        .join()
        .expect("no panic");
}

fn deep_declarators_body() {
    let src = format!("int {}x{};", "(".repeat(5000), ")".repeat(5000));
    assert!(error(&src).contains("nested too deeply"));
    let src = format!("int x[1] = {};", "{".repeat(5000));
    let e = error(&src);
    assert!(e.contains("nested too deeply"), "{e}");
    // Many array dimensions or pointer levels: types themselves are bounded.
    let src = format!("int x{} = {{1}};", "[1]".repeat(20_000));
    assert!(error(&src).contains("nested too deeply"));
    let src = format!("int {}p;", "*".repeat(20_000));
    assert!(error(&src).contains("nested too deeply"));
    // Declarators inside expressions inside declarators, and nested __typeof__.
    let src = format!(
        "int a[{}1{}];",
        "sizeof(int[".repeat(3000),
        "])".repeat(3000)
    );
    assert!(error(&src).contains("nested too deeply"));
    let src = format!("{}int{} t;", "__typeof__(".repeat(3000), ")".repeat(3000));
    assert!(error(&src).contains("nested too deeply"));
}

#[test]
fn random_bytes_never_panic() {
    // A small deterministic fuzz: token soup made of declaration pieces.
    let pieces = [
        "int",
        "struct",
        "S",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "*",
        ";",
        ",",
        "=",
        "x",
        "typedef",
        "union",
        "enum",
        ":",
        "3",
        "const",
        "__attribute__((packed))",
        "static",
        "...",
        "void",
        "char",
        "unsigned",
        "long",
        ".",
        "\"s\"",
        "#pragma pack(1)\n",
    ];
    let mut state: u64 = 0x9e3779b97f4a7c15;
    for _ in 0..300 {
        let mut src = String::new();
        let n = (state % 24) as usize + 1;
        for _ in 0..n {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            src.push_str(pieces[(state % pieces.len() as u64) as usize]);
            src.push(' ');
        }
        let _ = parse_t(&src, Target::X86_64);
    }
}

#[test]
fn anonymous_members_and_flexible_arrays() {
    // struct A { int k; union { int i; char c; }; long l; }: the union is an unnamed
    // field at offset 4 (align 4, size 4), l at 8, size 16. Initialized positionally
    // as a sub-aggregate: {1, {2}, 3}; `.c = 7` reaches the member through it.
    // struct F { int n; char d[]; }: size 4, d at offset 4.
    let o = parse(
        "struct A { int k; union { int i; char c; }; long l; } a = {1, {2}, 3};\n\
         struct A b = { .c = 7, .l = 9 };\n\
         struct F { int n; char d[]; };\n",
    );
    let ra = record(&o, "A");
    assert_eq!(ra.fields.len(), 3);
    assert!(ra.fields[1].name.is_none());
    assert_eq!(
        (ra.fields[1].offset, ra.fields[2].offset, ra.size),
        (4, 8, 16)
    );
    let mut want = vec![0u8; 16];
    want[0] = 1;
    want[4] = 2;
    want[8] = 3;
    assert_eq!(
        global(&o, "a").init.as_ref().map(|i| i.bytes.clone()),
        Some(want)
    );
    let mut want = vec![0u8; 16];
    want[4] = 7;
    want[8] = 9;
    assert_eq!(
        global(&o, "b").init.as_ref().map(|i| i.bytes.clone()),
        Some(want)
    );
    let rf = record(&o, "F");
    assert_eq!((rf.size, rf.fields[1].offset), (4, 4));
    assert!(error("struct G { char d[]; int n; };").contains("flexible array member not at end"));
    assert!(error("struct H { int a; int a; };").contains("duplicate member 'a'"));
}

#[test]
fn flexible_array_member_initializers_grow_the_static_object() {
    // struct F { int n; char d[]; }: sizeof 4; `{2, "ab"}` needs 4 + 3 bytes, gcc's
    // object is 7 bytes (no rounding); `{}` and a union with room leave the size alone.
    let o = parse(
        "struct F { int n; char d[]; };\n\
         struct F s = { 2, \"ab\" };\n\
         struct F e = { .n = 1, .d = {} };\n\
         struct I { short k; int v[]; } i = { 1, { 2, 3 } };\n\
         union U { struct F f; char room[12]; } u = { { 9, { 'x' } } };\n",
    );
    let bytes = |name| global(&o, name).init.as_ref().map(|i| i.bytes.clone());
    assert_eq!(bytes("s"), Some(vec![2, 0, 0, 0, b'a', b'b', 0]));
    assert_eq!(bytes("e"), Some(vec![1, 0, 0, 0]));
    assert_eq!(bytes("i"), Some(vec![1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]));
    let mut want = vec![0u8; 12];
    want[0] = 9;
    want[4] = b'x';
    assert_eq!(bytes("u"), Some(want));
    assert_eq!(global(&o, "s").ty.ty, global(&o, "e").ty.ty);
    // An automatic object cannot grow (gcc's error); an empty member initializer is fine.
    assert!(
        error("struct F { int n; char d[]; }; void f(void) { struct F x = { 1, \"a\" }; }")
            .contains("non-static initialization of a flexible array member")
    );
    parse("struct F { int n; char d[]; }; void f(void) { struct F x = { 1, {} }; }");
}

#[test]
fn bitfield_constraints() {
    assert!(error("struct S { int a : 33; };").contains("width of 'a' exceeds its type"));
    assert!(error("struct S { _Bool b : 2; };").contains("width of 'b' exceeds its type"));
    assert!(error("struct S { int a : 0; };").contains("zero width for bit-field 'a'"));
    assert!(error("struct S { int a : -1; };").contains("negative width in bit-field 'a'"));
    assert!(error("struct S { float f : 3; };").contains("bit-field 'f' has invalid type"));
    // `signed`/plain int bit-fields are signed; unsigned ones are not.
    let o = parse("struct S { int a : 3; unsigned b : 3; signed c : 3; } s;");
    let r = record(&o, "S");
    assert!(r.fields[0].ty.ty.is_signed(Target::X86_64));
    assert!(!r.fields[1].ty.ty.is_signed(Target::X86_64));
    assert!(r.fields[2].ty.ty.is_signed(Target::X86_64));
}

#[test]
fn gnu_extensions_typeof_asm_attributes() {
    // __typeof__ of a type and of an expression; asm labels and attributes are
    // accepted where gcc accepts them and do not change the declared names.
    let o = parse(
        "int x; __typeof__(x) y; __typeof__(char *) z;\n\
         extern int w __asm__(\"w_sym\") __attribute__((weak));\n\
         __extension__ typedef long long ll; ll q;\n\
         int __attribute__((unused)) u, *__attribute__((unused)) up;\n\
         struct __attribute__((aligned(16))) Al { char c; } al;\n\
         struct Pk { char c; int i __attribute__((packed)); } pk;\n",
    );
    assert_eq!(global(&o, "y").ty.ty, Type::int());
    assert_eq!(global(&o, "z").ty.ty, ptr(int(IntKind::Char)));
    assert!(global(&o, "w").is_extern_only);
    assert_eq!(global(&o, "q").ty.ty, int(IntKind::LongLong));
    assert_eq!(global(&o, "up").ty.ty, ptr(Type::int()));
    // aligned(16) on the struct: align 16, size rounded to 16.
    let al = record(&o, "Al");
    assert_eq!((al.size, al.align), (16, 16));
    // packed on one member: i at offset 1, size 5, alignment 1.
    let pk = record(&o, "Pk");
    assert_eq!((pk.fields[1].offset, pk.size, pk.align), (1, 5, 1));
}

#[test]
fn old_style_definitions_and_implicit_int() {
    // K&R definitions have no prototype: a `char` parameter arrives as the promoted
    // `int` (a hidden parameter) and the named `char` local is initialised from it;
    // an undeclared parameter and a specifier-less definition are `int`.
    let o = parse("f(a, c, p) char c; long *p; { return a + c; }\nstatic x;\ny = 2;");
    let f = o.unit.functions.iter().find(|f| f.name == "f").unwrap();
    assert!(!f.ty.has_prototype);
    assert_eq!(f.ty.ret.ty, Type::int());
    let params: Vec<&Type> = f.ty.params.iter().map(|p| &p.ty).collect();
    assert_eq!(
        params,
        [&Type::int(), &Type::int(), &ptr(int(IntKind::Long))]
    );
    let local = |i: usize| &f.locals[f.params[i].0 as usize];
    assert_eq!(local(1).ty.ty, Type::int());
    assert!(local(1).name.starts_with(".promoted."));
    assert!(f
        .locals
        .iter()
        .any(|l| l.name == "c" && l.ty.ty == int(IntKind::Char)));
    assert_eq!(global(&o, "x").ty.ty, Type::int());
    assert_eq!(global(&o, "y").ty.ty, Type::int());
    assert!(error("int f(a) int b; { return a; }").contains("no such parameter"));
    assert!(error("int f(a) int a; int a; { return a; }").contains("redefinition"));
}

#[test]
fn attributes_that_could_change_the_meaning_are_refused() {
    assert!(error("typedef int v4 __attribute__((vector_size(16)));").contains("vector_size"));
    // `mode` is supported for the integer modes (mode_attr.rs), not for TI.
    assert!(error("int x __attribute__((mode(TI)));").contains("'TI'"));
    assert!(
        error("union u { int i; } __attribute__((transparent_union));")
            .contains("transparent_union")
    );
    let _ = parse("int f(void) __attribute__((noipa, noclone, pure, weak));");
}

#[test]
fn block_scope_declarations() {
    // extern local refers to the file-scope object defined later; a local function
    // declaration lands in the externs; a local typedef and a local enum work.
    let o = parse(
        "int f(void) {\n\
           extern int g; int h(int); typedef short S; enum { K = 4 } e = K; S s = 2;\n\
           int a[] = {1, 2, 3};\n\
           static const char *msg = \"hi\";\n\
           return g + h(s) + sizeof(a) + e;\n\
         }\n\
         int g = 5;\n",
    );
    assert_eq!(o.unit.globals.iter().filter(|g| g.name == "g").count(), 1);
    assert!(!global(&o, "g").is_extern_only);
    assert!(o.unit.externs.iter().any(|e| e.name == "h"));
    let f = &o.unit.functions[0];
    let a = f.locals.iter().find(|l| l.name == "a").expect("a");
    assert_eq!(a.ty.ty, arr(Type::int(), Some(3)));
    let msg = global(&o, "f.msg.0");
    let init = msg.init.as_ref().expect("msg init");
    assert!(matches!(init.relocs[0].target, RelocTarget::String(_)));
    // An attribute statement is a null statement.
    let o = parse("int g(int x) { switch (x) { case 1: x++; __attribute__((fallthrough)); default: break; } return x; }");
    assert_eq!(o.unit.functions.len(), 1);
    assert!(error("int f(void) { int x; int x; return 0; }")
        .contains("redeclaration of 'x' with no linkage"));
    assert!(error("int f(void) { extern int x = 1; return 0; }")
        .contains("both 'extern' and initializer"));
}

#[test]
fn float_and_pointer_static_images() {
    // 1.5f = 0x3fc00000, 2.0 = 0x4000000000000000 (IEEE 754), little-endian.
    // A function pointer initializer is a relocation to the function.
    let o =
        parse("float f = 1.5f; double d = 2; int fn(void); int (*fp)(void) = fn; char *np = 0;\n");
    assert_eq!(
        global(&o, "f").init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![0, 0, 0xc0, 0x3f])
    );
    assert_eq!(
        global(&o, "d").init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![0, 0, 0, 0, 0, 0, 0, 0x40])
    );
    let fp = global(&o, "fp").init.clone().expect("fp");
    assert!(matches!(&fp.relocs[0].target, RelocTarget::Function(n) if n == "fn"));
    assert_eq!(
        global(&o, "np").init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![0; 8])
    );
}

#[test]
fn union_initialization() {
    // A brace list initializes the first member; a designator picks another one.
    let o = parse("union U { char c; int i; } u1 = { 0x41 }, u2 = { .i = 0x01020304 };");
    assert_eq!(
        global(&o, "u1").init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![0x41, 0, 0, 0])
    );
    assert_eq!(
        global(&o, "u2").init.as_ref().map(|i| i.bytes.clone()),
        Some(vec![4, 3, 2, 1])
    );
}

#[test]
fn static_assert_and_pragma_pack_forms() {
    let o = parse(
        "_Static_assert(sizeof(int) == 4, \"int\");\n\
         #pragma pack(2)\nstruct A { char c; double d; };\n#pragma pack()\n\
         #pragma pack(push, 4)\nstruct B { char c; double d; };\n#pragma pack(pop)\n\
         struct C { char c; double d; };\n",
    );
    // pack(2): d at 2, size 10; pack(4): d at 4, size 12; default: d at 8, size 16.
    assert_eq!(record(&o, "A").size, 10);
    assert_eq!(record(&o, "B").size, 12);
    assert_eq!(record(&o, "C").size, 16);
    assert!(error("_Static_assert(1 == 2, \"no\");").contains("static assertion failed: \"no\""));
    // A malformed pragma and an unmatched pop are warnings.
    let o = parse("#pragma pack(pop)\n#pragma pack(3)\nint x;");
    assert_eq!(o.warnings.len(), 2);
}

#[test]
fn declaration_errors_point_at_the_right_token() {
    let e = error("int x\nint y;");
    assert!(
        e.starts_with(
            "t.c:2:1: error: expected '=', ',', ';', 'asm' or '__attribute__' before 'int'"
        ),
        "{e}"
    );
    let e = error("int x = 1\nint y;");
    assert!(
        e.starts_with("t.c:2:1: error: expected ',' or ';' before 'int'"),
        "{e}"
    );
    // gcc names the declarator for an over-wide bit-field, and the type for conflicts.
    let e = error("struct S { int x : 40; };");
    assert!(
        e.starts_with("t.c:1:16: error: width of 'x' exceeds its type"),
        "{e}"
    );
    let e = error("int f(void); double f(void);");
    assert!(
        e.contains("conflicting types for 'f'; have 'double(void)'"),
        "{e}"
    );
    let e = error("typedef int T; T x; int T;");
    assert!(
        e.contains("'T' redeclared as different kind of symbol"),
        "{e}"
    );
    let e = error("int f(void) [3];");
    assert!(e.contains("declared as function returning an array"), "{e}");
    let e = error("int a[3](void);");
    assert!(e.contains("as array of functions"), "{e}");
    let e = error("void v;");
    assert!(e.contains("variable or field 'v' declared void"), "{e}");
    let e = error("int a[-1];");
    assert!(e.contains("size of array is negative"), "{e}");
}

/// Measurement helper (not a check): parses every file named in `PHICC_PARSE_FILES`
/// (whitespace-separated) with csmith's runtime headers (and lowers them when
/// `PHICC_LOWER` is set) and prints the first error of
/// each. Run: `PHICC_PARSE_FILES="a.c b.c" cargo test -p compiler --lib parse_files -- --ignored --nocapture`.
#[test]
#[ignore]
fn parse_files() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(parse_files_body)
        .expect("thread")
        .join()
        .expect("no panic");
}

fn parse_files_body() {
    let files = std::env::var("PHICC_PARSE_FILES").unwrap_or_default();
    let (mut ok, mut total) = (0, 0);
    for f in files.split_whitespace() {
        total += 1;
        let mut opts = crate::compile_c::default_options();
        opts.include_dirs.push("/usr/include/csmith".into());
        let lower = std::env::var("PHICC_LOWER").is_ok();
        let r = crate::frontend::preprocess(std::path::Path::new(f), &opts).and_then(|pp| {
            let out = parse_translation_unit(pp.tokens, &pp.sources, opts.target)?;
            if lower {
                crate::lowering::lower(&out.unit, &pp.sources)?;
            }
            Ok(())
        });
        match r {
            Ok(()) => ok += 1,
            Err(e) => println!("{f}: {}", e.headline()),
        }
    }
    println!("parsed {ok}/{total}");
}
