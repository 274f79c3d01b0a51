//! A rule pack's unsure lines, found on the host so that their chunk is
//! still tallied.
//!
//! The `confirm` kernel marks a line *unsure* where one of its rules has
//! no automaton for it, and keeps one flag per chunk: one such line made
//! every mark of its chunk a candidate, which the CPU confirmed line by
//! line. Under `-w` every line past ASCII holding a literal is unsure (the
//! word automata are ASCII only), so a log with a UTF-8 line every few
//! megabytes sent nearly all of a dense pack's lines back to the CPU.
//! Where every rule has its ASCII automaton
//! (`RuleBook::unsure_only_past_ascii`), only lines holding a byte past
//! ASCII can be unsure: the chunk is tallied all the same, and each marked
//! line past ASCII is taken out of its file's count here and judged by
//! the CPU (`run/gpu/judge.rs`), which adds it back if it matches. Where the marks
//! ship instead (printed lines), the CPU judges the same lines and drops
//! those that do not match: the others are the selected lines, printed
//! as they are.

use super::{FileCount, Tally};

/// Bytes tested at a time for a byte past ASCII.
const BLOCK: usize = 256;

/// A chunk may hand the CPU one line to judge per this many of its bytes
/// (4,096 in 64 MiB), at least [`LINES_MIN`]: the lane judges them itself,
/// one line after another, while the GPU waits for its next chunk. Past
/// that (text mostly past ASCII), the chunk's marks go to the run's
/// threads as candidates, as before.
const BYTES_PER_LINE: usize = 16 << 10;
const LINES_MIN: usize = 64;

/// The start of each line of `text` (lines end at `term`) that holds a
/// byte past ASCII and whose start is marked (`marks`, ascending), in
/// order; `None` past `text.len() / BYTES_PER_LINE` of them.
pub fn marked_lines_past_ascii(text: &[u8], marks: &[u64], term: u8) -> Option<Vec<u64>> {
    let most = (text.len() / BYTES_PER_LINE).max(LINES_MIN);
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(p) = next_past_ascii(text, at) {
        let start = memchr::memrchr(term, &text[..p]).map_or(0, |i| i + 1) as u64;
        at = memchr::memchr(term, &text[p..]).map_or(text.len(), |i| p + i + 1);
        if marks.binary_search(&start).is_ok() {
            found.push(start);
            if found.len() > most {
                return None;
            }
        }
    }
    Some(found)
}

/// Each of [`marked_lines_past_ascii`] that lies in one of `t`'s files:
/// taken out of that file's count in `counts` (which `t` counted it in)
/// and returned as (file, line start), ascending. `None` (and `counts`
/// left in any state) where there are too many, or where a count would go
/// below zero, which a tally of these marks never leaves.
pub fn take_lines_past_ascii(
    text: &[u8],
    marks: &[u64],
    t: &Tally,
    counts: &mut [FileCount],
) -> Option<Vec<(usize, u64)>> {
    let mut taken = Vec::new();
    for s in marked_lines_past_ascii(text, marks, t.term)? {
        let k = t.starts.partition_point(|&f| f <= s);
        if k == 0 || s >= t.ends[k - 1] {
            continue;
        }
        let c = &mut counts[k - 1];
        c.lines = c.lines.checked_sub(1)?;
        taken.push((k - 1, s));
    }
    Some(taken)
}

