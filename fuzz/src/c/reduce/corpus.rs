//! A reduced C finding as a regression test: the file's header names the bug and carries
//! the expected output, and `corpus/found/` holds it for `cargo test` to replay.
//!
//! Why: `phihunt check FILE.c` judges every stage against the host gcc -O0 build, so a
//! `.c` test needs no expected values to fail while the bug is there. The header pins the
//! reference anyway (exit status and stdout, as gcc -O0 printed them when the file was
//! reduced), so the replay also notices a reference that changed under it.
//!
//! Format (comment lines before the program):
//!   // phihunt: reduced finding <signature> ...free text...
//!   // expected exit: <status>
//!   // expected stdout:            (then one `// | LINE` per line of stdout)
//!   // expected stdout ends without a newline   (only when it does)
//!
//! Invariant: [`expected_output`] reads back exactly what [`test_file_text`] wrote.

use crate::diff::Signature;
use crate::findings::{content_hash, write_atomically};
use std::path::{Path, PathBuf};

/// The test file's text: the header, then the program.
pub fn test_file_text(
    signature: &Signature,
    origin: &str,
    status: i32,
    stdout: &[u8],
    program: &str,
) -> String {
    let mut s = format!("// phihunt: reduced finding {signature}, {origin}\n");
    s.push_str(&format!(
        "// expected exit: {status}\n// expected stdout:\n"
    ));
    let text = String::from_utf8_lossy(stdout);
    let body = text.strip_suffix('\n');
    for line in body
        .unwrap_or(&text)
        .split('\n')
        .filter(|_| !text.is_empty())
    {
        s.push_str(&format!("// | {line}\n"));
    }
    if body.is_none() && !text.is_empty() {
        s.push_str("// expected stdout ends without a newline\n");
    }
    s.push_str(program);
    s
}

/// The (exit status, stdout) a test file's header expects, if it has one.
pub fn expected_output(text: &str) -> Option<(i32, Vec<u8>)> {
    let mut status = None;
    let mut lines: Vec<&str> = Vec::new();
    let mut final_newline = true;
    for l in text.lines().take_while(|l| l.starts_with("//")) {
        if let Some(s) = l.strip_prefix("// expected exit: ") {
            status = s.trim().parse().ok();
        } else if let Some(s) = l.strip_prefix("// | ") {
            lines.push(s);
        } else if l == "// |" {
            lines.push("");
        } else if l.starts_with("// expected stdout ends without a newline") {
            final_newline = false;
        }
    }
    let mut out = lines.join("\n");
    if final_newline && !lines.is_empty() {
        out.push('\n');
    }
    Some((status?, out.into_bytes()))
}

/// Copies the test file `text` into `dir` as `<kind>-<stage>-<hash>.c`; the path.
pub fn copy_to_found(dir: &Path, signature: &Signature, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let name = format!(
        "{}-{}-{:016x}.c",
        signature.kind.name(),
        signature.stage.replace([':', '#', '/', '@'], "_"),
        content_hash(text.as_bytes())
    );
    let dest = dir.join(name);
    write_atomically(&dest, text.as_bytes())?;
    Ok(dest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::FindingKind;

    #[test]
    fn the_expected_output_reads_back() {
        let sig = Signature::new(FindingKind::Mismatch, "gvn");
        for out in [&b"1\n\n-2\n"[..], b"", b"no newline", b"\n"] {
            let t = test_file_text(
                &sig,
                "from c seed 3",
                7,
                out,
                "int main(void) { return 7; }\n",
            );
            assert_eq!(expected_output(&t), Some((7, out.to_vec())), "{t}");
        }
    }
}
