use super::count_byte;

#[test]
fn count_byte_matches_naive_across_block_sizes() {
    for len in [
        0,
        1,
        31,
        32,
        33,
        255 * 32 - 1,
        255 * 32,
        255 * 32 + 1,
        20_000,
    ] {
        let hay: Vec<u8> = (0..len)
            .map(|i| {
                if i % 3 == 0 || i % 7 == 0 {
                    b'\n'
                } else {
                    b'x'
                }
            })
            .collect();
        let naive = hay.iter().filter(|&&x| x == b'\n').count() as u64;
        assert_eq!(count_byte(&hay, b'\n'), naive, "len {len}");
    }
    let all = vec![b'\n'; 100_000];
    assert_eq!(count_byte(&all, b'\n'), 100_000);
}

#[test]
fn binary_probe_sees_the_same_bytes_however_they_arrive() {
    use super::binary::{BinaryRule, Probe, BINARY_PROBE};
    use crate::config::BinaryMode;
    let rule = BinaryRule::new(BinaryMode::Binary, b'\n');
    for nul_at in [0, 1, BINARY_PROBE - 1, BINARY_PROBE, BINARY_PROBE + 5] {
        let mut data = vec![b'a'; BINARY_PROBE + 10];
        data[nul_at] = 0;
        let whole = rule.probe(&data);
        assert_eq!(whole, nul_at < BINARY_PROBE);
        for block in [1, 7, 4096, BINARY_PROBE] {
            let mut probe = Probe::default();
            let fed = data.chunks(block).fold(false, |seen, c| {
                let done = probe.done();
                seen | (!done && probe.feed(c))
            });
            assert_eq!(fed, whole, "NUL at {nul_at}, blocks of {block}");
        }
    }
    assert!(!BinaryRule::new(BinaryMode::Text, b'\n').probe(b"\0"));
    assert!(!BinaryRule::new(BinaryMode::Binary, 0).probe(b"\0"));
}

/// A literal's matches, whose terminators it knows from a count made
/// beforehand (as the GPU knows a file's), telling how often it was asked.
struct KnowsLines {
    lit: crate::engine::cpu::Literal,
    /// Terminators before each offset of the input.
    before: Vec<u64>,
    asked: std::sync::atomic::AtomicUsize,
}

impl crate::engine::Matcher for KnowsLines {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<std::ops::Range<usize>> {
        self.lit.find_at(hay, at)
    }

    fn terminators_at(&self, bytes: &[u8], at: u64, _t: u8) -> Option<u64> {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let end = at as usize + bytes.len();
        Some(self.before[end] - self.before[at as usize])
    }
}

