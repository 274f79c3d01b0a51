//! A rule pack's line finder that steps aside where nearly every line is a
//! candidate.
//!
//! A finder earns its keep by skipping lines. On real logs searched with
//! their own event templates (loghub's 1,733) every line holds literals of
//! some template, and the mixed pack's finder (one forward DFA over 1,623
//! literals and 3 other rules) read every byte only to hand back the next
//! line: 42 % of the samples, before the confirmation read the line again.
//! So each thread watches its finder's answers: when nearly all of the
//! last [`WINDOW`] land in the line the search is at, every line is
//! handed to the confirmation directly for the next [`DENSE_RUN`] lines,
//! then the finder is watched again. The confirmation decides every line
//! exactly either way, so this changes only the time.

use crate::engine::Matcher;
use std::cell::Cell;
use std::ops::Range;

/// Answers watched before deciding.
const WINDOW: u32 = 1024;
/// Of those, how many must land in the line the search is at.
const DENSE_HITS: u32 = WINDOW * 15 / 16;
/// Lines handed over unwatched before the finder is watched again.
const DENSE_RUN: u32 = 1 << 16;
/// A hit this far from the search's place is not in its line (not looked
/// at: the line would have to be longer).
const NEAR: usize = 4096;

pub struct DenseLines {
    finder: Box<dyn Matcher>,
    t: u8,
}

impl DenseLines {
    /// `finder`: candidates (not exact) for lines ended by `t`.
    pub fn new(finder: Box<dyn Matcher>, t: u8) -> DenseLines {
        DenseLines { finder, t }
    }
}

/// One thread's watch: how many answers seen and how many were in the
/// line at hand, or how many lines are left to hand over unwatched.
#[derive(Clone, Copy)]
struct Watch {
    owner: usize,
    seen: u32,
    near: u32,
    unwatched: u32,
}

thread_local! {
    static WATCH: Cell<Option<Watch>> = const { Cell::new(None) };
}

impl Watch {
    /// After an answer: whether it was `near`; the next phase.
    fn saw(&mut self, near: bool) {
        self.seen += 1;
        self.near += near as u32;
        if self.seen == WINDOW {
            if self.near >= DENSE_HITS {
                self.unwatched = DENSE_RUN;
            }
            (self.seen, self.near) = (0, 0);
        }
    }
}

impl Matcher for DenseLines {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let owner = self as *const DenseLines as usize;
        let mut w = WATCH.get().filter(|w| w.owner == owner).unwrap_or(Watch {
            owner,
            seen: 0,
            near: 0,
            unwatched: 0,
        });
        let found = match w.unwatched {
            0 => {
                let m = self.finder.find_at(hay, at);
                let near = m.as_ref().is_some_and(|m| {
                    let hit = m.start.min(hay.len());
                    hit >= at && hit - at < NEAR && memchr::memchr(self.t, &hay[at..hit]).is_none()
                });
                w.saw(near);
                m
            }
            _ => {
                w.unwatched -= 1;
                (at < hay.len()).then_some(at..at)
            }
        };
        WATCH.set(Some(w));
        found
    }

    fn is_exact(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests;
