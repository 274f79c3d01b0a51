//! The staging ring: a fixed set of chunk buffers, lent out and returned.
//! This file holds the pipeline's only `unsafe` (the chunks are slices of
//! one raw allocation, written by several reader threads at once); what
//! it exports is safe, by the lifecycle of a loan:
//!
//! ```text
//!  Ring::lease ─▶ Filling ─split─▶ Part, Part, … ─last Part::finish─▶ Filling
//!                (exclusive)       (disjoint ranges, one per reader)   │ filled
//!                                                                      ▼
//!                                   back to the ring ◀─last drop── Filled (shared, read-only)
//! ```
//!
//! A `Filling` is the only handle to its chunk and may write all of it. It
//! splits into `Part`s whose ranges are checked disjoint, each writable by
//! its holder alone; the last part to finish gets the `Filling` back (the
//! others get `None`). `Filled` is the read-only phase: clones share the
//! chunk (the lanes search it, the board lends whole files' bytes to the
//! printers) and nothing can write it again until the last clone is
//! dropped and the slot returns to the ring. Memory is one block,
//! allocated on the first lease (a search that never leases pays nothing)
//! or by `ensure`, and page-locked by `pin` once the GPU is ready: the
//! readers may fill chunks while CUDA starts (0.25 s on the H100 host), and
//! pinning memory already faulted in is the cheaper half of the 0.1 s that
//! allocating and pinning 1 GiB costs.

use crate::engine::gpu::{GpuError, HostPin};
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How long a wait for a free chunk sleeps before checking for an abort.
const TICK: Duration = Duration::from_millis(20);

/// The ring's memory: an anonymous map faulted in (`faulted_map`), or a
/// heap block (tests).
pub enum Memory {
    Mapped(memmap2::MmapMut),
    Heap(Box<[u8]>),
}

/// One chunk's memory: a slice of the ring's one allocation.
struct Slot {
    _mem: Arc<Memory>,
    ptr: *mut u8,
    len: usize,
}

// SAFETY: a slot is a slice of memory its Arc keeps alive, disjoint from
// every other slot lent out; who may touch its bytes when is decided by the
// loan types below (one `Filling`, or disjoint `Part`s, or read-only
// `Filled`s). The whole block's slot is never lent: only its address goes
// to the driver, to pin it.
unsafe impl Send for Slot {}
unsafe impl Sync for Slot {}

/// The fixed set of chunk buffers.
pub struct Ring {
    /// The block's pin, once pinned. Declared first: dropped (unpinned)
    /// before the slots free the memory.
    pin: Mutex<Option<HostPin>>,
    /// Free slots, and the whole block once allocated (a slot as long as
    /// all of them).
    free: Mutex<(Vec<Slot>, Option<Slot>)>,
    returned: Condvar,
    slots: usize,
}

/// A slot on loan: returns to its ring when dropped.
struct Loan<'r> {
    /// Present until `drop` gives it back.
    slot: Option<Slot>,
    ring: &'r Ring,
}

impl Loan<'_> {
    /// The slot's start and length (an empty slice's once given back,
    /// which only `drop` does).
    fn raw(&self) -> (*mut u8, usize) {
        let none = (std::ptr::NonNull::dangling().as_ptr(), 0);
        self.slot.as_ref().map_or(none, |s| (s.ptr, s.len))
    }
}

impl Drop for Loan<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            if let Ok(mut free) = self.ring.free.lock() {
                free.0.push(slot);
            }
            self.ring.returned.notify_one();
        }
    }
}

impl Ring {
    /// A ring of `slots` chunks (at least one).
    pub fn new(slots: usize) -> Ring {
        Ring {
            pin: Mutex::new(None),
            free: Mutex::new((Vec::new(), None)),
            returned: Condvar::new(),
            slots: slots.max(1),
        }
    }

    /// Chunks in the ring.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Chunks free now (for the trace).
    pub fn free_slots(&self) -> usize {
        self.free.lock().map_or(0, |f| f.0.len())
    }

    /// Allocates the block of chunks of `chunk` bytes with
    /// `allocate(bytes)`, unless it is there.
    pub fn ensure(&self, chunk: usize, allocate: impl FnOnce(usize) -> Memory) {
        if let Ok(mut free) = self.free.lock() {
            if free.1.is_none() {
                let (all, block) = slots(allocate(self.slots * chunk), self.slots, chunk);
                free.0 = all;
                free.1 = Some(block);
            }
        }
    }

