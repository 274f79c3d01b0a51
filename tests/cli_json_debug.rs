//! `--json` through the whole program, and `--debug`'s decisions.

mod common;

use common::Sandbox;

#[test]
fn json_lines_follow_ripgreps_schema() {
    let s = Sandbox::new();
    s.write("a", "x\nfoo bar foo\ny\n");
    s.write("b", "nothing\n");
    let out = s.grep(&["--json", "-C1", "foo", "a", "b"]).run();
    assert_eq!(out.code, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(lines[0], r#"{"type":"begin","data":{"path":{"text":"a"}}}"#);
    assert_eq!(
        lines[1],
        r#"{"type":"context","data":{"path":{"text":"a"},"lines":{"text":"x\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}"#
    );
    assert_eq!(
        lines[2],
        r#"{"type":"match","data":{"path":{"text":"a"},"lines":{"text":"foo bar foo\n"},"line_number":2,"absolute_offset":2,"submatches":[{"match":{"text":"foo"},"start":0,"end":3},{"match":{"text":"foo"},"start":8,"end":11}]}}"#
    );
    assert_eq!(
        lines[3],
        r#"{"type":"context","data":{"path":{"text":"a"},"lines":{"text":"y\n"},"line_number":3,"absolute_offset":14,"submatches":[]}}"#
    );
    assert!(
        lines[4].starts_with(
            r#"{"type":"end","data":{"path":{"text":"a"},"binary_offset":null,"stats":{"elapsed":"#
        ),
        "{}",
        lines[4]
    );
    assert!(
        lines[4].contains(r#""searches":1,"searches_with_match":1,"bytes_searched":16,"#),
        "{}",
        lines[4]
    );
    assert!(
        lines[5].starts_with(r#"{"data":{"elapsed_total":"#),
        "{}",
        lines[5]
    );
    assert!(
        lines[5].contains(r#""matched_lines":1,"matches":2,"searches":2,"searches_with_match":1"#),
        "{}",
        lines[5]
    );
    assert!(lines[5].ends_with(r#""type":"summary"}"#), "{}", lines[5]);
}

#[test]
fn json_refuses_count_modes() {
    let s = Sandbox::new();
    s.write("a", "foo\n");
    s.grep(&["--json", "-c", "foo", "a"]).expect(
        "",
        "gpugrep: --json cannot be combined with -c, --count-matches, -l or -L\n",
        2,
    );
}

#[test]
fn debug_says_what_was_built_and_which_engine_runs() {
    let s = Sandbox::new();
    s.write("a", "foo\n");
    let out = s.grep(&["--debug", "--engine=cpu", "foo", "a"]).run();
    assert_eq!(out.stdout, b"foo\n");
    assert!(
        out.stderr
            .contains("gpugrep: debug: patterns: 1 literal(s), memmem\n"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("gpugrep: debug: engine: cpu (--engine cpu)\n"),
        "{}",
        out.stderr
    );
    let out = s.grep(&["--debug", "-E", "fo+|bar", "a"]).run();
    assert!(
        out.stderr.contains("debug: patterns: 1 pattern(s), regex"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("debug: engine: cpu ("),
        "{}",
        out.stderr
    );
}

/// The binary's allocator keeps freed memory a second while a GPU
/// pipeline runs (here simulated), not where the CPU engine alone searches
/// nor where the user set mimalloc's purge delay.
#[test]
fn a_gpu_pipeline_keeps_freed_memory_longer_unless_the_user_set_it() {
    let s = Sandbox::new();
    s.write("a", "foo\n");
    let said = "debug: gpu: freed memory goes back to the system after 1 s";
    let gpu = || {
        s.grep(&["--debug", "--engine=gpu", "foo", "a"])
            .env("GPUGREP_GPU_SIMULATE", "1")
    };
    let out = gpu().run();
    assert_eq!(out.stdout, b"foo\n");
    assert!(out.stderr.contains(said), "{}", out.stderr);
    let out = gpu().env("MIMALLOC_PURGE_DELAY", "50").run();
    assert_eq!(out.stdout, b"foo\n");
    assert!(!out.stderr.contains(said), "{}", out.stderr);
    let out = s.grep(&["--debug", "--engine=cpu", "foo", "a"]).run();
    assert!(!out.stderr.contains(said), "{}", out.stderr);
}
