//! Phi elimination tests. Every output is checked three ways: the post-phi-elimination
//! verifier, the replay checker (`super::replay`), and, for random functions, a concrete
//! walk that runs the function before and after along the same random path.

mod build;
mod cases;
mod corpus;
mod mutants;
mod random;
