//! `Tally::reference` (the kernel's algorithm) against the CPU engine's
//! rules, counted the obvious way.

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
        let (chunk, starts, ends) = files(&text, cuts);
        let matches: Vec<u64> = (0..chunk.len())
            .filter(|&p| chunk[p..].starts_with(&pattern))
            .map(|p| p as u64)
            .collect();
        let m = pattern.len() as u64;
        for count in [MatchCount::Starts, MatchCount::NonOverlapping] {
            let tally = Tally {
                starts: starts.clone(),
                ends: ends.clone(),
                term: b'\n',
                count,
                select: Select::Any,
                total: false,
            };
            let got = tally.reference(&chunk, &matches, &|_| vec![m]).unwrap();
            let want: Vec<FileCount> = starts
                .iter()
                .zip(&ends)
                .map(|(&s, &e)| {
                    let file = &chunk[s as usize..e as usize];
                    let has = |line: &[u8]| line.windows(pattern.len()).any(|w| w == pattern.as_slice());
                    let starts = (0..file.len()).filter(|&p| file[p..].starts_with(&pattern)).count();
                    let apart: usize = file.split(|&b| b == b'\n').map(|l| non_overlapping(l, &pattern)).sum();
                    FileCount {
                        lines: file.split(|&b| b == b'\n').filter(|l| has(l)).count() as u64,
                        matches: match count {
                            MatchCount::Starts => starts,
                            MatchCount::NonOverlapping => apart,
                        } as u64,
                        ..FileCount::default()
                    }
                })
                .collect();
            prop_assert_eq!(got, want);
        }
    }
}

/// Files cut from `text` at `cuts`, each followed by a newline: the
/// chunk and the files' ranges.
fn files(text: &[u8], cuts: Vec<usize>) -> (Vec<u8>, Vec<u64>, Vec<u64>) {
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
    (chunk, starts, ends)
}

proptest! {
    /// `-w` and `-x` (one literal or a set) and the line
    /// totals of `-v` against the CPU engine's rules line by line:
    /// `confirm::word_before`/`word_after` around every occurrence,
    /// the line equal to a pattern, terminators plus an unterminated
    /// last line. A file the reference flags (a non-ASCII byte beside
    /// a `-w` match) has such a byte; every other file is exact. CRLF
    /// lines keep their `\r` (GNU grep: it is part of the line).
    #[test]
    fn tally_reference_selects_as_the_cpu_engine(
        text in prop::collection::vec(prop::sample::select(b"ab \r\n\xc3\xa9_".to_vec()), 1..300),
        cuts in prop::collection::vec(0usize..300, 0..6),
        set in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab\r".to_vec()), 1..4), 1..4),
    ) {
        let (chunk, starts, ends) = files(&text, cuts);
        for (select, set) in [(Select::Word, &set[..1]), (Select::Word, &set[..]), (Select::Line, &set[..])] {
            let mut set = set.to_vec();
            set.sort();
            set.dedup();
            // Every pattern's length at p, longest first.
            let lens_at = |p: u64| {
                let mut l: Vec<u64> = set.iter().filter(|q| chunk[p as usize..].starts_with(q)).map(|q| q.len() as u64).collect();
                l.sort_unstable_by(|a, b| b.cmp(a));
                l
            };
            let matches: Vec<u64> = (0..chunk.len() as u64).filter(|&p| !lens_at(p).is_empty()).collect();
            let tally = Tally {
                starts: starts.clone(),
                ends: ends.clone(),
                term: b'\n',
                count: MatchCount::Starts,
                select,
                total: true,
            };
            let got = tally.reference(&chunk, &matches, &lens_at).unwrap();
            for (k, (&s, &e)) in starts.iter().zip(&ends).enumerate() {
                let file = &chunk[s as usize..e as usize];
                let lines: Vec<&[u8]> = match file.strip_suffix(b"\n") {
                    Some(f) => f.split(|&b| b == b'\n').collect(),
                    None if file.is_empty() => Vec::new(),
                    None => file.split(|&b| b == b'\n').collect(),
                };
                prop_assert_eq!(got[k].total as usize, lines.len());
                let word = |l: &[u8]| set.iter().any(|q| (0..l.len()).any(|p| {
                    l[p..].starts_with(q)
                        && !crate::confirm::word_before(l, p)
                        && !crate::confirm::word_after(l, p + q.len())
                }));
                let selected = lines.iter().filter(|l| match select {
                    Select::Word => word(l),
                    _ => set.iter().any(|q| q.as_slice() == **l),
                }).count();
                if got[k].cpu {
                    prop_assert!(!file.is_ascii());
                } else {
                    prop_assert_eq!(got[k].lines as usize, selected);
                }
            }
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
