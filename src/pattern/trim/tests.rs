use super::*;
use crate::pattern::window::tests::oracle;
use proptest::prelude::*;

/// Parsed as the pack parses a rule (multi-line, bytes allowed).
pub(crate) fn hir(re: &str) -> Hir {
    regex_syntax::ParserBuilder::new()
        .multi_line(true)
        .utf8(false)
        .build()
        .parse(re)
        .unwrap()
}

/// The property test's expressions in bytes: nested counted repetitions of
/// Unicode classes (`(?:\w{1,17}){1,17}`) overran the oracle's size limit
/// (CI's seed found it).
fn byte_hir(re: &str) -> Hir {
    regex_syntax::ParserBuilder::new()
        .multi_line(true)
        .unicode(false)
        .utf8(false)
        .build()
        .parse(re)
        .unwrap()
}

fn trimmed(re: &str) -> String {
    for_lines(hir(re), Cut::All).to_string()
}

#[test]
fn leading_and_trailing_repetitions_keep_their_fewest_copies() {
    assert_eq!(trimmed(r"[a-z.-]{0,50}?key"), "(?:key)");
    assert_eq!(
        trimmed(r"pypi-[a-z-]{50,1000}"),
        "(?:(?:pypi\\-)[\\-a-z]{50})"
    );
    assert_eq!(trimmed(r"x{2,}y+"), "(?:x{2}y)");
    assert_eq!(trimmed(r"(?:a{1,3}b|c*)d"), "(?:(?:(?:ab)|(?:))d)");
}

/// One regex keeps its small and open repetitions (its finder is chosen
/// from its shape), and loses only large counted spans.
#[test]
fn one_regex_loses_only_large_counted_spans() {
    let large = |re: &str| for_lines(hir(re), Cut::Large).to_string();
    for re in [r"[0-9]{1,3}\.[0-9]{1,3}", r"[a-z]+ing", r"x{2,17}y"] {
        assert_eq!(large(re), hir(re).to_string(), "{re}");
    }
    assert_eq!(large(r"[a-z.-]{0,50}?key"), "(?:key)");
    assert_eq!(large(r"x{2,18}y"), "(?:x{2}y)");
}

#[test]
fn anchors_and_inner_repetitions_stay() {
    for re in [
        r"^a{2,5}b",
        r"\ba{0,5}b",
        r"ba{2,5}$",
        r"a[0-9]{3,9}b",
        r"ab",
    ] {
        assert_eq!(trimmed(re), hir(re).to_string(), "{re}");
    }
}

fn expression() -> impl Strategy<Value = String> {
    let pick = |v: Vec<&'static str>| prop::sample::select(v).prop_map(String::from);
    let leaf = prop_oneof![
        3 => pick(vec!["a", "b", "ab", "ba", "c"]),
        2 => pick(vec!["[ab]", "[^a]", ".", r"\w"]),
        1 => pick(vec!["^", "$", r"\b", r"\B", ""]),
    ];
    leaf.prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            3 => prop::collection::vec(inner.clone(), 2..5).prop_map(|v| v.concat()),
            1 => prop::collection::vec(inner.clone(), 2..4)
                .prop_map(|v| format!("(?:{})", v.join("|"))),
            1 => inner.clone().prop_map(|e| format!("({e})")),
            3 => (
                inner,
                prop::sample::select(vec![
                    "*", "+", "?", "{2,3}", "{0,2}", "{1,}", "{2}", "{0,2}?", "+?", "{1,17}",
                    "{0,20}?",
                ])
            )
                .prop_map(|(e, r)| format!("(?:{e}){r}")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The trimmed expression matches in exactly the lines the expression
    /// matches in.
    #[test]
    fn trimmed_matches_the_same_lines(
        re_text in expression(),
        cut in prop::sample::select(vec![Cut::All, Cut::Large]),
        lines in prop::collection::vec(
            prop::collection::vec(prop::sample::select(vec!["a", "b", "c", "ab", " ", "-"]), 0..12)
                .prop_map(|v| v.concat()),
            1..8,
        ),
    ) {
        // Past the oracle's size limit (counted repetitions nested deep) a
        // case says nothing: skipped.
        let full = regex_automata::meta::Regex::builder().build_from_hir(&byte_hir(&re_text));
        prop_assume!(full.is_ok());
        let full = full.unwrap();
        let trimmed = for_lines(byte_hir(&re_text), cut);
        let short = oracle(&trimmed);
        for line in &lines {
            prop_assert_eq!(
                full.is_match(line.as_bytes()),
                short.is_match(line.as_bytes()),
                "{} on {:?}: trimmed {}", re_text, line, trimmed
            );
        }
    }
}
