//! What search threads hand the printing thread, and when it is woken.
//!
//! A channel woke the printer for every directory listed and every batch
//! searched: 12,681 futex calls for the Linux tree on 2 threads, against 2
//! for ripgrep, whose threads print for themselves (the printer here must
//! be the thread holding stdout). Here messages wait in one list; the
//! printer takes all of them at once, and a search thread wakes it only
//! once what the printer is waiting for is there and a few messages wait
//! ([`WAKE_AFTER`]; at once for a terminal or `--line-buffered`, or for
//! a part of a file's output, a megabyte to write), or when
//! the thread itself is about to wait ([`Inbox::nudge`]: for a task, or
//! for the printer to catch up) or ends. With 2 threads the printer is a third on two cores: woken for
//! every file it waited for, it took a core 663 times in the Linux tree.
//! The printer falls a few messages further behind instead, which the
//! lead's bounds (`lead.rs`) allow for. What it waits for is kept here
//! alone; the threads' throttle reads it too.

use super::lead::held;
use super::Msg;
use crate::run::parallel::part::SendPart;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

/// Messages that wait before the printer is woken for what it waits for:
/// woken for each, it slept and woke 663 times in the Linux tree (2
/// threads), each time taking a core from a search thread.
const WAKE_AFTER: usize = 8;

/// ... and with at most `FEW_SENDERS` search threads, where the printer's
/// wake-ups weigh most: on the 2-core VM with 2 threads, 8 left 1,069
/// futex calls in the Linux tree (rg: 79) and 32 left 335, the tree's
/// searches 2-5 % faster (`-c -E 'TODO|FIXME|XXX'` 126 → 118 ms, `-l`
/// 113 → 108 ms), 100,000 small files level, a flat directory of 20,000
/// files with `-n` 2-4 ms slower (62 → 65 ms; rg 83 ms); 128 held 30.8 MB
/// there against 19 MB for no more speed. With 16 threads on the H100
/// host, 32 made the tree's `-l` and `-n` slower (medians of 7: 28.9 →
/// 35.2 ms, 28.2 → 35.9 ms), so more threads keep 8.
const WAKE_AFTER_FEW: usize = 32;
const FEW_SENDERS: usize = 2;

/// ... or as soon as the messages waiting hold this much output: counted
/// in messages alone, dense output piled up unprinted (a directory of
/// 1,000 prose files, `-n the`, 2 threads: 9 messages, under 32, so the
/// printer slept until the threads were done while 988 files' results,
/// 8.7 MB, waited). The BOM prose's 20,516 files in directories of 1,000,
/// 2 threads on the dev VM: peak 23.9 → 13.1 MB (ripgrep 7.7), 0.185 →
/// 0.155 s; in one directory 29.5 → 19.2 MB (14.2). With 16 threads on 16
/// cores the printer was woken often enough already (8 messages).
const WAKE_BYTES: usize = 256 << 10;

/// What the printer is waiting for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    Nothing,
    /// A directory's listing (node id).
    Listing(usize),
    /// A file's result (item id).
    Result(usize),
}

struct State {
    msgs: Vec<Msg>,
    /// The output the messages hold ([`held`], parts' bytes).
    bytes: usize,
    want: Want,
    /// A message waiting holds what the printer waits for, and it was not
    /// woken for it (too few messages yet, `WAKE_AFTER`).
    holds_want: bool,
    /// Search threads still running.
    senders: usize,
    /// A search thread ended in a panic: what the printer waits for may
    /// never come.
    failed: bool,
}

pub(super) struct Inbox {
    state: Mutex<State>,
    /// The printer stopped (`-q` settled, stdout closed): parts are
    /// refused, so that a thread splitting a large file stops too.
    printer_gone: AtomicBool,
    woken: Condvar,
    /// Messages that wait before the printer is woken for what it waits
    /// for ([`WAKE_AFTER`] or [`WAKE_AFTER_FEW`], or 1 where lines are
    /// wanted as found).
    wake_after: usize,
}

impl Inbox {
    /// An inbox for `senders` threads; `prompt`: output goes to a
    /// terminal or is line-buffered, and the printer is woken as soon as
    /// what it waits for is there (output to a pipe or file is written in
    /// blocks of 64 KiB anyway).
    pub(super) fn new(senders: usize, prompt: bool) -> Inbox {
        Inbox {
            printer_gone: AtomicBool::new(false),
            state: Mutex::new(State {
                msgs: Vec::new(),
                bytes: 0,
                want: Want::Nothing,
                holds_want: false,
                senders,
                failed: false,
            }),
            woken: Condvar::new(),
            wake_after: match (prompt, senders <= FEW_SENDERS) {
                (true, _) => 1,
                (false, true) => WAKE_AFTER_FEW,
                (false, false) => WAKE_AFTER,
            },
        }
    }

