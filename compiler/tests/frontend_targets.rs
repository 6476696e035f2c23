//! The `Target` data model and predefined target macros: a hand-written table for every
//! target (the values gcc uses on Linux). The differential check of every predefined
//! macro against real gcc on all four targets is `target_facts_gcc.rs`.

mod frontend_support;

use compiler::frontend::Target;
use frontend_support::{opts, pp_with};

#[test]
fn data_model_per_target() {
    // (target, long, pointer, long double, char signed, size_t, wchar_t, intmax_t)
    let table = [
        (
            Target::X86_64,
            8,
            8,
            16,
            true,
            "long unsigned int",
            "int",
            "long int",
        ),
        (
            Target::I686,
            4,
            4,
            12,
            true,
            "unsigned int",
            "long int",
            "long long int",
        ),
        (
            Target::Aarch64,
            8,
            8,
            16,
            false,
            "long unsigned int",
            "unsigned int",
            "long int",
        ),
        (
            Target::Riscv64,
            8,
            8,
            16,
            false,
            "long unsigned int",
            "int",
            "long int",
        ),
    ];
    for (target, long, pointer, long_double, signed, size, wchar, intmax) in table {
        assert_eq!(target.sizeof_int(), 4);
        assert_eq!(target.sizeof_short(), 2);
        assert_eq!(target.sizeof_long_long(), 8);
        assert_eq!(target.sizeof_long(), long);
        assert_eq!(target.sizeof_pointer(), pointer);
        assert_eq!(target.sizeof_long_double(), long_double);
        assert_eq!(target.char_is_signed(), signed);
        assert_eq!(Target::from_name(target.name()), Some(target));
        let text = "__SIZEOF_LONG__ __SIZEOF_POINTER__ __SIZEOF_LONG_DOUBLE__ | __SIZE_TYPE__ | __WCHAR_TYPE__ | __INTMAX_TYPE__";
        let expected = format!("{long} {pointer} {long_double} | {size} | {wchar} | {intmax}");
        assert_eq!(pp_with(text, &opts(target)), expected, "{target:?}");
        let unsigned_char = pp_with("#ifdef __CHAR_UNSIGNED__\nU\n#endif", &opts(target)) == "U";
        assert_eq!(unsigned_char, !signed, "{target:?}");
        let model = pp_with("#if defined(__LP64__) && defined(_LP64)\nLP64\n#elif defined(__ILP32__)\nILP32\n#endif", &opts(target));
        assert_eq!(model, if long == 8 { "LP64" } else { "ILP32" });
    }
    assert_eq!(
        pp_with("__aarch64__ __riscv", &opts(Target::Aarch64)),
        "1 __riscv"
    );
    assert_eq!(
        pp_with("__riscv __riscv_xlen __x86_64__", &opts(Target::Riscv64)),
        "1 64 __x86_64__"
    );
    assert_eq!(
        pp_with("__i386__ __x86_64__", &opts(Target::I686)),
        "1 __x86_64__"
    );
    assert_eq!(
        pp_with("__x86_64__ __i386__", &opts(Target::X86_64)),
        "1 __i386__"
    );
    for target in Target::ALL {
        assert_eq!(
            pp_with(
                "__phicc__ __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__",
                &opts(target)
            ),
            "1 1234 == 1234"
        );
    }
    assert_eq!(Target::from_name("sparc"), None);
}