/// Lines far apart are numbered from the prefilter's known terminators
/// (`Matcher::terminators_at`), close ones by counting: every number is its
/// line's own, with and without context, after a byte-order mark's skip.
#[test]
fn far_lines_are_numbered_from_the_terminators_the_prefilter_knows() {
    use super::{Line, SearchOptions, Searcher, Sink};
    /// Each line given: its number and its offset in the file.
    #[derive(Default)]
    struct Numbers(Vec<(u64, u64)>);
    impl Sink for Numbers {
        fn selected(&mut self, line: &Line) -> std::io::Result<bool> {
            self.0.push((line.number.unwrap_or(0), line.offset));
            Ok(true)
        }
        fn context(&mut self, line: &Line) -> std::io::Result<()> {
            self.0.push((line.number.unwrap_or(0), line.offset));
            Ok(())
        }
        fn gap(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // Hits close together, then 220 KB apart, then close again.
    let mut text = Vec::new();
    for i in 0..60_000u64 {
        let hit = i < 50 || i % 20_000 == 7 || (59_900..59_950).contains(&i);
        text.extend_from_slice(if hit {
            b"a hit here\n"
        } else {
            b"filler....\n"
        });
    }
    let mut before = vec![0];
    for &b in &text {
        before.push(before.last().unwrap() + u64::from(b == b'\n'));
    }
    for (skip, context) in [(0, 0), (0, 1), (3, 0), (3, 2)] {
        let m = KnowsLines {
            lit: crate::engine::cpu::Literal::new(b"hit"),
            before: before.clone(),
            asked: Default::default(),
        };
        let opts = SearchOptions {
            terminator: b'\n',
            invert: false,
            max_count: None,
            before: context,
            after: context,
            line_numbers: true,
            stop_on_nul: false,
            separators: context > 0,
        };
        let mut sink = Numbers::default();
        let mut s = Searcher::new(opts, &m, None);
        // The first `skip` bytes are a mark the search starts after.
        s.number_lines_from(skip as u64, 1);
        s.search_last_block(&text[skip..], skip as u64, 0, &mut sink)
            .unwrap();
        let hits = 50 + 2 + 50 - u64::from(skip > 0);
        let lines = (hits as usize) * (1 + 2 * context);
        assert!(
            sink.0.len() >= hits as usize && sink.0.len() <= lines,
            "{}",
            sink.0.len()
        );
        for &(n, offset) in &sink.0 {
            assert_eq!(
                n,
                1 + before[offset as usize],
                "skip {skip}, context {context}"
            );
        }
        assert!(
            m.asked.load(std::sync::atomic::Ordering::Relaxed) >= 2,
            "asked"
        );
    }
}

/// Prints selected lines as `prefix`, number, `:`, line, terminator:
/// through [`Sink::plain`] when `plain`, else a call a line.
struct Printed {
    out: Vec<u8>,
    plain: bool,
    prefix: Vec<u8>,
    numbered: bool,
    terminator: u8,
    calls: usize,
}

impl Printed {
    fn new(plain: bool, prefix: &[u8], numbered: bool, terminator: u8) -> Printed {
        Printed {
            out: Vec::new(),
            plain,
            prefix: prefix.to_vec(),
            numbered,
            terminator,
            calls: 0,
        }
    }
}

impl super::Sink for Printed {
    fn selected(&mut self, line: &super::Line) -> std::io::Result<bool> {
        self.calls += 1;
        self.out.extend_from_slice(&self.prefix);
        if self.numbered {
            let n = line.number.expect("numbered");
            self.out.extend_from_slice(format!("{n}:").as_bytes());
        }
        self.out.extend_from_slice(line.bytes);
        self.out.push(self.terminator);
        Ok(true)
    }
    fn context(&mut self, _: &super::Line) -> std::io::Result<()> {
        Ok(())
    }
    fn gap(&mut self) -> std::io::Result<()> {
        Ok(())
    }
    fn plain(&mut self) -> Option<super::Plain<'_>> {
        self.plain.then(|| super::Plain {
            out: &mut self.out,
            prefix: &self.prefix,
            numbered: self.numbered,
            terminator: self.terminator,
        })
    }
}

proptest::proptest! {
    /// Lines written through the sink's plain buffer are those a call a
    /// line prints, numbered alike, ending alike at binary data.
    #[test]
    fn plain_lines_are_the_lines_printed_one_by_one(
        text in proptest::collection::vec(proptest::sample::select(b"ab\n\0x".to_vec()), 0..400),
        pattern in proptest::collection::vec(proptest::sample::select(b"ab".to_vec()), 1..3),
        numbered in proptest::bool::ANY,
        stop_on_nul in proptest::bool::ANY,
        nul_ends in proptest::bool::ANY,
        named in proptest::bool::ANY,
    ) {
        use super::{SearchOptions, Searcher};
        let terminator = if nul_ends { 0 } else { b'\n' };
        let opts = SearchOptions {
            stop_on_nul: stop_on_nul && !nul_ends,
            ..SearchOptions::lines(terminator, numbered)
        };
        let lit = crate::engine::cpu::Literal::new(&pattern);
        let run = |plain: bool| {
            let prefix: &[u8] = if named { b"f:" } else { b"" };
            let mut sink = Printed::new(plain, prefix, numbered, terminator);
            let o = Searcher::new(opts, &lit, None).search_slice(&text, &mut sink).unwrap();
            (sink.out, sink.calls, o)
        };
        let (plain_out, plain_calls, plain_outcome) = run(true);
        let (one_out, _, one_outcome) = run(false);
        proptest::prop_assert_eq!(plain_calls, 0);
        proptest::prop_assert_eq!(plain_out, one_out);
        proptest::prop_assert_eq!(plain_outcome, one_outcome);
    }
}

/// The starts of the lines holding a literal, as a pack's exact marks on
/// the GPU (`run::gpu::offsets::FileOffsets`): file offsets `skip` past
/// the haystack's positions, some twice; `find_at` answers `g..g`; walked
/// in order through `line_starts` when `walk`.
struct MarkedLines {
    offsets: Vec<u64>,
    skip: u64,
    walk: bool,
}

impl crate::engine::Matcher for MarkedLines {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<std::ops::Range<usize>> {
        let from = at as u64 + self.skip;
        let o = *self.offsets.iter().find(|&&o| o >= from)?;
        let g = (o - self.skip) as usize;
        (g < hay.len()).then_some(g..g)
    }
    fn is_exact(&self) -> bool {
        true
    }
    fn line_starts(&self) -> Option<crate::engine::LineStarts<'_>> {
        self.walk.then_some(crate::engine::LineStarts {
            offsets: &self.offsets,
            skip: self.skip,
        })
    }
}

