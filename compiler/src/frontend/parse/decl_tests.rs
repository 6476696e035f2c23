//! Unit tests of the declarations part (filled below).
