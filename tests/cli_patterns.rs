//! Pattern selection and interpretation: -e -f -F -E -G -i --no-ignore-case
//! -w -x -v, empty patterns, several patterns, Unicode case folding.
//!
//! Expected outputs are GNU grep 3.8's (LC_ALL=C.UTF-8), hard-coded; where
//! gpugrep deliberately differs, the test says so in its name and comment.

mod common;

use common::{Cmd, Sandbox};

#[test]
fn basic_literal_selects_matching_lines() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["apple", "a"]).expect("apple\napple pie\n", "", 0);
}

#[test]
fn no_match_exits_1_with_no_output() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["kiwi", "a"]).expect("", "", 1);
}

#[test]
fn dash_e_several_patterns_select_either() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["-e", "banana", "-e", "cherry", "a"])
        .expect("banana\ncherry\n", "", 0);
}

#[test]
fn dash_e_pattern_starting_with_dash() {
    let s = Sandbox::new();
    s.write("a", "x\n-v here\n");
    s.grep(&["-e", "-v", "a"]).expect("-v here\n", "", 0);
}

#[test]
fn pattern_with_newline_is_several_patterns() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["banana\ncherry", "a"])
        .expect("banana\ncherry\n", "", 0);
}

#[test]
fn pattern_with_newline_fixed_strings() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["-F", "pie\nban", "a"])
        .expect("banana\napple pie\n", "", 0);
}

#[test]
fn dash_e_empty_matches_every_line() {
    let s = Sandbox::new();
    s.write("a", "one\n\nthree\n");
    s.grep(&["-e", "", "a"]).expect("one\n\nthree\n", "", 0);
}

#[test]
fn empty_positional_pattern_matches_every_line() {
    let s = Sandbox::new();
    s.write("a", "one\n\nthree\n");
    s.grep(&["", "a"]).expect("one\n\nthree\n", "", 0);
}

#[test]
fn dash_e_empty_with_dash_v_selects_nothing() {
    let s = Sandbox::new();
    s.write("a", "one\ntwo\n");
    s.grep(&["-v", "-e", "", "a"]).expect("", "", 1);
}

#[test]
fn dash_e_empty_with_dash_x_matches_only_empty_lines() {
    let s = Sandbox::new();
    s.write("a", "one\n\nthree\n");
    s.grep(&["-x", "-e", "", "a"]).expect("\n", "", 0);
}

#[test]
fn dash_e_empty_with_dash_w_matches_lines_without_word_chars() {
    let s = Sandbox::new();
    s.write("a", "one\n\n  \n--\n");
    s.grep(&["-n", "-w", "-e", "", "a"])
        .expect("2:\n3:  \n4:--\n", "", 0);
}

/// Regression (issue 13, item 7): the empty match between the two bytes of
/// `é` is no match. GNU grep takes the character holding the byte before
/// the match as the one before it, so inside `é` a word character precedes,
/// while inside `«` (not a word character) `-w ''` does match.
#[test]
fn word_empty_pattern_does_not_match_inside_multibyte_characters() {
    let s = Sandbox::new();
    s.write("a", "\u{e9}\n\u{20ac}x\n\u{e9} -\n");
    s.grep(&["-w", "-n", "", "a"])
        .expect("2:\u{20ac}x\n3:\u{e9} -\n", "", 0);
    s.grep(&["-w", "-n", "-F", "", "a"])
        .expect("2:\u{20ac}x\n3:\u{e9} -\n", "", 0);
    s.grep(&["-w", "-c", "", "-"])
        .stdin("\u{e9}\n")
        .expect("0\n", "", 1);
    s.grep(&["-w", "-c", "", "-"])
        .stdin("a\u{ab}b\na\u{e9}b\n")
        .expect("1\n", "", 0);
}

/// Regression (issue 13, item 7, the rest): under `-w` GNU grep's regex
/// matcher takes an empty match only where it is the longest match at its
/// place; shortening a longer one that a word character touches (`#` in
/// `#ifdef`) it never stops at the empty one, and looks on from the next
/// byte. Its fixed-string matcher (`-F`, and patterns of plain words with
/// no alternation in any syntax) does stop there. Expected output
/// from GNU grep 3.8 (`LC_ALL=C.UTF-8`).
#[test]
fn word_takes_an_empty_match_only_where_it_is_the_longest() {
    let s = Sandbox::new();
    s.write("a", "#ifdef X\nint\n#\nab cd\n\n(int)\nintx #\n");
    let regex = "3:#\n5:\n6:(int)\n7:intx #\n";
    for args in [
        &["-E", "#?"][..],
        &["-E", "(|#)"],
        &["-E", "#|"],
        &["-E", "-e", "^#|x*"],
        &["-E", "-e", "#", "-e", "x*"],
        &["-E", "-e", "#|x", "-e", ""],
    ] {
        s.grep(&[&["-w", "-n"], args, &["a"]].concat())
            .expect(regex, "", 0);
    }
    // Plain words alone are fixed strings to GNU grep, whatever the
    // syntax: there the empty match stands where `#` will not.
    for syntax in ["-F", "-G", "-E"] {
        s.grep(&["-w", "-n", syntax, "-e", "#", "-e", "", "a"])
            .expect("1:#ifdef X\n3:#\n5:\n6:(int)\n7:intx #\n", "", 0);
    }
    s.grep(&["-w", "-c", "-E", "x*", "a"]).expect("5\n", "", 0);
    s.grep(&["-w", "-o", "-n", "-E", "(|#)", "a"])
        .expect("3:#\n7:#\n", "", 0);
    // A rule pack (201 rules) with such a rule: its rules are not tried
    // one by one there.
    let rules: Vec<String> = (0..200).map(|i| format!("word{i}z[0-9]+")).collect();
    s.write("rules", format!("#?\n{}\n", rules.join("\n")));
    s.grep(&["-w", "-n", "-E", "-f", "rules", "a"])
        .expect(regex, "", 0);
    // The differential test's case (seed 5): `\W` shortened to nothing.
    s.write("f0", "42 _ \u{65e5}\u{672c}a\na|b +Foo_\n-. [x]\nfoo[x]\n");
    s.grep(&["-G", "-w", "-v", "-c", "-e", "\\W", "-e", "", "f0"])
        .expect("2\n", "", 0);
    // Between the bytes of a character that is not a word character (`«`,
    // `€`) the empty match counts, as GNU decides there (`word_before`).
    s.write("m", "\u{e9}\n\u{ab}a\u{bb}\na\u{20ac}b\n\u{20ac}\n");
    s.grep(&["-w", "-n", "-E", "\u{ab}?", "m"]).expect(
        "2:\u{ab}a\u{bb}\n3:a\u{20ac}b\n4:\u{20ac}\n",
        "",
        0,
    );
}

