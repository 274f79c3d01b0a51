//! Per-file counts the GPU computes instead of shipping match offsets
//! (`tally` in `kernels/tally.cu`), its launch, and its CPU mirror: the
//! simulated pipeline runs the mirror, unit tests (`tally/tests.rs`) check
//! it against counting the obvious way and against the CPU engine's `-w`
//! and `-x` rules, and tests/gpu_differential.rs checks the kernel against
//! both.
//!
//! Besides lines with a match and matches, a tally can select lines by
//! `-x` (the line's first match spans it) or `-w` (the line's match
//! starts in turn, each start's patterns longest first, until one has no
//! ASCII word character beside it), and count every file's lines (so `-v` is lines less selected
//! ones). Word characters beyond ASCII need decoding: a non-ASCII byte
//! beside a match tried flags the file for the CPU instead of guessing.
//! The mirror and the kernel take the same steps in the same order.

use cudarc::driver::{result, LaunchConfig, PushKernelArg};

use super::context::{cuda, Device};
use super::kernels;
use super::kind::Kind;
use super::memory::{ptr, up};
use super::GpuError;
use crate::confirm::is_ascii_word;

/// Longest walk back (bytes) the tally kernel takes to find a line's start
/// before it gives up and the chunk's offsets ship instead.
pub(crate) const TALLY_REACH: u32 = 1 << 18;

/// What the GPU counted in one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FileCount {
    /// Lines holding a match (that `Select` accepts).
    pub lines: u64,
    /// Matches, as the tally's `MatchCount` counts them.
    pub matches: u64,
    /// Lines in the file, when the tally counts them (`Tally::total`; for
    /// `-v`): its terminators, plus one for a last line without one.
    pub total: u64,
    /// `-w` met a byte that is not ASCII beside a match: the GPU cannot
    /// tell a word character there, and the CPU must search the file.
    pub cpu: bool,
}

impl std::ops::Add for FileCount {
    type Output = FileCount;

    /// Two pieces' counts of one file (`Search::cut_tally`).
    fn add(self, o: FileCount) -> FileCount {
        FileCount {
            lines: self.lines + o.lines,
            matches: self.matches + o.matches,
            total: self.total + o.total,
            cpu: self.cpu || o.cpu,
        }
    }
}

/// Which matches select their line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    /// Any match (no `-w` or `-x`).
    Any,
    /// `-w`: a match with no ASCII word character (`_` or alphanumeric) on
    /// either side; the line's match starts are tried in turn, and at each
    /// its patterns longest first. A byte that is not ASCII beside a match
    /// tried sets `FileCount::cpu`.
    Word,
    /// `-x`: a match at the line's start whose longest pattern ends at the
    /// line's end.
    Line,
}

impl Select {
    /// The kernel's `select` argument (tally.cu).
    pub(crate) fn code(self) -> u32 {
        match self {
            Select::Any => 0,
            Select::Word => 1,
            Select::Line => 2,
        }
    }
}

/// `-w` at match start `q` of the file `s..e` whose patterns there are
/// `lens` long, longest first (the kernel's `word_at`): `Some(true)` when
/// one has no word character on either side, `Some(false)` when none,
/// `None` when a byte tried is not ASCII (the byte before `q`, or after a
/// pattern tried before one is a word).
fn word_at(text: &[u8], q: u64, s: u64, e: u64, lens: &[u64]) -> Option<bool> {
    let byte = |at: u64, inside: bool| if inside { text[at as usize] } else { b' ' };
    let before = byte(q.wrapping_sub(1), q > s);
    if !before.is_ascii() {
        return None;
    }
    if is_ascii_word(before) {
        return Some(false);
    }
    for &len in lens {
        let after = byte(q + len, q + len < e);
        if !after.is_ascii() {
            return None;
        }
        if !is_ascii_word(after) {
            return Some(true);
        }
    }
    Some(false)
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
    /// Which matches select a line.
    pub select: Select,
    /// Count every file's lines too (`FileCount::total`).
    pub total: bool,
}

