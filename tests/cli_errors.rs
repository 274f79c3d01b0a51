//! Errors and exit statuses: missing files, directories, invalid regexes,
//! bad option values, --engine, a closed stdout, very long lines.
//!
//! Expected outputs are GNU grep 3.8's (LC_ALL=C.UTF-8), hard-coded; where
//! gpugrep deliberately differs (regex error texts, clap's usage errors,
//! back-references), the test says so in its name and comment.

mod common;

use common::{Cmd, Sandbox};
use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

#[test]
fn missing_file_message_and_exit_2() {
    let s = Sandbox::new();
    s.grep(&["x", "missing"])
        .expect("", "gpugrep: missing: No such file or directory\n", 2);
}

#[test]
fn missing_file_other_files_still_searched() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.write("c", "x\n");
    s.grep(&["x", "a", "missing", "c"]).expect(
        "a:x\nc:x\n",
        "gpugrep: missing: No such file or directory\n",
        2,
    );
}

#[test]
fn missing_file_and_no_match_elsewhere_exits_2() {
    let s = Sandbox::new();
    s.write("a", "y\n");
    s.grep(&["x", "a", "missing"])
        .expect("", "gpugrep: missing: No such file or directory\n", 2);
}

#[test]
fn missing_file_in_subdirectory_path() {
    let s = Sandbox::new();
    s.grep(&["x", "nodir/f"])
        .expect("", "gpugrep: nodir/f: No such file or directory\n", 2);
}

#[test]
fn missing_file_with_dash_l_still_lists_others() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-l", "x", "missing", "a"]).expect(
        "a\n",
        "gpugrep: missing: No such file or directory\n",
        2,
    );
}

#[test]
fn missing_file_with_dash_c() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-c", "x", "missing", "a"]).expect(
        "a:1\n",
        "gpugrep: missing: No such file or directory\n",
        2,
    );
}

#[test]
fn dash_s_hides_missing_file_message() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-s", "x", "missing", "a"]).expect("a:x\n", "", 2);
}

#[test]
fn directory_without_dash_r_is_a_directory() {
    let s = Sandbox::new();
    s.write("d/f", "x\n");
    s.grep(&["x", "d"])
        .expect("", "gpugrep: d: Is a directory\n", 2);
}

#[test]
fn directory_without_dash_r_others_searched() {
    let s = Sandbox::new();
    s.write("d/f", "x\n");
    s.write("a", "x\n");
    s.grep(&["x", "d", "a"])
        .expect("a:x\n", "gpugrep: d: Is a directory\n", 2);
}

#[test]
fn directory_without_dash_r_dash_s_silent() {
    let s = Sandbox::new();
    s.write("d/f", "x\n");
    s.grep(&["-s", "x", "d"]).expect("", "", 2);
}

#[test]
fn missing_pattern_file_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-f", "nofile", "a"])
        .expect("", "gpugrep: nofile: No such file or directory\n", 2);
}

#[test]
fn missing_pattern_file_with_other_pattern_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-e", "x", "-f", "nofile", "a"]).expect(
        "",
        "gpugrep: nofile: No such file or directory\n",
        2,
    );
}

#[test]
fn invalid_max_count_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-m", "x", "x", "a"])
        .expect("", "gpugrep: invalid max count\n", 2);
}

#[test]
fn invalid_after_context_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-A", "x", "x", "a"])
        .expect("", "gpugrep: x: invalid context length argument\n", 2);
}

#[test]
fn negative_after_context_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-A", "-1", "x", "a"])
        .expect("", "gpugrep: -1: invalid context length argument\n", 2);
}

#[test]
fn invalid_before_context_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-B", "1x", "x", "a"])
        .expect("", "gpugrep: 1x: invalid context length argument\n", 2);
}

#[test]
fn invalid_context_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-C", "", "x", "a"])
        .expect("", "gpugrep: : invalid context length argument\n", 2);
}

#[test]
fn invalid_binary_files_type_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["--binary-files=foo", "x", "a"])
        .expect("", "gpugrep: unknown binary-files type\n", 2);
}