#[test]
fn dash_e_empty_dash_c_counts_every_line() {
    let s = Sandbox::new();
    s.write("a", "one\n\nthree\n");
    s.grep(&["-c", "", "a"]).expect("3\n", "", 0);
}

#[test]
fn dash_f_reads_patterns_one_per_line() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.write("pats", "cherry\npie\n");
    s.grep(&["-f", "pats", "a"])
        .expect("cherry\napple pie\n", "", 0);
}

#[test]
fn dash_f_empty_file_selects_nothing() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.write("pats", "");
    s.grep(&["-f", "pats", "a"]).expect("", "", 1);
}

#[test]
fn dash_f_empty_file_with_dash_v_selects_everything() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.write("pats", "");
    s.grep(&["-v", "-f", "pats", "a"])
        .expect("apple\nbanana\ncherry\napple pie\n", "", 0);
}

#[test]
fn dash_f_empty_file_plus_dash_e() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.write("pats", "");
    s.grep(&["-f", "pats", "-e", "cherry", "a"])
        .expect("cherry\n", "", 0);
}

#[test]
fn dash_f_file_with_empty_line_matches_everything() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.write("pats", "zzz\n\n");
    s.grep(&["-c", "-f", "pats", "a"]).expect("4\n", "", 0);
}

#[test]
fn dash_f_without_final_newline() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.write("pats", "banana\ncherry");
    s.grep(&["-f", "pats", "a"])
        .expect("banana\ncherry\n", "", 0);
}

#[test]
fn dash_f_dash_reads_patterns_from_stdin() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["-f", "-", "a"])
        .stdin("cherry\nbanana\n")
        .expect("banana\ncherry\n", "", 0);
}

#[test]
fn dash_f_twice_combines_patterns() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.write("p1", "cherry\n");
    s.write("p2", "banana\n");
    s.grep(&["-f", "p1", "-f", "p2", "a"])
        .expect("banana\ncherry\n", "", 0);
}

#[test]
fn dash_f_crlf_pattern_keeps_carriage_return() {
    let s = Sandbox::new();
    s.write("a", "abc\nabc\r\n");
    s.write("pats", "abc\r\n");
    s.grep(&["-c", "-f", "pats", "a"]).expect("1\n", "", 0);
}

#[test]
fn dash_f_pattern_file_mixed_with_positional_file_operand() {
    let s = Sandbox::new();
    s.write("pats", "apple\n");
    s.write("apple", "apple in file named apple\n");
    s.grep(&["-f", "pats", "apple"])
        .expect("apple in file named apple\n", "", 0);
}

#[test]
fn dash_f_fixed_strings_treats_dot_literally() {
    let s = Sandbox::new();
    s.write("a", "a.c\nabc\n");
    s.grep(&["-F", "a.c", "a"]).expect("a.c\n", "", 0);
}

#[test]
fn basic_regex_dot_matches_any_char() {
    let s = Sandbox::new();
    s.write("a", "a.c\nabc\n");
    s.grep(&["a.c", "a"]).expect("a.c\nabc\n", "", 0);
}

#[test]
fn basic_regex_plus_is_literal() {
    let s = Sandbox::new();
    s.write("a", "a+b\naab\n");
    s.grep(&["a+b", "a"]).expect("a+b\n", "", 0);
}

#[test]
fn basic_regex_escaped_plus_is_repetition() {
    let s = Sandbox::new();
    s.write("a", "a+b\naab\n");
    s.grep(&["a\\+b", "a"]).expect("aab\n", "", 0);
}

#[test]
fn basic_regex_escaped_braces_interval() {
    let s = Sandbox::new();
    s.write("a", "ab\naab\naaab\n");
    s.grep(&["^a\\{2\\}b", "a"]).expect("aab\n", "", 0);
}

#[test]
fn basic_regex_braces_are_literal() {
    let s = Sandbox::new();
    s.write("a", "a{2}\naa\n");
    s.grep(&["a{2}", "a"]).expect("a{2}\n", "", 0);
}

#[test]
fn basic_regex_escaped_alternation() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["cherry\\|banana", "a"])
        .expect("banana\ncherry\n", "", 0);
}

#[test]
fn basic_regex_pipe_is_literal() {
    let s = Sandbox::new();
    s.write("a", "a|b\nab\n");
    s.grep(&["a|b", "a"]).expect("a|b\n", "", 0);
}

#[test]
fn basic_regex_escaped_group() {
    let s = Sandbox::new();
    s.write("a", "abab\nab\n");
    s.grep(&["\\(ab\\)\\{2\\}", "a"]).expect("abab\n", "", 0);
}

#[test]
fn basic_regex_leading_star_is_literal() {
    let s = Sandbox::new();
    s.write("a", "*star\nstar\n");
    s.grep(&["*star", "a"]).expect("*star\n", "", 0);
}

