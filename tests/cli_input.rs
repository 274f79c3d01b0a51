//! Inputs: standard input (`-` and no operand), several files, -r and -R
//! (links, operands, no operand), --include/--exclude/--exclude-dir,
//! --gitignore, -z records.
//!
//! Expected outputs are GNU grep 3.8's (LC_ALL=C.UTF-8), hard-coded; where
//! gpugrep deliberately differs, the test says so in its name and comment.

mod common;

use common::Sandbox;

#[test]
fn stdin_without_operand() {
    let s = Sandbox::new();
    s.grep(&["b"]).stdin("a\nb\n").expect("b\n", "", 0);
}

#[test]
fn stdin_as_dash_operand() {
    let s = Sandbox::new();
    s.grep(&["b", "-"]).stdin("a\nb\n").expect("b\n", "", 0);
}

#[test]
fn stdin_dash_with_files_names_standard_input() {
    let s = Sandbox::new();
    s.write("f", "b file\n");
    s.grep(&["b", "f", "-"])
        .stdin("a\nb\n")
        .expect("f:b file\n(standard input):b\n", "", 0);
}

#[test]
fn stdin_empty() {
    let s = Sandbox::new();
    s.grep(&["b"]).stdin("").expect("", "", 1);
}

#[test]
fn stdin_without_final_newline() {
    let s = Sandbox::new();
    s.grep(&["-n", "b"]).stdin("a\nb").expect("2:b\n", "", 0);
}

#[test]
fn stdin_dash_given_twice_is_read_in_order_second_is_empty() {
    let s = Sandbox::new();
    s.grep(&["-c", "b", "-", "-"]).stdin("b\n").expect(
        "(standard input):1\n(standard input):0\n",
        "",
        0,
    );
}

#[test]
fn two_files_prefix_names() {
    let s = Sandbox::new();
    s.write("x", "b\n");
    s.write("y", "b b\n");
    s.grep(&["b", "x", "y"]).expect("x:b\ny:b b\n", "", 0);
}

#[test]
fn same_file_twice_is_searched_twice() {
    let s = Sandbox::new();
    s.write("x", "b\n");
    s.grep(&["b", "x", "x"]).expect("x:b\nx:b\n", "", 0);
}

#[test]
fn file_without_final_newline_gets_newline() {
    let s = Sandbox::new();
    s.write("x", "a\nb");
    s.grep(&["b", "x"]).expect("b\n", "", 0);
}

#[test]
fn file_names_with_spaces_and_colons() {
    let s = Sandbox::new();
    s.write("a b:c", "hit\n");
    s.grep(&["-H", "hit", "a b:c"]).expect("a b:c:hit\n", "", 0);
}

#[test]
fn file_in_subdirectory_operand_keeps_path() {
    let s = Sandbox::new();
    s.write("d/x", "hit\n");
    s.grep(&["-H", "hit", "d/x"]).expect("d/x:hit\n", "", 0);
}

#[test]
fn dot_slash_operand_keeps_prefix() {
    let s = Sandbox::new();
    s.write("x", "hit\n");
    s.grep(&["-H", "hit", "./x"]).expect("./x:hit\n", "", 0);
}

#[test]
fn dash_r_without_operand_searches_cwd_without_dot_slash() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "hit"]).expect(
        "d/a.txt:hit a\nd/b.log:hit b\nd/sub/c.txt:hit c\ntop.txt:hit top\n",
        "",
        0,
    );
}

#[test]
fn dash_r_with_dot_operand_keeps_dot_slash() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "hit", "."]).expect(
        "./d/a.txt:hit a\n./d/b.log:hit b\n./d/sub/c.txt:hit c\n./top.txt:hit top\n",
        "",
        0,
    );
}

#[test]
fn dash_r_with_directory_operand() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "hit", "d"])
        .expect("d/a.txt:hit a\nd/b.log:hit b\nd/sub/c.txt:hit c\n", "", 0);
}

#[test]
fn dash_r_with_directory_operand_trailing_slash() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "hit", "d/"])
        .expect("d/a.txt:hit a\nd/b.log:hit b\nd/sub/c.txt:hit c\n", "", 0);
}

#[test]
fn dash_r_with_file_operand_has_no_name_prefix() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "hit", "top.txt"]).expect("hit top\n", "", 0);
}

#[test]
fn dash_r_with_file_and_directory_operands() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "hit", "top.txt", "d/sub"]).expect(
        "top.txt:hit top\nd/sub/c.txt:hit c\n",
        "",
        0,
    );
}

