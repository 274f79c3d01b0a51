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
//! numbered from 1 and copied aside; the search counts the rest of the
//! piece as it ends, so every byte is counted once, by the piece's own
//! search. The recorded lines go to the piece's printer, renumbered, as
//! soon as the pieces before it are counted: by the thread that searched
//! it if they are by then, else by the thread that appends the pieces in
//! order.
//!
//! Only for sparse output: a dense piece's copy is as large as its
//! output, and its printing could fall to the one appending thread.

use crate::search::{Line, Sink};
use std::io;

/// One recorded selected line: its bytes' place in the copy, and what the
/// searcher said of it (its number counted from the piece's first line, 1).
struct Rec {
    end: usize,
    number: Option<u64>,
    offset: u64,
    terminated: bool,
}

/// A sink that keeps the selected lines of one piece for later. It copies
/// their bytes, so the piece's pages can be released at once: kept
/// mapped until printed, 16 threads over 8 logs of 128 MiB (`-n -F
/// ERROR`) held 230 MB instead of 110 MB.
#[derive(Default)]
pub(super) struct Recorder {
    lines: Vec<Rec>,
    bytes: Vec<u8>,
}

impl Sink for Recorder {
    fn selected(&mut self, line: &Line) -> io::Result<bool> {
        self.bytes.extend_from_slice(line.bytes);
        self.lines.push(Rec {
            end: self.bytes.len(),
            number: line.number,
            offset: line.offset,
            terminated: line.terminated,
        });
        Ok(true)
    }

    /// A piece is numbered later only without context (`Pieces::step`).
    fn context(&mut self, _line: &Line) -> io::Result<()> {
        Err(io::Error::other("context lines in a split piece"))
    }

    fn gap(&mut self) -> io::Result<()> {
        Err(io::Error::other("context gap in a split piece"))
    }
}

/// The largest copy a thread keeps for its next recorded piece (pieces
/// are at most 4 MiB).
const KEEP_BYTES: usize = 8 << 20;

thread_local! {
    /// The thread's last recorder, emptied, for its next piece: a new one
    /// for each piece grew its copy from nothing into fresh pages at the
    /// start of every file (2 threads, `-n -F INFO` over 8 logs of 64 MB:
    /// about a sixth of the run's page faults).
    static KEPT: std::cell::Cell<Recorder> = std::cell::Cell::new(Recorder::default());
}

impl Recorder {
    /// An empty recorder: this thread's last one, or a new one.
    pub(super) fn take() -> Recorder {
        KEPT.with(|k| k.take())
    }

    /// Keeps this recorder, emptied, for the thread's next piece.
    pub(super) fn give(mut self) {
        if self.bytes.capacity() <= KEEP_BYTES {
            self.lines.clear();
            self.bytes.clear();
            KEPT.with(|k| k.set(self));
        }
    }

    /// Hands the recorded lines to `sink`, numbered from `first`; stops
    /// where the sink does.
    pub(super) fn replay(&self, first: u64, sink: &mut dyn Sink) -> io::Result<()> {
        let mut start = 0;
        for rec in &self.lines {
            let line = Line {
                bytes: &self.bytes[start..rec.end],
                number: rec.number.map(|n| first + n - 1),
                offset: rec.offset,
                terminated: rec.terminated,
            };
            start = rec.end;
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
    fn replay_renumbers_the_lines_it_copied() {
        let mut data = b"ab\ncd\nef".to_vec();
        let elsewhere = b"zz".to_vec();
        let mut rec = Recorder::default();
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
        // The piece's pages are released after its search: the copy stays.
        data.fill(b'?');
        let mut out = Lines::default();
        rec.replay(41, &mut out).unwrap();
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
