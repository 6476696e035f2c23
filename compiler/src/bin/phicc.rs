//! phicc driver: C (or text IR) in, text IR of any pipeline stage out.
//!
//! ```text
//! phicc FILE.c  [-I DIR]... [-D NAME[=V]]... [--target T] [-E] [--emit-ir[=STAGE]] [-o OUT]
//! phicc FILE.ir [--emit-ir[=STAGE]] [-o OUT]
//! ```
//!
//! `.c` input goes through `compiler::compile_c::compile_c_file` (preprocess, parse,
//! lower) and then the middle end; `.ir` input starts at the middle end. `--emit-ir=STAGE`
//! prints the module as it stands after that stage (`lowered`, `mem2reg`, `gvn#2`, ...;
//! default and plain `--emit-ir`: the last stage, `phi_elim`). `-E` prints the
//! preprocessed tokens instead (no line markers, like `gcc -E -P`). `-o` writes the output
//! to a file instead of stdout.
//!
//! Invariants: errors print `file:line:col: error: message` on stderr (warnings too, as
//! `warning:`) and exit with status 1; bad usage exits with 2; nothing input-dependent
//! panics (a panic inside the compiler is caught and reported as an internal error,
//! status 70, so a bug is never mistaken for a verdict on the input).

use compiler::compile_c::{compile_c_file, default_options};
use compiler::frontend::{preprocess, tokens_to_text, PreprocessOptions, Target};
use compiler::ir::text::{parse_module, print_module};
use compiler::ir::IrModule;
use compiler::pipeline::{run_pipeline, PipelineOptions, STAGE_PHI_ELIM};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!(
        "usage: phicc FILE.c [-I DIR]... [-D NAME[=VALUE]]... [--target T] [-E] \
         [--emit-ir[=STAGE]] [-o OUT]"
    );
    eprintln!("       phicc FILE.ir [--emit-ir[=STAGE]] [-o OUT]");
    eprintln!("targets: x86_64 (default), i686, aarch64, riscv64");
    ExitCode::from(2)
}

/// What the command line asks for.
struct Args {
    file: String,
    stage: String,
    preprocess_only: bool,
    output: Option<PathBuf>,
    opts: PreprocessOptions,
}

/// Why the command line was not understood.
enum UsageError {
    /// Print this and the usage, exit 2.
    Message(String),
    /// Just the usage.
    Usage,
}

