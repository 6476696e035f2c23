//! The hunt's reports: `report.md` and `report.html` for people, `summary.json` for
//! scripts (with `findings.jsonl`, written as findings are saved, by [`super::journal`]).
//!
//! Invariants: all three are written atomically at the end of every hunt, interrupted or
//! not, and say how the numbers were obtained (command-line settings, seed, duration);
//! all three are rendered from one [`ReportData`] (`summary.json` is it serialized), so
//! they never disagree.

use super::phases::Phase;
use super::report_data::ReportData;
use super::source::ProgramSource;
use super::stats::Totals;
use super::{HuntConfig, HuntResult};
use crate::findings::write_atomically;
use std::collections::BTreeMap;
use std::fmt::Write;

fn totals_table(out: &mut String, name: &str, t: &Totals) {
    let _ = writeln!(
        out,
        "| {name} | {} | {} | {} | {} | {} | {:.1}% | {} | {} |",
        t.programs,
        t.agreed,
        t.discarded,
        t.findings,
        t.generator_bugs,
        t.valid_ratio() * 100.0,
        t.vectors_valid,
        t.vectors_dropped
    );
}

/// Writes `report.md`, `report.html` and `summary.json` into the hunt's out dir.
pub fn write_reports(
    cfg: &HuntConfig,
    sources: &[&dyn ProgramSource],
    r: &HuntResult,
) -> std::io::Result<()> {
    let data = ReportData::new(cfg, sources, r);
    write_atomically(&cfg.out_dir.join("report.md"), markdown(&data).as_bytes())?;
    write_atomically(
        &cfg.out_dir.join("report.html"),
        super::report_html::render(&data).as_bytes(),
    )?;
    let bytes = serde_json::to_vec_pretty(&data).map_err(std::io::Error::other)?;
    write_atomically(&cfg.out_dir.join("summary.json"), &bytes)
}

