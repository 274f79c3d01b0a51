//! A memory-mapped file truncated while it is searched (logrotate's
//! `copytruncate`) raised SIGBUS and killed the process with no output
//! (issue 13, item 8). Now the file is reported and the others' output
//! stands. The truncation races the search: whichever wins, the process
//! must end normally with exactly one of the allowed outcomes.

mod common;
use common::bin;
use std::process::Command;
use std::time::Duration;

/// `mib` MiB of text lines, each matching `lazy dog 012`.
fn big_text(path: &std::path::Path, mib: usize) {
    let line = b"the quick brown fox jumps over the lazy dog 0123456789\n";
    let data: Vec<u8> = line.repeat((mib << 20) / line.len());
    std::fs::write(path, data).unwrap();
}

fn race(args: &[&str], env: &[(&str, &str)], mib: usize, delay_ms: u64) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small"), "lazy dog 012\n").unwrap();
    let big = dir.path().join("big");
    big_text(&big, mib);
    let mut cmd = Command::new(bin());
    cmd.args(args).current_dir(dir.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(delay_ms));
    let file = std::fs::OpenOptions::new().write(true).open(&big).unwrap();
    file.set_len(1000).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn truncated_large_file_is_reported_and_other_files_still_printed() {
    for delay in [20, 80, 200] {
        // Among several files, one of 64 MiB or more is mapped.
        let out = race(&["-c", "lazy dog 012", "small", "big"], &[], 65, delay);
        eprintln!("{delay} ms: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code().is_some(), "killed: {out:?}");
        assert!(stdout.starts_with("small:1\nbig:"), "{stdout}");
        match out.status.code() {
            Some(0) => assert_eq!(stderr, ""),
            Some(2) => assert_eq!(stderr, "gpugrep: big: file truncated while being read\n"),
            other => panic!("exit {other:?}: {stderr}"),
        }
    }
}

#[test]
fn truncated_file_split_across_threads_is_reported() {
    let env = [("GPUGREP_SPLIT_MIN", "1048576")];
    for delay in [20, 80, 200] {
        let out = race(&["-j4", "-c", "zzz", "big"], &env, 32, delay);
        eprintln!("{delay} ms: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code().is_some(), "killed: {out:?}");
        match out.status.code() {
            Some(1) => assert_eq!(stderr, ""),
            Some(2) => assert_eq!(stderr, "gpugrep: big: file truncated while being read\n"),
            other => panic!("exit {other:?}: {stderr}"),
        }
    }
}
