//! Unit tests of the lowering on hand-built ASTs.
