//! `bench csmith`'s unsupported baseline: which csmith programs phicc is known not to
//! compile, so that a rise is said out loud instead of hiding among "unsupported".
//!
//! Why: only a front-end diagnostic about a construct phicc does not support counts as
//! unsupported (anything else the front end does wrong is a finding); but a new such
//! diagnostic on programs phicc used to compile is a regression all the same, and a
//! count alone hides it among csmith's variety. The baseline names each known program
//! by its csmith options and seed, so the bench can say exactly which programs are new.
//!
//! Format (`corpus/csmith/unsupported-baseline.txt`), one line per program:
//! `SEED | OPTIONS | FIRST ERROR`, OPTIONS being csmith's options as given after `--`
//! (joined by spaces) or `-` for none; `#` starts a comment. The header says which seeds
//! and options were measured to make it.
//!
//! Invariants: a program of the run that is unsupported and not in the baseline for the
//! same options is *new* (the bench says so and exits 1); a baseline program of the run's
//! options and seed range that now compiles is *gone* (said as progress, never a
//! failure); the baseline is read only, never written by the bench.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The (options, seed) pairs a baseline names.
pub type Known = BTreeSet<(String, u64)>;

/// The baseline in the project's corpus, when there is one.
pub fn default_path() -> Option<PathBuf> {
    crate::c::mutate::pool::default_corpus_root()
        .map(|root| root.join("csmith").join("unsupported-baseline.txt"))
}

/// The options' key in the baseline.
pub fn options_key(options: &[String]) -> String {
    if options.is_empty() {
        "-".into()
    } else {
        options.join(" ")
    }
}

/// The (options, seed) pairs the baseline names. `Err` names the line that is not
/// `SEED | OPTIONS | ERROR`.
pub fn parse(text: &str, file: &str) -> Result<Known, String> {
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, '|').map(str::trim);
        let (Some(seed), Some(options), Some(_error)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!(
                "{file}:{}: expected `SEED | OPTIONS | ERROR`",
                i + 1
            ));
        };
        let seed = seed
            .parse::<u64>()
            .map_err(|_| format!("{file}:{}: `{seed}` is not a seed", i + 1))?;
        out.insert((options.to_string(), seed));
    }
    Ok(out)
}

/// A run's unsupported programs against the baseline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Unsupported now, not in the baseline: (seed, first error).
    pub new: Vec<(u64, String)>,
    /// In the baseline for these options and inside the run's seeds, compiled now.
    pub gone: Vec<u64>,
    /// Unsupported now and in the baseline.
    pub known: usize,
}

/// Compares the run's `unsupported` (seed, first error) over `seeds` with `baseline`.
pub fn compare(
    baseline: &Known,
    options: &str,
    seeds: std::ops::Range<u64>,
    unsupported: &[(u64, String)],
) -> Comparison {
    let mut c = Comparison::default();
    let now: BTreeSet<u64> = unsupported.iter().map(|(s, _)| *s).collect();
    for (seed, error) in unsupported {
        if baseline.contains(&(options.to_string(), *seed)) {
            c.known += 1;
        } else {
            c.new.push((*seed, error.clone()));
        }
    }
    c.new.sort();
    for (opts, seed) in baseline {
        if opts == options && seeds.contains(seed) && !now.contains(seed) {
            c.gone.push(*seed);
        }
    }
    c
}

/// Reads `path` (a missing file is an empty baseline, said in the note).
pub fn read(path: &Path) -> Result<(Known, Option<String>), String> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, &path.display().to_string()).map(|b| (b, None)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((
            BTreeSet::new(),
            Some(format!(
                "{}: no baseline, every unsupported program is new",
                path.display()
            )),
        )),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The lines the bench prints about the comparison.
pub fn render(c: &Comparison, options: &str) -> String {
    let mut out = String::new();
    if c.new.is_empty() {
        out.push_str(&format!(
            "unsupported baseline ({options}): no new unsupported program ({} known)\n",
            c.known
        ));
    } else {
        out.push_str(&format!(
            "unsupported ROSE above the baseline ({options}): {} new program(s) phicc does not compile ({} known):\n",
            c.new.len(),
            c.known
        ));
        for (seed, error) in &c.new {
            out.push_str(&format!("  {seed} | {options} | {error}\n"));
        }
    }
    if !c.gone.is_empty() {
        let seeds: Vec<String> = c.gone.iter().map(u64::to_string).collect();
        out.push_str(&format!(
            "compiled now, listed in the baseline (remove them): seeds {}\n",
            seeds.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_known_and_gone_programs_are_told_apart() {
        let text =
            "# measured: seeds 1-200\n3 | - | t.c:1:2: error: x\n9 | - | t.c:1:2: error: y\n\
                    4 | --no-bitfields | t.c:1:2: error: z\n250 | - | t.c: error: w\n";
        let b = parse(text, "b.txt").unwrap();
        let unsupported = vec![(3, "e3".to_string()), (5, "e5".to_string())];
        let c = compare(&b, "-", 1..201, &unsupported);
        assert_eq!(c.new, vec![(5, "e5".to_string())]);
        assert_eq!(c.known, 1);
        // 9 compiles now; 250 is outside the run; 4 is for other options.
        assert_eq!(c.gone, vec![9]);
        let text = render(&c, "-");
        assert!(
            text.contains("ROSE") && text.contains("5 | - | e5"),
            "{text}"
        );
        // Seed 4 unsupported with its own options is known there, new without them.
        let with = compare(&b, "--no-bitfields", 1..10, &[(4, "z".into())]);
        assert!(with.new.is_empty() && with.known == 1);
        assert_eq!(compare(&b, "-", 1..10, &[(4, "z".into())]).new.len(), 1);
    }

    #[test]
    fn a_malformed_line_is_an_error_with_its_place() {
        let e = parse("# ok\nseven | - | x\n", "b.txt").unwrap_err();
        assert_eq!(e, "b.txt:2: `seven` is not a seed");
        let e = parse("3 - x\n", "b.txt").unwrap_err();
        assert!(e.starts_with("b.txt:1: expected"), "{e}");
    }
}