fn parse_args(args: &[String]) -> Result<Args, UsageError> {
    let mut file = None;
    let mut stage = STAGE_PHI_ELIM.to_string();
    let mut preprocess_only = false;
    let mut output = None;
    let mut opts = default_options();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        // `-X VALUE` or `-XVALUE` (and `--long VALUE` / `--long=VALUE`).
        let mut value_of = |short: &str| -> Option<Result<String, UsageError>> {
            let rest = a.strip_prefix(short)?;
            let rest = if short.starts_with("--") {
                match rest.strip_prefix('=') {
                    Some(r) => r,
                    None if rest.is_empty() => "",
                    None => return None,
                }
            } else {
                rest
            };
            if !rest.is_empty() {
                return Some(Ok(rest.to_string()));
            }
            let next = args.get(i).cloned();
            i += 1;
            Some(next.ok_or_else(|| UsageError::Message(format!("`{short}` needs a value"))))
        };
        if let Some(dir) = value_of("-I") {
            opts.include_dirs.push(PathBuf::from(dir?));
        } else if let Some(def) = value_of("-D") {
            let def = def?;
            opts.defines.push(match def.split_once('=') {
                Some((name, value)) => (name.to_string(), Some(value.to_string())),
                None => (def, None),
            });
        } else if let Some(t) = value_of("--target") {
            let t = t?;
            opts.target = Target::from_name(&t).ok_or_else(|| {
                UsageError::Message(format!(
                    "unknown target `{t}` (x86_64, i686, aarch64, riscv64)"
                ))
            })?;
        } else if let Some(out) = value_of("-o") {
            output = Some(PathBuf::from(out?));
        } else if a == "-E" {
            preprocess_only = true;
        } else if let Some(s) = a.strip_prefix("--emit-ir=") {
            stage = s.to_string();
        } else if a == "--emit-ir" {
            stage = STAGE_PHI_ELIM.to_string();
        } else if a == "-h" || a == "--help" {
            return Err(UsageError::Usage);
        } else if a.starts_with('-') && a != "-" {
            return Err(UsageError::Message(format!("unknown option `{a}`")));
        } else if file.replace(a.clone()).is_some() {
            return Err(UsageError::Message("more than one input file".into()));
        }
    }
    let file = file.ok_or(UsageError::Message("no input file".into()))?;
    Ok(Args {
        file,
        stage,
        preprocess_only,
        output,
        opts,
    })
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(UsageError::Usage) => return usage(),
        Err(UsageError::Message(m)) => {
            eprintln!("phicc: error: {m}");
            return usage();
        }
    };
    // The compiler promises not to panic; if it does anyway, say so and fail distinctly.
    let result = std::panic::catch_unwind(|| run(&args));
    let text = match result {
        Ok(Ok(text)) => text,
        Ok(Err(code)) => return code,
        Err(_) => {
            eprintln!("phicc: internal error: the compiler panicked (a bug of phicc)");
            return ExitCode::from(70);
        }
    };
    match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("phicc: error: cannot write {}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
        None => print!("{text}"),
    }
    ExitCode::SUCCESS
}

/// The output text, or the exit code after printing the error.
fn run(args: &Args) -> Result<String, ExitCode> {
    let file = &args.file;
    let is_c = file.ends_with(".c") || file.ends_with(".h");
    if args.preprocess_only {
        return preprocess_file(file, &args.opts);
    }
    let module = if is_c {
        match compile_c_file(Path::new(file), &args.opts) {
            Ok(compiled) => {
                for w in &compiled.warnings {
                    eprintln!("{w}");
                }
                compiled.module
            }
            Err(e) => {
                eprintln!("{e}");
                return Err(ExitCode::from(1));
            }
        }
    } else if file.ends_with(".ir") {
        read_ir(file)?
    } else {
        eprintln!("{file}:1:1: error: phicc reads .c and .ir files");
        return Err(ExitCode::from(1));
    };
    emit_stage(file, module, &args.stage)
}

fn preprocess_file(file: &str, opts: &PreprocessOptions) -> Result<String, ExitCode> {
    let output = preprocess(Path::new(file), opts).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(1)
    })?;
    for w in &output.warnings {
        eprintln!("{w}");
    }
    Ok(tokens_to_text(&output.tokens))
}

fn read_ir(file: &str) -> Result<IrModule, ExitCode> {
    let src = std::fs::read_to_string(file).map_err(|e| {
        eprintln!("{file}:1:1: error: {e}");
        ExitCode::from(1)
    })?;
    parse_module(&src).map_err(|e| {
        eprintln!("{}", e.with_file(file));
        ExitCode::from(1)
    })
}

/// Runs the pipeline and returns the printed module after `stage`.
fn emit_stage(file: &str, module: IrModule, stage: &str) -> Result<String, ExitCode> {
    let mut printed = None;
    let mut seen = Vec::new();
    let result = run_pipeline(module, &PipelineOptions::default(), &mut |event, m| {
        if event.name == stage {
            printed = Some(print_module(m));
        }
        seen.push(event.name.clone());
    });
    if let Err(e) = result {
        eprintln!("{file}:1:1: error: {e}");
        return Err(ExitCode::from(1));
    }
    printed.ok_or_else(|| {
        eprintln!(
            "phicc: error: no stage named `{stage}` ran (stages: {})",
            seen.join(", ")
        );
        ExitCode::from(2)
    })
}
