//! The census tables of `report.md` and `report.html` (see `crate::census`).
//!
//! Why: the value census and the situation census are what tell a reader whether the
//! hunt tested what it claims — boundary values at divisions and shifts, each pass's hard
//! cases — so both reports show them, rendered here from the same [`ReportData`] rows.
//!
//! Invariants: every row of the census is shown, zero rows included (a zero is the
//! point: it names what the generators never reached), and both renderings show the same
//! rows in the same order; a hunt without census (`--no-census`) says so in one line.

use super::report_data::ReportData;
use super::svg::escape;
use crate::census::values::CLASSES;
use std::fmt::Write;

const VALUE_NOTE: &str = "Per integer operation and width: how many times it ran in the \
    oracle's reference runs, and per class how often its left / right operand was of that \
    class (the first class that fits: `2^k` excludes 1, `top of narrower` is 0x80, 0x8000, \
    0x8000_0000, sign- or zero-extended, and their neighbours). `eq` counts eq/ne, `scmp` \
    the signed orders, `ucmp` the unsigned ones.";

const SITUATION_NOTE: &str = "Per pass, the situations its module doc discusses: \
    programs whose input to the pass presented the situation (in some function), and \
    programs where the pass changed such a function.";

/// The census sections of `report.md`.
pub fn markdown(d: &ReportData, md: &mut String) {
    let _ = writeln!(md, "\n## Value census\n");
    if d.value_census.is_empty() {
        let _ = writeln!(md, "Not taken (`--no-census`).");
        return;
    }
    let _ = writeln!(md, "{VALUE_NOTE}\n");
    let zero = d.value_census.iter().filter(|r| r.executions == 0).count();
    let _ = writeln!(
        md,
        "{} rows, {} with no execution.\n",
        d.value_census.len(),
        zero
    );
    let _ = writeln!(md, "| op | width | runs | {} |", CLASSES.join(" | "));
    let _ = writeln!(md, "|---|---|---|{}", "---|".repeat(CLASSES.len()));
    for r in &d.value_census {
        let cells: Vec<String> = r
            .per_class
            .iter()
            .map(|(a, b)| format!("{a}/{b}"))
            .collect();
        let _ = writeln!(
            md,
            "| {} | i{} | {} | {} |",
            r.op,
            r.width,
            r.executions,
            cells.join(" | ")
        );
    }
    let _ = writeln!(md, "\n## Situation census\n\n{SITUATION_NOTE}\n");
    let zero = d
        .situation_census
        .iter()
        .filter(|r| r.presented == 0)
        .count();
    let _ = writeln!(
        md,
        "{} rows, {} never presented.\n",
        d.situation_census.len(),
        zero
    );
    let _ = writeln!(
        md,
        "| pass | situation | programs presenting | pass changed |"
    );
    let _ = writeln!(md, "|---|---|---|---|");
    for r in &d.situation_census {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} |",
            r.pass, r.situation, r.presented, r.changed
        );
    }
}

/// The census sections of `report.html`.
pub fn html(d: &ReportData, out: &mut String) {
    out.push_str("<h2>Value census</h2>\n");
    if d.value_census.is_empty() {
        out.push_str("<p class=\"muted\">Not taken (<code>--no-census</code>).</p>\n");
        return;
    }
    let _ = writeln!(out, "<p>{}</p>", escape(VALUE_NOTE));
    out.push_str("<table class=\"census values\"><tr><th>op</th><th>width</th><th>runs</th>");
    for c in CLASSES {
        let _ = write!(out, "<th>{}</th>", escape(c));
    }
    out.push_str("</tr>\n");
    for r in &d.value_census {
        let class = if r.executions == 0 {
            " class=\"zero\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr{class}><td>{}</td><td>i{}</td><td>{}</td>",
            escape(&r.op),
            r.width,
            r.executions
        );
        for (a, b) in &r.per_class {
            let _ = write!(out, "<td>{a}/{b}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n<h2>Situation census</h2>\n");
    let _ = writeln!(out, "<p>{}</p>", escape(SITUATION_NOTE));
    out.push_str(
        "<table class=\"census situations\"><tr><th>pass</th><th>situation</th>\
         <th>programs presenting</th><th>pass changed</th></tr>\n",
    );
    for r in &d.situation_census {
        let class = if r.presented == 0 {
            " class=\"zero\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr{class}><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&r.pass),
            escape(&r.situation),
            r.presented,
            r.changed
        );
    }
    out.push_str("</table>\n");
}
