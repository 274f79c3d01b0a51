//! A directory kept open while its files are searched, so that each file
//! is opened by its name in it (`openat`) rather than by its whole path.
//!
//! Opening a file by path makes the kernel look up every component again:
//! over 20,512 files in one directory that lookup was 6-8 % of all the
//! CPU time of a search (`__d_lookup_rcu`, `link_path_walk`), as it is
//! ripgrep's. The ordered walk lists a directory once and hands its files
//! to the search threads in batches; the files of a directory with at
//! least [`MIN_FILES`] of them carry its handle (`Input::dir`). At most
//! [`MOST_OPEN`] directories are held open at once, so that a walk never
//! takes the descriptors its files need; past that, files are opened by
//! path as before.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A directory with fewer files is not opened: its own `open` and `close`
/// would cost about what its files' lookups save.
pub(crate) const MIN_FILES: usize = 4;

/// Directories held open at once, at most.
const MOST_OPEN: usize = 64;

static OPEN: AtomicUsize = AtomicUsize::new(0);

/// An open directory, shared by the inputs found in it.
#[derive(Clone)]
pub struct DirFd(Arc<Held>);

struct Held(OwnedFd);

impl Drop for Held {
    fn drop(&mut self) {
        OPEN.fetch_sub(1, Ordering::Relaxed);
    }
}

impl DirFd {
    /// `dir`, opened, unless [`MOST_OPEN`] directories are open already or
    /// it cannot be opened (its files are then opened by path).
    pub(crate) fn open(dir: &Path) -> Option<DirFd> {
        if OPEN.fetch_add(1, Ordering::Relaxed) >= MOST_OPEN {
            OPEN.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
        let fd = CString::new(dir.as_os_str().as_bytes())
            .ok()
            // SAFETY: a NUL-terminated path; the descriptor returned, if
            // any, is owned by the `OwnedFd` made of it and by nothing else.
            .map(|c| unsafe { libc::open(c.as_ptr(), flags) })
            .filter(|&fd| fd >= 0);
        match fd {
            // SAFETY: `fd` was just opened here and is not owned elsewhere.
            Some(fd) => Some(DirFd(Arc::new(Held(unsafe { OwnedFd::from_raw_fd(fd) })))),
            None => {
                OPEN.fetch_sub(1, Ordering::Relaxed);
                None
            }
        }
    }

    /// Opens file `name` of this directory for reading.
    pub(crate) fn open_file(&self, name: &OsStr) -> io::Result<File> {
        let name = CString::new(name.as_bytes()).map_err(io::Error::other)?;
        let flags = libc::O_RDONLY | libc::O_CLOEXEC;
        // SAFETY: the directory's descriptor is open while `self` lives, and
        // `name` is NUL-terminated.
        let fd = unsafe { libc::openat(self.0 .0.as_raw_fd(), name.as_ptr(), flags) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened here and is not owned elsewhere.
        Ok(unsafe { File::from_raw_fd(fd) })
    }
}

/// Inputs compare by what they name: two handles are equal when they are
/// the same open directory.
impl PartialEq for DirFd {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for DirFd {}

impl std::fmt::Debug for DirFd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DirFd({})", self.0 .0.as_raw_fd())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_file_opened_in_its_directory_reads_what_its_path_reads() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a b"), "text\n").unwrap();
        let held = DirFd::open(dir.path()).unwrap();
        let mut text = String::new();
        held.open_file(OsStr::new("a b"))
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "text\n");
        let missing = held.open_file(OsStr::new("none")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert_eq!(held.clone(), held);
        assert_ne!(DirFd::open(dir.path()).unwrap(), held);
    }

    #[test]
    fn no_more_than_the_most_directories_are_held_open() {
        let dir = tempfile::tempdir().unwrap();
        let held: Vec<DirFd> = (0..MOST_OPEN + 8)
            .filter_map(|_| DirFd::open(dir.path()))
            .collect();
        // Other tests may hold some at the same time.
        assert!(held.len() <= MOST_OPEN);
        drop(held);
        assert!(DirFd::open(dir.path()).is_some());
    }
}
