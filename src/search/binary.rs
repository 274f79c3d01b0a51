//! The one rule for binary data, GNU grep's, in one place.
//!
//! An input is binary when a NUL byte lies in its first 32 KiB
//! ([`BINARY_PROBE`], however its bytes arrive: a slice is probed at once,
//! a stream as its blocks come in) or, later, in a line about to be printed
//! (the searcher's [`stop_on_nul`](super::SearchOptions::stop_on_nul)). It
//! is never binary with `-a`/`--binary-files=text`, nor with `-z`, whose
//! terminator is NUL. Binary data then prints nothing: `-I` takes it as
//! holding no match, and otherwise the search goes on [`quiet`]ly only to
//! learn whether a line is selected, for grep's "binary file matches".

use super::{Line, Outcome, SearchOptions, Sink};
use crate::config::BinaryMode;
use std::io;

/// How many leading bytes decide that an input is binary (GNU grep's
/// buffer).
pub const BINARY_PROBE: usize = 32 * 1024;

/// A line of a stream longer than this that holds a NUL is cut after its
/// last NUL: binary data need not have newlines (`/dev/zero`), and GNU
/// grep, which takes every NUL of a binary file for a line end, holds
/// about this much of it.
pub const BINARY_LINE_CUT: usize = 1 << 20;

/// Whether and how binary data is told apart, for one run.
#[derive(Debug, Clone, Copy)]
pub struct BinaryRule {
    /// NUL bytes are looked for (not `-a`, not `-z`).
    pub watch: bool,
    /// What `--binary-files` says to do with binary data.
    pub mode: BinaryMode,
}

impl BinaryRule {
    /// The rule for `--binary-files` and the line terminator.
    pub fn new(mode: BinaryMode, terminator: u8) -> BinaryRule {
        BinaryRule {
            watch: mode != BinaryMode::Text && terminator == b'\n',
            mode,
        }
    }

    /// Whether `bytes`, an input's start, make it binary.
    pub fn probe(&self, bytes: &[u8]) -> bool {
        self.watch && Probe::default().feed(bytes)
    }

    /// Whether printed lines are watched for a late NUL (only lines are
    /// printed in the lines mode).
    pub fn stop_on_nul(&self, lines_mode: bool) -> bool {
        self.watch && lines_mode
    }
}

/// The probe of an input's first [`BINARY_PROBE`] bytes, fed as they
/// arrive (a slice at once, a stream block by block).
#[derive(Debug, Default)]
pub struct Probe {
    probed: usize,
}

impl Probe {
    /// Whether `new`, the input's next bytes, hold a NUL within the probe.
    pub fn feed(&mut self, new: &[u8]) -> bool {
        let new = &new[..new.len().min(BINARY_PROBE - self.probed)];
        self.probed += new.len();
        memchr::memchr(0, new).is_some()
    }

    /// The probe has seen all the bytes it looks at.
    pub fn done(&self) -> bool {
        self.probed >= BINARY_PROBE
    }
}

/// The options of the search that goes on over binary data: it prints
/// nothing and stops at the first selected line, which decides the message.
pub fn quiet(opts: SearchOptions) -> SearchOptions {
    SearchOptions {
        max_count: Some(1),
        before: 0,
        after: 0,
        stop_on_nul: false,
        ..opts
    }
}

/// The outcome of a [`quiet`] search: binary when it selected a line.
pub fn quiet_outcome(o: Outcome) -> Outcome {
    Outcome {
        binary: o.selected > 0,
        ..o
    }
}

/// A sink that only lets the searcher count (the [`quiet`] search's, and
/// auto's probe of the CPU engine's pace: `Search::count_slice`).
pub struct CountOnly;

impl Sink for CountOnly {
    fn selected(&mut self, _line: &Line) -> io::Result<bool> {
        Ok(true)
    }
    fn context(&mut self, _line: &Line) -> io::Result<()> {
        Ok(())
    }
    fn gap(&mut self) -> io::Result<()> {
        Ok(())
    }
    fn counts_only(&self) -> bool {
        true
    }
}
