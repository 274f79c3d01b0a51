//! How far the search threads are ahead of the printer: results found
//! and not yet printed, counted in files and in the memory they hold (the
//! result and its output buffer). Either bound makes threads wait: 4,096
//! files of dense `-n` output (20,000 files of 840 KB prose, most lines
//! matching) held 3 GB where ripgrep, which prints from the searching
//! threads, needed 55 MB. The file bound does not hold while the printer
//! waits for a directory's listing: a large directory's files are searched
//! while one thread still reads it, before the printer knows their order
//! (`listing.rs`), and all of them wait until the listing ends; a bound of
//! 4,096 then left 15 of 16 threads idle for most of it (20,512 files in
//! one directory, H100 host: 44 ms, 36 ms with no file bound, ripgrep
//! 38.6 ms). A bound of 65,536 everywhere held 20,000 results of 100,000
//! small log files: 33 MB peak against 20.5 MB.

use crate::run::one::FileResult;
pub(super) use crate::run::parallel::held;
use crate::run::parallel::part::Shelf;
use crate::run::parallel::{bytes_ahead_or_knob, BYTES_AHEAD, WALK_BATCH};
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// Files' results that may wait to be printed, at least (see
/// [`files_ahead`]).
const FILES_AHEAD: usize = 4096;

/// Files' results that may wait to be printed with `workers` search
/// threads: [`FILES_AHEAD`], or two full batches a thread with more than
/// 16 threads. The floor was 1,024 (the one-thread walker's), too few for
/// the ordered walk with 2 threads: a large directory's files are searched
/// in the order read (`listing.rs`), so once it is listed the waiting
/// results are spread over all of it, and the threads spent the rest of
/// the search trading and sleeping in the throttle (20,512 files in one
/// directory, `-n -F kernel`, 2 threads: 87 ms, with 4,096 58 ms, ripgrep
/// 73 ms; peak memory 17.8 MB, with 4,096 18.3 MB). 4,096 is what 16
/// threads already had, so nothing changes there.
pub(super) fn files_ahead(workers: usize) -> usize {
    FILES_AHEAD.max(2 * WALK_BATCH * workers)
}

/// The output that files begun past the far bound beyond one a worker may
/// hold ([`Lead::front_room`]).
const FRONT_BYTES: usize = 16 << 20;

/// The most files begun past the far bound and not yet printed.
const FRONTS_MOST: usize = 1024;

/// Output waiting for a listing past which later results are packed:
/// below it, packing would cost the printer time for little memory.
const PACK_ABOVE: usize = 2 << 20;

pub(super) struct Lead {
    files: AtomicUsize,
    bytes: AtomicUsize,
    /// Parts of files' output sent before their results, and the emptied
    /// parts the printer hands back (`parallel::part`).
    pub(super) parts: Shelf,
    /// The printer's next step is a directory not yet listed.
    awaiting_listing: AtomicBool,
    /// [`BYTES_AHEAD`], or `GPUGREP_LEAD_BYTES` (a test knob, read once).
    bytes_ahead: usize,
    /// Files begun past the far bound ([`Lead::front_file`]) and not yet
    /// printed, with the output each holds once searched; how many there
    /// are, and that output.
    front: Mutex<Vec<(usize, usize)>>,
    fronts: AtomicUsize,
    front_bytes: AtomicUsize,
    /// The fewest files that may be so ([`Lead::front_room`]): one a
    /// worker.
    fronts_min: usize,
}

