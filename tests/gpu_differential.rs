//! The GPU search kinds through a lane (`GpuLane::search`, the path the
//! pipeline ships) against their CPU mirror (`Target::reference`) and a
//! naive oracle, on random and adversarial cases.
//!
//! Skips (and passes) on machines without a usable GPU. Environment:
//! `GPUGREP_DIFF_CASES` = number of random cases (default 100000; each runs
//! both kernels); `GPUGREP_DIFF_SMALL=1` = a few hundred small cases, for
//! `compute-sanitizer --tool memcheck|racecheck`;
//! `GPUGREP_DIFF_BACKREAD_CASES` = cases of the back-read kernel against
//! its CPU mirror (default 1000). Seeds are fixed.

mod common;

use common::XorShift;
use gpugrep::encoding::boundary::Scheme;
use gpugrep::engine::gpu::backread::{self, Backread, WALK_CAP};
use gpugrep::engine::gpu::{ChunkFound, GpuEngine, GpuLane, Kernel, Target};

const WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by",
    "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an",
    "had", "they", "you", "were", "their", "search", "kernel", "thread", "memory", "pattern",
];

fn english(rng: &mut XorShift, len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len + 16);
    while v.len() < len {
        v.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
        v.push(if rng.below(12) == 0 { b'\n' } else { b' ' });
    }
    v.truncate(len);
    v
}

fn naive(text: &[u8], pat: &[u8]) -> Vec<u64> {
    if pat.is_empty() || pat.len() > text.len() {
        return Vec::new();
    }
    text.windows(pat.len())
        .enumerate()
        .filter(|(_, w)| *w == pat)
        .map(|(i, _)| i as u64)
        .collect()
}

#[derive(Default)]
struct Stats {
    cases: usize,
    mismatches: usize,
    bitmap: usize,
    offsets: usize,
    kernels: std::collections::BTreeMap<&'static str, usize>,
}

fn check(
    lane: &mut GpuLane,
    stats: &mut Stats,
    text: &[u8],
    pat: &[u8],
    kernel: Kernel,
    label: &str,
) {
    stats.cases += 1;
    let want = naive(text, pat);
    let mirror = Target::One(pat.to_vec()).reference(text);
    lane.set_kernel(Some(kernel));
    let got = match lane.search(text, pat, None, u64::MAX, None) {
        Ok(ChunkFound::Offsets(v)) => v,
        Ok(other) => panic!("{label}: unexpected result {other:?}"),
        Err(e) => panic!("{label}: GPU error {e} (n={}, m={})", text.len(), pat.len()),
    };
    *stats.kernels.entry(lane.last_kernel()).or_default() += 1;
    match lane.last_shipped() {
        "bitmap" => stats.bitmap += 1,
        "offsets" => stats.offsets += 1,
        _ => {}
    }
    if got != want || mirror != want {
        stats.mismatches += 1;
        if stats.mismatches <= 10 {
            let first_diff = got.iter().zip(&want).position(|(a, b)| a != b);
            eprintln!(
                "MISMATCH {label} kernel={kernel:?} ran={} n={} m={} got {} mirror {} want {} first diff at {:?} (got {:?}, want {:?})",
                lane.last_kernel(),
                text.len(),
                pat.len(),
                got.len(),
                mirror.len(),
                want.len(),
                first_diff,
                first_diff.map(|i| got[i]),
                first_diff.map(|i| want[i]),
            );
        }
    }
}

fn both(lane: &mut GpuLane, stats: &mut Stats, text: &[u8], pat: &[u8], label: &str) {
    check(lane, stats, text, pat, Kernel::Prefix4, label);
    check(lane, stats, text, pat, Kernel::BoyerMoore, label);
}

fn open() -> Option<GpuEngine> {
    match GpuEngine::open() {
        Ok(e) => {
            eprintln!("{}", e.describe());
            Some(e)
        }
        Err(reason) => {
            eprintln!("skipped: no GPU: {reason}");
            None
        }
    }
}

