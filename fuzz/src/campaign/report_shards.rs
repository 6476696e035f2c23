//! The shard sections of a merged report (`phihunt merge`): which shards it joins, how
//! their work was spread, and under each finding every shard's copies.
//!
//! Why: the merged report reads like one hunt's, but a reader must see whether it covers
//! the whole seed space (a missing shard is named in red), whether the shards were
//! balanced (programs per shard), and where each shard's copies of a bug are (the first
//! copy is shown in full; the others are one path away).
//!
//! Invariants: rendered from [`ReportData::merged`] only, so a hunt's own report (which
//! has none) is unchanged; both renderings list the same shards and copies in the same
//! order; every text is escaped ([`super::svg::escape`]); stable hooks for tests:
//! `#merged-shards` and `#missing-shards` hold the numbers, `svg#plot-shards` is the
//! per-shard bar chart, and each finding's copies are rows of `table.copies`.

use super::report_data::ReportData;
use super::svg::{self, escape, Bar, PALETTE};
use std::fmt::Write;

/// The shard section of `report.md` (nothing for a hunt's own report).
pub fn markdown(d: &ReportData, md: &mut String) {
    let Some(m) = &d.merged else {
        return;
    };
    let _ = writeln!(
        md,
        "\n## Shards\n\nMerged from {} of {} shards (`hunt --shard I/{}`); counts are sums \
         over the shards, durations wall-clock from the first shard's start.\n",
        m.shards.len(),
        m.shard_count,
        m.shard_count
    );
    if !m.missing.is_empty() {
        let list: Vec<String> = m.missing.iter().map(|i| i.to_string()).collect();
        let _ = writeln!(
            md,
            "**Missing shards: {}** — their programs are not in this report.\n",
            list.join(", ")
        );
    }
    let _ = writeln!(
        md,
        "| shard | programs | findings | signatures | seconds | programs/s | jobs | runs | folder |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    for s in &m.shards {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {:.1} | {:.1} | {} | {} | {} |",
            s.index,
            s.programs,
            s.findings,
            s.unique_findings,
            s.duration_s,
            s.programs_per_s,
            s.jobs,
            s.runs,
            s.dir
        );
    }
    if !m.copies.is_empty() {
        let _ = writeln!(md, "\n### Every shard's copies of each finding\n");
        for c in &m.copies {
            let _ = writeln!(md, "`{}`:\n", c.signature);
            for s in &c.shards {
                let _ = writeln!(
                    md,
                    "- shard {}: {} findings, first seed {} in {}; {} directories{}",
                    s.shard,
                    s.count,
                    s.first_seed.map_or("-".into(), |x| x.to_string()),
                    s.first,
                    s.directories.len(),
                    s.seeds_file
                        .as_ref()
                        .map_or(String::new(), |f| format!(", more seeds in {f}"))
                );
            }
            let _ = writeln!(md);
        }
    }
}

/// The shard section of `report.html`, after the settings (nothing for a hunt's own).
pub fn html(d: &ReportData, out: &mut String) {
    let Some(m) = &d.merged else {
        return;
    };
    let _ = writeln!(
        out,
        "<h2>Shards</h2>\n<p>Merged from <span id=\"merged-shards\">{}</span> of {} shards \
         (<code>hunt --shard I/{}</code>); counts are sums over the shards, durations \
         wall-clock from the first shard's start. Missing: <span id=\"missing-shards\">{}</span>.</p>",
        m.shards.len(),
        m.shard_count,
        m.shard_count,
        m.missing.len()
    );
    if !m.missing.is_empty() {
        let list: Vec<String> = m.missing.iter().map(|i| i.to_string()).collect();
        let _ = writeln!(
            out,
            "<p style=\"color:#b00\"><b>Missing shards: {}</b> — their programs are not in \
             this report.</p>",
            list.join(", ")
        );
    }
    let bars: Vec<Bar> = m
        .shards
        .iter()
        .map(|s| Bar {
            label: format!("shard {}", s.index),
            value: s.programs as f64,
            text: s.programs.to_string(),
            color: PALETTE[0],
        })
        .collect();
    out.push_str(&svg::bar_chart("plot-shards", "Programs per shard", &bars));
    out.push_str("\n<table class=\"shards\"><tr>");
    for h in [
        "shard",
        "programs",
        "findings",
        "signatures",
        "seconds",
        "programs/s",
        "jobs",
        "runs",
        "folder",
    ] {
        let _ = write!(out, "<th>{h}</th>");
    }
    out.push_str("</tr>\n");
    for s in &m.shards {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.1}</td>\
             <td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
            s.index,
            s.programs,
            s.findings,
            s.unique_findings,
            s.duration_s,
            s.programs_per_s,
            s.jobs,
            s.runs,
            escape(&s.dir)
        );
    }
    out.push_str("</table>\n");
}

/// Under finding number `i` of a merged report: every shard's copies of it.
pub fn html_copies(d: &ReportData, i: usize, out: &mut String) {
    let Some(c) = d.merged.as_ref().and_then(|m| m.copies.get(i)) else {
        return;
    };
    out.push_str(
        "<p>Copies by shard:</p>\n<table class=\"copies\"><tr><th>shard</th><th>findings</th>\
         <th>first seed</th><th>stored directories</th><th>seed lines</th></tr>\n",
    );
    for s in &c.shards {
        let dirs: Vec<String> = s
            .directories
            .iter()
            .map(|p| format!("<code>{}</code>", escape(p)))
            .collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            s.shard,
            s.count,
            s.first_seed.map_or("-".into(), |x| x.to_string()),
            dirs.join("<br>"),
            s.seeds_file
                .as_ref()
                .map_or("-".into(), |f| format!("<code>{}</code>", escape(f)))
        );
    }
    out.push_str("</table>\n");
}