#[test]
fn unknown_engine_value_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    // gpugrep's own option.
    s.grep(&["--engine=foo", "x", "a"]).expect(
        "",
        "gpugrep: invalid argument 'foo' for '--engine' (auto, cpu or gpu)\n",
        2,
    );
}

#[test]
fn engine_cpu_searches() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    // gpugrep's own option.
    s.grep(&["--engine=cpu", "x", "a"]).expect("x\n", "", 0);
}

#[test]
fn engine_auto_searches() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    // gpugrep's own option.
    s.grep(&["--engine", "auto", "x", "a"]).expect("x\n", "", 0);
}

#[test]
fn invalid_thread_count_exits_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    // gpugrep's own option.
    s.grep(&["-j", "x", "x", "a"])
        .expect("", "gpugrep: x: invalid thread count argument\n", 2);
}

#[test]
fn invalid_regex_unclosed_group_ere_exits_2_with_gpugrep_message() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-E", "a(", "a"])
        .expect("", "gpugrep: Unmatched ( or \\(\n", 2);
}

#[test]
fn invalid_regex_unclosed_group_bre_exits_2_with_gpugrep_message() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["a\\(", "a"])
        .expect("", "gpugrep: Unmatched ( or \\(\n", 2);
}

#[test]
fn invalid_regex_bad_interval_exits_2_with_gpugrep_message() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["a\\{1", "a"])
        .expect("", "gpugrep: Unmatched \\{\n", 2);
    s.grep(&["a\\{1,x\\}", "a"])
        .expect("", "gpugrep: Invalid content of \\{\\}\n", 2);
}

#[test]
fn invalid_regex_reversed_interval_exits_2_with_gpugrep_message() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-E", "a{2,1}", "a"])
        .expect("", "gpugrep: Invalid content of \\{\\}\n", 2);
}

#[test]
fn back_references_are_unsupported_exit_2() {
    let s = Sandbox::new();
    s.write("a", "aa\n");
    // Deliberate: back-references are not supported. GNU grep 3.8 prints "aa".
    s.grep(&["\\(a\\)\\1", "a"]).expect(
        "",
        "gpugrep: back-references (\\1 to \\9) are not supported\n",
        2,
    );
}

#[test]
fn unmatched_close_paren_in_ere_is_literal() {
    let s = Sandbox::new();
    s.write("a", "a)\nb\n");
    s.grep(&["-E", "a)", "a"]).expect("a)\n", "", 0);
}

#[test]
fn ere_open_brace_without_interval_is_literal() {
    let s = Sandbox::new();
    s.write("a", "a{1\nb\n");
    s.grep(&["-E", "a{1", "a"]).expect("a{1\n", "", 0);
}

#[test]
fn ere_empty_group_matches_every_line() {
    let s = Sandbox::new();
    s.write("a", "x\n\n");
    s.grep(&["-c", "-E", "()", "a"]).expect("2\n", "", 0);
}

#[test]
fn ere_empty_alternative_matches_every_line() {
    let s = Sandbox::new();
    s.write("a", "x\ny\n");
    s.grep(&["-c", "-E", "a||b", "a"]).expect("2\n", "", 0);
}

#[test]
fn ere_leading_star_warns_and_is_ignored() {
    let s = Sandbox::new();
    s.write("a", "*a\nxa\nb\n");
    s.grep(&["-E", "*a", "a"]).expect(
        "*a\nxa\n",
        "gpugrep: warning: * at start of expression\n",
        0,
    );
}

#[test]
fn ere_leading_plus_warns_and_is_ignored() {
    let s = Sandbox::new();
    s.write("a", "+a\nxa\nb\n");
    s.grep(&["-E", "+a", "a"]).expect(
        "+a\nxa\n",
        "gpugrep: warning: + at start of expression\n",
        0,
    );
}

#[test]
fn ere_star_after_alternation_is_ignored() {
    let s = Sandbox::new();
    s.write("a", "*b\nb\nc\n");
    s.grep(&["-E", "c|*b", "a"]).expect(
        "*b\nb\nc\n",
        "gpugrep: warning: * at start of expression\n",
        0,
    );
}

#[test]
fn bre_leading_escaped_brace_is_literal() {
    let s = Sandbox::new();
    s.write("a", "{1\nb\n");
    s.grep(&["\\{1", "a"]).expect("{1\n", "", 0);
}

