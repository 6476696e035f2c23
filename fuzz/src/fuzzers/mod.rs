//! The fuzzers' logic, one `check(input)` per cargo-fuzz target. The targets in
//! `fuzz/fuzz_targets/` are thin wrappers; `cargo test` runs a short smoke loop of each
//! on stable Rust (regalloc2's arbtest idea).

pub mod c_frontend;
pub mod differential;
pub mod findings;
pub mod ir_parse;
pub mod ir_pipeline;
pub mod phi_elim;
pub mod stats;
