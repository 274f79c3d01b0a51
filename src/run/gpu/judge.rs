//! Lines a chunk's kind was unsure of, judged on the CPU where the lane
//! gets them (`engine::gpu::unsure`): a rule pack whose book leaves only
//! lines past ASCII unsure keeps its chunk's tally, or its marks as the
//! selected lines, with those few lines decided by the CPU engine's line
//! matcher, instead of every mark of the chunk going back as a candidate.

use super::flow::Flow;
use super::stats;
use crate::engine::gpu::{unsure, ChunkFound, FileCount};

impl Flow<'_, '_> {
    /// A tally's counts with the lines its kind was unsure of (each
    /// (file, line start), taken out of its file's count) judged by the
    /// CPU engine's line matcher and counted back where they match.
    pub(super) fn judge_unsure(
        &self,
        text: &[u8],
        mut counts: Vec<FileCount>,
        lines: &[(usize, u64)],
    ) -> ChunkFound {
        // Each names a file of the tally and a line in the chunk (`unsure`);
        // should one not, the CPU engine searches the chunk's files.
        if lines
            .iter()
            .any(|&(k, s)| k >= counts.len() || s as usize >= text.len())
        {
            return ChunkFound::Dense(0);
        }
        for &(k, s) in lines {
            counts[k].lines += u64::from(self.line_matches(text, s));
        }
        stats::add(&self.stages.unsure_chunks, 1);
        stats::add(&self.stages.unsure_lines, lines.len() as u64);
        ChunkFound::Counts(counts)
    }

    /// An unsure chunk's marks (ascending line starts) whose kind was
    /// unsure only of lines past ASCII: each marked line past ASCII judged
    /// by the CPU engine's line matcher and dropped unless it matches, so
    /// that the others are the selected lines (`Offsets`); as they came
    /// (`Unsure`, candidates) past `unsure::marked_lines_past_ascii`'s bound.
    pub(super) fn judge_unsure_marks(&self, text: &[u8], mut marks: Vec<u64>) -> ChunkFound {
        let t = self.search.terminator;
        let Some(lines) = unsure::marked_lines_past_ascii(text, &marks, t) else {
            return ChunkFound::Unsure(marks);
        };
        let unmatched: Vec<u64> = lines
            .iter()
            .copied()
            .filter(|&s| !self.line_matches(text, s))
            .collect();
        marks.retain(|m| unmatched.binary_search(m).is_err());
        stats::add(&self.stages.unsure_chunks, 1);
        stats::add(&self.stages.unsure_lines, lines.len() as u64);
        ChunkFound::Offsets(marks)
    }

    /// Whether the line of `text` starting at `s` (< its length) holds a
    /// match, as the CPU engine decides lines.
    fn line_matches(&self, text: &[u8], s: u64) -> bool {
        let line = &text[s as usize..];
        let end = memchr::memchr(self.search.terminator, line).unwrap_or(line.len());
        self.search.line_matcher.is_match_line(&line[..end])
    }
}