#[test]
fn conflicting_matchers_exit_2() {
    let s = Sandbox::new();
    s.write("a", "a.c\nabc\n");
    s.grep(&["-F", "-G", "a.c", "a"])
        .expect("", "gpugrep: conflicting matchers specified\n", 2);
}

#[test]
fn same_matcher_twice_is_fine() {
    let s = Sandbox::new();
    s.write("a", "a.c\nabc\n");
    s.grep(&["-F", "-F", "a.c", "a"]).expect("a.c\n", "", 0);
}

#[test]
fn directory_without_dash_r_with_dash_c_counts_zero() {
    let s = Sandbox::new();
    s.write("d/f", "x\n");
    s.write("a", "x\n");
    s.grep(&["-c", "x", "d", "a"])
        .expect("d:0\na:1\n", "gpugrep: d: Is a directory\n", 2);
}

#[test]
fn directory_without_dash_r_with_dash_capital_l_lists_it() {
    let s = Sandbox::new();
    s.write("d/f", "x\n");
    s.write("a", "x\n");
    s.grep(&["-L", "x", "d", "a"])
        .expect("d\n", "gpugrep: d: Is a directory\n", 2);
}

#[test]
fn repeated_options_are_accepted() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-n", "-n", "-i", "-i", "-c", "-c", "-s", "-s", "x", "a"])
        .expect("1\n", "", 0);
}

#[test]
fn repeated_valued_options_last_wins() {
    let s = Sandbox::new();
    s.write("a", "x1\nx2\nx3\n");
    s.grep(&[
        "-m",
        "1",
        "-m",
        "2",
        "--color=always",
        "--color=never",
        "x",
        "a",
    ])
    .expect("x1\nx2\n", "", 0);
}

#[test]
fn dash_r_and_dash_capital_r_together() {
    let s = Sandbox::new();
    s.write("d/f", "x\n");
    s.grep(&["-r", "-R", "x", "d"]).expect("d/f:x\n", "", 0);
}

#[test]
fn invalid_regex_unmatched_bracket_exits_2_with_gpugrep_message() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["[a", "a"])
        .expect("", "gpugrep: Unmatched [, [^, [:, [., or [=\n", 2);
}

#[test]
fn dash_q_error_before_match_still_exits_0() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    s.grep(&["-q", "x", "missing", "a"]).expect(
        "",
        "gpugrep: missing: No such file or directory\n",
        0,
    );
}

/// Usage errors come from clap: the wording differs from GNU grep's
/// ("unrecognized option '--bogus'"), the exit status does not.
#[test]
fn unknown_option_is_a_usage_error_exit_2() {
    let s = Sandbox::new();
    s.write("a", "x\n");
    let out = s.grep(&["--bogus", "x", "a"]).run();
    assert_eq!(out.stdout, b"");
    assert!(out.stderr.contains("--bogus"), "{}", out.stderr);
    assert!(out.stderr.contains("Usage: gpugrep"), "{}", out.stderr);
    assert_eq!(out.code, 2);
}

/// GNU grep takes `-NUM` as `-C NUM` (not an option value, not after `--`).
#[test]
fn dash_num_is_context_shorthand() {
    let s = Sandbox::new();
    s.write("a", "1\n2\n3\n4\n5\n");
    s.grep(&["-1", "3", "a"]).expect("2\n3\n4\n", "", 0);
    s.grep(&["-n", "-e", "-1", "a"]).expect("", "", 1);
}

#[test]
fn no_pattern_is_a_usage_error_exit_2() {
    let s = Sandbox::new();
    s.grep(&[]).expect(
        "",
        "gpugrep: no pattern given\nUsage: gpugrep [OPTION]... PATTERNS [FILE]...\n",
        2,
    );
}

#[test]
fn missing_option_value_is_a_usage_error_exit_2() {
    let s = Sandbox::new();
    let out = s.grep(&["x", "-m"]).run();
    assert_eq!(out.stdout, b"");
    assert!(out.stderr.contains("-m"), "{}", out.stderr);
    assert_eq!(out.code, 2);
}

fn has_nvidia_smi() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|p| p.join("nvidia-smi").is_file()))
}

