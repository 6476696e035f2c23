//! The aarch64 backend: not written yet (issue 11).
use super::{BackendError, BackendOptions};
use crate::ir::IrModule;
use crate::target::Target;

pub fn emit_module(_module: &IrModule, _opts: &BackendOptions) -> Result<String, BackendError> {
    Err(super::not_written(Target::Aarch64))
}
