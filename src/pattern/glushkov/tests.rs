//! The automaton against the `regex` crate: a line is selected iff some
//! rule matches it, on random packs over random text.

use super::*;
use proptest::prelude::*;

fn cfg(args: &[&str]) -> Config {
    Config::from_args(&[args, &["x"]].concat())
}

fn auto(rules: &[&str]) -> Automaton {
    let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    for_rules(&rules, &cfg(&["-E"])).unwrap()
}

/// The lines (their starts) any rule selects, by the `regex` crate.
fn oracle(rules: &[String], text: &[u8], ci: bool, t: u8) -> Vec<u64> {
    let joined = rules
        .iter()
        .map(|r| format!("(?:{r})"))
        .collect::<Vec<_>>()
        .join("|");
    let re = regex::bytes::RegexBuilder::new(&joined)
        .multi_line(true)
        .case_insensitive(ci)
        .size_limit(1 << 30)
        .build()
        .unwrap();
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = memchr::memchr(t, &text[start..]).map_or(text.len(), |i| start + i);
        if re.is_match(&text[start..end]) {
            out.push(start as u64);
        }
        start = end + 1;
    }
    out
}

#[test]
fn literals_concatenate_by_shifts() {
    let a = auto(&["abc", "xyz"]);
    assert_eq!(a.positions, 6);
    assert!(a.exc_pos.is_empty());
    assert_eq!(a.reference(b"xxabc\nab\nzzxyz\n"), vec![0, 9]);
    assert!(a.exact);
}

#[test]
fn anchors_hold_at_line_ends_only() {
    let a = auto(&["^ab", "cd$"]);
    assert_eq!(a.reference(b"ab\nxab\ncd\ncdx\nxcd"), vec![0, 7, 14]);
    let a = auto(&["^$"]);
    assert_eq!(a.reference(b"a\n\nb\n\n"), vec![2, 5]);
    assert!(auto(&["a^b"]).reference(b"ab\na^b\n").is_empty());
}

#[test]
fn loops_and_alternations() {
    let a = auto(&["a(b|cd)*e", "x+y?z"]);
    assert_eq!(
        a.reference(b"ae\nabcdbe\nacde\nabce\nxz\nxxxyz\nyz"),
        vec![0, 3, 10, 20, 23]
    );
}

#[test]
fn unicode_classes_are_byte_sequences() {
    let a = auto(&["é.ß"]);
    assert_eq!(
        a.reference("éxß\néΩß\nexß\né\u{1F600}ß".as_bytes()).len(),
        3
    );
    let a = auto(&[r"\w+z"]);
    assert!(a.positions < 2000, "{}", a.positions);
    assert!(a.is_match_line("ÿz".as_bytes()));
    assert!(!a.is_match_line(b" z"));
}

/// loghub's templates without a literal: each `\S` is some 30 positions
/// whole and one in the ASCII part, which decides the lines of ASCII
/// bytes; a line with another byte runs again on the whole rules.
#[test]
fn an_ascii_part_runs_first_and_lines_past_ascii_run_again() {
    let rules = [r"\S+:\S+ \S+:\S+", r"v\S+\.\S+ \(\S+\)"];
    let a = auto(&rules);
    assert!(
        a.ascii_words > 0 && a.ascii_words * 8 < a.words,
        "{}",
        a.describe()
    );
    assert_eq!(a.ascii_run_words(), a.ascii_words);
    let text = "a:b c:d\né:b c:d\na:b c\nx:ü y:\u{a0}\nvé.x (y)\nv1.2 (ü)\n:: ::\n";
    let owned: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    let want = oracle(&owned, text.as_bytes(), false, b'\n');
    assert_eq!(want.len(), 4, "{want:?}");
    assert_eq!(a.reference(text.as_bytes()), want);
    // Rules of ASCII classes only have no ASCII part.
    assert_eq!(auto(&[r"[a-z]+:[0-9]+"]).ascii_words, 0);
}