/// `--engine gpu` on a machine without a GPU fails clearly, exit 2.
#[test]
fn engine_gpu_without_a_gpu_exits_2_with_message() {
    if has_nvidia_smi() {
        eprintln!("skipped: nvidia-smi found, this machine may have a GPU");
        return;
    }
    let s = Sandbox::new();
    s.write("a", "x\n");
    let out = s.grep(&["--engine", "gpu", "x", "a"]).run();
    assert_eq!(out.stdout, b"");
    assert!(
        out.stderr.starts_with("gpugrep: GPU engine not available"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert_eq!(out.code, 2);
}

/// `gpugrep pattern bigfile | head -1`: the reader goes away early; gpugrep
/// must stop quietly (no "Broken pipe", no panic).
#[test]
fn closed_stdout_stops_quietly_without_panic() {
    let s = Sandbox::new();
    s.write("big", "match line\n".repeat(100_000));
    for args in [&["match", "big"][..], &["-n", "match", "big", "big"][..]] {
        let mut child = s
            .grep(args)
            .command()
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn gpugrep");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout pipe"));
        let mut first = String::new();
        stdout.read_line(&mut first).expect("read a line");
        assert!(first.ends_with("match line\n"), "{first:?}");
        drop(stdout);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("stderr pipe")
            .read_to_string(&mut stderr)
            .expect("read stderr");
        let status = child.wait().expect("wait");
        assert!(!stderr.contains("Broken pipe"), "{stderr}");
        assert!(!stderr.contains("panic"), "{stderr}");
        assert_eq!(stderr, "", "{args:?}");
        assert_ne!(status.code(), Some(101), "panicked: {stderr}");
        // Exit 0 (a line was selected), or killed by SIGPIPE as GNU grep is.
        assert!(matches!(status.code(), Some(0) | None), "{status:?}");
    }
}

/// A closed stdout before anything is written (`gpugrep x big >&-` style
/// through a pipe closed at once).
#[test]
fn stdout_closed_before_start_does_not_panic() {
    let s = Sandbox::new();
    s.write("big", "match line\n".repeat(100_000));
    let mut child = s
        .grep(&["match", "big"])
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn gpugrep");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panic"), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "panicked: {stderr}");
}

/// Writes a file of one 100 MiB line that ends in `needle` (no final
/// newline is left out: the line ends the file with `\n`).
fn write_long_line(s: &Sandbox, name: &str) -> Vec<u8> {
    let mut data = vec![b'a'; 100 << 20];
    data.extend_from_slice(b"needle\n");
    s.write(name, &data);
    data
}

/// A 100 MiB line with the match at its very end, from a file.
#[test]
fn very_long_line_match_at_end_of_file() {
    let s = Sandbox::new();
    write_long_line(&s, "long");
    s.grep(&["-b", "-o", "needle$", "long"])
        .expect("104857600:needle\n", "", 0);
}

/// Regression: the streaming reader searched the whole unfinished line for
/// a terminator after every chunk read, so one long line on stdin took
/// quadratic time (a 100 MiB line: minutes). 16 MiB in 4 KiB chunks
/// (4096 reads) must be quick.
#[test]
fn long_line_on_stdin_is_not_rescanned_per_chunk() {
    let mut data = vec![b'a'; 16 << 20];
    data.extend_from_slice(b"needle\nnext\n");
    let out = Cmd::new(&["-c", "needle"])
        .env("GPUGREP_STREAM_CHUNK", "4096")
        .stdin(data)
        .run_within(std::time::Duration::from_secs(30));
    assert_eq!(
        (out.stdout.as_slice(), out.stderr.as_str(), out.code),
        (&b"1\n"[..], "", 0)
    );
}

/// The same line through standard input (the streaming reader). Several
/// seconds in a debug build: it runs with `cargo test --release`; the
/// regression test above covers the reader's scan in debug builds.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in debug builds; runs with cargo test --release"
)]
fn very_long_line_match_at_end_of_stdin() {
    let s = Sandbox::new();
    let data = write_long_line(&s, "long");
    Cmd::new(&["-c", "-F", "needle"])
        .stdin(data)
        .expect("1\n", "", 0);
}
