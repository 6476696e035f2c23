//! Shared helpers of the native runner's integration tests (`native_*.rs`): the targets
//! to test on, which must all be installed.

#![allow(dead_code)]

use compiler::target::Target;
use oracle::native::targets::setup_hint;

/// Every target, after checking that its toolchain (gcc driver, qemu-user) is installed:
/// a missing tool fails the test with a hint to run scripts/setup.sh (never a skip).
pub fn all_targets() -> [Target; 4] {
    for t in Target::ALL {
        require(t);
    }
    Target::ALL
}

/// Fails the test when `t`'s tools are not installed.
pub fn require(t: Target) {
    if let Some(hint) = setup_hint(t) {
        panic!("{hint}");
    }
}