    /// Leaves `msg` for the printer, waking it if it waits for it and
    /// `wake_after` messages, or [`WAKE_BYTES`] of output, wait (else a
    /// later message, or a thread about to wait, [`Inbox::nudge`], wakes
    /// it).
    pub(super) fn send(&self, msg: Msg) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let holds = match (s.want, &msg) {
            (Want::Listing(n), Msg::Listed(node, _)) => n == *node,
            (Want::Result(id), Msg::Found(found)) => found.iter().any(|(i, _)| *i == id),
            (Want::Result(id), Msg::Part(i, _)) => *i == id,
            _ => false,
        };
        let part = matches!(msg, Msg::Part(..));
        s.bytes += match &msg {
            Msg::Listed(..) => 0,
            Msg::Found(found) => found.iter().map(|(_, r)| held(r)).sum(),
            Msg::Part(_, bytes) => bytes.len(),
        };
        s.msgs.push(msg);
        s.holds_want |= holds;
        // A part is a megabyte of output, and the printer can go on: held
        // for 32 messages with 2 threads, most parts of 8 logs' `-n`
        // output (32 of 37 MB) waited until the threads were done (the
        // listing the printer waited for came first), and none came back
        // to be filled again.
        let wake =
            s.holds_want && (part || s.msgs.len() >= self.wake_after || s.bytes >= WAKE_BYTES);
        if wake {
            s.holds_want = false;
        }
        drop(s);
        if wake {
            self.woken.notify_one();
        }
    }

    /// Wakes the printer if what it waits for is here: a search thread
    /// calls this before it waits itself (for a task, or for the printer
    /// to catch up), so the printer never sleeps on messages while the
    /// threads that could send more are idle.
    pub(super) fn nudge(&self) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let wake = std::mem::take(&mut s.holds_want);
        drop(s);
        if wake {
            self.woken.notify_one();
        }
    }

    /// What the printer sleeps waiting for (a search thread too far ahead
    /// searches or lists that all the same; one that asks while the printer
    /// is busy asks again 1 ms later).
    ///
    /// `Nothing` once a message holding it waits for the printer to wake:
    /// until then threads past the bound on waiting output looked for it
    /// in the queue, and traded for batches, in vain.
    pub(super) fn want(&self) -> Want {
        let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match s.holds_want {
            true => Want::Nothing,
            false => s.want,
        }
    }

    /// The printer stopped: later parts are refused.
    pub(super) fn printer_stopped(&self) {
        self.printer_gone.store(true, Ordering::Relaxed);
    }

    /// A search thread has ended (the last one wakes the printer, as does
    /// one leaving what it waits for).
    pub(super) fn close(&self) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.senders = s.senders.saturating_sub(1);
        let last = std::mem::take(&mut s.holds_want) || s.senders == 0;
        drop(s);
        if last {
            self.woken.notify_one();
        }
    }

    /// A search thread ends in a panic: the printer stops waiting.
    pub(super) fn fail(&self) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.failed = true;
        s.senders = s.senders.saturating_sub(1);
        drop(s);
        self.woken.notify_one();
    }

    /// Whether a search thread ended in a panic.
    pub(super) fn failed(&self) -> bool {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .failed
    }

    /// Every message left, waiting until one holds `want` arrives (or any,
    /// if some are there already); empty once every search thread ended,
    /// or one [`failed`](Self::failed).
    pub(super) fn take(&self, want: Want) -> Vec<Msg> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if s.failed {
                return Vec::new();
            }
            if !s.msgs.is_empty() {
                s.want = Want::Nothing;
                s.holds_want = false;
                s.bytes = 0;
                return std::mem::take(&mut s.msgs);
            }
            if s.senders == 0 {
                return Vec::new();
            }
            s.want = want;
            s = self.woken.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Parts of a file's output go to the printer with the other messages,
/// until it stops.
impl SendPart for Inbox {
    fn send_part(&self, i: usize, part: Vec<u8>) -> io::Result<()> {
        if self.printer_gone.load(Ordering::Relaxed) {
            return Err(io::Error::from(io::ErrorKind::BrokenPipe));
        }
        self.send(Msg::Part(i, part));
        Ok(())
    }
}

#[cfg(test)]
mod tests;
