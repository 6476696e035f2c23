//! TODO(helper)
use super::{BackendError, BackendOptions};
use crate::ir::IrModule;
use crate::target::Target;

pub fn emit_module(_module: &IrModule, _opts: &BackendOptions) -> Result<String, BackendError> {
    Err(BackendError {
        target: Target::I686,
        function: String::new(),
        inst: None,
        message: "backend not written yet".into(),
    })
}