proptest::proptest! {
    /// Plain lines from marks walked in order are those the marks give
    /// one lookup at a time, and those a sink given each line prints,
    /// after a byte-order mark's skip too.
    #[test]
    fn walked_marks_print_the_lines_looked_up_one_by_one(
        text in proptest::collection::vec(proptest::sample::select(b"ab\nx".to_vec()), 0..400),
        skip in 0usize..3,
        twice in proptest::collection::vec(0usize..50, 0..6),
        numbered in proptest::bool::ANY,
    ) {
        use super::{SearchOptions, Searcher};
        let skip = skip.min(text.len());
        let mut offsets: Vec<u64> = Vec::new();
        let mut start = 0;
        for (i, &b) in text.iter().enumerate() {
            if b == b'\n' || i + 1 == text.len() {
                if text[start..=i].windows(2).any(|w| w == b"ab") {
                    offsets.push(start as u64);
                }
                start = i + 1;
            }
        }
        for &k in &twice {
            if let Some(&o) = offsets.get(k) {
                offsets.push(o);
            }
        }
        offsets.sort_unstable();
        let opts = SearchOptions::lines(b'\n', numbered);
        let run = |walk: bool, plain: bool| {
            let m = MarkedLines { offsets: offsets.clone(), skip: skip as u64, walk };
            let mut sink = Printed::new(plain, b"", numbered, b'\n');
            let mut s = Searcher::new(opts, &m, None);
            s.number_lines_from(skip as u64, 1);
            s.search_last_block(&text[skip..], skip as u64, 0, &mut sink).unwrap();
            (sink.out, s.outcome())
        };
        let walked = run(true, true);
        proptest::prop_assert_eq!(&walked, &run(false, true));
        proptest::prop_assert_eq!(&walked, &run(true, false));
    }

    /// Walked marks numbered on the way to each line's end
    /// (`count_then_find`) over lines long and short, close and far
    /// apart, from the middle of a count: as looked up one at a time.
    #[test]
    fn walked_marks_number_long_and_far_apart_lines_as_looked_up(
        lines in proptest::collection::vec(
            (proptest::prop_oneof![0usize..40, 0usize..400, 0usize..3000], proptest::bool::weighted(0.3)),
            0..120,
        ),
        unterminated in proptest::bool::ANY,
        from_line in 0usize..5,
    ) {
        use super::{SearchOptions, Searcher};
        let mut text = Vec::new();
        let mut offsets = Vec::new();
        let mut starts = Vec::new();
        for (i, &(len, marked)) in lines.iter().enumerate() {
            starts.push(text.len());
            if marked {
                offsets.push(text.len() as u64);
            }
            text.extend((0..len).map(|k| b'a' + ((i + k) % 26) as u8));
            text.push(b'\n');
        }
        if unterminated && text.last() == Some(&b'\n') {
            text.pop();
        }
        // The search starts at a line start, numbered as that line.
        let first = starts.get(from_line).copied().unwrap_or(0).min(text.len());
        let first_line = starts.iter().position(|&s| s == first).unwrap_or(0) as u64 + 1;
        let opts = SearchOptions::lines(b'\n', true);
        let run = |walk: bool| {
            let m = MarkedLines { offsets: offsets.clone(), skip: 0, walk };
            let mut sink = Printed::new(true, b"", true, b'\n');
            let mut s = Searcher::new(opts, &m, None);
            s.number_lines_from(first as u64, first_line);
            s.search_last_block(&text, 0, first, &mut sink).unwrap();
            (sink.out, s.outcome())
        };
        proptest::prop_assert_eq!(run(true), run(false));
    }
}
