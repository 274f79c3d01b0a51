//! GNU grep's behaviours at the edges of the command line and of standard
//! input and output (issue 13, item 11). Expected output from GNU grep 3.8.

mod common;
use common::{assert_output, sh, Sandbox};

#[test]
fn files_with_and_without_match_last_one_wins() {
    let s = Sandbox::new();
    s.write("f", "x\ny\n");
    s.write("a", "e\n");
    s.grep(&["-l", "-L", "x", "f", "a"]).expect("a\n", "", 0);
    s.grep(&["-L", "-l", "x", "f", "a"]).expect("f\n", "", 0);
    s.grep(&["--files-without-match", "-l", "x", "f", "a"])
        .expect("f\n", "", 0);
}

/// GNU's `skip-read`: nothing can be selected, so no file is opened.
#[test]
fn max_count_zero_empty_pattern_file_and_v_empty_exit_at_once() {
    let s = Sandbox::new();
    s.write("empty", "");
    s.write("f", "x\n");
    for args in [
        &["-m0", "x"][..],
        &["-f", "empty"],
        &["-v", ""],
        &["-v", "-e", "", "-e", ""],
        &["-x", "-f", "empty"],
        &["-c", "-m0", "x"],
        &["-l", "-v", "", "-F"],
        &["-q", "-m0", "x", "-E"],
    ] {
        let mut all = args.to_vec();
        all.push("no-such-file");
        s.grep(&all).expect("", "", 1);
    }
    // -L still lists the files; -v with -x or -w, or -v -f empty, searches.
    s.grep(&["-L", "-m0", "x", "f"]).expect("f\n", "", 1);
    s.grep(&["-v", "-x", "", "no-such-file"]).expect(
        "",
        "gpugrep: no-such-file: No such file or directory\n",
        2,
    );
    s.grep(&["-v", "-f", "empty", "f"]).expect("x\n", "", 0);
}

#[test]
fn counts_beyond_u64_mean_unlimited() {
    let s = Sandbox::new();
    s.write("f", "x\ny\n");
    let huge = "99999999999999999999999";
    s.grep(&["-m", huge, "x", "f"]).expect("x\n", "", 0);
    s.grep(&["-A", huge, "x", "f"]).expect("x\ny\n", "", 0);
    s.grep(&["-C", huge, "y", "f"]).expect("x\ny\n", "", 0);
    s.grep(&["-B", huge, "y", "f"]).expect("x\ny\n", "", 0);
    s.grep(&["-m", &format!("-{huge}"), "x", "f"])
        .expect("x\n", "", 0);
}

