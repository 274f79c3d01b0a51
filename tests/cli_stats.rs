//! `--stats`: totals on stderr, results alone on stdout.

use std::process::Command;

#[test]
fn stats_go_to_stderr_with_totals() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), "x\ny\nx\n").unwrap();
    std::fs::write(dir.path().join("b"), "y\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gpugrep"))
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
