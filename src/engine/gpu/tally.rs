//! Per-file counts the GPU computes instead of shipping match offsets
//! (`tally` in `kernels/literal.cu`), and its CPU mirror: the simulated
//! pipeline runs the mirror, unit tests check it against counting the
//! obvious way, and tests/gpu_differential.rs checks the kernel against
//! both.

use super::device;

/// What the GPU counted in one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FileCount {
    /// Lines holding a match.
    pub lines: u32,
    /// Matches, as the tally's `MatchCount` counts them.
    pub matches: u32,
}

/// What a tally's match count counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchCount {
    /// Every match start, overlapping ones included: the matches when no
    /// two can overlap.
    Starts,
    /// Matches as `grep -o` prints them: in each line the leftmost, the
    /// longest there, then the leftmost after its end, and so on.
    NonOverlapping,
}

/// Per-file counts asked of a chunk search instead of its offsets: the
/// chunk holds whole files at `starts[k]..ends[k]` (ascending, disjoint),
/// each followed by the terminator `term`, which no match contains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub starts: Vec<u64>,
    pub ends: Vec<u64>,
    pub term: u8,
    pub count: MatchCount,
}

impl Tally {
    /// What the `tally` kernel computes, on the CPU and step by step the
    /// same way (the simulated pipeline runs it): `matches` are the
    /// chunk's match starts, ascending; `len_at(p)` the length of the
    /// longest match at `p` (read for `NonOverlapping` only). `None` when
    /// a walk along a line would give up.
    pub fn reference(
        &self,
        text: &[u8],
        matches: &[u64],
        len_at: &dyn Fn(u64) -> u64,
    ) -> Option<Vec<FileCount>> {
        let mut counts = vec![FileCount::default(); self.starts.len()];
        let is_match = |q: u64| matches.binary_search(&q).is_ok();
        let reach = u64::from(device::TALLY_REACH);
        for &p in matches {
            let k = self.starts.partition_point(|&s| s <= p);
            if k == 0 || p >= self.ends[k - 1] {
                continue;
            }
            let k = k - 1;
            if self.count == MatchCount::Starts {
                counts[k].matches += 1;
            }
            let (mut q, mut walked, mut first) = (p, 0u64, true);
            while q > self.starts[k] {
                q -= 1;
                if text[q as usize] == self.term {
                    break;
                }
                if is_match(q) {
                    first = false;
                    break;
                }
                walked += 1;
                if walked > reach {
                    return None;
                }
            }
            counts[k].lines += u32::from(first);
            if !first || self.count == MatchCount::Starts {
                continue;
            }
            // The line's first match: follow the chain of matches to its end.
            let (mut at, mut walked) = (p, 0u64);
            loop {
                counts[k].matches += 1;
                let mut q = at + len_at(at);
                let mut next = false;
                while q < self.ends[k] && text[q as usize] != self.term {
                    if is_match(q) {
                        next = true;
                        break;
                    }
                    walked += 1;
                    if walked > reach {
                        return None;
                    }
                    q += 1;
                }
                if !next {
                    break;
                }
                at = q;
            }
        }
        Some(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `Tally::reference` (the kernel's algorithm) against counting the
        /// lines of each file that hold a match, the obvious way.
        #[test]
        fn tally_reference_counts_matching_lines(
            text in prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 1..300),
            cuts in prop::collection::vec(0usize..300, 0..6),
            pattern in prop::collection::vec(prop::sample::select(b"ab".to_vec()), 1..3),
        ) {
            // Files: the text cut at `cuts`, each followed by a terminator.
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % text.len()).collect();
            cuts.extend([0, text.len()]);
            cuts.sort_unstable();
            cuts.dedup();
            let mut chunk = Vec::new();
            let (mut starts, mut ends) = (Vec::new(), Vec::new());
            for w in cuts.windows(2) {
                starts.push(chunk.len() as u64);
                chunk.extend_from_slice(&text[w[0]..w[1]]);
                ends.push(chunk.len() as u64);
                chunk.push(b'\n');
            }
            let matches: Vec<u64> = (0..chunk.len())
                .filter(|&p| chunk[p..].starts_with(&pattern))
                .map(|p| p as u64)
                .collect();
            let m = pattern.len() as u64;
            for count in [MatchCount::Starts, MatchCount::NonOverlapping] {
                let tally = Tally { starts: starts.clone(), ends: ends.clone(), term: b'\n', count };
                let got = tally.reference(&chunk, &matches, &|_| m).unwrap();
                let want: Vec<FileCount> = starts
                    .iter()
                    .zip(&ends)
                    .map(|(&s, &e)| {
                        let file = &chunk[s as usize..e as usize];
                        let has = |line: &[u8]| line.windows(pattern.len()).any(|w| w == pattern.as_slice());
                        let starts = (0..file.len()).filter(|&p| file[p..].starts_with(&pattern)).count();
                        let apart: usize = file.split(|&b| b == b'\n').map(|l| non_overlapping(l, &pattern)).sum();
                        FileCount {
                            lines: file.split(|&b| b == b'\n').filter(|l| has(l)).count() as u32,
                            matches: match count {
                                MatchCount::Starts => starts,
                                MatchCount::NonOverlapping => apart,
                            } as u32,
                        }
                    })
                    .collect();
                prop_assert_eq!(got, want);
            }
        }
    }

    /// Occurrences of `p` in `line` that do not overlap, from the left.
    fn non_overlapping(line: &[u8], p: &[u8]) -> usize {
        let (mut at, mut n) = (0, 0);
        while let Some(i) = line
            .get(at..)
            .and_then(|r| r.windows(p.len()).position(|w| w == p))
        {
            n += 1;
            at += i + p.len();
        }
        n
    }
}
