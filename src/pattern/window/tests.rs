use super::*;
use crate::engine::shiftor::ShiftOr;
use crate::engine::Matcher;
use crate::search::{Line, SearchOptions, Searcher, Sink};
use proptest::prelude::*;
use regex_automata::meta;

/// Parsed as `compile_regex` parses (multi-line, bytes allowed).
fn hir(re: &str, ci: bool) -> Hir {
    regex_syntax::ParserBuilder::new()
        .case_insensitive(ci)
        .multi_line(true)
        .utf8(false)
        .build()
        .parse(re)
        .unwrap()
}

fn sets_of(re: &str) -> Option<Vec<String>> {
    position_sets(&hir(re, false)).map(|sets| {
        let show = |s: &ByteSet| String::from_utf8(s.bytes().collect()).unwrap();
        sets.iter().map(show).collect()
    })
}

/// A range added a word at a time holds exactly the bytes `lo..=hi`.
#[test]
fn insert_range_holds_exactly_its_bytes() {
    for lo in 0..=255u8 {
        for hi in lo..=255u8 {
            let mut set = ByteSet::default();
            set.insert_range(lo, hi);
            assert!((0..=255u8).all(|b| set.contains(b) == (lo..=hi).contains(&b)));
        }
    }
}

#[test]
fn sets_of_typical_expressions() {
    let d = "0123456789";
    let dd = ".0123456789";
    assert_eq!(
        sets_of(r"([0-9]{1,3}\.){3}[0-9]{1,3}"),
        Some([d, dd, dd, dd, dd, dd, dd].map(String::from).to_vec())
    );
    assert_eq!(sets_of(r"[0-9a-f]{40}").unwrap().len(), 40);
    assert_eq!(sets_of(r"[0-9a-f]{80}").unwrap().len(), WINDOW_MAX);
    assert_eq!(sets_of(r"\bab|c\b"), Some(vec!["ac".into()]));
    assert_eq!(sets_of(r"a*"), None);
    assert_eq!(sets_of(r"a|"), None);
}

#[test]
fn only_rare_broad_windows_are_scanned() {
    let worth = |re: &str| worth_scanning(&position_sets(&hir(re, false)).unwrap());
    assert!(worth(r"([0-9]{1,3}\.){3}[0-9]{1,3}"));
    assert!(worth(r"[0-9a-f]{40}"));
    assert!(!worth(r"\w+@\w+\.\w+"));
    assert!(!worth(r"\$[0-9]+\.[0-9]{2}"), "memchr for $ does better");
    assert!(!worth(r"[a-z]+"));
}

/// Lines the shift-or scan, its windows checked by the DFA, selects with
/// the regex confirming them.
fn scan_lines(re_text: &str, text: &[u8]) -> Vec<u64> {
    let h = hir(re_text, false);
    let sets = position_sets(&h).unwrap();
    let fns: Vec<_> = sets.iter().map(|s| move |b: u8| s.contains(b)).collect();
    let scan = ShiftOr::new(&fns)
        .unwrap()
        .verified_by(super::super::finder::build_regex(&h, b'\n').unwrap(), true);
    let confirm = LineRegex(meta::Regex::new(re_text).unwrap());
    let mut got = Offsets::default();
    Searcher::new(OPTS, &scan, Some(&confirm))
        .search_slice(text, &mut got)
        .unwrap();
    got.0
}

const OPTS: SearchOptions = SearchOptions::lines(b'\n', false);

/// Long numbers pass the windows of an IPv4 regex and fail its DFA at
/// every position: the DFA alone takes over, and still finds every line.
#[test]
fn dense_failing_windows_hand_over_to_the_dfa() {
    let ipv4 = r"([0-9]{1,3}\.){3}[0-9]{1,3}";
    let mut text = Vec::new();
    let mut want = Vec::new();
    for i in 0..300 {
        if i % 37 == 5 {
            want.push(text.len() as u64);
            text.extend_from_slice(format!("host 10.0.{i}.1 up\n").as_bytes());
        } else {
            text.extend_from_slice(format!("{},1234567890123\n", 1_000_000 + i).as_bytes());
        }
    }
    text.extend_from_slice(b"9999999999 192.168.1.1");
    want.push(text.len() as u64 - 22);
    assert_eq!(scan_lines(ipv4, &text), want);
}

