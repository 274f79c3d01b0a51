//! `tail -f log | gpugrep --line-buffered ERROR`: a line must come out as
//! soon as it went in, while the pipe stays open.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

/// Regression: stdin was searched only once 32 KiB had arrived (the binary
/// probe waited for a full buffer), so a slow pipe printed nothing.
#[test]
fn line_buffered_output_arrives_before_the_pipe_closes() {
    let mut child = common::gpugrep()
        .args(["--line-buffered", "ERROR"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    stdin.write_all(b"ok\nERROR one\n").unwrap();
    stdin.flush().unwrap();
    let got = rx.recv_timeout(Duration::from_secs(10));
    drop(stdin);
    let _ = child.wait();
    assert_eq!(got.as_deref(), Ok("ERROR one\n"));
}
