//! A literal set reduced to its minimal members: the literals in which no
//! other literal of the set occurs.
//!
//! When only *which lines* match matters (`-c`, `-l`, `-L`, `-q`, `-v`,
//! lines printed without colour or `-o`), a line holding "other" also holds
//! "the", so "other" can go. Real word lists shrink a lot: 10,000 wamerican
//! words hold "a", "i" and "he", and keep 1,410 minimal members; 1,000
//! keep 951. Fewer literals build faster (the Aho-Corasick DFA of 10,000
//! words took ~80 ms) and match less often (every occurrence of a dropped
//! literal contains one of a kept literal), on the CPU and in the GPU's
//! `multi` kernel alike. Not with `-w`/`-x` (a word "other" is not a word
//! "the"), nor where matches are printed or counted. A regex that is
//! exactly a set of words has its lines found by the same reduction
//! (`finder::line_finder`): the regex itself finds what to print.

use aho_corasick::{AhoCorasickBuilder, AhoCorasickKind, MatchKind};

/// The members of `lits` (sorted, distinct, none empty) in which no other
/// member occurs, in their order; with `ci`, occurrence and equality are
/// ASCII case-insensitive (of two members equal but for case, the first
/// stays). `lits` unchanged when the automaton cannot be built.
pub(in crate::pattern) fn substring_minimal(lits: Vec<Vec<u8>>, ci: bool) -> Vec<Vec<u8>> {
    if lits.len() < 2 || lits.iter().any(|l| l.is_empty()) {
        return lits;
    }
    let Ok(ac) = AhoCorasickBuilder::new()
        .match_kind(MatchKind::Standard)
        .kind(Some(AhoCorasickKind::NoncontiguousNFA))
        .ascii_case_insensitive(ci)
        .build(&lits)
    else {
        return lits;
    };
    let covered = |i: usize, lit: &[u8]| {
        ac.find_overlapping_iter(lit).any(|m| {
            let j = m.pattern().as_usize();
            j != i && (m.len() < lit.len() || j < i)
        })
    };
    let keep: Vec<bool> = lits
        .iter()
        .enumerate()
        .map(|(i, lit)| !covered(i, lit))
        .collect();
    lits.into_iter()
        .zip(keep)
        .filter_map(|(lit, keep)| keep.then_some(lit))
        .collect()
}

#[cfg(test)]
mod tests;