#[test]
fn gpu_matches_naive_oracle() {
    let Some(engine) = open() else { return };
    let mut lane = engine.lane().expect("lane");
    let small = std::env::var("GPUGREP_DIFF_SMALL").is_ok_and(|v| v == "1");
    let cases: usize = if small {
        60
    } else {
        std::env::var("GPUGREP_DIFF_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(100_000)
    };
    let mut stats = Stats::default();
    let mut rng = XorShift(0x243f_6a88_85a3_08d3);
    let all: Vec<u8> = (0..=255u8).collect();

    // 1. Every alignment: a pattern planted at each offset around word,
    //    portion, tile and block boundaries.
    let bounds: &[usize] = if small {
        &[32]
    } else {
        &[0, 32, 64, 128, 256, 1024, 32768, 65536]
    };
    let lens: &[usize] = if small {
        &[1, 4, 5, 33]
    } else {
        &[1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 100, 300]
    };
    for &b in bounds {
        for &m in lens {
            let lo = b.saturating_sub(m + 2);
            for at in lo..b + 3 {
                let mut text = vec![b'x'; b + m + 40];
                let pat: Vec<u8> = (0..m).map(|i| b'a' + (i % 7) as u8).collect();
                text[at..at + m].copy_from_slice(&pat);
                both(&mut lane, &mut stats, &text, &pat, "aligned");
                // and the text ending exactly at the match
                both(&mut lane, &mut stats, &text[..at + m], &pat, "aligned-end");
            }
        }
    }

    // 2. Empty and tiny texts.
    for n in 0..6 {
        for m in 1..4 {
            let text = rng.bytes(n, b"ab");
            let pat = rng.bytes(m, b"ab");
            both(&mut lane, &mut stats, &text, &pat, "tiny");
        }
    }

    // 3. Random cases.
    for case in 0..cases {
        let n = match case % 10 {
            0..=3 => rng.below(200),
            4..=6 => rng.below(3000),
            7 | 8 => rng.below(40_000),
            _ => {
                if small {
                    rng.below(5000)
                } else {
                    rng.below(150_000)
                }
            }
        };
        let text = match case % 4 {
            0 => rng.bytes(n, b"ab"),
            1 => rng.bytes(n, b"abcd"),
            2 => english(&mut rng, n),
            _ => rng.bytes(n, &all),
        };
        let m = 1 + match case % 7 {
            0 | 1 => rng.below(4),
            2 | 3 => rng.below(16),
            _ => rng.below(300),
        };
        let pat = if n > m && rng.below(3) > 0 {
            let at = rng.below(n - m);
            text[at..at + m].to_vec()
        } else {
            match case % 4 {
                0 => rng.bytes(m, b"ab"),
                1 => rng.bytes(m, b"abcd"),
                2 => english(&mut rng, m),
                _ => rng.bytes(m, &all),
            }
        };
        // Alternate kernels case by case; every 8th case runs both.
        if case % 8 == 0 {
            both(&mut lane, &mut stats, &text, &pat, "random");
        } else if case % 2 == 0 {
            check(
                &mut lane,
                &mut stats,
                &text,
                &pat,
                Kernel::Prefix4,
                "random",
            );
        } else {
            check(
                &mut lane,
                &mut stats,
                &text,
                &pat,
                Kernel::BoyerMoore,
                "random",
            );
        }
    }

    // 4. Long patterns, up to and beyond 4 KiB (Boyer-Moore's limit), with
    //    dense matches (periodic texts) and near misses.
    let long_lens: &[usize] = if small {
        &[4097]
    } else {
        &[1000, 4095, 4096, 4097, 5000, 9000]
    };
    for &m in long_lens {
        let periods: &[usize] = if small { &[1, 7] } else { &[1, 2, 3, 7, 64] };
        for &period in periods {
            let unit: Vec<u8> = (0..period).map(|i| b'a' + (i % 3) as u8).collect();
            let text: Vec<u8> = unit.iter().copied().cycle().take(3 * m + 100).collect();
            let pat = text[..m].to_vec();
            both(&mut lane, &mut stats, &text, &pat, "long-periodic");
            let mut near = pat.clone();
            near[m / 2] = b'z';
            both(&mut lane, &mut stats, &text, &near, "long-near-miss");
        }
        let text = english(&mut rng, 40_000);
        let at = rng.below(40_000 - m);
        let pat = text[at..at + m].to_vec();
        both(&mut lane, &mut stats, &text, &pat, "long-english");
        lane.set_kernel(None);
        let auto = lane
            .search(&text, &pat, None, u64::MAX, None)
            .expect("auto");
        assert_eq!(auto, ChunkFound::Offsets(naive(&text, &pat)));
    }

    // 5. Shapes: a dense result (bitmap) and a sparse one (offsets), large.
    if !small {
        let text = rng.bytes(3 << 20, b"ab");
        both(&mut lane, &mut stats, &text, b"ab", "dense-large");
        // Results over 1 MiB come back through the pinned readback buffer,
        // in 16 MiB chunks: a 3 MiB-word bitmap, and ~190K offsets.
        let text = rng.bytes(24 << 20, b"ab");
        check(
            &mut lane,
            &mut stats,
            &text,
            b"ab",
            Kernel::Prefix4,
            "dense-chunked",
        );
        check(
            &mut lane,
            &mut stats,
            &text,
            b"abbabab",
            Kernel::Prefix4,
            "offsets-chunked",
        );
        let text = english(&mut rng, 5 << 20);
        both(
            &mut lane,
            &mut stats,
            &text,
            b"pattern search",
            "sparse-large",
        );
    }

    eprintln!(
        "differential: {} searches, {} mismatches; results shipped as bitmap {} / offsets {}; kernels {:?}",
        stats.cases, stats.mismatches, stats.bitmap, stats.offsets, stats.kernels
    );
    assert_eq!(stats.mismatches, 0);
    assert!(stats.kernels.contains_key("prefix4") && stats.kernels.contains_key("boyer-moore"));
    if !small {
        assert!(
            stats.bitmap > 0 && stats.offsets > 0,
            "both result shapes exercised"
        );
    }
}

#[test]
fn gpu_edge_cases() {
    let Some(mut engine) = open() else { return };
    let mut lane = engine.lane().expect("lane");
    let mut search = |text: &[u8], pat: &[u8]| lane.search(text, pat, None, u64::MAX, None);
    assert!(search(b"abc", b"").is_err(), "empty pattern is an error");
    let none = ChunkFound::Offsets(Vec::new());
    assert_eq!(search(b"", b"a").expect("empty text"), none);
    assert_eq!(search(b"ab", b"abc").expect("short text"), none);
    let s = search(b"aaaa", b"aa").expect("overlap");
    assert_eq!(s, ChunkFound::Offsets(vec![0, 1, 2]));
    let s = search(&[0u8, 0, 255, 0], &[255]).expect("binary");
    assert_eq!(s, ChunkFound::Offsets(vec![2]));
    // Portions: every accepted one gives the same answer (a lane takes
    // the engine's portion when it is made).
    let mut rng = XorShift(99);
    let text = rng.bytes(100_000, b"abc");
    let pat = text[5000..5040].to_vec();
    let want = naive(&text, &pat);
    for portion in [32u32, 64, 128, 256, 512, 1024] {
        engine.set_bm_portion(portion).expect("portion");
        let mut lane = engine.lane().expect("lane");
        lane.set_kernel(Some(Kernel::BoyerMoore));
        let got = lane.search(&text, &pat, None, u64::MAX, None).expect("bm");
        assert_eq!(lane.last_kernel(), "boyer-moore");
        assert_eq!(got, ChunkFound::Offsets(want.clone()), "portion {portion}");
    }
    assert!(engine.set_bm_portion(200).is_err());
    engine
        .set_bm_portion(gpugrep::engine::gpu::kernels::BM_DEFAULT_PORTION)
        .expect("reset");
}

/// A set of `count` patterns in one of the shapes the `multi` kernel must
/// handle: words, shared prefixes, substrings of each other, duplicates,
/// 1-byte patterns, random bytes.
fn pattern_set(rng: &mut XorShift, count: usize) -> (Vec<Vec<u8>>, &'static str) {
    let shape = rng.below(6);
    let mut set: Vec<Vec<u8>> = Vec::with_capacity(count);
    while set.len() < count {
        let p: Vec<u8> = match shape {
            0 => {
                let len = 2 + rng.below(12);
                english(rng, len)
            }
            1 => {
                let mut p = b"ther".to_vec();
                let len = rng.below(8);
                p.extend(english(rng, len));
                p
            }
            2 => {
                let len = 3 + rng.below(10);
                let w = english(rng, len);
                let a = rng.below(w.len());
                let b = a + 1 + rng.below(w.len() - a);
                w[a..b].to_vec()
            }
            3 => match set.last() {
                Some(p) if rng.below(2) == 0 => p.clone(),
                _ => {
                    let len = 1 + rng.below(6);
                    english(rng, len)
                }
            },
            4 => vec![b"abcdefghijklmnopqrstuvwxyz \n"[rng.below(28)]],
            _ => (0..1 + rng.below(8))
                .map(|_| rng.below(256) as u8)
                .collect(),
        };
        if !p.is_empty() {
            set.push(p);
        }
    }
    let label = [
        "words",
        "prefixes",
        "substrings",
        "duplicates",
        "1-byte",
        "random",
    ][shape];
    (set, label)
}

fn naive_set(text: &[u8], set: &[Vec<u8>]) -> Vec<u64> {
    (0..text.len())
        .filter(|&i| set.iter().any(|p| text[i..].starts_with(p)))
        .map(|i| i as u64)
        .collect()
}

/// Cases of a test: `var` when set, else `small` under GPUGREP_DIFF_SMALL
/// (runs under compute-sanitizer), else `full`.
fn case_count(var: &str, small: usize, full: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if std::env::var_os("GPUGREP_DIFF_SMALL").is_some() {
            small
        } else {
            full
        })
}

