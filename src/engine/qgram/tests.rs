//! Unit tests of the q-gram filter against Aho-Corasick and naive search.

use super::*;
use aho_corasick::{AhoCorasick, Input, MatchKind};
use proptest::prelude::*;

/// The definition: the first position from `at` where some pattern
/// matches, with the longest pattern matching there.
pub(super) fn oracle(pats: &[Vec<u8>], fold: bool, hay: &[u8], at: usize) -> Option<Range<usize>> {
    let eq = |a: &[u8], b: &[u8]| {
        if fold {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    (at..=hay.len()).find_map(|pos| {
        pats.iter()
            .filter(|p| hay.len() - pos >= p.len() && eq(&hay[pos..pos + p.len()], p))
            .map(Vec::len)
            .max()
            .map(|len| pos..pos + len)
    })
}

/// One leftmost-longest automaton of the whole set.
pub(super) fn aho(pats: &[Vec<u8>], fold: bool) -> AhoCorasick {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .ascii_case_insensitive(fold)
        .build(pats)
        .unwrap()
}

fn qg(pats: &[&str], fold: bool) -> QGram {
    let pats: Vec<Vec<u8>> = pats.iter().map(|p| p.as_bytes().to_vec()).collect();
    QGram::new(&pats, fold).unwrap()
}

/// Compares every table size with the oracle and Aho-Corasick at `at`,
/// and the whole find-all sequence from `at`.
fn check(pats: &[Vec<u8>], fold: bool, hay: &[u8], at: usize) -> Result<(), TestCaseError> {
    let ac = aho(pats, fold);
    let want = oracle(pats, fold, hay, at);
    let want_ac = ac.find(Input::new(hay).range(at..)).map(|m| m.range());
    prop_assert_eq!(&want, &want_ac);
    let m = QGram::new(pats, fold).unwrap();
    prop_assert_eq!(&m.find_at(hay, at), &want);
    let mut got = Vec::new();
    let mut i = at;
    while let Some(r) = m.find_at(hay, i) {
        i = r.end;
        got.push(r);
    }
    let want_all: Vec<_> = ac
        .find_iter(Input::new(hay).range(at..))
        .map(|m| m.range())
        .collect();
    prop_assert_eq!(got, want_all);
    Ok(())
}

/// Patterns of length 2..=8 over `alphabet`, plus prefixes and
/// duplicates of some of them.
fn patterns(alphabet: &'static [u8]) -> impl Strategy<Value = Vec<Vec<u8>>> {
    let pat = prop::collection::vec(prop::sample::select(alphabet), 2..=8);
    (prop::collection::vec(pat, 1..=50), any::<u64>()).prop_map(|(mut ps, seed)| {
        let n = ps.len();
        for k in 0..n.min(8) {
            let p = ps[(seed as usize).wrapping_add(k * 7) % n].clone();
            let cut = 2 + (seed >> (k * 4)) as usize % (p.len() - 1);
            ps.push(p[..cut.min(p.len())].to_vec());
            if k % 3 == 0 {
                ps.push(p);
            }
        }
        ps
    })
}

fn haystack(alphabet: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(alphabet), 0..400)
}

/// Dense: few letters, so patterns match often and overlap.
const DENSE: &[u8] = b"abAB";
/// Bytes that `| 0x20` merges but ASCII folding does not (`@`/`` ` ``,
/// `\n`/`*`, 0xC1/0xE1), and case pairs.
const TRICKY: &[u8] = b"aA@`\n*\xc1\xe1 ";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn dense_matches_oracle(
        pats in patterns(DENSE),
        hay in haystack(DENSE),
        fold in any::<bool>(),
        at in any::<prop::sample::Index>(),
    ) {
        let at = at.index(hay.len() + 1);
        check(&pats, fold, &hay, at)?;
    }

    #[test]
    fn tricky_bytes_match_oracle(
        pats in patterns(TRICKY),
        hay in haystack(TRICKY),
        fold in any::<bool>(),
        at in any::<prop::sample::Index>(),
    ) {
        let at = at.index(hay.len() + 1);
        check(&pats, fold, &hay, at)?;
    }

    /// Haystacks built from the patterns themselves (long ones too), so
    /// that matches > 8 bytes and matches at the very end occur.
    #[test]
    fn concatenated_patterns(
        pats in patterns(b"abcAB"),
        long in prop::collection::vec(
            prop::collection::vec(prop::sample::select(b"abAB".as_slice()), 8..20),
            1..4,
        ),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..30),
        fold in any::<bool>(),
        at in any::<prop::sample::Index>(),
    ) {
        let mut pats = pats;
        // Prefixes one byte shorter cross the tier boundaries (7/8, 11/12).
        pats.extend(long.iter().map(|l| l[..l.len() - 1].to_vec()));
        pats.extend(long);
        let mut hay = Vec::new();
        for p in &picks {
            hay.extend_from_slice(&pats[p.index(pats.len())]);
        }
        let at = at.index(hay.len() + 1);
        check(&pats, fold, &hay, at)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `find_before` is `find_at` restricted to starts before the limit.
    #[test]
    fn find_before_is_find_at_below_the_limit(
        pats in patterns(DENSE),
        hay in haystack(DENSE),
        fold in any::<bool>(),
        at in any::<prop::sample::Index>(),
        limit in any::<prop::sample::Index>(),
    ) {
        let at = at.index(hay.len() + 1);
        let limit = limit.index(hay.len() + 2);
        let m = QGram::new(&pats, fold).unwrap();
        let want = oracle(&pats, fold, &hay, at).filter(|r| r.start < limit);
        prop_assert_eq!(m.find_before(&hay, at, limit), want);
    }
}

