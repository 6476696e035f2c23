//! phicc driver. The C front end is not written yet (issue: "phicc: a C front end");
//! until then phicc reads `.ir` files and prints any stage of the middle end.

use compiler::ir::text::{parse_module, print_module};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: phicc FILE.ir [--emit-ir[=STAGE]]   (C input comes with the front end)");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut stage = String::from("phi_elim");
    for a in &args {
        if let Some(s) = a.strip_prefix("--emit-ir=") {
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
    if !file.ends_with(".ir") {
        eprintln!("{file}:1:1: error: phicc reads only .ir files until the C front end lands");
        return ExitCode::from(1);
    }
    let src = match std::fs::read_to_string(&file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: error: {e}");
            return ExitCode::from(1);
        }
    };
    let module = match parse_module(&src) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}", e.with_file(&file));
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
