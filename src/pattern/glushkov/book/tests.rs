//! The rule book against the `regex` crate: given every start of a
//! literal, a line is marked iff one of the literal's rules matches it,
//! unless the book says it was unsure (then the marks hold every matching
//! line); and `ascii_only` agrees with the rule on ASCII lines.

use super::*;
use proptest::prelude::*;

fn cfg(args: &[&str]) -> Config {
    Config::from_args(&[args, &["x"]].concat())
}

const LITERALS: &[&str] = &["err", "FAIL", "timeout", "abx"];

/// Every start of a literal in `text`, ascending (the multi kernel's bits).
fn starts(text: &[u8], lits: &[&str]) -> Vec<u64> {
    (0..text.len())
        .filter(|&p| lits.iter().any(|l| text[p..].starts_with(l.as_bytes())))
        .map(|p| p as u64)
        .collect()
}

/// Every start of an ASCII case variant of a literal in `text` (what the
/// multi kernel marks for a book holding every variant, or under `-i`).
fn folded_starts(text: &[u8]) -> Vec<u64> {
    let lowered: Vec<String> = LITERALS.iter().map(|l| l.to_ascii_lowercase()).collect();
    let lowered: Vec<&str> = lowered.iter().map(String::as_str).collect();
    starts(&text.to_ascii_lowercase(), &lowered)
}

/// Sure, the marks are the lines the rules match (`want`); unsure, they
/// hold them all.
fn marks_hold(
    marks: &[u64],
    unsure: bool,
    want: &[u64],
    rs: &[String],
) -> Result<(), TestCaseError> {
    if unsure {
        prop_assert!(want.iter().all(|w| marks.contains(w)), "{:?}", rs);
    } else {
        prop_assert_eq!(marks, want, "{:?}", rs);
    }
    Ok(())
}

/// The lines (their starts) some rule matches, by the `regex` crate.
fn oracle(rules: &[String], text: &[u8], ci: bool) -> Vec<u64> {
    let res: Vec<regex::bytes::Regex> = rules
        .iter()
        .map(|r| {
            regex::bytes::RegexBuilder::new(r)
                .case_insensitive(ci)
                .build()
                .unwrap()
        })
        .collect();
    let mut out = Vec::new();
    let mut s = 0;
    while s < text.len() {
        let e = memchr::memchr(b'\n', &text[s..]).map_or(text.len(), |i| s + i);
        if res.iter().any(|re| re.is_match(&text[s..e])) {
            out.push(s as u64);
        }
        s = e + 1;
    }
    out
}

/// Every ASCII case variant of `l`.
fn variants(l: &str) -> Vec<Vec<u8>> {
    crate::pattern::fold::ascii_case_combinations(l.as_bytes())
}

/// The book's literals and their owners: rule `r` of `rules` owns
/// `LITERALS[lit[r]]` (under `-i` (`ci`), every ASCII case variant of it,
/// as the split's literals are).
fn book_literals(rules: usize, lit: &[usize], ci: bool) -> (Vec<Vec<u8>>, Vec<Vec<u32>>) {
    let (mut literals, mut owners) = (Vec::new(), Vec::new());
    for (k, l) in LITERALS.iter().enumerate() {
        let own: Vec<u32> = (0..rules as u32)
            .filter(|&r| lit[r as usize] == k)
            .collect();
        let vs = match ci {
            true => variants(l),
            false => vec![l.as_bytes().to_vec()],
        };
        for v in vs {
            literals.push(v);
            owners.push(own.clone());
        }
    }
    (literals, owners)
}

/// A book of `rules`, rule `r` owning literal `LITERALS[lit[r]]`.
fn book(rules: &[String], lit: &[usize], args: &[&str]) -> RuleBook {
    let (literals, owners) = book_literals(rules.len(), lit, args.contains(&"-i"));
    let cfg = cfg(args);
    let hirs = super::super::parse_rules(rules, &cfg).unwrap();
    RuleBook::build(&hirs, &literals, &owners, &cfg).unwrap()
}

#[test]
fn lines_with_a_matching_rule_are_marked() {
    let rules = vec!["err: [0-9]+".to_string(), "^FAIL .*x$".to_string()];
    let b = book(&rules, &[0, 1], &["-E"]);
    let text = b"err: 12\nerr: x\nFAIL abx\n FAIL x\nFAIL y\n";
    let (marks, unsure) = b.confirm(text, &starts(text, LITERALS));
    assert_eq!(marks, vec![0, 15]);
    assert!(!unsure && b.exact);
}

