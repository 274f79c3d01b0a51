//! `--files-from` and `--files-from0`: paths read from a list, searched as
//! if they were operands after those on the command line.
//!
//! Expected outputs are GNU grep 3.8's for the same paths given as
//! operands (gpugrep's lists are its own; GNU grep has none).

mod common;

use common::Sandbox;

fn files() -> Sandbox {
    let s = Sandbox::new();
    s.write("a.log", "error one\nfine\n");
    s.write("b.log", "fine\n");
    s.write("with space.log", "error two\n");
    s
}

#[test]
fn listed_paths_are_searched_as_operands() {
    let s = files();
    s.write("list", "a.log\nb.log\nwith space.log\n");
    s.grep(&["--files-from", "list", "error"]).expect(
        "a.log:error one\nwith space.log:error two\n",
        "",
        0,
    );
    s.grep(&["--files-from=list", "-c", "error"]).expect(
        "a.log:1\nb.log:0\nwith space.log:1\n",
        "",
        0,
    );
    s.grep(&["--files-from", "list", "-l", "error"])
        .expect("a.log\nwith space.log\n", "", 0);
}

#[test]
fn one_listed_path_prints_no_name_as_one_operand() {
    let s = files();
    s.write("list", "a.log\n");
    s.grep(&["--files-from", "list", "error"])
        .expect("error one\n", "", 0);
}

#[test]
fn a_missing_listed_file_is_an_error_the_others_still_searched() {
    let s = files();
    s.write("list", "a.log\nnope.log\nwith space.log\n");
    s.grep(&["--files-from", "list", "error"]).expect(
        "a.log:error one\nwith space.log:error two\n",
        "gpugrep: nope.log: No such file or directory\n",
        2,
    );
    s.grep(&["-q", "--files-from", "list", "error"])
        .expect("", "", 0);
}

#[test]
fn operands_come_first_then_each_list_in_order() {
    let s = files();
    s.write("list1", "b.log\n");
    s.write("list0", "with space.log\0");
    s.grep(&[
        "--files-from0",
        "list0",
        "--files-from",
        "list1",
        "-c",
        "error",
        "a.log",
    ])
    .expect("a.log:1\nb.log:0\nwith space.log:1\n", "", 0);
}

#[test]
fn the_nul_form_carries_newlines_in_names() {
    let s = files();
    s.write("new\nline.log", "error three\n");
    s.write("list0", "new\nline.log\0a.log\0");
    s.grep(&["--files-from0", "list0", "-H", "error"]).expect(
        "new\nline.log:error three\na.log:error one\n",
        "",
        0,
    );
    // The line form splits that name in two.
    s.write("list", "new\nline.log\n");
    s.grep(&["--files-from", "list", "error"]).expect(
        "",
        "gpugrep: new: No such file or directory\ngpugrep: line.log: No such file or directory\n",
        2,
    );
}

#[test]
fn empty_lines_are_skipped_and_spaces_kept() {
    let s = files();
    s.write(" a.log", "error lead\n");
    s.write("list", "\n a.log\n\nb.log\n");
    s.grep(&["--files-from", "list", "error"])
        .expect(" a.log:error lead\n", "", 0);
}

#[test]
fn the_list_can_come_from_standard_input() {
    let s = files();
    s.grep(&["--files-from", "-", "error"])
        .stdin("b.log\nwith space.log\n")
        .expect("with space.log:error two\n", "", 0);
    s.grep(&["--files-from0", "-", "error"])
        .stdin("a.log\0")
        .expect("error one\n", "", 0);
}

#[test]
fn an_empty_list_searches_nothing_not_standard_input() {
    let s = files();
    s.write("list", "");
    s.grep(&["--files-from", "list", "error"])
        .stdin("error in stdin\n")
        .expect("", "", 1);
}

#[test]
fn a_missing_list_is_an_error_before_searching() {
    let s = files();
    s.grep(&["--files-from", "nolist", "error", "a.log"])
        .expect("", "gpugrep: nolist: No such file or directory\n", 2);
}

#[test]
fn standard_input_cannot_be_the_list_and_the_patterns() {
    let s = files();
    s.grep(&["--files-from", "-", "-f", "-"])
        .stdin("a.log\n")
        .expect(
            "",
            "gpugrep: standard input cannot be both a file list (--files-from -) and a pattern file (-f -)\n",
            2,
        );
    s.grep(&["--files-from", "-", "--files-from0", "-", "x"])
        .expect(
            "",
            "gpugrep: standard input can be only one file list (--files-from -)\n",
            2,
        );
}

#[test]
fn listed_directories_follow_the_operand_rules() {
    let s = files();
    s.write("d/c.log", "error deep\n");
    s.write("list", "d\n");
    s.grep(&["--files-from", "list", "error"])
        .expect("", "gpugrep: d: Is a directory\n", 2);
    s.grep(&["-r", "--files-from", "list", "error"])
        .expect("d/c.log:error deep\n", "", 0);
}

#[test]
fn listed_compressed_files_with_decompress() {
    let s = files();
    s.write("z.gz", common::compress("gz", b"error zipped\n"));
    s.write("list", "z.gz\na.log\n");
    s.grep(&["--decompress", "--files-from", "list", "error"])
        .expect("z.gz:error zipped\na.log:error one\n", "", 0);
}

#[test]
fn shards_merge_into_the_same_json_matches() {
    let s = files();
    s.write("list", "a.log\nb.log\nwith space.log\n");
    s.write("shard1", "a.log\n");
    s.write("shard2", "b.log\nwith space.log\n");
    let matches = |args: &[&str]| -> Vec<String> {
        let out = s.grep(args).run();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with(r#"{"type":"match""#))
            .map(str::to_string)
            .collect()
    };
    let whole = matches(&["--json", "--files-from", "list", "error"]);
    let mut sharded = matches(&["--json", "--files-from", "shard1", "error"]);
    sharded.extend(matches(&["--json", "--files-from", "shard2", "error"]));
    assert_eq!(whole.len(), 2);
    assert_eq!(whole, sharded);
}
