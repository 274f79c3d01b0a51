//! The `multi` and `tally` kernels with their fold flag (`-i`,
//! `MultiTables::new_folded`) through a lane, against a naive
//! case-insensitive search and the CPU mirror (`MultiTables::reference`,
//! `Tally::reference` with `lengths_at`): mixed-case words, bytes >= 0x80
//! (UTF-8 letters, which the kernels compare as they are) and patterns of
//! 1 to 12 bytes, so the 1/2/3-byte sets, the 4-byte key, the binary search
//! and the tail compare all meet folded text.
//!
//! GPU only: skips (and passes) without a usable GPU. Cases:
//! `GPUGREP_DIFF_FOLD_CASES` (default 300; 30 under `GPUGREP_DIFF_SMALL`,
//! for compute-sanitizer). Seeds are fixed.

mod common;

use common::XorShift;
use gpugrep::engine::gpu::{
    ChunkFound, FileCount, GpuEngine, MatchCount, MultiTables, Select, Tally,
};

const WORDS: &[&str] = &[
    "the", "The", "THE", "of", "and", "AnD", "is", "Is", "kernel", "KERNEL", "Search", "search",
    "thread", "ThReAd", "café", "CAFÉ", "a", "A", "x", "zZ", "naïve", "straße", "Kelvin", "mask",
];

fn text(rng: &mut XorShift, len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len + 16);
    while v.len() < len {
        v.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
        v.push(match rng.below(10) {
            0 => b'\n',
            1 => b'_',
            _ => b' ',
        });
    }
    v.truncate(len);
    v
}

fn naive_folded(text: &[u8], set: &[Vec<u8>]) -> Vec<u64> {
    (0..text.len())
        .filter(|&i| {
            set.iter()
                .any(|p| text.len() - i >= p.len() && text[i..i + p.len()].eq_ignore_ascii_case(p))
        })
        .map(|i| i as u64)
        .collect()
}

fn cases() -> usize {
    std::env::var("GPUGREP_DIFF_FOLD_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(match std::env::var_os("GPUGREP_DIFF_SMALL") {
            Some(_) => 30,
            None => 300,
        })
}

/// Random sets of words and pieces of words in random case.
fn pattern_set(rng: &mut XorShift) -> Vec<Vec<u8>> {
    let count = [1, 2, 5, 40, 400][rng.below(5)];
    (0..count)
        .map(|_| {
            let w = WORDS[rng.below(WORDS.len())].as_bytes();
            let (a, b) = (rng.below(w.len()), rng.below(w.len() + 1));
            let mut p = match rng.below(3) {
                0 if a < b => w[a..b].to_vec(),
                _ => w.to_vec(),
            };
            if rng.below(4) == 0 {
                p.extend_from_slice(b" ");
                p.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
            }
            p.iter_mut().for_each(|b| {
                if rng.below(2) == 0 {
                    *b = b.to_ascii_uppercase();
                }
            });
            p
        })
        .collect()
}

#[test]
fn gpu_multi_folded_matches_naive() {
    let Ok(engine) = GpuEngine::open() else {
        eprintln!("skipped: no GPU");
        return;
    };
    let mut lane = engine.lane().expect("lane");
    let mut rng = XorShift(0xf01d_0f01_d001);
    let mut mismatches = 0;
    for case in 0..cases() {
        let set = pattern_set(&mut rng);
        let len = [
            rng.below(100),
            rng.below(40_000),
            100_000 + rng.below(200_000),
        ][rng.below(3)];
        let text = text(&mut rng, len);
        let tables = MultiTables::new_folded(&set).expect("tables");
        let want = naive_folded(&text, &set);
        let got = match lane.search_many(&text, &tables, None, u64::MAX, None) {
            Ok(ChunkFound::Offsets(v)) => v,
            other => panic!("case {case}: unexpected {other:?}"),
        };
        if got != want || tables.reference(&text) != want {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "MISMATCH folded multi case {case}: {} patterns, {} bytes: {} found, {} expected",
                    set.len(),
                    text.len(),
                    got.len(),
                    want.len()
                );
            }
        }
    }
    eprintln!("folded multi: {} cases, {mismatches} mismatches", cases());
    assert_eq!(mismatches, 0);
}

/// The tally kernel's chains over folded tables (`--count-matches`, `-w`,
/// `-x`, each longest pattern found with the text folded) against the
/// CPU mirror the simulated pipeline runs.
#[test]
fn gpu_tally_folded_matches_reference() {
    let Ok(engine) = GpuEngine::open() else {
        eprintln!("skipped: no GPU");
        return;
    };
    let mut lane = engine.lane().expect("lane");
    let mut rng = XorShift(0xf01d_7a11_0002);
    let mut mismatches = 0;
    for case in 0..cases() {
        let mut set = pattern_set(&mut rng);
        if set.len() == 1 {
            set.push(b"Zz".to_vec());
        }
        let tables = MultiTables::new_folded(&set).expect("tables");
        let mut chunk = Vec::new();
        let (mut starts, mut ends) = (Vec::new(), Vec::new());
        for _ in 0..1 + rng.below(12) {
            let len = [0, rng.below(5000), rng.below(60_000)][rng.below(3)];
            let file = text(&mut rng, len);
            starts.push(chunk.len() as u64);
            chunk.extend_from_slice(&file);
            ends.push(chunk.len() as u64);
            chunk.push(b'\n');
        }
        let tally = Tally {
            starts,
            ends,
            term: b'\n',
            count: [MatchCount::Starts, MatchCount::NonOverlapping][case % 2],
            select: [Select::Any, Select::Word, Select::Line][rng.below(3)],
            total: rng.below(2) == 0,
        };
        let found = naive_folded(&chunk, &set);
        let lens = |p: u64| {
            tables
                .lengths_at(&chunk, p as usize)
                .into_iter()
                .map(|l| l as u64)
                .collect()
        };
        let want: Option<Vec<FileCount>> = tally.reference(&chunk, &found, &lens);
        let got = lane.search_many(&chunk, &tables, None, u64::MAX, Some(&tally));
        let ok = match (&got, &want) {
            (Ok(ChunkFound::Counts(c)), Some(w)) => c == w,
            (Ok(ChunkFound::Offsets(v)), None) => *v == found,
            _ => false,
        };
        if !ok {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!("MISMATCH folded tally case {case}: {got:?} against {want:?}");
            }
        }
    }
    eprintln!("folded tally: {} cases, {mismatches} mismatches", cases());
    assert_eq!(mismatches, 0);
}
