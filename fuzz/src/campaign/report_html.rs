//! `report.html`: the hunt's report for a person with a browser — one self-contained
//! file with inline SVG plots and every finding with its reduced source and the commands
//! that reproduce it.
//!
//! What it shows, top to bottom:
//! - the hunt's settings and key numbers (programs, valid ratio, findings, signatures);
//! - programs over wall-clock time (all, agreed, discarded, generator bugs) and findings
//!   over time (all, distinct signatures), from the hunt's [`super::timeline`];
//! - the findings matrix: **rows are where the bug lives** — the pipeline's stages in
//!   pipeline order (`lowered` is the front end's, then mem2reg, each pass, phi_elim),
//!   then each native stage the hunt ran (`native:T`, `native:T/stack`), then anything
//!   else a finding named (`gvn@4`) — and **columns are the generators**, then `all`.
//!   Why this way round: a compiler engineer triages by place first (which pass or which
//!   backend to open), and the generator column says which kind of input reaches it —
//!   a bug only `c` programs find is a front-end-shaped input the IR generators never
//!   make. Targets are rows rather than columns because a native finding is a backend's
//!   bug, a place in its own right; a middle-end bug shows at its pass on every target.
//!   Cells count every finding (duplicates included), hover shows the kinds; passes
//!   switched off are greyed;
//! - discarded programs, dropped vectors and generator bugs by reason (bar chart);
//! - time per phase (generation, oracle stages, native phicc/builds/runs, gcc
//!   references, reduction), summed over workers, from [`super::phases`];
//! - every finding, one per signature: count, stages seen, first seed and generator, the
//!   reduced source (or the program), and copy-pasteable commands.
//!
//! Invariants:
//! - self-contained: no script, no external stylesheet, font or image, no network access
//!   (the only URL in it is the SVG namespace);
//! - every text from the hunt (program text, reasons, paths) is escaped
//!   ([`super::svg::escape`]): the DOM a browser builds has exactly the elements written
//!   here, and a program's text reads back character for character;
//! - a `<pre>` starts with a newline, which the HTML parser drops, so a text that itself
//!   starts with one keeps it;
//! - every number comes from [`ReportData`], the struct `summary.json` serializes;
//! - stable hooks for tests and scripts: `#unique-findings` and `#total-findings` hold
//!   the numbers, each signature is a `section.finding` with a `pre.source`, each plot
//!   an `svg.plot` with an id.

use super::phases::Phase;
use super::report_data::ReportData;
use super::svg::{self, escape, Bar, Cell, Series, PALETTE};
use std::fmt::Write;

/// Longest source shown inline; longer files are cut (the file's path is printed).
pub const MAX_INLINE_SOURCE: usize = 64 * 1024;