#[test]
fn dash_r_sorted_by_name_within_directories() {
    let s = Sandbox::new();
    s.write("d/b", "hit\n");
    s.write("d/a", "hit\n");
    s.write("d/C", "hit\n");
    s.write("d/a.d/x", "hit\n");
    // Deliberate: entries are sorted by name (bytewise); GNU grep uses directory order.
    s.grep(&["-r", "hit", "d"])
        .expect("d/C:hit\nd/a:hit\nd/a.d/x:hit\nd/b:hit\n", "", 0);
}

#[test]
fn dash_r_dash_h_omits_names() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "-h", "hit", "d/sub"])
        .expect("hit c\n", "", 0);
}

#[test]
fn dash_r_dash_c_counts_per_file() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "-c", "hit", "d/sub"])
        .expect("d/sub/c.txt:1\nd/sub/miss.txt:0\n", "", 0);
}

#[test]
fn dash_r_dash_l() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "-l", "hit", "d"])
        .expect("d/a.txt\nd/b.log\nd/sub/c.txt\n", "", 0);
}

#[test]
fn dash_r_dash_capital_l() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "-L", "hit", "d"])
        .expect("d/sub/miss.txt\n", "", 0);
}

#[test]
fn dash_r_with_dash_stdin_operand() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "hit", "-"])
        .stdin("hit in\n")
        .expect("hit in\n", "", 0);
}

#[test]
fn dash_r_without_operand_in_subdirectory() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "hit"])
        .current_dir("d/sub")
        .expect("c.txt:hit c\n", "", 0);
}

#[test]
fn dash_r_empty_directory_exits_1() {
    let s = Sandbox::new();
    s.dir("e");
    s.grep(&["-r", "hit", "e"]).expect("", "", 1);
}

#[test]
fn dash_r_hidden_files_are_searched() {
    let s = Sandbox::new();
    s.write("d/.hidden", "hit\n");
    s.grep(&["-r", "hit", "d"]).expect("d/.hidden:hit\n", "", 0);
}

#[test]
fn dash_r_does_not_follow_symlink_to_file_inside_directory() {
    let s = Sandbox::new();
    s.write("d/real", "hit\n");
    s.symlink("real", "d/link");
    s.grep(&["-r", "hit", "d"]).expect("d/real:hit\n", "", 0);
}

#[test]
fn dash_r_does_not_follow_symlink_to_directory_inside() {
    let s = Sandbox::new();
    s.write("t/x", "hit\n");
    s.write("d/real", "hit\n");
    s.symlink("../t", "d/ln");
    s.grep(&["-r", "hit", "d"]).expect("d/real:hit\n", "", 0);
}

#[test]
fn dash_r_follows_symlink_operand() {
    let s = Sandbox::new();
    s.write("t/x", "hit\n");
    s.symlink("t", "ln");
    s.grep(&["-r", "hit", "ln"]).expect("ln/x:hit\n", "", 0);
}

#[test]
fn dash_capital_r_follows_symlinks_inside_directories() {
    let s = Sandbox::new();
    s.write("t/x", "hit\n");
    s.write("d/real", "hit\n");
    s.symlink("real", "d/link");
    s.symlink("../t", "d/ln");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-R", "hit", "d"])
        .expect("d/link:hit\nd/ln/x:hit\nd/real:hit\n", "", 0);
}

#[test]
fn dash_capital_r_dangling_symlink_reports_error() {
    let s = Sandbox::new();
    s.write("d/real", "hit\n");
    s.symlink("nowhere", "d/bad");
    s.grep(&["-R", "hit", "d"]).expect(
        "d/real:hit\n",
        "gpugrep: d/bad: No such file or directory\n",
        2,
    );
}

#[test]
fn dash_capital_r_symlink_loop_reports_error() {
    let s = Sandbox::new();
    s.write("d/real", "hit\n");
    s.symlink("loop", "d/loop");
    s.grep(&["-R", "hit", "d"]).expect(
        "d/real:hit\n",
        "gpugrep: d/loop: Too many levels of symbolic links\n",
        2,
    );
}

#[test]
fn dash_r_dangling_symlink_inside_is_skipped_silently() {
    let s = Sandbox::new();
    s.write("d/real", "hit\n");
    s.symlink("nowhere", "d/bad");
    s.grep(&["-r", "hit", "d"]).expect("d/real:hit\n", "", 0);
}