impl Lead {
    /// The lead of results known before the search (operands' errors).
    pub(super) fn new<'r>(
        known: impl Iterator<Item = &'r io::Result<FileResult>>,
        workers: usize,
    ) -> Lead {
        let bytes_ahead = bytes_ahead_or_knob(BYTES_AHEAD);
        let lead = Lead {
            files: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            parts: Shelf::new(workers, bytes_ahead),
            awaiting_listing: AtomicBool::new(false),
            bytes_ahead,
            front: Mutex::new(Vec::new()),
            fronts: AtomicUsize::new(0),
            front_bytes: AtomicUsize::new(0),
            fronts_min: workers,
        };
        known.for_each(|r| {
            lead.add(r);
        });
        lead
    }

    /// A result a search thread found, waiting for the printer now.
    /// Returns the bytes it holds (its [`held`]).
    pub(super) fn add(&self, result: &io::Result<FileResult>) -> usize {
        let bytes = held(result);
        self.bytes.fetch_add(bytes, Ordering::AcqRel);
        self.files.fetch_add(1, Ordering::AcqRel);
        bytes
    }

    /// File `id`'s result (holding `bytes`, its [`held`]) is being
    /// printed.
    pub(super) fn printed(&self, id: usize, bytes: usize) {
        self.files.fetch_sub(1, Ordering::AcqRel);
        self.bytes.fetch_sub(bytes, Ordering::AcqRel);
        if self.fronts.load(Ordering::Acquire) > 0 {
            let mut front = self.front.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(at) = front.iter().position(|&(f, _)| f == id) {
                let (_, bytes) = front.swap_remove(at);
                self.front_bytes.fetch_sub(bytes, Ordering::AcqRel);
                self.fronts.fetch_sub(1, Ordering::AcqRel);
            }
        }
    }

    /// Past the far bound a thread may still begin the earliest file not
    /// begun (`Queue::take_earliest_file`), one of the printer's next,
    /// while fewer than one a worker of those begun so wait to be printed,
    /// or, up to [`FRONTS_MOST`], while those searched hold less than
    /// [`FRONT_BYTES`] of output: true when it may (it is counted;
    /// [`Lead::front_file`] names it).
    ///
    /// Why: the results over the bound may be far ahead of the printer (16
    /// threads begin 16 batches of 128 files), and past it every thread
    /// waited while the printer's next files were searched one at a time,
    /// each begun when the printer asked for it: 10,000 words over 4 GiB of
    /// prose in 5,000 files, `-n` into a pipe, 16 threads (H200 host):
    /// 11.6-12.3 s, now 3.6 s (rg 3.4 s; before, 4 threads took 2.9 s).
    /// One place a worker was too few for small files, each searched in
    /// less time than the printer took to print it and free its place:
    /// 20,512 files of 45 KB in one directory, `-n the`, 16 threads,
    /// 0.93 s; with 64 places 0.61 s, 256 0.18 s (rg 0.14 s). A count
    /// alone would not do: over the 4 GiB, 64 places held 201 MB at the
    /// peak against 151 MB, and were no faster. Bounded by the output they
    /// hold: 0.23-0.24 s (rg 0.16 s), the 4 GiB as before.
    pub(super) fn front_room(&self) -> bool {
        let small = self.front_bytes.load(Ordering::Acquire) < FRONT_BYTES;
        let most = match small {
            true => FRONTS_MOST.max(self.fronts_min),
            false => self.fronts_min,
        };
        self.fronts
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < most).then_some(n + 1)
            })
            .is_ok()
    }

    /// The file begun with [`Lead::front_room`]'s leave.
    pub(super) fn front_file(&self, id: usize) {
        self.front
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((id, 0));
    }

    /// File `id` was searched, its output holding `bytes` (its result's
    /// [`held`] and its parts'): counted if it is one begun with
    /// [`Lead::front_room`]'s leave.
    pub(super) fn front_searched(&self, id: usize, bytes: usize) {
        if self.fronts.load(Ordering::Acquire) == 0 {
            return;
        }
        let mut front = self.front.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(f) = front.iter_mut().find(|(f, _)| *f == id) {
            f.1 = bytes;
            self.front_bytes.fetch_add(bytes, Ordering::AcqRel);
        }
    }

    /// More than `files` files' results (unless the printer waits for a
    /// listing), or more than [`BYTES_AHEAD`] of output, wait to be printed.
    pub(super) fn too_far(&self, files: usize) -> bool {
        (self.files.load(Ordering::Acquire) > files
            && !self.awaiting_listing.load(Ordering::Relaxed))
            || self.too_many_bytes()
    }

    /// The printer's next step is a directory not yet listed, and more
    /// than [`PACK_ABOVE`] of output waits for it: results found now are
    /// worth packing (`run::packed`).
    pub(super) fn worth_packing(&self) -> bool {
        self.awaiting_listing.load(Ordering::Relaxed) && self.waiting_bytes() > PACK_ABOVE
    }

    /// Whether the printer's next step is a directory not yet listed (the
    /// printer says so before each step).
    pub(super) fn awaiting_listing(&self, yes: bool) {
        self.awaiting_listing.store(yes, Ordering::Relaxed);
    }

    /// Twice the byte bound ([`BYTES_AHEAD`]) waits to be printed: past
    /// that a thread does not search even the printer's next files
    /// (`Queue::trade_front`, `Queue::first_only`).
    pub(super) fn far_too_many_bytes(&self) -> bool {
        self.waiting_bytes() / 2 > self.bytes_ahead
    }

    /// More than the byte bound of output waits to be printed.
    pub(super) fn too_many_bytes(&self) -> bool {
        self.waiting_bytes() > self.bytes_ahead
    }

    /// Results' and parts' bytes waiting to be printed.
    fn waiting_bytes(&self) -> usize {
        self.bytes.load(Ordering::Acquire) + self.parts.held.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_ahead_has_a_floor_and_grows_with_threads() {
        assert_eq!(files_ahead(1), FILES_AHEAD);
        assert_eq!(files_ahead(2), FILES_AHEAD);
        // Unchanged at 16 threads (two batches of 128 each).
        assert_eq!(files_ahead(16), 2 * WALK_BATCH * 16);
        assert_eq!(files_ahead(16), FILES_AHEAD);
        assert_eq!(files_ahead(32), 2 * WALK_BATCH * 32);
    }

    #[test]
    fn the_file_bound_holds_unless_a_listing_is_awaited() {
        let lead = Lead::new(std::iter::empty(), 2);
        let one = Ok(FileResult::default());
        for _ in 0..3 {
            lead.add(&one);
        }
        assert!(lead.too_far(2));
        assert!(!lead.too_far(3));
        lead.awaiting_listing(true);
        assert!(!lead.too_far(2));
        lead.awaiting_listing(false);
        lead.printed(0, held(&one));
        assert!(!lead.too_far(2));
    }

    /// Begins files in front while there is room, each searched at once
    /// holding `bytes`; returns how many.
    fn fill_front(lead: &Lead, first_id: usize, bytes: usize) -> usize {
        let mut id = first_id;
        while id - first_id <= FRONTS_MOST && lead.front_room() {
            lead.front_file(id);
            lead.front_searched(id, bytes);
            id += 1;
        }
        id - first_id
    }

    #[test]
    fn the_front_holds_one_file_a_worker_until_it_is_printed() {
        let lead = Lead::new(std::iter::empty(), 2);
        // Output this large leaves room for no more than one a worker.
        assert_eq!(fill_front(&lead, 7, FRONT_BYTES), 2);
        // Another file printed, or searched, leaves the front as it was.
        let one = Ok(FileResult::default());
        lead.printed(3, held(&one));
        lead.front_searched(3, 0);
        assert!(!lead.front_room());
        lead.printed(8, held(&one));
        assert!(lead.front_room());
        assert!(!lead.front_room());
    }

    /// Regression: one place a worker kept small files' search waiting for
    /// the printer (20,512 files of 45 KB, `-n the`, 16 threads: 0.93 s
    /// against 0.18 s with 256 places).
    #[test]
    fn small_files_in_front_leave_room_for_more() {
        let lead = Lead::new(std::iter::empty(), 2);
        assert_eq!(fill_front(&lead, 0, FRONT_BYTES / 64), 64);
        // Printed, one leaves room for one more.
        lead.printed(5, 0);
        assert_eq!(fill_front(&lead, 100, FRONT_BYTES / 64), 1);
        // Files not searched yet, or with no output, up to the most.
        let lead = Lead::new(std::iter::empty(), 2);
        assert_eq!(fill_front(&lead, 0, 0), FRONTS_MOST);
    }
}
