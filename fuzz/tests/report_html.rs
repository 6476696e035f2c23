//! `report.html` as a person sees it: a short real hunt with a seeded bug, its report
//! opened in headless Chromium, and what the browser built checked against
//! `summary.json` and the files on disk.
//!
//! The out dir's name contains `<`, `&`, quotes and a space, so every path the report
//! prints is hostile markup; the finding's program (generated C, full of `<` and `&`)
//! is shown inline. The checks:
//! - the page's title; the signature and finding counts equal `summary.json`'s, and
//!   there is one `section.finding` per signature;
//! - every SVG plot is laid out with a non-zero size (`getBBox` and the client rect);
//! - the source text in the DOM is the file's text, character for character, and the
//!   reproduce command read back from the DOM, run by `sh`, reproduces the finding
//!   (exit 1 with the seeded bug) — so neither escaping nor shell quoting broke;
//! - the page loads nothing from outside (no `src`/`href`, no script of its own);
//! - `findings.jsonl` has one line per saved finding, each naming a directory on disk;
//!   `report.md` and `summary.json` agree with the page.
//!
//! Chromium is Debian's `chromium`, installed by `scripts/setup.sh`; when it is missing
//! the test fails and says so (CI installs it), it never skips.

mod common;
use common::browser::{assert_report_matches_summary, chromium, probe_page};
use oracle::native::process::{run_limited, Termination};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const MUTANT: &str = "m2r_frontier_skips_loop_header";

/// Runs after the page is parsed; writes what the browser built, as JSON made safe for
/// any DOM serialization by `encodeURIComponent`, between two markers.
const PROBE: &str = r#"<script>
(function () {
  var q = function (s) { return Array.prototype.slice.call(document.querySelectorAll(s)); };
  var text = function (s) { var e = document.querySelector(s); return e ? e.textContent : null; };
  var r = {
    title: document.title,
    unique: text('#unique-findings'),
    total: text('#total-findings'),
    programs: text('#programs'),
    sections: q('section.finding').length,
    signatures: q('section.finding code.signature').map(function (e) { return e.textContent; }),
    sources: q('pre.source').map(function (e) { return e.textContent; }),
    commands: q('pre.cmd').map(function (e) { return e.textContent; }),
    external: q('[src],[href],link,img,iframe,object,embed').length,
    scripts: q('script').length,
    plots: q('svg.plot').map(function (s) {
      var b = s.getBBox(), c = s.getBoundingClientRect();
      return { id: s.id, bbox_w: b.width, bbox_h: b.height, w: c.width, h: c.height,
               shapes: s.querySelectorAll('rect,polyline,line').length };
    })
  };
  var out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = 'PROBE<' + encodeURIComponent(JSON.stringify(r)) + '>PROBE';
  document.body.appendChild(out);
})();
</script>"#;

fn run_hunt(out: &Path) -> (i32, String) {
    let bin = env!("CARGO_BIN_EXE_phihunt");
    let mut cmd = Command::new(bin);
    cmd.env_remove("PHIHUNT_MUTANT")
        .env_remove("PHIHUNT_DISABLE_PASSES")
        .args(["--mutant", MUTANT, "hunt", "--gen", "c", "--time", "60s"])
        .args(["--max-programs", "40", "--seed", "11", "--jobs", "1"])
        .args(["--targets", "none", "--reduce-time", "0s", "--corpus-found"])
        .arg(out.join("corpus-found"))
        .arg("--out")
        .arg(out);
    let r = run_limited(&mut cmd, Duration::from_secs(180), 1 << 20).unwrap();
    let code = match r.termination {
        Termination::Exited(c) => c,
        other => panic!("hunt did not finish: {other:?}"),
    };
    (code, String::from_utf8_lossy(&r.stdout).into_owned())
}