#[test]
fn basic_regex_question_mark_is_literal() {
    let s = Sandbox::new();
    s.write("a", "a?\nab\n");
    s.grep(&["a?", "a"]).expect("a?\n", "", 0);
}

#[test]
fn extended_regex_alternation() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["-E", "cherry|banana", "a"])
        .expect("banana\ncherry\n", "", 0);
}

#[test]
fn extended_regex_plus_and_groups() {
    let s = Sandbox::new();
    s.write("a", "ab\nabab\nb\n");
    s.grep(&["-E", "^(ab)+$", "a"]).expect("ab\nabab\n", "", 0);
}

#[test]
fn extended_regex_interval() {
    let s = Sandbox::new();
    s.write("a", "ab\naab\naaab\n");
    s.grep(&["-E", "^a{2,}b", "a"]).expect("aab\naaab\n", "", 0);
}

#[test]
fn extended_regex_question_mark() {
    let s = Sandbox::new();
    s.write("a", "color\ncolour\ncolr\n");
    s.grep(&["-E", "colou?r", "a"])
        .expect("color\ncolour\n", "", 0);
}

#[test]
fn bracket_expression_character_class() {
    let s = Sandbox::new();
    s.write("a", "a1\nb\n2c\n");
    s.grep(&["[[:digit:]]", "a"]).expect("a1\n2c\n", "", 0);
}

#[test]
fn bracket_expression_negated() {
    let s = Sandbox::new();
    s.write("a", "abc\n123\n");
    s.grep(&["^[^0-9]*$", "a"]).expect("abc\n", "", 0);
}

#[test]
fn bracket_expression_with_closing_bracket_first() {
    let s = Sandbox::new();
    s.write("a", "a]b\nab\n");
    s.grep(&["[]]", "a"]).expect("a]b\n", "", 0);
}

#[test]
fn anchors_caret_and_dollar() {
    let s = Sandbox::new();
    s.write("a", "start end\nend start\n");
    s.grep(&["^end", "a"]).expect("end start\n", "", 0);
}

#[test]
fn dollar_anchor_at_end_of_line() {
    let s = Sandbox::new();
    s.write("a", "start end\nend start\n");
    s.grep(&["end$", "a"]).expect("start end\n", "", 0);
}

#[test]
fn backslash_w_word_class() {
    let s = Sandbox::new();
    s.write("a", "foo bar\n!!\n");
    s.grep(&["-o", "\\w\\+", "a"]).expect("foo\nbar\n", "", 0);
}

#[test]
fn backslash_angle_word_boundaries() {
    let s = Sandbox::new();
    s.write("a", "cat\nconcat\ncats\n");
    s.grep(&["\\<cat\\>", "a"]).expect("cat\n", "", 0);
}

#[test]
fn backslash_b_word_boundary() {
    let s = Sandbox::new();
    s.write("a", "cat\nconcat\ncats\n");
    s.grep(&["-E", "\\bcat", "a"]).expect("cat\ncats\n", "", 0);
}

#[test]
fn same_matcher_option_twice_is_fine() {
    let s = Sandbox::new();
    s.write("a", "a.c\nabc\n");
    s.grep(&["-E", "-E", "a.c", "a"])
        .expect("a.c\nabc\n", "", 0);
}

#[test]
fn fixed_strings_several_patterns_one_line() {
    let s = Sandbox::new();
    s.write("a", "xx foo yy bar\nnone\n");
    s.grep(&["-F", "-e", "bar", "-e", "foo", "a"])
        .expect("xx foo yy bar\n", "", 0);
}

#[test]
fn dash_i_ignores_ascii_case() {
    let s = Sandbox::new();
    s.write("a", "Apple\nAPPLE\nbanana\n");
    s.grep(&["-i", "apple", "a"])
        .expect("Apple\nAPPLE\n", "", 0);
}

#[test]
fn dash_i_fixed_strings() {
    let s = Sandbox::new();
    s.write("a", "Apple\nAPPLE\nbanana\n");
    s.grep(&["-i", "-F", "APPLE", "a"])
        .expect("Apple\nAPPLE\n", "", 0);
}

#[test]
fn dash_y_is_dash_i() {
    let s = Sandbox::new();
    s.write("a", "Apple\nAPPLE\nbanana\n");
    s.grep(&["-y", "apple", "a"])
        .expect("Apple\nAPPLE\n", "", 0);
}

#[test]
fn no_ignore_case_after_dash_i_restores_case() {
    let s = Sandbox::new();
    s.write("a", "Apple\napple\n");
    s.grep(&["-i", "--no-ignore-case", "apple", "a"])
        .expect("apple\n", "", 0);
}

#[test]
fn dash_i_after_no_ignore_case_wins() {
    let s = Sandbox::new();
    s.write("a", "Apple\napple\n");
    s.grep(&["--no-ignore-case", "-i", "apple", "a"])
        .expect("Apple\napple\n", "", 0);
}

#[test]
fn dash_i_in_bracket_expression() {
    let s = Sandbox::new();
    s.write("a", "X\nx\ny\n");
    s.grep(&["-i", "[x]", "a"]).expect("X\nx\n", "", 0);
}

#[test]
fn dash_i_unicode_e_acute_matches_lowercase() {
    let s = Sandbox::new();
    s.write("a", "café\nCAFÉ\ncafe\n");
    s.grep(&["-i", "É", "a"]).expect("café\nCAFÉ\n", "", 0);
}

#[test]
fn dash_i_unicode_fixed_string() {
    let s = Sandbox::new();
    s.write("a", "café\nCAFÉ\ncafe\n");
    s.grep(&["-i", "-F", "CAFÉ", "a"])
        .expect("café\nCAFÉ\n", "", 0);
}

