//! The target machines phicc knows and their C data models.
//!
//! Why it exists: one enum names the four targets for the front end, the backends
//! (`crate::backend`) and the oracle's native runner, so they can never disagree. The
//! preprocessor predefines target macros (`__SIZEOF_LONG__`,
//! `__SIZE_TYPE__`, ...), character constants depend on the signedness of plain `char`,
//! and the later layers (types, layout, lowering) ask the same questions; one enum
//! answers all of them so they can never disagree.
//!
//! Invariants: every answer matches gcc on Linux for that target (x86_64 and aarch64
//! and riscv64 are LP64, i686 is ILP32; plain `char` is unsigned on aarch64 and
//! riscv64); the type spellings are exactly gcc's (`long unsigned int`, not
//! `unsigned long`).

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Target {
    #[default]
    X86_64,
    I686,
    Aarch64,
    Riscv64,
}

impl Target {
    pub const ALL: [Target; 4] = [
        Target::X86_64,
        Target::I686,
        Target::Aarch64,
        Target::Riscv64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::X86_64 => "x86_64",
            Target::I686 => "i686",
            Target::Aarch64 => "aarch64",
            Target::Riscv64 => "riscv64",
        }
    }

    /// Parses a target name as `name()` prints it (also `amd64`, `i386`, `arm64`).
    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "x86_64" | "x86-64" | "amd64" => Some(Target::X86_64),
            "i686" | "i386" | "x86" => Some(Target::I686),
            "aarch64" | "arm64" => Some(Target::Aarch64),
            "riscv64" => Some(Target::Riscv64),
            _ => None,
        }
    }

    /// The gcc driver that assembles and links this target's code (Debian's cross
    /// toolchains; on an x86_64 host the first is the native compiler).
    pub fn gcc_driver(self) -> &'static str {
        match self {
            Target::X86_64 => "x86_64-linux-gnu-gcc",
            Target::I686 => "i686-linux-gnu-gcc",
            Target::Aarch64 => "aarch64-linux-gnu-gcc",
            Target::Riscv64 => "riscv64-linux-gnu-gcc",
        }
    }

    /// True for the LP64 data model (64-bit `long` and pointers).
    pub fn is_lp64(self) -> bool {
        self != Target::I686
    }

    pub fn sizeof_short(self) -> u32 {
        2
    }

    pub fn sizeof_int(self) -> u32 {
        4
    }

    pub fn sizeof_long(self) -> u32 {
        if self.is_lp64() {
            8
        } else {
            4
        }
    }

    pub fn sizeof_long_long(self) -> u32 {
        8
    }

    pub fn sizeof_pointer(self) -> u32 {
        self.sizeof_long()
    }

    pub fn sizeof_float(self) -> u32 {
        4
    }

    pub fn sizeof_double(self) -> u32 {
        8
    }

    /// x87 extended on x86 (padded to 12 or 16 bytes), binary128 on aarch64/riscv64.
    pub fn sizeof_long_double(self) -> u32 {
        if self == Target::I686 {
            12
        } else {
            16
        }
    }

    /// Alignment of `long long` and `double` as struct members (4 on i686's SysV ABI).
    pub fn alignof_long_long(self) -> u32 {
        if self == Target::I686 {
            4
        } else {
            8
        }
    }

    pub fn alignof_double(self) -> u32 {
        self.alignof_long_long()
    }

    /// Whether plain `char` is signed (`__CHAR_UNSIGNED__` is defined when it is not).
    pub fn char_is_signed(self) -> bool {
        matches!(self, Target::X86_64 | Target::I686)
    }

    pub fn size_type(self) -> &'static str {
        if self.is_lp64() {
            "long unsigned int"
        } else {
            "unsigned int"
        }
    }

    pub fn ptrdiff_type(self) -> &'static str {
        if self.is_lp64() {
            "long int"
        } else {
            "int"
        }
    }

    pub fn intptr_type(self) -> &'static str {
        self.ptrdiff_type()
    }

    pub fn uintptr_type(self) -> &'static str {
        self.size_type()
    }

    pub fn intmax_type(self) -> &'static str {
        self.int64_type()
    }

    pub fn uintmax_type(self) -> &'static str {
        self.uint64_type()
    }

    pub fn int64_type(self) -> &'static str {
        if self.is_lp64() {
            "long int"
        } else {
            "long long int"
        }
    }

    pub fn uint64_type(self) -> &'static str {
        if self.is_lp64() {
            "long unsigned int"
        } else {
            "long long unsigned int"
        }
    }

    /// `wchar_t`: `int` on x86_64 and riscv64, `long int` on i686, `unsigned int` on
    /// aarch64.
    pub fn wchar_type(self) -> &'static str {
        match self {
            Target::X86_64 | Target::Riscv64 => "int",
            Target::I686 => "long int",
            Target::Aarch64 => "unsigned int",
        }
    }

    pub fn wint_type(self) -> &'static str {
        "unsigned int"
    }

    pub fn wchar_is_signed(self) -> bool {
        self != Target::Aarch64
    }

    /// Whether an unnamed bit-field raises the alignment of its record as a named one
    /// does (gcc's `TARGET_ALIGN_ANON_BITFIELD`, true for AAPCS64): aarch64-linux-gnu-gcc
    /// gives `struct { char c; int : 5; }` size 4 and alignment 4, and
    /// `struct { char c; long : 0; }` size 8 and alignment 8, where the other three
    /// targets give sizes 2 and 8 (4 on i686) with alignment 1.
    pub fn unnamed_bitfield_aligns_record(self) -> bool {
        self == Target::Aarch64
    }
}
