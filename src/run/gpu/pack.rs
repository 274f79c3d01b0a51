//! Packing files into fixed-size chunks, and mapping a chunk's match offsets
//! back to files.
//!
//! The GPU searches one chunk (a pinned staging buffer) at a time. Small
//! files are packed one after another, each followed by one separator byte
//! (the line terminator), so one launch covers thousands of them; a file
//! that does not fit in a whole chunk is cut into pieces that overlap by
//! `pattern length - 1` bytes. A file that fits in a fresh chunk is never
//! cut: it then lies whole in one buffer, which the CPU reads again for
//! lines and output.
//!
//! Offsets are mapped back with a bound check: a match must lie entirely
//! inside one piece. That rejects matches that cross a separator whatever
//! bytes the pattern holds, and makes each match belong to exactly one
//! piece: a piece that ends inside a file reports only matches ending by its
//! end, and the next piece starts `m - 1` bytes earlier, so a match
//! crossing the cut is found once, by the next piece. Everything here is
//! pure and tested against a naive search with chunks of a few bytes.

use std::ops::Range;

/// A run of one file's bytes inside a chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The file (the caller's index).
    pub file: usize,
    /// Where the piece starts in the file.
    pub file_off: u64,
    /// Where the piece starts in the chunk.
    pub chunk_off: usize,
    pub len: usize,
    /// The piece ends the file.
    pub last: bool,
}

impl Piece {
    /// The piece is the whole file.
    pub fn whole(&self) -> bool {
        self.file_off == 0 && self.last
    }
}

/// One chunk's layout: its pieces in ascending `chunk_off`, and its length
/// (pieces plus separators).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    pub pieces: Vec<Piece>,
    pub len: usize,
}

impl Plan {
    /// The chunk starts where a file starts (a character start in every
    /// encoding); false when its first piece continues a file cut at the
    /// end of the previous chunk. Only a chunk's first piece can continue
    /// a file: `Packer::push` starts a fresh chunk for every cut piece
    /// after a file's first.
    pub fn starts_a_file(&self) -> bool {
        self.pieces.first().is_none_or(|p| p.file_off == 0)
    }

    /// Where separator bytes go: after each piece that ends its file, when
    /// the chunk has room.
    pub fn separators(&self) -> impl Iterator<Item = usize> + '_ {
        self.pieces
            .iter()
            .filter(|p| p.last)
            .map(|p| p.chunk_off + p.len)
            .filter(|&at| at < self.len)
    }
}

/// Lays files out in chunks of at most `chunk` bytes.
pub struct Packer {
    chunk: usize,
    overlap: usize,
    cur: Plan,
}

impl Packer {
    /// Chunks of `chunk` bytes for a pattern of `pattern_len` bytes; the
    /// chunk is raised to `pattern_len` so every cut makes progress.
    pub fn new(chunk: usize, pattern_len: usize) -> Packer {
        let m = pattern_len.max(1);
        Packer {
            chunk: chunk.max(m),
            overlap: m - 1,
            cur: Plan::default(),
        }
    }

    /// Adds file `file` of `size` bytes (more than 0); chunks completed on
    /// the way go to `done`.
    pub fn push(&mut self, file: usize, size: u64, done: &mut Vec<Plan>) {
        let mut off = 0u64;
        // A file that fits in a fresh chunk goes whole into one.
        if size <= self.chunk as u64 && (self.chunk - self.cur.len) < size as usize {
            self.flush(done);
        }
        while off < size {
            let room = self.chunk - self.cur.len;
            let rest = size - off;
            if rest > room as u64 && room <= self.overlap {
                // Too little room for a cut piece to make progress.
                self.flush(done);
                continue;
            }
            let take = rest.min(room as u64) as usize;
            let last = off + take as u64 == size;
            self.cur.pieces.push(Piece {
                file,
                file_off: off,
                chunk_off: self.cur.len,
                len: take,
                last,
            });
            self.cur.len += take;
            if last {
                // The separator, if it fits (the chunk's end separates too).
                self.cur.len = (self.cur.len + 1).min(self.chunk);
                return;
            }
            self.flush(done);
            off += (take - self.overlap) as u64;
        }
    }

    /// Completes the current chunk, if it holds anything.
    pub fn flush(&mut self, done: &mut Vec<Plan>) {
        if !self.cur.pieces.is_empty() {
            done.push(std::mem::take(&mut self.cur));
        }
    }
}

