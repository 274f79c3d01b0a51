//! Paths longer than `PATH_MAX` (4,096 bytes on Linux), which the kernel
//! refuses whole ("File name too long"): GNU grep walks such trees with
//! `openat` relative to each directory, and so does this module where the
//! directory walker gives up. A long path is opened a few thousand bytes
//! at a time, each piece relative to the directory the previous one
//! opened; a directory whose path is too long is listed (and descended)
//! through its descriptor. Only these paths take this way: everything else
//! is opened by name as before.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};

/// The most bytes given to one `openat` (well below `PATH_MAX`).
const PIECE: usize = 2048;

/// The error the kernel gives for a path too long (also when wrapped, as
/// the directory walker wraps it: its kind is that of ENAMETOOLONG alone).
pub fn too_long(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::ENAMETOOLONG) || e.kind() == io::ErrorKind::InvalidFilename
}

fn openat(dir: Option<&OwnedFd>, rel: &[u8], flags: i32) -> io::Result<OwnedFd> {
    let c = CString::new(rel).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    let at = dir.map_or(libc::AT_FDCWD, |d| d.as_raw_fd());
    // SAFETY: `c` is a NUL-terminated path; the descriptor returned is
    // owned by the OwnedFd.
    let fd = unsafe { libc::openat(at, c.as_ptr(), flags | libc::O_CLOEXEC) };
    match fd {
        -1 => Err(io::Error::last_os_error()),
        fd => Ok(unsafe { OwnedFd::from_raw_fd(fd) }),
    }
}

/// Opens `path` piece by piece; the last piece with `flags`.
fn open_pieces(path: &Path, flags: i32) -> io::Result<OwnedFd> {
    let mut dir: Option<OwnedFd> = None;
    let mut piece: Vec<u8> = Vec::new();
    let parts: Vec<Component> = path.components().collect();
    for (i, part) in parts.iter().enumerate() {
        let bytes: &[u8] = match part {
            Component::RootDir => b"/",
            other => other.as_os_str().as_bytes(),
        };
        if !piece.is_empty() && piece.len() + bytes.len() + 1 > PIECE {
            dir = Some(openat(
                dir.as_ref(),
                &piece,
                libc::O_PATH | libc::O_DIRECTORY,
            )?);
            piece.clear();
        }
        if !piece.is_empty() && !piece.ends_with(b"/") {
            piece.push(b'/');
        }
        piece.extend_from_slice(bytes);
        if i + 1 == parts.len() {
            return openat(dir.as_ref(), &piece, flags);
        }
    }
    Err(io::Error::from_raw_os_error(libc::ENOENT))
}

/// Opens a file for reading however long its path is.
pub fn open_file(path: &Path) -> io::Result<File> {
    open_pieces(path, libc::O_RDONLY).map(File::from)
}

/// What a directory entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Other,
}

/// The entries of the directory at `path` (not `.` and `..`), by name.
fn list(path: &Path, follow_links: bool) -> io::Result<Vec<(OsString, Kind)>> {
    let fd = open_pieces(path, libc::O_RDONLY | libc::O_DIRECTORY)?;
    let raw = fd.as_raw_fd();
    // SAFETY: fdopendir takes over a duplicate of the descriptor, which
    // closedir closes; readdir's entries are read before the next call.
    let mut out = Vec::new();
    unsafe {
        let dup = libc::fcntl(raw, libc::F_DUPFD_CLOEXEC, 0);
        if dup < 0 {
            return Err(io::Error::last_os_error());
        }
        let dir = libc::fdopendir(dup);
        if dir.is_null() {
            libc::close(dup);
            return Err(io::Error::last_os_error());
        }
        loop {
            let ent = libc::readdir(dir);
            if ent.is_null() {
                break;
            }
            let name = std::ffi::CStr::from_ptr((*ent).d_name.as_ptr());
            let bytes = name.to_bytes();
            if bytes == b"." || bytes == b".." {
                continue;
            }
            let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
            let flags = if follow_links {
                0
            } else {
                libc::AT_SYMLINK_NOFOLLOW
            };
            let kind = if libc::fstatat(raw, name.as_ptr(), st.as_mut_ptr(), flags) != 0 {
                Kind::Other
            } else {
                match st.assume_init().st_mode & libc::S_IFMT {
                    libc::S_IFREG => Kind::File,
                    libc::S_IFDIR => Kind::Dir,
                    _ => Kind::Other,
                }
            };
            out.push((OsString::from_vec(bytes.to_vec()), kind));
        }
        libc::closedir(dir);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Walks the tree at `root` depth first, entries by name, handing each
/// regular file to `file` and each error to `error`; `enter` says whether
/// to descend into a directory (its base name).
pub fn walk(
    root: &Path,
    follow_links: bool,
    enter: &dyn Fn(&OsStr) -> bool,
    file: &mut dyn FnMut(PathBuf),
    error: &mut dyn FnMut(PathBuf, io::Error),
) {
    match list(root, follow_links) {
        Err(e) => error(root.to_path_buf(), e),
        Ok(entries) => {
            for (name, kind) in entries {
                let path = root.join(&name);
                match kind {
                    Kind::File => file(path),
                    Kind::Dir if enter(&name) => walk(&path, follow_links, enter, file, error),
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_deeper_than_path_max_is_walked_and_read() {
        let root = tempfile::tempdir().unwrap();
        let name = "d".repeat(200);
        let mut path = root.path().to_path_buf();
        // Create it relative to each directory: the whole path is too long.
        let mut dir = File::open(root.path()).unwrap();
        for _ in 0..25 {
            let c = CString::new(name.as_bytes()).unwrap();
            // SAFETY: plain mkdirat/openat on descriptors owned here.
            unsafe {
                assert_eq!(libc::mkdirat(dir.as_raw_fd(), c.as_ptr(), 0o755), 0);
                let fd = libc::openat(
                    dir.as_raw_fd(),
                    c.as_ptr(),
                    libc::O_RDONLY | libc::O_DIRECTORY,
                );
                assert!(fd >= 0);
                dir = File::from_raw_fd(fd);
            }
            path.push(&name);
        }
        let c = CString::new("f").unwrap();
        // SAFETY: as above.
        unsafe {
            let fd = libc::openat(
                dir.as_raw_fd(),
                c.as_ptr(),
                libc::O_WRONLY | libc::O_CREAT,
                0o644,
            );
            assert!(fd >= 0);
            let mut f = File::from_raw_fd(fd);
            std::io::Write::write_all(&mut f, b"needle\n").unwrap();
        }
        assert!(path.as_os_str().len() > 4096);
        let mut files = Vec::new();
        walk(
            root.path(),
            false,
            &|_| true,
            &mut |p| files.push(p),
            &mut |p, e| panic!("{}: {e}", p.display()),
        );
        assert_eq!(files, vec![path.join("f")]);
        let text = std::io::read_to_string(open_file(&files[0]).unwrap()).unwrap();
        assert_eq!(text, "needle\n");
    }
}