    /// Pins the block (`ensure` first) with `pin(start, length)`, which
    /// the ring keeps until it is dropped. Chunks on loan may be written
    /// meanwhile: pinning keeps the pages' contents.
    pub fn pin(
        &self,
        pin: impl FnOnce(*mut u8, usize) -> Result<HostPin, GpuError>,
    ) -> Result<(), GpuError> {
        let block = self
            .free
            .lock()
            .ok()
            .and_then(|f| f.1.as_ref().map(|b| (b.ptr, b.len)));
        let Some((ptr, len)) = block else {
            return Err(GpuError::Cuda("no staging memory to pin".into()));
        };
        let pinned = pin(ptr, len)?;
        if let Ok(mut p) = self.pin.lock() {
            *p = Some(pinned);
        }
        Ok(())
    }

    /// The block's pin, taken out (unpinned when dropped), once no copy
    /// reads the ring any more; the memory stays mapped for the printers.
    pub fn take_pin(&self) -> Option<HostPin> {
        self.pin.lock().ok().and_then(|mut p| p.take())
    }

    /// A free chunk of `chunk` bytes, waiting for one while all are on loan;
    /// `None` once `stopped()` says so. The first call allocates the block
    /// with `allocate(bytes)` unless `ensure` did (every call must ask for
    /// the same `chunk`).
    pub fn lease(
        &self,
        chunk: usize,
        allocate: impl FnOnce(usize) -> Memory,
        stopped: impl Fn() -> bool,
    ) -> Option<Filling<'_>> {
        self.ensure(chunk, allocate);
        let mut free = self.free.lock().ok()?;
        loop {
            if let Some(slot) = free.0.pop() {
                return Some(Filling {
                    loan: Loan {
                        slot: Some(slot),
                        ring: self,
                    },
                });
            }
            if stopped() {
                return None;
            }
            free = self
                .returned
                .wait_timeout(free, TICK)
                .ok()
                .map(|(f, _)| f)?;
        }
    }
}

/// `n` slots of `chunk` bytes each in `mem`, and the whole block.
fn slots(mut mem: Memory, n: usize, chunk: usize) -> (Vec<Slot>, Slot) {
    let (base, len) = match &mut mem {
        Memory::Mapped(m) => (m.as_mut_ptr(), m.len()),
        Memory::Heap(b) => (b.as_mut_ptr(), b.len()),
    };
    assert!(len >= n * chunk, "ring memory smaller than its chunks");
    let mem = Arc::new(mem);
    let block = Slot {
        _mem: mem.clone(),
        ptr: base,
        len,
    };
    let all = (0..n)
        .map(|k| Slot {
            _mem: mem.clone(),
            // SAFETY: k * chunk + chunk <= n * chunk <= len: inside the block.
            ptr: unsafe { base.add(k * chunk) },
            len: chunk,
        })
        .collect();
    (all, block)
}

/// A chunk being filled, held by one owner: writable whole.
pub struct Filling<'r> {
    loan: Loan<'r>,
}

impl<'r> Filling<'r> {
    /// The whole chunk, writable.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        let (ptr, len) = self.loan.raw();
        // SAFETY: a `Filling` is the only handle to its slot (not Clone;
        // no `Part` or `Filled` of it exists while it does), and `&mut
        // self` makes this slice the only one.
        unsafe { std::slice::from_raw_parts_mut(ptr, len) }
    }

    /// Hands out `ranges` to be written by different threads. Panics if
    /// they overlap or run past the chunk (a bug in the caller's plan).
    pub fn split(self, mut ranges: Vec<Range<usize>>) -> Vec<Part<'r>> {
        let mut sorted = ranges.clone();
        sorted.sort_by_key(|r| r.start);
        let (_, len) = self.loan.raw();
        assert!(
            sorted.windows(2).all(|w| w[0].end <= w[1].start)
                && sorted.iter().all(|r| r.start <= r.end && r.end <= len),
            "chunk parts overlap or run past the chunk"
        );
        let shared = Arc::new(self);
        ranges
            .drain(..)
            .map(|range| Part {
                chunk: shared.clone(),
                range,
            })
            .collect()
    }

    /// The chunk is filled: from here on it is only read.
    pub fn filled(self) -> Filled<'r> {
        Filled {
            loan: Arc::new(self.loan),
        }
    }
}

/// One range of a chunk being filled, writable by its holder alone.
pub struct Part<'r> {
    chunk: Arc<Filling<'r>>,
    range: Range<usize>,
}