/// The `multi` kernel (through a lane, as the pipeline runs it) against a
/// naive search, on random sets of 1 to 10,000 patterns.
#[test]
fn gpu_multi_matches_naive_oracle() {
    let Some(engine) = open() else { return };
    let mut lane = engine.lane().expect("lane");
    let cases = case_count("GPUGREP_DIFF_MULTI_CASES", 30, 600);
    let mut rng = XorShift(0x5eed_0f5e_75aa);
    let mut mismatches = 0;
    let mut shapes = std::collections::BTreeMap::new();
    for case in 0..cases {
        let count = [1, 2, 3, 10, 100, 1000, 10_000][rng.below(7)];
        let count = if count == 10_000 && case % 5 != 0 {
            100
        } else {
            count
        };
        let (set, label) = pattern_set(&mut rng, count);
        *shapes.entry(label).or_insert(0) += 1;
        let len = match rng.below(4) {
            0 => rng.below(100),
            1 => rng.below(40_000),
            _ => 100_000 + rng.below(300_000),
        };
        let mut text = english(&mut rng, len);
        // Plant some patterns so matches are not only the common words.
        for _ in 0..rng.below(20) {
            let p = &set[rng.below(set.len())];
            if p.len() < text.len() {
                let at = rng.below(text.len() - p.len());
                text[at..at + p.len()].copy_from_slice(p);
            }
        }
        let tables = gpugrep::engine::gpu::MultiTables::new(&set).expect("tables");
        let want = naive_set(&text, &set);
        let got = match lane.search_many(&text, &tables, None, u64::MAX, None) {
            Ok(gpugrep::engine::gpu::ChunkFound::Offsets(v)) => v,
            other => panic!("case {case}: unexpected {other:?}"),
        };
        if got != want || tables.reference(&text) != want {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "MISMATCH multi case {case} ({label}, {} patterns, {} bytes): {} found, {} expected",
                    set.len(),
                    text.len(),
                    got.len(),
                    want.len()
                );
            }
        }
    }
    eprintln!("differential multi: {cases} cases, {mismatches} mismatches, shapes {shapes:?}");
    assert_eq!(mismatches, 0);
}

