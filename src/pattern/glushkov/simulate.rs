//! The automaton run on the CPU, step for step as `kernels/automaton.cu`
//! runs it: the kernel's oracle (tests/gpu_automaton.rs) and the
//! simulated pipeline's chunk search. What it reports is the kernel's
//! result shape: the start of every line the automaton selects (for an
//! empty line, the offset of its terminator).

use super::word::{is_word_byte, BOM};
use super::Automaton;

impl Automaton {
    /// The start of every selected line of `text`, ascending. A line runs
    /// to the next terminator or the end of `text`; nothing follows a
    /// final terminator.
    pub fn reference(&self, text: &[u8]) -> Vec<u64> {
        self.reference_sure(text).0
    }

    /// [`Self::reference`], and whether the kernel leaves its `unsure`
    /// flag clear: set under `-w` (`word`) when a line past ASCII was
    /// selected as a candidate.
    pub fn reference_sure(&self, text: &[u8]) -> (Vec<u64>, bool) {
        let t = self.terminator;
        let mut out = Vec::new();
        let mut sure = true;
        let mut state = vec![0u32; self.words];
        let mut next = vec![0u32; self.words];
        let mut start = 0;
        while start < text.len() {
            let end = memchr::memchr(t, &text[start..]).map_or(text.len(), |i| start + i);
            let verdict = self.line_verdict(&text[start..end], &mut state, &mut next);
            if verdict != Verdict::No {
                out.push(start as u64);
            }
            sure &= !(self.word && verdict == Verdict::Candidate);
            start = end + 1;
        }
        (out, sure)
    }

    /// Whether the automaton selects `line` (no terminator inside).
    pub fn is_match_line(&self, line: &[u8]) -> bool {
        let mut state = vec![0u32; self.words];
        let mut next = vec![0u32; self.words];
        self.line_verdict(line, &mut state, &mut next) != Verdict::No
    }

    /// Runs the ASCII part (when there is one) until a byte past ASCII,
    /// then the line again on the rest of the words.
    fn line_verdict(&self, line: &[u8], d: &mut [u32], nx: &mut [u32]) -> Verdict {
        let hit = |h| match h {
            true => Verdict::Hit,
            false => Verdict::No,
        };
        if line.is_empty() {
            return hit(self.empty_line);
        }
        match self.ascii_words {
            0 => hit(self.part_matches(line, 0..self.words, d, nx) == Some(true)),
            a => match self.part_matches(line, 0..a, d, nx) {
                Some(h) => hit(h),
                // Past ASCII with no whole rules: a candidate.
                None if a == self.words => Verdict::Candidate,
                None => hit(self.part_matches(line, a..self.words, d, nx) == Some(true)),
            },
        }
    }

    /// Whether words `part` select `line`; `None` when a byte past ASCII
    /// stopped the ASCII part (`part` is `0..ascii_words`).
    fn part_matches(
        &self,
        line: &[u8],
        part: std::ops::Range<usize>,
        d: &mut [u32],
        nx: &mut [u32],
    ) -> Option<bool> {
        let stops = self.ascii_words > 0 && part.start == 0;
        d.fill(0);
        let mut live = false;
        // -w: a final position reached at the last byte read, which counts
        // if the next byte is not a word byte or the line ends.
        let mut ended = false;
        // -w: a byte-order mark first is stepped over (automaton.cu).
        let bom = if self.word && line.starts_with(BOM) {
            BOM.len()
        } else {
            0
        };
        for (i, &b) in line.iter().enumerate() {
            if i < bom {
                continue;
            }
            if stops && b >= 0x80 {
                return None;
            }
            if ended && !is_word_byte(b) {
                return Some(true);
            }
            let c = usize::from(self.class_of[usize::from(b)]);
            let at_start = i == 0;
            if !live && !at_start && self.class_starts[c / 32] >> (c % 32) & 1 == 0 {
                continue;
            }
            // -w: a match starts after a byte that is not a word byte.
            let opens = !self.word || at_start || !is_word_byte(line[i - 1]);
            let mut carry = 0u32;
            for k in part.clone() {
                let x = d[k];
                let mut r = ((x << 1) | carry) & self.shift[k];
                r |= x & self.self_loop[k];
                if opens {
                    r |= self.first_any[k];
                }
                if at_start {
                    r |= self.first_bol[k];
                }
                carry = x >> 31;
                nx[k] = r;
            }
            for k in part.clone() {
                let mut bits = d[k] & self.has_exc[k];
                while bits != 0 {
                    let e = self.exc_map[k * 32 + bits.trailing_zeros() as usize] as usize;
                    bits &= bits - 1;
                    let (from, to) = (self.exc_start[e] as usize, self.exc_start[e + 1] as usize);
                    for j in from..to {
                        nx[self.exc_word[j] as usize] |= self.exc_mask[j];
                    }
                }
            }
            let w = self.words;
            let mask = &self.masks[c * w..(c + 1) * w];
            let mut acc = 0u32;
            let mut any = 0u32;
            for k in part.clone() {
                let v = nx[k] & mask[k];
                d[k] = v;
                acc |= v & self.last_any[k];
                any |= v;
            }
            if acc != 0 && !self.word {
                return Some(true);
            }
            ended = acc != 0;
            live = any != 0;
        }
        Some(ended || live && part.clone().any(|k| d[k] & self.last_eol[k] != 0))
    }
}

/// What the kernel makes of a line (automaton.cu's `PASS_*`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    No,
    Hit,
    /// Selected for a byte past ASCII (the ASCII part alone).
    Candidate,
}
