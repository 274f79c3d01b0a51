//! Context: -A -B -C, group separators (--group-separator,
//! --no-group-separator), overlapping groups, -v and -m with context,
//! separators between files.
//!
//! Expected outputs are GNU grep 3.8's (LC_ALL=C.UTF-8), hard-coded.

mod common;

use common::Sandbox;

#[test]
fn dash_a_capital_prints_trailing_context() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-A", "2", "l3", "a"])
        .expect("l3\nl4\nl5\n", "", 0);
}

#[test]
fn dash_b_capital_prints_leading_context() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-B", "2", "l3", "a"])
        .expect("l1\nl2\nl3\n", "", 0);
}

#[test]
fn dash_c_capital_prints_both_sides() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-C", "1", "l5", "a"])
        .expect("l4\nl5\nl6\n", "", 0);
}

#[test]
fn context_with_line_numbers_uses_dash_for_context_lines() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-n", "-C", "1", "l5", "a"])
        .expect("4-l4\n5:l5\n6-l6\n", "", 0);
}

#[test]
fn context_with_byte_offsets() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-b", "-C", "1", "l5", "a"])
        .expect("9-l4\n12:l5\n15-l6\n", "", 0);
}

#[test]
fn context_with_filename_uses_dash_separator() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.write("b", "x\n");
    s.grep(&["-C", "1", "l5", "a", "b"])
        .expect("a-l4\na:l5\na-l6\n", "", 0);
}

#[test]
fn context_with_dash_z_capital_name_then_nul() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.write("b", "x\n");
    s.grep(&["-Z", "-n", "-A", "1", "l5", "a", "b"])
        .expect("a\x005:l5\na\x006-l6\n", "", 0);
}

#[test]
fn non_adjacent_groups_separated_by_double_dash() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-A", "1", "-e", "l2", "-e", "l7", "a"])
        .expect("l2\nl3\n--\nl7\nl8\n", "", 0);
}

#[test]
fn adjacent_groups_merge_without_separator() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-A", "1", "-e", "l2", "-e", "l4", "a"])
        .expect("l2\nl3\nl4\nl5\n", "", 0);
}

#[test]
fn overlapping_groups_merge() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-C", "2", "-e", "l3", "-e", "l6", "a"]).expect(
        "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n",
        "",
        0,
    );
}

#[test]
fn groups_one_line_apart_are_separated() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-C", "1", "-e", "l3", "-e", "l7", "a"])
        .expect("l2\nl3\nl4\n--\nl6\nl7\nl8\n", "", 0);
}

#[test]
fn consecutive_matches_with_context() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-n", "-C", "1", "-e", "l4", "-e", "l5", "a"])
        .expect("3-l3\n4:l4\n5:l5\n6-l6\n", "", 0);
}

#[test]
fn leading_context_at_start_of_file_is_truncated() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-B", "3", "l2", "a"]).expect("l1\nl2\n", "", 0);
}

#[test]
fn trailing_context_at_end_of_file_is_truncated() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-A", "3", "l9", "a"]).expect("l9\nl10\n", "", 0);
}

#[test]
fn trailing_context_on_last_line_without_newline() {
    let s = Sandbox::new();
    s.write("a", "x\nlast");
    s.grep(&["-A", "1", "x", "a"]).expect("x\nlast\n", "", 0);
}

#[test]
fn dash_a_zero_prints_separators_between_groups() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-A", "0", "-e", "l2", "-e", "l5", "a"])
        .expect("l2\n--\nl5\n", "", 0);
}

#[test]
fn dash_a_zero_adjacent_matches_no_separator() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-A", "0", "-e", "l2", "-e", "l3", "a"])
        .expect("l2\nl3\n", "", 0);
}

#[test]
fn dash_c_zero_separators_between_files() {
    let s = Sandbox::new();
    s.write("a", "m\n");
    s.write("b", "m\n");
    s.grep(&["-C", "0", "m", "a", "b"])
        .expect("a:m\n--\nb:m\n", "", 0);
}

#[test]
fn group_separator_custom_string() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&[
        "--group-separator=XX",
        "-A",
        "1",
        "-e",
        "l2",
        "-e",
        "l7",
        "a",
    ])
    .expect("l2\nl3\nXX\nl7\nl8\n", "", 0);
}

#[test]
fn group_separator_empty_prints_empty_line() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["--group-separator=", "-A", "1", "-e", "l2", "-e", "l7", "a"])
        .expect("l2\nl3\n\nl7\nl8\n", "", 0);
}

#[test]
fn no_group_separator_omits_separator() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&[
        "--no-group-separator",
        "-A",
        "1",
        "-e",
        "l2",
        "-e",
        "l7",
        "a",
    ])
    .expect("l2\nl3\nl7\nl8\n", "", 0);
}

#[test]
fn group_separator_without_context_is_not_printed() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["--group-separator=XX", "-e", "l2", "-e", "l7", "a"])
        .expect("l2\nl7\n", "", 0);
}

#[test]
fn group_separator_between_files() {
    let s = Sandbox::new();
    s.write("a", "m\nx\n");
    s.write("b", "y\nm\n");
    s.grep(&["-A", "1", "m", "a", "b"])
        .expect("a:m\na-x\n--\nb:m\n", "", 0);
}

