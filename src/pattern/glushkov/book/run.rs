//! The rule book run on the CPU, step for step as `kernels/confirm.cu`
//! runs it: the kernel's oracle (tests/gpu_rule_split.rs) and the
//! simulated pipeline's chunk search. What it reports is the kernel's
//! result: the start of each marked line, and whether any was unsure.

use super::trigrams::{line_mask, may_match, Mask, MASK_WORDS};
use super::{book_hash, head, key3, RuleBook, HEAD, NO_SLOT, RULE_POSITIONS};
use crate::pattern::glushkov::word::{is_word_byte, BOM};

impl RuleBook {
    /// What the `confirm` kernel marks in `text` given the literal starts
    /// `cand` (ascending, as the `multi` kernel leaves them): the start of
    /// each line holding a literal one of whose rules matches the line or
    /// is unsure there; and whether any was unsure. A line with an unsure
    /// rule is unsure even when another rule matches it: the kernel queues
    /// the runs of a line's automata and learns of a match only after its
    /// lines were walked.
    pub fn confirm(&self, text: &[u8], cand: &[u64]) -> (Vec<u64>, bool) {
        let t = self.terminator;
        // Literals are looked up in the text as lowered (`fold`), once for
        // all candidates; the automata run on the text as it is.
        let lookup: std::borrow::Cow<[u8]> = match self.fold {
            true => text.to_ascii_lowercase().into(),
            false => text.into(),
        };
        let mut out = Vec::new();
        let mut unsure = false;
        let mut i = 0;
        while i < cand.len() {
            let p = cand[i] as usize;
            let s = memchr::memrchr(t, &text[..p]).map_or(0, |x| x + 1);
            let e = memchr::memchr(t, &text[p..]).map_or(text.len(), |x| p + x);
            let line_end = cand.partition_point(|&c| (c as usize) < e);
            // -w: a byte-order mark first leaves the line ASCII (confirm.cu).
            let body = match self.word && text[s..e].starts_with(BOM) {
                true => s + BOM.len(),
                false => s,
            };
            let mut line = Line {
                ascii: text[body..e].is_ascii(),
                trigrams: None,
                tried: Tried::default(),
                matched: false,
            };
            let open = cand[i..line_end]
                .iter()
                .any(|&q| self.unsure_at(text, &lookup, s..e, q as usize, &mut line));
            if open || line.matched {
                out.push(s as u64);
                unsure |= open;
            }
            i = line_end.max(i + 1);
        }
        (out, unsure)
    }

    /// Whether a rule owning the literal starting at `p` in line `s..e`
    /// (found in `lookup`, the text as its literals are looked up in), with
    /// its required trigrams in the line, has no automaton for it; else
    /// runs theirs until one matches (`line.matched`).
    fn unsure_at(
        &self,
        text: &[u8],
        lookup: &[u8],
        line_span: std::ops::Range<usize>,
        p: usize,
        line: &mut Line,
    ) -> bool {
        let (s, e) = (line_span.start, line_span.end);
        if p + 3 > e {
            return false;
        }
        let rest = &lookup[p..e];
        let Some(u) = self.key_index(key3(rest)) else {
            return false;
        };
        for k in self.literals_at(u, rest) {
            let owners =
                &self.owners[self.owner_start[k] as usize..self.owner_start[k + 1] as usize];
            for &r in owners {
                // A rule with a lead runs over it before each of its
                // literal starts (`anchor.rs`); the others once a line.
                let a = 2 * r as usize + usize::from(!line.ascii);
                let lead = self.heads[a * HEAD + head::LEAD] as usize;
                if lead == 0 && line.tried.seen(r) {
                    continue;
                }
                let required = &self.required[r as usize * MASK_WORDS..][..MASK_WORDS];
                let trigrams = line.trigrams.get_or_insert_with(|| line_mask(&text[s..e]));
                if !may_match(required, trigrams) {
                    continue;
                }
                if self.heads[a * HEAD + head::PRESENT] == 0 {
                    return true;
                }
                let skip = self.heads[a * HEAD + head::SKIP] as usize;
                let window = (lead != 0).then(|| Window {
                    from: (p + skip - s).saturating_sub(lead - 1),
                    last_open: p + skip - s,
                });
                line.matched = line.matched || self.matches(a, &text[s..e], window);
            }
        }
        false
    }

    /// The index of `key` (a literal's first 3 bytes) in `keys`, if some
    /// literal starts with it.
    pub(super) fn key_index(&self, key: u32) -> Option<usize> {
        let mask = (1u32 << self.slot_log2) - 1;
        let mut h = book_hash(key, self.slot_log2);
        loop {
            let u = self.slots[h as usize];
            if u == NO_SLOT {
                return None;
            }
            if self.keys[u as usize] == key {
                return Some(u as usize);
            }
            h = (h + 1) & mask;
        }
    }

