#!/usr/bin/env python3
"""Writes records.h, callee.c and caller.c: the mixed-link ABI test of records passed and
returned by value (compiler/tests/abi_records_gcc.rs), once for the integer records
(TYPES, into abi_records/), once for the records with float members (FLOAT_TYPES,
into abi_float_records/, with the float-register cases of FLOAT_FUNCS too) and once for
records aligned to 16 bytes (ALIGNED_TYPES, into abi_aligned_records/). Rerun after
editing any list:
    python3 compiler/tests/abi_records/generate.py
"""
import os

# (name, kind, attributes, fields); a field is (C type, name, array length or None,
# bit-field width or None). The sizes in the names are the LP64 ones.
TYPES = [
    ("S1", "struct", "", [("signed char", "a", None, None)]),
    ("S2", "struct", "", [("char", "a", None, None), ("unsigned char", "b", None, None)]),
    ("S3", "struct", "", [("unsigned char", "a", 3, None)]),
    ("S4", "struct", "", [("char", "a", None, None), ("short", "b", None, None)]),
    ("S5", "struct", "", [("signed char", "a", None, None), ("unsigned char", "b", 4, None)]),
    ("S7", "struct", "", [("short", "a", None, None), ("signed char", "b", 5, None)]),
    ("S8", "struct", "", [("int", "a", None, None), ("short", "b", None, None), ("signed char", "c", None, None)]),
    ("S12", "struct", "", [("int", "a", None, None), ("short", "b", None, None), ("unsigned", "c", None, None)]),
    ("S16", "struct", "", [("long long", "a", None, None), ("int", "b", None, None), ("short", "c", None, None)]),
    ("S17", "struct", "__attribute__((packed))", [("char", "a", None, None), ("long long", "b", None, None), ("long long", "c", None, None)]),
    ("S24", "struct", "", [("long long", "a", None, None), ("int", "b", None, None), ("char", "c", None, None), ("long long", "d", None, None)]),
    ("S32", "struct", "", [("long long", "a", None, None), ("unsigned long long", "b", None, None), ("int", "c", None, None), ("short", "d", None, None), ("char", "e", None, None), ("long long", "f", None, None)]),
    ("P5", "struct", "__attribute__((packed))", [("char", "a", None, None), ("int", "b", None, None)]),
    ("U8", "union", "", [("long long", "a", None, None), ("char", "b", 3, None)]),
    ("U12", "union", "", [("int", "a", 3, None), ("short", "b", None, None)]),
    ("B8", "struct", "", [("unsigned", "a", None, 3), ("int", "b", None, 7), ("unsigned", "c", None, 20), ("signed char", "d", None, None)]),
    ("B12", "struct", "", [("int", "a", None, 4), ("int", "b", None, 30), ("int", "c", None, 2), ("short", "d", None, None)]),
]

FUNCS = ["make", "sum", "many", "gap", "pass"]

# Records with float members: SSE eightbytes (x86-64), HFAs (AArch64), flattened
# pairs (RISC-V), and the cases each rule leaves to the integer convention or memory.
FLOAT_TYPES = [
    ("F4", "struct", "", [("float", "a", None, None)]),
    ("F8", "struct", "", [("float", "a", None, None), ("float", "b", None, None)]),
    ("F12", "struct", "", [("float", "a", 3, None)]),
    ("F16", "struct", "", [("float", "a", None, None), ("float", "b", None, None), ("float", "c", 2, None)]),
    ("F20", "struct", "", [("float", "a", 5, None)]),
    ("D8", "struct", "", [("double", "a", None, None)]),
    ("D16", "struct", "", [("double", "a", None, None), ("double", "b", None, None)]),
    ("D24", "struct", "", [("double", "a", 3, None)]),
    ("D32", "struct", "", [("struct { double x, y; }", "p", None, None), ("double", "z", 2, None)]),
    ("FD16", "struct", "", [("float", "a", None, None), ("double", "b", None, None)]),
    ("DF16", "struct", "", [("double", "a", None, None), ("float", "b", None, None)]),
    ("DL16", "struct", "", [("double", "a", None, None), ("long long", "b", None, None)]),
    ("LD16", "struct", "", [("long long", "a", None, None), ("double", "b", None, None)]),
    ("DI16", "struct", "", [("double", "a", None, None), ("int", "b", None, None)]),
    ("IF8", "struct", "", [("int", "a", None, None), ("float", "b", None, None)]),
    ("FI8", "struct", "", [("float", "a", None, None), ("unsigned", "b", None, None)]),
    ("CF8", "struct", "", [("signed char", "a", None, None), ("float", "b", None, None)]),
    ("SD16", "struct", "", [("short", "a", None, None), ("double", "b", None, None)]),
    ("FFI12", "struct", "", [("float", "a", 2, None), ("int", "b", None, None)]),
    ("NF12", "struct", "", [("struct { float x; }", "s", None, None), ("float", "b", 2, None)]),
    ("PF5", "struct", "__attribute__((packed))", [("char", "a", None, None), ("float", "b", None, None)]),
    ("UF8", "union", "", [("float", "f", 2, None), ("double", "d", None, None)]),
    ("UH8", "union", "", [("float", "f", 2, None), ("struct { float x, y; }", "s", None, None)]),
    ("UI4", "union", "", [("float", "f", None, None), ("int", "i", None, None)]),
]

