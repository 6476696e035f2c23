//! What one c-torture test did on one target: the vocabulary of the tables, the
//! expected-failures list and the JSON report.
//!
//! Why: the front-end, varargs and floats work of issue 14 is measured by this suite, so
//! every test that does not pass must say exactly why, in one line a person can act on:
//! phicc's own error (`file:line:col: error: ...`) for a refusal, the first stage or
//! native target whose behaviour differs for wrong code, the oracle's words for
//! undefined behaviour.
//!
//! Invariants:
//! - [`Kind::WrongCode`] is only ever a stage (oracle) or native target whose run differs
//!   from gcc -O0's binary of the same test on the same target, once the UB judge found
//!   the test defined; it is never derived from a timeout, an out-of-fuel run, a crash of
//!   phicc or a setup problem (never a false positive);
//! - every non-pass outcome has a one-line `reason` (newlines folded), which is what the
//!   expected-failures list and the refusal tables show;
//! - [`Kind::name`] is the stable key of the JSON report and of the list's lines;
//! - a [`Kind::Ub`] outcome stays `ub` whatever phicc's binaries do: their comparison
//!   with gcc's is kept beside it ([`Outcome::ub_natives`]), as information for the
//!   review of UB verdicts, never as a pass or a wrong code.

use compiler::target::Target;
use serde::{Deserialize, Serialize};

/// The kind of an outcome, in the order of the tables' columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Every oracle stage and every native stage of the target exit 0 like gcc's binary
    /// (with the same stdout).
    Pass,
    /// phicc's front end refused the test (its first error, `file:line:col: error: ...`).
    Refused,
    /// A stage in the oracle, or phicc's binary on the target, behaves differently from
    /// gcc's binary: a miscompile (or, at `lowered`, a front-end or oracle bug).
    WrongCode,
    /// phicc's binary ran past its limit where gcc's finished, a stage after `lowered`
    /// ran out of oracle fuel, or the whole judgement ran past its wall-time limit.
    Timeout,
    /// The UB judge found undefined behaviour in the test (on the target's data model).
    Ub,
    /// The oracle gives no verdict: `lowered` runs out of fuel, or the oracle cannot run
    /// the program (an external it does not know). Native stages may still have passed.
    OracleInvalid,
    /// phicc failed internally: a panic, a verifier failure, the backend refusing an IR
    /// construct, the allocation checker, the assembler rejecting phicc's output, or the
    /// judging child process crashing.
    Error,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Pass,
        Kind::Refused,
        Kind::WrongCode,
        Kind::Timeout,
        Kind::Ub,
        Kind::OracleInvalid,
        Kind::Error,
    ];

    /// The stable name (JSON, expected-failures list).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Pass => "pass",
            Kind::Refused => "refused",
            Kind::WrongCode => "wrong-code",
            Kind::Timeout => "timeout",
            Kind::Ub => "ub",
            Kind::OracleInvalid => "oracle-invalid",
            Kind::Error => "error",
        }
    }

    /// The column header of the tables.
    pub fn header(self) -> &'static str {
        match self {
            Kind::Pass => "pass",
            Kind::Refused => "refused",
            Kind::WrongCode => "wrong code",
            Kind::Timeout => "timeout",
            Kind::Ub => "ub",
            Kind::OracleInvalid => "oracle invalid",
            Kind::Error => "phicc error",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// One test's outcome on one target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub kind: Kind,
    /// Where it happened: the oracle stage (`gvn`, `lowered`) or native stage
    /// (`native:i686`) for wrong code, timeouts and internal errors; empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stage: String,
    /// One line: the front end's error, the differing behaviour, the UB judge's finding.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// For [`Kind::Ub`] only, information and never a verdict: whether phicc's binaries
    /// on the target behave like gcc -O0's (gcc's stdout and exit 0) although the UB
    /// judge calls the test undefined ([`UB_NATIVES_LIKE_GCC`], or `differ (KIND at
    /// STAGE): ` and the difference); empty otherwise and in results written before it existed. Not
    /// part of [`Outcome::reason`], so the expected-failures list does not depend on it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ub_natives: String,
}

/// [`Outcome::ub_natives`] when every native stage of the target behaves like gcc -O0.
pub const UB_NATIVES_LIKE_GCC: &str = "like gcc";

impl Outcome {
    pub fn pass() -> Outcome {
        Outcome::new(Kind::Pass, "", "")
    }

    pub fn new(kind: Kind, stage: impl Into<String>, detail: impl Into<String>) -> Outcome {
        Outcome {
            kind,
            stage: stage.into(),
            detail: one_line(&detail.into()),
            ub_natives: String::new(),
        }
    }

