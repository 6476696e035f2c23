//! phicc's own headers (`compiler/include`), compiled into the binary.
//!
//! Why: a phicc or phihunt binary must compile C with the headers it was built with. Read
//! from the source tree at run time, a long hunt started before a change to `stdio.h`
//! refused every program after it (the headers no longer matched the binary's front end),
//! and an installed binary depended on a checkout staying where it was built.
//!
//! Invariants:
//! - the search still names the headers by their path under `own_include_dir()` (what
//!   diagnostics print), and a name found here wins over the file on disk;
//! - every file of `compiler/include` is embedded (a test compares the directory with
//!   [`HEADERS`]).

use std::path::Path;

/// Every own header: (file name, text).
pub const HEADERS: [(&str, &str); 20] = [
    ("assert.h", include_str!("../../../include/assert.h")),
    ("ctype.h", include_str!("../../../include/ctype.h")),
    ("float.h", include_str!("../../../include/float.h")),
    ("alloca.h", include_str!("../../../include/alloca.h")),
    ("limits.h", include_str!("../../../include/limits.h")),
    ("math.h", include_str!("../../../include/math.h")),
    ("setjmp.h", include_str!("../../../include/setjmp.h")),
    ("stdarg.h", include_str!("../../../include/stdarg.h")),
    ("stdbool.h", include_str!("../../../include/stdbool.h")),
    ("stddef.h", include_str!("../../../include/stddef.h")),
    ("stdint.h", include_str!("../../../include/stdint.h")),
    ("stdio.h", include_str!("../../../include/stdio.h")),
    ("stdlib.h", include_str!("../../../include/stdlib.h")),
    ("string.h", include_str!("../../../include/string.h")),
    ("errno.h", include_str!("../../../include/errno.h")),
    ("fcntl.h", include_str!("../../../include/fcntl.h")),
    ("signal.h", include_str!("../../../include/signal.h")),
    ("sys/mman.h", include_str!("../../../include/sys/mman.h")),
    ("sys/stat.h", include_str!("../../../include/sys/stat.h")),
    ("sys/types.h", include_str!("../../../include/sys/types.h")),
];

/// The embedded text of `path` when it names one of phicc's own headers.
pub fn own_header(path: &Path) -> Option<&'static str> {
    let dir = crate::compile_c::own_include_dir();
    let name = path.strip_prefix(&dir).ok()?.to_str()?;
    HEADERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_include_directory_is_embedded_as_it_is() {
        let dir = crate::compile_c::own_include_dir();
        // The files of the directory and of its subdirectories (`sys/`), by relative path.
        let mut on_disk: Vec<String> = Vec::new();
        let mut pending = vec![dir.clone()];
        while let Some(d) = pending.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    let relative = path.strip_prefix(&dir).unwrap();
                    on_disk.push(relative.to_string_lossy().into_owned());
                }
            }
        }
        on_disk.sort();
        let mut embedded: Vec<String> = HEADERS.iter().map(|(n, _)| n.to_string()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded, "compiler/include and HEADERS differ");
        for (name, text) in HEADERS {
            assert_eq!(
                std::fs::read_to_string(dir.join(name)).unwrap(),
                text,
                "{name}"
            );
            assert_eq!(own_header(&dir.join(name)), Some(text));
        }
        assert_eq!(own_header(&dir.join("nosuch.h")), None);
        assert_eq!(own_header(Path::new("/usr/include/stdio.h")), None);
    }
}