FLOAT_FUNCS = FUNCS + ["fgap", "vnamed"]

# Records aligned to 16 bytes (`aligned`): the same registers as without it everywhere;
# on the x86-64 stack (`many` past the registers) they start at a 16-byte boundary
# (packed-aligned.c, pr92904.c). phicc refuses such a record on the RISC-V stack, so
# `many` is left out there (GUARDS), and on x86-64 one whose second eightbyte is only
# padding (no such type here).
ALIGNED_TYPES = [
    ("A16", "struct", "__attribute__((aligned(16)))", [("long long", "a", None, None), ("long long", "b", None, None)]),
    ("AX16", "struct", "__attribute__((aligned(16)))", [("double", "a", None, None), ("long long", "b", None, None)]),
    ("AD16", "struct", "__attribute__((aligned(16)))", [("double", "a", None, None), ("double", "b", None, None)]),
]

ALIGNED_FUNCS = FUNCS + ["fgap"]

# Functions compiled only where a preprocessor condition holds, per suite directory
# (abi_records_gcc.rs skips the same cases).
GUARDS = {"abi_aligned_records": {"many": "!defined(__riscv)"}}

# Records x86-64 passes in memory: a variadic definition with such a named parameter
# while registers are left is refused (lowering/varargs.rs), so no `vnamed` for them.
NO_VNAMED = {"F20", "D24", "D32", "PF5"}


def value(t, i, seed_expr, bits):
    """A C expression for field element i's value that fits the field."""
    if t in ("float", "double"):
        # Multiples of 1/4 below 2^20: exact in a float, exact times 4 in a long long.
        return f"({t})((({seed_expr}) * {37 + 11 * i} + {i * 1013 + 5}) % 1000003) + 0.25{'f' if t == 'float' else ''}"
    if bits is not None:
        limit = 1 << (bits - 1) if not t.startswith("unsigned") else 1 << bits
        return f"(({seed_expr}) * {7 + i} + {i + 1}) % {limit}"
    return f"({t})(({seed_expr}) * {37 + 11 * i} + {i * 1000003 + 5})"


def elements(f):
    t, n, arr, bits = f
    if t.startswith("struct {"):
        # An anonymous struct member: its own members, all of one type.
        inner_t, names = t[len("struct { "):-len("; }")].split(" ", 1)
        return [(f"{n}.{m.strip()}", inner_t, None) for m in names.split(",")]
    if arr is None:
        return [(f"{n}", t, bits)]
    return [(f"{n}[{k}]", t, bits) for k in range(arr)]


def all_elements(fields):
    out = []
    for f in fields:
        out.extend(elements(f))
    return out


def decl(name, kind, attrs, fields):
    body = []
    for t, n, arr, bits in fields:
        s = f"    {t} {n}"
        if arr is not None:
            s += f"[{arr}]"
        if bits is not None:
            s += f" : {bits}"
        body.append(s + ";")
    a = f" {attrs}" if attrs else ""
    return f"{kind}{a} {name} {{\n" + "\n".join(body) + f"\n}};\ntypedef {kind} {name} {name};\n"


