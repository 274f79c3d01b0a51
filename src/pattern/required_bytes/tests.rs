use super::*;
use crate::pattern::trim::tests::hir;
use proptest::prelude::*;

fn bytes_of(re: &str) -> Option<String> {
    required_bytes(&hir(re)).map(|(b, _)| String::from_utf8_lossy(&b).into_owned())
}

#[test]
fn bytes_of_typical_expressions() {
    // The pair that ran ten times slower than either form alone.
    assert_eq!(
        bytes_of(r"\w+@\w+\.\w+|\w+@\w+\.(com|org|net)").as_deref(),
        Some("@")
    );
    assert_eq!(bytes_of(r"\w+=\w+|\w+:\s*\d+").as_deref(), Some(":="));
    assert_eq!(bytes_of(r"(?i)x\d+").as_deref(), Some("Xx"));
    // A byte both branches hold beats one from each.
    assert_eq!(bytes_of(r"error|warn").as_deref(), Some("r"));
    assert_eq!(bytes_of(r"foo|bar").as_deref(), Some("bf"));
    // The rarest byte a branch must hold, not the first.
    assert_eq!(bytes_of(r"\w+ #\d").as_deref(), Some("#"));
    let leading = required_bytes(&hir(r"[é-ë]+\d")).map(|(b, _)| b);
    assert_eq!(leading, Some(vec![0xC3]));
    assert_eq!(bytes_of(r"\w+"), None);
    assert_eq!(bytes_of(r"[0-9]+\.[0-9]+").as_deref(), Some("."));
    assert_eq!(bytes_of(r"a*"), None);
    assert_eq!(bytes_of(r"@|\w"), None);
    assert_eq!(bytes_of(r"a|b|c|d"), None, "four bytes are past memchr3");
}

/// Atoms of the random expressions: literals, small and broad classes,
/// a byte past ASCII, case-insensitive letters, assertions.
fn atom() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a", "b", "@", "é", "ab", "[ab]", "[a-c@]", r"\w", r"\d", ".", "(?i:a)", r"\b", "^", "$",
        "[é-ü]", r"\x{400}", "",
    ])
    .prop_map(String::from)
}

fn expression() -> impl Strategy<Value = String> {
    atom().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| v.concat()),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| format!("(?:{})", v.join("|"))),
            (
                inner,
                prop::sample::select(vec!["?", "*", "+", "{2}", "{0,2}", "{1,3}"])
            )
                .prop_map(|(e, r)| format!("(?:{e}){r}")),
        ]
    })
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    let tokens = ["a", "b", "c", "@", "é", "ü", "Ж", "1", " ", "A", "\n"];
    prop::collection::vec(prop::sample::select(tokens.to_vec()), 0..80)
        .prop_map(|t| t.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every match of the expression holds one of its bytes (soundness:
    /// a line without them cannot match).
    #[test]
    fn every_match_holds_one_of_the_bytes(re in expression(), hay in text()) {
        let Some((bytes, _)) = required_bytes(&hir(&re)) else {
            return Ok(());
        };
        prop_assert!(!bytes.is_empty() && bytes.len() <= BYTES_MAX);
        let regex = regex::bytes::RegexBuilder::new(&re).multi_line(true).build().unwrap();
        for line in hay.split(|&b| b == b'\n') {
            if regex.is_match(line) {
                prop_assert!(line.iter().any(|b| bytes.contains(b)), "{re:?} {bytes:?} {line:?}");
            }
        }
    }
}
