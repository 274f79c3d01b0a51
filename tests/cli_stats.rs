//! `--stats`: totals on stderr, results alone on stdout.

mod common;

use std::process::Command;

/// `a` (3 lines, 2 of them `x`) and `b` (1 line), 8 bytes in all.
fn two_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), "x\ny\nx\n").unwrap();
    std::fs::write(dir.path().join("b"), "y\n").unwrap();
    dir
}

#[test]
fn stats_go_to_stderr_with_totals() {
    let dir = two_files();
    let out = Command::new(common::bin())
        .args(["--stats", "--engine=cpu", "x", "a", "b"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a:x\na:x\n");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        &lines[..4],
        [
            "2 matched lines",
            "1 files contained matches",
            "2 files searched",
            "8 bytes searched"
        ]
    );
    assert!(lines[4].ends_with(" seconds"), "{err}");
    assert!(lines[5].ends_with(" GB/s"), "{err}");
    assert_eq!(lines[6], "engine cpu");
    assert_eq!(out.status.code(), Some(0));
}

/// Through the streaming pipeline (simulated on the CPU, chunks of 4
/// bytes): the same totals, plus bytes, chunks and time per stage.
#[test]
fn stats_report_the_gpu_pipeline_stages() {
    let dir = two_files();
    let out = Command::new(common::bin())
        .args(["--stats", "--engine=gpu", "x", "a", "b"])
        .env("GPUGREP_GPU_SIMULATE", "1")
        .env("GPUGREP_GPU_CHUNK", "4")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a:x\na:x\n");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], "2 matched lines", "{err}");
    assert_eq!(lines[3], "8 bytes searched", "{err}");
    assert_eq!(lines[6], "engine gpu", "{err}");
    // a (6 bytes) is cut into pieces of 4 and 2 (no overlap for a 1-byte
    // pattern), the second with a separator; b (2 bytes) and its separator
    // do not fit in the 1 byte left: a third chunk.
    assert!(
        lines[7].starts_with("gpu: 10 bytes in 3 chunks of at most 0 MiB (0 dense, searched by the CPU), 2 files; ready after "),
        "{err}"
    );
    assert!(lines[8].starts_with("gpu stages: read/copy "), "{err}");
    assert!(
        lines[8].contains(" transfer ") && lines[8].contains(" kernel "),
        "{err}"
    );
    assert_eq!(lines[9], "cpu: 0 files searched by the CPU engine", "{err}");
}

#[test]
fn gpu_memory_and_staging_sizes_are_checked() {
    let out = Command::new(common::bin())
        .args(["--gpu-memory=12Q", "x", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "gpugrep: 12Q: invalid GPU memory size\n"
    );
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(common::bin())
        .args([
            "--gpu-staging=256M",
            "--gpu-memory=1G",
            "-c",
            "x",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0\n");
    assert_eq!(out.status.code(), Some(1));
}
