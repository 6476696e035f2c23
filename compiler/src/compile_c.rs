//! The C compilation driver as a library call: preprocess, parse (with semantic
//! analysis), lower. `phicc`, `phihunt check FILE.c`, `phihunt bench csmith` and the
//! `c_frontend` fuzz target all go through here, so they compile C identically.
//!
//! Invariants: never panics on any input text; the first error is returned as a
//! `Diagnostic` (`file:line:col: error: message`); warnings are collected, not printed.

use crate::frontend::parse::parse_translation_unit;
use crate::frontend::{preprocess, preprocess_str, Diagnostic, PpOutput, PreprocessOptions};
use crate::ir::IrModule;
use crate::lowering::{lower_with_positions, LowerOptions, SourcePositions};
use std::path::{Path, PathBuf};

/// A compiled C translation unit: the `lowered` stage and every warning.
#[derive(Debug)]
pub struct CompiledC {
    pub module: IrModule,
    pub warnings: Vec<Diagnostic>,
    /// The C position of every instruction of `module` (the `lowered` stage only).
    pub positions: SourcePositions,
}

/// phicc's own headers (`compiler/include`): the last system include directory.
pub fn own_include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

/// Preprocessor options with phicc's own headers as the system directory.
pub fn default_options() -> PreprocessOptions {
    PreprocessOptions {
        system_dirs: vec![own_include_dir()],
        ..PreprocessOptions::default()
    }
}

/// Compiles the C file at `path` to the `lowered` IR.
pub fn compile_c_file(path: &Path, opts: &PreprocessOptions) -> Result<CompiledC, Diagnostic> {
    compile_c_file_with(path, opts, LowerOptions::default())
}

/// [`compile_c_file`] with lowering options (`ub_checks`: the UB judge's checked
/// lowering, `docs/ub-judge.md`).
pub fn compile_c_file_with(
    path: &Path,
    opts: &PreprocessOptions,
    lowering: LowerOptions,
) -> Result<CompiledC, Diagnostic> {
    compile_preprocessed(preprocess(path, opts)?, opts, lowering)
}

/// Compiles C source text as if it were the file `name`.
pub fn compile_c_source(
    name: &str,
    text: &str,
    opts: &PreprocessOptions,
) -> Result<CompiledC, Diagnostic> {
    compile_c_source_with(name, text, opts, LowerOptions::default())
}

/// [`compile_c_source`] with lowering options.
pub fn compile_c_source_with(
    name: &str,
    text: &str,
    opts: &PreprocessOptions,
    lowering: LowerOptions,
) -> Result<CompiledC, Diagnostic> {
    compile_preprocessed(preprocess_str(name, text, opts)?, opts, lowering)
}

fn compile_preprocessed(
    pp: PpOutput,
    opts: &PreprocessOptions,
    lowering: LowerOptions,
) -> Result<CompiledC, Diagnostic> {
    let PpOutput {
        tokens,
        sources,
        mut warnings,
    } = pp;
    let parsed = parse_translation_unit(tokens, &sources, opts.target)?;
    warnings.extend(parsed.warnings);
    let (module, positions) = lower_with_positions(&parsed.unit, &sources, lowering)?;
    Ok(CompiledC {
        module,
        warnings,
        positions,
    })
}
