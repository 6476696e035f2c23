//! Small inline SVG charts, drawn by hand: line plots, horizontal bar charts and a
//! count matrix (a heat map with the numbers written in).
//!
//! Why: the hunt's HTML report must be one self-contained file that opens anywhere —
//! offline, from a CI artifact, years later — so no charting library, no script, no
//! font: plain SVG elements with computed coordinates.
//!
//! Invariants:
//! - every text that reaches the output (labels, titles, tooltips) goes through
//!   [`escape`], so program text, reasons and paths with `<`, `&` or quotes can never
//!   break the document;
//! - every chart is an `<svg class="plot">` with an `id`, explicit `width`/`height` and a
//!   `viewBox`, and draws something even with no data (axes, or a "nothing to show"
//!   line), so a browser always gives it a non-zero size;
//! - coordinates are finite: empty or zero ranges are widened before dividing.

use std::fmt::Write;

/// `s` escaped for XML/HTML text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than tab and newline are not allowed in XML.
            c if c.is_control() && c != '\n' && c != '\t' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Colours that stay distinct for most colour-blind readers (Okabe–Ito).
pub const PALETTE: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#666666", "#222222",
];

/// One line of a line plot.
pub struct Series {
    pub name: String,
    pub color: &'static str,
    /// `(x, y)` in increasing `x`.
    pub points: Vec<(f64, f64)>,
}

/// One bar of a bar chart.
pub struct Bar {
    pub label: String,
    pub value: f64,
    /// The value as printed at the end of the bar.
    pub text: String,
    pub color: &'static str,
}

/// One cell of a count matrix.
pub struct Cell {
    pub count: u64,
    /// Shown on hover.
    pub tooltip: String,
    /// The row's stage did not run: drawn greyed, without a number.
    pub off: bool,
}

/// A step of 1, 2 or 5 times a power of ten giving about `n` steps up to `max`.
pub fn nice_step(max: f64, n: usize) -> f64 {
    let raw = (max / n.max(1) as f64).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    let m = raw / mag;
    let f = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    f * mag
}

/// A step in seconds a person reads on a time axis (1 s ... 4 h) giving about `n` steps.
pub fn time_step(max_s: f64, n: usize) -> f64 {
    const STEPS: [f64; 17] = [
        1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0, 7200.0,
        10800.0, 14400.0, 28800.0,
    ];
    let raw = max_s / n.max(1) as f64;
    STEPS
        .iter()
        .copied()
        .find(|s| *s >= raw)
        .unwrap_or_else(|| (raw / 3600.0).ceil() * 3600.0)
}

/// Seconds as `45s`, `2m`, `1h30m`.
pub fn format_seconds(s: f64) -> String {
    let s = s.round() as u64;
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, sec) => format!("{m}m{sec}s"),
        (h, 0, _) => format!("{h}h"),
        (h, m, _) => format!("{h}h{m}m"),
    }
}

/// A count as `950`, `12.5k`, `3.1M`.
pub fn format_count(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if v >= 1e3 {
        format!("{:.1}k", v / 1e3)
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn open_svg(out: &mut String, id: &str, title: &str, w: f64, h: f64) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"{}\" width=\"{w}\" \
         height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{t}\">\
         <title>{t}</title>\
         <text x=\"8\" y=\"18\" class=\"plot-title\">{t}</text>",
        escape(id),
        t = escape(title)
    );
}