/// Bytes in a legacy multi-byte encoding's shapes: `style` 0 mixes lead,
/// trail, digit and ASCII bytes; 1 is two-byte characters whose trails are
/// mostly ASCII letters, with some ASCII and line ends; 2 holds runs of
/// lead bytes longer than the back-read's cap.
fn legacy_text(rng: &mut XorShift, len: usize, style: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len + 8);
    while v.len() < len {
        match style {
            0 => v.push(match rng.below(6) {
                0 => 0x81 + rng.below(0x7e) as u8,
                1 => 0x40 + rng.below(0x3f) as u8,
                2 => b'0' + rng.below(10) as u8,
                3 => b" \n@A\\"[rng.below(5)],
                4 => [0x8e, 0x8f, 0xa1, 0xfe, 0x80, 0xff][rng.below(6)],
                _ => rng.below(256) as u8,
            }),
            1 => match rng.below(10) {
                0 => v.push(b"\nA -"[rng.below(4)]),
                1 => v.extend([0x81 + rng.below(0x7e) as u8, 0x80 + rng.below(0x7f) as u8]),
                _ => v.extend([0x81 + rng.below(0x1f) as u8, 0x40 + rng.below(0x3f) as u8]),
            },
            _ => {
                let run = rng.below(2 * WALK_CAP + 100);
                v.extend((0..run).map(|_| [0x81, 0x8f, 0x95, 0xe0][rng.below(4)]));
                let tail = 1 + rng.below(40);
                v.extend(rng.bytes(tail, b"A@5 \n\x81"));
            }
        }
    }
    v.truncate(len);
    v
}

