//! How a split file's map takes its pages in: one 4 KiB page a fault, or
//! many.
//!
//! A file whose page cache is made of single pages (on tmpfs, written in
//! small pieces: an appended log, or blocks written out of order) faults
//! its map in a page at a time, where a fault elsewhere maps the 64 KiB
//! around it or a whole large folio. Dev VM (kernel 6.18, `/dev/shm`), 2
//! threads, `-r -n -F ERROR` over 1 GiB of logs in 8 files: 240,000
//! faults, 0.34 s against rg's 0.21 s, which reads files; a copy of the
//! largest of them (written by `cp`) faulted 6,616 times for 101,609. Where
//! the map faults many pages at once it is the cheaper way in (GPU host,
//! the same search: 38 ms mapped, 48 ms read into buffers; rg 152 ms).
//!
//! So the thread that searches a piece through the map while nobody has
//! judged counts its own minor faults over it (`getrusage`): more than one
//! fault for every two pages says "a page at a time", and the rest of the
//! file's pieces are read from the file where they can be (`ReadFrom`) and
//! mapped in one call each (`source::populate_mapped`) where they cannot.
//! A wrong verdict costs speed, never an answer. `GPUGREP_MAP_PAGEWISE`
//! gives the verdict instead (tests and measurement).

use crate::input::source::page_size;
use std::sync::atomic::{AtomicU8, Ordering};

const UNKNOWN: u8 = 0;
const A_PAGE_AT_A_TIME: u8 = 1;
const MANY_AT_ONCE: u8 = 2;

/// Pieces smaller than this are not judged (a few faults for the output
/// would weigh as much as the map's).
const JUDGED_FROM: usize = 1 << 20;

/// The verdict on one file's map, shared by the threads searching it.
#[derive(Default)]
pub(super) struct MapFaults(AtomicU8);

impl MapFaults {
    /// No verdict yet, unless `GPUGREP_MAP_PAGEWISE` gives one.
    pub(super) fn new() -> MapFaults {
        let verdict = match crate::knobs::get().map_pagewise.get() {
            None => UNKNOWN,
            Some(true) => A_PAGE_AT_A_TIME,
            Some(false) => MANY_AT_ONCE,
        };
        MapFaults(AtomicU8::new(verdict))
    }

    /// The map was seen to fault a page at a time.
    pub(super) fn page_at_a_time(&self) -> bool {
        self.0.load(Ordering::Relaxed) == A_PAGE_AT_A_TIME
    }

    /// A watch over the next `bytes` read through the map, while there is
    /// no verdict yet.
    pub(super) fn watch(&self, bytes: usize) -> Option<Watch> {
        if bytes < JUDGED_FROM || self.0.load(Ordering::Relaxed) != UNKNOWN {
            return None;
        }
        thread_minor_faults().map(Watch)
    }

    /// Judges the map by the faults since `watch`, over `bytes` read.
    pub(super) fn judge(&self, watch: Watch, bytes: usize) {
        let Some(now) = thread_minor_faults() else {
            return;
        };
        let faults = now.saturating_sub(watch.0) as usize;
        let verdict = match faults.saturating_mul(page_size()).saturating_mul(2) > bytes {
            true => A_PAGE_AT_A_TIME,
            false => MANY_AT_ONCE,
        };
        let _ = self
            .0
            .compare_exchange(UNKNOWN, verdict, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// The thread's minor faults when it began a watched piece.
pub(super) struct Watch(u64);

/// This thread's minor page faults so far.
fn thread_minor_faults() -> Option<u64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: getrusage fills `usage` when it returns 0.
    let ok = unsafe { libc::getrusage(libc::RUSAGE_THREAD, usage.as_mut_ptr()) } == 0;
    // SAFETY: filled, as checked.
    ok.then(|| unsafe { usage.assume_init() }.ru_minflt as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A private anonymous map without huge pages faults a page at a time
    /// when first touched; the verdict says so, and is kept.
    #[test]
    fn fresh_anonymous_pages_fault_one_at_a_time() {
        let faults = MapFaults::default();
        let len = 4 << 20;
        // SAFETY: a new private anonymous map of `len` bytes, written a
        // byte a page and unmapped before the test ends.
        unsafe {
            let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
            let prot = libc::PROT_READ | libc::PROT_WRITE;
            let p = libc::mmap(std::ptr::null_mut(), len, prot, flags, -1, 0);
            assert_ne!(p, libc::MAP_FAILED);
            libc::madvise(p, len, libc::MADV_NOHUGEPAGE);
            let watch = faults.watch(len).expect("no verdict yet");
            for i in (0..len).step_by(page_size()) {
                (p as *mut u8).add(i).write_volatile(1);
            }
            faults.judge(watch, len);
            libc::munmap(p, len);
        }
        assert!(faults.page_at_a_time());
        assert!(faults.watch(len).is_none());
        let again = Watch(u64::MAX);
        faults.judge(again, len);
        assert!(faults.page_at_a_time());
    }

    /// Bytes read with no faults at all: many pages at a time.
    #[test]
    fn reading_resident_pages_is_not_a_page_at_a_time() {
        let faults = MapFaults::default();
        let v = vec![7u8; 2 << 20];
        let watch = faults.watch(v.len()).expect("no verdict yet");
        assert_eq!(v.iter().map(|&b| b as u64).sum::<u64>(), 7 * (2 << 20));
        faults.judge(watch, v.len());
        assert!(!faults.page_at_a_time());
        assert!(faults.watch(v.len()).is_none());
    }

    #[test]
    fn small_pieces_are_not_judged() {
        assert!(MapFaults::default().watch(JUDGED_FROM - 1).is_none());
    }
}