#[test]
fn dash_i_sharp_s_does_not_match_double_s() {
    let s = Sandbox::new();
    s.write("a", "STRASSE\nstrasse\nstraße\n");
    s.grep(&["-i", "straße", "a"]).expect("straße\n", "", 0);
}

#[test]
fn dash_i_sharp_s_matches_capital_sharp_s_under_simple_folding() {
    let s = Sandbox::new();
    s.write("a", "STRASSE\nstraße\nSTRAẞE\n");
    // Deliberate: simple case folding maps U+1E9E (capital sharp s) to ß.
    // GNU grep 3.8 in C.UTF-8 prints only "straße".
    s.grep(&["-i", "straße", "a"])
        .expect("straße\nSTRAẞE\n", "", 0);
}

#[test]
fn dash_i_greek_sigma_forms() {
    let s = Sandbox::new();
    s.write("a", "ΣΑΣ\nσας\n");
    s.grep(&["-i", "-c", "σα", "a"]).expect("2\n", "", 0);
}

#[test]
fn dash_i_kelvin_sign_matches_k_under_simple_folding() {
    let s = Sandbox::new();
    s.write("a", "K\nk\nK\nx\n");
    // Deliberate: Unicode simple case folding puts the Kelvin sign (U+212A) in k's
    // orbit. GNU grep 3.8 in C.UTF-8 prints only "k\nK\n".
    s.grep(&["-i", "k", "a"]).expect("K\nk\nK\n", "", 0);
}

#[test]
fn dash_i_kelvin_sign_pattern_matches_ascii_k() {
    let s = Sandbox::new();
    s.write("a", "K\nk\nK\nx\n");
    // Deliberate: simple case folding, both ways. GNU grep 3.8 in C.UTF-8 prints
    // only the Kelvin sign line.
    s.grep(&["-i", "K", "a"]).expect("K\nk\nK\n", "", 0);
}

#[test]
fn dash_i_long_s_matches_s_under_simple_folding() {
    let s = Sandbox::new();
    s.write("a", "ſ\ns\nS\n");
    // Deliberate: simple case folding puts the long s (U+017F) in s's orbit.
    // GNU grep 3.8 in C.UTF-8 prints only "s\nS\n".
    s.grep(&["-i", "-F", "s", "a"]).expect("ſ\ns\nS\n", "", 0);
}

/// Regression for the finder of a few `-i` words with k or s (windows
/// without those letters, in every ASCII case): lines whose k is the Kelvin
/// sign or whose s the long s are still found, and the regex decides them.
#[test]
fn dash_i_words_with_k_and_s_find_kelvin_and_long_s_lines() {
    let s = Sandbox::new();
    s.write(
        "a",
        "a HACK b\nhac\u{212A}\nfixME\nxXx\nhas\nmi\u{17F}take\nMISTAKE\nhac\nnope\n",
    );
    s.grep(&["-i", "-E", "todo|fixme|hack|xxx", "a"]).expect(
        "a HACK b\nhac\u{212A}\nfixME\nxXx\n",
        "",
        0,
    );
    // "mistake" has no window of 3 bytes without k or s: the regex's own.
    s.grep(&["-i", "-E", "todo|fixme|hack|xxx|mistake", "a"])
        .expect(
            "a HACK b\nhac\u{212A}\nfixME\nxXx\nmi\u{17F}take\nMISTAKE\n",
            "",
            0,
        );
    s.grep(&["-i", "-w", "-c", "-E", "hack|mistake", "a"])
        .expect("4\n", "", 0);
}

/// Regression for the finder of a regex whose words' case variants pass
/// Teddy's 64 (`(?i)colou?r`: 96), which searches a window of each word.
#[test]
fn dash_i_regex_of_many_case_variants_selects_every_case() {
    let s = Sandbox::new();
    s.write("a", "COLOUR\ncoLor\ncolr\nColoUrs\nx\n");
    s.grep(&["-i", "-E", "colou?r", "a"])
        .expect("COLOUR\ncoLor\nColoUrs\n", "", 0);
}

/// Regression for the finder of a regex with hundreds of case variants
/// (`(?i)(fail|pass)(ed|es)?`: 572 with the long s), which searches the
/// case variants of the words' shared prefixes.
#[test]
fn dash_i_regex_of_hundreds_of_case_variants_selects_every_case() {
    let s = Sandbox::new();
    s.write("a", "FAILED\npa\u{17F}sEs\nPass\nfai\nxpassedx\npas\n");
    s.grep(&["-i", "-E", "(fail|pass)(ed|es)?", "a"]).expect(
        "FAILED\npa\u{17F}sEs\nPass\nxpassedx\n",
        "",
        0,
    );
}

#[test]
fn dash_w_matches_whole_words_only() {
    let s = Sandbox::new();
    s.write("a", "foo\nfoobar\nbar foo baz\nfoo_bar\n");
    s.grep(&["-w", "foo", "a"])
        .expect("foo\nbar foo baz\n", "", 0);
}

#[test]
fn dash_w_falls_back_to_later_occurrence() {
    let s = Sandbox::new();
    s.write("a", "foobar foo\nfoobar\n");
    s.grep(&["-w", "foo", "a"]).expect("foobar foo\n", "", 0);
}

#[test]
fn dash_w_falls_back_to_shorter_word_match() {
    let s = Sandbox::new();
    s.write("a", "foobar x\nfoob x\n");
    s.grep(&["-w", "-E", "foo|foobar|foob", "a"])
        .expect("foobar x\nfoob x\n", "", 0);
}

#[test]
fn dash_w_falls_back_to_shorter_regex_match() {
    let s = Sandbox::new();
    s.write("a", "abc_ ab\nabcd\n");
    s.grep(&["-w", "ab[c]*", "a"]).expect("abc_ ab\n", "", 0);
}

