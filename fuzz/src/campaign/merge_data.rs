//! What a merged report (`phihunt merge`, [`super::merge`]) says beyond a hunt's report:
//! the shards it joined, the ones missing, and every shard's copies of each finding.
//!
//! Why: a merged report shows one copy of each bug (the first), like any hunt report;
//! the other shards' copies of the same bug are real, saved findings and must stay one
//! click away (never a lost finding), and a reader must see at once whether the merge
//! covers the whole seed space or leaves shards out.
//!
//! Invariants: `copies` has one entry per signature of the report's `findings`, in the
//! same order, and each entry one [`ShardCopy`] per shard that found the bug, in shard
//! order; the copies' counts add up to the signature's count; every path is one the
//! merge found on disk below the shard's folder (or, failing that, the path the shard
//! recorded).

use serde::{Deserialize, Serialize};

/// The merged part of a report.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Merged {
    /// N of the shards' `--shard I/N`.
    pub shard_count: u64,
    /// The shards joined, in index order.
    pub shards: Vec<ShardRow>,
    /// Indexes of the shards not joined (`merge --allow-missing`): their programs were
    /// not run, or not brought here.
    pub missing: Vec<u64>,
    /// Per signature, in the report's `findings` order.
    pub copies: Vec<SignatureCopies>,
}

/// One shard as the merged report lists it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ShardRow {
    pub index: u64,
    /// The shard's folder (absolute).
    pub dir: String,
    pub programs: u64,
    pub findings: u64,
    pub unique_findings: usize,
    pub duration_s: f64,
    pub programs_per_s: f64,
    pub jobs: usize,
    /// Wall-clock time (Unix seconds) of the shard's timeline zero.
    pub origin_unix: f64,
    /// Times the shard was started (1 + resumes).
    pub runs: u64,
}

/// One signature's copies, shard by shard.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SignatureCopies {
    pub signature: String,
    pub shards: Vec<ShardCopy>,
}

/// What one shard holds of one signature.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ShardCopy {
    pub shard: u64,
    /// Findings of the signature in this shard.
    pub count: u64,
    /// The shard's first finding directory of it, and its seed.
    pub first: String,
    pub first_seed: Option<u64>,
    /// The shard's reduced cases, when its reducer ran.
    pub reduced: Option<String>,
    pub reduced_c: Option<String>,
    /// Every stored finding directory of the signature in this shard.
    pub directories: Vec<String>,
    /// The shard's seed lines of the signature (findings past `--keep-per-signature`).
    pub seeds_file: Option<String>,
}
