//! Files: an in-memory file system per run, and the `<stdio.h>` functions on `FILE`
//! streams (the standard ones and those `fopen` opens), `tmpnam`, `remove`, `open`, and
//! `errno` (`__errno_location`, as glibc's `<errno.h>` reaches it).
//!
//! Why it exists: c-torture's `fprintf-2.c` and `printf-2.c` write a file named by
//! `tmpnam` (through `fprintf`, or `printf` after `freopen` of `stdout`), read it back
//! with `fscanf` and `remove` it; csmith-like programs may write files too. The oracle
//! must run them deterministically and without touching the host, so every run starts
//! with an empty file system of its own, kept here and dropped with the run.
//!
//! Model (what glibc 2.36 on Linux does, where a program can see it):
//! - a file is a byte vector (an inode); names map to inodes, so a file removed while
//!   open stays readable through its stream, as on POSIX. Only files the run created
//!   exist: `fopen` for reading of any other name fails with `ENOENT` — natively the
//!   program runs in a fresh, empty working directory (`oracle/src/native/run.rs`), so
//!   relative names agree; an absolute name outside `/tmp/` could name a host file the
//!   oracle cannot know, so reading one is no verdict (`BadLibcCall`), never a guess;
//! - `tmpnam` gives `/tmp/phiAAAAAA`, `/tmp/phiAAAAAB`, ... (glibc's are random
//!   `/tmp/fileXXXXXX`: a program that prints the name is not comparable, one that uses it
//!   is), skipping names that exist; with a null argument the name lives in one static
//!   buffer of the run, as glibc's;
//! - file descriptors are allocated lowest first from 3 (`fopen` and `open` share them,
//!   as glibc's `fopen` calls `open`); a `FILE` is an 8-byte object of the oracle (the
//!   magic of `streams.rs` and the descriptor), freed by `fclose`, so a stream used after
//!   `fclose` is caught (`BadLibcCall`); the standard streams' objects stay, and using one
//!   after its `fclose` is `BadLibcCall` too (C11 7.21.3p4);
//! - writes go straight into the file. glibc buffers them (4 KiB for a file) until
//!   `fflush`, `fclose`, a full buffer or exit, so a program that reads a file while
//!   another stream still holds unflushed writes to it sees an implementation-dependent
//!   state: the oracle gives no verdict there (`BadLibcCall`), never one of the states;
//! - `freopen(name, mode, stdout)` sends everything written to stdout (`printf`, `puts`,
//!   `putchar`, `fprintf(stdout, ...)`, `vprintf`) to that file: it is not the run's
//!   observed output, as natively, where only the process's stdout is compared;
//! - errors are glibc's: `NULL`/`EOF`/-1 and `errno` (`ENOENT` 2, `EINVAL` 22,
//!   `EMFILE` 24); `perror` writes to stderr, which is not observed;
//! - `fscanf` supports `%d %i %u %x %o %c %s %n %%` with widths, `*` and the `hh h l ll z`
//!   modifiers (a conversion outside that set is `BadLibcCall`: no verdict, never a guess);
//! - the files of a run hold at most [`MAX_FILE_BYTES`] together; writing more ends the run
//!   as too big to judge (`OutputLimit`), as stdout's limit does.

use super::memory::{AllocKind, Memory};
use super::output::Stdout;
use super::printf::printf;
use super::streams::{Stream, MAGIC};
use crate::outcome::Ub;
use compiler::ir::IrType;
use std::collections::BTreeMap;

/// Bytes all files of a run may hold together.
pub(crate) const MAX_FILE_BYTES: usize = 16 << 20;
/// The longest text one `fprintf` to a file may format.
const FORMAT_MAX_BYTES: usize = 1 << 20;
/// glibc's `L_tmpnam` (the size of `tmpnam`'s buffer).
pub(crate) const L_TMPNAM: u64 = 20;
/// Descriptors a run may have open (a `FILE` object keeps its descriptor in one byte).
const MAX_FDS: usize = 256;

const ENOENT: u32 = 2;
const EINVAL: u32 = 22;
const EMFILE: u32 = 24;

