//! TODO(helper): liveness
