use super::*;
use crate::engine::cpu::Candidates;
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The finder inside, counting its calls.
struct Counting<'a>(Candidates, &'a AtomicUsize);

impl Matcher for Counting<'static> {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.find_at(hay, at)
    }

    fn is_exact(&self) -> bool {
        false
    }
}

/// The lines (by start) the searcher selects: each candidate's line
/// confirmed by "holds a literal", walked from each line's end on.
fn selected(hay: &[u8], f: &dyn Matcher, lits: &[&[u8]]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < hay.len() {
        let Some(m) = f.find_at(hay, at) else { break };
        let hit = m.start.min(hay.len());
        let start = at
            + hay[at..hit]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
        let end = hit + memchr::memchr(b'\n', &hay[hit..]).unwrap_or(hay.len() - hit);
        let line = &hay[start..end];
        if lits.iter().any(|l| line.windows(l.len()).any(|w| w == *l)) {
            out.push(start);
        }
        at = end + 1;
    }
    out
}

fn naive(hay: &[u8], lits: &[&[u8]]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in hay.split(|&b| b == b'\n') {
        if start < hay.len() && lits.iter().any(|l| line.windows(l.len()).any(|w| w == *l)) {
            out.push(start);
        }
        start += line.len() + 1;
    }
    out
}

const LITS: &[&[u8]] = &[b"abc", b"xy"];

fn finder(calls: &'static AtomicUsize) -> DenseLines {
    let c = Candidates::new(&[b"abc".to_vec(), b"xy".to_vec()]).unwrap();
    DenseLines::new(Box::new(Counting(c, calls)), b'\n')
}

/// Where every line holds a literal the finder is set aside after a
/// window, and the lines selected stay the same.
#[test]
fn dense_lines_go_to_the_confirmation_directly() {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let f = finder(&CALLS);
    let hay: Vec<u8> = (0..3 * WINDOW)
        .flat_map(|i| format!("{i} abc\n").into_bytes())
        .collect();
    assert_eq!(selected(&hay, &f, LITS), naive(&hay, LITS));
    assert_eq!(CALLS.load(Ordering::Relaxed), WINDOW as usize);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Dense stretches, sparse ones, and the line at the end without a
    /// terminator: the same lines as the naive search.
    #[test]
    fn selects_what_the_finder_selects(
        parts in prop::collection::vec((0u8..3, 1usize..3000), 1..6),
    ) {
        static CALLS: AtomicUsize = AtomicUsize::new(0);
        let f = finder(&CALLS);
        let mut hay = Vec::new();
        for (kind, n) in parts {
            for i in 0..n {
                let line = match kind {
                    0 => "x abc y".to_string(),
                    1 => format!("nothing {i}"),
                    _ => if i % 7 == 0 { "xy".to_string() } else { "zz".to_string() },
                };
                hay.extend_from_slice(line.as_bytes());
                hay.push(b'\n');
            }
        }
        hay.pop();
        prop_assert_eq!(selected(&hay, &f, LITS), naive(&hay, LITS));
    }
}
