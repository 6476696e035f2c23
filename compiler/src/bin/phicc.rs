//! phicc driver: C (or text IR) in; text IR of any pipeline stage, assembly, or a static
//! executable out.
//!
//! ```text
//! phicc FILE.c  [-I DIR]... [-D NAME[=V]]... [--target=T] [-E] [--emit-ir[=STAGE]] [-o OUT]
//! phicc FILE.c  --ub-checks --emit-ir=lowered     (the UB judge's checked lowering)
//! phicc FILE.ir [--emit-ir[=STAGE]] [-o OUT]
//! phicc FILE.c|FILE.ir [--target=T] [--regalloc=linear|stack] -S [-o OUT.s]
//! phicc FILE.c|FILE.ir [--target=T] [--regalloc=linear|stack] -o EXECUTABLE
//! ```
//!
//! `.c` input goes through `compiler::compile_c::compile_c_file` (preprocess, parse,
//! lower) and then the middle end; `.ir` input starts at the middle end. What comes out:
//! - `--emit-ir=STAGE`: the module as it stands after that stage (`lowered`, `mem2reg`,
//!   `gvn#2`, ...; plain `--emit-ir`: the last stage, `phi_elim`);
//! - `-E`: the preprocessed tokens (no line markers, like `gcc -E -P`);
//! - `-S`: the target's GNU assembly for the final module (`compiler::backend`);
//! - `-o OUT` with none of those (and OUT not ending in `.ir`): a static executable. phicc
//!   writes the assembly into a temporary directory and runs the target's gcc driver
//!   (`Target::gcc_driver`, e.g. `x86_64-linux-gnu-gcc -static -o OUT x.s`) under a
//!   timeout;
//! - nothing of the above: the IR after the last stage, as before the backends existed
//!   (also when `-o` names a `.ir` file).
//!
//! `-o` writes the text outputs to a file instead of stdout. `--target=T` (or
//! `--target T`) picks the data model for C and the backend; `--regalloc=linear|stack`
//! picks the register allocator (default: linear scan).
//!
//! Invariants: errors in the input print `file:line:col: error: message` on stderr
//! (warnings too, as `warning:`) and exit with status 1; bad usage exits with 2, and so
//! does an IR construct the backend cannot compile (`phicc: error: <target>: in function
//! @f: `inst`: message`) or a target without a backend; nothing input-dependent panics (a
//! panic inside the compiler is caught and reported as an internal error, status 70, as
//! is an allocation the register-allocation checker rejects), so a bug is never mistaken
//! for a verdict on the input.

use compiler::backend::{compile_module, BackendOptions, RegallocMode};
use compiler::compile_c::{compile_c_file_with, default_options};
use compiler::frontend::{preprocess, tokens_to_text, PreprocessOptions, Target};
use compiler::ir::text::{parse_module, print_module};
use compiler::ir::IrModule;
use compiler::lowering::LowerOptions;
use compiler::pipeline::{run_pipeline, PipelineOptions, STAGE_PHI_ELIM};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// How long the gcc driver may take to assemble and link one program.
const LINK_TIMEOUT: Duration = Duration::from_secs(120);

fn usage() -> ExitCode {
    eprintln!(
        "usage: phicc FILE.c [-I DIR]... [-D NAME[=VALUE]]... [--target=T] [-E] \
         [--emit-ir[=STAGE]] [-o OUT]"
    );
    eprintln!("       phicc FILE.ir [--emit-ir[=STAGE]] [-o OUT]");
    eprintln!("       phicc FILE.c|FILE.ir [--target=T] [--regalloc=linear|stack] -S [-o OUT.s]");
    eprintln!("       phicc FILE.c|FILE.ir [--target=T] [--regalloc=linear|stack] -o EXECUTABLE");
    eprintln!("targets: x86_64 (default), i686, aarch64, riscv64");
    eprintln!("without -S, --emit-ir, -E or an -o that is not a .ir file: the final IR");
    ExitCode::from(2)
}

/// What phicc writes.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Product {
    /// The IR after this stage.
    Ir(String),
    /// The preprocessed tokens (`-E`).
    Preprocessed,
    /// Assembly (`-S`).
    Assembly,
    /// A static executable at the `-o` path.
    Executable,
}