/// The back-read kernel (after the search kernel, through a lane as the
/// pipeline runs it) against its CPU mirror `backread::filter` applied to
/// a naive search, for every scheme, chunks starting on and off a
/// character start: the same survivors, exactly.
#[test]
fn gpu_backread_matches_cpu_mirror() {
    let Some(engine) = open() else { return };
    let mut lane = engine.lane().expect("lane");
    let cases = case_count("GPUGREP_DIFF_BACKREAD_CASES", 50, 1000);
    let schemes = Scheme::ALL;
    let mut rng = XorShift(0xbac4_4ead_5e1f_0001);
    let (mut mismatches, mut candidates, mut kept) = (0, 0, 0);
    for case in 0..cases {
        let scheme = schemes[case % schemes.len()];
        let style = rng.below(3);
        let len = match rng.below(4) {
            0 => 1 + rng.below(300),
            1 => 1 + rng.below(40_000),
            _ => 100_000 + rng.below(400_000),
        };
        let text = legacy_text(&mut rng, len, style);
        // Patterns from the text (so they occur), 1 to 4 bytes: one, or a
        // set (the multi kernel) for candidates of several shapes.
        let mut pats = Vec::new();
        for _ in 0..if rng.below(2) == 0 {
            1
        } else {
            2 + rng.below(5)
        } {
            let m = (1 + rng.below(4)).min(text.len());
            let at = rng.below(text.len() - m + 1);
            pats.push(text[at..at + m].to_vec());
        }
        let b = Backread {
            scheme,
            start_is_boundary: rng.below(3) != 0,
        };
        let mut want = naive_set(&text, &pats);
        candidates += want.len();
        backread::filter(&text, &mut want, b);
        kept += want.len();
        let found = match &pats[..] {
            [pat] => lane.search(&text, pat, Some(b), u64::MAX, None),
            _ => {
                let tables = gpugrep::engine::gpu::MultiTables::new(&pats).expect("tables");
                lane.search_many(&text, &tables, Some(b), u64::MAX, None)
            }
        };
        let got = match found {
            Ok(ChunkFound::Offsets(v)) => v,
            other => panic!("case {case}: unexpected {other:?}"),
        };
        if got != want {
            mismatches += 1;
            if mismatches <= 5 {
                let diff = got.iter().zip(&want).position(|(a, b)| a != b);
                eprintln!(
                    "MISMATCH backread case {case} ({b:?}, style {style}, {} bytes, patterns {pats:02x?}): {} kept, {} expected, first difference at {diff:?}",
                    text.len(),
                    got.len(),
                    want.len()
                );
            }
        }
    }
    eprintln!(
        "differential backread: {cases} cases, {candidates} candidates, {kept} kept, {mismatches} mismatches"
    );
    assert_eq!(mismatches, 0);
}

