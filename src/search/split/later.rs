//! A split piece searched before its first line number is known, and
//! numbered afterwards.
//!
//! With `-n`, a piece's lines are numbered from the sum of the lines of
//! the pieces before it. Counting those pieces ahead of the search read
//! every byte twice (counted ahead, then counted again between the
//! matches): with sparse output the counting was more of the time than
//! the search (2 threads, `-n -F ERROR` over 8 logs of 128 MiB: 35 % of
//! the cycles in the count, 33 % in the search). A piece whose first line
//! is not known yet is searched into a [`Recorder`] instead, its lines
//! numbered from 1; the search counts the rest of the piece as it ends,
//! so every byte is counted once, by the piece's own search. The recorded
//! lines go to the piece's printer, renumbered, as soon as the pieces
//! before it are counted: by the thread that searched it if they are by
//! then, else by the thread that appends the pieces in order.
//!
//! Only for sparse output: a dense piece's recording is as large as its
//! output, and its printing could fall to the one appending thread.

use crate::search::{Line, Sink};
use std::io;

/// One recorded selected line: where its bytes are, and what the searcher
/// said of it (its number counted from the piece's first line, 1).
struct Rec {
    /// Bytes in the searched slice (`in_data`) or in the spill.
    at: usize,
    len: usize,
    in_data: bool,
    number: Option<u64>,
    offset: u64,
    terminated: bool,
}

/// A sink that keeps the selected lines of one piece for later.
pub(super) struct Recorder<'d> {
    data: &'d [u8],
    lines: Vec<Rec>,
    spill: Vec<u8>,
}

/// What a [`Recorder`] kept, free of the searched slice's borrow.
pub(super) struct Recorded {
    lines: Vec<Rec>,
    spill: Vec<u8>,
}

impl<'d> Recorder<'d> {
    /// Records lines of `data` (a line elsewhere is copied).
    pub(super) fn new(data: &'d [u8]) -> Self {
        Recorder {
            data,
            lines: Vec::new(),
            spill: Vec::new(),
        }
    }

    pub(super) fn finish(self) -> Recorded {
        Recorded {
            lines: self.lines,
            spill: self.spill,
        }
    }
}

impl Sink for Recorder<'_> {
    fn selected(&mut self, line: &Line) -> io::Result<bool> {
        let start = self.data.as_ptr() as usize;
        let at = (line.bytes.as_ptr() as usize).wrapping_sub(start);
        let in_data = at <= self.data.len() && line.bytes.len() <= self.data.len() - at;
        let at = match in_data {
            true => at,
            false => {
                self.spill.extend_from_slice(line.bytes);
                self.spill.len() - line.bytes.len()
            }
        };
        self.lines.push(Rec {
            at,
            len: line.bytes.len(),
            in_data,
            number: line.number,
            offset: line.offset,
            terminated: line.terminated,
        });
        Ok(true)
    }

    /// A split slice has no context (`split::plan`).
    fn context(&mut self, _line: &Line) -> io::Result<()> {
        Err(io::Error::other("context lines in a split piece"))
    }

    fn gap(&mut self) -> io::Result<()> {
        Err(io::Error::other("context gap in a split piece"))
    }
}

impl Recorded {
    /// Hands the recorded lines of a slice of `data` to `sink`, numbered
    /// from `first`; stops where the sink does.
    pub(super) fn replay(&self, data: &[u8], first: u64, sink: &mut dyn Sink) -> io::Result<()> {
        for rec in &self.lines {
            let from = match rec.in_data {
                true => data,
                false => &self.spill,
            };
            let line = Line {
                bytes: &from[rec.at..rec.at + rec.len],
                number: rec.number.map(|n| first + n - 1),
                offset: rec.offset,
                terminated: rec.terminated,
            };
            if !sink.selected(&line)? {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collects what a sink is handed.
    #[derive(Default)]
    struct Lines(Vec<(Vec<u8>, Option<u64>, u64, bool)>);

    impl Sink for Lines {
        fn selected(&mut self, line: &Line) -> io::Result<bool> {
            let l = (
                line.bytes.to_vec(),
                line.number,
                line.offset,
                line.terminated,
            );
            self.0.push(l);
            Ok(true)
        }
        fn context(&mut self, _: &Line) -> io::Result<()> {
            Ok(())
        }
        fn gap(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn replay_renumbers_lines_of_the_slice_and_copies_others() {
        let data = b"ab\ncd\nef".to_vec();
        let elsewhere = b"zz".to_vec();
        let mut rec = Recorder::new(&data);
        let lines = [
            (&data[0..2], 1, 0, true),
            (&elsewhere[..], 2, 3, true),
            (&data[6..8], 3, 6, false),
        ];
        for (bytes, n, offset, terminated) in lines {
            let line = Line {
                bytes,
                number: Some(n),
                offset,
                terminated,
            };
            assert!(rec.selected(&line).unwrap());
        }
        let recorded = rec.finish();
        let mut out = Lines::default();
        recorded.replay(&data, 41, &mut out).unwrap();
        assert_eq!(
            out.0,
            vec![
                (b"ab".to_vec(), Some(41), 0, true),
                (b"zz".to_vec(), Some(42), 3, true),
                (b"ef".to_vec(), Some(43), 6, false),
            ]
        );
    }
}
