//! The line finder against a naive oracle (non-ASCII bytes, CR, NUL,
//! empty lines), with a working DFA and with one
//! that gives up (a tiny cache), and the runaway's regression test.

use super::*;
use crate::engine::cpu::Literals;
use aho_corasick::{AhoCorasickBuilder, MatchKind};
use proptest::prelude::*;

fn fallback(lits: &[Vec<u8>]) -> AhoCorasick {
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostLongest)
        .build(lits)
        .unwrap()
}

/// The numbers of the lines (split at `\n`) that `m` selects, found as the
/// searcher finds them: the line around each answer, then past it.
fn lines_found(m: &dyn Matcher, hay: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < hay.len() {
        let Some(r) = m.find_at(hay, at) else { break };
        assert!(r.start >= at && r.end <= hay.len());
        let line = hay[..r.start].iter().filter(|&&b| b == b'\n').count();
        out.push(line);
        at = memchr::memchr(b'\n', &hay[r.start..]).map_or(hay.len(), |i| r.start + i + 1);
    }
    out
}

/// The lines holding a literal.
fn lines_naive(lits: &[Vec<u8>], hay: &[u8]) -> Vec<usize> {
    hay.split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, line)| {
            lits.iter()
                .any(|l| line.windows(l.len()).any(|w| w == &l[..]))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Bytes that exercise case (which must not fold), non-ASCII text, CRLF
/// and empty lines.
fn byte() -> impl Strategy<Value = u8> {
    prop::sample::select(vec![
        b'a', b'b', b'A', b'B', b'z', b'-', b'\r', 0xC3, 0xA9, 0x89, 0xFF, 0,
    ])
}

fn hay_byte() -> impl Strategy<Value = u8> {
    prop_oneof![4 => byte(), 1 => Just(b'\n')]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The lines found are the oracle's, with the DFA working and with a
    /// cache so small that it gives up.
    #[test]
    fn lines_are_the_oracles(
        lits in prop::collection::vec(prop::collection::vec(byte(), 1..5), 1..12),
        hay in prop::collection::vec(hay_byte(), 0..400),
    ) {
        let want = lines_naive(&lits, &hay);
        for bytes in [CACHE_BYTES, 0] {
            let m = LiteralLines::with_cache(&lits, fallback(&lits), bytes).unwrap();
            prop_assert_eq!(&lines_found(&m, &hay), &want);
        }
    }
}

/// The lines in which some literal occurs with no word character (GNU's:
/// alphanumeric or `_`, decoded; a byte that is no character is none)
/// just before or after it: what `-w` selects.
fn lines_naive_words(lits: &[Vec<u8>], hay: &[u8]) -> Vec<usize> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let before = |b: &[u8]| {
        (1..=b.len().min(4))
            .find_map(|k| std::str::from_utf8(&b[b.len() - k..]).ok())
            .and_then(|s| s.chars().next_back())
    };
    let after = |b: &[u8]| {
        (1..=b.len().min(4))
            .find_map(|k| std::str::from_utf8(&b[..k]).ok())
            .and_then(|s| s.chars().next())
    };
    hay.split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, line)| {
            lits.iter().any(|l| {
                (0..line.len().saturating_sub(l.len() - 1)).any(|p| {
                    line[p..].starts_with(l)
                        && !word(before(&line[..p]))
                        && !word(after(&line[p + l.len()..]))
                })
            })
        })
        .map(|(i, _)| i)
        .collect()
}

