//! The ordered walk's printing thread: it rebuilds the tree from the
//! listings as they come in and walks it depth first, printing each file's
//! result in turn.

use super::found::Found;
use super::inbox::{Inbox, Want};
use super::lead::{held, Lead};
use super::{Child, Msg};
use crate::run::gathered::Gathered;
use crate::run::one::FileResult;
use crate::run::parallel::part::Waiting;
use crate::run::{Printed, Shared};
use std::collections::HashMap;
use std::io::{self, Write};

/// The printing thread's view: the tree as listed so far, and results
/// waiting for their turn.
pub(super) struct Printer<'a> {
    pub(super) shared: &'a Shared,
    pub(super) inbox: &'a Inbox,
    pub(super) listings: HashMap<usize, Vec<Child>>,
    pub(super) results: Found,
    /// Parts of files' output sent before the printer reached them.
    pub(super) parts: Waiting,
    pub(super) lead: &'a Lead,
}

impl Printer<'_> {
    /// Walks the tree depth first as it comes in, printing each result in
    /// turn; ends when all is printed or the search must stop.
    pub(super) fn print(self, out: &mut dyn Write, state: &mut Printed) -> io::Result<()> {
        state.gathered = Gathered::for_stdout(self.shared.cfg.line_buffered);
        let printed = self.walk(out, state);
        let written = state.gathered.write(out);
        state.gathered = Gathered::off();
        printed.and(written)
    }

    fn walk(mut self, out: &mut dyn Write, state: &mut Printed) -> io::Result<()> {
        // (directory, next child) from the top down.
        let mut path: Vec<(usize, usize)> = vec![(0, 0)];
        while let Some(&(node, next)) = path.last() {
            self.lead
                .awaiting_listing(!self.listings.contains_key(&node));
            let Some(children) = self.listings.get(&node) else {
                if !self.receive(Want::Listing(node), out, &mut state.gathered)? {
                    break;
                }
                continue;
            };
            let Some(&child) = children.get(next) else {
                self.listings.remove(&node);
                path.pop();
                continue;
            };
            match child {
                Child::Dir(dir) => {
                    if let Some(last) = path.last_mut() {
                        last.1 += 1;
                    }
                    path.push((dir, 0));
                }
                Child::File(id) => match self.head(id, out, &mut state.gathered)? {
                    Some(result) => {
                        if let Some(last) = path.last_mut() {
                            last.1 += 1;
                        }
                        self.lead.printed(id, held(&result));
                        let mut result = result?;
                        state.emit(self.shared, out, &mut result)?;
                        if state.stop(self.shared) {
                            return Ok(());
                        }
                    }
                    None => {
                        if !self.receive(Want::Result(id), out, &mut state.gathered)? {
                            break;
                        }
                    }
                },
            }
        }
        Ok(())
    }

    /// File `id` is next: writes its parts that came before, and takes its
    /// result if it is there.
    fn head(
        &mut self,
        id: usize,
        out: &mut dyn Write,
        gathered: &mut Gathered,
    ) -> io::Result<Option<io::Result<FileResult>>> {
        self.parts
            .write_ready(id, out, gathered, &self.lead.parts)?;
        Ok(self.results.take(id))
    }

    /// Writes the outputs gathered (the printer is about to wait), takes
    /// what the search threads left, waiting for `want`, and writes the
    /// parts of the file it waits for; false when every search thread has
    /// ended and nothing is left.
    fn receive(
        &mut self,
        want: Want,
        out: &mut dyn Write,
        gathered: &mut Gathered,
    ) -> io::Result<bool> {
        gathered.write(out)?;
        let msgs = self.inbox.take(want);
        if msgs.is_empty() {
            return match self.inbox.failed() {
                true => Err(io::Error::other("a search thread failed")),
                false => Ok(false),
            };
        }
        let head = match want {
            Want::Result(id) => id,
            _ => usize::MAX,
        };
        for msg in msgs {
            match msg {
                Msg::Listed(node, children) => {
                    self.listings.insert(node, children);
                }
                Msg::Found(found) => self.results.add(found),
                Msg::Part(id, part) => {
                    self.parts
                        .take((id, part), head, out, gathered, &self.lead.parts)?
                }
            }
        }
        Ok(true)
    }
}