/// A line plot of `series` over a time axis in seconds, starting at zero.
pub fn line_plot(id: &str, title: &str, y_label: &str, series: &[Series]) -> String {
    let (w, h) = (720.0, 280.0);
    let (left, right, top, bottom) = (64.0, 170.0, 32.0, 40.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let points = series.iter().flat_map(|s| s.points.iter());
    let x_max = points.clone().map(|p| p.0).fold(0.0, f64::max).max(1.0);
    let y_max = points.map(|p| p.1).fold(0.0, f64::max).max(1.0);
    let y_step = nice_step(y_max, 5).max(if y_max <= 5.0 { 1.0 } else { 0.0 });
    let y_top = (y_max / y_step).ceil() * y_step;
    let x_step = time_step(x_max, 6);
    let x = |v: f64| left + v / x_max * pw;
    let y = |v: f64| top + ph - v / y_top * ph;
    let mut out = String::new();
    open_svg(&mut out, id, title, w, h);
    // Grid and axes.
    let mut v = 0.0;
    while v <= y_top + 1e-9 {
        let _ = write!(
            out,
            "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" class=\"grid\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
            left + pw,
            left - 6.0,
            y(v) + 4.0,
            format_count(v),
            yy = y(v)
        );
        v += y_step;
    }
    let mut t = 0.0;
    while t <= x_max + 1e-9 {
        let _ = write!(
            out,
            "<line x1=\"{xx:.1}\" x2=\"{xx:.1}\" y1=\"{top}\" y2=\"{:.1}\" class=\"grid\"/>\
             <text x=\"{xx:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
            top + ph,
            top + ph + 16.0,
            format_seconds(t),
            xx = x(t)
        );
        t += x_step;
    }
    let _ = write!(
        out,
        "<line x1=\"{left}\" x2=\"{left}\" y1=\"{top}\" y2=\"{b:.1}\" class=\"axis\"/>\
         <line x1=\"{left}\" x2=\"{:.1}\" y1=\"{b:.1}\" y2=\"{b:.1}\" class=\"axis\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">time into the hunt</text>\
         <text x=\"14\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\" transform=\"rotate(-90 14 {:.1})\">{}</text>",
        left + pw,
        left + pw / 2.0,
        h - 6.0,
        top + ph / 2.0,
        top + ph / 2.0,
        escape(y_label),
        b = top + ph
    );
    for (i, s) in series.iter().enumerate() {
        let pts: Vec<String> = s
            .points
            .iter()
            .map(|(px, py)| format!("{:.1},{:.1}", x(*px), y(*py)))
            .collect();
        let last = s.points.last().map_or(0.0, |p| p.1);
        let _ = write!(
            out,
            "<polyline class=\"series\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" points=\"{}\">\
             <title>{n}</title></polyline>\
             <rect x=\"{lx:.1}\" y=\"{ly:.1}\" width=\"12\" height=\"3\" fill=\"{c}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"legend\">{n} ({})</text>",
            pts.join(" "),
            left + pw + 28.0,
            top + 14.0 + 18.0 * i as f64 + 4.0,
            format_count(last),
            c = s.color,
            n = escape(&s.name),
            lx = left + pw + 12.0,
            ly = top + 14.0 + 18.0 * i as f64
        );
    }
    out.push_str("</svg>");
    out
}

/// A horizontal bar chart, one bar per entry, in the given order.
pub fn bar_chart(id: &str, title: &str, bars: &[Bar]) -> String {
    const CHAR_W: f64 = 6.6;
    let label_chars = bars
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(8, 64);
    let left = 16.0 + label_chars as f64 * CHAR_W;
    let (bar_w, row_h, top) = (360.0, 20.0, 32.0);
    let w = left + bar_w + 90.0;
    let h = top + row_h * bars.len().max(1) as f64 + 12.0;
    let max = bars.iter().map(|b| b.value).fold(0.0, f64::max);
    let mut out = String::new();
    open_svg(&mut out, id, title, w, h);
    let _ = write!(
        out,
        "<line x1=\"{left:.1}\" x2=\"{left:.1}\" y1=\"{top:.1}\" y2=\"{:.1}\" class=\"axis\"/>",
        h - 12.0
    );
    if bars.is_empty() {
        let _ = write!(
            out,
            "<text x=\"16\" y=\"{:.1}\" class=\"tick\">nothing to show</text>",
            top + 14.0
        );
    }
    for (i, b) in bars.iter().enumerate() {
        let yy = top + row_h * i as f64;
        let len = if max > 0.0 {
            b.value / max * bar_w
        } else {
            0.0
        };
        let shown: String = if b.label.chars().count() > label_chars {
            let cut: String = b.label.chars().take(label_chars - 1).collect();
            format!("{cut}…")
        } else {
            b.label.clone()
        };
        let _ = write!(
            out,
            "<g class=\"bar\"><title>{full}: {text}</title>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>\
             <rect x=\"{left:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\">{text}</text></g>",
            left - 6.0,
            yy + 14.0,
            escape(&shown),
            yy + 3.0,
            len.max(1.0),
            row_h - 6.0,
            b.color,
            left + len.max(1.0) + 6.0,
            yy + 14.0,
            full = escape(&b.label),
            text = escape(&b.text)
        );
    }
    out.push_str("</svg>");
    out
}

/// The fill of a matrix cell: light grey for zero, then light orange to dark red on a
/// logarithmic scale up to `max`.
fn heat(count: u64, max: u64) -> String {
    if count == 0 {
        return "#f3f3f3".into();
    }
    let f = heat_fraction(count, max);
    let lerp = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        lerp(253.0, 179.0),
        lerp(212.0, 0.0),
        lerp(158.0, 0.0)
    )
}