/// Bytes for `-w`: ASCII word and non-word bytes, and the UTF-8 of `é` (a
/// letter) and of `·` (U+00B7, no letter).
fn word_byte() -> impl Strategy<Value = u8> {
    prop::sample::select(vec![
        b'a', b'b', b'_', b'7', b' ', b'-', 0xC3, 0xA9, 0xC2, 0xB7,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `-w`'s lines are the oracle's (the unsure ones decided by the word
    /// matcher), with the DFA working and given up.
    #[test]
    fn word_lines_are_the_oracles(
        lits in prop::collection::vec(prop::collection::vec(word_byte(), 1..4), 1..8),
        hay in prop::collection::vec(prop_oneof![6 => word_byte(), 1 => Just(b'\n')], 0..300),
        ascii_but in prop::option::of(0usize..300),
    ) {
        // Text beyond ASCII at one place at most (or none): the sure hits'
        // DFA answers where none comes before a hit.
        let mut hay = hay;
        if let Some(k) = ascii_but {
            for (i, b) in hay.iter_mut().enumerate() {
                if *b >= 0x80 && i != k && i != k + 1 {
                    *b = b'a';
                }
            }
        }
        let word_matcher = || {
            let ac = AhoCorasickBuilder::new().match_kind(MatchKind::Standard).build(&lits).unwrap();
            crate::confirm::WordLiterals::new(ac)
        };
        // The word matcher on every line: what the search selected before.
        let per_line = word_matcher();
        let want: Vec<usize> = hay
            .split(|&b| b == b'\n')
            .enumerate()
            .filter(|(_, line)| per_line.is_match_line(line))
            .map(|(i, _)| i)
            .collect();
        // Literals that are text: the naive oracle agrees.
        if lits.iter().all(|l| std::str::from_utf8(l).is_ok()) {
            prop_assert_eq!(&lines_naive_words(&lits, &hay), &want);
        }
        for bytes in [CACHE_BYTES, 0] {
            let m = LiteralLines::words_with_cache(
                &lits,
                fallback(&lits),
                Box::new(word_matcher()),
                b'\n',
                bytes,
            )
            .unwrap();
            prop_assert_eq!(&lines_found(&m, &hay), &want);
        }
    }
}

/// Pseudo-random lowercase words (a fixed xorshift), `n` of 3 to 10
/// letters.
fn words(n: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let len = 3 + (next() % 8) as usize;
            (0..len).map(|_| b'a' + (next() % 26) as u8).collect()
        })
        .collect()
}

/// The runaway of the trial before this finder (`-i -c` over 1.6 GB: a meta
/// regex whose lazy DFA gave up fell back to the PikeVM and ran for over 20
/// CPU-minutes): a set of 1,000 words whose DFA cannot keep its states (a
/// tiny cache) gives up, and the search still answers the oracle's lines,
/// through Aho-Corasick, in about its time.
#[test]
fn lazy_dfa_runaway_gives_up_to_aho_corasick() {
    let lits = words(1000, 0x9E37_79B9_7F4A_7C15);
    let text: Vec<Vec<u8>> = words(40_000, 7);
    let mut hay = Vec::new();
    for (i, w) in text.iter().enumerate() {
        hay.extend_from_slice(w);
        hay.push(if i % 9 == 8 { b'\n' } else { b' ' });
    }
    let m = LiteralLines::with_cache(&lits, fallback(&lits), 0).unwrap();
    let started = std::time::Instant::now();
    let found = lines_found(&m, &hay);
    let took = started.elapsed();
    assert!(
        m.gave_up_here(),
        "the tiny cache should make the DFA give up"
    );
    // The existing path's lines (the naive oracle is the property test's:
    // over this much text it would take minutes unoptimised).
    let ac = Literals::new(fallback(&lits));
    let started_ac = std::time::Instant::now();
    assert_eq!(lines_found(&ac, &hay), found);
    let took_ac = started_ac.elapsed();
    eprintln!("gave up: {took:?}, aho-corasick: {took_ac:?}");
    // Generous: the guard's cost is a few cache fills, not a slow engine.
    assert!(
        took < took_ac * 4 + std::time::Duration::from_secs(1),
        "{took:?} against {took_ac:?}"
    );
}

/// With its default cache a set of 1,000 words keeps its DFA (the path
/// measured faster) and answers the oracle's lines.
#[test]
fn dense_set_keeps_its_dfa() {
    let lits = words(1000, 3);
    let mut hay = Vec::new();
    for (i, w) in words(5_000, 11).iter().enumerate() {
        hay.extend_from_slice(w);
        hay.push(if i % 7 == 6 { b'\n' } else { b' ' });
    }
    let m = LiteralLines::new(&lits, fallback(&lits)).unwrap();
    assert_eq!(lines_found(&m, &hay), lines_naive(&lits, &hay));
    assert!(!m.gave_up_here());
}

/// Regression: the sure hits' DFA took `\n` for the line terminator, so
/// with `-z` a word at the start of a NUL-ended line was not found.
#[test]
fn word_lines_end_at_the_runs_terminator() {
    let lits = [b"the".to_vec()];
    let ac = AhoCorasickBuilder::new()
        .match_kind(MatchKind::Standard)
        .build(&lits)
        .unwrap();
    let confirm = Box::new(crate::confirm::WordLiterals::new(ac));
    let m =
        LiteralLines::words_with_cache(&lits, fallback(&lits), confirm, 0, CACHE_BYTES).unwrap();
    let hay = b"xthe\0the\0bathe\0";
    let found = m.find_at(hay, 0).expect("the second line");
    assert!((5..=8).contains(&found.start), "{found:?}");
    assert_eq!(m.find_at(hay, 9), None);
}
