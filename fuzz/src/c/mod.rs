//! The C wing: program generators and judges for C input.
//!
//! Why: phihunt hunts generated IR and, through this wing, generated C. `gen` is the
//! project's own csmith-style generator (the csmith driver and the C judge move here
//! later).

pub mod bench;
pub mod cc;
pub mod cli;
pub mod csmith_source;
pub mod gen;
pub mod hunt;
pub mod judge;
