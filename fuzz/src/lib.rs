//! phihunt: what hunts. Generators, the stage differential, reducers, campaigns, reports
//! and the `phihunt` CLI. Depends on the oracle and the compiler, never the other way.

pub mod c;
pub mod campaign;
pub mod census;
pub mod check;
pub mod cli;
pub mod diff;
pub mod findings;
pub mod fuzzers;
pub mod gen;
pub mod native;
pub mod reduce;
pub mod stages;
