//! The `scalar_storage_order` attribute on structs and unions (gcc): in which byte order
//! the record's scalar members are stored.
//!
//! Why it exists: c-torture's pr86659-2.c declares a struct
//! `__attribute__((scalar_storage_order("little-endian")))`. All four of phicc's targets
//! are little-endian, so that order is the native one and the attribute changes nothing
//! (gcc: a record in the native order is an ordinary record); accepting it is exact.
//!
//! Invariants:
//! - `"little-endian"` is accepted and changes nothing (every target is little-endian);
//! - `"big-endian"` (the reverse order: every load and store of a scalar member would
//!   swap its bytes, bit-fields numbered from the other end) is not implemented and is a
//!   clear error at the attribute, never a record silently stored in the native order;
//! - any other argument is gcc's error.

use super::Parser;
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{Punct, TokenKind};

impl Parser<'_> {
    /// scalar-storage-order-attribute: 'scalar_storage_order' '(' string-literal ')'
    /// (the cursor after the name at `name_loc`)
    pub(crate) fn parse_scalar_storage_order(&mut self, name_loc: Loc) -> Result<(), Diagnostic> {
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
            b"little-endian" => Ok(()),
            b"big-endian" => Err(self.error_at(
                name_loc,
                "scalar_storage_order(\"big-endian\") is not supported by phicc (every \
                 target is little-endian: each member access would need its bytes swapped)",
            )),
            _ => Err(self.error_at(
                arg_loc,
                "scalar_storage_order argument must be one of \"big-endian\" or \
                 \"little-endian\"",
            )),
        }
    }
}
