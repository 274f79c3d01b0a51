//! Output control: -c --count-matches -l -L -q -s -o -n -b -H -h --label -Z -T
//! -m, --color (GREP_COLORS), --line-buffered, -j.
//!
//! Expected outputs are GNU grep 3.8's (LC_ALL=C.UTF-8), hard-coded; where
//! gpugrep deliberately differs, the test says so in its name and comment.

mod common;

use common::Sandbox;

#[test]
fn dash_c_counts_selected_lines() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-c", "apple", "a"]).expect("2\n", "", 0);
}

#[test]
fn dash_c_zero_exits_1() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-c", "kiwi", "a"]).expect("0\n", "", 1);
}

#[test]
fn dash_c_several_files_prefixes_names() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-c", "apple", "a", "b", "c"])
        .expect("a:2\nb:1\nc:0\n", "", 0);
}

#[test]
fn dash_c_with_dash_v() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-c", "-v", "apple", "a", "b", "c"])
        .expect("a:1\nb:1\nc:1\n", "", 0);
}

#[test]
fn dash_c_with_dash_m_caps_count() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-c", "-m", "1", "apple", "a"])
        .expect("1\n", "", 0);
}

#[test]
fn dash_c_with_dash_h_omits_names() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-c", "-h", "apple", "a", "b"])
        .expect("2\n1\n", "", 0);
}

#[test]
fn dash_c_with_dash_z_name_terminated_by_nul() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-c", "-Z", "apple", "a", "b"])
        .expect("a\x002\nb\x001\n", "", 0);
}

#[test]
fn dash_c_empty_file_prints_zero() {
    let s = Sandbox::new();
    s.write("e", "");
    s.grep(&["-c", "x", "e"]).expect("0\n", "", 1);
}

#[test]
fn dash_c_with_dash_o_counts_lines() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-c", "-o", "apple", "a"]).expect("2\n", "", 0);
}

#[test]
fn count_matches_counts_every_match() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    // gpugrep's own option (not in GNU grep): matches, not lines.
    s.grep(&["--count-matches", "apple", "a"])
        .expect("3\n", "", 0);
}

#[test]
fn count_matches_several_files() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    // gpugrep's own option (not in GNU grep).
    s.grep(&["--count-matches", "apple", "a", "b", "c"])
        .expect("a:3\nb:1\nc:0\n", "", 0);
}

#[test]
fn dash_l_lists_files_with_matches() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-l", "apple", "a", "b", "c"])
        .expect("a\nb\n", "", 0);
}

#[test]
fn dash_l_with_dash_v() {
    let s = Sandbox::new();
    s.write("a", "apple\n");
    s.write("b", "apple\nkiwi\n");
    s.grep(&["-l", "-v", "apple", "a", "b"])
        .expect("b\n", "", 0);
}

#[test]
fn dash_l_no_match_exits_1() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-l", "kiwi", "a", "b"]).expect("", "", 1);
}

#[test]
fn dash_l_single_file() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-l", "apple", "a"]).expect("a\n", "", 0);
}

#[test]
fn dash_capital_l_lists_files_without_match() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-L", "apple", "a", "b", "c"]).expect("c\n", "", 0);
}

#[test]
fn dash_capital_l_all_files_match_exits_1() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-L", "apple", "a", "b"]).expect("", "", 0);
}

#[test]
fn dash_capital_l_with_dash_v() {
    let s = Sandbox::new();
    s.write("a", "apple\n");
    s.write("b", "apple\nkiwi\n");
    s.grep(&["-L", "-v", "apple", "a", "b"])
        .expect("a\n", "", 0);
}

#[test]
fn dash_l_with_dash_z_terminates_names_with_nul() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-l", "-Z", "apple", "a", "b", "c"])
        .expect("a\0b\0", "", 0);
}

#[test]
fn dash_capital_l_with_dash_z() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-L", "-Z", "apple", "a", "b", "c"])
        .expect("c\0", "", 0);
}

#[test]
fn dash_l_with_dash_c_prints_names() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-l", "-c", "apple", "a", "b", "c"])
        .expect("a\nb\n", "", 0);
}

#[test]
fn dash_l_stdin_uses_label() {
    let s = Sandbox::new();
    s.grep(&["-l", "x"])
        .stdin("x\n")
        .expect("(standard input)\n", "", 0);
}