/// The `tally` kernel (per-file counts of matching lines and of matches,
/// as `-c`, `-l` and `--count-matches` use them: match starts, or
/// non-overlapping matches, leftmost-longest) against
/// `Tally::reference` and a naive count over the lines of each file, with
/// one literal (some overlapping themselves) and with sets (prefixes of one
/// another, 1-byte patterns), files of every size, and lines too long to
/// walk (the lane then ships offsets instead).
#[test]
fn gpu_tally_matches_naive_counts() {
    use gpugrep::engine::gpu::{ChunkFound, FileCount, MatchCount, MultiTables, Select, Tally};
    let Some(engine) = open() else { return };
    let mut lane = engine.lane().expect("lane");
    let cases = case_count("GPUGREP_DIFF_TALLY_CASES", 30, 300);
    let mut rng = XorShift(0x7a11_7a11_0001);
    let (mut mismatches, mut gave_up) = (0, 0);
    for case in 0..cases {
        // Words, and pieces of them that overlap themselves or others
        // ("e e", "ee", "t", "th").
        const PIECES: &[&str] = &["e e", "ee", "t", "th", "s t", "e", "n", "he "];
        let set: Vec<Vec<u8>> = (0..1 + rng.below(3) * rng.below(20))
            .map(|_| match rng.below(4) {
                0 => PIECES[rng.below(PIECES.len())].as_bytes().to_vec(),
                _ => WORDS[rng.below(WORDS.len())].as_bytes().to_vec(),
            })
            .collect();
        let count = match case % 2 {
            0 => MatchCount::Starts,
            _ => MatchCount::NonOverlapping,
        };
        // Files of random sizes, each followed by a newline, as the
        // pipeline packs them.
        let mut chunk = Vec::new();
        let (mut starts, mut ends) = (Vec::new(), Vec::new());
        for f in 0..1 + rng.below(20) {
            let len = match rng.below(6) {
                0 => 0,
                1 => rng.below(100_000),
                _ => rng.below(5000),
            };
            let mut file = english(&mut rng, len);
            if case % 10 == 0 && f == 0 {
                // One line longer than the kernel walks back, with a match
                // at its end only: the lane ships offsets instead.
                file = vec![b'.'; 300_000];
                file.extend_from_slice(&set[0]);
            }
            starts.push(chunk.len() as u64);
            chunk.extend_from_slice(&file);
            ends.push(chunk.len() as u64);
            chunk.push(b'\n');
        }
        let want_starts = naive_set(&chunk, &set);
        let tally = Tally {
            starts: starts.clone(),
            ends: ends.clone(),
            term: b'\n',
            count,
            select: Select::Any,
            total: false,
        };
        // The longest pattern at a match start.
        let longest = |p: u64| {
            let rest = &chunk[p as usize..];
            set.iter()
                .filter(|q| rest.starts_with(q))
                .map(|q| q.len() as u64)
                .max()
                .unwrap_or(1)
        };
        let got = if set.len() == 1 {
            lane.search(&chunk, &set[0], None, u64::MAX, Some(&tally))
        } else {
            let tables = MultiTables::new(&set).expect("tables");
            lane.search_many(&chunk, &tables, None, u64::MAX, Some(&tally))
        };
        let reference = tally.reference(&chunk, &want_starts, &|p| vec![longest(p)]);
        let ok = match (got, &reference) {
            (Ok(ChunkFound::Counts(c)), Some(r)) => {
                // The reference against the obvious count, too.
                let naive: Vec<FileCount> = starts
                    .iter()
                    .zip(&ends)
                    .map(|(&s, &e)| {
                        // Each line of the file, and whether a match starts in it.
                        let any_in = |a: u64, b: u64| {
                            let i = want_starts.partition_point(|&p| p < a);
                            want_starts.get(i).is_some_and(|&p| p < b)
                        };
                        // Non-overlapping matches from `a` on, in a line ending at `b`.
                        let apart = |mut a: u64, b: u64| {
                            let mut n = 0;
                            while let Some(&p) =
                                want_starts.get(want_starts.partition_point(|&p| p < a))
                            {
                                let len = longest(p);
                                if p >= b || p + len > b {
                                    break;
                                }
                                n += 1;
                                a = p + len;
                            }
                            n
                        };
                        let (mut lines, mut matches) = (0, 0);
                        let mut at = s;
                        for line in chunk[s as usize..e as usize].split(|&b| b == b'\n') {
                            let end = at + line.len() as u64;
                            lines += u64::from(any_in(at, end));
                            matches += apart(at, end);
                            at = end + 1;
                        }
                        let (i, j) = (
                            want_starts.partition_point(|&p| p < s),
                            want_starts.partition_point(|&p| p < e),
                        );
                        FileCount {
                            lines,
                            matches: match count {
                                MatchCount::Starts => (j - i) as u64,
                                MatchCount::NonOverlapping => matches,
                            },
                            ..FileCount::default()
                        }
                    })
                    .collect();
                c == *r && c == naive
            }
            (Ok(ChunkFound::Offsets(v)), None) => {
                gave_up += 1;
                v == want_starts
            }
            _ => false,
        };
        if !ok {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "MISMATCH tally case {case}: {} patterns, {} files, {} bytes",
                    set.len(),
                    starts.len(),
                    chunk.len()
                );
            }
        }
    }
    eprintln!("differential tally: {cases} cases ({gave_up} gave up on a long line), {mismatches} mismatches");
    assert_eq!(mismatches, 0);
}