    /// The reason of the expected-failures list: wrong code leads with `WRONG CODE` so it
    /// stands out in a diff; the others with their kind.
    pub fn reason(&self) -> String {
        let at = if self.stage.is_empty() {
            String::new()
        } else {
            format!(" at {}", self.stage)
        };
        match self.kind {
            Kind::Pass => "pass".into(),
            Kind::WrongCode => format!("WRONG CODE{at}: {}", self.detail),
            Kind::Refused => format!("refused: {}", self.detail),
            k => format!("{}{at}: {}", k.name(), self.detail),
        }
    }
}

impl Outcome {
    /// [`Outcome::reason`] as the expected-failures list keeps it: the same on every
    /// target and every build of phicc — `target`'s name as `TARGET`, a link error's
    /// section offset (`(.text+0x1c)`), temporary object files, the linker's path and the
    /// IR block and instruction index of an oracle verdict dropped — so that one line
    /// covers the targets that fail alike.
    pub fn list_reason(&self, target: Target) -> String {
        generic_reason(&self.reason(), target)
    }
}

/// `reason` with `target`'s name as `TARGET` and the build-specific parts of linker
/// messages dropped (see [`Outcome::list_reason`]).
pub fn generic_reason(reason: &str, target: Target) -> String {
    let mut d = reason
        .replace(&format!("native:{}", target.name()), "native:TARGET")
        .replace(&format!("{}'s gcc", target.name()), "TARGET's gcc");
    while let Some(start) = d.find("(.text+") {
        let end = d[start..].find(')').map_or(d.len(), |e| start + e + 1);
        d.replace_range(start..end, "");
    }
    let words: Vec<&str> = d
        .split(' ')
        .filter(|w| !w.starts_with("/tmp/") && !w.is_empty())
        .map(|w| if w.ends_with("/ld:") { "ld:" } else { w })
        .collect();
    drop_ir_positions(&words).join(" ").replace(": :", ":")
}

/// `words` without the block and instruction index of an oracle verdict
/// (`at @f .LBB3 inst 5 (t.c:13:17)` → `at @f (t.c:13:17)`): the index depends on the
/// target's lowering (plain `char`'s signedness, 4-byte pointers), the function and the
/// C position do not.
fn drop_ir_positions<'a>(words: &[&'a str]) -> Vec<&'a str> {
    let is_block = |w: &str| {
        w.strip_prefix(".LBB")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let is_index = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        if is_block(words[i])
            && words.get(i + 1) == Some(&"inst")
            && words.get(i + 2).is_some_and(|w| is_index(w))
        {
            i += 3;
        } else {
            out.push(words[i]);
            i += 1;
        }
    }
    out
}

/// `s` on one line (newlines and tabs folded to spaces, trimmed), at most 300 characters.
pub fn one_line(s: &str) -> String {
    let folded: String = s
        .split(['\n', '\r', '\t'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if folded.chars().count() > 300 {
        let cut: String = folded.chars().take(297).collect();
        format!("{cut}...")
    } else {
        folded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_back_and_wrong_code_stands_out() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
        }
        let w = Outcome::new(
            Kind::WrongCode,
            "native:i686",
            "gcc -O0: exit 0, phicc: exit 1",
        );
        assert_eq!(
            w.reason(),
            "WRONG CODE at native:i686: gcc -O0: exit 0, phicc: exit 1"
        );
        let r = Outcome::new(Kind::Refused, "", "a.c:1:2: error: x\n  more");
        assert_eq!(r.reason(), "refused: a.c:1:2: error: x more");
    }

    #[test]
    fn list_reasons_drop_the_ir_position_of_a_ub_verdict() {
        let ub = |inst: &str| {
            Outcome::new(
                Kind::Ub,
                "",
                format!("UninitRead: UB UninitRead at @foo .LBB7 inst {inst} (t.c:40:34)"),
            )
        };
        let want = "ub: UninitRead: UB UninitRead at @foo (t.c:40:34)";
        assert_eq!(ub("17").list_reason(Target::X86_64), want);
        assert_eq!(ub("19").list_reason(Target::I686), want);
    }

    #[test]
    fn list_reasons_are_the_same_on_every_target() {
        let e = |t: &str, off: &str| {
            Outcome::new(
                Kind::Error,
                format!("native:{t}"),
                format!("asm_rejected: {t}'s gcc rejects phicc's assembly: (.text+{off}): undefined reference to `f'"),
            )
        };
        let want = "error at native:TARGET: asm_rejected: TARGET's gcc rejects phicc's assembly: undefined reference to `f'";
        assert_eq!(e("i686", "0x1c").list_reason(Target::I686), want);
        assert_eq!(e("riscv64", "0x8").list_reason(Target::Riscv64), want);
        let ld = "ld: /usr/lib/gcc-cross/x/bin/ld: /tmp/cc1.o: in function `main':";
        assert_eq!(
            generic_reason(ld, Target::I686),
            "ld: ld: in function `main':"
        );
    }
}
