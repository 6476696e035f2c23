//! phicc driver. For `.ir` files it runs the middle end and prints any stage. For `.c`
//! files the front end has its first layer: `-E` prints the preprocessed tokens.
//!
//! `-E` output has no line markers (like `gcc -E -P`): a token that began a line in
//! the source begins a line in the output, and lexing the output gives back the same
//! tokens. Warnings go to stderr; an error prints gcc-style and exits with status 1.

use compiler::frontend::{preprocess, tokens_to_text, PreprocessOptions, Target};
use compiler::ir::text::{parse_module, print_module};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: phicc FILE.ir [--emit-ir[=STAGE]]");
    eprintln!("       phicc -E [-I DIR]... [-D NAME[=VALUE]]... [--target=T] FILE.c");
    ExitCode::from(2)
}

/// phicc's own headers (`compiler/include`), the last system directory.
fn own_include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut stage = String::from("phi_elim");
    let mut preprocess_only = false;
    let mut opts = PreprocessOptions {
        system_dirs: vec![own_include_dir()],
        ..PreprocessOptions::default()
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        // `-I DIR`/`-IDIR` and `-D NAME[=V]`/`-DNAME[=V]`.
        let mut joined_or_next = |prefix: &str| -> Option<Option<String>> {
            let rest = a.strip_prefix(prefix)?;
            if !rest.is_empty() {
                return Some(Some(rest.to_string()));
            }
            let next = args.get(i).cloned();
            i += 1;
            Some(next)
        };
        if let Some(dir) = joined_or_next("-I") {
            let Some(dir) = dir else { return usage() };
            opts.include_dirs.push(PathBuf::from(dir));
        } else if let Some(def) = joined_or_next("-D") {
            let Some(def) = def else { return usage() };
            opts.defines.push(match def.split_once('=') {
                Some((name, value)) => (name.to_string(), Some(value.to_string())),
                None => (def, None),
            });
        } else if let Some(t) = a.strip_prefix("--target=") {
            let Some(target) = Target::from_name(t) else {
                eprintln!("phicc: error: unknown target `{t}` (x86_64, i686, aarch64, riscv64)");
                return ExitCode::from(2);
            };
            opts.target = target;
        } else if a == "-E" {
            preprocess_only = true;
        } else if let Some(s) = a.strip_prefix("--emit-ir=") {
            stage = s.to_string();
        } else if a == "--emit-ir" {
        } else if a.starts_with('-') {
            eprintln!("phicc: error: unknown option `{a}`");
            return usage();
        } else if file.replace(a.clone()).is_some() {
            return usage();
        }
    }
    let Some(file) = file else { return usage() };
    if file.ends_with(".c") || file.ends_with(".h") || preprocess_only {
        return compile_c(&file, &opts, preprocess_only);
    }
    if !file.ends_with(".ir") {
        eprintln!("{file}:1:1: error: phicc reads .c and .ir files");
        return ExitCode::from(1);
    }
    run_ir(&file, &stage)
}

fn compile_c(file: &str, opts: &PreprocessOptions, preprocess_only: bool) -> ExitCode {
    let output = match preprocess(Path::new(file), opts) {
        Ok(output) => output,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    for w in &output.warnings {
        eprintln!("{w}");
    }
    if !preprocess_only {
        eprintln!("{file}:1:1: error: the C parser is not written yet; use -E to preprocess");
        return ExitCode::from(1);
    }
    print!("{}", tokens_to_text(&output.tokens));
    ExitCode::SUCCESS
}

fn run_ir(file: &str, stage: &str) -> ExitCode {
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: error: {e}");
            return ExitCode::from(1);
        }
    };
    let module = match parse_module(&src) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}", e.with_file(file));
            return ExitCode::from(1);
        }
    };
    let mut printed = false;
    let result = run_pipeline(module, &PipelineOptions::default(), &mut |event, m| {
        if event.name == stage {
            print!("{}", print_module(m));
            printed = true;
        }
    });
    if let Err(e) = result {
        eprintln!("{file}: error: {e}");
        return ExitCode::from(1);
    }
    if !printed {
        eprintln!("phicc: error: no stage named `{stage}`");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