#[test]
fn dash_l_stdin_with_custom_label() {
    let s = Sandbox::new();
    s.grep(&["-l", "--label=in", "x", "-"])
        .stdin("x\n")
        .expect("in\n", "", 0);
}

#[test]
fn dash_l_stops_reading_at_first_match() {
    let s = Sandbox::new();
    s.write("a", "x\nx\nx\n");
    s.grep(&["-l", "x", "a"]).expect("a\n", "", 0);
}

#[test]
fn dash_q_prints_nothing_exits_0_on_match() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-q", "apple", "a", "b"]).expect("", "", 0);
}

#[test]
fn dash_q_no_match_exits_1() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-q", "kiwi", "a", "b"]).expect("", "", 1);
}

#[test]
fn dash_q_with_dash_v() {
    let s = Sandbox::new();
    s.write("a", "apple\n");
    s.grep(&["-q", "-v", "apple", "a"]).expect("", "", 1);
}

#[test]
fn dash_q_match_and_missing_file_exits_0() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-q", "apple", "missing", "a"]).expect(
        "",
        "gpugrep: missing: No such file or directory\n",
        0,
    );
}

#[test]
fn dash_q_missing_file_no_match_exits_2() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-q", "kiwi", "missing", "a"]).expect(
        "",
        "gpugrep: missing: No such file or directory\n",
        2,
    );
}

#[test]
fn dash_s_silences_missing_file_but_exits_2() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-s", "apple", "a", "missing"])
        .expect("a:one apple\na:apple apple three\n", "", 2);
}

#[test]
fn dash_s_with_dash_q_and_match_exits_0() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-sq", "apple", "missing", "a"]).expect("", "", 0);
}

#[test]
fn dash_o_prints_each_match_on_its_own_line() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-o", "apple", "a"])
        .expect("apple\napple\napple\n", "", 0);
}

#[test]
fn dash_o_with_dash_n() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-o", "-n", "apple", "a"])
        .expect("1:apple\n3:apple\n3:apple\n", "", 0);
}

#[test]
fn dash_o_with_dash_b_gives_match_offsets() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-o", "-b", "apple", "a"])
        .expect("4:apple\n14:apple\n20:apple\n", "", 0);
}

#[test]
fn dash_o_with_dash_b_and_dash_n() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-o", "-b", "-n", "apple", "a"])
        .expect("1:4:apple\n3:14:apple\n3:20:apple\n", "", 0);
}

#[test]
fn dash_o_regex_several_per_line() {
    let s = Sandbox::new();
    s.write("a", "a1b22c333\n");
    s.grep(&["-o", "[0-9]\\+", "a"])
        .expect("1\n22\n333\n", "", 0);
}

#[test]
fn dash_o_empty_matches_are_not_printed() {
    let s = Sandbox::new();
    s.write("a", "abc\n\n");
    s.grep(&["-o", "x*", "a"]).expect("", "", 0);
}

#[test]
fn dash_o_empty_match_line_still_selected_exit_0() {
    let s = Sandbox::new();
    s.write("a", "abc\n");
    s.grep(&["-c", "-o", "x*", "a"]).expect("1\n", "", 0);
}

#[test]
fn dash_o_with_dash_v_prints_nothing_but_exits_0() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-o", "-v", "apple", "a"]).expect("", "", 0);
}

#[test]
fn dash_o_with_dash_i_prints_original_case() {
    let s = Sandbox::new();
    s.write("a", "Apple APPLE\n");
    s.grep(&["-o", "-i", "apple", "a"])
        .expect("Apple\nAPPLE\n", "", 0);
}

#[test]
fn dash_o_with_several_files() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-o", "apple", "a", "b"])
        .expect("a:apple\na:apple\na:apple\nb:apple\n", "", 0);
}

#[test]
fn dash_o_fixed_overlapping_patterns_longest_first() {
    let s = Sandbox::new();
    s.write("a", "abcd\n");
    s.grep(&["-o", "-F", "-e", "ab", "-e", "abc", "a"])
        .expect("abc\n", "", 0);
}

#[test]
fn dash_o_regex_uses_leftmost_first_alternation() {
    let s = Sandbox::new();
    s.write("a", "abcd\n");
    // Deliberate: the regex crate reports the leftmost-first alternative ("ab");
    // GNU grep's POSIX leftmost-longest match prints "abc".
    s.grep(&["-o", "-E", "a.|abc", "a"]).expect("ab\n", "", 0);
}