def guarded(guards, fn, lines):
    """`lines`, inside `#if` when function `fn` has a guard."""
    cond = guards.get(fn)
    return [f"#if {cond}"] + lines + ["#endif"] if cond else lines


def header(types, funcs, guards):
    out = ["/* Generated by generate.py: the records of the mixed-link ABI test. */",
           "#ifndef RECORDS_H", "#define RECORDS_H"]
    for name, kind, attrs, fields in types:
        out.append(decl(name, kind, attrs, fields))
        out.append(f"{name} make_{name}(int seed);")
        out.append(f"long long sum_{name}({name} x);")
        out.extend(guarded(guards, "many", [f"long long many_{name}(int a1, {name} x, int a2, {name} y, int a3, {name} z, {name} w, int a4);"]))
        out.append(f"long long gap_{name}(int a, int b, int c, int d, int e, {name} x, int f);")
        out.append(f"{name} pass_{name}({name} x, int k);")
        if "fgap" in funcs:
            out.append(f"long long fgap_{name}(double a, double b, double c, double d, double e, double f, double g, {name} x, double h, float i);")
        if "vnamed" in funcs and name not in NO_VNAMED:
            out.append(f"long long vnamed_{name}({name} x, int n, ...);")
        out.append("")
    out.append("#endif")
    return "\n".join(out) + "\n"


def checksum_body(name, fields, var):
    lines = ["    long long h = 17;"]
    if name.startswith("U"):
        # A union: only the first member was written.
        els = elements(fields[0])
    else:
        els = all_elements(fields)
    for e, t, bits in els:
        term = f"({var}.{e} * 4)" if t in ("float", "double") else f"{var}.{e}"
        lines.append(f"    h = h * 31 + (long long){term};")
    lines.append("    return h;")
    return lines


def callee(types, funcs, guards):
    out = ["/* Generated by generate.py: the callees of the mixed-link ABI test. */",
           '#include "records.h"', ""]
    if "vnamed" in funcs:
        out.insert(1, "#include <stdarg.h>")
    for name, kind, attrs, fields in types:
        els = elements(fields[0]) if kind == "union" else all_elements(fields)
        out.append(f"static long long check_{name}({name} x) {{")
        out += checksum_body(name, fields, "x")
        out.append("}\n")
        out.append(f"{name} make_{name}(int seed) {{")
        out.append(f"    {name} r;")
        for i, (e, t, bits) in enumerate(els):
            out.append(f"    r.{e} = {value(t, i, 'seed', bits)};")
        out.append("    return r;\n}\n")
        out.append(f"long long sum_{name}({name} x) {{ return check_{name}(x); }}\n")
        out.extend(guarded(guards, "many", [
            f"long long many_{name}(int a1, {name} x, int a2, {name} y, int a3, {name} z, {name} w, int a4) {{",
            f"    return (((((check_{name}(x) * 3 + check_{name}(y)) * 5 + check_{name}(z)) * 7 + check_{name}(w)) * 11 + a1) * 13 + a2) * 17 + a3 * 19 + a4;",
            "}\n"]))
        out.append(f"long long gap_{name}(int a, int b, int c, int d, int e, {name} x, int f) {{")
        out.append(f"    return check_{name}(x) * 1000 + a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;")
        out.append("}\n")
        e0, t0, bits0 = els[0]
        out.append(f"{name} pass_{name}({name} x, int k) {{")
        seed = f"k + (int)x.{e0}" if t0 in ("float", "double") else f"k + x.{e0}"
        out.append(f"    x.{e0} = {value(t0, 0, seed, bits0)};")
        out.append("    return x;\n}\n")
        if "fgap" in funcs:
            out.append(f"long long fgap_{name}(double a, double b, double c, double d, double e, double f, double g, {name} x, double h, float i) {{")
            out.append(f"    return check_{name}(x) * 1000 + (long long)(a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i);")
            out.append("}\n")
        if "vnamed" in funcs and name not in NO_VNAMED:
            out.append(f"long long vnamed_{name}({name} x, int n, ...) {{")
            out.append("    va_list ap;")
            out.append(f"    long long h = check_{name}(x);")
            out.append("    va_start(ap, n);")
            out.append("    while (n-- > 0)")
            out.append("        h = h * 7 + (long long)(va_arg(ap, double) * 4);")
            out.append("    va_end(ap);")
            out.append("    return h;")
            out.append("}\n")
    return "\n".join(out)


