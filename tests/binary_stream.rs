//! Binary data arriving on a pipe (issue 13, items 6 and 9): detection must
//! not depend on how the bytes arrive, and data without newlines must not
//! be buffered without bound.

mod common;
use common::{assert_output, bin, sh, Output, Sandbox};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs gpugrep with `args`, writing `parts` to its stdin with a pause
/// between them (each part arrives in its own read).
fn slow_pipe(args: &[&str], parts: &[&[u8]]) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn gpugrep");
    let mut stdin = child.stdin.take().expect("stdin");
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            std::thread::sleep(Duration::from_millis(300));
        }
        let _ = stdin.write_all(part);
        let _ = stdin.flush();
    }
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    Output {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

#[test]
fn binary_detection_on_pipe_does_not_depend_on_read_timing() {
    let parts: &[&[u8]] = &[b"match one\n", b"x\0y\nmatch two\n"];
    // As for the same bytes in a file: binary from the start.
    let s = Sandbox::new();
    s.write("f", parts.concat());
    let msg = "gpugrep: f: binary file matches\n";
    s.grep(&["match", "f"]).expect("", msg, 0);
    let msg = "gpugrep: (standard input): binary file matches\n";
    assert_output("pipe", &slow_pipe(&["match"], parts), b"", msg, 0);
    assert_output("-n", &slow_pipe(&["-n", "match"], parts), b"", msg, 0);
    assert_output("-I", &slow_pipe(&["-I", "match"], parts), b"", "", 1);
    assert_output("-c", &slow_pipe(&["-c", "match"], parts), b"2\n", "", 0);
    let out = slow_pipe(&["-a", "match"], parts);
    assert_output("-a", &out, b"match one\nmatch two\n", "", 0);
}

/// `--line-buffered` prints each line as it arrives: a NUL arriving later
/// stops the output from there on.
#[test]
fn line_buffered_pipe_prints_lines_before_a_late_nul() {
    let parts: &[&[u8]] = &[b"match one\n", b"x\0y\nmatch two\n"];
    let out = slow_pipe(&["--line-buffered", "match"], parts);
    let msg = "gpugrep: (standard input): binary file matches\n";
    assert_output("--line-buffered", &out, b"match one\n", msg, 0);
}

/// `head -c 2G /dev/zero | gpugrep -c x` held the whole stream in memory.
#[test]
fn binary_stream_without_newlines_uses_bounded_memory() {
    let s = Sandbox::new();
    // 256 MiB of NULs through a process allowed 150 MB of address space
    // beside its own binary's (mimalloc reserves address space in steps,
    // and an unoptimised test build maps 85 MB of itself).
    let limit = r#"ulimit -v $((150000 + $(stat -c %s "$GPUGREP") / 1024))"#;
    let out = sh(
        s.path(),
        &format!(r#"head -c 256M /dev/zero | ({limit}; "$GPUGREP" -c x)"#),
    );
    assert_output("-c x", &out, b"0\n", "", 1);
    let out = sh(
        s.path(),
        &format!(
            r#"{{ printf 'x\n'; head -c 64M /dev/zero; printf 'x\n'; }} | ({limit}; "$GPUGREP" x)"#
        ),
    );
    assert_output(
        "x",
        &out,
        b"",
        "gpugrep: (standard input): binary file matches\n",
        0,
    );
}
