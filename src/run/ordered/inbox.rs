//! What search threads hand the printing thread, and when it is woken.
//!
//! A channel woke the printer for every directory listed and every batch
//! searched: 12,681 futex calls for the Linux tree on 2 threads, against 2
//! for ripgrep, whose threads print for themselves (the printer here must
//! be the thread holding stdout). Here messages wait in one list; the
//! printer takes all of them at once, and a search thread wakes it only
//! when its message holds what the printer is waiting for. What it waits
//! for is kept here alone; the threads' throttle reads it too.

use super::Msg;
use std::sync::{Condvar, Mutex, PoisonError};

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
    want: Want,
    /// Search threads still running.
    senders: usize,
}

pub(super) struct Inbox {
    state: Mutex<State>,
    woken: Condvar,
}

impl Inbox {
    pub(super) fn new(senders: usize) -> Inbox {
        Inbox {
            state: Mutex::new(State {
                msgs: Vec::new(),
                want: Want::Nothing,
                senders,
            }),
            woken: Condvar::new(),
        }
    }

    /// Leaves `msg` for the printer, waking it if it waits for it.
    pub(super) fn send(&self, msg: Msg) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let wake = match (s.want, &msg) {
            (Want::Listing(n), Msg::Listed(node, _)) => n == *node,
            (Want::Result(id), Msg::Found(found)) => found.iter().any(|(i, _)| *i == id),
            _ => false,
        };
        s.msgs.push(msg);
        drop(s);
        if wake {
            self.woken.notify_one();
        }
    }

    /// What the printer sleeps waiting for (a search thread too far ahead
    /// searches or lists that all the same; one that asks while the printer
    /// is busy asks again 1 ms later).
    pub(super) fn want(&self) -> Want {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .want
    }

    /// A search thread has ended (the last one wakes the printer).
    pub(super) fn close(&self) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.senders = s.senders.saturating_sub(1);
        let last = s.senders == 0;
        drop(s);
        if last {
            self.woken.notify_one();
        }
    }

    /// Every message left, waiting until one holds `want` arrives (or any,
    /// if some are there already); empty once every search thread ended.
    pub(super) fn take(&self, want: Want) -> Vec<Msg> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if !s.msgs.is_empty() {
                s.want = Want::Nothing;
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
