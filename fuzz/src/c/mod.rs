//! The C wing: program generators and judges for C input.
//!
//! Why: phihunt hunts generated IR and, through this wing, generated C and csmith's
//! programs. `gen` is the project's own csmith-style generator; `hunt` and
//! `csmith_source` are the two C program sources of the campaign engine; `judge` holds a
//! generated program to its expected output and `reference` confirms every C finding with
//! gcc -O0 and -O2; `csmith` is the csmith driver and the `bench csmith`, `bench native`
//! and `bench ub` benchmarks; `mutate` is the third C source, mutants of real programs
//! judged defined before they run; `torture` runs gcc's c-torture suite (`phihunt torture`).

pub mod bench;
pub mod cc;
pub mod cli;
pub mod csmith;
pub mod csmith_source;
pub mod gen;
pub mod hunt;
pub mod judge;
pub mod mutate;
pub mod reduce;
pub mod reference;
pub mod torture;