/// What the command line asks for.
struct Args {
    file: String,
    product: Product,
    output: Option<PathBuf>,
    opts: PreprocessOptions,
    regalloc: RegallocMode,
    /// `--ub-checks`: the UB judge's checked lowering (only `--emit-ir=lowered` is
    /// meaningful: its intrinsics are for the oracle, not the optimizer or a backend).
    ub_checks: bool,
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
    let mut stage = None;
    let mut preprocess_only = false;
    let mut assembly = false;
    let mut regalloc = RegallocMode::default();
    let mut ub_checks = false;
    let mut output: Option<PathBuf> = None;
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
        } else if let Some(mode) = value_of("--regalloc") {
            let mode = mode?;
            regalloc = RegallocMode::from_name(&mode).ok_or_else(|| {
                UsageError::Message(format!(
                    "unknown register allocator `{mode}` (linear, stack)"
                ))
            })?;
        } else if let Some(out) = value_of("-o") {
            output = Some(PathBuf::from(out?));
        } else if a == "--ub-checks" {
            ub_checks = true;
        } else if a == "-E" {
            preprocess_only = true;
        } else if a == "-S" {
            assembly = true;
        } else if let Some(s) = a.strip_prefix("--emit-ir=") {
            stage = Some(s.to_string());
        } else if a == "--emit-ir" {
            stage = Some(STAGE_PHI_ELIM.to_string());
        } else if a == "-h" || a == "--help" {
            return Err(UsageError::Usage);
        } else if a.starts_with('-') && a != "-" {
            return Err(UsageError::Message(format!("unknown option `{a}`")));
        } else if file.replace(a.clone()).is_some() {
            return Err(UsageError::Message("more than one input file".into()));
        }
    }
    let file = file.ok_or(UsageError::Message("no input file".into()))?;
    let chosen = [preprocess_only, assembly, stage.is_some()];
    if chosen.iter().filter(|c| **c).count() > 1 {
        return Err(UsageError::Message(
            "-E, -S and --emit-ir are alternatives: give one".into(),
        ));
    }
    let writes_ir_file = output
        .as_ref()
        .is_some_and(|o| o.extension().is_some_and(|e| e == "ir"));
    let product = if preprocess_only {
        Product::Preprocessed
    } else if assembly {
        Product::Assembly
    } else if let Some(stage) = stage {
        Product::Ir(stage)
    } else if output.is_some() && !writes_ir_file {
        Product::Executable
    } else {
        Product::Ir(STAGE_PHI_ELIM.to_string())
    };
    Ok(Args {
        file,
        product,
        output,
        opts,
        regalloc,
        ub_checks,
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
    if args.product == Product::Executable {
        let Some(out) = &args.output else {
            return usage();
        };
        return link_executable(&text, args.opts.target, out);
    }
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
    if args.product == Product::Preprocessed {
        return preprocess_file(file, &args.opts);
    }
    let module = if is_c {
        let lowering = LowerOptions {
            ub_checks: args.ub_checks,
        };
        match compile_c_file_with(Path::new(file), &args.opts, lowering) {
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
    match &args.product {
        Product::Ir(stage) => emit_stage(file, module, stage),
        Product::Assembly | Product::Executable => {
            emit_assembly(file, module, args.opts.target, args.regalloc)
        }
        Product::Preprocessed => unreachable!("handled above"),
    }
}

/// Runs the whole pipeline and the target's backend; the assembly text.
fn emit_assembly(
    file: &str,
    module: IrModule,
    target: Target,
    regalloc: RegallocMode,
) -> Result<String, ExitCode> {
    let last = run_pipeline(module, &PipelineOptions::default(), &mut |_, _| {}).map_err(|e| {
        eprintln!("{file}:1:1: error: {e}");
        ExitCode::from(1)
    })?;
    let opts = BackendOptions {
        regalloc,
        ..BackendOptions::default()
    };
    compile_module(&last, target, &opts).map_err(|e| {
        if e.is_checker_failure() {
            eprintln!("phicc: internal error: {e}");
            ExitCode::from(70)
        } else {
            eprintln!("phicc: error: {e}");
            ExitCode::from(2)
        }
    })
}

/// Assembles and links `assembly` into a static executable at `out` with the target's gcc
/// driver, in a temporary directory that is removed afterwards.
fn link_executable(assembly: &str, target: Target, out: &Path) -> ExitCode {
    let fail = |message: String| {
        eprintln!("phicc: error: {message}");
        ExitCode::from(1)
    };
    let dir = match tempfile::Builder::new().prefix("phicc-").tempdir() {
        Ok(d) => d,
        Err(e) => return fail(format!("cannot create a temporary directory: {e}")),
    };
    let asm_path = dir.path().join("x.s");
    if let Err(e) = std::fs::write(&asm_path, assembly) {
        return fail(format!("cannot write {}: {e}", asm_path.display()));
    }
    let driver = target.gcc_driver();
    let child = Command::new(driver)
        .arg("-static")
        .arg("-o")
        .arg(out)
        .arg(&asm_path)
        .stdin(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot run {driver}: {e}")),
    };
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return ExitCode::SUCCESS,
            Ok(Some(status)) => return fail(format!("{driver} failed ({status})")),
            Ok(None) if start.elapsed() > LINK_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return fail(format!(
                    "{driver} did not finish within {} s",
                    LINK_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return fail(format!("waiting for {driver}: {e}")),
        }
    }
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