#[test]
fn dash_w_regex_shorter_alternative_is_word() {
    let s = Sandbox::new();
    s.write("a", "foo-bar\nfoobar\n");
    s.grep(&["-w", "-E", "foo|foobar", "a"])
        .expect("foo-bar\nfoobar\n", "", 0);
}

#[test]
fn dash_w_fixed_strings_shorter_pattern_is_word() {
    let s = Sandbox::new();
    s.write("a", "foobar\nfoo bar\n");
    s.grep(&["-w", "-F", "-e", "foobar", "-e", "foo", "a"])
        .expect("foobar\nfoo bar\n", "", 0);
}

#[test]
fn dash_w_fixed_longer_pattern_not_a_word_shorter_is() {
    let s = Sandbox::new();
    s.write("a", "foo-barz\n");
    s.grep(&["-w", "-F", "-e", "foo-bar", "-e", "foo", "a"])
        .expect("foo-barz\n", "", 0);
}

#[test]
fn dash_w_digits_and_underscore_are_word_chars() {
    let s = Sandbox::new();
    s.write("a", "x1 x\nx_\n1x\nx.\n");
    s.grep(&["-w", "x", "a"]).expect("x1 x\nx.\n", "", 0);
}

#[test]
fn dash_w_with_dash_o_prints_only_word_matches() {
    let s = Sandbox::new();
    s.write("a", "foobar foo xfoo foo\n");
    s.grep(&["-o", "-w", "foo", "a"])
        .expect("foo\nfoo\n", "", 0);
}

#[test]
fn dash_w_unicode_letters_are_word_chars() {
    let s = Sandbox::new();
    s.write("a", "éfoo\nfoo é\n");
    s.grep(&["-w", "foo", "a"]).expect("foo é\n", "", 0);
}

#[test]
fn dash_w_pattern_with_non_word_edges() {
    let s = Sandbox::new();
    s.write("a", "a -x- b\nx-x-\n");
    s.grep(&["-w", "-e", "-x-", "a"]).expect("a -x- b\n", "", 0);
}

#[test]
fn dash_w_dash_i_combined() {
    let s = Sandbox::new();
    s.write("a", "FOO bar\nFOObar\n");
    s.grep(&["-w", "-i", "foo", "a"]).expect("FOO bar\n", "", 0);
}

#[test]
fn dash_x_matches_whole_lines_only() {
    let s = Sandbox::new();
    s.write("a", "foo\nfoo bar\n foo\n");
    s.grep(&["-x", "foo", "a"]).expect("foo\n", "", 0);
}

#[test]
fn dash_x_with_alternation_applies_to_whole_pattern() {
    let s = Sandbox::new();
    s.write("a", "foo\nbar\nfoobar\nfoo bar\n");
    s.grep(&["-x", "-E", "foo|bar", "a"])
        .expect("foo\nbar\n", "", 0);
}

#[test]
fn dash_x_fixed_strings() {
    let s = Sandbox::new();
    s.write("a", "a.c\na.cd\nabc\n");
    s.grep(&["-x", "-F", "a.c", "a"]).expect("a.c\n", "", 0);
}

#[test]
fn dash_x_wins_over_dash_w() {
    let s = Sandbox::new();
    s.write("a", "foo bar\nfoo\n");
    s.grep(&["-x", "-w", "foo", "a"]).expect("foo\n", "", 0);
}

#[test]
fn dash_x_dash_i() {
    let s = Sandbox::new();
    s.write("a", "FOO\nfoo\nfoox\n");
    s.grep(&["-x", "-i", "foo", "a"])
        .expect("FOO\nfoo\n", "", 0);
}

#[test]
fn dash_v_selects_non_matching_lines() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["-v", "apple", "a"])
        .expect("banana\ncherry\n", "", 0);
}

#[test]
fn dash_v_with_several_patterns() {
    let s = Sandbox::new();
    s.write("a", "apple\nbanana\ncherry\napple pie\n");
    s.grep(&["-v", "-e", "apple", "-e", "cherry", "a"])
        .expect("banana\n", "", 0);
}

#[test]
fn dash_v_all_lines_match_exits_1() {
    let s = Sandbox::new();
    s.write("a", "a\na\n");
    s.grep(&["-v", "a", "a"]).expect("", "", 1);
}

#[test]
fn dash_v_dash_w() {
    let s = Sandbox::new();
    s.write("a", "foo\nfoobar\n");
    s.grep(&["-v", "-w", "foo", "a"]).expect("foobar\n", "", 0);
}

#[test]
fn dash_v_dash_x() {
    let s = Sandbox::new();
    s.write("a", "foo\nfoobar\n");
    s.grep(&["-v", "-x", "foo", "a"]).expect("foobar\n", "", 0);
}

#[test]
fn match_at_first_byte_of_file() {
    let s = Sandbox::new();
    s.write("a", "xyz\nabc\n");
    s.grep(&["-b", "^x", "a"]).expect("0:xyz\n", "", 0);
}

#[test]
fn match_at_last_byte_of_file_without_newline() {
    let s = Sandbox::new();
    s.write("a", "abc\nxyz");
    s.grep(&["z$", "a"]).expect("xyz\n", "", 0);
}

#[test]
fn match_last_byte_fixed_string_without_newline() {
    let s = Sandbox::new();
    s.write("a", "abc\nxyz");
    s.grep(&["-F", "yz", "a"]).expect("xyz\n", "", 0);
}

#[test]
fn empty_file_no_match() {
    let s = Sandbox::new();
    s.write("a", "");
    s.grep(&["x", "a"]).expect("", "", 1);
}

#[test]
fn empty_file_empty_pattern_selects_nothing() {
    let s = Sandbox::new();
    s.write("a", "");
    s.grep(&["", "a"]).expect("", "", 1);
}

#[test]
fn empty_file_dash_v_selects_nothing() {
    let s = Sandbox::new();
    s.write("a", "");
    s.grep(&["-v", "x", "a"]).expect("", "", 1);
}

