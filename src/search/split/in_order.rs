//! Searched pieces appended in order: the thread that owns the slice's
//! output takes each piece as it is searched and appends every piece whose
//! predecessors are appended, printing first the lines of a piece numbered
//! after its search (`later`).

use super::{Done, Pieces, Searched};
use crate::search::{Outcome, Output, Sink};
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::Ordering;

/// Searched pieces appended in order, and what they found.
pub(super) struct InOrder<P> {
    pub(super) waiting: BTreeMap<usize, io::Result<Done<P>>>,
    /// The next piece to append.
    pub(super) want: usize,
    pub(super) total: Outcome,
    pub(super) error: Option<io::Error>,
    /// With context: past the last line printed so far.
    pub(super) printed_end: Option<u64>,
}

impl<P: Sink + Send> InOrder<P> {
    /// Takes a searched piece and appends every piece now in order,
    /// handing their printers back; ends the search at binary data, at
    /// the first match where that settles it, or at an error.
    pub(super) fn add<O: Output<Piece = P>>(
        &mut self,
        (k, searched): Searched<P>,
        work: &Pieces<P>,
        sink: &mut O,
    ) {
        self.waiting.insert(k, searched);
        while let Some(searched) = self.waiting.remove(&self.want) {
            let k = self.want;
            self.want += 1;
            if work.ended.load(Ordering::Relaxed) {
                continue;
            }
            let stop = searched.and_then(|mut done| {
                let printed = match done.later.take() {
                    Some(later) => {
                        let printed = work.print_later(k, &later, &mut done.printer);
                        later.give();
                        printed
                    }
                    None => Ok(()),
                };
                let o = done.outcome;
                self.total.selected += o.selected;
                self.total.binary |= o.binary;
                // A group separator where the last line printed does not
                // end where this piece's first begins (the searcher's rule).
                let gap = match done.printed {
                    Some((first, end)) if work.search.opts.separators => {
                        let apart = self.printed_end.is_some_and(|e| e != first);
                        self.printed_end = Some(end);
                        apart
                    }
                    _ => false,
                };
                let printed = printed.and_then(|()| match gap {
                    true => sink.gap(),
                    false => Ok(()),
                });
                let appended = printed.and_then(|()| sink.append(&mut done.printer));
                work.give_printer(done.printer);
                let settled = o.selected > 0 && work.search.first_match_ends;
                appended.map(|()| o.binary || settled)
            });
            match stop {
                Ok(false) => {}
                Ok(true) => work.end(),
                Err(e) => {
                    self.error = Some(e);
                    work.end();
                }
            }
        }
    }
}
