//! `case` labels of a `switch`, GNU case ranges `case lo ... hi:` included: the values'
//! conversion to the controlling type and gcc's checks.
//!
//! Why it exists: a range is one label for many values (c-torture `pr34154.c` has one
//! of 9·10^18 values), so it stays a range in the AST (`Stmt::Switch::ranges`) and the
//! lowering tests it with one comparison; this file keeps singles and ranges disjoint.
//!
//! Invariants (gcc 12's behaviour):
//! - Both ends are converted to the promoted controlling type like a single value; the
//!   comparison `lo <= hi` and every overlap test use that type's values (signed or
//!   unsigned), never the bits.
//! - `lo > hi` is gcc's warning "empty range specified" and the label matches nothing
//!   (it still labels its statement); `lo == hi` is a single value.
//! - A value in two labels is an error at the second: "duplicate case value" when the
//!   second is a single value, "duplicate (or overlapping) case value" when it is a
//!   range.

use super::Parser;
use crate::frontend::ast::CaseId;
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::types::Type;

impl Parser<'_> {
    /// Adds label `id` for `values` (a value, or a range's two ends as written) to a
    /// switch on `sw_ty` whose labels so far are `cases` and `ranges`.
    pub(crate) fn add_case_label(
        &mut self,
        cases: &mut Vec<(u64, CaseId)>,
        ranges: &mut Vec<(u64, u64, CaseId)>,
        sw_ty: &Type,
        values: (i128, Option<i128>),
        id: CaseId,
        loc: Loc,
    ) -> Result<(), Diagnostic> {
        let lo = self.wrap_to(values.0, sw_ty).unwrap_or(values.0);
        let hi = values.1.map(|h| self.wrap_to(h, sw_ty).unwrap_or(h));
        let bits = |v: i128| match self.size_of(sw_ty) {
            Some(n @ 1..=7) => (v as u64) & ((1u64 << (8 * n)) - 1),
            _ => v as u64,
        };
        let signed = sw_ty.is_signed(self.target);
        let width = self.size_of(sw_ty).unwrap_or(8).min(8) as u32 * 8;
        // The value of canonical bits in the controlling type.
        let value_of = |b: u64| -> i128 {
            if signed && width < 128 && (b >> (width - 1)) & 1 == 1 {
                i128::from(b) - (1i128 << width)
            } else {
                i128::from(b)
            }
        };
        let hi = match hi {
            Some(h) if h < lo => {
                self.warn_at(loc, "empty range specified");
                return Ok(());
            }
            Some(h) if h > lo => h,
            _ => {
                let b = bits(lo);
                if cases.iter().any(|(v, _)| *v == b) {
                    return Err(self.error_at(loc, "duplicate case value"));
                }
                let in_range =
                    |r: &(u64, u64, CaseId)| (value_of(r.0)..=value_of(r.1)).contains(&lo);
                if ranges.iter().any(in_range) {
                    return Err(self.error_at(loc, "duplicate case value"));
                }
                cases.push((b, id));
                return Ok(());
            }
        };
        let overlaps_single = cases.iter().any(|(v, _)| (lo..=hi).contains(&value_of(*v)));
        let overlaps_range = ranges
            .iter()
            .any(|r| value_of(r.0) <= hi && lo <= value_of(r.1));
        if overlaps_single || overlaps_range {
            return Err(self.error_at(loc, "duplicate (or overlapping) case value"));
        }
        ranges.push((bits(lo), bits(hi), id));
        Ok(())
    }
}