#[test]
fn single_newline_file_empty_pattern_selects_one_line() {
    let s = Sandbox::new();
    s.write("a", "\n");
    s.grep(&["-c", "", "a"]).expect("1\n", "", 0);
}

#[test]
fn crlf_lines_keep_carriage_return() {
    let s = Sandbox::new();
    s.write("a", "one\r\ntwo\r\n");
    s.grep(&["two", "a"]).expect("two\r\n", "", 0);
}

#[test]
fn crlf_dollar_does_not_match_before_carriage_return() {
    let s = Sandbox::new();
    s.write("a", "one\r\ntwo\r\n");
    s.grep(&["-c", "two$", "a"]).expect("0\n", "", 1);
}

#[test]
fn crlf_dash_x_does_not_match() {
    let s = Sandbox::new();
    s.write("a", "one\r\ntwo\r\n");
    s.grep(&["-c", "-x", "two", "a"]).expect("0\n", "", 1);
}

#[test]
fn dot_does_not_match_newline_across_lines() {
    let s = Sandbox::new();
    s.write("a", "ab\ncd\n");
    s.grep(&["-c", "b.c", "a"]).expect("0\n", "", 1);
}

#[test]
fn caret_anchor_matches_after_every_newline() {
    let s = Sandbox::new();
    s.write("a", "a\nab\nb\n");
    s.grep(&["-c", "^a", "a"]).expect("2\n", "", 0);
}

#[test]
fn many_literals_with_common_prefixes() {
    let s = Sandbox::new();
    s.write("a", "alpha\nalphabet\nal\nbeta\n");
    s.grep(&["-o", "-F", "-e", "al", "-e", "alpha", "-e", "alphabet", "a"])
        .expect("alpha\nalphabet\nal\n", "", 0);
}

/// Lines for the POSIX class tests: Latin, Cyrillic, ASCII, an Arabic-Indic
/// digit, punctuation and symbols, a titlecase digraph, blanks.
const CLASS_LINES: &str = "\u{e9}t\u{e9}\n\u{416}\u{436}\nabc\nABC\n123\n\u{663}\na-b\n\u{ab}x\u{bb}\n\u{20ac}\n\u{1c5}\n \n\t\n";

/// Regression (issue 13, item 2): POSIX classes were ASCII-only; in a UTF-8
/// locale GNU grep's are Unicode.
#[test]
fn posix_alpha_class_is_unicode() {
    Cmd::new(&["-c", "^[[:alpha:]]*$"])
        .stdin("\u{e9}t\u{e9}\n\u{416}\u{436}\n")
        .expect("2\n", "", 0);
}

/// Every POSIX class against GNU grep 3.8 (glibc 2.36, C.UTF-8).
#[test]
fn posix_classes_are_unicode_as_in_gnu_grep() {
    let s = Sandbox::new();
    s.write("c", CLASS_LINES);
    let cases = [
        ("alpha", "1:\u{e9}t\u{e9}\n2:\u{416}\u{436}\n3:abc\n4:ABC\n6:\u{663}\n10:\u{1c5}\n"),
        ("upper", "4:ABC\n10:\u{1c5}\n"),
        ("lower", "1:\u{e9}t\u{e9}\n3:abc\n10:\u{1c5}\n"),
        ("alnum", "1:\u{e9}t\u{e9}\n2:\u{416}\u{436}\n3:abc\n4:ABC\n5:123\n6:\u{663}\n10:\u{1c5}\n"),
        ("punct", "9:\u{20ac}\n"),
        ("print", "1:\u{e9}t\u{e9}\n2:\u{416}\u{436}\n3:abc\n4:ABC\n5:123\n6:\u{663}\n7:a-b\n8:\u{ab}x\u{bb}\n9:\u{20ac}\n10:\u{1c5}\n11: \n"),
        ("graph", "1:\u{e9}t\u{e9}\n2:\u{416}\u{436}\n3:abc\n4:ABC\n5:123\n6:\u{663}\n7:a-b\n8:\u{ab}x\u{bb}\n9:\u{20ac}\n10:\u{1c5}\n"),
        ("digit", "5:123\n"),
        ("space", "11: \n12:\t\n"),
        ("blank", "11: \n12:\t\n"),
        ("cntrl", "12:\t\n"),
        ("xdigit", "3:abc\n4:ABC\n5:123\n"),
    ];
    for (class, want) in cases {
        s.grep(&["-n", "-x", &format!("[[:{class}:]]*"), "c"])
            .expect(want, "", 0);
    }
}

/// GNU grep matches `[:upper:]` and `[:lower:]` as `[:alpha:]` under `-i`.
#[test]
fn posix_upper_class_under_ignore_case_is_alpha() {
    let s = Sandbox::new();
    s.write("c", CLASS_LINES);
    s.grep(&["-n", "-x", "-i", "[[:upper:]]*", "c"]).expect(
        "1:\u{e9}t\u{e9}\n2:\u{416}\u{436}\n3:abc\n4:ABC\n6:\u{663}\n10:\u{1c5}\n",
        "",
        0,
    );
}

/// Regression (issue 13, item 5): `x+?`, `a*?`, `a{1,2}?` are POSIX stacked
/// repetitions (`(x+)?`), not the `regex` crate's lazy ones.
#[test]
fn ere_plus_question_is_stacked_repetition() {
    let s = Sandbox::new();
    s.write("r", "x\nxx\ny\n\naa\nab\n");
    s.grep(&["-E", "-n", "-x", "x+?", "r"])
        .expect("1:x\n2:xx\n4:\n", "", 0);
    s.grep(&["-E", "-n", "-x", "a*?", "r"])
        .expect("4:\n5:aa\n", "", 0);
    s.grep(&["-E", "-n", "-x", "a{1,2}?", "r"])
        .expect("4:\n5:aa\n", "", 0);
    s.grep(&["-E", "-c", "x+?", "r"]).expect("6\n", "", 0);
}

