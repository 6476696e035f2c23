//! TODO(helper)
use super::{BackendError, BackendOptions};
use crate::ir::IrModule;

pub fn emit_module(_module: &IrModule, _opts: &BackendOptions) -> Result<String, BackendError> {
    todo!()
}
