//! The split matcher against the definition of leftmost-longest and
//! against one Aho-Corasick automaton of the whole set.

use super::*;
use crate::engine::qgram::tests::{aho, oracle};
use proptest::prelude::*;

/// The split matcher of `pats` (which must hold both short and long ones).
fn split(pats: &[Vec<u8>], fold: bool) -> Split {
    let (short, long): (Vec<_>, Vec<_>) = pats.iter().cloned().partition(|p| p.len() < SHORT_BELOW);
    Split::new(aho(&short, fold), QGram::new(&long, fold).unwrap())
}

fn check(pats: &[Vec<u8>], fold: bool, hay: &[u8], at: usize) -> Result<(), TestCaseError> {
    let m = split(pats, fold);
    prop_assert_eq!(m.find_at(hay, at), oracle(pats, fold, hay, at));
    let mut got = Vec::new();
    let mut i = at;
    while let Some(r) = m.find_at(hay, i) {
        i = r.end;
        got.push(r);
    }
    let want: Vec<_> = aho(pats, fold)
        .find_iter(aho_corasick::Input::new(hay).range(at..))
        .map(|m| m.range())
        .collect();
    prop_assert_eq!(got, want);
    check_lines(&m, pats, fold, hay, at)
}

/// The line finder's answer is a match of some pattern in the line of the
/// leftmost match (lines ended by `\n`).
fn check_lines(
    m: &Split,
    pats: &[Vec<u8>],
    fold: bool,
    hay: &[u8],
    at: usize,
) -> Result<(), TestCaseError> {
    let lines = m.lines(b'\n');
    let line_of = |pos: usize| hay[..pos].iter().filter(|&&b| b == b'\n').count();
    match (lines.find_at(hay, at), oracle(pats, fold, hay, at)) {
        (Some(got), Some(want)) => {
            prop_assert_eq!(line_of(got.start), line_of(want.start));
            let at_got = oracle(pats, fold, hay, got.start);
            prop_assert_eq!(at_got.as_ref().map(|r| r.start), Some(got.start));
            prop_assert!(got.end <= got.start + at_got.map_or(0, |r| r.len()));
            prop_assert!(lines.selects_lines());
        }
        (got, want) => prop_assert_eq!(got, want),
    }
    Ok(())
}

/// Patterns of 1 to 12 bytes over `alphabet`, at least one of each kind.
fn patterns(alphabet: &'static [u8]) -> impl Strategy<Value = Vec<Vec<u8>>> {
    let byte = prop::sample::select(alphabet);
    (
        prop::collection::vec(prop::collection::vec(byte.clone(), 1..SHORT_BELOW), 1..6),
        prop::collection::vec(prop::collection::vec(byte, SHORT_BELOW..13), 1..40),
    )
        .prop_map(|(mut short, long)| {
            short.extend(long);
            short
        })
}

/// A haystack of random bytes and pieces of the patterns, so that matches
/// of both sets occur, far apart (past a window) and close together.
fn haystack(alphabet: &'static [u8]) -> impl Strategy<Value = (Vec<Vec<u8>>, Vec<u8>)> {
    patterns(alphabet).prop_flat_map(move |pats| {
        let random = prop::collection::vec(prop::sample::select(alphabet), 0..200);
        let picks =
            prop::collection::vec((random, any::<prop::sample::Index>(), any::<bool>()), 0..20);
        (Just(pats.clone()), picks).prop_map(|(pats, picks)| {
            let mut hay = Vec::new();
            for (random, pick, take) in picks {
                hay.extend_from_slice(&random);
                if take {
                    hay.extend_from_slice(&pats[pick.index(pats.len())]);
                }
            }
            (pats, hay)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Few letters: matches of both sets overlap and tie at one start.
    #[test]
    fn dense_matches_oracle(
        (pats, hay) in haystack(b"abAB"),
        fold in any::<bool>(),
        at in any::<prop::sample::Index>(),
    ) {
        check(&pats, fold, &hay, at.index(hay.len() + 1))?;
    }

    /// More letters: matches are rare, so windows grow and end without one.
    #[test]
    fn sparse_matches_oracle(
        (pats, hay) in haystack(b"abcdefghijklmnopqrstuvwxyzAZ@`\n*"),
        fold in any::<bool>(),
        at in any::<prop::sample::Index>(),
    ) {
        check(&pats, fold, &hay, at.index(hay.len() + 1))?;
    }
}

#[test]
fn tie_at_one_start_goes_to_the_longer_pattern() {
    let pats = [b"ab".to_vec(), b"abcd".to_vec(), b"abc".to_vec()];
    let m = split(&pats, false);
    assert_eq!(m.find_at(b"xxabcde", 0), Some(2..6));
    assert_eq!(m.find_at(b"xxabcxe", 0), Some(2..5));
}

#[test]
fn matches_past_the_first_windows_and_at_the_end() {
    let pats = [b"q".to_vec(), b"wxyz".to_vec()];
    let m = split(&pats, false);
    let mut hay = vec![b'.'; 10_000];
    hay.extend_from_slice(b"wxyz");
    assert_eq!(m.find_at(&hay, 0), Some(10_000..10_004));
    hay.push(b'q');
    assert_eq!(m.find_at(&hay, 10_001), Some(10_004..10_005));
    assert_eq!(m.find_at(&hay, hay.len()), None);
    assert_eq!(m.find_at(&hay, hay.len() + 1), None);
}

#[test]
fn lines_take_a_long_match_in_an_earlier_line() {
    let pats = [b"q".to_vec(), b"wxyz".to_vec()];
    let lines = split(&pats, false).lines(b'\n');
    assert_eq!(lines.find_at(b"..wxyz.\n.q.wxyz", 0), Some(2..6));
    // In the short match's line, the short match does.
    assert_eq!(lines.find_at(b"...\n.wxyz.q", 0), Some(10..11));
    assert_eq!(lines.find_at(b"...\n.wxyz.q", 4), Some(10..11));
    assert_eq!(lines.find_at(b"...\n....\n", 0), None);
}
