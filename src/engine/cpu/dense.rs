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
//! exactly either way, so this changes only the time. A pack of few
//! enough rules has a [`DenseScan`] for those stretches instead: the
//! rules' one automaton over the buffer, whose answers are exact
//! (`answered_surely`), so their lines skip the confirmation.

use super::dense_scan::{DenseScan, Scan};
use crate::engine::Matcher;
use std::cell::Cell;
use std::ops::Range;

/// Answers watched before deciding.
const WINDOW: u32 = 1024;
/// Of those, how many must land in the line the search is at.
const DENSE_HITS: u32 = WINDOW * 15 / 16;
/// Of a window of the scan's answers, how many must land in the line the
/// search is at for the scan to go on: its answers skip the lines that do
/// not match, so fewer (loghub's templates leave 7 % of its lines
/// unmatched).
const SCAN_HITS: u32 = WINDOW / 2;
/// Lines handed over unwatched before the finder is watched again.
const DENSE_RUN: u32 = 1 << 16;
/// A hit this far from the search's place is not in its line (not looked
/// at: the line would have to be longer).
const NEAR: usize = 4096;

pub struct DenseLines {
    finder: Box<dyn Matcher>,
    t: u8,
    scan: Option<DenseScan>,
}

impl DenseLines {
    /// `finder`: candidates (not exact) for lines ended by `t`; `scan`:
    /// the exact finder of dense stretches, if any.
    pub fn new(finder: Box<dyn Matcher>, t: u8, scan: Option<DenseScan>) -> DenseLines {
        DenseLines { finder, t, scan }
    }
}

/// One thread's watch: how many answers seen and how many were in the
/// line at hand; then how many lines are left to hand over unwatched, or
/// whether the scan answers (watched the same way).
#[derive(Clone, Copy)]
struct Watch {
    owner: usize,
    seen: u32,
    near: u32,
    unwatched: u32,
    scanning: bool,
    /// The last answer was the scan's, exact.
    sure: bool,
}

thread_local! {
    static WATCH: Cell<Option<Watch>> = const { Cell::new(None) };
}

impl Watch {
    /// After an answer: whether it was `near`; whether the window just
    /// filled had at least `need` near answers (`None` until it fills).
    fn saw(&mut self, near: bool, need: u32) -> Option<bool> {
        self.seen += 1;
        self.near += near as u32;
        if self.seen < WINDOW {
            return None;
        }
        let dense = self.near >= need;
        (self.seen, self.near) = (0, 0);
        Some(dense)
    }
}

impl DenseLines {
    /// Whether an answer at `hit` lies in the line starting at `at`.
    fn near(&self, hay: &[u8], at: usize, hit: usize) -> bool {
        let hit = hit.min(hay.len());
        hit >= at && hit - at < NEAR && memchr::memchr(self.t, &hay[at..hit]).is_none()
    }

    /// The scan's answer, watched: its stretch ends when it stops being
    /// dense or the scan gives up.
    fn scanned(
        &self,
        scan: &DenseScan,
        w: &mut Watch,
        hay: &[u8],
        at: usize,
    ) -> Option<Range<usize>> {
        match scan.next_line(hay, at) {
            Scan::Line(end) => {
                w.sure = true;
                if w.saw(self.near(hay, at, end), SCAN_HITS) == Some(false) {
                    w.scanning = false;
                }
                Some(end..end)
            }
            Scan::None => None,
            Scan::Unsure => {
                // An undecided line counts against the stretch: a Unicode
                // word boundary in non-ASCII text stops the DFA on most.
                if scan.gave_up() {
                    (w.scanning, w.unwatched) = (false, DENSE_RUN);
                } else if w.saw(false, SCAN_HITS) == Some(false) {
                    w.scanning = false;
                }
                (at < hay.len()).then_some(at..at)
            }
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
            scanning: false,
            sure: false,
        });
        w.sure = false;
        let found = match (w.scanning, w.unwatched, &self.scan) {
            (true, _, Some(scan)) => self.scanned(scan, &mut w, hay, at),
            (_, 0, _) => {
                let m = self.finder.find_at(hay, at);
                let near = m.as_ref().is_some_and(|m| self.near(hay, at, m.start));
                if w.saw(near, DENSE_HITS) == Some(true) {
                    match &self.scan {
                        Some(scan) if !scan.gave_up() => w.scanning = true,
                        _ => w.unwatched = DENSE_RUN,
                    }
                }
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

    fn answered_surely(&self) -> bool {
        let owner = self as *const DenseLines as usize;
        WATCH.get().is_some_and(|w| w.owner == owner && w.sure)
    }
}

#[cfg(test)]
mod tests;
