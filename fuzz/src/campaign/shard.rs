//! Sharded hunts: `phihunt hunt --shard I/N` runs every N-th program of the seed space.
//!
//! Why: a team that hunts every night outgrows one machine, and already has a scheduler
//! (a Kubernetes Indexed Job, a Slurm job array, GNU parallel over ssh). Each of those
//! starts the same command N times with an index; a shard turns that index into its share
//! of one hunt, so N machines together run exactly the programs one machine would have,
//! and `phihunt merge` (`super::merge`) joins their folders into one report.
//!
//! The split: the hunt's programs (program `g`: source `g % S`, seed `seeds::program_seed(base, g)`) are cut
//! into blocks of `B` consecutive programs, and shard `I` of `N` takes every N-th block,
//! blocks `I, I+N, I+2N, ...`. `B = S × E` for `S` sources and native stages every `E`-th
//! program of each source (`--native-every`, counted even when no target is usable: the
//! split must not depend on a machine's toolchains): one block is one native period, so
//! every block holds the same mix — one program of each source per `S`, the
//! same native runs — and shards are balanced whatever N is. (Taking every N-th
//! *program* is not: with `N = S` each shard would hunt one generator only, and the
//! native runs, `S` consecutive programs every `S × E`, would pile up on a few shards —
//! measured: of two shards over `cfg,phi,c`, one ran two thirds of the native stages and
//! 25% fewer programs.) Inside a shard the engine counts its own programs `0, 1, 2, ...`
//! (*local* indexes: what its state file's completed set, its counts and its progress
//! line are about); local index `k` is global index `(⌊k/B⌋·N + I)·B + k mod B`.
//!
//! Invariants:
//! - [`Shard::global`] and [`Shard::local`] are inverse bijections between the naturals
//!   and the programs of the shard's blocks: the N shards of one hunt partition the
//!   global indexes, without overlap or gap (checked exhaustively on small N and B in the
//!   tests), so with `--max-programs M` they run exactly the unsharded hunt's `0..M`;
//! - the whole hunt is the shard `0/1`, whose global and local indexes coincide, so an
//!   unsharded hunt is unchanged by this module;
//! - `--shard auto/N` reads its index from `JOB_COMPLETION_INDEX` (Kubernetes Indexed
//!   Job, always 0-based) or `SLURM_ARRAY_TASK_ID` (Slurm, whose array ids start where
//!   `--array` says), minus `--shard-base B` (default 0); an index outside `0..N`, two
//!   variables that disagree, or a Slurm array whose first id or task count contradicts
//!   the base or N is an error, never a silently skipped or doubled shard.

use serde::{Deserialize, Serialize};

/// The environment variable of a Kubernetes Indexed Job's pod index (0-based).
pub const K8S_INDEX: &str = "JOB_COMPLETION_INDEX";
/// The environment variable of a Slurm job array's task id (starts at `--array`'s first).
pub const SLURM_INDEX: &str = "SLURM_ARRAY_TASK_ID";
/// Slurm's first array id and number of tasks, checked against `--shard-base` and N.
pub const SLURM_MIN: &str = "SLURM_ARRAY_TASK_MIN";
pub const SLURM_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";

/// One shard of a hunt: index `index` of `count`, in blocks of `block` programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
    /// Consecutive programs per block (see the module doc).
    pub block: u64,
}

/// The block size of a hunt over `sources` sources whose native stages run for one
/// program in `native_every` of each: one native period.
pub fn block_size(sources: usize, native_every: u64) -> u64 {
    (sources.max(1) as u64).saturating_mul(native_every.max(1))
}

impl Shard {
    /// The whole hunt (no sharding).
    pub const WHOLE: Shard = Shard {
        index: 0,
        count: 1,
        block: 1,
    };

    /// The same shard in blocks of `block` (at least 1) programs.
    pub fn with_block(self, block: u64) -> Shard {
        Shard {
            block: block.max(1),
            ..self
        }
    }

    /// Shard `index` of `count` (blocks of one program until [`Shard::with_block`]), checked.
    pub fn new(index: u64, count: u64) -> Result<Shard, String> {
        if count == 0 {
            return Err("the shard count must be at least 1".into());
        }
        if index >= count {
            return Err(format!(
                "shard index {index} out of range: shards of {count} are numbered 0 to {}",
                count - 1
            ));
        }
        Ok(Shard {
            index,
            count,
            block: 1,
        })
    }

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The global program index of this shard's local index `local`.
    pub fn global(&self, local: u64) -> u64 {
        let b = self.block.max(1);
        ((local / b) * self.count + self.index) * b + local % b
    }