/// Reason bars shown before the rest are summed into one.
const MAX_REASONS: usize = 24;

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;\
color:#222;padding:0 16px}h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px \
solid #ddd}table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;\
text-align:right}th{background:#f6f6f6}td:first-child,th:first-child{text-align:left}\
pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:480px;font:12px/1.4 monospace}\
pre.cmd{background:#eef3f8;max-height:none;white-space:pre-wrap;overflow-wrap:anywhere}\
.finding{border:1px solid #ddd;border-radius:4px;padding:4px 12px;margin:12px 0}\
.plot{display:block;margin:12px 0}.plot text{font:11px sans-serif;fill:#333}\
.plot .plot-title{font:bold 13px sans-serif}.plot .grid{stroke:#eee}.plot .axis{stroke:#888}\
.plot .colhead{font:bold 11px sans-serif}.plot .num.light{fill:#fff}\
.key td{text-align:left}.key td:first-child{font-weight:600}.muted{color:#777}\
tr.zero td{background:#fde2e2}";

fn row(out: &mut String, cells: &[String]) {
    out.push_str("<tr>");
    for c in cells {
        let _ = write!(out, "<td>{c}</td>");
    }
    out.push_str("</tr>\n");
}

fn head(out: &mut String, cells: &[&str]) {
    out.push_str("<tr>");
    for c in cells {
        let _ = write!(out, "<th>{}</th>", escape(c));
    }
    out.push_str("</tr>\n");
}

/// The file's text for inline display, cut at [`MAX_INLINE_SOURCE`] bytes (at a
/// character boundary), or why it cannot be shown.
fn source_text(path: &str) -> (String, bool) {
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if text.len() <= MAX_INLINE_SOURCE {
                (text, false)
            } else {
                let mut cut = MAX_INLINE_SOURCE;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                (text[..cut].to_string(), true)
            }
        }
        Err(e) => (format!("(cannot read {path}: {e})"), false),
    }
}

fn plots(out: &mut String, d: &ReportData) {
    let s = &d.timeline.samples;
    let series = |name: &str, color: &'static str, f: fn(&super::timeline::Sample) -> u64| Series {
        name: name.to_string(),
        color,
        points: s.iter().map(|x| (x.t, f(x) as f64)).collect(),
    };
    out.push_str(&svg::line_plot(
        "plot-programs",
        "Programs over time",
        "programs",
        &[
            series("programs", PALETTE[0], |x| x.programs),
            series("agreed", PALETTE[2], |x| x.agreed),
            series("discarded", PALETTE[4], |x| x.discarded),
            series("generator bugs", PALETTE[3], |x| x.generator_bugs),
        ],
    ));
    out.push_str(&svg::line_plot(
        "plot-findings",
        "Findings over time",
        "findings",
        &[
            series("findings", PALETTE[1], |x| x.findings),
            series("signatures", PALETTE[0], |x| x.unique),
        ],
    ));
    let _ = writeln!(
        out,
        "<p class=\"muted\">Sampled every {} (the interval doubles as a long hunt's series is \
         thinned; {} samples).</p>",
        svg::format_seconds(d.timeline.interval_s),
        s.len()
    );
}

fn matrix(out: &mut String, d: &ReportData) {
    let m = &d.matrix;
    let rows: Vec<String> = m.rows.iter().map(|r| r.stage.clone()).collect();
    let cells: Vec<Vec<Cell>> = m
        .rows
        .iter()
        .map(|r| {
            r.counts
                .iter()
                .zip(&r.kinds)
                .zip(&m.columns)
                .map(|((n, kinds), col)| Cell {
                    count: *n,
                    off: !r.ran,
                    tooltip: if !r.ran {
                        format!("{}: switched off (--disable-passes)", r.stage)
                    } else if kinds.is_empty() {
                        format!("{} × {col}: no finding", r.stage)
                    } else {
                        let k: Vec<String> = kinds
                            .iter()
                            .map(|(k, n)| format!("{k}@{} x{n}", r.stage))
                            .collect();
                        format!("{} × {col}: {}", r.stage, k.join(", "))
                    },
                })
                .collect()
        })
        .collect();
    out.push_str(&svg::count_matrix(
        "plot-matrix",
        "Findings by stage (rows) and generator (columns)",
        &rows,
        &m.columns,
        &cells,
    ));
}

fn reasons(out: &mut String, d: &ReportData) {
    let t = &d.totals;
    let mut all: Vec<(String, u64, &'static str)> = Vec::new();
    all.extend(
        t.discard_reasons
            .iter()
            .map(|(k, v)| (k.clone(), *v, PALETTE[4])),
    );
    all.extend(
        t.generator_bug_reasons
            .iter()
            .map(|(k, v)| (format!("generator bug: {k}"), *v, PALETTE[3])),
    );
    for (stage, tally) in &t.native {
        all.extend(
            tally
                .discarded
                .iter()
                .map(|(k, v)| (format!("{stage}: {k}"), *v, PALETTE[5])),
        );
    }
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut bars: Vec<Bar> = all
        .iter()
        .take(MAX_REASONS)
        .map(|(label, n, color)| Bar {
            label: label.clone(),
            value: *n as f64,
            text: n.to_string(),
            color,
        })
        .collect();
    if all.len() > MAX_REASONS {
        let rest: u64 = all[MAX_REASONS..].iter().map(|r| r.1).sum();
        bars.push(Bar {
            label: format!("{} other reasons", all.len() - MAX_REASONS),
            value: rest as f64,
            text: rest.to_string(),
            color: PALETTE[6],
        });
    }
    out.push_str(&svg::bar_chart(
        "plot-discards",
        "Discarded programs, dropped vectors and generator bugs, by reason",
        &bars,
    ));
}

fn phases(out: &mut String, d: &ReportData) {
    let total = d.phase_seconds.total().as_secs_f64().max(1e-9);
    let bars: Vec<Bar> = Phase::ALL
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let s = d.phase_seconds.get(*p).as_secs_f64();
            Bar {
                label: p.name().to_string(),
                value: s,
                text: format!("{s:.1} s ({:.0}%)", s / total * 100.0),
                color: PALETTE[i % PALETTE.len()],
            }
        })
        .collect();
    out.push_str(&svg::bar_chart(
        "plot-phases",
        "Time per phase (seconds summed over workers)",
        &bars,
    ));
}

fn findings(out: &mut String, d: &ReportData) {
    let _ = writeln!(
        out,
        "<h2>Findings: <span id=\"unique-findings\">{}</span> signatures, \
         <span id=\"total-findings\">{}</span> findings</h2>",
        d.unique_findings, d.totals.findings
    );
    if d.findings.is_empty() && d.totals.front_end_panics.is_empty() {
        out.push_str("<p>None.</p>\n");
    }
    for (i, (s, detail)) in d.findings.iter().zip(&d.finding_details).enumerate() {
        let _ = writeln!(
            out,
            "<section class=\"finding\" id=\"finding-{}\"><h3><code class=\"signature\">{}</code> \
             × {}</h3>",
            i + 1,
            escape(&s.signature.to_string()),
            s.count
        );
        let stages: Vec<String> = s
            .stages_seen
            .iter()
            .map(|(st, n)| format!("<code>{}</code> x{n}", escape(st)))
            .collect();
        out.push_str("<table class=\"key\">");
        row(out, &["stages seen".into(), stages.join(", ")]);
        row(
            out,
            &[
                "first".into(),
                format!(
                    "generator <code>{}</code>, seed <code>{}</code>, in <code>{}</code>",
                    escape(&s.first_generator),
                    s.first_seed.map_or("-".into(), |x| x.to_string()),
                    escape(&s.first)
                ),
            ],
        );
        if let (Some(a), Some(b)) = (s.size_before, s.size_after) {
            row(out, &["reduced".into(), format!("size {a} → {b}")]);
        }
        if let Some(c) = &s.corpus_copy {
            row(
                out,
                &["corpus copy".into(), format!("<code>{}</code>", escape(c))],
            );
        }
        out.push_str("</table>\n<p>Reproduce:</p>\n");
        for cmd in &detail.reproduce {
            let _ = writeln!(out, "<pre class=\"cmd\">\n{}</pre>", escape(cmd));
        }
        super::report_shards::html_copies(d, i, out);
        if let Some(file) = &detail.source_file {
            let (text, cut) = source_text(file);
            let _ = writeln!(
                out,
                "<details open><summary><code>{}</code>{}</summary><pre class=\"source\">\n{}</pre></details>",
                escape(file),
                if cut { " (cut: open the file for the rest)" } else { "" },
                escape(&text)
            );
        }
        out.push_str("</section>\n");
    }
    if !d.totals.front_end_panics.is_empty() {
        out.push_str("<h3>Front-end panics on generated C (findings without a signature)</h3><ul>");
        for dir in &d.totals.front_end_panics {
            let _ = write!(out, "<li><code>{}</code></li>", escape(dir));
        }
        out.push_str("</ul>\n");
    }
}

fn tables(out: &mut String, d: &ReportData) {
    out.push_str("<h2>Programs by generator</h2>\n<table>");
    head(
        out,
        &[
            "generator",
            "programs",
            "agreed",
            "discarded",
            "findings",
            "generator bugs",
            "valid",
            "vectors run",
            "vectors dropped",
        ],
    );
    let gens = d
        .per_generator
        .iter()
        .map(|(g, t)| (escape(g), t))
        .chain(std::iter::once(("<b>all</b>".to_string(), &d.totals)));
    for (g, t) in gens {
        row(
            out,
            &[
                g,
                t.programs.to_string(),
                t.agreed.to_string(),
                t.discarded.to_string(),
                t.findings.to_string(),
                t.generator_bugs.to_string(),
                format!("{:.1}%", t.valid_ratio() * 100.0),
                t.vectors_valid.to_string(),
                t.vectors_dropped.to_string(),
            ],
        );
    }
    out.push_str("</table>\n");
    if !d.totals.native.is_empty() {
        let _ = writeln!(
            out,
            "<h2>Native stages</h2>\n<p>For one program in {} ({} agreeing programs ran them).</p><table>",
            d.native_every, d.totals.native_programs
        );
        head(
            out,
            &[
                "stage",
                "programs",
                "vectors run",
                "vectors dropped",
                "discarded",
                "phicc ms/program",
                "build ms/program",
                "run ms/program",
            ],
        );
        for (stage, t) in &d.totals.native {
            let per = |us: u64| format!("{:.1}", us as f64 / 1e3 / t.programs.max(1) as f64);
            let discarded: u64 = t.discarded.values().sum();
            row(
                out,
                &[
                    escape(stage),
                    t.programs.to_string(),
                    t.vectors_run.to_string(),
                    t.vectors_dropped.to_string(),
                    discarded.to_string(),
                    per(t.phicc_us),
                    per(t.build_us),
                    per(t.run_us),
                ],
            );
        }
        out.push_str("</table>\n");
    }
    if !d.totals.pass_changes.is_empty() {
        out.push_str(
            "<details><summary>Changes made by each pass (agreeing programs)</summary><table>",
        );
        head(out, &["pass", "changes", "programs changed"]);
        for (pass, n) in &d.totals.pass_changes {
            let programs = d.totals.pass_programs.get(pass).copied().unwrap_or(0);
            row(out, &[escape(pass), n.to_string(), programs.to_string()]);
        }
        out.push_str("</table></details>\n");
    }
    if !d.totals.features.is_empty() {
        out.push_str("<details><summary>Generator coverage (feature counts)</summary><table>");
        head(out, &["feature", "count"]);
        for (f, n) in &d.totals.features {
            if !crate::census::is_census_feature(f) {
                row(out, &[escape(f), n.to_string()]);
            }
        }
        out.push_str("</table></details>\n");
    }
}

/// The whole page.
pub fn render(d: &ReportData) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = match (&d.merged, d.shard) {
        (Some(_), _) => "phihunt merged hunt report".to_string(),
        (None, Some(s)) => format!("phihunt hunt report, shard {s}"),
        (None, None) => "phihunt hunt report".to_string(),
    };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>{title}</title><style>{STYLE}</style></head><body>\n\
         <h1>{title}</h1>\n"
    );
    out.push_str("<table class=\"key\">");
    let t = &d.totals;
    let settings = [
        ("generators", escape(&d.generators.join(", "))),
        (
            "base seed",
            format!(
                "<code>{}</code> (program i uses seed spread(base) + i, campaign/seeds.rs)",
                d.base_seed
            ),
        ),
        (
            "duration",
            format!(
                "{:.1} s of {:.1} s{}",
                d.duration_s,
                d.budget_s,
                if d.interrupted { " (interrupted)" } else { "" }
            ),
        ),
        ("jobs", d.jobs.to_string()),
        ("rate", format!("{:.1} programs/s", d.programs_per_s)),
        (
            "seeded bugs",
            if d.mutants.is_empty() {
                "none (the correct compiler)".into()
            } else {
                escape(&d.mutants.join(", "))
            },
        ),
        (
            "native stages",
            if d.native_stages.is_empty() {
                "none".into()
            } else {
                format!(
                    "{} for one program in {}",
                    escape(&d.native_stages.join(", ")),
                    d.native_every
                )
            },
        ),
        (
            "programs",
            format!(
                "<span id=\"programs\">{}</span>: {} agreed, {} discarded, {} generator bugs, \
                 {} findings; {:.1}% valid",
                t.programs,
                t.agreed,
                t.discarded,
                t.generator_bugs,
                t.findings,
                t.valid_ratio() * 100.0
            ),
        ),
        (
            "first finding",
            d.first_finding.map_or("-".into(), |(s, n)| {
                format!("after {} ({n} programs)", svg::format_seconds(s))
            }),
        ),
    ];
    for (k, v) in settings {
        row(&mut out, &[k.to_string(), v]);
    }
    if !d.disabled_passes.is_empty() {
        row(
            &mut out,
            &[
                "disabled passes".into(),
                escape(&d.disabled_passes.join(", ")),
            ],
        );
    }
    out.push_str("</table>\n");
    super::report_shards::html(d, &mut out);
    out.push_str("<h2>Over time</h2>\n");
    plots(&mut out, d);
    out.push_str("<h2>Where the findings are</h2>\n");
    matrix(&mut out, d);
    findings(&mut out, d);
    out.push_str("<h2>Discards by reason</h2>\n");
    reasons(&mut out, d);
    out.push_str("<h2>Time per phase</h2>\n");
    phases(&mut out, d);
    super::report_census::html(d, &mut out);
    tables(&mut out, d);
    out.push_str(
        "<p class=\"muted\">Also in this directory: <code>report.md</code>, \
         <code>summary.json</code> (the same numbers), <code>findings.jsonl</code> \
         (one line per finding as it was saved).</p>\n</body></html>\n",
    );
    out
}