/// The tally kernel's `-w` and `-x` (one literal or a set: prefixes of
/// one another, 1-3 byte patterns) and
/// line totals (`-v`) against `Tally::reference` (which the unit tests
/// check against the CPU engine's rules): English with CRLF lines,
/// non-ASCII words beside matches (the kernel flags those files), files
/// starting after a byte-order mark (the range starts 3 bytes into the
/// file), files without a last newline, chunks without matches (lines
/// are still counted), and lines too long to walk.
#[test]
fn gpu_tally_selects_as_reference() {
    use gpugrep::engine::gpu::{ChunkFound, MatchCount, MultiTables, Select, Tally};
    let Some(engine) = open() else { return };
    let mut lane = engine.lane().expect("lane");
    let cases = case_count("GPUGREP_DIFF_TALLY_CASES", 60, 600);
    let mut rng = XorShift(0x7a11_5e1e_c7ed);
    let (mut mismatches, mut flagged, mut gave_up) = (0, 0, 0);
    for case in 0..cases {
        let select = match case % 3 {
            0 => Select::Word,
            _ => Select::Line,
        };
        // One literal, or a set with words that are prefixes of others
        // ("the", "then", "there") and 1-3 byte patterns.
        let set: Vec<Vec<u8>> = match rng.below(2) {
            0 => vec![WORDS[rng.below(WORDS.len())].as_bytes().to_vec()],
            _ => (0..2 + rng.below(20))
                .map(|_| match rng.below(5) {
                    0 => ["t", "th", "he", "the", "then", "there", "s", "a"][rng.below(8)]
                        .as_bytes()
                        .to_vec(),
                    _ => WORDS[rng.below(WORDS.len())].as_bytes().to_vec(),
                })
                .collect(),
        };
        let mut chunk = Vec::new();
        let (mut starts, mut ends) = (Vec::new(), Vec::new());
        for f in 0..1 + rng.below(20) {
            let len = match rng.below(6) {
                0 => 1,
                1 => rng.below(100_000),
                _ => rng.below(5000),
            };
            let mut file = Vec::new();
            // Lines of one word (for -x), CRLF, non-ASCII neighbours.
            while file.len() < len {
                match rng.below(10) {
                    0 => file.extend_from_slice(b"\r\n"),
                    1 => file.extend_from_slice("é".as_bytes()),
                    2 => file.push(b'\n'),
                    3 => {
                        file.extend_from_slice(&set[rng.below(set.len())]);
                        file.push(b'\n');
                    }
                    _ => {
                        file.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
                        file.push(b' ');
                    }
                }
            }
            if case % 20 == 0 && f == 0 {
                file = vec![b'.'; 300_000];
                file.extend_from_slice(&set[0]);
            }
            let skip = if rng.below(5) == 0 { 3 } else { 0 };
            if skip > 0 {
                file.splice(0..0, [0xef, 0xbb, 0xbf]);
            }
            starts.push((chunk.len() + skip) as u64);
            chunk.extend_from_slice(&file);
            ends.push(chunk.len() as u64);
            chunk.push(b'\n');
        }
        // The last file may end the chunk without a separator.
        if rng.below(2) == 0 {
            chunk.pop();
        }
        let want_starts = naive_set(&chunk, &set);
        let tally = Tally {
            starts,
            ends,
            term: b'\n',
            count: MatchCount::Starts,
            select,
            total: true,
        };
        let mut distinct = set.clone();
        distinct.sort();
        distinct.dedup();
        // Every pattern's length at p, longest first.
        let lens_at = |p: u64| {
            let rest = &chunk[p as usize..];
            let mut l: Vec<u64> = distinct
                .iter()
                .filter(|q| rest.starts_with(q))
                .map(|q| q.len() as u64)
                .collect();
            l.sort_unstable_by(|a, b| b.cmp(a));
            l
        };
        let got = if distinct.len() == 1 {
            lane.search(&chunk, &distinct[0], None, u64::MAX, Some(&tally))
        } else {
            let tables = MultiTables::new(&distinct).expect("tables");
            lane.search_many(&chunk, &tables, None, u64::MAX, Some(&tally))
        };
        let ok = match (got, tally.reference(&chunk, &want_starts, &lens_at)) {
            (Ok(ChunkFound::Counts(c)), Some(r)) => {
                flagged += c.iter().filter(|c| c.cpu).count();
                c == r
            }
            (Ok(ChunkFound::Offsets(v)), None) => {
                gave_up += 1;
                v == want_starts
            }
            _ => false,
        };
        if !ok {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "MISMATCH tally select case {case}: {select:?}, {} patterns",
                    set.len()
                );
            }
        }
    }
    eprintln!("tally select: {cases} cases ({flagged} files flagged for the CPU, {gave_up} gave up), {mismatches} mismatches");
    assert_eq!(mismatches, 0);
}

