use super::*;

fn bre(p: &str) -> String {
    translate(p.as_bytes(), true, false).unwrap().regex
}
fn ere(p: &str) -> String {
    translate(p.as_bytes(), false, false).unwrap().regex
}
fn err(p: &str, basic: bool) -> String {
    translate(p.as_bytes(), basic, false).unwrap_err()
}

#[test]
fn bre_operators_are_backslashed() {
    assert_eq!(bre(r"\(ab\)\{2\}"), "(ab){2}");
    assert_eq!(bre(r"a\|b"), "a|b");
    assert_eq!(bre(r"a\+b\?"), "a+b?");
    assert_eq!(bre("(a)|b+?{"), r"\(a\)\|b\+\?\{");
}

#[test]
fn bre_star_and_anchors_are_literal_where_posix_says() {
    assert_eq!(bre("*a"), r"\*a");
    assert_eq!(bre("^*a"), r"^\*a");
    assert_eq!(bre("a^b$c"), r"a\^b\$c");
    assert_eq!(bre("^ab$"), "^ab$");
    assert_eq!(bre(r"\(^a$\)"), "(^a$)");
    assert_eq!(bre("^^"), r"^\^");
}

#[test]
fn repetition_at_a_start_is_literal_in_bre() {
    assert_eq!(bre(r"\(\?i\)"), r"(\?i)");
    assert_eq!(bre(r"\+"), r"\+");
    assert_eq!(bre(r"\?x"), r"\?x");
    assert_eq!(bre(r"a\|\?"), r"a|\?");
    assert_eq!(bre(r"\<*"), r"\b{start}\*");
    assert_eq!(bre(r"\B*"), r"\B\*");
    assert_eq!(bre(r"\{1\}a"), r"\{1\}a");
}

#[test]
fn repetition_at_a_start_repeats_nothing_in_ere() {
    let t = translate(b"*a|+b", false, false).unwrap();
    assert_eq!(t.regex, "a|b");
    assert_eq!(
        t.warnings,
        vec!["* at start of expression", "+ at start of expression"]
    );
    assert_eq!(ere("^*"), "^");
    assert_eq!(ere(r"\<*a"), r"\b{start}a");
    let t = translate(b"{1}x", false, false).unwrap();
    assert_eq!(
        (t.regex.as_str(), t.warnings[0].as_str()),
        ("x", "{...} at start of expression")
    );
    // Not at a start: the anchor itself is repeated.
    assert_eq!(ere("a^*"), "a(?:^)*");
}

#[test]
fn stacked_repetitions_repeat_the_repetition() {
    assert_eq!(ere("x+?"), "(?:x+)?");
    assert_eq!(ere("a*?"), "(?:a*)?");
    assert_eq!(ere("a{1,2}?"), "(?:a{1,2})?");
    assert_eq!(ere("(ab)+*"), "(?:(ab)+)*");
    assert_eq!(bre(r"a*\{2\}"), "(?:a*){2}");
}

#[test]
fn ere_braces_that_are_not_intervals_are_literal() {
    assert_eq!(ere("a{2}"), "a{2}");
    assert_eq!(ere("a{,3}"), "a{0,3}");
    assert_eq!(ere("a{,}"), "a{0,}");
    assert_eq!(ere("a{x"), r"a\{x");
    assert_eq!(ere("{a"), r"\{a");
    assert_eq!(ere("{}"), r"\{\}");
    assert_eq!(err("a{2,1}", false), "Invalid content of \\{\\}");
    assert_eq!(err("a{}", false), "Invalid content of \\{\\}");
    assert_eq!(err(r"a\{1", true), "Unmatched \\{");
    assert_eq!(err("x{32768}", false), "Regular expression too big");
}

#[test]
fn gnu_ere_leniencies() {
    assert_eq!(ere("a)"), r"a\)");
    assert_eq!(ere("(a))"), r"(a)\)");
    assert_eq!(bre(r"\{1"), r"\{1");
}

#[test]
fn buffer_anchors_are_line_anchors() {
    assert_eq!(bre(r"\`a"), "^a");
    assert_eq!(ere(r"a\'"), "a$");
}

#[test]
fn no_rust_only_syntax_gets_through() {
    assert_eq!(ere(r"\d\p"), "dp");
    assert_eq!(ere("(?i)"), "(i)");
    assert_eq!(bre(r"\(?i\)"), r"(\?i)");
    assert_eq!(ere("[<>]"), "[<>]");
    assert!(ere(r"\w").starts_with("[_[") && ere(r"\S").starts_with("[^["));
}

#[test]
fn word_boundaries_and_errors() {
    assert_eq!(ere(r"\<a\>"), r"\b{start}a\b{end}");
    assert!(translate(br"(a)\1", false, false).is_err());
    assert_eq!(err("a\\", false), "Trailing backslash");
    assert_eq!(err("[abc", false), "Unmatched [, [^, [:, [., or [=");
    assert_eq!(err("(a", false), "Unmatched ( or \\(");
    assert_eq!(err(r"a\)", true), "Unmatched ) or \\)");
    assert_eq!(err("[[:digits:]]", false), "Invalid character class name");
}

#[test]
fn upper_and_lower_are_alpha_under_ignore_case() {
    let ci = translate(b"[[:upper:]]", false, true).unwrap().regex;
    assert_eq!(ci, translate(b"[[:alpha:]]", false, false).unwrap().regex);
}

#[test]
fn non_utf8_bytes_become_byte_escapes() {
    assert_eq!(ere("a\u{e9}"), "a\u{e9}");
    assert_eq!(
        translate(b"a\xff", false, false).unwrap().regex,
        r"a(?-u:\xFF)"
    );
    assert_eq!(escape_literal(b"a.b\xff"), r"a\.b(?-u:\xFF)");
}