/// The supported functions on files and streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileFn {
    Tmpnam,
    Fopen,
    Freopen,
    Fclose,
    Remove,
    Fgets,
    Fgetc,
    Getc,
    Fread,
    Fscanf,
    Feof,
    Ferror,
    Rewind,
    Ftell,
    Fseek,
    Perror,
    Fprintf,
    Fputs,
    Fputc,
    Putc,
    Fwrite,
    Fflush,
    Open,
    ErrnoLocation,
}

impl FileFn {
    const ALL: [FileFn; 24] = [
        FileFn::Tmpnam,
        FileFn::Fopen,
        FileFn::Freopen,
        FileFn::Fclose,
        FileFn::Remove,
        FileFn::Fgets,
        FileFn::Fgetc,
        FileFn::Getc,
        FileFn::Fread,
        FileFn::Fscanf,
        FileFn::Feof,
        FileFn::Ferror,
        FileFn::Rewind,
        FileFn::Ftell,
        FileFn::Fseek,
        FileFn::Perror,
        FileFn::Fprintf,
        FileFn::Fputs,
        FileFn::Fputc,
        FileFn::Putc,
        FileFn::Fwrite,
        FileFn::Fflush,
        FileFn::Open,
        FileFn::ErrnoLocation,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FileFn::Tmpnam => "tmpnam",
            FileFn::Fopen => "fopen",
            FileFn::Freopen => "freopen",
            FileFn::Fclose => "fclose",
            FileFn::Remove => "remove",
            FileFn::Fgets => "fgets",
            FileFn::Fgetc => "fgetc",
            FileFn::Getc => "getc",
            FileFn::Fread => "fread",
            FileFn::Fscanf => "fscanf",
            FileFn::Feof => "feof",
            FileFn::Ferror => "ferror",
            FileFn::Rewind => "rewind",
            FileFn::Ftell => "ftell",
            FileFn::Fseek => "fseek",
            FileFn::Perror => "perror",
            FileFn::Fprintf => "fprintf",
            FileFn::Fputs => "fputs",
            FileFn::Fputc => "fputc",
            FileFn::Putc => "putc",
            FileFn::Fwrite => "fwrite",
            FileFn::Fflush => "fflush",
            FileFn::Open => "open",
            FileFn::ErrnoLocation => "__errno_location",
        }
    }

    pub fn by_name(name: &str) -> Option<FileFn> {
        FileFn::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// Named parameters of the C prototype, and whether it is variadic.
    pub fn prototype(self) -> (usize, bool) {
        match self {
            FileFn::ErrnoLocation => (0, false),
            FileFn::Tmpnam
            | FileFn::Fclose
            | FileFn::Remove
            | FileFn::Fgetc
            | FileFn::Getc
            | FileFn::Feof
            | FileFn::Ferror
            | FileFn::Rewind
            | FileFn::Ftell
            | FileFn::Perror
            | FileFn::Fflush => (1, false),
            FileFn::Fopen | FileFn::Fputs | FileFn::Fputc | FileFn::Putc => (2, false),
            FileFn::Fscanf | FileFn::Fprintf | FileFn::Open => (2, true),
            FileFn::Freopen | FileFn::Fgets | FileFn::Fseek => (3, false),
            FileFn::Fread | FileFn::Fwrite => (4, false),
        }
    }
}

/// An open descriptor: a stream's (with its `FILE` object) or a raw `open`'s.
#[derive(Clone, Debug)]
struct Open {
    /// The file (`None`: `/dev/null` or `/dev/zero`, which read and write nothing here).
    inode: Option<usize>,
    read: bool,
    write: bool,
    append: bool,
    pos: usize,
    eof: bool,
    error: bool,
    /// Written since the last flush (glibc would still hold the bytes).
    dirty: bool,
    /// The `FILE` object's address (0 for a raw descriptor).
    object: u64,
}

/// Where a `FILE *` leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handle {
    Std(Stream),
    Fd(usize),
}