/// An alternation of plain words is searched as a literal set, which is
/// leftmost-longest, as GNU grep.
#[test]
fn dash_o_word_alternation_is_leftmost_longest() {
    let s = Sandbox::new();
    s.write("a", "abcd\n");
    s.grep(&["-o", "-E", "ab|abc", "a"]).expect("abc\n", "", 0);
    s.grep(&["-o", "ab\\|abc", "a"]).expect("abc\n", "", 0);
}

#[test]
fn dash_o_regex_longest_alternative_written_first() {
    let s = Sandbox::new();
    s.write("a", "abcd\n");
    s.grep(&["-o", "-E", "abc|ab", "a"]).expect("abc\n", "", 0);
}

#[test]
fn dash_o_with_dash_x() {
    let s = Sandbox::new();
    s.write("a", "apple\napple pie\n");
    s.grep(&["-o", "-x", "apple", "a"]).expect("apple\n", "", 0);
}

#[test]
fn dash_o_unicode_match() {
    let s = Sandbox::new();
    s.write("a", "naïve café\n");
    s.grep(&["-o", "caf.", "a"]).expect("café\n", "", 0);
}

#[test]
fn dash_o_dash_b_multibyte_offsets() {
    let s = Sandbox::new();
    s.write("a", "ééx\nx\n");
    s.grep(&["-o", "-b", "x", "a"]).expect("4:x\n6:x\n", "", 0);
}

#[test]
fn dash_n_prefixes_line_numbers() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-n", "apple", "a"])
        .expect("1:one apple\n3:apple apple three\n", "", 0);
}

#[test]
fn dash_b_prefixes_byte_offsets_of_lines() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-b", "apple", "a"])
        .expect("0:one apple\n14:apple apple three\n", "", 0);
}

#[test]
fn dash_n_and_dash_b_together() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-n", "-b", "apple", "a"])
        .expect("1:0:one apple\n3:14:apple apple three\n", "", 0);
}

#[test]
fn dash_n_with_dash_v() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-n", "-v", "apple", "a"]).expect("2:two\n", "", 0);
}

#[test]
fn dash_n_with_filename() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-n", "apple", "a", "b"]).expect(
        "a:1:one apple\na:3:apple apple three\nb:2:banana apple\n",
        "",
        0,
    );
}

#[test]
fn dash_n_counts_crlf_lines() {
    let s = Sandbox::new();
    s.write("a", "x\r\ny\r\nx\r\n");
    s.grep(&["-n", "x", "a"]).expect("1:x\r\n3:x\r\n", "", 0);
}

#[test]
fn dash_n_last_line_without_newline() {
    let s = Sandbox::new();
    s.write("a", "a\nb\nc");
    s.grep(&["-n", "c", "a"]).expect("3:c\n", "", 0);
}

#[test]
fn dash_capital_h_forces_name_for_one_file() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-H", "two", "a"]).expect("a:two\n", "", 0);
}

#[test]
fn dash_h_suppresses_names_for_several_files() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-h", "apple", "a", "b"]).expect(
        "one apple\napple apple three\nbanana apple\n",
        "",
        0,
    );
}

#[test]
fn last_of_dash_h_and_dash_capital_h_wins() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-h", "-H", "two", "a"]).expect("a:two\n", "", 0);
}

#[test]
fn dash_capital_h_on_stdin_names_standard_input() {
    let s = Sandbox::new();
    s.grep(&["-H", "x"])
        .stdin("x\n")
        .expect("(standard input):x\n", "", 0);
}

#[test]
fn label_names_stdin() {
    let s = Sandbox::new();
    s.grep(&["-H", "--label=input.txt", "x"])
        .stdin("x\n")
        .expect("input.txt:x\n", "", 0);
}

#[test]
fn label_with_several_operands_including_dash() {
    let s = Sandbox::new();
    s.write("a", "x a\n");
    s.grep(&["--label=IN", "x", "a", "-"])
        .stdin("x in\n")
        .expect("a:x a\nIN:x in\n", "", 0);
}

#[test]
fn label_without_dash_capital_h_is_not_shown_for_single_stdin() {
    let s = Sandbox::new();
    s.grep(&["--label=IN", "x"])
        .stdin("x\n")
        .expect("x\n", "", 0);
}

