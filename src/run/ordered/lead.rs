//! How far the search threads are ahead of the printer: results found
//! and not yet printed, counted in files and in the bytes of output they
//! hold. Either bound makes threads wait: 4,096 files of dense `-n` output
//! (20,000 files of 840 KB prose, most lines matching) held 3 GB where
//! ripgrep, which prints from the searching threads, needed 55 MB.

use crate::run::one::FileResult;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Output bytes that may wait to be printed.
const BYTES_AHEAD: usize = 64 << 20;

pub(super) struct Lead {
    files: AtomicUsize,
    bytes: AtomicUsize,
}

impl Lead {
    /// The lead of results known before the search (operands' errors).
    pub(super) fn new<'r>(known: impl Iterator<Item = &'r io::Result<FileResult>>) -> Lead {
        let lead = Lead {
            files: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
        };
        known.for_each(|r| lead.add(r));
        lead
    }

    /// A result a search thread found, waiting for the printer now.
    pub(super) fn add(&self, result: &io::Result<FileResult>) {
        let bytes = result.as_ref().map_or(0, |r| r.out.len());
        self.bytes.fetch_add(bytes, Ordering::AcqRel);
        self.files.fetch_add(1, Ordering::AcqRel);
    }

    /// One result (holding `bytes` of output) is being printed.
    pub(super) fn printed(&self, bytes: usize) {
        self.files.fetch_sub(1, Ordering::AcqRel);
        self.bytes.fetch_sub(bytes, Ordering::AcqRel);
    }

    /// More than `files` files' results, or more than [`BYTES_AHEAD`] of
    /// output, wait to be printed.
    pub(super) fn too_far(&self, files: usize) -> bool {
        self.files.load(Ordering::Acquire) > files || self.too_many_bytes()
    }

    /// More than [`BYTES_AHEAD`] of output waits to be printed.
    pub(super) fn too_many_bytes(&self) -> bool {
        self.bytes.load(Ordering::Acquire) > BYTES_AHEAD
    }
}