#[test]
fn large_unicode_classes_get_an_ascii_automaton() {
    let rules = vec![
        r"FAIL \w+".to_string(),
        r"err \S+ \S+ \S+ \S+ \S+ \S+ \S+ \S+ \S+ x".to_string(),
    ];
    let b = book(&rules, &[1, 0], &["-E"]);
    assert_eq!((b.ascii, b.open), (2, 0), "{}", b.describe(|r| r + 1));
    let text = "FAIL abc\nFAIL  \nFAIL é\n".as_bytes();
    let (marks, unsure) = b.confirm(text, &starts(text, LITERALS));
    // The third line is not ASCII: marked, unsure.
    assert_eq!(marks, vec![0, 16]);
    assert!(unsure);
    let (marks, unsure) = b.confirm(&text[..16], &starts(&text[..16], LITERALS));
    assert_eq!(marks, vec![0]);
    assert!(!unsure);
}

/// A long rule of ASCII bytes with one `\S` (loghub's longer templates,
/// 500-1,000 bytes) gets its full automaton, up to twice its ASCII one's
/// positions; with 512 positions at most, such rules had none at all.
#[test]
fn long_rules_get_both_automata() {
    let long = format!("timeout {} \\S+ done", "x".repeat(700));
    let rules = vec![long, r"err \S+".to_string()];
    let b = book(&rules, &[2, 0], &["-E"]);
    assert_eq!((b.ascii, b.open), (0, 0), "{}", b.describe(|r| r + 1));
    let line = format!("timeout {} é done\nerr x\n", "x".repeat(700));
    let text = line.as_bytes();
    let (marks, unsure) = b.confirm(text, &starts(text, LITERALS));
    assert_eq!(
        (marks, unsure),
        (vec![0, line.find("err").unwrap() as u64], false)
    );
}

#[test]
fn a_rule_without_automaton_is_open() {
    let rules = vec!["err[ab]{3000}".to_string(), "FAIL".to_string()];
    let b = book(&rules, &[0, 1], &["-E"]);
    assert_eq!(b.open, 1);
    assert!(b
        .describe(|r| r + 1)
        .contains("rule 1: a counted repetition above 2048"));
    let text = b"err\nFAIL\nx\n";
    assert_eq!(b.confirm(text, &starts(text, LITERALS)), (vec![0, 4], true));
    assert_eq!(
        b.confirm(&text[4..], &starts(&text[4..], LITERALS)),
        (vec![0], false)
    );
}

#[test]
fn word_boundaries_make_it_inexact() {
    assert!(!book(&["err".to_string()], &[0], &["-E", "-w"]).exact);
    assert!(!book(&[r"\berr".to_string()], &[0], &["-E"]).exact);
    assert!(book(&["err".to_string()], &[0], &["-E", "-x"]).exact);
}

/// A rule beginning with its literal runs from each of the literal's
/// starts (the first `err` below dies at once; the second matches); one
/// that may begin elsewhere runs from the line's start.
#[test]
fn an_anchored_rule_runs_from_each_literal_start() {
    let rs = vec![r"err\d+".to_string(), r"a+FAIL".to_string()];
    let b = book(&rs, &[0, 1], &["-E"]);
    assert_eq!(b.heads[head::LEAD], 1);
    assert_eq!(b.heads[HEAD + head::LEAD], 1);
    assert_eq!(b.heads[2 * HEAD + head::LEAD], 0);
    let text = b"err err7\nerr x\naaFAIL\nFAIL\n";
    let (marks, unsure) = b.confirm(text, &starts(text, LITERALS));
    assert!(!unsure);
    assert_eq!(marks, vec![0, 15]);
}

/// A rule whose matches begin a bounded way before its literal runs over
/// that lead before each literal start: on an ASCII line one byte a
/// character, on another up to four. The match below begins exactly the
/// lead before the literal.
#[test]
fn a_rule_with_a_lead_runs_over_it_before_each_literal_start() {
    let rs = vec![r"[a-zé]{0,2}[-=]err\d".to_string(), r"x{2}FAIL".to_string()];
    let b = book(&rs, &[0, 1], &["-E"]);
    assert_eq!(b.heads[head::LEAD], 4);
    assert_eq!(b.heads[HEAD + head::LEAD], 6);
    assert_eq!(b.heads[2 * HEAD + head::LEAD], 3);
    let text = "ab-err err7\nab=err7\naxxFAIL\nxFAIL\néé-err1\n".as_bytes();
    let (marks, unsure) = b.confirm(text, &starts(text, LITERALS));
    assert!(!unsure);
    assert_eq!(marks, vec![12, 20, 34]);
}