#[test]
fn dash_z_capital_nul_after_name_in_line_output() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-Z", "apple", "a", "b"]).expect(
        "a\0one apple\na\0apple apple three\nb\0banana apple\n",
        "",
        0,
    );
}

#[test]
fn dash_z_capital_with_dash_n() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["-Z", "-n", "apple", "a", "b"]).expect(
        "a\x001:one apple\na\x003:apple apple three\nb\x002:banana apple\n",
        "",
        0,
    );
}

#[test]
fn dash_z_capital_without_names_changes_nothing() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-Z", "apple", "a"])
        .expect("one apple\napple apple three\n", "", 0);
}

#[test]
fn dash_m_stops_after_n_selected_lines() {
    let s = Sandbox::new();
    s.write("a", "x1\nx2\nx3\n");
    s.grep(&["-m", "2", "x", "a"]).expect("x1\nx2\n", "", 0);
}

#[test]
fn dash_m_zero_selects_nothing_exits_1() {
    let s = Sandbox::new();
    s.write("a", "x1\n");
    s.grep(&["-m", "0", "x", "a"]).expect("", "", 1);
}

#[test]
fn dash_m_negative_means_no_limit() {
    let s = Sandbox::new();
    s.write("a", "x1\nx2\n");
    s.grep(&["-m", "-1", "x", "a"]).expect("x1\nx2\n", "", 0);
}

#[test]
fn dash_m_applies_per_file() {
    let s = Sandbox::new();
    s.write("a", "x1\nx2\n");
    s.write("b", "x3\nx4\n");
    s.grep(&["-m", "1", "x", "a", "b"])
        .expect("a:x1\nb:x3\n", "", 0);
}

#[test]
fn dash_m_with_dash_v() {
    let s = Sandbox::new();
    s.write("a", "x1\ny\nz\n");
    s.grep(&["-m", "1", "-v", "x", "a"]).expect("y\n", "", 0);
}

#[test]
fn dash_m_with_dash_o_prints_all_matches_of_last_line() {
    let s = Sandbox::new();
    s.write("a", "xx\nx\n");
    s.grep(&["-m", "1", "-o", "x", "a"]).expect("x\nx\n", "", 0);
}

#[test]
fn dash_m_on_stdin() {
    let s = Sandbox::new();
    s.grep(&["-m", "1", "x"])
        .stdin("x1\nx2\n")
        .expect("x1\n", "", 0);
}

#[test]
fn dash_m_long_form() {
    let s = Sandbox::new();
    s.write("a", "x1\nx2\n");
    s.grep(&["--max-count=1", "x", "a"]).expect("x1\n", "", 0);
}

#[test]
fn options_after_operands_are_options() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["apple", "a", "-n"])
        .expect("1:one apple\n3:apple apple three\n", "", 0);
}

#[test]
fn double_dash_ends_options() {
    let s = Sandbox::new();
    s.write("-n", "apple -n\n");
    s.grep(&["apple", "--", "-n"]).expect("apple -n\n", "", 0);
}

#[test]
fn combined_short_options() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["-cv", "apple", "a"]).expect("1\n", "", 0);
}

#[test]
fn attached_option_values() {
    let s = Sandbox::new();
    s.write("a", "x1\nx2\n");
    s.grep(&["-m1", "-ex", "a"]).expect("x1\n", "", 0);
}

#[test]
fn line_buffered_output_is_unchanged() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["--line-buffered", "apple", "a", "b"]).expect(
        "a:one apple\na:apple apple three\nb:banana apple\n",
        "",
        0,
    );
}

#[test]
fn threads_one_same_output_order() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    // gpugrep's own option.
    s.grep(&["-j", "1", "-n", "apple", "a", "b", "c"]).expect(
        "a:1:one apple\na:3:apple apple three\nb:2:banana apple\n",
        "",
        0,
    );
}

#[test]
fn threads_many_same_output_order() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    // gpugrep's own option.
    s.grep(&["-j", "8", "-n", "apple", "a", "b", "c"]).expect(
        "a:1:one apple\na:3:apple apple three\nb:2:banana apple\n",
        "",
        0,
    );
}

#[test]
fn color_always_default_escape_sequences() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=always", "apple", "a"])
        .expect("one \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n\x1b[01;31m\x1b[Kapple\x1b[m\x1b[K \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K three\n", "", 0);
}

