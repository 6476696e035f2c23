//! phicc: a C compiler whose middle end follows the seed design — an alloca-based IR,
//! mem2reg (SSA construction), SSA passes and phi elimination — built to be tested
//! stage by stage by the phihunt harness. This crate knows nothing of the harness.

pub mod abi_intrinsics;
pub mod backend;
pub mod compile_c;
pub mod frame_intrinsics;
pub mod frontend;
pub mod ir;
pub mod lowering;
pub mod mem2reg;
pub mod mutants;
pub mod passes;
pub mod pipeline;
pub mod setjmp_intrinsics;
pub mod target;
pub mod ub_intrinsics;
pub mod va_intrinsics;