#[test]
fn rejects_short_or_empty_sets() {
    assert!(QGram::new(&[], false).is_none());
    assert!(QGram::new(&[b"abc".to_vec(), b"a".to_vec()], false).is_none());
    assert!(QGram::new(&[b"abc".to_vec(), Vec::new()], true).is_none());
    assert!(QGram::new(&[b"ab".to_vec()], false).is_some());
}

#[test]
fn q_is_min_of_four_and_shortest() {
    assert_eq!(qg(&["abcdefgh", "xyz"], false).q, 3);
    assert_eq!(qg(&["abcdefgh", "wxyz0"], false).q, 4);
    assert_eq!(qg(&["ab"], false).q, 2);
}

#[test]
fn matches_at_start_and_end() {
    let m = qg(&["hello", "world!"], false);
    assert_eq!(m.find_at(b"hello there world!", 0), Some(0..5));
    assert_eq!(m.find_at(b"hello there world!", 1), Some(12..18));
    // End of a haystack too short for the 12-byte block loop, and of a
    // long one.
    assert_eq!(m.find_at(b"world!", 0), Some(0..6));
    let mut long = vec![b'.'; 1000];
    long.extend_from_slice(b"world!");
    assert_eq!(m.find_at(&long, 3), Some(1000..1006));
    long.pop();
    assert_eq!(m.find_at(&long, 0), None);
}

#[test]
fn long_pattern_must_not_read_past_the_end() {
    // The 4-byte window hits at the end, the pattern is longer than the
    // bytes left.
    let m = qg(&["abcdefghijklmnop", "abcd"], false);
    assert_eq!(m.find_at(b"xxxxxxxxxxxxabcdefghijklmno", 0), Some(12..16));
    assert_eq!(m.find_at(b"xxxxxxxxxxxxabcdefghijklmnop", 0), Some(12..28));
    let m = qg(&["abcdefghijklmnop"], true);
    assert_eq!(m.find_at(b"ABCDEFGHIJKLMNO", 0), None);
    assert_eq!(m.find_at(b"ABCDEFGHIJKLMNOP", 0), Some(0..16));
}

#[test]
fn short_haystacks_and_at() {
    let m = qg(&["abcd", "abcdef"], false);
    assert_eq!(m.find_at(b"", 0), None);
    assert_eq!(m.find_at(b"abc", 0), None);
    assert_eq!(m.find_at(b"abcd", 0), Some(0..4));
    assert_eq!(m.find_at(b"abcd", 1), None);
    assert_eq!(m.find_at(b"abcd", 4), None);
    assert_eq!(m.find_at(b"abcd", 5), None);
    assert_eq!(m.find_at(b"abcdef", 0), Some(0..6));
}

#[test]
fn longest_at_leftmost_position() {
    let m = qg(&["abcd", "abcdefghij", "abcdefg", "bcdefghijklmn"], false);
    assert_eq!(m.find_at(b"zabcdefghijklmn", 0), Some(1..11));
    assert_eq!(m.find_at(b"zabcdefghijklmn", 2), Some(2..15));
}

#[test]
fn longest_across_tiers() {
    let m = qg(
        &[
            "abcdefg",
            "abcdefgh",
            "abcdefghijk",
            "abcdefghijkl",
            "abcdefghijklm",
            "abcd",
        ],
        false,
    );
    assert_eq!(m.find_at(b"xabcdefghijkl", 0), Some(1..13));
    assert_eq!(m.find_at(b"xabcdefghijk", 0), Some(1..12));
    assert_eq!(m.find_at(b"xabcdefghij", 0), Some(1..9));
    assert_eq!(m.find_at(b"xabcdefg", 0), Some(1..8));
    assert_eq!(m.find_at(b"xabcdef", 0), Some(1..5));
    assert_eq!(
        m.find_at(b"xxxxxxxxxxxxxxxxxxxxxxxxabcdefghijklmno", 0),
        Some(24..37)
    );
}

#[test]
fn ascii_case_folding() {
    let m = qg(&["Hello", "WORLD wide"], true);
    assert_eq!(m.find_at(b"say hELLO", 0), Some(4..9));
    assert_eq!(m.find_at(b"the world WIDE web", 0), Some(4..14));
    let m = qg(&["a@b`c"], true);
    // `| 0x20` merges '@' with '`': the filter hits, confirmation must not.
    assert_eq!(m.find_at(b"a`b`c a@B`C", 0), Some(6..11));
    let m = qg(&["\u{e9}t\u{e9}"], true);
    // Non-ASCII bytes are not folded.
    assert_eq!(
        m.find_at("\u{c9}t\u{c9} \u{e9}T\u{e9}".as_bytes(), 0),
        Some(6..11)
    );
}

#[test]
fn case_sensitive_when_not_folding() {
    let m = qg(&["Hello"], false);
    assert_eq!(m.find_at(b"hello HELLO Hello", 0), Some(12..17));
}

#[test]
fn lower8_is_ascii_lowercase_in_every_lane() {
    for byte in 0..=255u8 {
        for lane in 0..8 {
            let mut x = [b'Z', b'@', b'A', b'[', 0xc1, b'a', b'`', b'z'];
            x[lane] = byte;
            let want = u64::from_le_bytes(x.map(|b| b.to_ascii_lowercase()));
            assert_eq!(
                lower8(u64::from_le_bytes(x)),
                want,
                "byte {byte:#x} lane {lane}"
            );
        }
    }
}