#[test]
fn closed_stdout_is_a_write_error() {
    let s = Sandbox::new();
    s.write("f", "x\n");
    let out = sh(s.path(), r#""$GPUGREP" x f >&-"#);
    assert_output(
        "x f >&-",
        &out,
        b"",
        "gpugrep: write error: Bad file descriptor\n",
        2,
    );
    // Nothing written, nothing wrong.
    let out = sh(s.path(), r#""$GPUGREP" -q x f >&-"#);
    assert_output("-q x f >&-", &out, b"", "", 0);
    let out = sh(s.path(), r#""$GPUGREP" zzz f >&-"#);
    assert_output("zzz f >&-", &out, b"", "", 1);
    // A closed pipe stays quiet.
    let out = sh(
        s.path(),
        r#"yes x | head -50000 > big; "$GPUGREP" x big | head -1"#,
    );
    assert_output("x big | head -1", &out, b"x\n", "", 0);
}

#[test]
fn closed_stdin_is_an_error() {
    let s = Sandbox::new();
    s.write("f", "x\n");
    let want = "gpugrep: (standard input): Bad file descriptor\n";
    assert_output("x <&-", &sh(s.path(), r#""$GPUGREP" x <&-"#), b"", want, 2);
    assert_output(
        "x - <&-",
        &sh(s.path(), r#""$GPUGREP" x - <&-"#),
        b"",
        want,
        2,
    );
    let out = sh(s.path(), r#""$GPUGREP" x f <&-"#);
    assert_output("x f <&-", &out, b"x\n", "", 0);
    let out = sh(s.path(), r#""$GPUGREP" -f - f <&-"#);
    assert_output(
        "-f - f <&-",
        &out,
        b"",
        "gpugrep: -: Bad file descriptor\n",
        2,
    );
}

#[test]
fn command_line_errors_start_with_the_program_name() {
    let s = Sandbox::new();
    let usage = "Usage: gpugrep [OPTION]... PATTERNS [FILE]...\n\
                 Try 'gpugrep --help' for more information.\n";
    s.grep(&["--bogus", "x"]).expect(
        "",
        &format!("gpugrep: unrecognized option '--bogus'\n{usage}"),
        2,
    );
    s.grep(&["-k", "x"])
        .expect("", &format!("gpugrep: invalid option -- 'k'\n{usage}"), 2);
    s.grep(&["--count=3", "x"]).expect(
        "",
        &format!("gpugrep: option '--count' doesn't allow an argument\n{usage}"),
        2,
    );
}

#[test]
fn long_prefix_of_regexp_takes_a_dash_value() {
    let s = Sandbox::new();
    s.write("g", "a-2\nb\n");
    s.grep(&["--reg", "-2", "g"]).expect("a-2\n", "", 0);
    s.grep(&["--reg=-2", "g"]).expect("a-2\n", "", 0);
    s.grep(&["--max", "1", "-e", "b", "g"]).expect("b\n", "", 0);
}

#[test]
fn output_file_inside_tree_is_skipped() {
    let s = Sandbox::new();
    s.write("a", "e1\ne2\n");
    let out = sh(
        s.path(),
        r#""$GPUGREP" -r e . > ./out.txt; echo "rc=$?"; cat out.txt"#,
    );
    assert_output(
        "-r e . > ./out.txt",
        &out,
        b"rc=2\n./a:e1\n./a:e2\n",
        "gpugrep: ./out.txt: input file is also the output\n",
        0,
    );
    // Appending, from standard input, and with -j1: the same.
    let out = sh(s.path(), r#""$GPUGREP" -j1 e - a < out.txt >> out.txt"#);
    assert_output(
        "e - a < out.txt >> out.txt",
        &out,
        b"",
        "gpugrep: (standard input): input file is also the output\n",
        2,
    );
    // -c, -l, -q and -m1 cannot loop: no complaint.
    let out = sh(s.path(), r#""$GPUGREP" -c e a out.txt >> out.txt"#);
    assert_output("-c", &out, b"", "", 0);
    let out = sh(s.path(), r#""$GPUGREP" -m1 e out.txt >> out.txt"#);
    assert_output("-m1", &out, b"", "", 0);
}

#[test]
fn max_count_leaves_seekable_stdin_after_last_line() {
    let s = Sandbox::new();
    s.write("f", "x1\ny\nx2\nz\n");
    for (opts, want) in [
        ("-m1", "x1\ny\nx2\nz\n"),
        ("-m1 -A1", "x1\ny\ny\nx2\nz\n"),
        ("-m1 -c", "1\ny\nx2\nz\n"),
        ("-m1 -v", "y\nx2\nz\n"),
        ("-m2", "x1\nx2\nz\n"),
        // -l and -q read on: nothing is left.
        ("-m1 -l", "(standard input)\n"),
        ("-m1 -q", ""),
    ] {
        let out = sh(s.path(), &format!(r#"{{ "$GPUGREP" {opts} x; cat; }} < f"#));
        assert_output(opts, &out, want.as_bytes(), "", 0);
    }
    // Twice in a row, and a last line without a newline.
    let out = sh(
        s.path(),
        r#"{ "$GPUGREP" -m1 x; "$GPUGREP" -m1 x; cat; } < f; printf 'x1\nx2' > nt; { "$GPUGREP" -m2 x; echo "[$(cat)]"; } < nt"#,
    );
    assert_output("twice", &out, b"x1\nx2\nz\nx1\nx2\n[]\n", "", 0);
}

#[test]
fn only_matching_with_invert_prints_context_matches() {
    let s = Sandbox::new();
    s.write("f", "a yes\nno\nb yes\n");
    s.grep(&["-o", "-v", "-C1", "-n", "yes", "f"])
        .expect("1-yes\n3-yes\n", "", 0);
}

/// Found by the differential test: groups of selected lines of which `-o`
/// prints nothing still get their separators, between files too.
#[test]
fn only_matching_separators_around_groups_that_print_nothing() {
    let s = Sandbox::new();
    s.write("f0", "(y)\n(y)bar K\n\n\n[x] Foo\n");
    s.write("f1", "(y) (y)\nabc b\n\n");
    s.grep(&["-i", "-v", "-o", "-B0", "bar", "f0", "f1"])
        .expect("--\n--\n", "", 0);
    s.write("g", "ab k\nbar\n");
    s.write("h", "baz\n");
    s.grep(&["-E", "-o", "-n", "-H", "-C1", "(ab)*", "g", "h"])
        .expect("g:1:ab\n--\n", "", 0);
}

/// Issue 13, item 10: a file whose path is longer than PATH_MAX (4,096
/// bytes) was skipped with "File name too long"; GNU grep finds it.
#[test]
fn paths_longer_than_path_max_are_searched() {
    let s = Sandbox::new();
    let d = "d".repeat(200);
    s.dir("top");
    deep_file(&s.join("top"), &d, 25, b"needle\n");
    let out = sh(
        s.path(),
        r#""$GPUGREP" -r -c needle top; "$GPUGREP" -j1 -rl needle top | wc -c"#,
    );
    let path = format!("top/{}f", format!("{d}/").repeat(25));
    let want = format!("{path}:1\n{}\n", path.len() + 1);
    assert_output("-r -c needle top", &out, want.as_bytes(), "", 0);
}

/// Writes `data` to `f` under `depth` directories named `name` below
/// `root`, each made relative to the one before (the whole path is longer
/// than the kernel takes).
fn deep_file(root: &std::path::Path, name: &str, depth: usize, data: &[u8]) {
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd};
    let mut dir = std::fs::File::open(root).unwrap();
    let c = CString::new(name).unwrap();
    for _ in 0..depth {
        // SAFETY: mkdirat/openat on a descriptor owned here.
        unsafe {
            assert_eq!(libc::mkdirat(dir.as_raw_fd(), c.as_ptr(), 0o755), 0);
            let fd = libc::openat(
                dir.as_raw_fd(),
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY,
            );
            assert!(fd >= 0);
            dir = std::fs::File::from_raw_fd(fd);
        }
    }
    let f = CString::new("f").unwrap();
    // SAFETY: as above.
    let mut file = unsafe {
        let fd = libc::openat(
            dir.as_raw_fd(),
            f.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT,
            0o644,
        );
        assert!(fd >= 0);
        std::fs::File::from_raw_fd(fd)
    };
    std::io::Write::write_all(&mut file, data).unwrap();
}

/// `-U`/`--binary` is accepted and changes nothing: carriage returns are
/// kept in printed lines with or without it, as GNU grep on POSIX
/// systems; `--binary` is its own option, not a prefix of
/// `--binary-files`.
#[test]
fn dash_capital_u_is_accepted_and_keeps_carriage_returns() {
    let s = Sandbox::new();
    s.write("cr", "a\r\nb\n");
    s.grep(&["-U", "a", "cr"]).expect("a\r\n", "", 0);
    s.grep(&["--binary", "a", "cr"]).expect("a\r\n", "", 0);
    s.grep(&["a", "cr"]).expect("a\r\n", "", 0);
}
