//! Each search thread's read buffer, reused from file to file, and when
//! its grown part goes back to the system.
//!
//! A file is read into the buffer's first [`FIRST_BLOCK`]; one that fills
//! it streams on through that block (`stream.rs`), and the buffer grows
//! only for a line carried over that is longer than half a block, kept
//! for the next such file. Until the sixty-first session files of up to 256 KiB
//! were read whole, growing the buffer to a block and a half (384 KiB): in
//! a tree of small files with a few large ones (20,512 prose files, 124
//! over 64 KiB), each of 16 threads soon read one and then held 320 KiB it
//! did not use again: 5 MiB of a 30 MB peak that ripgrep (12 MB) kept to
//! 64 KiB a thread. Freeing the grown buffer did
//! not lower the peak (the allocator keeps freed pages resident), so once
//! [`RELEASE_AFTER`] files in a row did not use the grown part, its pages
//! are handed back (`MADV_DONTNEED`) and the allocation kept: a thread
//! that keeps reading large files keeps its pages (a page fault for each
//! 4 KiB again would cost about as much as the read), one that went back
//! to small files gives them up. With [`KEEP_UP_TO_THREADS`] search
//! threads or fewer the grown parts are never handed back: there the
//! refaults cost more than the little memory they free.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};

/// What a thread's buffer holds at first and between files: a file is read
/// into it, and only one that fills it grows it, by a stream's block
/// ([`super::haystack::STREAM_CHUNK`]) and the line carried across blocks
/// (ripgrep's line buffer also starts at 64 KiB).
pub const FIRST_BLOCK: usize = 64 * 1024;

/// Files in a row that did not use the grown part before its pages are
/// handed back: one madvise and a refault of the grown part at most once
/// in this many files.
const RELEASE_AFTER: u32 = 32;

/// Search threads up to which grown parts are kept, not handed back (four
/// threads held at most 1.25 MiB of them with 384 KiB buffers, and hold
/// less now). The Linux tree (20,061 files, 404 over 64 KiB), `-j2 -n -F`,
/// 384 KiB buffers: 104-116 releases in a run, refaulted by the
/// next large file's read (2,300 of 3,400 page faults, rg 780); 81 → 78 ms
/// without them, rg 86 ms, peak memory unchanged (8.6 / 8.3 MB). At 16
/// threads they keep 2 MB of a 24 MB peak (20,516 prose files).
const KEEP_UP_TO_THREADS: usize = 4;

/// Whether grown parts are handed back at all (more than
/// [`KEEP_UP_TO_THREADS`] search threads); set by [`set_threads`].
static RELEASES: AtomicBool = AtomicBool::new(true);

/// The run's search threads, before they start.
pub fn set_threads(threads: usize) {
    RELEASES.store(threads > KEEP_UP_TO_THREADS, Ordering::Relaxed);
}

thread_local! {
    /// Each thread's read buffer, reused from file to file.
    static READ_BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Files since the grown part was last used, and whether its pages
    /// are resident (used since last handed back).
    static SINCE_TAIL: Cell<(u32, bool)> = const { Cell::new((0, false)) };
}

/// The thread's read buffer, given back when dropped (unless it grew huge).
/// `.1`: this file used bytes past [`FIRST_BLOCK`].
pub struct Recycled(pub Vec<u8>, bool);

impl Recycled {
    pub fn take() -> Recycled {
        Recycled(
            READ_BUF.with(|b| std::mem::take(&mut *b.borrow_mut())),
            false,
        )
    }

    /// This file reads or writes the buffer past [`FIRST_BLOCK`].
    pub fn uses_tail(&mut self) {
        self.1 = true;
    }

    /// Whether this file was said to use the buffer past [`FIRST_BLOCK`].
    #[cfg(test)]
    pub fn used_tail(&self) -> bool {
        self.1
    }
}

impl Drop for Recycled {
    fn drop(&mut self) {
        if self.0.capacity() > 64 << 20 {
            return;
        }
        let mut buf = std::mem::take(&mut self.0);
        let (since, resident) = SINCE_TAIL.get();
        let next = match (self.1, resident) {
            (true, _) => (0, true),
            (false, true)
                if since + 1 >= RELEASE_AFTER
                    && buf.len() > FIRST_BLOCK
                    && RELEASES.load(Ordering::Relaxed) =>
            {
                crate::input::source::release_scratch(&mut buf[FIRST_BLOCK..]);
                (0, false)
            }
            (false, true) => (since + 1, true),
            (false, false) => (since, false),
        };
        SINCE_TAIL.set(next);
        READ_BUF.with(|b| *b.borrow_mut() = buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the thread's buffer tail is resident after `files` files
    /// that used it as `used` says.
    fn resident_after(used: &[bool]) -> bool {
        for &u in used {
            let mut buf = Recycled::take();
            if buf.0.len() < 2 * FIRST_BLOCK {
                buf.0.resize(2 * FIRST_BLOCK, 0);
            }
            if u {
                buf.uses_tail();
                buf.0[FIRST_BLOCK..].fill(7);
            }
        }
        SINCE_TAIL.get().1
    }

    #[test]
    fn a_grown_buffer_unused_for_a_while_is_released_and_reads_as_zeros() {
        let mut files = vec![true];
        files.extend(std::iter::repeat_n(false, RELEASE_AFTER as usize - 1));
        assert!(resident_after(&files), "kept while recently used");
        assert!(!resident_after(&[false]), "released after the run");
        let buf = Recycled::take();
        assert_eq!(buf.0.len(), 2 * FIRST_BLOCK, "the allocation is kept");
        // Whole pages read as zeros (the bytes before the first page
        // boundary are kept).
        let tail = &buf.0[FIRST_BLOCK..];
        let (start, len) = crate::input::source::whole_pages(tail).unwrap();
        let skip = start - tail.as_ptr() as usize;
        assert!(tail[skip..skip + len].iter().all(|&b| b == 0));
        drop(buf);
        assert!(resident_after(&[true]), "used again: resident");
        // With few threads (the only test that sets it: the default is
        // restored before the end) the grown part stays however long unused.
        set_threads(KEEP_UP_TO_THREADS);
        let kept = resident_after(&vec![false; 4 * RELEASE_AFTER as usize]);
        set_threads(KEEP_UP_TO_THREADS + 1);
        assert!(kept, "a run of few threads never hands the grown part back");
        assert!(
            !resident_after(&vec![false; RELEASE_AFTER as usize]),
            "many threads do"
        );
    }
}
