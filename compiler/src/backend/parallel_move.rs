//! TODO(helper): parallel moves
