//! Byte classes by position: for a regex without a literal to search for
//! (`([0-9]{1,3}\.){3}[0-9]{1,3}`, `[0-9a-f]{40}`), the set of bytes each of
//! the first `m` bytes of any match can be, `m` the shortest match's length
//! (at most 64). A window of `m` bytes whose every byte lies in its
//! position's set is where a match may start: `engine::shiftor` finds such
//! windows with a shift-or (bitap) scan, about 1 GB/s whatever the text,
//! and the regex confirms their lines. ugrep runs the same kind of filter
//! in front of its DFA for patterns without a literal; the lazy DFA alone
//! ran at a quarter of that speed on logs full of digits (its prefilter of
//! prefixes `0.` to `999.` hits on every timestamp).
//!
//! The sets come from the Thompson NFA, level by level from its anchored
//! start: the bytes the states reachable after `i` bytes can consume.
//! Look-around assertions count as satisfied, so the sets can only grow:
//! every match's `i`-th byte lies in set `i` (property-tested below).
//!
//! The same analysis of the reversed NFA gives the sets counted from a
//! match's end ([`end_sets`]): where every match ends a line, a line whose
//! last bytes miss them cannot match (`engine::cpu::LineEnds`).

use regex_automata::nfa::thompson::{self, State, WhichCaptures, NFA};
use regex_automata::util::primitives::StateID;
use regex_syntax::hir::Hir;

/// Longest window (the scan keeps one bit per position in a `u64`).
pub const WINDOW_MAX: usize = 64;

/// NFAs larger than this are not analysed (the analysis costs levels
/// times states).
const NFA_STATES_MAX: usize = 20_000;

/// A set of bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteSet([u64; 4]);

impl ByteSet {
    /// Adds `lo..=hi` a word at a time (the analysis adds thousands of
    /// ranges for a repeated Unicode class: bit by bit, they took a tenth
    /// of `-E '.{200,}'`'s CPU samples on a small file).
    pub fn insert_range(&mut self, lo: u8, hi: u8) {
        for (w, word) in self.0.iter_mut().enumerate() {
            let (first, last) = (w * 64, w * 64 + 63);
            let (lo, hi) = (usize::from(lo).max(first), usize::from(hi).min(last));
            if lo <= hi {
                *word |= (u64::MAX >> (63 - (hi - lo))) << (lo - first);
            }
        }
    }

    pub fn contains(&self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    pub fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=255u8).filter(|&b| self.contains(b))
    }

    fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    pub fn union(&mut self, other: &ByteSet) {
        self.0.iter_mut().zip(other.0).for_each(|(a, b)| *a |= b);
    }

    pub fn intersect(&mut self, other: &ByteSet) {
        self.0.iter_mut().zip(other.0).for_each(|(a, b)| *a &= b);
    }
}

/// The byte sets of the first `m` positions of every match of `hir`, `m`
/// the shortest match's length capped at [`WINDOW_MAX`]; `None` when the
/// regex can match the empty string or its NFA is too large to analyse.
pub fn position_sets(hir: &Hir) -> Option<Vec<ByteSet>> {
    sets_of_nfa(&repetitions_cut(hir), false)
}

/// The same sets counted from a match's end: the first is the set of
/// bytes a match can end with, the next the byte before it, and so on
/// (from the NFA of the reversed language).
pub fn end_sets(hir: &Hir) -> Option<Vec<ByteSet>> {
    sets_of_nfa(&repetitions_cut(hir), true)
}

/// `hir` with every counted repetition's bounds cut to [`WINDOW_MAX`]
/// (`r{200,}` → `r{64}`): the first [`WINDOW_MAX`] bytes of a match take at
/// most that many iterations that consume a byte, and iterations that
/// consume none are allowed either way, so the sets are the same (tested
/// against the uncut regex); the NFA is smaller (`.{200,}`'s a third), and
/// one too large to analyse uncut may be analysed cut.
fn repetitions_cut(hir: &Hir) -> Hir {
    use regex_syntax::hir::{Capture, HirKind, Repetition};
    let cap = WINDOW_MAX as u32;
    match hir.kind() {
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            min: r.min.min(cap),
            max: match (r.min, r.max) {
                (min, _) if min >= cap => Some(cap),
                (_, max) => max.map(|m| m.min(cap)),
            },
            greedy: r.greedy,
            sub: Box::new(repetitions_cut(&r.sub)),
        }),
        HirKind::Capture(c) => Hir::capture(Capture {
            index: c.index,
            name: c.name.clone(),
            sub: Box::new(repetitions_cut(&c.sub)),
        }),
        HirKind::Concat(subs) => Hir::concat(subs.iter().map(repetitions_cut).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.iter().map(repetitions_cut).collect()),
        _ => hir.clone(),
    }
}

