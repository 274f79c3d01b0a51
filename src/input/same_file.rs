//! "input file is also the output": `grep -r x . > out.txt` must not search
//! `out.txt`, which grows as it is read (the search could fill the disk).
//!
//! As GNU grep does: when standard output is a regular file and lines are
//! printed (not `-c`, `-l`, `-L`, `-q`, nor `-m 1`, which cannot loop), an
//! input with the output's device and inode is skipped with that message
//! (exit status 2). The check costs one `stat` per input, and only when
//! standard output is a regular file; files found in a tree are checked by
//! the walker (`walk::found_file`), which stats only those whose directory
//! entry has the output's inode, as ripgrep does (a file bind-mounted over
//! a tree's entry shows the entry's inode there, and is not caught).

use super::walk::Input;
use crate::config::{Config, Mode};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The output file's identity (device, inode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputFile {
    dev: u64,
    ino: u64,
}

/// The file standard output writes to, when inputs must be checked
/// against it.
pub fn output_file(cfg: &Config) -> Option<OutputFile> {
    let prints_lines = cfg.mode == Mode::Lines && cfg.max_count.is_none_or(|m| m > 1);
    if !prints_lines || crate::stdio::stdout_closed() {
        return None;
    }
    let (dev, ino, regular) = fstat(1)?;
    regular.then_some(OutputFile { dev, ino })
}

impl OutputFile {
    /// `path` (followed through links, as it will be opened) is the output.
    pub fn is(&self, path: &Path) -> bool {
        std::fs::metadata(path)
            .is_ok_and(|m| m.is_file() && (m.dev(), m.ino()) == (self.dev, self.ino))
    }

    /// A file whose directory entry has inode `ino` (`None`: not known)
    /// may be the output: worth a `stat`.
    pub fn may_be(&self, ino: Option<u64>) -> bool {
        ino.is_none_or(|ino| ino == self.ino)
    }

    /// Standard input is the output.
    pub fn is_stdin(&self) -> bool {
        fstat(0).is_some_and(|(dev, ino, regular)| regular && (dev, ino) == (self.dev, self.ino))
    }

    /// `input` (a file, or standard input) is the output.
    pub fn is_input(&self, input: &Input) -> bool {
        match &input.path {
            Some(path) => self.is(path),
            None => self.is_stdin(),
        }
    }
}

/// Device, inode and whether `fd` is a regular file.
fn fstat(fd: i32) -> Option<(u64, u64, bool)> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstat writes a whole `stat` into `st` when it returns 0.
    let st = unsafe {
        if libc::fstat(fd, st.as_mut_ptr()) != 0 {
            return None;
        }
        st.assume_init()
    };
    let regular = st.st_mode & libc::S_IFMT == libc::S_IFREG;
    Some((st.st_dev, st.st_ino, regular))
}

/// The message for an input that is the output (without the program name).
pub fn message(display: &str) -> String {
    format!("{display}: input file is also the output")
}
