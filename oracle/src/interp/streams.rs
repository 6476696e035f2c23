//! The standard streams: libc's variables `stdin`, `stdout`, `stderr` and what the stdio
//! functions that take a `FILE *` do with them.
//!
//! Why it exists: programs (c-torture's `fprintf-1.c`, `vfprintf-1.c`, ...) write with
//! `fprintf (stdout, ...)`; phicc's IR names the variables as declarations with no
//! parameters and a `ptr` result (`compiler/src/lowering/libc_objects.rs`).
//!
//! Model:
//! - Each declared stream variable is a writable pointer-sized global holding the address
//!   of a read-only 8-byte `FILE` object of the oracle: the bytes `phiFILE` and then the
//!   file descriptor (0, 1, 2). A stream argument is checked to point at the start of one
//!   of these objects; any other pointer is a misuse of libc (`BadLibcCall`), as is
//!   writing to `stdin`.
//! - What goes to `stdout` is the run's output, interleaved with `printf` and `putchar`
//!   in program order (one buffer, as glibc's). What goes to `stderr` is formatted (so a
//!   bad argument is still caught) and dropped: it is not part of the observed output
//!   (natively, only stdout is compared either).
//! - Results are glibc's: `fprintf`/`vfprintf` the byte count, `fputs` 1, `fputc`/`putc`
//!   the character as `unsigned char`, `fwrite` the item count (0 when the item size is
//!   0), `fflush` 0.

use super::memory::{AllocKind, Memory};
use super::output::Stdout;
use crate::outcome::Ub;

/// A standard stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdin,
    Stdout,
    Stderr,
}

/// The first bytes of the oracle's `FILE` objects.
pub(crate) const MAGIC: &[u8; 7] = b"phiFILE";

/// The longest text one write to `stderr` may format (longer is `OutputLimit`).
const STDERR_MAX_BYTES: usize = 1 << 20;

impl Stream {
    pub fn by_name(name: &str) -> Option<Stream> {
        match name {
            "stdin" => Some(Stream::Stdin),
            "stdout" => Some(Stream::Stdout),
            "stderr" => Some(Stream::Stderr),
            _ => None,
        }
    }

    fn fd(self) -> u8 {
        match self {
            Stream::Stdin => 0,
            Stream::Stdout => 1,
            Stream::Stderr => 2,
        }
    }

    /// Lays out the stream's `FILE` object and its variable in `image`; returns the
    /// variable's address (what `globaladdr @stdout` gives).
    pub fn install(self, image: &mut Memory, ptr_bytes: u32) -> Option<u64> {
        let (file_id, file) = image.allocate(8, 8, AllocKind::ConstGlobal)?;
        let mut bytes = MAGIC.to_vec();
        bytes.push(self.fd());
        image.set_global_bytes(file_id, 0, &bytes);
        let (var_id, var) = image.allocate(u64::from(ptr_bytes), ptr_bytes, AllocKind::Global)?;
        let pointer = file.to_le_bytes();
        image.set_global_bytes(var_id, 0, &pointer[..ptr_bytes as usize]);
        Some(var)
    }

    /// The stream `file` points at.
    pub fn at(mem: &Memory, file: u64) -> Result<Stream, Ub> {
        let bytes = mem.read_bytes(file, 8).map_err(|_| Ub::BadLibcCall)?;
        if &bytes[..7] != MAGIC {
            return Err(Ub::BadLibcCall);
        }
        match bytes[7] {
            0 => Ok(Stream::Stdin),
            1 => Ok(Stream::Stdout),
            2 => Ok(Stream::Stderr),
            _ => Err(Ub::BadLibcCall),
        }
    }

    /// Writes `text` to the stream (`stdout`'s goes to `out`; `stderr`'s is dropped).
    pub fn write(self, out: &mut Stdout, text: &[u8]) -> Result<(), Ub> {
        match self {
            Stream::Stdout => out.write(text),
            Stream::Stderr => Ok(()),
            Stream::Stdin => Err(Ub::BadLibcCall),
        }
    }

    /// Formats into a buffer of its own for `self`, then writes it: `format` gets the
    /// buffer and returns the call's result.
    pub fn formatted(
        self,
        out: &mut Stdout,
        format: impl FnOnce(&mut Stdout) -> Result<u64, Ub>,
    ) -> Result<u64, Ub> {
        match self {
            Stream::Stdout => format(out),
            Stream::Stderr => format(&mut Stdout::new(STDERR_MAX_BYTES)),
            Stream::Stdin => Err(Ub::BadLibcCall),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_recognised_by_their_file_object() {
        let mut mem = Memory::new(8);
        let var = Stream::Stderr.install(&mut mem, 8).unwrap();
        let file = mem.load(var, 8).unwrap();
        assert_eq!(Stream::at(&mem, file), Ok(Stream::Stderr));
        assert_eq!(Stream::at(&mem, file + 1), Err(Ub::BadLibcCall));
        assert_eq!(Stream::at(&mem, var), Err(Ub::BadLibcCall));
        let mut out = Stdout::new(16);
        Stream::Stderr.write(&mut out, b"dropped").unwrap();
        Stream::Stdout.write(&mut out, b"kept").unwrap();
        assert_eq!(out.into_bytes(), b"kept");
    }
}