#[test]
fn include_selects_matching_base_names() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "--include=*.txt", "hit", "d"]).expect(
        "d/a.txt:hit a\nd/sub/c.txt:hit c\n",
        "",
        0,
    );
}

#[test]
fn include_several_globs() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--include=*.log", "--include=c.*", "hit", "d"])
        .expect("d/b.log:hit b\nd/sub/c.txt:hit c\n", "", 0);
}

#[test]
fn exclude_skips_matching_base_names() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--exclude=*.txt", "hit", "d"])
        .expect("d/b.log:hit b\n", "", 0);
}

#[test]
fn exclude_dir_skips_directories() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "--exclude-dir=sub", "hit", "d"]).expect(
        "d/a.txt:hit a\nd/b.log:hit b\n",
        "",
        0,
    );
}

#[test]
fn exclude_dir_glob() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "--exclude-dir=s*", "hit"]).expect(
        "d/a.txt:hit a\nd/b.log:hit b\ntop.txt:hit top\n",
        "",
        0,
    );
}

#[test]
fn exclude_dir_does_not_apply_to_files() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Files inside directories come in name order (GNU grep: directory order).
    s.grep(&["-r", "--exclude-dir=*.txt", "hit", "d"]).expect(
        "d/a.txt:hit a\nd/b.log:hit b\nd/sub/c.txt:hit c\n",
        "",
        0,
    );
}

#[test]
fn include_does_not_apply_to_directories() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--include=a*", "hit", "d"])
        .expect("d/a.txt:hit a\n", "", 0);
}

#[test]
fn include_applies_to_file_operands() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["--include=*.log", "hit", "top.txt", "d/b.log"])
        .expect("d/b.log:hit b\n", "", 0);
}

#[test]
fn exclude_applies_to_file_operands() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["--exclude=*.log", "hit", "top.txt", "d/b.log"])
        .expect("top.txt:hit top\n", "", 0);
}

#[test]
fn exclude_with_directory_operand_path_pattern() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["--exclude=d/b.log", "hit", "top.txt", "d/b.log"])
        .expect("top.txt:hit top\n", "", 0);
}

#[test]
fn exclude_dir_on_operand_directory() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--exclude-dir=d", "hit", "d"])
        .expect("", "", 1);
}

#[test]
fn exclude_dir_does_not_skip_dot_operand() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--exclude-dir=.", "hit", "."])
        .expect("", "", 1);
}

#[test]
fn include_and_exclude_exclude_wins() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--include=*.txt", "--exclude=a*", "hit", "d"])
        .expect("d/sub/c.txt:hit c\n", "", 0);
}

#[test]
fn include_after_exclude_excluded_if_any_exclude_matches() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    // Deliberate: excluded when any --exclude matches, and with an --include only
    // files it matches are searched, whatever the order. GNU grep 3.8 prints
    // d/b.log, d/sub/c.txt and d/a.txt here (the same as ours when --include comes first).
    s.grep(&["-r", "--exclude=a*", "--include=*.txt", "hit", "d"])
        .expect("d/sub/c.txt:hit c\n", "", 0);
}

#[test]
fn include_before_exclude_same_as_gnu() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--include=*.txt", "--exclude=a*", "hit", "d"])
        .expect("d/sub/c.txt:hit c\n", "", 0);
}

#[test]
fn exclude_character_class_glob() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--exclude=[ab].*", "hit", "d"])
        .expect("d/sub/c.txt:hit c\n", "", 0);
}

#[test]
fn include_question_mark_glob() {
    let s = Sandbox::new();
    s.write("top.txt", "hit top\n");
    s.write("d/a.txt", "hit a\n");
    s.write("d/b.log", "hit b\n");
    s.write("d/sub/c.txt", "hit c\n");
    s.write("d/sub/miss.txt", "nothing\n");
    s.grep(&["-r", "--include=?.log", "hit", "d"])
        .expect("d/b.log:hit b\n", "", 0);
}

#[test]
fn include_without_recursion_on_stdin() {
    let s = Sandbox::new();
    s.grep(&["--include=*.txt", "x"])
        .stdin("x\n")
        .expect("x\n", "", 0);
}

#[test]
fn gitignore_is_ignored_without_flag() {
    let s = Sandbox::new();
    s.write(".gitignore", "*.log\nsub/\n");
    s.write("d/a.txt", "hit\n");
    s.write("d/b.log", "hit\n");
    s.write("sub/c", "hit\n");
    // Without --gitignore a .gitignore is just a file.
    s.grep(&["-r", "hit"])
        .expect("d/a.txt:hit\nd/b.log:hit\nsub/c:hit\n", "", 0);
}

