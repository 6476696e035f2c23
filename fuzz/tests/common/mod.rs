//! Helpers shared by the CLI tests: run the `phihunt` binary as a user would (from the
//! workspace root, with no seeded bug or disabled pass inherited from the environment)
//! and read its closing line.
#![allow(dead_code)] // each test crate uses its own subset

pub mod browser;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `phihunt ARGS`: (exit code, stdout, stderr).
pub fn phihunt(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_phihunt"))
        .args(args)
        .current_dir(workspace_root())
        .env_remove("PHIHUNT_MUTANT")
        .env_remove("PHIHUNT_DISABLE_PASSES")
        .output()
        .expect("run phihunt");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn last_line(s: &str) -> &str {
    s.trim_end().lines().last().unwrap_or("")
}

/// Parses the closing line `N passed, M failed`.
pub fn counts(line: &str) -> (usize, usize) {
    let nums: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(
        line.ends_with("failed") && nums.len() == 2,
        "not a closing line: {line}"
    );
    (nums[0], nums[1])
}