/// A random expression over digits, dots and letters, with classes,
/// anchors, word boundaries, alternations and bounded repetitions.
fn expression() -> impl Strategy<Value = String> {
    let pick = |v: Vec<&'static str>| prop::sample::select(v).prop_map(String::from);
    let leaf = prop_oneof![
        3 => pick(vec!["a", "1", "12", ".", r"\.", "x"]),
        3 => pick(vec!["[0-9]", "[0-9a-f]", "[^a]", r"\w", r"\W", "[a.]"]),
        1 => pick(vec!["^", "$", r"\b", r"\B", ""]),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            3 => prop::collection::vec(inner.clone(), 2..5).prop_map(|v| v.concat()),
            1 => prop::collection::vec(inner.clone(), 2..4)
                .prop_map(|v| format!("(?:{})", v.join("|"))),
            2 => (
                inner,
                prop::sample::select(vec!["*", "+", "?", "{1,3}", "{2}", "{0,2}", "+?"])
            )
                .prop_map(|(e, r)| format!("(?:{e}){r}")),
        ]
    })
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![
            "1",
            "23",
            ".",
            "a",
            "x",
            "f",
            " ",
            "\n",
            "1.2",
            "é",
            "1234567123",
        ]),
        0..80,
    )
    .prop_map(|v| v.concat().into_bytes())
}

/// Collects selected line offsets.
#[derive(Default)]
struct Offsets(Vec<u64>);

