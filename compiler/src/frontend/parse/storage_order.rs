//! The `scalar_storage_order` attribute on structs and unions (gcc): in which byte order
//! the record's scalar members are stored.
//!
//! Why it exists: c-torture's pr86659-2.c declares a struct
//! `__attribute__((scalar_storage_order("little-endian")))`, pr86659-1.c and pr87623.c
//! the big-endian one. All four of phicc's targets
//! are little-endian, so that order is the native one and the attribute changes nothing
//! (gcc: a record in the native order is an ordinary record); accepting it is exact.
//!
//! Invariants:
//! - `"little-endian"` is accepted and changes nothing (every target is little-endian);
//! - `"big-endian"` (the reverse order) sets `RecordDef::reverse_order` on the record
//!   being defined; the lowering swaps the bytes of every scalar member access and
//!   numbers bit-fields from the other end (`lowering/reverse_order.rs`), and refuses
//!   what it cannot do exactly;
//! - any other argument is gcc's error.

use super::Parser;
use crate::frontend::diag::Diagnostic;
use crate::frontend::token::{Punct, TokenKind};

impl Parser<'_> {
    /// scalar-storage-order-attribute: 'scalar_storage_order' '(' string-literal ')'
    /// (the cursor after the name). Returns whether the order is big-endian (the
    /// reverse of every target's); little-endian is the native order and changes nothing.
    pub(crate) fn parse_scalar_storage_order(&mut self) -> Result<bool, Diagnostic> {
        self.expect_punct(Punct::LParen)?;
        let arg_loc = self.loc();
        let order = match &self.peek().kind {
            TokenKind::Str(bytes) => bytes.to_vec(),
            _ => {
                return Err(self.error_at(
                    arg_loc,
                    "scalar_storage_order argument must be one of \"big-endian\" or \
                     \"little-endian\"",
                ))
            }
        };
        self.bump();
        self.expect_punct(Punct::RParen)?;
        match order.as_slice() {
            b"little-endian" => Ok(false),
            b"big-endian" => Ok(true),
            _ => Err(self.error_at(
                arg_loc,
                "scalar_storage_order argument must be one of \"big-endian\" or \
                 \"little-endian\"",
            )),
        }
    }
}