impl<'r> Part<'r> {
    /// Where this part lies in its chunk.
    pub fn range(&self) -> Range<usize> {
        self.range.clone()
    }

    /// This part's bytes, writable.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        let (ptr, _) = self.chunk.loan.raw();
        // SAFETY: `split` checked that the parts' ranges are disjoint and
        // inside the slot; a Part is not Clone, and `&mut self` makes this
        // slice the only one of its range. No `Filling` or `Filled` of the
        // slot can be used while any Part lives: the Filling sits in the
        // Arc until `finish` unwraps it from the last one.
        unsafe { std::slice::from_raw_parts_mut(ptr.add(self.range.start), self.range.len()) }
    }

    /// This part is written. The last part of a chunk to finish gets the
    /// chunk back (exactly one caller does, whatever the threads' order;
    /// the Arc's release/acquire orders every part's writes before it).
    pub fn finish(self) -> Option<Filling<'r>> {
        Arc::into_inner(self.chunk)
    }
}

/// A filled chunk: shared, read-only; back to the ring when the last clone
/// is dropped.
#[derive(Clone)]
pub struct Filled<'r> {
    loan: Arc<Loan<'r>>,
}

impl Filled<'_> {
    /// Bytes `range` of the chunk. Panics past the chunk's end.
    pub fn bytes(&self, range: Range<usize>) -> &[u8] {
        let (ptr, len) = self.loan.raw();
        assert!(range.start <= range.end && range.end <= len);
        // SAFETY: in range (checked above); a `Filled` is made from the
        // `Filling` by value and never turns back into one, so nothing
        // writes the slot while any clone lives.
        unsafe { std::slice::from_raw_parts(ptr.add(range.start), range.len()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO: fn() -> bool = || false;

    fn heap(bytes: usize) -> Memory {
        Memory::Heap(vec![0u8; bytes].into_boxed_slice())
    }

    #[test]
    fn parts_fill_a_chunk_and_the_last_one_gets_it_back() {
        let ring = Ring::new(2);
        let chunk = ring.lease(8, heap, NO).unwrap();
        let parts = chunk.split(vec![0..3, 4..8]);
        let mut back = Vec::new();
        std::thread::scope(|s| {
            let hs: Vec<_> = parts
                .into_iter()
                .map(|mut p| {
                    s.spawn(move || {
                        let at = p.range().start as u8;
                        p.bytes_mut().fill(at + 1);
                        p.finish()
                    })
                })
                .collect();
            back = hs.into_iter().filter_map(|h| h.join().unwrap()).collect();
        });
        assert_eq!(back.len(), 1);
        let mut chunk = back.pop().unwrap();
        chunk.bytes_mut()[3] = b'\n';
        let filled = chunk.filled();
        assert_eq!(filled.bytes(0..8), b"\x01\x01\x01\n\x05\x05\x05\x05");
    }

    #[test]
    fn pin_is_handed_the_whole_block_once_it_is_there() {
        let ring = Ring::new(3);
        let mut called = false;
        let before = ring.pin(|_, _| {
            called = true;
            Err(GpuError::Cuda("unused".into()))
        });
        assert!(before.is_err() && !called, "no block to pin yet");
        ring.ensure(8, heap);
        let mut seen = None;
        let pinned = ring.pin(|ptr, len| {
            seen = Some((ptr as usize, len));
            Err(GpuError::Cuda("no GPU in this test".into()))
        });
        assert!(pinned.is_err());
        let (start, len) = seen.unwrap();
        assert_eq!(len, 3 * 8);
        let mut chunks: Vec<_> = (0..3).map(|_| ring.lease(8, heap, NO).unwrap()).collect();
        for c in &mut chunks {
            let at = c.bytes_mut().as_ptr() as usize;
            assert!(start <= at && at + 8 <= start + len);
        }
    }

    #[test]
    fn a_chunk_returns_when_its_last_reader_is_done() {
        let ring = Ring::new(1);
        let filled = ring.lease(4, heap, NO).unwrap().filled();
        let again = filled.clone();
        drop(filled);
        assert!(ring.lease(4, heap, || true).is_none());
        drop(again);
        assert!(ring.lease(4, heap, || true).is_some());
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn overlapping_parts_are_refused() {
        let ring = Ring::new(1);
        let _ = ring.lease(8, heap, NO).unwrap().split(vec![0..4, 3..8]);
    }
}