impl Sink for Offsets {
    fn selected(&mut self, line: &Line) -> std::io::Result<bool> {
        self.0.push(line.offset);
        Ok(true)
    }
    fn context(&mut self, _: &Line) -> std::io::Result<()> {
        Ok(())
    }
    fn gap(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The regex as the line matcher.
struct LineRegex(meta::Regex);

impl Matcher for LineRegex {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<std::ops::Range<usize>> {
        find_at(&self.0, hay, at)
    }
}

/// The oracle's regex, built from the HIR itself: its text can read back
/// as another regex (regex-syntax 0.8 prints `(?:a+)?` as `a+?`, a lazy
/// `a+`, so `[0-9](?:a+)?[0-9]` missed "12").
pub(crate) fn oracle(h: &Hir) -> meta::Regex {
    meta::Regex::builder().build_from_hir(h).unwrap()
}

/// The leftmost-first match starting at or after `at`, as `find_at`.
pub(crate) fn find_at(re: &meta::Regex, hay: &[u8], at: usize) -> Option<std::ops::Range<usize>> {
    re.find(regex_automata::Input::new(hay).range(at..))
        .map(|m| m.range())
}

/// Long counted repetitions give the uncut regex's sets, cut.
#[test]
fn cut_repetitions_of_typical_expressions() {
    for re in [
        ".{200,}",
        "[0-9a-f]{40,}",
        "(?:[0-9]{1,3}\\.){70}",
        "a(?:b{65}|c)d",
        "(?:é{64})+",
    ] {
        let h = hir(re, false);
        let uncut = sets_of_nfa(&h, false).expect("analysed");
        assert_eq!(position_sets(&h), Some(uncut), "{re}");
    }
}

/// Expressions with counted repetitions around and past [`WINDOW_MAX`].
fn long_repetitions() -> impl Strategy<Value = String> {
    let counts = vec![
        "{2}", "{63}", "{64}", "{65}", "{100}", "{0,70}", "{30,80}", "{64,}", "{70,}", "{3,}", "*",
    ];
    let leaf = prop::sample::select(vec!["a", ".", "[0-9]", r"\w", "é", "(?:ab|c)", "a?", r"\b"])
        .prop_map(String::from);
    leaf.prop_recursive(2, 8, 3, move |inner| {
        prop_oneof![
            2 => (inner.clone(), prop::sample::select(counts.clone()))
                .prop_map(|(e, r)| format!("(?:{e}){r}")),
            1 => prop::collection::vec(inner.clone(), 2..4).prop_map(|v| v.concat()),
            1 => prop::collection::vec(inner, 2..3).prop_map(|v| format!("(?:{})", v.join("|"))),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Cutting counted repetitions to the window's length changes no set
    /// (where the uncut NFA is small enough to analyse).
    #[test]
    fn cut_repetitions_keep_the_sets(re_text in long_repetitions()) {
        let h = hir(&re_text, false);
        if let Some(uncut) = sets_of_nfa(&h, false) {
            prop_assert_eq!(position_sets(&h), Some(uncut), "{}", re_text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Every match, starting anywhere, is at least as long as the window
    /// and its bytes lie in their positions' sets.
    #[test]
    fn every_match_fits_the_sets(re_text in expression(), ci in prop::bool::weighted(0.2), text in text()) {
        let h = hir(&re_text, ci);
        let Some(sets) = position_sets(&h) else { return Ok(()) };
        let re = oracle(&h);
        for start in 0..=text.len() {
            let Some(m) = find_at(&re, &text, start) else { break };
            let span = &text[m];
            prop_assert!(
                span.len() >= sets.len()
                    && span.iter().zip(&sets).all(|(&b, s)| s.contains(b)),
                "{re_text}: match {:?} does not fit the sets", String::from_utf8_lossy(span)
            );
        }
    }

    /// Every match, ending anywhere (the regex followed by `\z`, over each
    /// prefix of the text), is at least as long as the end sets and its
    /// last bytes lie in them, counted back from its end.
    #[test]
    fn every_match_ends_in_the_end_sets(re_text in expression(), ci in prop::bool::weighted(0.2), text in text()) {
        let h = hir(&re_text, ci);
        let Some(sets) = end_sets(&h) else { return Ok(()) };
        let ending = oracle(&Hir::concat(vec![h, Hir::look(regex_syntax::hir::Look::End)]));
        for end in 0..=text.len() {
            let Some(m) = find_at(&ending, &text[..end], 0) else { continue };
            let span = &text[m];
            prop_assert!(
                span.len() >= sets.len()
                    && span.iter().rev().zip(&sets).all(|(&b, s)| s.contains(b)),
                "{re_text}: match {:?} does not end in the sets", String::from_utf8_lossy(span)
            );
        }
    }

    /// The shift-or scan as line finder (its windows checked by the
    /// regex's DFA or not), the regex confirming each line, selects exactly
    /// the lines the regex matches on its own.
    #[test]
    fn shift_or_lines_equal_per_line_regex(
        re_text in expression(),
        text in text(),
        verified in any::<bool>(),
    ) {
        // Confined to one line, as every search's regex is: a verified
        // window then selects its line without the confirm step.
        let h = crate::pattern::compile::strip_terminator(hir(&re_text, false), b'\n');
        let Some(sets) = position_sets(&h) else { return Ok(()) };
        let fns: Vec<_> = sets.iter().map(|s| move |b: u8| s.contains(b)).collect();
        let mut scan = ShiftOr::new(&fns).unwrap();
        if verified {
            scan = scan.verified_by(super::super::finder::build_regex(&h, b'\n').unwrap(), true);
        }
        let re = oracle(&h);
        let confirm = LineRegex(re.clone());
        let mut got = Offsets::default();
        Searcher::new(OPTS, &scan, Some(&confirm)).search_slice(&text, &mut got).unwrap();
        let mut want = Vec::new();
        let mut offset = 0;
        for line in text.split_inclusive(|&b| b == b'\n') {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            if re.is_match(body) {
                want.push(offset as u64);
            }
            offset += line.len();
        }
        prop_assert_eq!(got.0, want, "{}", re_text);
    }
}