    /// The literals of key `u` that start `rest`, the longest first: the
    /// prefix chain (`links`) of the greatest literal of the key not above
    /// `rest`, from the first that occurs (the kernel's binary search).
    pub(super) fn literals_at<'a>(
        &'a self,
        u: usize,
        rest: &'a [u8],
    ) -> impl Iterator<Item = usize> + 'a {
        let lit = |k: usize| &self.bytes[self.starts[k] as usize..self.starts[k + 1] as usize];
        let first = self.first[u] as usize;
        let (mut lo, mut top) = (first, self.first[u + 1] as usize);
        while lo < top {
            let mid = (lo + top) / 2;
            if lit(mid) <= rest {
                lo = mid + 1;
            } else {
                top = mid;
            }
        }
        let greatest = (lo > first).then(|| lo - 1);
        std::iter::successors(greatest, |&k| {
            Some(self.links[k])
                .filter(|&q| q != NO_SLOT)
                .map(|q| q as usize)
        })
        .skip_while(move |&k| !rest.starts_with(lit(k)))
    }

    /// Whether automaton `a` (present) matches `line`; with a window, a
    /// match beginning in it (the run begins at its start, the start states
    /// are entered up to its last opening only, and the run ends where the
    /// state dies past that).
    fn matches(&self, a: usize, line: &[u8], window: Option<Window>) -> bool {
        let h = &self.heads[a * HEAD..(a + 1) * HEAD];
        let w = h[head::WORDS] as usize;
        let tb = h[head::TABLES] as usize;
        let table = |k: usize| &self.tables[tb + k * w..tb + (k + 1) * w];
        let (shift, self_loop, first_any, first_bol) = (table(0), table(1), table(2), table(3));
        let (last_any, last_eol, has_exc) = (table(4), table(5), table(6));
        let class_of = &self.class_of[a * 256..(a + 1) * 256];
        let starts = &self.byte_starts[a * 8..(a + 1) * 8];
        let masks = &self.masks[h[head::MASKS] as usize..];
        let map = &self.exc_map[h[head::EXC_MAP] as usize..];
        let mut d = [0u32; RULE_POSITIONS / 32];
        let mut nx = [0u32; RULE_POSITIONS / 32];
        let mut live = false;
        // -w (`self.word`): as `Automaton::reference` runs it.
        let mut ended = false;
        let begin = window.map_or(0, |w| w.from);
        for (i, &b) in line.iter().enumerate().skip(begin) {
            if ended && !is_word_byte(b) {
                return true;
            }
            let at_start = i == 0;
            if !live && window.is_some_and(|w| i > w.last_open) {
                return false;
            }
            if !live && !at_start && starts[usize::from(b / 32)] >> (b % 32) & 1 == 0 {
                continue;
            }
            let opens = match window {
                Some(w) => i <= w.last_open,
                None => !self.word || at_start || !is_word_byte(line[i - 1]),
            };
            let c = usize::from(class_of[usize::from(b)]);
            let mut carry = 0u32;
            for k in 0..w {
                let x = d[k];
                let mut v = ((x << 1) | carry) & shift[k];
                v |= x & self_loop[k];
                if opens {
                    v |= first_any[k];
                }
                if at_start {
                    v |= first_bol[k];
                }
                carry = x >> 31;
                nx[k] = v;
            }
            for k in 0..w {
                let mut bits = d[k] & has_exc[k];
                while bits != 0 {
                    let e = map[k * 32 + bits.trailing_zeros() as usize] as usize;
                    bits &= bits - 1;
                    for j in self.exc_from[e] as usize..self.exc_to[e] as usize {
                        nx[self.exc_word[j] as usize] |= self.exc_mask[j];
                    }
                }
            }
            let m = &masks[c * w..(c + 1) * w];
            let (mut acc, mut any) = (0u32, 0u32);
            for k in 0..w {
                let v = nx[k] & m[k];
                d[k] = v;
                acc |= v & last_any[k];
                any |= v;
            }
            if acc != 0 && !self.word {
                return true;
            }
            ended = acc != 0;
            live = any != 0;
        }
        ended || live && (0..w).any(|k| d[k] & last_eol[k] != 0)
    }
}

/// Where a run of a rule with a lead may begin a match in its line: from
/// the lead before the literal start that led to it (or the line's start)
/// up to that literal start.
#[derive(Clone, Copy)]
struct Window {
    from: usize,
    last_open: usize,
}

/// What the kernel knows of the line it confirms.
struct Line {
    /// Its bytes are ASCII: the rules' ASCII automata run.
    ascii: bool,
    /// Its trigrams, found when a rule first needs them.
    trigrams: Option<Mask>,
    tried: Tried,
    /// One of its rules matched it.
    matched: bool,
}

/// The rules a line already ran (the kernel's `tried`): the last
/// [`TRIED`] of them; an older one may run again (same answer).
#[derive(Default)]
struct Tried {
    last: [u32; TRIED],
    len: usize,
}

/// Rules remembered per line (confirm.cu's `TRIED`).
const TRIED: usize = 8;

impl Tried {
    /// True when `r` ran already; else remembers it.
    fn seen(&mut self, r: u32) -> bool {
        if self.last[..self.len.min(TRIED)].contains(&r) {
            return true;
        }
        self.last[self.len % TRIED] = r;
        self.len += 1;
        false
    }
}
