//! The captured stdout of one run, with its size limit.
//!
//! Why: a generated program can print without end (or ask printf for a two-gigabyte
//! field width); the oracle keeps at most `max_stdout` bytes and ends the run with
//! `Undefined(OutputLimit)` when a write would pass it, never allocating more.
//!
//! Invariant: `bytes.len() <= max`; a write that does not fit keeps the prefix that does.

use crate::outcome::Ub;

pub(crate) struct Stdout {
    bytes: Vec<u8>,
    max: usize,
}

impl Stdout {
    pub fn new(max: usize) -> Stdout {
        Stdout {
            bytes: Vec::new(),
            max,
        }
    }

    /// Appends `b`, or as much of it as fits and `Err(OutputLimit)`.
    pub fn write(&mut self, b: &[u8]) -> Result<(), Ub> {
        let room = self.max - self.bytes.len();
        if b.len() > room {
            self.bytes.extend_from_slice(&b[..room]);
            return Err(Ub::OutputLimit);
        }
        self.bytes.extend_from_slice(b);
        Ok(())
    }

    /// Appends `n` copies of `byte` (padding), within the limit.
    pub fn repeat(&mut self, byte: u8, n: usize) -> Result<(), Ub> {
        let room = self.max - self.bytes.len();
        let fits = n.min(room);
        self.bytes.resize(self.bytes.len() + fits, byte);
        if fits < n {
            return Err(Ub::OutputLimit);
        }
        Ok(())
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_prefix_that_fits() {
        let mut s = Stdout::new(5);
        s.write(b"abc").unwrap();
        assert_eq!(s.repeat(b'-', 1), Ok(()));
        assert_eq!(s.write(b"xyz"), Err(Ub::OutputLimit));
        assert_eq!(s.len(), 5);
        assert_eq!(s.repeat(b' ', usize::MAX), Err(Ub::OutputLimit));
        assert_eq!(s.into_bytes(), b"abc-x");
    }
}
