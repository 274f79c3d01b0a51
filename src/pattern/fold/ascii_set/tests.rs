use super::*;
use aho_corasick::{AhoCorasickBuilder, MatchKind};
use proptest::prelude::*;

fn strs(v: Vec<Vec<u8>>) -> Vec<String> {
    v.into_iter()
        .map(|b| String::from_utf8(b).unwrap())
        .collect()
}

#[test]
fn only_the_non_ascii_members_are_enumerated() {
    assert_eq!(strs(ascii_folded_variants(b"Hello", 8).unwrap()), ["hello"]);
    assert_eq!(
        strs(ascii_folded_variants(b"Kiss", 8).unwrap()),
        [
            "kiss",
            "kis\u{17F}",
            "ki\u{17F}s",
            "ki\u{17F}\u{17F}",
            "\u{212A}iss",
            "\u{212A}is\u{17F}",
            "\u{212A}i\u{17F}s",
            "\u{212A}i\u{17F}\u{17F}"
        ]
    );
    assert_eq!(
        strs(ascii_folded_variants("\u{212A}é".as_bytes(), 8).unwrap()),
        ["kÉ", "ké", "\u{212A}É", "\u{212A}é"]
    );
    // İ and ı have no simple folding to i (regex's (?i) leaves them apart).
    assert_eq!(
        strs(ascii_folded_variants("İı".as_bytes(), 8).unwrap()),
        ["İı"]
    );
    assert_eq!(ascii_folded_variants(b"kiss", 7), None);
    assert_eq!(ascii_folded_variants(b"\xff", 8), None);
    assert_eq!(
        ascii_folded_set(&[b"AB".to_vec(), b"ab".to_vec()], 8).unwrap(),
        [b"ab".to_vec()]
    );
}

/// The shortcut in `ascii_folded_variants`: every ASCII character's orbit
/// is itself and its other case, except k's and s's.
#[test]
fn ascii_orbits_beyond_ascii_are_k_and_s() {
    for b in 0u8..128 {
        let orbit = folded_orbit(b as char);
        let beyond = orbit.iter().any(|o| !o.is_ascii());
        assert_eq!(beyond, b"kKsS".contains(&b), "{}", b as char);
        if !beyond {
            assert_eq!(orbit, [vec![b.to_ascii_lowercase()]]);
        }
    }
}

fn longest_at_oracle(re: &[regex::bytes::Regex], text: &[u8], at: usize) -> Option<usize> {
    re.iter()
        .filter_map(|r| r.find(&text[at..]).map(|m| m.end()))
        .max()
}

proptest! {
    /// At every position of a random text, the ASCII-folding Aho-Corasick
    /// over the set finds the longest match `(?i)` finds for the literals
    /// (each literal anchored there), and nothing where it finds none.
    #[test]
    fn folded_set_matches_what_regex_ignore_case_matches(
        // ASCII letters (k and s among them), the two non-ASCII members of
        // ASCII orbits, cased non-ASCII letters, and the Turkish i's that
        // simple folding keeps apart.
        lits in prop::collection::vec("[aAkKsSzZ0 _éÉ\u{212A}\u{17F}İıiIß\u{1E9E}]{1,4}", 1..4),
        text in "[aAkKsSzZ0 _éÉ\u{212A}\u{17F}İıiIß\u{1E9E}]{0,24}",
    ) {
        let bytes: Vec<Vec<u8>> = lits.iter().map(|l| l.clone().into_bytes()).collect();
        let set = ascii_folded_set(&bytes, 1 << 12).unwrap();
        let ac = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .ascii_case_insensitive(true)
            .start_kind(aho_corasick::StartKind::Anchored)
            .build(&set)
            .unwrap();
        let re: Vec<regex::bytes::Regex> = lits
            .iter()
            .map(|l| regex::bytes::Regex::new(&format!("^(?i:{})", regex::escape(l))).unwrap())
            .collect();
        let text = text.as_bytes();
        for at in 0..=text.len() {
            let want = longest_at_oracle(&re, text, at);
            let input = aho_corasick::Input::new(&text[at..]).anchored(aho_corasick::Anchored::Yes);
            let got = ac.find(input).map(|m| m.end());
            prop_assert_eq!(got, want, "at {}", at);
        }
    }
}