#[test]
fn gitignore_flag_excludes_ignored_files() {
    let s = Sandbox::new();
    s.write(".gitignore", "*.log\nsub/\n");
    s.write("d/a.txt", "hit\n");
    s.write("d/b.log", "hit\n");
    s.write("sub/c", "hit\n");
    // gpugrep's own option.
    s.grep(&["-r", "--gitignore", "hit"])
        .expect("d/a.txt:hit\n", "", 0);
    // the same tree without the flag
    s.grep(&["-r", "hit"])
        .expect("d/a.txt:hit\nd/b.log:hit\nsub/c:hit\n", "", 0);
}

#[test]
fn gitignore_negation_reincludes() {
    let s = Sandbox::new();
    s.write(".gitignore", "*.log\n!keep.log\n");
    s.write("a.log", "hit\n");
    s.write("keep.log", "hit\n");
    // gpugrep's own option.
    s.grep(&["-r", "--gitignore", "hit"])
        .expect("keep.log:hit\n", "", 0);
}

#[test]
fn gitignore_nested_file_applies_below_it() {
    let s = Sandbox::new();
    s.write("d/.gitignore", "x*\n");
    s.write("d/x1", "hit\n");
    s.write("d/y1", "hit\n");
    s.write("x2", "hit\n");
    // gpugrep's own option.
    s.grep(&["-r", "--gitignore", "hit"])
        .expect("d/y1:hit\nx2:hit\n", "", 0);
}

#[test]
fn dash_z_records_are_nul_terminated() {
    let s = Sandbox::new();
    s.write("a", "one\0two\nlines\0three\0");
    s.grep(&["-z", "t"]).expect("", "", 1);
}

#[test]
fn dash_z_output_records_end_with_nul() {
    let s = Sandbox::new();
    s.write("a", "one\0two\0");
    s.grep(&["-z", "two", "a"]).expect("two\0", "", 0);
}

#[test]
fn dash_z_newline_is_ordinary_byte() {
    let s = Sandbox::new();
    s.write("a", "a\nb\0c\0");
    s.grep(&["-z", "-c", "a.b", "a"]).expect("1\n", "", 0);
}

#[test]
fn dash_z_dollar_anchor_at_record_end() {
    let s = Sandbox::new();
    s.write("a", "ab\nab\0ab\0");
    s.grep(&["-z", "b$", "a"]).expect("ab\nab\0ab\0", "", 0);
}

#[test]
fn dash_z_caret_anchor() {
    let s = Sandbox::new();
    s.write("a", "ab\nab\0ab\0");
    s.grep(&["-z", "-c", "^a", "a"]).expect("2\n", "", 0);
}

#[test]
fn dash_z_last_record_without_terminator() {
    let s = Sandbox::new();
    s.write("a", "one\0two");
    s.grep(&["-z", "two", "a"]).expect("two\0", "", 0);
}

#[test]
fn dash_z_with_dash_n_and_context() {
    let s = Sandbox::new();
    s.write("a", "a\0m\0b\0c\0m\0");
    s.grep(&["-z", "-n", "-A1", "m", "a"])
        .expect("2:m\x003-b\0--\n5:m\0", "", 0);
}

#[test]
fn dash_z_with_dash_o() {
    let s = Sandbox::new();
    s.write("a", "xay\0a\0");
    s.grep(&["-z", "-o", "a", "a"]).expect("a\0a\0", "", 0);
}

#[test]
fn dash_z_with_dash_c_prints_newline_terminated_count() {
    let s = Sandbox::new();
    s.write("a", "x\0x\0");
    s.grep(&["-z", "-c", "x", "a"]).expect("2\n", "", 0);
}

#[test]
fn dash_z_with_dash_l_names_end_with_newline() {
    let s = Sandbox::new();
    s.write("a", "x\0");
    s.write("b", "x\0");
    s.grep(&["-z", "-l", "x", "a", "b"]).expect("a\nb\n", "", 0);
}

#[test]
fn dash_z_input_without_nul_is_one_record() {
    let s = Sandbox::new();
    s.write("a", "x\ny\n");
    s.grep(&["-z", "y", "a"]).expect("x\ny\n\0", "", 0);
}

