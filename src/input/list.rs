//! `--files-from` and `--files-from0`: the files to search, read from a list.
//!
//! A job scheduler (`xargs -P`, Slurm or Kubernetes array jobs, Spark's
//! `pipe`) hands each worker a shard of a file list; the paths read here
//! become operands, after those typed on the command line, so output and
//! exit status are exactly those of `gpugrep PATTERN PATH...` (a missing
//! file is `PATH: No such file or directory` and exit 2, the rest still
//! searched). Lines are paths byte for byte: no quoting, no trimming of
//! spaces; empty entries are skipped. A path holding a newline needs the
//! NUL-separated form (`find -print0`).

use std::ffi::{OsStr, OsString};
use std::io::{self, Read};

/// The paths listed in `list` (`-`: standard input), split at `separator`.
pub fn read(list: &OsStr, separator: u8) -> io::Result<Vec<OsString>> {
    let data = if list == "-" {
        let mut data = Vec::new();
        io::stdin().lock().read_to_end(&mut data)?;
        data
    } else {
        std::fs::read(list)?
    };
    Ok(split(&data, separator))
}

/// The non-empty entries of `data` between `separator`s.
fn split(data: &[u8], separator: u8) -> Vec<OsString> {
    use std::os::unix::ffi::OsStringExt;
    data.split(|&b| b == separator)
        .filter(|entry| !entry.is_empty())
        .map(|entry| OsString::from_vec(entry.to_vec()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_split_byte_for_byte() {
        assert_eq!(
            split(b"a b\n\n c\r\nd", b'\n'),
            ["a b", " c\r", "d"].map(OsString::from)
        );
        assert_eq!(
            split(b"new\nline\0x\0\0", 0),
            ["new\nline", "x"].map(OsString::from)
        );
        assert!(split(b"", b'\n').is_empty());
    }
}