def caller(types, funcs, guards):
    out = ["/* Generated by generate.py: the caller of the mixed-link ABI test. Each case",
           " * runs in a child process, so a case that crashes loses only its own line. */",
           '#include "records.h"',
           "int printf(const char *, ...);",
           "int fflush(void *);",
           "int fork(void);",
           "int waitpid(int, int *, int);",
           "void _exit(int);",
           ""]
    cases = []
    for name, kind, attrs, fields in types:
        els = elements(fields[0]) if kind == "union" else all_elements(fields)
        out.append(f"static void init_{name}({name} *r, int seed) {{")
        for i, (e, t, bits) in enumerate(els):
            out.append(f"    r->{e} = {value(t, i, 'seed', bits)};")
        out.append("}\n")
        out.append(f"static void show_{name}(const char *what, {name} x) {{")
        fmt = " ".join("%.17g" if t in ("float", "double") else "%lld" for _, t, _ in els)
        args = ", ".join(f"(double)x.{e}" if t in ("float", "double") else f"(long long)x.{e}" for e, t, _ in els)
        out.append(f'    printf("%s {fmt}\\n", what, {args});')
        out.append("}\n")
        for fn in funcs:
            if fn == "vnamed" and name in NO_VNAMED:
                continue
            case = f"{fn}_{name}"
            cases.append((case, fn))
            if fn in guards:
                out.append(f"#if {guards[fn]}")
            out.append(f"static void case_{case}(void) {{")
            out.append(f"    {name} x, y, z, w;")
            out.append(f"    init_{name}(&x, 3); init_{name}(&y, 5); init_{name}(&z, 7); init_{name}(&w, 11);")
            if fn == "make":
                out.append(f'    show_{name}("{case}", make_{name}(9));')
            elif fn == "sum":
                out.append(f'    printf("{case} %lld\\n", sum_{name}(x));')
            elif fn == "many":
                out.append(f'    printf("{case} %lld\\n", many_{name}(1, x, 2, y, 3, z, w, 4));')
            elif fn == "gap":
                out.append(f'    printf("{case} %lld\\n", gap_{name}(1, 2, 3, 4, 5, x, 6));')
            elif fn == "pass":
                out.append(f'    show_{name}("{case}", pass_{name}(y, 4));')
            elif fn == "fgap":
                out.append(f'    printf("{case} %lld\\n", fgap_{name}(1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, x, 8.5, 9.5f));')
            elif fn == "vnamed":
                out.append(f'    printf("{case} %lld\\n", vnamed_{name}(x, 3, 1.25, 2.5, 3.75));')
            out.append("}\n")
            if fn in guards:
                out.append("#endif")
    out.append("static void run(void (*f)(void), const char *name) {")
    out.append("    int status = 0;")
    out.append("    int pid;")
    out.append("    fflush(0);")
    out.append("    pid = fork();")
    out.append("    if (pid == 0) {")
    out.append("        f();")
    out.append("        fflush(0);")
    out.append("        _exit(0);")
    out.append("    }")
    out.append("    if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)")
    out.append('        printf("%s crashed\\n", name);')
    out.append("}\n")
    out.append("int main(void) {")
    for c, fn in cases:
        out.extend(guarded(guards, fn, [f'    run(case_{c}, "{c}");']))
    out.append("    fflush(0);")
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


here = os.path.dirname(os.path.abspath(__file__))
for subdir, types, funcs in [("abi_records", TYPES, FUNCS),
                             ("abi_float_records", FLOAT_TYPES, FLOAT_FUNCS),
                             ("abi_aligned_records", ALIGNED_TYPES, ALIGNED_FUNCS)]:
    out_dir = os.path.join(os.path.dirname(here), subdir)
    os.makedirs(out_dir, exist_ok=True)
    guards = GUARDS.get(subdir, {})
    for fname, text in [("records.h", header(types, funcs, guards)),
                        ("callee.c", callee(types, funcs, guards)),
                        ("caller.c", caller(types, funcs, guards))]:
        with open(os.path.join(out_dir, fname), "w") as f:
            f.write(text)
