use super::substring_minimal;
use proptest::prelude::*;

fn minimal(lits: &[&str], ci: bool) -> Vec<String> {
    let mut v: Vec<Vec<u8>> = lits.iter().map(|l| l.as_bytes().to_vec()).collect();
    v.sort();
    v.dedup();
    substring_minimal(v, ci)
        .into_iter()
        .map(|l| String::from_utf8(l).unwrap())
        .collect()
}

#[test]
fn a_literal_holding_another_goes() {
    assert_eq!(
        minimal(&["other", "the", "theory", "cat"], false),
        ["cat", "the"]
    );
}

#[test]
fn literals_equal_but_for_case_keep_one_with_ci() {
    assert_eq!(minimal(&["The", "the", "others"], true), ["The"]);
    assert_eq!(minimal(&["The", "the", "others"], false), ["The", "the"]);
}

#[test]
fn an_empty_literal_leaves_the_set_alone() {
    assert_eq!(minimal(&["", "a", "ab"], false), ["", "a", "ab"]);
}

/// Naive oracle: does some line of `text` hold a literal of `set`
/// (ASCII case-insensitively with `ci`)?
fn line_matches(line: &[u8], set: &[Vec<u8>], ci: bool) -> bool {
    let fold = |b: &[u8]| -> Vec<u8> {
        match ci {
            true => b.to_ascii_lowercase(),
            false => b.to_vec(),
        }
    };
    let line = fold(line);
    set.iter()
        .any(|l| line.windows(l.len()).any(|w| w == fold(l).as_slice()))
}

proptest! {
    /// The minimal set selects exactly the lines the whole set selects.
    #[test]
    fn minimal_set_selects_the_same_lines(
        lits in prop::collection::vec("[abAB]{1,4}", 1..12),
        text in "[abAB\n]{0,200}",
        ci in any::<bool>(),
    ) {
        let mut set: Vec<Vec<u8>> = lits.iter().map(|l| l.as_bytes().to_vec()).collect();
        set.sort();
        set.dedup();
        let min = substring_minimal(set.clone(), ci);
        prop_assert!(min.len() <= set.len());
        for line in text.as_bytes().split(|&b| b == b'\n') {
            prop_assert_eq!(line_matches(line, &set, ci), line_matches(line, &min, ci));
        }
    }
}
