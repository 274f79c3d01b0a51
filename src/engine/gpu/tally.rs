//! Per-file counts the GPU computes instead of shipping match offsets
//! (`tally` in `kernels/tally.cu`), its launch, and its CPU mirror: the
//! simulated pipeline runs the mirror, unit tests check it against counting
//! the obvious way, and tests/gpu_differential.rs checks the kernel against
//! both.

use cudarc::driver::{result, LaunchConfig, PushKernelArg};

use super::context::{cuda, Device};
use super::kernels;
use super::kind::Kind;
use super::memory::{ptr, up};
use super::GpuError;

/// Longest walk back (bytes) the tally kernel takes to find a line's start
/// before it gives up and the chunk's offsets ship instead.
pub(crate) const TALLY_REACH: u32 = 1 << 18;

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
        let reach = u64::from(TALLY_REACH);
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

impl Device {
    /// Runs `tally` over the resident text and the bitmap that `kind`'s
    /// search left: lines, then matches, per file of `t`; `None` when a
    /// walk gave up (a line over `TALLY_REACH`).
    pub(super) fn tally(
        &mut self,
        t: &Tally,
        kind: &dyn Kind,
    ) -> Result<Option<Vec<u32>>, GpuError> {
        let pieces = t.starts.len();
        if pieces == 0 || t.ends.len() != pieces {
            return Ok(Some(Vec::new()));
        }
        up(&self.stream, &mut self.tally_starts, &t.starts)?;
        up(&self.stream, &mut self.tally_ends, &t.ends)?;
        // Lines and matches per file, then the gave-up flag.
        let len = 2 * pieces + 1;
        let out = self
            .tally_counts
            .ensure(&self.stream, len, "allocating tallies")?;
        let out_ptr = ptr(out, &self.stream);
        // SAFETY: the buffer holds `len` u32s (ensure above).
        unsafe { result::memset_d8_async(out_ptr, 0, len * 4, self.stream.cu_stream()) }
            .map_err(cuda("clearing tallies"))?;
        let n = self.resident;
        let words = n.div_ceil(32);
        let cfg = LaunchConfig {
            grid_dim: (
                kernels::grid_for(words.div_ceil(256), self.sm_count * 16),
                1,
                1,
            ),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        let (pieces32, term, reach) = (pieces as u32, u32::from(t.term), TALLY_REACH);
        let gave_up = out_ptr + 2 * pieces as u64 * 4;
        let chain = u32::from(t.count == MatchCount::NonOverlapping);
        // Match lengths for chains: the literal's, or the set's tables.
        let c = match chain {
            0 => super::kind::Chain::fixed(0),
            _ => kind.chain(self)?,
        };
        let (fixed, classes, slot_log2) = (c.fixed, c.classes, c.slot_log2);
        let [set2, set3, keys, slots, first, pstarts, bytes, links] = c.tables;
        let mut b = self.stream.launch_builder(&self.f.tally);
        b.arg(self.text.get("tally")?)
            .arg(&n)
            .arg(self.bitmap.get("tally")?)
            .arg(self.tally_starts.get("tally")?)
            .arg(self.tally_ends.get("tally")?)
            .arg(&pieces32)
            .arg(&term)
            .arg(&reach)
            .arg(&chain)
            .arg(&fixed)
            .arg(&classes)
            .arg(&set2)
            .arg(&set3)
            .arg(&keys)
            .arg(&slots)
            .arg(&slot_log2)
            .arg(&first)
            .arg(&pstarts)
            .arg(&bytes)
            .arg(&links)
            .arg(&out_ptr)
            .arg(&gave_up);
        // SAFETY: tally's contract (tally.cu): text and bitmap hold the
        // resident n bytes and their match bits (the search just ran);
        // starts and ends hold `pieces` ascending disjoint ranges (Tally);
        // counts and the flag were zeroed above; the tables, read only for
        // chains of a set, are the ones `multi` searched with (Kind::chain).
        unsafe { b.launch(cfg) }.map_err(cuda("launching tally"))?;
        let mut host = vec![0u32; len];
        // SAFETY: the device buffer holds `len` u32s; the copy is
        // waited for before `host` is read, and `t`'s vectors outlive it.
        unsafe { result::memcpy_dtoh_async(&mut host[..], out_ptr, self.stream.cu_stream()) }
            .map_err(cuda("reading tallies"))?;
        self.stream.synchronize().map_err(cuda("tallying"))?;
        let gave_up = host.pop().unwrap_or(1) != 0;
        Ok((!gave_up).then_some(host))
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
