//! The table `phihunt check` prints: one row per stage, one column per `; run:` line (for
//! C input: one column, `main` against gcc).
//!
//! Invariant: column widths fit the widest cell, so the table reads in a terminal and in
//! a CI log alike; failing cells are marked with `✗` so they can be grepped, and cells
//! with no verdict (a native row whose reference is undefined, or timed out) with `–`.

use super::directives::RunDirective;
use super::evaluate::Cell;

/// Renders the table.
pub fn render(stages: &[String], directives: &[RunDirective], cells: &[Vec<Cell>]) -> String {
    let headers: Vec<String> = directives
        .iter()
        .map(|d| format!("L{} {}", d.line, d.label()))
        .collect();
    render_columns(&headers, stages, cells)
}

/// Renders the table with the given column headers (after `stage`).
pub fn render_columns(headers: &[String], stages: &[String], cells: &[Vec<Cell>]) -> String {
    let mut header = vec!["stage".to_string()];
    header.extend(headers.iter().cloned());
    let mut rows = vec![header];
    for (stage, row) in stages.iter().zip(cells) {
        let mut r = vec![stage.clone()];
        r.extend(row.iter().map(|c| {
            if c.ok {
                c.text.clone()
            } else if c.discarded {
                format!("– {}", c.text)
            } else {
                format!("✗ {}", c.text)
            }
        }));
        rows.push(r);
    }
    let cols = rows[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(s, w)| format!("{s}{}", " ".repeat(w - s.chars().count())))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
        if i == 0 {
            let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    out
}
