//! The frame intrinsics: how `__builtin_return_address(0)` and `__builtin_frame_address(0)`
//! travel through the IR to the backends and the oracle.
//!
//! Why: both read the machine frame of the function that calls them, which the IR does
//! not have. The front end lowers each to a call of an intrinsic without arguments
//! returning `ptr` (`@__phi_frame.return_address`, `@__phi_frame.frame_address`); every
//! pass treats it as an opaque call, the lowering marks every function of such a module
//! `noinline` ([`keep_frames_and_call_sites`]), and each backend
//! reads it from its frame: every phicc function keeps a frame pointer with the
//! caller's return address at a fixed place (x86_64 `8(%rbp)`, i686 `4(%ebp)`,
//! aarch64 `[x29, #8]`, riscv64 below `s0`), and the frame address is that frame
//! pointer, as gcc -O0 gives it.
//!
//! The oracle models the return address as an opaque code address per call site (equal
//! for two calls from the same call instruction, different otherwise; not readable,
//! writable or callable), which is what programs that compare return addresses need;
//! the frame address is a stack address whose only meaning is its order against the
//! real stack's objects, so the oracle refuses a program that reaches it ("the oracle
//! cannot judge") instead of inventing an order.
//!
//! Nonzero levels (`__builtin_return_address(1)`) are not intrinsics: the front end
//! gives the null pointer gcc documents for targets that cannot walk the frames
//! (`frontend/parse/frame_builtins.rs`).
//!
//! Invariants: this enum is the whole set; each has exactly the signature
//! [`FrameIntrinsic::decl`] gives (no parameters, `ptr` result).

use crate::ir::{BasicBlock, Callee, IrDecl, IrModule, IrType};

/// One frame intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameIntrinsic {
    /// `__builtin_return_address(0)`: where the current call returns to.
    ReturnAddress,
    /// `__builtin_frame_address(0)`: the current function's frame pointer.
    FrameAddress,
}

impl FrameIntrinsic {
    pub const ALL: [FrameIntrinsic; 2] =
        [FrameIntrinsic::ReturnAddress, FrameIntrinsic::FrameAddress];

    pub fn name(self) -> &'static str {
        match self {
            FrameIntrinsic::ReturnAddress => "__phi_frame.return_address",
            FrameIntrinsic::FrameAddress => "__phi_frame.frame_address",
        }
    }

    pub fn by_name(name: &str) -> Option<FrameIntrinsic> {
        FrameIntrinsic::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The intrinsic a call's callee is, if it is one.
    pub fn of_callee(callee: &Callee) -> Option<FrameIntrinsic> {
        match callee {
            Callee::Direct(name) => FrameIntrinsic::by_name(name),
            Callee::Indirect(_) => None,
        }
    }

    /// `declare @NAME() -> ptr`
    pub fn decl(self) -> IrDecl {
        IrDecl {
            name: self.name().to_string(),
            params: vec![],
            variadic: false,
            ret: IrType::Ptr,
        }
    }
}

/// Whether a function with these blocks calls a frame intrinsic.
pub fn calls_frame_intrinsic(blocks: &[BasicBlock]) -> bool {
    blocks.iter().flat_map(|b| &b.insts).any(|i| {
        matches!(i, crate::ir::Inst::Call { callee, .. } if FrameIntrinsic::of_callee(callee).is_some())
    })
}

/// In a module that reads frames, every function is `noinline`: inlining the function
/// that reads its frame would read its caller's instead, and inlining one of its callers
/// (even through a function pointer) would copy the call instruction its return address
/// names, so that two calls from one C call site return to different places. gcc -O0
/// inlines nothing either. Modules without frame intrinsics are left alone.
pub fn keep_frames_and_call_sites(module: &mut IrModule) {
    if module
        .functions
        .iter()
        .any(|f| calls_frame_intrinsic(&f.blocks))
    {
        for f in &mut module.functions {
            f.attrs.is_noinline = true;
        }
    }
}
