//! The SSA optimization passes that run between mem2reg and phi elimination, one file
//! per pass. Each per-function pass is `fn(&mut IrFunction) -> usize` (changes made);
//! GVN and LICM also take the shared `CfgAnalysis`; the inliner and dead static function
//! elimination work on the whole module. `pipeline.rs` runs them as stages.

pub mod cfg_simplify;
pub mod const_fold;
pub mod copy_prop;
pub mod dce;
pub mod dead_static;
pub mod gvn;
pub mod inline;
pub mod licm;
pub mod simplify;
#[cfg(test)]
mod test_support;