/// Rules too large whole but not cut: the cut alone, not exact, every
/// line with a byte past ASCII a candidate.
#[test]
fn rules_too_large_whole_run_cut_with_other_lines_candidates() {
    let a = auto(&[r"k[\w.=-]{10,150}", "SK[0-9a-f]{4}"]);
    assert_eq!(a.ascii_words, a.words, "{}", a.describe());
    assert!(!a.exact);
    let text = "k=abcdefghij\nk=abc\nSKbeef\nk=éé\nxy\n";
    assert_eq!(a.reference(text.as_bytes()), vec![0, 19, 26]);
    // Rules of ASCII bytes only (a Unicode class of ASCII ranges too) are
    // still refused past the counted repetitions.
    for r in ["a{100}", "[ab]{100}", r"[[:alpha:]]{100}"] {
        assert!(for_rules(&[r.to_string()], &cfg(&["-E"])).is_err(), "{r}");
    }
}

#[test]
fn refusals_say_why() {
    let refuse = |r: &str| for_rules(&[r.to_string()], &cfg(&["-E"])).unwrap_err();
    assert!(refuse("a*").contains("empty string"));
    assert!(refuse("^").contains("empty string"));
    assert!(refuse("a{1000}").contains("repetition"));
    let many: Vec<String> = (0..2000).map(|i| format!("rule{i}x")).collect();
    assert!(for_rules(&many, &cfg(&["-E"]))
        .unwrap_err()
        .contains("positions"));
}

#[test]
fn word_boundaries_are_dropped_not_refused() {
    let a = for_rules(&[r"\bfoo\b".to_string()], &cfg(&["-E"])).unwrap();
    assert!(!a.exact);
    assert!(a.is_match_line(b"xfoox"));
    let a = for_rules(&["foo".to_string()], &cfg(&["-E", "-w"])).unwrap();
    assert!(!a.exact);
}

#[test]
fn line_and_case_options() {
    let a = for_rules(&["ab|c".to_string()], &cfg(&["-E", "-x", "-i"])).unwrap();
    assert_eq!(a.reference(b"AB\nabc\nC\nxc\n"), vec![0, 7]);
    let a = for_rules(&["a.b".to_string()], &cfg(&["-E", "-z"])).unwrap();
    assert_eq!(a.terminator, 0);
    assert_eq!(a.reference(b"a\nb\0axb\0ab"), vec![0, 4]);
}

/// A random rule: literals, classes, alternation, repetition, anchors.
fn rule() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec!["a", "b", "c", "ab", "ba", "é", "K", "k"]).prop_map(String::from),
        prop::sample::select(vec![
            "[ab]",
            "[^a]",
            ".",
            "[a-cé]",
            r"\d",
            "[[:upper:]]",
            r"\S",
            r"\w{70}"
        ])
        .prop_map(String::from),
    ];
    let expr = leaf.prop_recursive(4, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| v.concat()),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| format!("(?:{})", v.join("|"))),
            (
                inner.clone(),
                prop::sample::select(vec!["*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}"])
            )
                .prop_map(|(e, op)| format!("(?:{e}){op}")),
        ]
    });
    (
        prop::sample::select(vec!["", "^", "(?i)", "^(?i)"]),
        expr,
        prop::sample::select(vec!["", "$", "(?:$|b)"]),
    )
        .prop_map(|(a, e, z)| format!("{a}{e}{z}"))
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "b", "c", "\n", "é", "K", "\u{212A}", "1", "A", "\n\n", " ",
        ]),
        0..80,
    )
    .prop_map(|v| v.concat().into_bytes())
}