#[test]
fn color_always_with_names_numbers_offsets() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["--color=always", "-n", "-b", "apple", "a", "b"])
        .expect("\x1b[35m\x1b[Ka\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K1\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K0\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kone \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n\x1b[35m\x1b[Ka\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K14\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kapple\x1b[m\x1b[K \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K three\n\x1b[35m\x1b[Kb\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K2\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K9\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kbanana \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn color_always_with_dash_o() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=always", "-o", "apple", "a"])
        .expect("\x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n\x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n\x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn color_always_with_context_and_separator() {
    let s = Sandbox::new();
    s.write("a", "x\nctx\ny\nz\nw\nx\n");
    s.grep(&["--color=always", "-n", "-A1", "x", "a"])
        .expect("\x1b[32m\x1b[K1\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kx\x1b[m\x1b[K\n\x1b[32m\x1b[K2\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kct\x1b[01;31m\x1b[Kx\x1b[m\x1b[K\n\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Ky\n\x1b[36m\x1b[K--\x1b[m\x1b[K\n\x1b[32m\x1b[K6\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kx\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn color_always_with_dash_v_does_not_color_matches() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=always", "-v", "apple", "a"])
        .expect("two\n", "", 0);
}

#[test]
fn color_always_with_dash_c_and_dash_l() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["--color=always", "-c", "apple", "a", "b"])
        .expect("\x1b[35m\x1b[Ka\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K2\n\x1b[35m\x1b[Kb\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K1\n", "", 0);
}

#[test]
fn color_always_dash_l_colors_names() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["--color=always", "-l", "apple", "a", "b"]).expect(
        "\x1b[35m\x1b[Ka\x1b[m\x1b[K\n\x1b[35m\x1b[Kb\x1b[m\x1b[K\n",
        "",
        0,
    );
}

#[test]
fn color_always_dash_i() {
    let s = Sandbox::new();
    s.write("a", "Apple aPPle\n");
    s.grep(&["--color=always", "-i", "apple", "a"]).expect(
        "\x1b[01;31m\x1b[KApple\x1b[m\x1b[K \x1b[01;31m\x1b[KaPPle\x1b[m\x1b[K\n",
        "",
        0,
    );
}

#[test]
fn color_always_dash_w_colors_only_word_matches() {
    let s = Sandbox::new();
    s.write("a", "foobar foo\n");
    s.grep(&["--color=always", "-w", "foo", "a"]).expect(
        "foobar \x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n",
        "",
        0,
    );
}

#[test]
fn color_always_empty_pattern_no_escapes_in_line() {
    let s = Sandbox::new();
    s.write("a", "abc\n");
    s.grep(&["--color=always", "", "a"]).expect("abc\n", "", 0);
}

#[test]
fn color_always_dash_z_capital() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["--color=always", "-Z", "apple", "a", "b"])
        .expect("\x1b[35m\x1b[Ka\x1b[m\x1b[K\0one \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n\x1b[35m\x1b[Ka\x1b[m\x1b[K\0\x1b[01;31m\x1b[Kapple\x1b[m\x1b[K \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K three\n\x1b[35m\x1b[Kb\x1b[m\x1b[K\0banana \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn color_never_prints_plain() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=never", "apple", "a"])
        .expect("one apple\napple apple three\n", "", 0);
}

#[test]
fn color_auto_on_a_pipe_prints_plain() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=auto", "apple", "a"])
        .expect("one apple\napple apple three\n", "", 0);
}

#[test]
fn color_without_value_means_auto() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color", "apple", "a"])
        .expect("one apple\napple apple three\n", "", 0);
}

#[test]
fn colour_spelling_is_accepted() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--colour=always", "two", "a"])
        .expect("\x1b[01;31m\x1b[Ktwo\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn grep_colors_mt_overrides_match_color() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=always", "apple", "a"])
        .env("GREP_COLORS", "mt=01;32")
        .expect("one \x1b[01;32m\x1b[Kapple\x1b[m\x1b[K\n\x1b[01;32m\x1b[Kapple\x1b[m\x1b[K \x1b[01;32m\x1b[Kapple\x1b[m\x1b[K three\n", "", 0);
}

