//! Searching a stream block by block, keeping the last `-B` lines of each
//! block in front of the next.
//!
//! Binary detection sees what a slice's would: a NUL anywhere in the first
//! 32 KiB, however the bytes arrive, makes the stream binary from its
//! start. Output is held back until those 32 KiB (or the end) have been
//! read; only live output (`--line-buffered`, a terminal) goes out before,
//! and a NUL arriving later in the 32 KiB then stops it from there on. A
//! NUL found in a line cut at [`BINARY_LINE_CUT`] also makes the stream
//! binary from there on.

use super::binary::{self, CountOnly, Probe, BINARY_LINE_CUT};
use super::haystack::STREAM_CHUNK;
use super::recycled::{Recycled, FIRST_BLOCK};
use super::{Output, Search, Searched, Searcher};
use crate::config::BinaryMode;
use memchr::memrchr;
use std::io::{self, IsTerminal, Read};

/// The stream block size; `GPUGREP_STREAM_CHUNK` (a test knob) shrinks it
/// so tests can put block boundaries everywhere. Read once per stream, not
/// per block.
fn stream_chunk() -> usize {
    crate::knobs::get()
        .stream_chunk
        .get()
        .map_or(STREAM_CHUNK, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// Searches the stream whose first `head` bytes are already in `recycled`
/// (the thread's reused buffer) and whose rest comes from `reader`; its first
/// byte is at file offset `start`. A read error ends the search; what was
/// found stands, and the error is returned in [`Searched::error`].
pub(super) fn search_stream<O: Output>(
    search: &Search,
    mut reader: Box<dyn Read + Send>,
    recycled: &mut Recycled,
    head: usize,
    start: u64,
    sink: &mut O,
) -> io::Result<Searched> {
    let mut opts = search.opts;
    let rule = search.binary;
    let t = opts.terminator;
    let chunk = stream_chunk();
    let mut done = Searched::default();
    // `buf[..filled]` holds data; the rest of `buf` is initialised memory
    // kept from earlier reads and files, so reading never zero-fills.
    let mut filled = 0usize;
    let mut base = start;
    let mut from = 0usize;
    // `buf[from..scanned]` holds no terminator: a long line is scanned once,
    // not once per chunk read. `buf[from..nul_scanned]` holds no NUL.
    let mut scanned = 0usize;
    let mut nul_scanned = 0usize;
    let watch_nul = rule.watch;
    let mut probe = Probe::default();
    let mut suppress = false;
    let mut searcher: Option<Searcher> = None;
    let mut count_only = CountOnly;
    // Only here is it asked whether stdout is a terminal: once per stream,
    // never for a slice.
    if watch_nul && !(search.line_buffered || io::stdout().is_terminal()) {
        sink.hold(true);
    }
    let mut head = head.min(recycled.0.len());
    loop {
        // Read into the first block's room while half of it is free, as
        // ripgrep's 64 KiB buffer is read: only a line carried over longer
        // than half a block grows the buffer past it. Growing for every
        // stream (to a block and what was carried) copied each thread's
        // first 64 KiB into a new 128 KiB and kept both resident (16
        // threads over the Linux tree, `-c -E '.{200,}'`, H200 host: 4,090
        // → 3,850 page faults, 19.2 → 18.4 MB peak).
        let room = match filled <= chunk / 2 {
            true => chunk,
            false => filled + chunk,
        };
        if room > FIRST_BLOCK {
            recycled.uses_tail();
        }
        let buf = &mut recycled.0;
        if buf.len() < room {
            buf.resize(room, 0);
        }
        let n = if head > 0 {
            // The head arrives as the first read would have.
            std::mem::take(&mut head)
        } else {
            loop {
                match reader.read(&mut buf[filled..room]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        sink.hold(false);
                        done.outcome = searcher.map(|s| s.outcome()).unwrap_or_default();
                        done.error = Some(e);
                        return Ok(done);
                    }
                }
            }
        };
        filled += n;
        done.bytes += n as u64;
        let eof = n == 0;
        let mut nul_found = false;
        if watch_nul && !probe.done() {
            nul_found = probe.feed(&buf[filled - n..filled]);
            if eof || probe.done() {
                sink.hold(false);
            }
        }
        let end = if eof {
            filled
        } else {
            let lo = scanned.max(from);
            match memrchr(t, &buf[lo..filled]) {
                Some(i) => lo + i + 1,
                None => {
                    scanned = filled;
                    let lo = nul_scanned.max(from);
                    let cut = match watch_nul && filled - from >= BINARY_LINE_CUT {
                        true => memrchr(0, &buf[lo..filled]).map(|i| lo + i + 1),
                        false => None,
                    };
                    nul_scanned = filled;
                    match cut {
                        Some(cut) => {
                            nul_found = true;
                            cut
                        }
                        None if nul_found => from,
                        None => continue,
                    }
                }
            }
        };
        if nul_found && !suppress {
            if rule.mode == BinaryMode::WithoutMatch {
                sink.discard();
                sink.hold(false);
                done.outcome = Default::default();
                return Ok(done);
            }
            if opts.stop_on_nul {
                // Binary from here on: what was held back is dropped, and
                // the first selected line decides the message.
                sink.discard();
                sink.hold(false);
                if let Some(o) = searcher.as_ref().map(Searcher::outcome) {
                    if o.selected > 0 {
                        done.outcome = super::Outcome { binary: true, ..o };
                        return Ok(done);
                    }
                }
                opts = binary::quiet(opts);
                suppress = true;
                searcher = None;
            }
        }
        let s = searcher.get_or_insert_with(|| search.searcher(opts));
        if suppress {
            s.search_block(&buf[..end], base, from, &mut count_only)?;
        } else {
            s.search_block(&buf[..end], base, from, sink)?;
            sink.flush()?;
        }
        if eof || s.is_done() {
            let o = s.outcome();
            sink.hold(false);
            done.outcome = if suppress {
                binary::quiet_outcome(o)
            } else {
                o
            };
            return Ok(done);
        }
        // Keep up to `before` whole lines before `end` for leading context.
        let mut keep = end;
        for _ in 0..opts.before {
            if keep == 0 {
                break;
            }
            keep = memrchr(t, &buf[..keep - 1]).map_or(0, |i| i + 1);
        }
        buf.copy_within(keep..filled, 0);
        filled -= keep;
        base += keep as u64;
        from = end - keep;
        scanned = filled;
        nul_scanned = from;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::pattern::compile::compile;
    use crate::search::{Line, Sink};

    /// Counts selected lines; holds no output.
    struct Lines(u64);

    impl Sink for Lines {
        fn selected(&mut self, _: &Line) -> io::Result<bool> {
            self.0 += 1;
            Ok(true)
        }
        fn context(&mut self, _: &Line) -> io::Result<()> {
            Ok(())
        }
        fn gap(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Output for Lines {
        type Piece = Lines;
        fn hold(&mut self, _: bool) {}
        fn discard(&mut self) {}
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
        fn piece(&self) -> Option<Lines> {
            None
        }
        fn append(&mut self, _: &mut Lines) -> io::Result<()> {
            Ok(())
        }
    }

    /// Streams `text` (from a fresh thread buffer) searching for `needle`:
    /// lines selected, the buffer's length after, and whether it was said
    /// to use the buffer past its first block.
    fn stream(text: &[u8]) -> (u64, usize, bool) {
        let cfg = Config::from_args(&["-F", "needle"]);
        let c = compile(&[b"needle".to_vec()], &cfg).unwrap();
        let confirm = c.confirm_decides_lines();
        let search = Search::new(&cfg, &*c.prefilter, c.line_matcher(), confirm, 1);
        let mut buf = Recycled::take();
        buf.0 = Vec::new();
        let mut lines = Lines(0);
        let reader = Box::new(io::Cursor::new(text.to_vec()));
        let done = search_stream(&search, reader, &mut buf, 0, 0, &mut lines).unwrap();
        assert_eq!(done.bytes, text.len() as u64);
        (lines.0, std::mem::take(&mut buf.0).len(), buf.used_tail())
    }

    /// Short lines stream through one block of the buffer; a line longer
    /// than half a block grows it (and the lines are all found either way).
    #[test]
    fn short_lines_stream_through_one_block() {
        let line = b"a line with a needle in it, and more words after it\n";
        let text = line.repeat(40_000);
        assert_eq!(stream(&text), (40_000, FIRST_BLOCK, false));
        let mut long = text.clone();
        long.extend(std::iter::repeat_n(b'x', FIRST_BLOCK * 3));
        long.extend_from_slice(b"needle\n");
        long.extend_from_slice(&text);
        let (found, len, tail) = stream(&long);
        assert_eq!(found, 80_001);
        assert!(len > FIRST_BLOCK * 3 && tail);
    }
}
