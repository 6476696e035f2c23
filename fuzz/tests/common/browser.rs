//! A report as a person sees it: a copy of the page opened in headless Chromium with a
//! probe script appended, and what the browser built read back as JSON.
//!
//! Chromium is Debian's `chromium`, installed by `scripts/setup.sh`; when it is missing
//! the test fails and says so (CI installs it), it never skips. The probe writes its JSON,
//! made safe for any DOM serialization by `encodeURIComponent`, between the markers
//! `PROBE<` and `>PROBE` in a `pre` it appends to the body.

use oracle::native::process::{run_limited, Termination};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The Chromium binary on `PATH` (panics, saying how to install it, when there is none).
pub fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "chromium is not installed: run scripts/setup.sh (it installs Debian's `chromium`; \
         CI does the same). The report's browser test needs it."
    );
}

/// `%XX` escapes back to bytes (what the probe's `encodeURIComponent` wrote).
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Opens a copy of `html` with `probe` (a `<script>`) before `</body>`, in a plain
/// directory with a fresh profile, and returns what the probe wrote.
pub fn probe_page(html: &str, probe: &str) -> serde_json::Value {
    let browser = chromium();
    let dir = tempfile::Builder::new()
        .prefix("phihunt-report-probe-")
        .tempdir()
        .unwrap();
    let page = dir.path().join("report.html");
    std::fs::write(&page, html.replace("</body>", &format!("{probe}</body>"))).unwrap();
    let mut cmd = Command::new(&browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1200,2000",
    ])
    .arg(format!(
        "--user-data-dir={}",
        dir.path().join("profile").display()
    ))
    .arg("--dump-dom")
    .arg(format!("file://{}", page.display()));
    let r = run_limited(&mut cmd, Duration::from_secs(120), 64 << 20).unwrap();
    assert_eq!(
        r.termination,
        Termination::Exited(0),
        "chromium: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    let dom = String::from_utf8_lossy(&r.stdout);
    let encoded = dom
        .split_once("PROBE&lt;")
        .and_then(|(_, rest)| rest.split_once("&gt;PROBE"))
        .map(|(p, _)| p)
        .unwrap_or_else(|| panic!("the probe did not run; DOM:\n{dom}"));
    serde_json::from_str(&percent_decode(encoded)).unwrap()
}

/// What every hunt report (single or merged) must show in the browser, held to its
/// `summary.json`: no script of its own and nothing loaded from outside, the finding
/// counts, one section per signature in the summary's order.
pub fn assert_report_matches_summary(
    html: &str,
    probe: &serde_json::Value,
    summary: &serde_json::Value,
) {
    assert!(
        !html.contains("<script"),
        "the report must not need a script"
    );
    let without_ns = html.replace("http://www.w3.org/2000/svg", "");
    assert!(!without_ns.contains("http://") && !without_ns.contains("https://"));
    let unique = summary["unique_findings"].as_u64().unwrap();
    assert_eq!(probe["unique"], unique.to_string());
    assert_eq!(
        probe["total"],
        summary["totals"]["findings"].as_u64().unwrap().to_string()
    );
    assert_eq!(
        probe["programs"],
        summary["totals"]["programs"].as_u64().unwrap().to_string()
    );
    assert_eq!(probe["sections"].as_u64(), Some(unique));
    let sigs: Vec<&str> = summary["finding_details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["signature"].as_str().unwrap())
        .collect();
    let shown: Vec<&str> = probe["signatures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(shown, sigs);
    assert_eq!(probe["external"], 0);
    assert_eq!(probe["scripts"], 1, "only the probe");
}