#[test]
fn dash_z_with_dash_v() {
    let s = Sandbox::new();
    s.write("a", "a\0b\0c\0");
    s.grep(&["-z", "-v", "b", "a"]).expect("a\0c\0", "", 0);
}

#[test]
fn dash_z_from_stdin() {
    let s = Sandbox::new();
    s.grep(&["-z", "b"]).stdin("a\0b\0").expect("b\0", "", 0);
}

#[test]
fn dash_z_with_dash_x() {
    let s = Sandbox::new();
    s.write("a", "ab\0a\0");
    s.grep(&["-z", "-x", "a", "a"]).expect("a\0", "", 0);
}

#[test]
fn dash_d_skip_passes_over_directory_operands_silently() {
    let s = Sandbox::new();
    s.write("d/f", "foo\n");
    s.write("f1", "foo\n");
    s.grep(&["-d", "skip", "foo", "d", "f1"])
        .expect("f1:foo\n", "", 0);
}

#[test]
fn dash_d_recurse_is_dash_r() {
    let s = Sandbox::new();
    s.write("d/f", "foo\n");
    s.grep(&["--directories=recurse", "foo", "d"])
        .expect("d/f:foo\n", "", 0);
}

#[test]
fn dash_d_with_an_unknown_action_is_a_usage_error() {
    let s = Sandbox::new();
    s.write("f1", "foo\n");
    s.grep(&["-d", "jump", "foo", "f1"]).expect(
        "",
        "gpugrep: jump: invalid argument for --directories (read, skip or recurse)\n",
        2,
    );
}

#[test]
fn dash_capital_d_skip_passes_over_devices() {
    let s = Sandbox::new();
    s.write("f1", "foo\n");
    s.grep(&["-D", "skip", "-c", "foo", "/dev/null", "f1"])
        .expect("f1:1\n", "", 0);
}

#[test]
fn unambiguous_long_option_prefixes_are_accepted_as_in_gnu_grep() {
    let s = Sandbox::new();
    s.write("f1", "Foo\n");
    s.grep(&["--ignore", "--line-n", "foo", "f1"])
        .expect("1:Foo\n", "", 0);
    let out = s.grep(&["--nu", "foo", "f1"]).run();
    assert_eq!(out.code, 2, "ambiguous: --null or --null-data");
    // GNU's getopt names the possibilities (in its own table's order).
    let first = out.stderr.lines().next().unwrap_or("");
    assert!(
        first.starts_with("gpugrep: option '--nu' is ambiguous; possibilities: ")
            && first.contains("'--null'")
            && first.contains("'--null-data'"),
        "{first}"
    );
}

#[test]
fn exclude_from_reads_globs_from_a_file() {
    let s = Sandbox::new();
    s.write("d/a.log", "foo\n");
    s.write("d/b.txt", "foo\n");
    s.write("d/c.md", "foo\n");
    s.write("globs", "*.log\n\n*.md\n");
    s.grep(&["-r", "--exclude-from=globs", "foo", "d"])
        .expect("d/b.txt:foo\n", "", 0);
}

#[test]
fn exclude_from_a_missing_file_is_an_error() {
    let s = Sandbox::new();
    s.write("f", "foo\n");
    s.grep(&["--exclude-from=nope", "foo", "f"]).expect(
        "",
        "gpugrep: nope: No such file or directory\n",
        2,
    );
}

/// A file found in a tree and larger than what is read whole (256 KiB) is
/// read again from its start as a stream: its first lines, a line across
/// the first read's end, and its byte-order mark must all be seen once.
#[test]
fn large_file_in_tree_is_streamed_from_its_start() {
    let s = Sandbox::new();
    let mut text = String::from("\u{feff}hit first\n");
    while text.len() < 262_140 {
        text.push_str("filler line\n");
    }
    text.push_str("a long hit across the first read\n");
    while text.len() < 600_000 {
        text.push_str("filler line\n");
    }
    text.push_str("hit last\n");
    s.write("d/big", &text);
    let lines = text.lines().count();
    let across = text.lines().position(|l| l.starts_with("a long")).unwrap() + 1;
    let expected = format!(
        "d/big:1:hit first\nd/big:{across}:a long hit across the first read\nd/big:{lines}:hit last\n"
    );
    s.grep(&["-r", "-n", "hit", "d"]).expect(&expected, "", 0);
    s.grep(&["-r", "-c", "-j2", "hit", "d"])
        .expect("d/big:3\n", "", 0);
}
