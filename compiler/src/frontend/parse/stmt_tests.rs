//! Tests of statements.