/// A rule beginning with its literal runs from the literal's last byte
/// (`skip.rs`): its automaton is built without the bytes before it.
#[test]
fn a_rule_beginning_with_its_literal_runs_past_it() {
    let rs = vec![
        r"errerr \d".to_string(),
        r"timeout \S+ after \S+ ms".to_string(),
        "abx".to_string(),
    ];
    let b = book(&rs, &[0, 2, 3], &["-E"]);
    let skip = |a: usize| b.heads[a * HEAD + head::SKIP];
    assert_eq!((skip(0), skip(2), skip(4)), (2, 6, 2));
    assert!((0..6).all(|a| b.heads[a * HEAD + head::LEAD] == 1));
    // The rule's match begins at the literal's second start, a literal
    // that ends the line, and one whose rest is missing.
    let text = b"errerrerr 1\nxx timeout a after 3 ms\ntimeout a after\nabx\nab\n";
    let (marks, unsure) = b.confirm(text, &starts(text, LITERALS));
    assert!(!unsure);
    assert_eq!(marks, oracle(&rs, text, false));
    assert_eq!(marks, vec![0, 12, 52]);
}

/// A rule holding literal `LITERALS[k]` among random pieces.
fn rule() -> impl Strategy<Value = (String, usize)> {
    let piece = prop::sample::select(vec![
        "a",
        "b",
        "[ab]",
        "[^a ]",
        ".",
        r"\d",
        "é",
        r"\w",
        r"\S",
        "(?:a|bc)",
        "[[:upper:]]",
    ]);
    let op = prop::sample::select(vec!["", "", "*", "+", "?", "{2}", "{1,3}"]);
    let part = (piece, op).prop_map(|(p, o)| match o {
        "" => p.to_string(),
        o => format!("(?:{p}){o}"),
    });
    (
        prop::sample::select(vec!["", "^"]),
        prop::collection::vec(part.clone(), 0..3),
        0..LITERALS.len(),
        prop::collection::vec(part, 0..3),
        prop::sample::select(vec!["", "$"]),
    )
        .prop_map(|(a, pre, k, post, z)| {
            (
                format!("{a}{}{}{}{z}", pre.concat(), LITERALS[k], post.concat()),
                k,
            )
        })
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "b", "c", " ", "\n", "é", "1", "A", "err", "FAIL", "timeout", "abx", "K",
            "\u{212A}",
        ]),
        0..60,
    )
    .prop_map(|v| v.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Sure: the marks are the lines the rules match; unsure: they hold
    /// them all.
    #[test]
    fn marks_the_lines_regex_selects(
        rules in prop::collection::vec(rule(), 1..6),
        text in text(),
        ci in any::<bool>(),
    ) {
        let (rs, lit): (Vec<String>, Vec<usize>) = rules.into_iter().unzip();
        let args: &[&str] = if ci { &["-E", "-i"] } else { &["-E"] };
        let b = book(&rs, &lit, args);
        prop_assert!(b.exact);
        // Under -i, a start of any case variant (the literals' ASCII case
        // variants are the book's literals).
        let cand = match ci {
            false => starts(&text, LITERALS),
            true => folded_starts(&text),
        };
        let (marks, unsure) = b.confirm(&text, &cand);
        marks_hold(&marks, unsure, &oracle(&rs, &text, ci), &rs)?;
    }

    /// An inline `(?i)` literal without `-i`: the book holds every case
    /// variant of it, compared as they are (not lowered), and a rule's lead
    /// is found on the rule taken lowered (`anchor.rs`, its case variants
    /// all owned).
    #[test]
    fn inline_case_insensitive_literals_mark_the_lines_regex_selects(
        rules in prop::collection::vec(rule(), 1..6),
        text in text(),
    ) {
        let (rs, lit): (Vec<String>, Vec<usize>) = rules.into_iter().unzip();
        let rs: Vec<String> = rs
            .iter()
            .zip(&lit)
            .map(|(r, &k)| r.replacen(LITERALS[k], &format!("(?i:{})", LITERALS[k]), 1))
            .collect();
        let (literals, owners) = book_literals(rs.len(), &lit, true);
        let hirs = super::super::parse_rules(&rs, &cfg(&["-E"])).unwrap();
        let b = RuleBook::build(&hirs, &literals, &owners, &cfg(&["-E"])).unwrap();
        prop_assert!(!b.fold);
        let cand = folded_starts(&text);
        let (marks, unsure) = b.confirm(&text, &cand);
        marks_hold(&marks, unsure, &oracle(&rs, &text, false), &rs)?;
    }

    /// `-w` in the automata (`glushkov::word`): each rule inside `-w`'s
    /// boundaries, the marks on lines of ASCII bytes are the lines the
    /// boundaries' regexes match, and a line past ASCII holding a literal
    /// is unsure.
    #[test]
    fn word_books_mark_the_ascii_lines_regex_selects(
        rules in prop::collection::vec(rule(), 1..6),
        text in prop::collection::vec(prop::sample::select(vec![
            "a", "b", " ", "\n", "_", "-", "1", "err", "FAIL", "timeout", "abx", "é", "xerr",
        ]), 0..60).prop_map(|v| v.concat().into_bytes()),
        ci in any::<bool>(),
    ) {
        let (rs, lit): (Vec<String>, Vec<usize>) = rules.into_iter().unzip();
        let wrapped: Vec<String> =
            rs.iter().map(|r| format!(r"\b{{start-half}}(?:{r})\b{{end-half}}")).collect();
        let args: &[&str] = if ci { &["-E", "-i", "-w"] } else { &["-E", "-w"] };
        let (literals, owners) = book_literals(rs.len(), &lit, ci);
        // Wrapped as the pack wraps them (`parse_rules` leaves -w out).
        let hirs = super::super::parse_rules(&wrapped, &cfg(&args[..args.len() - 1])).unwrap();
        let b = RuleBook::build(&hirs, &literals, &owners, &cfg(args)).unwrap();
        prop_assert!(b.exact && b.word, "{:?}", rs);
        let cand = match ci {
            false => starts(&text, LITERALS),
            true => folded_starts(&text),
        };
        let (marks, unsure) = b.confirm(&text, &cand);
        let want = oracle(&wrapped, &text, ci);
        prop_assert!(want.iter().all(|w| marks.contains(w)), "{:?}", rs);
        let ascii = |&s: &u64| {
            let line = &text[s as usize..];
            line[..memchr::memchr(b'\n', line).unwrap_or(line.len())].is_ascii()
        };
        let (marks, want): (Vec<u64>, Vec<u64>) =
            (marks.into_iter().filter(ascii).collect(), want.into_iter().filter(ascii).collect());
        prop_assert_eq!(marks, want, "{:?}", rs);
        prop_assert!(!unsure || !text.is_ascii());
    }

    /// The literals found at each position (a binary search, then a
    /// prefix chain) are those starting there, the longest first; keys and
    /// prefixes shared as much as two letters allow.
    #[test]
    fn literals_at_are_those_starting_there(
        lits in prop::collection::btree_set("[ab]{3,7}", 1..40),
        text in "[ab]{0,80}",
    ) {
        let lits: Vec<String> = lits.into_iter().collect();
        let c = cfg(&["-E"]);
        let hirs = crate::pattern::glushkov::parse_rules(&lits, &c).unwrap();
        let literals: Vec<Vec<u8>> = lits.iter().map(|l| l.as_bytes().to_vec()).collect();
        let owners: Vec<Vec<u32>> = (0..lits.len() as u32).map(|r| vec![r]).collect();
        let b = RuleBook::build(&hirs, &literals, &owners, &c).unwrap();
        let text = text.as_bytes();
        for p in 0..text.len().saturating_sub(2) {
            let rest = &text[p..];
            let mut want: Vec<&[u8]> = literals
                .iter()
                .map(Vec::as_slice)
                .filter(|l| rest.starts_with(l))
                .collect();
            want.sort_by_key(|l| std::cmp::Reverse(l.len()));
            let got: Vec<&[u8]> = b
                .key_index(key3(rest))
                .into_iter()
                .flat_map(|u| b.literals_at(u, rest))
                .map(|k| &b.bytes[b.starts[k] as usize..b.starts[k + 1] as usize])
                .collect();
            prop_assert_eq!(got, want, "at {}", p);
        }
    }

    /// The ASCII automaton matches where the rule does, on ASCII lines.
    #[test]
    fn ascii_only_agrees_on_ascii_lines(
        (r, _) in rule(),
        line in "[ -~]{0,30}",
    ) {
        let c = cfg(&["-E"]);
        let hir = crate::pattern::glushkov::parse_rules(std::slice::from_ref(&r), &c).unwrap();
        let a = build_within(&[ascii_only(&hir[0])], b'\n', 1 << 14, 512).unwrap();
        let re = regex::bytes::Regex::new(&r).unwrap();
        prop_assert_eq!(a.is_match_line(line.as_bytes()), re.is_match(line.as_bytes()), "{}", r);
    }
}

/// Under `-w` a line of ASCII bytes after a byte-order mark runs the
/// ASCII automata (the mark matching no position), and is sure; a line
/// with another byte past ASCII is unsure.
#[test]
fn word_books_run_a_marked_lines_ascii_automata() {
    let rules = vec![r"\b{start-half}(?:err [0-9]+)\b{end-half}".to_string()];
    let (literals, owners) = book_literals(1, &[0], false);
    let hirs = super::super::parse_rules(&rules, &cfg(&["-E"])).unwrap();
    let b = RuleBook::build(&hirs, &literals, &owners, &cfg(&["-E", "-w"])).unwrap();
    assert!(b.word && b.exact);
    let text = "\u{feff}err 1\n\u{feff}xerr 2\nerr 3x\n".as_bytes();
    assert_eq!(b.confirm(text, &starts(text, LITERALS)), (vec![0], false));
    let text = "\u{feff}err 1\né err 2\n".as_bytes();
    assert_eq!(b.confirm(text, &starts(text, LITERALS)), (vec![0, 9], true));
}
