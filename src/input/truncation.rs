//! Surviving a memory-mapped file that shrinks while it is searched.
//!
//! Reading a mapped page past a file's new end raises SIGBUS, which kills
//! the process with no output at all (logrotate's `copytruncate` does this
//! to a log being searched). Reading such files instead of mapping them
//! would cost the speed the map is for, so the map stays and the fault is
//! handled: each live map registers its address range here, and a SIGBUS
//! handler that finds the faulting address in a registered range maps
//! zero-filled anonymous memory over the rest of that range and returns;
//! the search goes on over zeros (NUL bytes, which print nothing) and the
//! map's owner, seeing the range marked, reports the file as truncated.
//! A fault anywhere else goes to the previous handler (Rust's stack
//! overflow check, or the default action). Nothing runs on the normal
//! path: the handler is installed once, and registering is two atomic
//! stores per map.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Live maps watched at once (one per searching thread is the most the
/// search keeps; `-j` is at most 1,024); a map beyond them is not watched.
const SLOTS: usize = 1088;

/// A slot's start while it is being filled in or emptied.
const CLAIMING: usize = usize::MAX;

struct Slot {
    /// Start address; 0 when free.
    start: AtomicUsize,
    end: AtomicUsize,
    faulted: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Slot = Slot {
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    faulted: AtomicBool::new(false),
};
static SLOT: [Slot; SLOTS] = [FREE; SLOTS];

/// The handler that was there before ours.
static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

/// A registered range; unregistered when dropped (before the unmap).
#[derive(Debug)]
pub struct Watch {
    slot: Option<usize>,
}

impl Watch {
    /// Watches `len` bytes mapped at `start`.
    pub fn new(start: *const u8, len: usize) -> Watch {
        install();
        let start = start as usize;
        if start == 0 || len == 0 {
            return Watch { slot: None };
        }
        for (i, s) in SLOT.iter().enumerate() {
            // Claimed as CLAIMING (which the handler skips) while the rest
            // of the slot is filled in.
            if s.start
                .compare_exchange(0, CLAIMING, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                s.faulted.store(false, Ordering::Relaxed);
                s.end.store(start + len, Ordering::Release);
                s.start.store(start, Ordering::Release);
                return Watch { slot: Some(i) };
            }
        }
        Watch { slot: None }
    }

    /// Part of the range was past the file's end when read: the file was
    /// truncated while searched, and zeros were read in its place.
    pub fn truncated(&self) -> bool {
        self.slot
            .is_some_and(|i| SLOT[i].faulted.load(Ordering::Acquire))
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            SLOT[i].start.store(CLAIMING, Ordering::Release);
            SLOT[i].end.store(0, Ordering::Release);
            SLOT[i].start.store(0, Ordering::Release);
        }
    }
}

/// Installs the handler, once.
fn install() {
    PREVIOUS.get_or_init(|| {
        // SAFETY: a zeroed sigaction is valid; sigaction only installs our
        // handler and reports the previous one.
        unsafe {
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_sigbus as *const () as usize;
            new.sa_flags = libc::SA_SIGINFO | libc::SA_NODEFER;
            libc::sigemptyset(&mut new.sa_mask);
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGBUS, &new, &mut old);
            old
        }
    });
}

extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    for s in SLOT.iter() {
        let start = s.start.load(Ordering::Acquire);
        let end = s.end.load(Ordering::Acquire);
        if start == 0 || start == CLAIMING || addr < start || addr >= end {
            continue;
        }
        // SAFETY: sysconf and mmap are plain system calls. The new mapping
        // replaces only pages of this registered map (from the faulting
        // page to the map's end), which its owner unmaps later.
        let mapped = unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE).max(1) as usize;
            let from = addr & !(page - 1);
            let len = (end - from).div_ceil(page) * page;
            libc::mmap(
                from as *mut libc::c_void,
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if mapped != libc::MAP_FAILED {
            s.faulted.store(true, Ordering::Release);
            return;
        }
    }
    // Not ours: what would have happened without us.
    match PREVIOUS.get() {
        Some(old) if old.sa_flags & libc::SA_SIGINFO != 0 && old.sa_sigaction > 1 => {
            // SAFETY: a SA_SIGINFO handler has this signature.
            let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                unsafe { std::mem::transmute(old.sa_sigaction) };
            f(sig, info, ctx);
        }
        Some(old) if old.sa_sigaction > 1 => {
            // SAFETY: a plain handler has this signature.
            let f: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(old.sa_sigaction) };
            f(sig);
        }
        _ => {
            // SAFETY: back to the default action; returning re-runs the
            // faulting access, which then ends the process as before.
            unsafe { libc::signal(libc::SIGBUS, libc::SIG_DFL) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The mechanism itself: a map whose file is truncated reads zeros
    /// past the new end, and says so.
    #[test]
    fn truncated_map_reads_zeros_and_is_reported() {
        let mut file = tempfile::tempfile().unwrap();
        let data = vec![b'a'; 1 << 20];
        file.write_all(&data).unwrap();
        // SAFETY: the test owns the file; truncating it is the point.
        let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
        let watch = Watch::new(map.as_ptr(), map.len());
        assert!(!watch.truncated());
        assert_eq!(map[map.len() - 1], b'a');
        file.set_len(4096).unwrap();
        let sum: u64 = map.iter().map(|&b| u64::from(b)).sum();
        assert_eq!(sum, 4096 * u64::from(b'a'));
        assert!(watch.truncated());
        drop(watch);
        drop(map);
    }
}
