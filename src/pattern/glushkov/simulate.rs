//! The automaton run on the CPU, step for step as `kernels/automaton.cu`
//! runs it: the kernel's oracle (tests/gpu_automaton.rs) and the
//! simulated pipeline's chunk search. What it reports is the kernel's
//! result shape: the start of every line the automaton selects (for an
//! empty line, the offset of its terminator).

use super::Automaton;

impl Automaton {
    /// The start of every selected line of `text`, ascending. A line runs
    /// to the next terminator or the end of `text`; nothing follows a
    /// final terminator.
    pub fn reference(&self, text: &[u8]) -> Vec<u64> {
        let t = self.terminator;
        let mut out = Vec::new();
        let mut state = vec![0u32; self.words];
        let mut next = vec![0u32; self.words];
        let mut start = 0;
        while start < text.len() {
            let end = memchr::memchr(t, &text[start..]).map_or(text.len(), |i| start + i);
            if self.line_matches(&text[start..end], &mut state, &mut next) {
                out.push(start as u64);
            }
            start = end + 1;
        }
        out
    }

    /// Whether the automaton selects `line` (no terminator inside).
    pub fn is_match_line(&self, line: &[u8]) -> bool {
        let mut state = vec![0u32; self.words];
        let mut next = vec![0u32; self.words];
        self.line_matches(line, &mut state, &mut next)
    }

    /// Runs the ASCII part (when there is one) until a byte past ASCII,
    /// then the line again on the rest of the words.
    fn line_matches(&self, line: &[u8], d: &mut [u32], nx: &mut [u32]) -> bool {
        if line.is_empty() {
            return self.empty_line;
        }
        match self.ascii_words {
            0 => self.part_matches(line, 0..self.words, d, nx) == Some(true),
            a => match self.part_matches(line, 0..a, d, nx) {
                Some(hit) => hit,
                // Past ASCII with no whole rules: a candidate.
                None if a == self.words => true,
                None => self.part_matches(line, a..self.words, d, nx) == Some(true),
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
        for (i, &b) in line.iter().enumerate() {
            if stops && b >= 0x80 {
                return None;
            }
            let c = usize::from(self.class_of[usize::from(b)]);
            let at_start = i == 0;
            if !live && !at_start && self.class_starts[c / 32] >> (c % 32) & 1 == 0 {
                continue;
            }
            let mut carry = 0u32;
            for k in part.clone() {
                let x = d[k];
                let mut r = ((x << 1) | carry) & self.shift[k];
                r |= x & self.self_loop[k];
                r |= self.first_any[k];
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
            if acc != 0 {
                return Some(true);
            }
            live = any != 0;
        }
        Some(live && part.clone().any(|k| d[k] & self.last_eol[k] != 0))
    }
}
