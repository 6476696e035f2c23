//! Tests of expressions.