#[test]
fn grep_colors_ms_overrides_selected_match_color() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=always", "apple", "a"])
        .env("GREP_COLORS", "ms=04")
        .expect("one \x1b[04m\x1b[Kapple\x1b[m\x1b[K\n\x1b[04m\x1b[Kapple\x1b[m\x1b[K \x1b[04m\x1b[Kapple\x1b[m\x1b[K three\n", "", 0);
}

#[test]
fn grep_colors_ne_drops_erase_to_end_of_line() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=always", "apple", "a"])
        .env("GREP_COLORS", "ne")
        .expect(
            "one \x1b[01;31mapple\x1b[m\n\x1b[01;31mapple\x1b[m \x1b[01;31mapple\x1b[m three\n",
            "",
            0,
        );
}

#[test]
fn grep_colors_fn_ln_bn_se() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.write("b", "no fruit\nbanana apple\n");
    s.write("c", "nothing\n");
    s.grep(&["--color=always", "-n", "-b", "apple", "a", "b"])
        .env("GREP_COLORS", "fn=32:ln=33:bn=34:se=36")
        .expect("\x1b[32m\x1b[Ka\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[33m\x1b[K1\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[34m\x1b[K0\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kone \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n\x1b[32m\x1b[Ka\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[33m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[34m\x1b[K14\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kapple\x1b[m\x1b[K \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K three\n\x1b[32m\x1b[Kb\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[33m\x1b[K2\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[34m\x1b[K9\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kbanana \x1b[01;31m\x1b[Kapple\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn grep_colors_sl_cx_color_whole_lines() {
    let s = Sandbox::new();
    s.write("a", "x\nctx\nmid x end\nother\n");
    s.grep(&["--color=always", "-A1", "x", "a"])
        .env("GREP_COLORS", "sl=1:cx=2")
        .expect("\x1b[1m\x1b[K\x1b[01;31m\x1b[Kx\x1b[m\x1b[K\n\x1b[1m\x1b[Kct\x1b[01;31m\x1b[Kx\x1b[m\x1b[K\n\x1b[1m\x1b[Kmid \x1b[01;31m\x1b[Kx\x1b[m\x1b[K\x1b[1m\x1b[K end\x1b[m\x1b[K\n\x1b[2m\x1b[Kother\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn grep_colors_sl_line_color_restarts_after_each_match() {
    let s = Sandbox::new();
    s.write("a", "a x b x c\n");
    s.grep(&["--color=always", "x", "a"])
        .env("GREP_COLORS", "sl=1")
        .expect("\x1b[1m\x1b[Ka \x1b[01;31m\x1b[Kx\x1b[m\x1b[K\x1b[1m\x1b[K b \x1b[01;31m\x1b[Kx\x1b[m\x1b[K\x1b[1m\x1b[K c\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn grep_colors_sl_leaves_carriage_return_uncolored() {
    let s = Sandbox::new();
    s.write("a", "a x b\r\n");
    s.grep(&["--color=always", "x", "a"])
        .env("GREP_COLORS", "sl=1")
        .expect(
            "\x1b[1m\x1b[Ka \x1b[01;31m\x1b[Kx\x1b[m\x1b[K\x1b[1m\x1b[K b\x1b[m\x1b[K\r\n",
            "",
            0,
        );
}

#[test]
fn grep_colors_sl_with_empty_match_color() {
    let s = Sandbox::new();
    s.write("a", "a x b\n");
    s.grep(&["--color=always", "x", "a"])
        .env("GREP_COLORS", "sl=1:mt=")
        .expect("\x1b[1m\x1b[Ka x b\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn grep_colors_cx_on_context_lines_only() {
    let s = Sandbox::new();
    s.write("a", "x\nctx\n");
    s.grep(&["--color=always", "-A1", "x", "a"])
        .env("GREP_COLORS", "cx=2")
        .expect(
            "\x1b[01;31m\x1b[Kx\x1b[m\x1b[K\nct\x1b[01;31m\x1b[Kx\x1b[m\x1b[K\n",
            "",
            0,
        );
}

#[test]
fn grep_colors_rv_swaps_line_colors_under_dash_v() {
    let s = Sandbox::new();
    s.write("a", "x\nkeep\n");
    s.grep(&["--color=always", "-v", "-B1", "keep", "a"])
        .env("GREP_COLORS", "sl=1:cx=2:rv")
        .expect("\x1b[2m\x1b[Kx\x1b[m\x1b[K\n", "", 0);
}

#[test]
fn grep_colors_rv_with_dash_v_context_matches_use_mc() {
    let s = Sandbox::new();
    s.write("a", "x\nkeep\n");
    s.grep(&["--color=always", "-v", "-B1", "x", "a"])
        .env("GREP_COLORS", "ms=33:mc=34:rv")
        .expect("\x1b[34m\x1b[Kx\x1b[m\x1b[K\nkeep\n", "", 0);
}

#[test]
fn grep_colors_mc_colors_matches_in_context_lines_with_dash_v() {
    let s = Sandbox::new();
    s.write("a", "x\napple\n");
    s.grep(&["--color=always", "-v", "-A1", "x", "a"])
        .env("GREP_COLORS", "mc=35")
        .expect("apple\n", "", 0);
}

#[test]
fn grep_colors_empty_capability_disables_match_color() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=always", "two", "a"])
        .env("GREP_COLORS", "mt=")
        .expect("two\n", "", 0);
}

#[test]
fn grep_colors_invalid_is_ignored() {
    let s = Sandbox::new();
    s.write("a", "one apple\ntwo\napple apple three\n");
    s.grep(&["--color=always", "two", "a"])
        .env("GREP_COLORS", "garbage::mt=xx")
        .expect("\x1b[01;31m\x1b[Ktwo\x1b[m\x1b[K\n", "", 0);
}

/// A sandbox whose file `a` holds the lines `abc1` to `abc12` (63 bytes).
fn twelve_lines() -> Sandbox {
    let s = Sandbox::new();
    let text: String = (1..=12).map(|i| format!("abc{i}\n")).collect();
    s.write("a", &text);
    s
}

/// `-T`: numbers padded to the digits of the file's size plus one with
/// `-n` (12 lines, 63 bytes: 2), a tab before each line's text, none
/// before an empty line's (GNU grep 3.8's output).
#[test]
fn initial_tab_pads_numbers_to_the_file_size_and_tabs_the_text() {
    let s = twelve_lines();
    s.grep(&["-T", "-n", "abc1", "a"]).expect(
        " 1:\tabc1\n10:\tabc10\n11:\tabc11\n12:\tabc12\n",
        "",
        0,
    );
    s.write("e", "a\n\nb\n");
    s.grep(&["-T", "-n", "", "e"])
        .expect("1:\ta\n2:\n3:\tb\n", "", 0);
    s.grep(&["-T", "-n", "-C1", "^$", "e"])
        .expect("1-\ta\n2:\n3-\tb\n", "", 0);
}

/// Each file has its own width: `a` is 63 bytes (2 digits), `b` 9 (1
/// digit for `-b` alone; with `-n`, 9 + 1 lines at most: 2).
#[test]
fn initial_tab_width_is_each_files_own() {
    let s = twelve_lines();
    s.write("b", "abc\nxabc\n");
    s.grep(&["-T", "-b", "abc1", "a", "b"]).expect(
        "a: 0:\tabc1\na:45:\tabc10\na:51:\tabc11\na:57:\tabc12\n",
        "",
        0,
    );
    s.grep(&["-T", "-b", "x", "b"]).expect("4:\txabc\n", "", 0);
    s.grep(&["-T", "-n", "-b", "-o", "b", "b"])
        .expect(" 1: 1:\tb\n 2: 6:\tb\n", "", 0);
    s.grep(&["-T", "-H", "-Z", "x", "b"])
        .expect("b\0\txabc\n", "", 0);
}

/// Without a file name, line number or offset there is nothing to line up;
/// `-c` is not padded.
#[test]
fn initial_tab_without_a_prefix_changes_nothing() {
    let s = Sandbox::new();
    s.write("b", "abc\nxabc\n");
    s.grep(&["-T", "x", "b"]).expect("xabc\n", "", 0);
    s.grep(&["-T", "-c", "abc", "b", "b"])
        .expect("b:2\nb:2\n", "", 0);
}

/// A pipe's size is not known: numbers take the width of the largest
/// 64-bit signed number (19 digits), as GNU grep's.
#[test]
fn initial_tab_on_a_pipe_takes_the_widest_numbers() {
    let s = Sandbox::new();
    let pad = " ".repeat(18);
    s.grep(&["-T", "-n", "x"])
        .stdin("abc\nxabc\n")
        .expect(format!("{pad}2:\txabc\n"), "", 0);
}