/// Where `count` sits between 1 and `max` on a logarithmic scale (0 to 1).
fn heat_fraction(count: u64, max: u64) -> f64 {
    if max <= 1 || count <= 1 {
        return if count >= max { 1.0 } else { 0.0 };
    }
    (count as f64).ln() / (max as f64).ln()
}

/// A matrix of counts: `rows` × `columns`, each cell coloured by its count and labelled
/// with it.
pub fn count_matrix(
    id: &str,
    title: &str,
    rows: &[String],
    columns: &[String],
    cells: &[Vec<Cell>],
) -> String {
    const CHAR_W: f64 = 6.6;
    let label_w = 16.0 + rows.iter().map(|r| r.chars().count()).max().unwrap_or(4) as f64 * CHAR_W;
    let col_w = columns
        .iter()
        .map(|c| c.chars().count() as f64 * CHAR_W + 16.0)
        .fold(56.0, f64::max);
    let (row_h, top) = (20.0, 52.0);
    let w = label_w + col_w * columns.len() as f64 + 12.0;
    let h = top + row_h * rows.len().max(1) as f64 + 12.0;
    let max = cells
        .iter()
        .flatten()
        .filter(|c| !c.off)
        .map(|c| c.count)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    open_svg(&mut out, id, title, w, h);
    for (j, c) in columns.iter().enumerate() {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"colhead\" text-anchor=\"middle\">{}</text>",
            label_w + col_w * (j as f64 + 0.5),
            top - 8.0,
            escape(c)
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let yy = top + row_h * i as f64;
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
            label_w - 8.0,
            yy + 14.0,
            escape(r)
        );
        for (j, cell) in cells
            .get(i)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            let xx = label_w + col_w * j as f64;
            let (fill, text) = if cell.off {
                ("#dddddd".to_string(), "off".to_string())
            } else {
                (heat(cell.count, max), cell.count.to_string())
            };
            // White numbers on the darker half of the scale.
            let dark = !cell.off && cell.count > 0 && heat_fraction(cell.count, max) > 0.45;
            let _ = write!(
                out,
                "<g class=\"cell\"><title>{}</title>\
                 <rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\" stroke=\"#fff\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" class=\"{}\" text-anchor=\"middle\">{text}</text></g>",
                escape(&cell.tooltip),
                xx,
                yy,
                col_w,
                row_h,
                xx + col_w / 2.0,
                yy + 14.0,
                if dark { "num light" } else { "num" }
            );
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        assert_eq!(
            escape("a<b && c>\"d\" 'e'"),
            "a&lt;b &amp;&amp; c&gt;&quot;d&quot; &#39;e&#39;"
        );
        assert_eq!(escape("x\u{1}y\n"), "x\\u{1}y\n");
    }

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(nice_step(100.0, 5), 20.0);
        assert_eq!(nice_step(7.0, 5), 2.0);
        assert!(nice_step(0.0, 5) > 0.0);
        assert_eq!(time_step(600.0, 6), 120.0);
        assert_eq!(time_step(8.0 * 3600.0, 6), 7200.0);
        assert_eq!(format_seconds(90.0), "1m30s");
        assert_eq!(format_seconds(7200.0), "2h");
        assert_eq!(format_seconds(5400.0), "1h30m");
        assert_eq!(format_count(12_400.0), "12k");
        assert_eq!(format_count(1_500.0), "1.5k");
    }

    #[test]
    fn empty_charts_still_draw() {
        let s = line_plot("p", "t", "y", &[]);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>") && s.contains("width=\"720\""));
        assert!(bar_chart("b", "t", &[]).contains("nothing to show"));
        assert!(!s.contains("NaN") && !s.contains("inf"));
    }
}