/// `-n`'s line counts (`count_terminators`): per 64 KiB block of the chunk
/// just searched, the terminators (`\n`, and NUL for `-z`) a byte-by-byte
/// count finds, and whether a `\n`-ended block holds a NUL (`HOLDS_NUL`,
/// which spares printed lines the watch for binary data); chunks of every
/// length around the block and the kernel's 16-byte reads, dense and
/// sparse lines, NULs scattered, at the 16-byte tail or none, and a chunk
/// too short to search (never uploaded: counted on the CPU).
#[test]
fn gpu_line_counts_match_naive_counts() {
    use gpugrep::engine::gpu::{HOLDS_NUL, LINE_BLOCK};
    let Some(engine) = open() else { return };
    let mut lane = engine.lane().expect("lane");
    let cases = case_count("GPUGREP_DIFF_LINES_CASES", 40, 400);
    let mut rng = XorShift(0x11e5_c0de_0001);
    let mut mismatches = 0;
    for case in 0..cases {
        let len = match rng.below(5) {
            0 => rng.below(64),
            1 => LINE_BLOCK * (1 + rng.below(4)) + rng.below(33) - 16,
            2 => rng.below(3 * LINE_BLOCK),
            _ => rng.below(40 << 20),
        };
        let mut text = english(&mut rng, len);
        if case % 3 == 0 {
            // -z text: NULs as terminators, newlines inside lines.
            for b in text.iter_mut().filter(|b| **b == b' ') {
                if rng.below(9) == 0 {
                    *b = 0;
                }
            }
        }
        if case % 3 == 1 && !text.is_empty() {
            // A NUL or two where a block may hold one: anywhere, or among
            // the last bytes the kernel reads one at a time.
            for _ in 0..rng.below(3) {
                let at = match rng.below(2) {
                    0 => rng.below(text.len()),
                    _ => text.len() - 1 - rng.below(text.len().min(16)),
                };
                text[at] = 0;
            }
        }
        let term = if case % 3 == 0 { 0 } else { b'\n' };
        // A pattern that never matches in the generated text, and one
        // longer than a tiny chunk (nothing uploaded).
        let pattern: &[u8] = if case % 7 == 0 {
            b"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
        } else {
            b"the"
        };
        let searched = lane.search(&text, pattern, None, u64::MAX, None);
        let got = lane.terminators(&text, term);
        let want: Vec<u32> = text
            .chunks(LINE_BLOCK)
            .map(|b| {
                let nul = term != 0 && b.contains(&0);
                b.iter().filter(|&&c| c == term).count() as u32 | if nul { HOLDS_NUL } else { 0 }
            })
            .collect();
        if searched.is_err() || got.as_ref().ok() != Some(&want) {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "MISMATCH line counts case {case}: {} bytes, term {term}",
                    text.len()
                );
            }
        }
    }
    eprintln!("line counts: {cases} cases, {mismatches} mismatches");
    assert_eq!(mismatches, 0);
}