/// The file system and open files of one run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Files {
    names: BTreeMap<Vec<u8>, usize>,
    inodes: Vec<Vec<u8>>,
    total_bytes: usize,
    fds: Vec<Option<Open>>,
    /// What `freopen` made of stdout: its descriptor.
    stdout_to: Option<usize>,
    stdout_closed: bool,
    tmpnam_count: u32,
    /// `tmpnam(NULL)`'s buffer and `errno`, allocated when first needed.
    tmpnam_buffer: u64,
    errno_addr: u64,
}

/// A mode string of `fopen`: (read, write, append, create, truncate).
fn parse_mode(mode: &[u8]) -> Option<(bool, bool, bool, bool, bool)> {
    let (&first, rest) = mode.split_first()?;
    let plus = rest.iter().take_while(|&&c| c != b',').any(|&c| c == b'+');
    Some(match first {
        b'r' => (true, plus, false, false, false),
        b'w' => (plus, true, false, true, true),
        b'a' => (plus, true, true, true, false),
        _ => return None,
    })
}

impl Files {
    /// Whether stdout's writes do not go to the run's output (redirected or closed).
    pub fn stdout_diverted(&self) -> bool {
        self.stdout_to.is_some() || self.stdout_closed
    }

    /// Writes what a libc call wrote to stdout while [`Files::stdout_diverted`].
    pub fn write_stdout(&mut self, bytes: &[u8]) -> Result<(), Ub> {
        if bytes.is_empty() {
            return Ok(());
        }
        match self.stdout_to {
            Some(fd) if !self.stdout_closed => self.write_fd(fd, bytes),
            _ => Err(Ub::BadLibcCall),
        }
    }

    pub fn set_errno(&mut self, mem: &mut Memory, code: u32) -> Result<(), Ub> {
        let at = self.errno(mem)?;
        mem.store(at, 4, u64::from(code))
    }

    /// `errno`'s address (an `int` of the run, 0 at start).
    fn errno(&mut self, mem: &mut Memory) -> Result<u64, Ub> {
        if self.errno_addr == 0 {
            let (_, at) = mem
                .allocate(4, 4, AllocKind::Global)
                .ok_or(Ub::OutputLimit)?;
            self.errno_addr = at;
        }
        Ok(self.errno_addr)
    }

    fn lowest_free_fd(&self) -> Option<usize> {
        (3..MAX_FDS).find(|&fd| self.fds.get(fd).is_none_or(|o| o.is_none()))
    }

    fn install(&mut self, fd: usize, open: Open) {
        if self.fds.len() <= fd {
            self.fds.resize(fd + 1, None);
        }
        self.fds[fd] = Some(open);
    }

    /// Whether a stream other than `except` holds unflushed writes to `inode`.
    fn dirty_elsewhere(&self, inode: usize, except: Option<usize>) -> bool {
        self.fds.iter().enumerate().any(|(fd, o)| {
            Some(fd) != except
                && o.as_ref()
                    .is_some_and(|o| o.inode == Some(inode) && o.dirty)
        })
    }

    /// Opens `name` with `mode` on a new descriptor; `Ok(None)` with `errno` set when
    /// it fails as glibc's would.
    fn open_name(
        &mut self,
        mem: &mut Memory,
        name: &[u8],
        mode: &[u8],
    ) -> Result<Option<(usize, Open)>, Ub> {
        let Some((read, write, append, create, truncate)) = parse_mode(mode) else {
            self.set_errno(mem, EINVAL)?;
            return Ok(None);
        };
        let Some(fd) = self.lowest_free_fd() else {
            self.set_errno(mem, EMFILE)?;
            return Ok(None);
        };
        let device = matches!(name, b"/dev/null" | b"/dev/zero");
        let inode = match self.names.get(name) {
            _ if device => None,
            Some(&i) => Some(i),
            None if create => {
                if name.is_empty() {
                    self.set_errno(mem, ENOENT)?;
                    return Ok(None);
                }
                self.inodes.push(Vec::new());
                let i = self.inodes.len() - 1;
                self.names.insert(name.to_vec(), i);
                Some(i)
            }
            None => {
                if name.starts_with(b"/") && !name.starts_with(b"/tmp/") {
                    // A host file the oracle cannot know.
                    return Err(Ub::BadLibcCall);
                }
                self.set_errno(mem, ENOENT)?;
                return Ok(None);
            }
        };
        if let Some(i) = inode {
            if self.dirty_elsewhere(i, None) {
                return Err(Ub::BadLibcCall);
            }
            if truncate {
                self.total_bytes -= self.inodes[i].len();
                self.inodes[i].clear();
            }
        }
        let open = Open {
            inode,
            read,
            write,
            append,
            pos: 0,
            eof: false,
            error: false,
            dirty: false,
            object: 0,
        };
        Ok(Some((fd, open)))
    }

