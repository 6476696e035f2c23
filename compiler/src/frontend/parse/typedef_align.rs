//! `__attribute__((aligned(N)))` on a typedef.
//!
//! Why it exists: in gcc the attribute gives the typedef *name* its own alignment
//! (`typedef int A __attribute__((aligned(16)))`: `__alignof__(A)` is 16, `sizeof(A)` 4),
//! which phicc's types cannot carry. c-torture declares such typedefs (`align-1.c`, never
//! using the name) and aligns an untagged record through its typedef (`20050215-1.c`).
//!
//! Invariants (each case gives gcc's layout, or an error at a `file:line:col`):
//! - `N` equal to the type's own alignment changes nothing: accepted.
//! - An untagged struct or union defined in the typedef itself (no other name can denote
//!   it) whose size is a multiple of a larger `N`: the record's own alignment is raised
//!   to `N`, which gives every use of the typedef gcc's size and alignment.
//! - Otherwise the typedef is declared, and every *use* of its name is an error
//!   ("... is not supported by phicc"); a typedef never used (align-1.c) is harmless.

use super::Parser;
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::types::{QualType, Type};

impl Parser<'_> {
    /// Applies `aligned(n)` on the typedef `name` of type `ty` (see the module doc);
    /// `anonymous_record`: the specifiers defined an untagged record right here.
    pub(crate) fn typedef_alignment(
        &mut self,
        name: &str,
        ty: &QualType,
        n: u64,
        anonymous_record: bool,
    ) -> Result<(), Diagnostic> {
        let natural = self.align_of(&ty.ty);
        if natural == n {
            return Ok(());
        }
        if let (Type::Record(id), true) = (&ty.ty, anonymous_record) {
            let record = self.records.get(*id);
            if n > natural && record.size.is_multiple_of(n) {
                self.records.records[id.0 as usize].align = n;
                return Ok(());
            }
        }
        let depth = self.scopes.len() - 1;
        self.decl
            .unaligned_typedefs
            .insert((name.to_string(), depth));
        Ok(())
    }

    /// The error for a use of the typedef name `name` when it is one whose `aligned`
    /// attribute phicc cannot give it (`Ok` for any other name).
    pub(crate) fn check_typedef_use(&self, name: &str, loc: Loc) -> Result<(), Diagnostic> {
        if self.decl.unaligned_typedefs.is_empty() {
            return Ok(());
        }
        let Some(depth) = self
            .scopes
            .iter()
            .rposition(|s| s.ordinary.contains_key(name))
        else {
            return Ok(());
        };
        if self
            .decl
            .unaligned_typedefs
            .contains(&(name.to_string(), depth))
        {
            return Err(self.error_at(
                loc,
                format!(
                    "typedef '{name}' with an 'aligned' attribute that changes its alignment \
                     is not supported by phicc"
                ),
            ));
        }
        Ok(())
    }
}