/// [`position_sets`] from `hir`'s NFA as it is, or from its end
/// (`reverse`).
fn sets_of_nfa(hir: &Hir, reverse: bool) -> Option<Vec<ByteSet>> {
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .reverse(reverse)
                .which_captures(WhichCaptures::None)
                .utf8(false)
                .shrink(false)
                .nfa_size_limit(Some(1 << 24)),
        )
        .build_from_hir(hir)
        .ok()?;
    if nfa.states().len() > NFA_STATES_MAX {
        return None;
    }
    let mut level = Closure::new(&nfa);
    if level.of(&[nfa.start_anchored()]) {
        return None; // an empty match
    }
    let mut sets = Vec::new();
    while sets.len() < WINDOW_MAX {
        let mut set = ByteSet::default();
        let mut next = Vec::new();
        for &id in &level.consuming {
            match nfa.state(id) {
                State::ByteRange { trans } => {
                    set.insert_range(trans.start, trans.end);
                    next.push(trans.next);
                }
                State::Sparse(s) => {
                    for t in s.transitions.iter() {
                        set.insert_range(t.start, t.end);
                        next.push(t.next);
                    }
                }
                State::Dense(d) => {
                    for (b, &to) in (0..=255u8).zip(d.transitions.iter()) {
                        if to != StateID::ZERO {
                            set.insert_range(b, b);
                            next.push(to);
                        }
                    }
                }
                _ => {}
            }
        }
        if set.is_empty() {
            break; // nothing can follow: no match this long
        }
        sets.push(set);
        if level.of(&next) {
            break; // a match of this length
        }
    }
    (!sets.is_empty()).then_some(sets)
}

/// The states reachable from a level's states without consuming a byte.
struct Closure<'n> {
    nfa: &'n NFA,
    seen: Vec<bool>,
    stack: Vec<StateID>,
    /// States that consume a byte, in the order found.
    consuming: Vec<StateID>,
}

impl<'n> Closure<'n> {
    fn new(nfa: &'n NFA) -> Closure<'n> {
        Closure {
            nfa,
            seen: vec![false; nfa.states().len()],
            stack: Vec::new(),
            consuming: Vec::new(),
        }
    }

    /// Replaces the level by the closure of `from`; true when it holds a
    /// match state.
    fn of(&mut self, from: &[StateID]) -> bool {
        self.seen.iter_mut().for_each(|s| *s = false);
        self.consuming.clear();
        self.stack.extend_from_slice(from);
        let mut matched = false;
        while let Some(id) = self.stack.pop() {
            if std::mem::replace(&mut self.seen[id.as_usize()], true) {
                continue;
            }
            match self.nfa.state(id) {
                State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) => {
                    self.consuming.push(id)
                }
                // Taken as satisfied: the sets only grow.
                State::Look { next, .. } | State::Capture { next, .. } => self.stack.push(*next),
                State::Union { alternates } => self.stack.extend(alternates.iter().copied()),
                State::BinaryUnion { alt1, alt2 } => self.stack.extend([*alt1, *alt2]),
                State::Fail => {}
                State::Match { .. } => matched = true,
            }
        }
        matched
    }
}

/// A rough share of text bytes that are `b` (English prose, source code
/// and logs alike: spaces and lower-case letters dominate, digits and
/// punctuation are a few percent).
pub(in crate::pattern) fn share(b: u8) -> f64 {
    match b {
        b' ' => 0.15,
        b'e' | b't' | b'a' | b'o' | b'i' | b'n' | b's' | b'r' => 0.05,
        b'a'..=b'z' => 0.015,
        b'0'..=b'9' => 0.01,
        b'A'..=b'Z' => 0.005,
        b'\t' | b'.' | b',' | b'_' | b'-' | b'/' | b':' | b'(' | b')' | b'"' | b'=' | b';' => 0.008,
        0x21..=0x7E => 0.002,
        _ => 0.0005,
    }
}

/// The expected share of text bytes in each set (by [`share`]).
pub fn set_shares(sets: &[ByteSet]) -> Vec<f64> {
    sets.iter()
        .map(|s| s.bytes().map(share).sum::<f64>().min(1.0))
        .collect()
}

/// Most windows per byte of text expected to pass the filter for it to
/// be used: each costs a line confirmation (about 100 ns), against 1 ns a
/// byte for the scan.
const PASS_RATE_MAX: f64 = 1e-3;

/// Whether the shift-or scan is the better line finder for these sets:
/// windows of 2 bytes or more, rare enough by [`share`], and a first set
/// too broad for a memchr of its bytes (which the regex's own prefilter
/// does faster).
pub fn worth_scanning(sets: &[ByteSet]) -> bool {
    let pass: f64 = set_shares(sets).iter().product();
    sets.len() >= 2 && sets[0].bytes().count() > 3 && pass <= PASS_RATE_MAX
}

#[cfg(test)]
pub(crate) mod tests;