    /// A new `FILE` object for descriptor `fd`.
    fn new_object(mem: &mut Memory, fd: usize) -> Result<u64, Ub> {
        let (record, at) = mem
            .allocate(8, 8, AllocKind::LibcObject)
            .ok_or(Ub::OutputLimit)?;
        let mut bytes = MAGIC.to_vec();
        bytes.push(fd as u8);
        mem.set_global_bytes(record, 0, &bytes);
        Ok(at)
    }

    /// The stream a `FILE *` designates.
    fn handle(&self, mem: &Memory, file: u64) -> Result<Handle, Ub> {
        let bytes = mem.read_bytes(file, 8).map_err(|_| Ub::BadLibcCall)?;
        if &bytes[..7] != MAGIC {
            return Err(Ub::BadLibcCall);
        }
        let fd = bytes[7] as usize;
        if fd < 3 {
            let s = Stream::at(mem, file)?;
            if s == Stream::Stdout && self.stdout_closed {
                return Err(Ub::BadLibcCall);
            }
            return Ok(Handle::Std(s));
        }
        match self.fds.get(fd) {
            Some(Some(o)) if o.object == file => Ok(Handle::Fd(fd)),
            _ => Err(Ub::BadLibcCall),
        }
    }

    fn open_mut(&mut self, fd: usize) -> Result<&mut Open, Ub> {
        self.fds
            .get_mut(fd)
            .and_then(|o| o.as_mut())
            .ok_or(Ub::BadLibcCall)
    }

    fn write_fd(&mut self, fd: usize, bytes: &[u8]) -> Result<(), Ub> {
        let o = self.open_mut(fd)?;
        if !o.write {
            o.error = true;
            return Ok(());
        }
        let Some(i) = o.inode else { return Ok(()) };
        o.dirty = true;
        let data_len = self.inodes[i].len();
        let o = self.open_mut(fd)?;
        if o.append {
            o.pos = data_len;
        }
        let start = o.pos;
        o.pos += bytes.len();
        let end = start + bytes.len();
        let grow = end.saturating_sub(data_len);
        if self.total_bytes + grow > MAX_FILE_BYTES {
            return Err(Ub::OutputLimit);
        }
        self.total_bytes += grow;
        let data = &mut self.inodes[i];
        if data.len() < end {
            data.resize(end, 0);
        }
        data[start..end].copy_from_slice(bytes);
        Ok(())
    }

    /// Writes `bytes` to the stream `h` (stdout's: to `out` unless diverted).
    fn write(&mut self, out: &mut Stdout, h: Handle, bytes: &[u8]) -> Result<(), Ub> {
        match h {
            Handle::Std(Stream::Stdout) if self.stdout_diverted() => self.write_stdout(bytes),
            Handle::Std(s) => s.write(out, bytes),
            Handle::Fd(fd) => self.write_fd(fd, bytes),
        }
    }

    /// Up to `max` bytes read from descriptor `fd` (`until_newline`: stop after `\n`).
    fn read_fd(&mut self, fd: usize, max: usize, until_newline: bool) -> Result<Vec<u8>, Ub> {
        let o = self.open_mut(fd)?;
        if !o.read {
            o.error = true;
            return Ok(Vec::new());
        }
        let Some(i) = o.inode else {
            o.eof = true;
            return Ok(Vec::new());
        };
        if self.dirty_elsewhere(i, Some(fd)) {
            return Err(Ub::BadLibcCall);
        }
        let o = self.fds[fd].as_mut().ok_or(Ub::BadLibcCall)?;
        let data = &self.inodes[i];
        let available = data.get(o.pos..).unwrap_or(&[]);
        let mut n = available.len().min(max);
        if until_newline {
            if let Some(nl) = available[..n].iter().position(|&b| b == b'\n') {
                n = nl + 1;
            }
        }
        let bytes = available[..n].to_vec();
        o.pos += n;
        if n < max && !(until_newline && bytes.last() == Some(&b'\n')) {
            o.eof = true;
        }
        Ok(bytes)
    }