#[test]
fn the_report_renders_in_chromium_with_every_plot_and_finding() {
    // Fails at once, before the hunt, when Chromium is missing.
    chromium();
    let work = tempfile::Builder::new()
        .prefix("phihunt-report-")
        .tempdir()
        .unwrap();
    // Every path in the report carries markup and shell metacharacters.
    let out = work.path().join("out <b>&amp; 'it's' \"x\"");
    let (code, stdout) = run_hunt(&out);
    assert_eq!(code, 1, "the seeded bug should be found: {stdout}");

    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let unique = summary["unique_findings"].as_u64().unwrap();
    let total = summary["totals"]["findings"].as_u64().unwrap();
    assert!(unique >= 1 && total >= unique, "{summary}");

    // findings.jsonl: one line per finding, each naming a saved directory, or (past the
    // stored copies of its signature) the seeds file that holds its seed line.
    let journal = std::fs::read_to_string(out.join("findings.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = journal
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, total);
    for l in &lines {
        let path = Path::new(l["path"].as_str().unwrap());
        let seed = l["seed"].as_u64().expect("a seed");
        if l["kind"] == "seed_line" {
            let seeds = std::fs::read_to_string(path).unwrap_or_default();
            assert!(
                seeds
                    .lines()
                    .any(|s| s.split_whitespace().next() == Some(&seed.to_string())),
                "{l}: no line for seed {seed} in {seeds}"
            );
        } else {
            assert!(path.join("finding.json").is_file(), "{l}");
        }
        assert_eq!(l["generator"], "c");
    }
    // The matrix counts every finding; its `all` column adds up to the total.
    let matrix_total: u64 = summary["matrix"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["counts"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()
                .as_u64()
                .unwrap()
        })
        .sum();
    assert_eq!(matrix_total, total);
    // report.md tells the same story.
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let programs = summary["totals"]["programs"].as_u64().unwrap();
    assert!(md.contains(&format!("| **all** | {programs} |")), "{md}");

    // The report itself: nothing external, no script of its own.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();

    // The census (on by default): every row in summary.json, and each situation row the
    // same in report.md and report.html.
    let values = summary["value_census"].as_array().unwrap();
    assert_eq!(values.len(), 16 * 4, "every operation at every width");
    let ran: u64 = values
        .iter()
        .map(|r| r["executions"].as_u64().unwrap())
        .sum();
    assert!(ran > 0, "the reference runs met integer operations");
    let situations = summary["situation_census"].as_array().unwrap();
    assert!(!situations.is_empty());
    for r in situations {
        let cells = [
            r["pass"].as_str().unwrap().to_string(),
            r["situation"].as_str().unwrap().to_string(),
            r["presented"].as_u64().unwrap().to_string(),
            r["changed"].as_u64().unwrap().to_string(),
        ];
        assert!(md.contains(&format!("| {} |", cells.join(" | "))), "{r}");
        assert!(
            html.contains(&format!("<td>{}</td></tr>", cells.join("</td><td>"))),
            "{r}"
        );
    }
    // Open a copy with the probe appended, in a plain directory, with a fresh profile.
    let probe = probe_page(&html, PROBE);
    assert_eq!(probe["title"], "phihunt hunt report");
    assert_report_matches_summary(&html, &probe, &summary);

    let plots = probe["plots"].as_array().unwrap();
    let ids: Vec<&str> = plots.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "plot-programs",
            "plot-findings",
            "plot-matrix",
            "plot-discards",
            "plot-phases"
        ]
    );
    for p in plots {
        for k in ["bbox_w", "bbox_h", "w", "h"] {
            assert!(p[k].as_f64().unwrap() > 10.0, "{p}");
        }
        assert!(p["shapes"].as_u64().unwrap() > 0, "{p}");
    }

    // The source text round-trips: what the browser shows is the file.
    let detail = &summary["finding_details"][0];
    let source_file = detail["source_file"].as_str().unwrap();
    assert!(source_file.ends_with("program.c"), "{source_file}");
    let file_text = std::fs::read_to_string(source_file).unwrap();
    assert!(
        file_text.contains('<'),
        "a C program with a comparison: {file_text}"
    );
    let shown = probe["sources"][0].as_str().unwrap();
    if shown != file_text {
        let at = shown
            .chars()
            .zip(file_text.chars())
            .take_while(|(a, b)| a == b)
            .count();
        let context: String = file_text
            .chars()
            .skip(at.saturating_sub(40))
            .take(80)
            .collect();
        panic!(
            "the source in the DOM differs from {source_file} at character {at} \
             ({} shown, {} in the file), around: {context:?}",
            shown.chars().count(),
            file_text.chars().count()
        );
    }

    // The reproduce command as the browser shows it, run by a shell, shows the bug.
    let commands: Vec<&str> = probe["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let check = commands
        .iter()
        .find(|c| c.contains(" check "))
        .unwrap_or_else(|| panic!("no check command: {commands:?}"));
    assert!(check.starts_with(&format!("phihunt --mutant {MUTANT} check --targets none ")));
    let bin = env!("CARGO_BIN_EXE_phihunt");
    let script = format!("phihunt() {{ '{bin}' \"$@\"; }}; {check}");
    let mut sh = Command::new("sh");
    sh.arg("-c").arg(&script).env_remove("PHIHUNT_MUTANT");
    let r = run_limited(&mut sh, Duration::from_secs(120), 1 << 20).unwrap();
    assert_eq!(
        r.termination,
        Termination::Exited(1),
        "{script}\n{}{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(
        commands.iter().any(|c| c.contains(" gen c --seed ")),
        "{commands:?}"
    );
}