/// `report.md`.
pub fn markdown(d: &ReportData) -> String {
    let r = d;
    let mut md = String::new();
    match (&d.merged, d.shard) {
        (Some(_), _) => md.push_str("# phihunt merged hunt report\n\n"),
        (None, Some(s)) => {
            let _ = writeln!(md, "# phihunt hunt report, shard {s}\n");
        }
        (None, None) => md.push_str("# phihunt hunt report\n\n"),
    }
    let _ = writeln!(md, "- generators: {}", d.generators.join(", "));
    let _ = writeln!(
        md,
        "- base seed: {} (program i uses seed spread(base) + i, campaign/seeds.rs)",
        d.base_seed
    );
    let _ = writeln!(
        md,
        "- duration: {:.1} s of {:.1} s{}",
        d.duration_s,
        d.budget_s,
        if d.interrupted {
            " (interrupted by Ctrl-C)"
        } else {
            ""
        }
    );
    let _ = writeln!(md, "- jobs: {}", d.jobs);
    let _ = writeln!(md, "- rate: {:.0} programs/s", d.programs_per_s);
    let _ = writeln!(
        md,
        "- seeded bugs: {}",
        if d.mutants.is_empty() {
            "none (the correct compiler)".to_string()
        } else {
            d.mutants.join(", ")
        }
    );
    super::report_shards::markdown(d, &mut md);
    let _ = writeln!(md, "\n## Programs\n");
    let _ = writeln!(md, "| generator | programs | agreed | discarded | findings | generator bugs | valid | vectors run | vectors dropped |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    for (name, t) in &r.per_generator {
        totals_table(&mut md, name, t);
    }
    totals_table(&mut md, "**all**", &r.totals);
    if r.totals.generator_bugs > 0 {
        let _ = writeln!(
            md,
            "\n## Generator bugs (saved under `generator-bugs/`; not compiler findings)\n"
        );
        let _ = writeln!(md, "| reason | count |\n|---|---|");
        for (reason, n) in &r.totals.generator_bug_reasons {
            let _ = writeln!(md, "| {reason} | {n} |");
        }
    }
    if !r.totals.front_end_panics.is_empty() {
        let _ = writeln!(md, "\n## Front-end panics on generated C (findings)\n");
        for dir in &r.totals.front_end_panics {
            let _ = writeln!(md, "- {dir}");
        }
    }
    if !r.totals.discard_reasons.is_empty() {
        let _ = writeln!(
            md,
            "\n## Discarded programs and dropped vectors, by reason\n"
        );
        let _ = writeln!(md, "| reason | count |\n|---|---|");
        for (reason, n) in &r.totals.discard_reasons {
            let _ = writeln!(md, "| {reason} | {n} |");
        }
    }
    let stages = &d.native_stages;
    let _ = writeln!(md, "\n## Native stages\n");
    if stages.is_empty() {
        let _ = writeln!(md, "None (`--targets none`, or no target usable here).");
    } else {
        let _ = writeln!(
            md,
            "{} for one program in {} ({} agreeing programs ran them).\n",
            stages.join(", "),
            d.native_every,
            r.totals.native_programs
        );
        let _ = writeln!(md, "| stage | programs | vectors run | vectors dropped | discarded (reason: count) | phicc ms/program | build ms/program | run ms/program |");
        let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
        for (stage, t) in &r.totals.native {
            let per = |us: u64| us as f64 / 1e3 / t.programs.max(1) as f64;
            let discarded: Vec<String> = t
                .discarded
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect();
            let _ = writeln!(
                md,
                "| {stage} | {} | {} | {} | {} | {:.2} | {:.1} | {:.1} |",
                t.programs,
                t.vectors_run,
                t.vectors_dropped,
                if discarded.is_empty() {
                    "-".to_string()
                } else {
                    discarded.join(", ")
                },
                per(t.phicc_us),
                per(t.build_us),
                per(t.run_us)
            );
        }
    }
    let _ = writeln!(md, "\n## Findings\n");
    if r.findings.is_empty() {
        let _ = writeln!(md, "None.");
    } else {
        let _ = writeln!(
            md,
            "One row per bug: a signature names the pass, the stages column says where \
             (slot and iteration) its findings broke.\n"
        );
        let _ = writeln!(md, "| signature | count | stages seen | first (generator, seed) | reduced size | reduced case | corpus copy |");
        let _ = writeln!(md, "|---|---|---|---|---|---|---|");
        for s in &r.findings {
            let size = match (s.size_before, s.size_after) {
                (Some(a), Some(b)) => format!("{a} -> {b}"),
                _ => "-".into(),
            };
            let stages = s
                .stages_seen
                .iter()
                .map(|(stage, n)| format!("`{stage}` x{n}"))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(
                md,
                "| `{}` | {} | {} | {} seed {} | {} | {} | {} |",
                s.signature,
                s.count,
                stages,
                s.first_generator,
                s.first_seed.map_or("-".into(), |x| x.to_string()),
                size,
                s.reduced.as_deref().unwrap_or("-"),
                s.corpus_copy.as_deref().unwrap_or("-")
            );
        }
    }
    // One pass, several kinds: say so, so nobody counts two bugs before comparing the
    // reduced cases.
    let mut kinds_by_place: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in &r.findings {
        kinds_by_place
            .entry(s.signature.stage.clone())
            .or_default()
            .push(format!("`{}` x{}", s.signature, s.count));
    }
    let shared: Vec<_> = kinds_by_place.iter().filter(|(_, k)| k.len() > 1).collect();
    if !shared.is_empty() {
        let _ = writeln!(md, "\n### Places with more than one kind of finding\n");
        for (place, kinds) in shared {
            let _ = writeln!(
                md,
                "- `{place}`: {}. One wrong decision in a pass often leaves malformed IR \
                 on some programs (verify) and well-formed but wrong IR on others \
                 (mismatch): compare the reduced cases before counting two bugs.",
                kinds.join(", ")
            );
        }
    }
    if !r.totals.pass_changes.is_empty() {
        let _ = writeln!(
            md,
            "\n## Stages: changes made during the campaign (agreeing programs)\n"
        );
        let _ = writeln!(md, "| pass | changes | programs changed |\n|---|---|---|");
        for (pass, n) in &r.totals.pass_changes {
            let programs = r.totals.pass_programs.get(pass).copied().unwrap_or(0);
            let _ = writeln!(md, "| {pass} | {n} | {programs} |");
        }
    }
    if !r.totals.features.is_empty() {
        let _ = writeln!(
            md,
            "\n## Generator coverage (feature counts over all programs)\n"
        );
        let _ = writeln!(md, "| feature | count |\n|---|---|");
        for (f, n) in &r.totals.features {
            if !crate::census::is_census_feature(f) {
                let _ = writeln!(md, "| {f} | {n} |");
            }
        }
    }
    super::report_census::markdown(d, &mut md);
    if !r.findings.is_empty() {
        let _ = writeln!(md, "\n### How to reproduce\n");
        for f in &r.finding_details {
            let _ = writeln!(md, "`{}`:\n\n```sh", f.signature);
            for cmd in &f.reproduce {
                let _ = writeln!(md, "{cmd}");
            }
            let _ = writeln!(md, "```\n");
        }
    }
    let _ = writeln!(md, "\n## Time per phase (seconds summed over workers)\n");
    let _ = writeln!(md, "| phase | seconds | share |\n|---|---|---|");
    let total = d.phase_seconds.total().as_secs_f64().max(1e-9);
    for p in Phase::ALL {
        let s = d.phase_seconds.get(p).as_secs_f64();
        let _ = writeln!(md, "| {} | {s:.1} | {:.0}% |", p.name(), s / total * 100.0);
    }
    let _ = writeln!(
        md,
        "\n## Findings by stage and generator\n\nEvery finding counted (not one per \
         signature); stages without findings are left out (`report.html` shows them all).\n"
    );
    let _ = writeln!(md, "| stage | {} |", d.matrix.columns.join(" | "));
    let _ = writeln!(md, "|---|{}", "---|".repeat(d.matrix.columns.len()));
    for row in d
        .matrix
        .rows
        .iter()
        .filter(|r| r.counts.iter().any(|n| *n > 0))
    {
        let cells: Vec<String> = row.counts.iter().map(|n| n.to_string()).collect();
        let _ = writeln!(md, "| {} | {} |", row.stage, cells.join(" | "));
    }
    md
}