    /// The local index of global index `global`, when it is this shard's.
    pub fn local(&self, global: u64) -> Option<u64> {
        let b = self.block.max(1);
        let block = global / b;
        (block % self.count == self.index).then(|| (block / self.count) * b + global % b)
    }

    /// The shard's own folder below the hunt's `--out`: `shard-I-of-N`, `I` zero-padded to
    /// N's digits so that a directory listing sorts the shards in order.
    pub fn folder_name(&self) -> String {
        let width = (self.count - 1).max(1).to_string().len();
        format!("shard-{:0width$}-of-{}", self.index, self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Parses a decimal number in `what`, naming it in the error.
fn number(text: &str, what: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("{what}: `{text}` is not a non-negative integer"))
}

/// The index `auto` stands for: the scheduler's variable minus `base`, checked.
fn index_from_env(
    count: u64,
    base: u64,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<u64, String> {
    let k8s = env(K8S_INDEX);
    let slurm = env(SLURM_INDEX);
    let (name, raw) = match (&k8s, &slurm) {
        (Some(k), Some(s)) if k.trim() != s.trim() => {
            return Err(format!(
                "--shard auto: both {K8S_INDEX}={k} and {SLURM_INDEX}={s} are set and disagree"
            ))
        }
        (Some(k), _) => (K8S_INDEX, k.clone()),
        (None, Some(s)) => {
            // A Slurm array that does not start at the base, or has another task count,
            // would leave a shard out or run one twice: refuse before hunting.
            if let Some(min) = env(SLURM_MIN) {
                let min = number(&min, SLURM_MIN)?;
                if min != base {
                    return Err(format!(
                        "--shard auto: the Slurm array starts at {min} ({SLURM_MIN}) but \
                         --shard-base is {base}: pass --shard-base {min}, or submit \
                         --array={base}-{}",
                        base + count - 1
                    ));
                }
            }
            if let Some(n) = env(SLURM_COUNT) {
                let n = number(&n, SLURM_COUNT)?;
                if n != count {
                    return Err(format!(
                        "--shard auto/{count}: the Slurm array has {n} tasks ({SLURM_COUNT})"
                    ));
                }
            }
            (SLURM_INDEX, s.clone())
        }
        (None, None) => {
            return Err(format!(
                "--shard auto/{count}: neither {K8S_INDEX} (Kubernetes Indexed Job) nor \
                 {SLURM_INDEX} (Slurm job array) is set; give the index: --shard I/{count}"
            ))
        }
    };
    let value = number(&raw, name)?;
    let index = value
        .checked_sub(base)
        .ok_or_else(|| format!("--shard auto: {name}={value} is below --shard-base {base}"))?;
    if index >= count {
        return Err(format!(
            "--shard auto/{count}: {name}={value} minus --shard-base {base} is {index}, \
             outside 0..{count}"
        ));
    }
    Ok(index)
}

/// Parses `--shard I/N` or `--shard auto/N` (the index from the scheduler's variable, as
/// `env` returns it, minus `base`).
pub fn parse(spec: &str, base: u64, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, String> {
    let (index, count) = spec
        .split_once('/')
        .ok_or_else(|| format!("--shard `{spec}`: expected I/N or auto/N, e.g. 3/8"))?;
    let count = number(count, "--shard N")?;
    if count == 0 {
        return Err("--shard: N must be at least 1".into());
    }
    let index = if index.trim() == "auto" {
        index_from_env(count, base, env)?
    } else {
        number(index, "--shard I")?
    };
    Shard::new(index, count).map_err(|e| format!("--shard {spec}: {e}"))
}

/// [`parse`] with the process's environment.
pub fn parse_from_process(spec: &str, base: u64) -> Result<Shard, String> {
    parse(spec, base, &|name| std::env::var(name).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn the_shards_partition_the_global_indexes_without_overlap_or_gap() {
        for (n, b) in (1..=7u64).flat_map(|n| [1, 2, 3, 6, 192].map(|b| (n, b))) {
            let limit = 5 * n * b + 3;
            let mut owner = vec![None; limit as usize];
            for i in 0..n {
                let shard = Shard::new(i, n).unwrap().with_block(b);
                let mut k = 0;
                while shard.global(k) < limit {
                    let g = shard.global(k);
                    assert_eq!(owner[g as usize], None, "{g} in two shards");
                    owner[g as usize] = Some(i);
                    assert_eq!(shard.local(g), Some(k));
                    k += 1;
                }
                for g in 0..limit {
                    assert_eq!(shard.local(g).is_some(), (g / b) % n == i);
                }
            }
            assert!(
                owner.iter().all(Option::is_some),
                "a gap: {n} shards of {b}"
            );
        }
        // By hand: 3 shards in blocks of 2: shard 1 has 2, 3, 8, 9, 14, ...
        let s = Shard::new(1, 3).unwrap().with_block(2);
        let got: Vec<u64> = (0..5).map(|k| s.global(k)).collect();
        assert_eq!(got, [2, 3, 8, 9, 14]);
        assert_eq!(Shard::WHOLE.global(17), 17);
        assert_eq!(Shard::WHOLE.local(17), Some(17));
    }

    #[test]
    fn every_block_has_the_same_mix_of_sources_and_native_runs() {
        // 3 sources, native stages for one program in 4 of each: `run_one`'s rule.
        let (sources, every) = (3u64, 4u64);
        let native = |g: u64| (g / sources).is_multiple_of(every);
        for n in [2u64, 3, 4] {
            let shards: Vec<Shard> = (0..n)
                .map(|i| Shard::new(i, n).unwrap().with_block(block_size(3, every)))
                .collect();
            let mix: Vec<(Vec<u64>, u64)> = shards
                .iter()
                .map(|s| {
                    let globals: Vec<u64> = (0..120).map(|k| s.global(k)).collect();
                    let mut per_source = vec![0; sources as usize];
                    for g in &globals {
                        per_source[(g % sources) as usize] += 1;
                    }
                    (
                        per_source,
                        globals.iter().filter(|g| native(**g)).count() as u64,
                    )
                })
                .collect();
            // 120 programs: 40 of each source, 120 / 12 * 3 = 30 native runs, each shard.
            assert!(
                mix.iter().all(|m| *m == (vec![40, 40, 40], 30)),
                "{n}: {mix:?}"
            );
        }
        assert_eq!(block_size(3, 64), 192);
        assert_eq!(block_size(0, 0), 1);
    }

    #[test]
    fn explicit_shards_parse_and_out_of_range_ones_are_errors() {
        let none = env(&[]);
        assert_eq!(parse("3/8", 0, &none), Shard::new(3, 8));
        assert!(parse("8/8", 0, &none).unwrap_err().contains("out of range"));
        assert!(parse("0/0", 0, &none).is_err());
        assert!(parse("3", 0, &none).is_err());
        assert!(parse("-1/4", 0, &none).is_err());
        assert!(parse("auto/4", 0, &none).unwrap_err().contains("neither"));
    }

    #[test]
    fn auto_reads_kubernetes_and_slurm_indexes_with_an_explicit_base() {
        let k8s = env(&[(K8S_INDEX, "2")]);
        assert_eq!(parse("auto/4", 0, &k8s).unwrap().index, 2);
        // Slurm `--array=1-4`: ids 1..=4, base 1.
        let slurm = env(&[(SLURM_INDEX, "4"), (SLURM_MIN, "1"), (SLURM_COUNT, "4")]);
        assert_eq!(parse("auto/4", 1, &slurm).unwrap().index, 3);
        // ... and without the base: refused before anything runs.
        let e = parse("auto/4", 0, &slurm).unwrap_err();
        assert!(e.contains("--shard-base 1"), "{e}");
        let e = parse("auto/8", 1, &slurm).unwrap_err();
        assert!(e.contains("4 tasks"), "{e}");
        // Without Slurm's MIN/COUNT variables the range is still checked.
        let bare = env(&[(SLURM_INDEX, "4")]);
        assert!(parse("auto/4", 0, &bare).unwrap_err().contains("outside"));
        assert!(parse("auto/4", 5, &bare).unwrap_err().contains("below"));
        let both = env(&[(K8S_INDEX, "1"), (SLURM_INDEX, "2")]);
        assert!(parse("auto/4", 0, &both).unwrap_err().contains("disagree"));
        let junk = env(&[(K8S_INDEX, "x")]);
        assert!(parse("auto/4", 0, &junk).is_err());
    }

    #[test]
    fn shard_folders_sort_in_index_order() {
        let names: Vec<String> = (0..12)
            .map(|i| Shard::new(i, 12).unwrap().folder_name())
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert_eq!(names[3], "shard-03-of-12");
        assert_eq!(Shard::new(0, 1).unwrap().folder_name(), "shard-0-of-1");
    }
}
