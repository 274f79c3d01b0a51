//! One directory of a tree, listed in name order: the unit of work of the
//! ordered parallel walk (`run::ordered`), where each directory is listed
//! by whichever search thread is free and the printer puts the pieces back
//! in the order one thread would have walked them.
//!
//! It gives what the name-sorted walk (`walk_dir`) gives for the same
//! directory under grep's rules without `-R` and `--gitignore` (which stay
//! with the walker): regular files that pass `--include`/`--exclude`,
//! subdirectories that pass `--exclude-dir`, symbolic links, devices,
//! FIFOs and sockets left out, an unreadable directory reported in its
//! place. Entries are sorted by name as bytes, which is the walk's order
//! (it compares sibling paths as bytes).

use super::{found_file, long_items, path_error, Filters, Item};
use crate::config::{os_to_bytes, Config};
use std::os::unix::fs::DirEntryExt;
use std::path::{Path, PathBuf};

/// One entry of a listed directory, in name order.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A file to search, or an error in its place.
    Item(Item),
    /// A subdirectory to list in turn.
    Dir(PathBuf),
}

/// The entries of `dir`, in the order the name-sorted walk gives them: the
/// order `run::ordered` puts what [`read`] streams in (tests compare it
/// with the walker's).
#[cfg(test)]
pub(crate) fn list(cfg: &Config, filters: &Filters, dir: &Path) -> Vec<Entry> {
    let mut found = Vec::new();
    match read(cfg, filters, dir, |entry| found.push(entry)) {
        Read::Whole(entries) => entries,
        Read::Streamed { errors } => {
            // Siblings share `dir/`: their paths compare as their names do.
            found.sort_by(|a, b| path_bytes(a).cmp(path_bytes(b)));
            found.extend(errors);
            found
        }
    }
}

/// How a directory was read.
pub(crate) enum Read {
    /// Its entries went to the caller one by one, unsorted; these errors
    /// go after them once sorted.
    Streamed { errors: Vec<Entry> },
    /// The whole listing, already in order (a directory that could not be
    /// read, or one walked piece by piece for its path's length).
    Whole(Vec<Entry>),
}

/// Hands each entry of `dir` to `each` as the directory gives it
/// (unsorted), so a caller may start on a large directory's files before
/// the whole directory is read.
pub(crate) fn read(
    cfg: &Config,
    filters: &Filters,
    dir: &Path,
    mut each: impl FnMut(Entry),
) -> Read {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        // Too long a path to open whole: walked piece by piece, as the
        // walker does.
        Err(e) if crate::input::long_path::too_long(&e) => {
            let items = long_items(cfg, filters, dir);
            return Read::Whole(items.into_iter().map(Entry::Item).collect());
        }
        Err(e) => return Read::Whole(vec![Entry::Item(path_error(dir, &e))]),
    };
    let mut errors = Vec::new();
    for entry in read {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                errors.push(Entry::Item(path_error(dir, &e)));
                continue;
            }
        };
        // The entry's type as the directory gives it (an `lstat` only
        // where the file system does not say): links are not followed.
        let kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(e) => {
                errors.push(Entry::Item(path_error(&entry.path(), &e)));
                continue;
            }
        };
        if kind.is_dir() {
            let name = os_to_bytes(entry.file_name());
            if filters.dir_ok(&name, false) {
                each(Entry::Dir(entry.path()));
            }
        } else if kind.is_file() {
            if let Some(item) = found_file(cfg, filters, entry.path(), Some(entry.ino())) {
                each(Entry::Item(item));
            }
        }
    }
    Read::Streamed { errors }
}

/// The entry's path as bytes.
pub(crate) fn path_bytes(entry: &Entry) -> &[u8] {
    match entry {
        Entry::Dir(path) => path.as_os_str().as_encoded_bytes(),
        Entry::Item(Item::Input(input)) => input
            .path
            .as_deref()
            .map_or(&[], |p| p.as_os_str().as_encoded_bytes()),
        Entry::Item(Item::Error(_)) => &[],
    }
}