/// Lines holding the characters the repetition tests treat as literal.
const OPERATOR_LINES: &str = "?i\n(?i)\ni\n+\n?x\nx\n*a\n^*\n^^\na\nb*\n*\n";

/// Regression (issue 13, item 5): in BRE `\(\?i\)` is a group holding a
/// literal `?` (a repetition with nothing before it), not a flag group.
#[test]
fn bre_question_at_group_start_is_literal_not_a_flag_group() {
    let s = Sandbox::new();
    s.write("l", OPERATOR_LINES);
    s.grep(&["-n", "\\(\\?i\\)", "l"])
        .expect("1:?i\n2:(?i)\n", "", 0);
}

/// Regression (issue 13, item 5): a BRE repetition first, or after an
/// anchor, `\(` or `\|`, is a literal character; a `^` after `^` too.
#[test]
fn bre_repetition_at_start_or_after_anchor_is_literal() {
    let s = Sandbox::new();
    s.write("l", OPERATOR_LINES);
    s.grep(&["-n", "^*", "l"]).expect("7:*a\n12:*\n", "", 0);
    s.grep(&["-n", "\\<*", "l"]).expect("", "", 1);
    s.grep(&["-n", "^^", "l"]).expect("8:^*\n9:^^\n", "", 0);
    s.grep(&["-n", "\\+", "l"]).expect("4:+\n", "", 0);
    s.grep(&["-n", "\\?x", "l"]).expect("5:?x\n", "", 0);
    s.grep(&["-n", "a\\|\\?", "l"])
        .expect("1:?i\n2:(?i)\n5:?x\n7:*a\n10:a\n", "", 0);
}

/// Regression (issue 13, item 5): an ERE repetition with nothing but anchors
/// before it repeats the empty string, with GNU's warning.
#[test]
fn ere_repetition_at_start_or_after_anchor_repeats_nothing() {
    let s = Sandbox::new();
    s.write("l", OPERATOR_LINES);
    s.grep(&["-E", "-c", "^*", "l"]).expect(
        "12\n",
        "gpugrep: warning: * at start of expression\n",
        0,
    );
    s.grep(&["-E", "-n", "a|*b", "l"]).expect(
        "7:*a\n10:a\n11:b*\n",
        "gpugrep: warning: * at start of expression\n",
        0,
    );
}

/// Regression (issue 13, item 5): `` \` `` and `\'` anchor at each line's
/// start and end (GNU grep matches line by line).
#[test]
fn buffer_anchors_match_at_each_line() {
    let s = Sandbox::new();
    s.write("b", "a\nb\n<\n>\na{,}\n");
    s.grep(&["-n", "\\`a", "b"]).expect("1:a\n5:a{,}\n", "", 0);
    s.grep(&["-n", "a\\'", "b"]).expect("1:a\n", "", 0);
    s.grep(&["-c", "\\`b\\'", "b"]).expect("1\n", "", 0);
}

/// Regression (issue 13, item 5): ERE `a{,}` is `a{0,}`, as BRE `a\{,\}`.
#[test]
fn ere_interval_without_bounds_is_zero_or_more() {
    let s = Sandbox::new();
    s.write("b", "a\nb\n<\n>\na{,}\n");
    s.grep(&["-E", "-c", "a{,}", "b"]).expect("5\n", "", 0);
    s.grep(&["-c", "a\\{,\\}", "b"]).expect("5\n", "", 0);
}

/// Regression (issue 13, item 5): `[<]` failed with "invalid escape
/// sequence"; `<` and `>` are ordinary in brackets.
#[test]
fn bracket_with_angle_brackets_matches_them() {
    let s = Sandbox::new();
    s.write("b", "a\nb\n<\n>\na{,}\n");
    s.grep(&["-n", "[<]", "b"]).expect("3:<\n", "", 0);
    s.grep(&["-E", "-n", "[<>]", "b"])
        .expect("3:<\n4:>\n", "", 0);
}

/// Regression (issue 13, item 5): an unknown class name, a class as a range
/// end, a reversed range and `[:alpha:]` for `[[:alpha:]]` are GNU's errors.
#[test]
fn bad_bracket_expressions_are_errors_exit_2() {
    let s = Sandbox::new();
    s.write("b", "a\n");
    s.grep(&["[[:digits:]]", "b"])
        .expect("", "gpugrep: Invalid character class name\n", 2);
    s.grep(&["-E", "[[:alpha:]-z]", "b"])
        .expect("", "gpugrep: Invalid range end\n", 2);
    s.grep(&["[z-a]", "b"])
        .expect("", "gpugrep: Invalid range end\n", 2);
    s.grep(&["[:alpha:]", "b"]).expect(
        "",
        "gpugrep: character class syntax is [[:space:]], not [:space:]\n",
        2,
    );
}

/// `-w` takes GNU's word characters, `[_[:alnum:]]`: a combining mark that
/// is not alphabetic (U+0301 of a decomposed `é`) or connector punctuation
/// other than `_` (U+203F) is no word character, so `cafe` is a word in
/// `cafe\u{301}`. For literals, regexes, and in `-o` spans.
#[test]
fn word_boundary_next_to_combining_mark_is_gnus() {
    let s = Sandbox::new();
    s.write(
        "n",
        "cafe\u{301}\ncafe\nx\u{301}y cafe\n\u{301}cafe\ncafe\u{203f}z\n",
    );
    let all = "1:cafe\u{301}\n2:cafe\n3:x\u{301}y cafe\n4:\u{301}cafe\n5:cafe\u{203f}z\n";
    s.grep(&["-w", "-n", "cafe", "n"]).expect(all, "", 0);
    s.grep(&["-w", "-n", "-F", "cafe", "n"]).expect(all, "", 0);
    s.grep(&["-w", "-n", "-i", "CAFE", "n"]).expect(all, "", 0);
    s.grep(&["-w", "-n", "-E", "(caf)?e", "n"])
        .expect(all, "", 0);
    s.grep(&["-w", "-o", "-b", "caf.", "n"]).expect(
        "0:cafe\n7:cafe\n17:cafe\n24:cafe\n29:cafe\n",
        "",
        0,
    );
    s.grep(&["-w", "-o", "-n", ".", "n"])
        .expect("3:x\n3:y\n5:z\n", "", 0);
}

