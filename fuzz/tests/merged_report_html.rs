//! The merged report (`phihunt merge`) as a person sees it: two shards of a short hunt
//! with a seeded bug, merged, the merged `report.html` opened in headless Chromium, and
//! what the browser built checked against the merged `summary.json` and the files on disk.
//!
//! The shards' and the merge's folders have `<`, `&`, quotes and a space in their names,
//! so every path the merged report prints (every shard's copies) is hostile markup. The
//! checks:
//! - the title, the shard count (2 of 2, none missing), the program, signature and finding
//!   counts equal `summary.json`'s, and the programs are the sum of the shards';
//! - one `section.finding` per signature, each with a `table.copies` listing every shard
//!   that found it, whose paths read back from the DOM character for character and exist;
//! - every plot, the per-shard bar chart included, is laid out with a non-zero size;
//! - the first finding's source shown is the file's text, and the page loads nothing from
//!   outside and has no script of its own.
//!
//! `PHIHUNT_MERGED_REPORT=DIR` also checks the merged report in DIR (one made by a real
//! sharded hunt) with everything that holds for any merged report.

mod common;
use common::browser::{assert_report_matches_summary, chromium, probe_page};
use oracle::native::process::{run_limited, Termination};
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const MUTANT: &str = "m2r_frontier_skips_loop_header";

