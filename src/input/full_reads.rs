//! Whether a short read of a file found in a tree is its end.
//!
//! A small file is read whole with `read` until it returns 0: open, read,
//! read, close. The last read only says "end" where the one before already
//! returned less than asked, and on the file systems named here a read of a
//! regular file returns less than asked only at the end (their reads go
//! through the page cache, which fills the buffer up to the end of the
//! file; overlayfs forwards each read to the layer the file lies on). So
//! there a short read ends the file and the closing read is spared: a
//! quarter of the system calls for 100,000 small log files (2 threads, dev
//! VM, `-n FATAL`: 0.340 → 0.292 s, rg 0.425 s). Elsewhere — FUSE, network
//! and pseudo file systems (`/proc`, `/sys`), where a read may return part
//! of what is there — the file is read until a read returns 0, as always.
//!
//! The file system is asked (`statfs`) for the file's directory, once for
//! a thread's run of files in one directory: the walk hands out a
//! directory's files in batches.

use std::cell::RefCell;
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// `statfs`'s `f_type` of the file systems whose reads of regular files are
/// short only at the end (`linux/magic.h`): ext2/3/4, XFS, Btrfs, tmpfs,
/// F2FS, ZFS, overlayfs.
const FILLING: [u32; 7] = [
    0xEF53,
    0x5846_5342,
    0x9123_683E,
    0x0102_1994,
    0xF2F5_2010,
    0x2FC1_2FC1,
    0x794C_7630,
];

thread_local! {
    /// The directory last asked about on this thread, and the answer.
    static LAST: RefCell<Option<(PathBuf, bool)>> = const { RefCell::new(None) };
}

/// Whether a read of the regular file at `path` that returns less than
/// asked means its end: its directory lies on a file system of [`FILLING`].
pub fn short_read_ends(path: &Path) -> bool {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((asked, answer)) if asked == dir => *answer,
            _ => {
                let answer = fills_reads(dir);
                *last = Some((dir.to_path_buf(), answer));
                answer
            }
        }
    })
}

/// Whether `dir` lies on a file system of [`FILLING`] (false where it
/// cannot be asked).
fn fills_reads(dir: &Path) -> bool {
    let Ok(c) = CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: statfs reads a NUL-terminated path and writes one `statfs`
    // struct, zeroed here (a valid value for its plain integer fields).
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above; `st` lives across the call.
    if unsafe { libc::statfs(c.as_ptr(), &mut st) } != 0 {
        return false;
    }
    // `f_type`'s width differs between targets; the magic is its low 32 bits.
    FILLING.contains(&(st.f_type as u64 as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pseudo_file_systems_are_read_to_a_zero_read() {
        // procfs and sysfs: a read may return part of what is there.
        assert!(!short_read_ends(Path::new("/proc/self/status")));
        assert!(!short_read_ends(Path::new("/proc/1/status")));
        assert!(!fills_reads(Path::new("/sys/kernel")));
        assert!(!fills_reads(Path::new("/no/such/directory")));
    }

    #[test]
    fn files_take_their_directorys_answer() {
        let dir = tempfile::tempdir().unwrap();
        let answer = fills_reads(dir.path());
        for name in ["a", "b", "c"] {
            assert_eq!(short_read_ends(&dir.path().join(name)), answer);
        }
        // The next directory is asked anew.
        assert!(!short_read_ends(Path::new("/proc/self/status")));
        assert_eq!(short_read_ends(&dir.path().join("d")), answer);
    }
}