    /// The byte at the read position, without consuming it; at the end, the stream's
    /// end-of-file flag is set (glibc's `scanf` reads the byte that is not there).
    fn peek_fd(&mut self, fd: usize) -> Result<Option<u8>, Ub> {
        let o = self.open_mut(fd)?;
        let (inode, pos) = (o.inode, o.pos);
        let byte = inode.and_then(|i| self.inodes[i].get(pos).copied());
        if byte.is_none() {
            self.open_mut(fd)?.eof = true;
        }
        Ok(byte)
    }

    /// A stream that can be read: a file's descriptor (reading stdin is not modelled).
    fn readable(&self, mem: &Memory, file: u64) -> Result<usize, Ub> {
        match self.handle(mem, file)? {
            Handle::Fd(fd) => Ok(fd),
            Handle::Std(_) => Err(Ub::BadLibcCall),
        }
    }
}

/// Runs `f` on `args` with the run's `files`; stdout's text goes to `out`.
pub(crate) fn call(
    f: FileFn,
    args: &[(IrType, u64)],
    mem: &mut Memory,
    files: &mut Files,
    out: &mut Stdout,
    ptr_bytes: u32,
) -> Result<u64, Ub> {
    let (named, variadic) = f.prototype();
    if args.len() < named || (!variadic && args.len() != named) {
        return Err(Ub::BadCall);
    }
    let arg = |i: usize| args[i].1;
    const EOF: u64 = u64::MAX;
    Ok(match f {
        FileFn::ErrnoLocation => files.errno(mem)?,
        FileFn::Tmpnam => {
            let mut name;
            loop {
                let mut k = files.tmpnam_count;
                files.tmpnam_count += 1;
                let mut letters = [b'A'; 6];
                for l in letters.iter_mut().rev() {
                    *l = b'A' + (k % 26) as u8;
                    k /= 26;
                }
                name = b"/tmp/phi".to_vec();
                name.extend_from_slice(&letters);
                if !files.names.contains_key(&name) {
                    break;
                }
            }
            let buf = if arg(0) != 0 {
                arg(0)
            } else {
                if files.tmpnam_buffer == 0 {
                    let (_, at) = mem
                        .allocate(L_TMPNAM, 1, AllocKind::Global)
                        .ok_or(Ub::OutputLimit)?;
                    files.tmpnam_buffer = at;
                }
                files.tmpnam_buffer
            };
            for (i, &b) in name.iter().chain(&[0]).enumerate() {
                mem.store(buf.wrapping_add(i as u64), 1, u64::from(b))?;
            }
            buf
        }
        FileFn::Fopen => {
            let name = mem.c_string(arg(0), None)?.to_vec();
            let mode = mem.c_string(arg(1), None)?.to_vec();
            match files.open_name(mem, &name, &mode)? {
                None => 0,
                Some((fd, mut open)) => {
                    open.object = Files::new_object(mem, fd)?;
                    let object = open.object;
                    files.install(fd, open);
                    object
                }
            }
        }
        FileFn::Freopen => {
            if arg(0) == 0 {
                // Changing the mode of the open file: not modelled.
                return Err(Ub::BadLibcCall);
            }
            let h = files.handle(mem, arg(2))?;
            let name = mem.c_string(arg(0), None)?.to_vec();
            let mode = mem.c_string(arg(1), None)?.to_vec();
            // The old stream is closed first (its errors are ignored).
            match h {
                Handle::Std(Stream::Stdout) => {
                    if let Some(fd) = files.stdout_to.take() {
                        files.fds[fd] = None;
                    }
                }
                Handle::Std(_) => return Err(Ub::BadLibcCall),
                Handle::Fd(fd) => files.fds[fd] = None,
            }
            match files.open_name(mem, &name, &mode)? {
                None => {
                    if h == Handle::Std(Stream::Stdout) {
                        files.stdout_closed = true;
                    } else if let Handle::Fd(_) = h {
                        mem.release_libc_object(arg(2))?;
                    }
                    0
                }
                Some((fd, mut open)) => {
                    open.object = arg(2);
                    match h {
                        Handle::Std(_) => {
                            // stdout keeps its object (descriptor byte 1) and writes to `fd`.
                            open.object = 0;
                            files.stdout_to = Some(fd);
                            files.stdout_closed = false;
                            files.install(fd, open);
                        }
                        Handle::Fd(old) => {
                            // The object keeps its descriptor byte: reuse the old slot.
                            files.install(old, open);
                        }
                    }
                    arg(2)
                }
            }
        }
        FileFn::Fclose => match files.handle(mem, arg(0))? {
            Handle::Std(Stream::Stdout) => {
                if let Some(fd) = files.stdout_to.take() {
                    files.fds[fd] = None;
                }
                files.stdout_closed = true;
                0
            }
            // Closing stdin or stderr: their later use is not modelled.
            Handle::Std(_) => return Err(Ub::BadLibcCall),
            Handle::Fd(fd) => {
                files.fds[fd] = None;
                mem.release_libc_object(arg(0))?;
                0
            }
        },
        FileFn::Remove => {
            let name = mem.c_string(arg(0), None)?.to_vec();
            match files.names.remove(&name) {
                Some(_) => 0,
                None => {
                    files.set_errno(mem, ENOENT)?;
                    u64::MAX
                }
            }
        }
        FileFn::Fgets => {
            let n = arg(1) as u32 as i32;
            let fd = files.readable(mem, arg(2))?;
            if n <= 0 {
                return Ok(0);
            }
            let bytes = files.read_fd(fd, n as usize - 1, true)?;
            if bytes.is_empty() && n > 1 {
                return Ok(0);
            }
            for (i, &b) in bytes.iter().chain(&[0]).enumerate() {
                mem.store(arg(0).wrapping_add(i as u64), 1, u64::from(b))?;
            }
            arg(0)
        }
        FileFn::Fgetc | FileFn::Getc => {
            let fd = files.readable(mem, arg(0))?;
            match files.read_fd(fd, 1, false)?.first() {
                Some(&b) => u64::from(b),
                None => EOF,
            }
        }
        FileFn::Fread => {
            let (size, n) = (arg(1), arg(2));
            let fd = files.readable(mem, arg(3))?;
            let total = size.checked_mul(n).ok_or(Ub::BadLibcCall)?;
            if total == 0 {
                return Ok(0);
            }
            let bytes = files.read_fd(fd, total as usize, false)?;
            for (i, &b) in bytes.iter().enumerate() {
                mem.store(arg(0).wrapping_add(i as u64), 1, u64::from(b))?;
            }
            bytes.len() as u64 / size
        }
        FileFn::Fscanf => {
            let fd = files.readable(mem, arg(0))?;
            super::libc_scanf::fscanf(mem, files_reader(files, fd), arg(1), &args[2..], ptr_bytes)?
        }
        FileFn::Feof | FileFn::Ferror => match files.handle(mem, arg(0))? {
            Handle::Std(_) => 0,
            Handle::Fd(fd) => {
                let o = files.open_mut(fd)?;
                u64::from(if f == FileFn::Feof { o.eof } else { o.error })
            }
        },
        FileFn::Rewind => {
            if let Handle::Fd(fd) = files.handle(mem, arg(0))? {
                let o = files.open_mut(fd)?;
                o.pos = 0;
                o.eof = false;
                o.error = false;
                o.dirty = false;
            }
            0
        }
        FileFn::Ftell => match files.handle(mem, arg(0))? {
            Handle::Std(_) => return Err(Ub::BadLibcCall),
            Handle::Fd(fd) => files.open_mut(fd)?.pos as u64,
        },
        FileFn::Fseek => {
            let Handle::Fd(fd) = files.handle(mem, arg(0))? else {
                return Err(Ub::BadLibcCall);
            };
            let off = signed_long(arg(1), ptr_bytes);
            let end = files
                .open_mut(fd)?
                .inode
                .map_or(0, |i| files.inodes[i].len()) as i64;
            let o = files.open_mut(fd)?;
            let from = match arg(2) as u32 {
                0 => 0,
                1 => o.pos as i64,
                2 => end,
                _ => {
                    files.set_errno(mem, EINVAL)?;
                    return Ok(u64::MAX);
                }
            };
            let Some(to) = from.checked_add(off).filter(|&t| t >= 0) else {
                files.set_errno(mem, EINVAL)?;
                return Ok(u64::MAX);
            };
            o.pos = to as usize;
            o.eof = false;
            o.dirty = false;
            0
        }
        FileFn::Perror => {
            if arg(0) != 0 {
                mem.c_string(arg(0), None)?;
            }
            0
        }
        FileFn::Fprintf => {
            let h = files.handle(mem, arg(0))?;
            let mut text = Stdout::new(FORMAT_MAX_BYTES);
            let n = printf(mem, &mut text, arg(1), &args[2..], ptr_bytes)?;
            files.write(out, h, &text.into_bytes())?;
            n
        }
        FileFn::Fputs => {
            let h = files.handle(mem, arg(1))?;
            let text = mem.c_string(arg(0), None)?.to_vec();
            files.write(out, h, &text)?;
            1
        }
        FileFn::Fputc | FileFn::Putc => {
            let h = files.handle(mem, arg(1))?;
            let c = arg(0) as u8;
            files.write(out, h, &[c])?;
            u64::from(c)
        }
        FileFn::Fwrite => {
            let (size, n) = (arg(1), arg(2));
            let h = files.handle(mem, arg(3))?;
            let total = size.checked_mul(n).ok_or(Ub::BadLibcCall)?;
            let bytes = mem.read_bytes(arg(0), total)?.to_vec();
            files.write(out, h, &bytes)?;
            if size == 0 {
                0
            } else {
                n
            }
        }
        FileFn::Fflush => {
            if arg(0) == 0 {
                for o in files.fds.iter_mut().flatten() {
                    o.dirty = false;
                }
            } else {
                match files.handle(mem, arg(0))? {
                    Handle::Std(Stream::Stdout) => {
                        if let Some(fd) = files.stdout_to {
                            files.open_mut(fd)?.dirty = false;
                        }
                    }
                    Handle::Std(_) => {}
                    Handle::Fd(fd) => files.open_mut(fd)?.dirty = false,
                }
            }
            0
        }
        FileFn::Open => {
            let name = mem.c_string(arg(0), None)?.to_vec();
            let flags = arg(1) as u32;
            let mode: &[u8] = match (flags & 3, flags & 0o100 != 0, flags & 0o1000 != 0) {
                (0, _, _) => b"r",
                (1, true, true) => b"w",
                (2, false, false) => b"r+",
                (2, true, true) => b"w+",
                _ => return Err(Ub::BadLibcCall),
            };
            match files.open_name(mem, &name, mode)? {
                None => u64::MAX,
                Some((fd, open)) => {
                    files.install(fd, open);
                    fd as u64
                }
            }
        }
    })
}

/// A `long` argument (`fseek`'s offset) as a signed value.
fn signed_long(bits: u64, ptr_bytes: u32) -> i64 {
    if ptr_bytes == 4 {
        i64::from(bits as u32 as i32)
    } else {
        bits as i64
    }
}

/// The byte source `fscanf` reads from: descriptor `fd` of `files`.
fn files_reader(files: &mut Files, fd: usize) -> FdReader<'_> {
    FdReader { files, fd }
}

/// Reads descriptor `fd` byte by byte for `fscanf`.
pub(crate) struct FdReader<'f> {
    files: &'f mut Files,
    fd: usize,
}

impl super::libc_scanf::ByteSource for FdReader<'_> {
    fn peek(&mut self) -> Result<Option<u8>, Ub> {
        self.files.peek_fd(self.fd)
    }

    fn next(&mut self) -> Result<Option<u8>, Ub> {
        Ok(self.files.read_fd(self.fd, 1, false)?.first().copied())
    }
}