/// The line starts a piece owns, relative to it (`bytes` are the piece's,
/// `overlap` the packer's, `t` the line terminator), for kinds whose cuts
/// fall where each cut's overlap holds a terminator: from after its first
/// terminator (from 0 when it starts the file) to the first line start in
/// the overlap it shares with the next piece (to its end when it ends the
/// file). The next piece's own first terminator is that one, so it owns
/// the lines from there: every line of the file is owned by exactly one
/// piece, and lies whole in it. Where the overlap holds no terminator a
/// line crosses the cut (the file is the CPU's): the range is empty.
pub fn owned_lines(piece: &Piece, bytes: &[u8], overlap: usize, t: u8) -> Range<usize> {
    let lo = match piece.file_off {
        0 => 0,
        _ => memchr::memchr(t, bytes).map_or(bytes.len(), |i| i + 1),
    };
    let end = match piece.last {
        true => bytes.len(),
        false => {
            let shared = bytes.len().saturating_sub(overlap);
            memchr::memchr(t, &bytes[shared..]).map_or(lo, |i| shared + i + 1)
        }
    };
    lo..end.max(lo)
}

/// Maps `offsets` (ascending match starts in a chunk laid out by `plan`,
/// for an `m`-byte pattern) to files: `each(piece index, offset in the
/// file)` for every match inside one piece, in order.
pub fn assign(plan: &Plan, offsets: &[u64], m: usize, mut each: impl FnMut(usize, u64)) {
    let mut p = 0;
    for &o in offsets {
        let o = o as usize;
        while p < plan.pieces.len() && plan.pieces[p].chunk_off + plan.pieces[p].len <= o {
            p += 1;
        }
        let Some(piece) = plan.pieces.get(p) else {
            return;
        };
        if o >= piece.chunk_off && o + m <= piece.chunk_off + piece.len {
            each(p, piece.file_off + (o - piece.chunk_off) as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn occurrences(hay: &[u8], pat: &[u8]) -> Vec<u64> {
        (0..hay.len())
            .filter(|&i| hay[i..].starts_with(pat))
            .map(|i| i as u64)
            .collect()
    }

    /// Packs, fills the chunks (separators and slack hold `filler`), searches
    /// every chunk naively, and maps the offsets back per file.
    fn through_chunks(files: &[Vec<u8>], pat: &[u8], chunk: usize, filler: u8) -> Vec<Vec<u64>> {
        let mut packer = Packer::new(chunk, pat.len());
        let mut plans = Vec::new();
        for (i, f) in files.iter().enumerate() {
            if !f.is_empty() {
                packer.push(i, f.len() as u64, &mut plans);
            }
        }
        packer.flush(&mut plans);
        let mut found = vec![Vec::new(); files.len()];
        for plan in &plans {
            assert!(plan.len <= chunk.max(pat.len()));
            let mut buf = vec![filler; plan.len];
            for p in &plan.pieces {
                let start = p.file_off as usize;
                buf[p.chunk_off..p.chunk_off + p.len]
                    .copy_from_slice(&files[p.file][start..start + p.len]);
            }
            assign(plan, &occurrences(&buf, pat), pat.len(), |piece, off| {
                found[plan.pieces[piece].file].push(off)
            });
        }
        found
    }

    proptest! {
        /// With chunks of a few bytes, every occurrence in every file is
        /// found exactly once, in order, and none across files.
        #[test]
        fn tiny_chunks_find_every_match_once(
            files in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 0..50), 1..8),
            pat in prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 1..5),
            chunk in 1usize..40,
            filler in prop::sample::select(b"ab\n".to_vec()),
        ) {
            let found = through_chunks(&files, &pat, chunk, filler);
            for (f, got) in files.iter().zip(&found) {
                prop_assert_eq!(got, &occurrences(f, &pat));
            }
        }

        /// Every byte of every file lands in some piece, pieces of one file
        /// ascend, and a file that fits in a chunk is never cut.
        #[test]
        fn layout_covers_files(sizes in prop::collection::vec(1u64..100, 1..20), chunk in 1usize..64, m in 1usize..6) {
            let mut packer = Packer::new(chunk, m);
            let mut plans = Vec::new();
            for (i, &s) in sizes.iter().enumerate() {
                packer.push(i, s, &mut plans);
            }
            packer.flush(&mut plans);
            for plan in &plans {
                // Only a chunk's first piece may continue a file (the GPU's
                // back-read takes every other piece's start as a file's).
                prop_assert!(plan.pieces[1..].iter().all(|p| p.file_off == 0));
                prop_assert_eq!(plan.starts_a_file(), plan.pieces[0].file_off == 0);
            }
            let pieces: Vec<&Piece> = plans.iter().flat_map(|p| &p.pieces).collect();
            for (i, &s) in sizes.iter().enumerate() {
                let mine: Vec<&&Piece> = pieces.iter().filter(|p| p.file == i).collect();
                prop_assert_eq!(mine[0].file_off, 0);
                prop_assert!(mine.last().unwrap().last);
                prop_assert_eq!(mine.last().unwrap().file_off + mine.last().unwrap().len as u64, s);
                for w in mine.windows(2) {
                    // Consecutive pieces overlap by exactly m - 1 bytes.
                    prop_assert_eq!(w[0].file_off + w[0].len as u64, w[1].file_off + (m - 1) as u64);
                }
                if s <= chunk.max(m) as u64 {
                    prop_assert_eq!(mine.len(), 1);
                    prop_assert!(mine[0].whole());
                }
            }
        }
    }

    proptest! {
        /// Cut at lines: with every cut's overlap holding a terminator,
        /// each line start of a file is owned by exactly one piece, and
        /// the line lies whole in it (its terminator inside the piece, or
        /// the piece ends the file).
        #[test]
        fn every_line_is_owned_once_and_whole(
            files in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 1..80), 1..5),
            chunk in 8usize..40,
            overlap in 2usize..6,
        ) {
            let mut packer = Packer::new(chunk, overlap + 1);
            let mut plans = Vec::new();
            for (i, f) in files.iter().enumerate() {
                packer.push(i, f.len() as u64, &mut plans);
            }
            packer.flush(&mut plans);
            let pieces: Vec<&Piece> = plans.iter().flat_map(|p| &p.pieces).collect();
            for (i, f) in files.iter().enumerate() {
                let mine: Vec<&&Piece> = pieces.iter().filter(|p| p.file == i).collect();
                let bytes = |p: &Piece| &f[p.file_off as usize..p.file_off as usize + p.len];
                // A line across a cut: the CPU's file (`Lane::long_lines`).
                prop_assume!(mine.iter().all(|p| p.last || bytes(p)[p.len - overlap..].contains(&b'\n')));
                let mut owned = Vec::new();
                for p in &mine {
                    let r = owned_lines(p, bytes(p), overlap, b'\n');
                    for at in r {
                        if at == 0 || bytes(p)[at - 1] == b'\n' {
                            let end = bytes(p)[at..].iter().position(|&b| b == b'\n');
                            prop_assert!(end.is_some() || p.last);
                            owned.push(p.file_off + at as u64);
                        }
                    }
                }
                let starts: Vec<u64> = (0..f.len())
                    .filter(|&k| k == 0 || f[k - 1] == b'\n')
                    .map(|k| k as u64)
                    .collect();
                prop_assert_eq!(owned, starts);
            }
        }
    }

    #[test]
    fn small_files_share_a_chunk_with_separators() {
        let mut packer = Packer::new(16, 2);
        let mut plans = Vec::new();
        packer.push(0, 3, &mut plans);
        packer.push(1, 4, &mut plans);
        packer.push(2, 10, &mut plans); // does not fit in the 8 left: new chunk
        packer.flush(&mut plans);
        assert_eq!(plans.len(), 2);
        assert_eq!(plans[0].len, 9);
        assert_eq!(plans[0].separators().collect::<Vec<_>>(), vec![3, 8]);
        assert_eq!(plans[1].pieces[0].chunk_off, 0);
        assert!(plans[1].pieces[0].whole());
    }

    /// Regression guard: a match that straddles a separator is not reported
    /// even when the separator byte is part of the pattern.
    #[test]
    fn match_across_a_separator_is_rejected() {
        let files = vec![b"xa".to_vec(), b"b".to_vec()];
        let found = through_chunks(&files, b"a\nb", 64, b'\n');
        assert_eq!(found, vec![Vec::<u64>::new(), Vec::new()]);
    }
}