#[test]
fn group_separator_between_files_even_if_adjacent() {
    let s = Sandbox::new();
    s.write("a", "m\n");
    s.write("b", "m\n");
    s.grep(&["-B", "1", "m", "a", "b"])
        .expect("a:m\n--\nb:m\n", "", 0);
}

#[test]
fn no_separator_before_first_file_with_output() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.write("b", "m\n");
    s.write("c", "m\n");
    s.grep(&["-C", "1", "m", "a", "b", "c"])
        .expect("b:m\n--\nc:m\n", "", 0);
}

#[test]
fn separator_between_files_skips_files_without_output() {
    let s = Sandbox::new();
    s.write("a", "m\n");
    s.write("b", "x\n");
    s.write("c", "m\n");
    s.grep(&["-C", "1", "m", "a", "b", "c"])
        .expect("a:m\n--\nc:m\n", "", 0);
}

#[test]
fn group_separator_between_stdin_and_file() {
    let s = Sandbox::new();
    s.write("a", "m\n");
    s.grep(&["-A", "1", "m", "-", "a"]).stdin("m\nq\n").expect(
        "(standard input):m\n(standard input)-q\n--\na:m\n",
        "",
        0,
    );
}

#[test]
fn dash_v_with_context() {
    let s = Sandbox::new();
    s.write("a", "a\nb\nx\nx\nx\nx\nc\n");
    s.grep(&["-v", "-n", "-A", "1", "x", "a"])
        .expect("1:a\n2:b\n3-x\n--\n7:c\n", "", 0);
}

#[test]
fn dash_v_with_leading_context() {
    let s = Sandbox::new();
    s.write("a", "x\nx\nx\nc\nx\nx\n");
    s.grep(&["-v", "-n", "-B", "1", "x", "a"])
        .expect("3-x\n4:c\n", "", 0);
}

#[test]
fn dash_m_with_trailing_context_prints_context_after_last() {
    let s = Sandbox::new();
    s.write("a", "x1\nc1\nx2\nc2\nx3\n");
    s.grep(&["-m", "1", "-A", "2", "x", "a"])
        .expect("x1\nc1\nx2\n", "", 0);
}

#[test]
fn dash_m_trailing_context_stops_before_next_match() {
    let s = Sandbox::new();
    s.write("a", "x1\nx2\nc\n");
    s.grep(&["-m", "1", "-A", "2", "x", "a"])
        .expect("x1\nx2\nc\n", "", 0);
}

#[test]
fn dash_m_with_leading_context() {
    let s = Sandbox::new();
    s.write("a", "c0\nx1\nc1\nx2\n");
    s.grep(&["-m", "1", "-B", "1", "-A", "1", "x", "a"])
        .expect("c0\nx1\nc1\n", "", 0);
}

#[test]
fn dash_m_with_context_several_files() {
    let s = Sandbox::new();
    s.write("a", "x1\nc1\nx2\n");
    s.write("b", "x3\nc3\n");
    s.grep(&["-m", "1", "-A", "1", "x", "a", "b"])
        .expect("a:x1\na-c1\n--\nb:x3\nb-c3\n", "", 0);
}

#[test]
fn context_ignored_with_dash_c() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-c", "-C", "2", "l5", "a"]).expect("1\n", "", 0);
}

#[test]
fn context_ignored_with_dash_l() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-l", "-C", "2", "l5", "a"]).expect("a\n", "", 0);
}

#[test]
fn context_with_dash_o_prints_separators_only() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-o", "-C", "1", "-e", "l2", "-e", "l8", "a"])
        .expect("l2\n--\nl8\n", "", 0);
}

#[test]
fn context_on_stdin() {
    let s = Sandbox::new();
    s.grep(&["-n", "-C", "1", "b"])
        .stdin("a\nb\nc\nd\n")
        .expect("1-a\n2:b\n3-c\n", "", 0);
}

#[test]
fn context_long_options() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["--before-context=1", "--after-context=1", "l5", "a"])
        .expect("l4\nl5\nl6\n", "", 0);
}

#[test]
fn dash_a_and_dash_c_last_specific_wins() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-A", "0", "-C", "2", "l5", "a"])
        .expect("l3\nl4\nl5\n", "", 0);
}

#[test]
fn dash_c_then_dash_a_overrides_after_only() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["-C", "2", "-A", "0", "l5", "a"])
        .expect("l3\nl4\nl5\n", "", 0);
}

#[test]
fn context_with_crlf_lines() {
    let s = Sandbox::new();
    s.write("a", "a\r\nm\r\nb\r\n");
    s.grep(&["-C", "1", "m", "a"])
        .expect("a\r\nm\r\nb\r\n", "", 0);
}

#[test]
fn context_with_empty_lines() {
    let s = Sandbox::new();
    s.write("a", "\n\nm\n\n\n");
    s.grep(&["-n", "-C", "1", "m", "a"])
        .expect("2-\n3:m\n4-\n", "", 0);
}

#[test]
fn context_separator_colored() {
    let s = Sandbox::new();
    s.write("a", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
    s.grep(&["--color=always", "-n", "-A", "1", "-e", "l2", "-e", "l7", "a"])
        .expect("\x1b[32m\x1b[K2\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kl2\x1b[m\x1b[K\n\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Kl3\n\x1b[36m\x1b[K--\x1b[m\x1b[K\n\x1b[32m\x1b[K7\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kl7\x1b[m\x1b[K\n\x1b[32m\x1b[K8\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Kl8\n", "", 0);
}