/// Where only the lines matter, a literal set drops the literals holding
/// another one ("other" holds "the"); the lines selected must be those the
/// regex engine selects for the same words (`(word)` keeps them a regex).
#[test]
fn literal_set_without_its_longer_words_selects_the_regex_lines() {
    let s = Sandbox::new();
    let mut rng = common::XorShift(0x9e37_79b9_7f4a_7c15);
    for round in 0..20 {
        let words: Vec<String> = (0..2 + rng.below(12))
            .map(|_| {
                let len = 1 + rng.below(4);
                String::from_utf8(rng.bytes(len, b"abAB")).unwrap()
            })
            .collect();
        let text = rng.bytes(400, b"abAB\n");
        s.write("t", &text);
        s.write("lits", words.join("\n") + "\n");
        let regex: Vec<String> = words.iter().map(|w| format!("({w})")).collect();
        s.write("regex", regex.join("\n") + "\n");
        for opts in [
            &["-c"][..],
            &["-n"],
            &["-v", "-n"],
            &["-l"],
            &["-i", "-c"],
            &["-i", "-v", "-n"],
        ] {
            let lits = s.grep(&[opts, &["-F", "-f", "lits", "t"]].concat()).run();
            let regex = s.grep(&[opts, &["-E", "-f", "regex", "t"]].concat()).run();
            assert_eq!(
                lits.stdout, regex.stdout,
                "round {round} {opts:?} {words:?}"
            );
            assert_eq!(lits.code, regex.code, "round {round} {opts:?}");
        }
    }
}

/// `-P` reads the `regex` crate's syntax as it is (as ripgrep does): `\d`,
/// inline flags and lazy repetitions, which POSIX syntax lacks.
#[test]
fn perl_syntax_reads_the_regex_crates_own() {
    let s = Sandbox::new();
    s.write("a", "id 12345 x\nfoo BAR\nno digits\n");
    s.grep(&["-P", r"\d{3,}", "a"])
        .expect("id 12345 x\n", "", 0);
    s.grep(&["-P", "(?i)bar", "a"]).expect("foo BAR\n", "", 0);
    s.grep(&["-P", "-o", "o.*?o", "a"]).expect("oo\n", "", 0);
    s.grep(&["-P", "-c", r"\bdigits$", "a"])
        .expect("1\n", "", 0);
}

/// What the `regex` crate lacks (look-around, back-references) is a clear
/// error with exit 2, as is an invalid pattern and a second matcher.
#[test]
fn perl_syntax_refuses_what_the_regex_crate_lacks() {
    let s = Sandbox::new();
    s.write("a", "xy\n");
    let out = s.grep(&["-P", "(?<=x)y", "a"]).run();
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("look-around"), "{}", out.stderr);
    assert_eq!(s.grep(&["-P", r"(x)\1", "a"]).run().code, 2);
    s.grep(&["-P", "-E", "x", "a"])
        .expect("", "gpugrep: conflicting matchers specified\n", 2);
}

/// Regression: two e-mail forms, each requiring an `@`, ran ten times
/// slower than one (the alternation's DFA alone over every byte). Their
/// lines are now found through the `@` (or their DFA, trimmed where only
/// lines count); counts and `-o`'s whole matches stay the regex's.
#[test]
fn two_email_forms_find_their_lines_by_the_at_they_share() {
    let s = Sandbox::new();
    s.write(
        "a",
        "mail ann@example.com today\nno at here.com\nbob@host.org\nuser@ only\n@x.y\n",
    );
    let pair = r"\w+@\w+\.\w+|\w+@\w+\.(com|org|net)";
    s.grep(&["-c", "-E", pair, "a"]).expect("2\n", "", 0);
    s.grep(&["-o", "-E", pair, "a"])
        .expect("ann@example.com\nbob@host.org\n", "", 0);
    let out = s
        .grep(&["--debug", "--engine=cpu", "-c", "-E", pair, "a"])
        .run();
    assert!(
        out.stderr
            .contains("lines found by a rare byte every match holds"),
        "{}",
        out.stderr
    );
}

/// Regression: `-x ''` (blank lines) found the empty literal at every byte
/// and confirmed each line (1.6x rg's time over prose with CRLF ends); the
/// regex `^(?:)$` now finds the lines, alone or beside other literals.
#[test]
fn blank_lines_under_x_are_found_by_the_regex() {
    let s = Sandbox::new();
    s.write("a", "one\n\n}\n \n\r\n}\n\n");
    s.grep(&["-c", "-x", "", "a"]).expect("2\n", "", 0);
    s.grep(&["-n", "-x", "-e", "", "-e", "}", "a"])
        .expect("2:\n3:}\n6:}\n7:\n", "", 0);
    s.grep(&["-c", "-v", "-x", "-F", "", "a"])
        .expect("5\n", "", 0);
    s.grep(&["-c", "-i", "-x", "-e", "", "-e", "ONE", "a"])
        .expect("3\n", "", 0);
    let out = s
        .grep(&["--debug", "--engine=cpu", "-c", "-x", "", "a"])
        .run();
    assert!(
        out.stderr.contains("patterns: 1 pattern(s), regex"),
        "{}",
        out.stderr
    );
}