const PROBE: &str = r#"<script>
(function () {
  var q = function (s) { return Array.prototype.slice.call(document.querySelectorAll(s)); };
  var text = function (s) { var e = document.querySelector(s); return e ? e.textContent : null; };
  var r = {
    title: document.title,
    merged: text('#merged-shards'),
    missing: text('#missing-shards'),
    unique: text('#unique-findings'),
    total: text('#total-findings'),
    programs: text('#programs'),
    sections: q('section.finding').length,
    signatures: q('section.finding code.signature').map(function (e) { return e.textContent; }),
    copies: q('section.finding').map(function (s) {
      return Array.prototype.slice.call(s.querySelectorAll('table.copies tr')).slice(1)
        .map(function (tr) {
          var td = tr.querySelectorAll('td');
          return { shard: td[0].textContent, count: td[1].textContent,
                   dirs: Array.prototype.slice.call(td[3].querySelectorAll('code'))
                     .map(function (c) { return c.textContent; }) };
        });
    }),
    sources: q('pre.source').map(function (e) { return e.textContent; }),
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

fn run(args: &[String]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_phihunt"));
    cmd.env_remove("PHIHUNT_MUTANT")
        .env_remove("PHIHUNT_DISABLE_PASSES")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .args(args);
    let r = run_limited(&mut cmd, Duration::from_secs(180), 1 << 20).unwrap();
    let code = match r.termination {
        Termination::Exited(c) => c,
        other => panic!("phihunt {args:?} did not finish: {other:?}"),
    };
    (code, String::from_utf8_lossy(&r.stdout).into_owned())
}

fn shard(out: &Path, work: &Path, index: u64) -> (i32, String) {
    let mut a: Vec<String> = [
        "--mutant",
        MUTANT,
        "hunt",
        "--gen",
        "c",
        "--time",
        "60s",
        "--max-programs",
        "40",
        "--seed",
        "11",
        "--jobs",
        "1",
        "--targets",
        "none",
        "--reduce-time",
        "0s",
        "--keep-per-signature",
        "3",
        // Blocks of 4 programs: 5 blocks for each shard.
        "--native-every",
        "4",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(["--shard".into(), format!("{index}/2")]);
    a.extend([
        "--corpus-found".into(),
        work.join("found").display().to_string(),
    ]);
    a.extend(["--out".into(), out.display().to_string()]);
    run(&a)
}

#[test]
fn the_merged_report_renders_in_chromium_with_every_shard_and_copy() {
    // Fails at once, before the hunts, when Chromium is missing.
    chromium();
    let work = tempfile::Builder::new()
        .prefix("phihunt-merged-report-")
        .tempdir()
        .unwrap();
    let w = work.path();
    let hunt = w.join("hunt <b>&amp; 'it's' \"x\"");
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| shard(&hunt, w, 0));
        let b = s.spawn(|| shard(&hunt, w, 1));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(a.0, 1, "the seeded bug should be found: {}", a.1);
    assert_eq!(b.0, 1, "the seeded bug should be found: {}", b.1);
    let merged = w.join("merged <i>&lt;");
    let (code, stdout) = run(&[
        "merge".into(),
        hunt.display().to_string(),
        "--out".into(),
        merged.display().to_string(),
    ]);
    assert_eq!(code, 1, "{stdout}");

    let (summary, probe) = check_in_browser(&merged);
    let programs = summary["totals"]["programs"].as_u64().unwrap();
    assert_eq!(programs, 40);
    assert!(
        summary["unique_findings"].as_u64().unwrap() >= 1,
        "{summary}"
    );
    assert_eq!(probe["merged"], "2");
    // Both shards found the bug; their copies' paths (hostile markup) read back exactly.
    let copies = &probe["copies"][0];
    assert_eq!(copies.as_array().unwrap().len(), 2, "{copies}");
    for c in copies.as_array().unwrap() {
        for d in c["dirs"].as_array().unwrap() {
            assert!(
                d.as_str().unwrap().contains("hunt <b>&amp; 'it's' \"x\""),
                "{d}"
            );
        }
    }
    // The first finding's source: the file's text, character for character.
    let source_file = summary["finding_details"][0]["source_file"]
        .as_str()
        .unwrap();
    let file_text = std::fs::read_to_string(source_file).unwrap();
    assert!(file_text.contains('<'), "{file_text}");
    assert_eq!(probe["sources"][0].as_str().unwrap(), file_text);

    // A merged report made elsewhere (the 10-minute 2-shard hunt of docs/scaling.md):
    // `PHIHUNT_MERGED_REPORT=DIR` checks it too, with everything that holds for any.
    if let Some(dir) = std::env::var_os("PHIHUNT_MERGED_REPORT") {
        check_in_browser(Path::new(&dir));
    }
}

/// The checks that hold for any merged report in `merged`: the page in Chromium against
/// its `summary.json` and the files on disk. Returns the summary and what the probe saw.
fn check_in_browser(merged: &Path) -> (Value, Value) {
    let summary: Value =
        serde_json::from_slice(&std::fs::read(merged.join("summary.json")).unwrap()).unwrap();
    let unique = summary["unique_findings"].as_u64().unwrap();
    let total = summary["totals"]["findings"].as_u64().unwrap();
    let programs = summary["totals"]["programs"].as_u64().unwrap();
    assert!(total >= unique, "{summary}");
    let shards = summary["merged"]["shards"].as_array().unwrap();
    let shard_programs: u64 = shards.iter().map(|s| s["programs"].as_u64().unwrap()).sum();
    assert_eq!(shard_programs, programs);

    let html = std::fs::read_to_string(merged.join("report.html")).unwrap();
    let probe = probe_page(&html, PROBE);

    assert_eq!(probe["title"], "phihunt merged hunt report");
    assert_eq!(probe["merged"], shards.len().to_string());
    let missing = summary["merged"]["missing"].as_array().unwrap().len();
    assert_eq!(probe["missing"], missing.to_string());
    assert_report_matches_summary(&html, &probe, &summary);

    // Every shard's copies, as the browser shows them, are the summary's and on disk.
    let copies = summary["merged"]["copies"].as_array().unwrap();
    let shown_copies = probe["copies"].as_array().unwrap();
    assert_eq!(shown_copies.len(), copies.len());
    for (shown, want) in shown_copies.iter().zip(copies) {
        let want = want["shards"].as_array().unwrap();
        let shown = shown.as_array().unwrap();
        assert_eq!(shown.len(), want.len());
        for (s, w) in shown.iter().zip(want) {
            assert_eq!(s["shard"], w["shard"].to_string());
            assert_eq!(s["count"], w["count"].to_string());
            let dirs: Vec<&str> = s["dirs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_str().unwrap())
                .collect();
            let want_dirs: Vec<&str> = w["directories"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_str().unwrap())
                .collect();
            assert_eq!(dirs, want_dirs);
            for d in dirs {
                assert!(Path::new(d).join("finding.json").is_file(), "{d}");
            }
        }
    }

    let plots = probe["plots"].as_array().unwrap();
    let ids: Vec<&str> = plots.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "plot-shards",
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
    (summary, probe)
}