/// The first byte past ASCII at or after `at`.
fn next_past_ascii(text: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i < text.len() {
        let block = &text[i..text.len().min(i + BLOCK)];
        if !block.is_ascii() {
            return block.iter().position(|&b| b >= 0x80).map(|k| i + k);
        }
        i += block.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gpu::{MatchCount, Select};
    use proptest::prelude::*;

    fn tally(starts: Vec<u64>, ends: Vec<u64>) -> Tally {
        Tally {
            starts,
            ends,
            term: b'\n',
            count: MatchCount::Starts,
            select: Select::Any,
            total: false,
        }
    }

    proptest! {
        /// The lines taken are exactly the marked lines past ASCII inside
        /// a file (found line by line here), and each file's count drops
        /// by its own.
        #[test]
        fn the_marked_lines_past_ascii_are_taken_from_their_files(
            lines in prop::collection::vec(
                (prop::collection::vec(prop::sample::select(vec![b'a', b' ', 0xc3, 0xa9]), 0..300), any::<bool>()),
                0..40,
            ),
            cuts in prop::collection::vec(0usize..12_000, 0..6),
        ) {
            let mut text = Vec::new();
            let mut marks = Vec::new();
            let mut line_starts = Vec::new();
            for (line, marked) in &lines {
                line_starts.push(text.len() as u64);
                if *marked {
                    marks.push(text.len() as u64);
                }
                text.extend_from_slice(line);
                text.push(b'\n');
            }
            // Files: ranges between cuts, every other one left out.
            let mut bounds: Vec<u64> = cuts.iter().map(|&c| (c.min(text.len())) as u64).collect();
            bounds.push(0);
            bounds.push(text.len() as u64);
            bounds.sort_unstable();
            bounds.dedup();
            let files: Vec<(u64, u64)> = bounds.windows(2).step_by(2).map(|w| (w[0], w[1])).collect();
            let t = tally(files.iter().map(|f| f.0).collect(), files.iter().map(|f| f.1).collect());
            let mut counts = vec![FileCount { lines: 1000, ..FileCount::default() }; files.len()];
            let taken = take_lines_past_ascii(&text, &marks, &t, &mut counts).unwrap();
            let mut want = Vec::new();
            for (i, &s) in line_starts.iter().enumerate() {
                let past = !lines[i].0.is_ascii();
                if let Some(k) = files.iter().position(|&(a, b)| a <= s && s < b) {
                    if past && lines[i].1 {
                        want.push((k, s));
                    }
                }
            }
            prop_assert_eq!(&taken, &want);
            for (k, c) in counts.iter().enumerate() {
                let n = want.iter().filter(|w| w.0 == k).count() as u64;
                prop_assert_eq!(c.lines, 1000 - n);
            }
        }
    }

    /// Text mostly past ASCII: its lines stay with the run's threads.
    #[test]
    fn more_lines_than_a_lane_judges_take_nothing() {
        let text = "\u{e9}\n".repeat(LINES_MIN + 1);
        let marks: Vec<u64> = (0..=LINES_MIN as u64).map(|i| 3 * i).collect();
        let t = tally(vec![0], vec![text.len() as u64]);
        let mut counts = vec![FileCount {
            lines: 1000,
            ..FileCount::default()
        }];
        assert_eq!(
            take_lines_past_ascii(text.as_bytes(), &marks, &t, &mut counts),
            None
        );
        let mut counts = vec![FileCount {
            lines: 1000,
            ..FileCount::default()
        }];
        let fewer = &marks[..LINES_MIN];
        let taken = take_lines_past_ascii(text.as_bytes(), fewer, &t, &mut counts).unwrap();
        assert_eq!(taken.len(), LINES_MIN);
    }

    /// A count the tally never gave: the chunk's marks stay candidates.
    #[test]
    fn a_count_below_zero_takes_nothing() {
        let text = "a\n\u{e9}\n".as_bytes();
        let t = tally(vec![0], vec![text.len() as u64]);
        let mut counts = vec![FileCount::default()];
        assert_eq!(take_lines_past_ascii(text, &[2], &t, &mut counts), None);
        let mut counts = vec![FileCount {
            lines: 1,
            ..FileCount::default()
        }];
        assert_eq!(
            take_lines_past_ascii(text, &[2], &t, &mut counts),
            Some(vec![(0, 2)])
        );
        assert_eq!(counts[0].lines, 0);
    }
}