impl Tally {
    /// What the `tally` kernel computes, on the CPU and step by step the
    /// same way (the simulated pipeline runs it): `matches` are the
    /// chunk's match starts, ascending; `lens_at(p)` the lengths of the
    /// patterns occurring at `p`, longest first (read for
    /// `NonOverlapping`, `Line` and `Word`). `None` when a walk along a
    /// line would give up.
    pub fn reference(
        &self,
        text: &[u8],
        matches: &[u64],
        lens_at: &dyn Fn(u64) -> Vec<u64>,
    ) -> Option<Vec<FileCount>> {
        let len_at = |p: u64| lens_at(p).first().copied().unwrap_or(1);
        let mut counts = vec![FileCount::default(); self.starts.len()];
        if self.total {
            for (k, c) in counts.iter_mut().enumerate() {
                let file = &text[self.starts[k] as usize..self.ends[k] as usize];
                let terms = file.iter().filter(|&&b| b == self.term).count();
                let open = file.last().is_some_and(|&b| b != self.term);
                c.total = (terms + usize::from(open)) as u64;
            }
        }
        let is_match = |q: u64| matches.binary_search(&q).is_ok();
        let reach = u64::from(TALLY_REACH);
        // The first match start in `q..e` before a line end: `Some(None)`
        // when there is none, `None` once the walk (`walked` bytes along
        // the line) passes the kernel's reach.
        let next_in_line = |mut q: u64, e: u64, walked: &mut u64| -> Option<Option<u64>> {
            while q < e && text[q as usize] != self.term {
                if is_match(q) {
                    return Some(Some(q));
                }
                *walked += 1;
                if *walked > reach {
                    return None;
                }
                q += 1;
            }
            Some(None)
        };
        for &p in matches {
            let k = self.starts.partition_point(|&s| s <= p);
            if k == 0 || p >= self.ends[k - 1] {
                continue;
            }
            let k = k - 1;
            let (s, e) = (self.starts[k], self.ends[k]);
            if self.count == MatchCount::Starts {
                counts[k].matches += 1;
            }
            let (mut q, mut walked, mut first) = (p, 0u64, true);
            while q > s {
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
            if !first {
                continue;
            }
            match self.select {
                Select::Any => counts[k].lines += 1,
                Select::Line => {
                    let starts_line = p == s || text[p as usize - 1] == self.term;
                    let end = p + len_at(p);
                    let ends_line = end == e || text[end as usize] == self.term;
                    counts[k].lines += u64::from(starts_line && ends_line);
                    continue;
                }
                Select::Word => {
                    // The line's match starts in turn, until one is a word.
                    let (mut at, mut walked) = (p, 0u64);
                    loop {
                        match word_at(text, at, s, e, &lens_at(at)) {
                            Some(true) => {
                                counts[k].lines += 1;
                                break;
                            }
                            None => {
                                counts[k].cpu = true;
                                break;
                            }
                            Some(false) => {}
                        }
                        let Some(q) = next_in_line(at + 1, e, &mut walked)? else {
                            break;
                        };
                        at = q;
                    }
                    continue;
                }
            }
            if self.count == MatchCount::Starts {
                continue;
            }
            // The line's first match: follow the chain of matches to its end.
            let (mut at, mut walked) = (p, 0u64);
            loop {
                counts[k].matches += 1;
                let Some(q) = next_in_line(at + len_at(at), e, &mut walked)? else {
                    break;
                };
                at = q;
            }
        }
        Some(counts)
    }
}

impl Device {
    /// Runs `tally` over the resident text and the bitmap that `kind`'s
    /// search left: per file of `t`, its counts; `None` when a walk gave
    /// up (a line over `TALLY_REACH`).
    pub(super) fn tally(
        &mut self,
        t: &Tally,
        kind: &dyn Kind,
    ) -> Result<Option<Vec<FileCount>>, GpuError> {
        let pieces = t.starts.len();
        if pieces == 0 || t.ends.len() != pieces {
            return Ok(Some(Vec::new()));
        }
        up(&self.stream, &mut self.tally_starts, &t.starts)?;
        up(&self.stream, &mut self.tally_ends, &t.ends)?;
        // Lines, matches, lines in all and flags per file, then the
        // gave-up flag.
        let len = 4 * pieces + 1;
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
        let gave_up = out_ptr + 4 * pieces as u64 * 4;
        let chain = u32::from(t.count == MatchCount::NonOverlapping);
        let (select, total) = (t.select.code(), u32::from(t.total));
        // Match lengths for chains, -w and -x: the literal's, or the set's
        // tables.
        let c = match chain != 0 || t.select != Select::Any {
            false => super::kind::Chain::fixed(0),
            true => kind.chain(self)?,
        };
        let (fixed, classes, slot_log2) = (c.fixed, c.classes, c.slot_log2);
        let [set1, set2, set3, keys, slots, first, pstarts, bytes, links] = c.tables;
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
            .arg(&set1)
            .arg(&set2)
            .arg(&set3)
            .arg(&keys)
            .arg(&slots)
            .arg(&slot_log2)
            .arg(&first)
            .arg(&pstarts)
            .arg(&bytes)
            .arg(&links)
            .arg(&select)
            .arg(&total)
            .arg(&out_ptr)
            .arg(&gave_up);
        // SAFETY: tally's contract (tally.cu): text and bitmap hold the
        // resident n bytes and their match bits (the search just ran);
        // starts and ends hold `pieces` ascending disjoint ranges (Tally);
        // counts and the flag were zeroed above; the tables, read only for
        // chains, -x and -w of a set, are the ones `multi` searched with
        // (Kind::chain).
        unsafe { b.launch(cfg) }.map_err(cuda("launching tally"))?;
        let mut host = vec![0u32; len];
        // SAFETY: the device buffer holds `len` u32s; the copy is
        // waited for before `host` is read, and `t`'s vectors outlive it.
        unsafe { result::memcpy_dtoh_async(&mut host[..], out_ptr, self.stream.cu_stream()) }
            .map_err(cuda("reading tallies"))?;
        self.stream.synchronize().map_err(cuda("tallying"))?;
        let gave_up = host.pop().unwrap_or(1) != 0;
        let each = |k: usize| FileCount {
            lines: host[k].into(),
            matches: host[pieces + k].into(),
            total: host[2 * pieces + k].into(),
            cpu: host[3 * pieces + k] != 0,
        };
        Ok((!gave_up).then(|| (0..pieces).map(each).collect()))
    }
}

#[cfg(test)]
mod tests;
