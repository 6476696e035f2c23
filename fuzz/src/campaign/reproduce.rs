//! How to reproduce a finding: the shell commands the reports print under it.
//!
//! Why: the first thing a compiler engineer does with a finding is run it again, with the
//! same seeded bugs, disabled passes, target and pointer width the hunt used; getting one
//! of those wrong makes a real bug look like a flake. The commands are built from the
//! hunt's settings and the finding's signature, never typed by hand.
//!
//! Invariants:
//! - every command is one line a POSIX shell runs as is: each path and argument that is
//!   not plain is single-quoted ([`shell_quote`]);
//! - the `check` command names the file a person reads first — `reduced.ir` when the
//!   reducer ran, else the C program (`program.c`, judged against gcc), else the raw
//!   `input.ir` — and asks for exactly the finding's native target (`--targets none` for
//!   the middle end, whose bugs need no toolchain) and width (`--ptr-bytes 4` for `@4`);
//! - a `gen` command is given only for generators `phihunt gen` knows (`cfg`, `phi`, `c`):
//!   it prints the exact program the hunt ran for that seed.

use super::report_data::FindingDetail;
use super::stats::SignatureTally;
use super::HuntConfig;
use crate::native::NativeStage;
use std::path::Path;

/// `s` as one shell word: unchanged when it is plain, else in single quotes.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The generators `phihunt gen` accepts.
const GEN_KNOWS: [&str; 3] = ["cfg", "phi", "c"];

/// The reproduction of one signature's first finding.
pub fn reproduce_commands(cfg: &HuntConfig, s: &SignatureTally) -> FindingDetail {
    let mutants: Vec<String> = cfg.mutants.iter().map(|m| m.name().to_string()).collect();
    let disabled: Vec<String> = cfg.diff.pipeline.disabled.iter().cloned().collect();
    reproduce_with(&mutants, &disabled, s)
}

/// The reproduction of one signature's first finding under the seeded bugs `mutants` and
/// the passes switched off, `disabled` (names, as a hunt's `summary.json` lists them).
pub fn reproduce_with(
    mutants: &[String],
    disabled: &[String],
    s: &SignatureTally,
) -> FindingDetail {
    let dir = Path::new(&s.first);
    let source_file = s
        .reduced
        .clone()
        .map(std::path::PathBuf::from)
        .or_else(|| Some(dir.join("program.c")).filter(|p| p.is_file()))
        .or_else(|| Some(dir.join("input.ir")).filter(|p| p.is_file()));
    let mut global = Vec::new();
    if !mutants.is_empty() {
        global.push(format!("--mutant {}", mutants.join(",")));
    }
    if !disabled.is_empty() {
        global.push(format!("--disable-passes {}", disabled.join(",")));
    }
    let global: String = global.iter().map(|g| format!(" {g}")).collect();
    let mut reproduce = Vec::new();
    if let Some(file) = &source_file {
        let targets = match NativeStage::from_name(&s.signature.stage) {
            Some(stage) if s.signature.is_native() => stage.target.name().to_string(),
            _ => "none".to_string(),
        };
        let width = if s.signature.stage.ends_with("@4") {
            " --ptr-bytes 4"
        } else {
            ""
        };
        reproduce.push(format!(
            "phihunt{global} check --targets {targets}{width} {}",
            shell_quote(&file.display().to_string())
        ));
    }
    if let Some(seed) = s.first_seed {
        if GEN_KNOWS.contains(&s.first_generator.as_str()) {
            reproduce.push(format!(
                "phihunt{global} gen {} --seed {seed}",
                s.first_generator
            ));
        }
    }
    FindingDetail {
        signature: s.signature.to_string(),
        reproduce,
        source_file: source_file.map(|p| p.display().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_survive_quoting() {
        assert_eq!(
            shell_quote("out/findings/0001-mismatch@gvn/reduced.ir"),
            "out/findings/0001-mismatch@gvn/reduced.ir"
        );
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("native:x86_64+stack"), "native:x86_64+stack");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$(rm -rf ~)"), "'$(rm -rf ~)'");
    }
}