/// Exact: the lines the `regex` crate selects. Rules too large whole, cut
/// to their ASCII bytes (not exact): those lines, and lines with a byte
/// past ASCII.
fn selects_as_the_regex(
    a: &Automaton,
    rules: &[String],
    text: &[u8],
    ci: bool,
) -> Result<(), TestCaseError> {
    let (want, got) = (oracle(rules, text, ci, b'\n'), a.reference(text));
    if a.exact {
        prop_assert_eq!(got, want, "{:?}", rules);
        return Ok(());
    }
    prop_assert_eq!(a.ascii_words, a.words);
    let other_bytes = |&s: &u64| {
        let line = &text[s as usize..];
        let end = memchr::memchr(b'\n', line).unwrap_or(line.len());
        !line[..end].is_ascii()
    };
    prop_assert!(want.iter().all(|s| got.contains(s)), "{:?}", rules);
    prop_assert!(
        got.iter().all(|s| want.contains(s) || other_bytes(s)),
        "{:?}",
        rules
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Exact for lines: the automaton selects the lines the `regex`
    /// crate selects (any rule matches), or refuses the pack.
    #[test]
    fn selects_the_lines_regex_selects(
        rules in prop::collection::vec(rule(), 1..6),
        text in text(),
        ci in any::<bool>(),
    ) {
        let args: &[&str] = if ci { &["-E", "-i"] } else { &["-E"] };
        match for_rules(&rules, &cfg(args)) {
            Ok(a) => selects_as_the_regex(&a, &rules, &text, ci)?,
            Err(why) => {
                // Only a rule matching empty lines everywhere is refused here.
                prop_assert!(why.contains("empty string"), "{}", why);
                prop_assert_eq!(oracle(&rules, &text, ci, b'\n').len(), text.split(|&b| b == b'\n').count() - usize::from(text.last() == Some(&b'\n') || text.is_empty()));
            }
        }
    }

    /// Invalid UTF-8 bytes and every byte value: still exact.
    #[test]
    fn raw_bytes_are_exact(
        rules in prop::collection::vec(rule(), 1..4),
        text in prop::collection::vec(prop::sample::select(vec![b'a', b'b', 0xC3, 0xA9, 0xFF, b'\n', 0x80]), 0..60),
    ) {
        if let Ok(a) = for_rules(&rules, &cfg(&["-E"])) {
            selects_as_the_regex(&a, &rules, &text, false)?;
        }
    }
}

fn word_text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "b", "c", "\n", "1", "_", " ", "-", "A", "bc", "é", "\u{301}",
        ]),
        0..80,
    )
    .prop_map(|v| v.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// `-w` in the automaton (`word`): with every rule a plain one inside
    /// `-w`'s boundaries, the automaton selects the lines of ASCII bytes
    /// the boundaries' regex selects, exactly, and every other line as a
    /// candidate; else its boundaries are dropped and it is a candidate
    /// filter (a superset).
    #[test]
    fn word_boundaries_in_the_automaton_select_the_regexs_ascii_lines(
        rules in prop::collection::vec(rule(), 1..5),
        text in word_text(),
        ci in any::<bool>(),
    ) {
        let wrapped: Vec<String> = rules
            .iter()
            .map(|r| format!(r"\b{{start-half}}(?:{r})\b{{end-half}}"))
            .collect();
        let args: &[&str] = if ci { &["-E", "-w", "-i"] } else { &["-E", "-w"] };
        let hirs = parse(&wrapped, ci, b'\n').unwrap();
        let Ok(a) = for_hirs(&hirs, &cfg(args)) else {
            return Ok(());
        };
        let want = oracle(&wrapped, &text, ci, b'\n');
        let got = a.reference(&text);
        let ascii = |&s: &u64| {
            let line = &text[s as usize..];
            line[..memchr::memchr(b'\n', line).unwrap_or(line.len())].is_ascii()
        };
        prop_assert!(want.iter().all(|s| got.contains(s)), "{:?}", rules);
        if a.word {
            prop_assert!(a.exact, "{:?}", rules);
            let (got, want): (Vec<u64>, Vec<u64>) =
                (got.into_iter().filter(ascii).collect(), want.into_iter().filter(ascii).collect());
            prop_assert_eq!(got, want, "{:?}", rules);
        } else {
            prop_assert!(!a.exact);
            prop_assert!(word::inners(&hirs).is_none(), "{:?}", rules);
        }
    }
}

/// Under `-w` the automaton steps over a byte-order mark starting a line
/// (a file's first line, which the CPU judges again after it): the line
/// stays ASCII, and sure; a line with another byte past ASCII is a
/// candidate, and makes the result unsure.
#[test]
fn word_automata_step_over_a_byte_order_mark_at_a_lines_start() {
    let a = word::for_expressions(&["job[0-9]+".to_string()], false, b'\n').unwrap();
    let text = "\u{feff}job1\n\u{feff}xjob2\njob3x\n".as_bytes();
    assert_eq!(a.reference_sure(text), (vec![0], true));
    let text = "\u{feff}job1\né job3\n".as_bytes();
    assert_eq!(a.reference_sure(text), (vec![0, 8], false));
}
