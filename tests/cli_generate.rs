//! `--generate`: the man page and shell completions, parsed back.
//!
//! Every option clap knows must appear in each output; the man page must be
//! roff that `groff` reads without a warning (when groff is installed; the
//! roff requests are checked here either way), the bash script must pass
//! `bash -n`, and zsh and fish scripts their shells' `-n` where installed.

mod common;

use clap::CommandFactory;
use common::Sandbox;
use gpugrep::cli::Cli;
use std::io::Write;
use std::process::{Command, Stdio};

/// `gpugrep --generate KIND`'s standard output (checked to succeed quietly).
fn generate(kind: &str) -> String {
    let out = Sandbox::new().grep(&["--generate", kind]).run();
    assert_eq!(out.code, 0, "{kind}: {}", out.stderr);
    assert_eq!(out.stderr, "", "{kind}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Every option's long and short names (without dashes).
fn options() -> Vec<(Option<String>, Option<char>)> {
    Cli::command()
        .get_arguments()
        .filter(|a| !a.is_positional())
        .map(|a| (a.get_long().map(str::to_string), a.get_short()))
        .collect()
}

/// Runs `shell -n` over `script` when `shell` is installed; `None` if not.
fn syntax_check(shell: &str, script: &str) -> Option<std::process::Output> {
    let mut child = Command::new(shell)
        .arg("-n")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write script");
    Some(child.wait_with_output().expect("wait"))
}

#[test]
fn the_man_page_names_every_option() {
    let man = generate("man");
    let opts = options();
    assert!(opts.len() > 50, "{}", opts.len());
    for (long, short) in opts {
        if let Some(long) = long {
            let roff = format!("\\-\\-{}", long.replace('-', "\\-"));
            assert!(man.contains(&roff), "--{long} missing from the man page");
        }
        if let Some(short) = short {
            let roff = format!("\\fB\\-{short}\\fR");
            assert!(man.contains(&roff), "-{short} missing from the man page");
        }
    }
    for new in ["decompress", "files\\-from", "files\\-from0", "generate"] {
        assert!(man.contains(&format!("\\-\\-{new}")), "{new}");
    }
}

#[test]
fn the_man_page_is_valid_roff() {
    let man = generate("man");
    assert!(man.contains("\n.TH gpugrep 1 "), "no title line");
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"] {
        assert!(man.contains(&format!("\n.SH {section}\n")), "{section}");
    }
    // Only the requests the man macros define, or groff's own.
    let known = [
        ".TH", ".SH", ".SS", ".TP", ".IP", ".PP", ".LP", ".P", ".RS", ".RE", ".B", ".I", ".BR",
        ".IR", ".br", ".ie", ".el", ".sp", ".nf", ".fi", ".in",
    ];
    for line in man.lines().filter(|l| l.starts_with('.')) {
        let request = line.split_whitespace().next().unwrap_or("");
        assert!(known.contains(&request), "unknown request: {line}");
    }
    // groff, where installed, must format it without a warning.
    let checked = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    if let Ok(mut child) = checked {
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(man.as_bytes()).expect("write man page");
        drop(stdin);
        let out = child.wait_with_output().expect("wait for groff");
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "groff warned");
    } else {
        eprintln!("groff not installed: man page checked for its requests only");
    }
}

#[test]
fn the_bash_completion_parses_and_offers_every_option() {
    let script = generate("complete-bash");
    for (long, _) in options() {
        if let Some(long) = long {
            assert!(script.contains(&format!("--{long}")), "--{long}");
        }
    }
    let out = syntax_check("bash", &script).expect("bash is installed");
    assert!(
        out.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_zsh_and_fish_completions_offer_every_option() {
    let zsh = generate("complete-zsh");
    let fish = generate("complete-fish");
    assert!(zsh.starts_with("#compdef gpugrep\n"));
    for (long, short) in options() {
        if let Some(long) = &long {
            // `--long[help]`, or `--long=[help]` for one taking a value.
            let offered = [format!("--{long}["), format!("--{long}=[")]
                .iter()
                .any(|o| zsh.contains(o.as_str()));
            assert!(offered, "zsh: --{long}");
            assert!(fish.contains(&format!(" -l {long} ")), "fish: --{long}");
        }
        if let Some(short) = short {
            let offered = [format!("-{short}["), format!("-{short}+[")]
                .iter()
                .any(|o| zsh.contains(o.as_str()));
            assert!(offered, "zsh: -{short}");
        }
    }
    for (shell, script) in [("zsh", &zsh), ("fish", &fish)] {
        match syntax_check(shell, script) {
            Some(out) => assert!(out.status.success(), "{shell} -n"),
            None => eprintln!("{shell} not installed: its script checked by content only"),
        }
    }
}

#[test]
fn powershell_completion_is_offered_too() {
    let ps = generate("complete-powershell");
    assert!(ps.contains("Register-ArgumentCompleter"));
    assert!(ps.contains("'--decompress'"));
}

#[test]
fn an_unknown_kind_is_a_usage_error() {
    let out = Sandbox::new().grep(&["--generate", "man2"]).run();
    assert_eq!(out.code, 2);
    assert!(out
        .stderr
        .contains("gpugrep: invalid argument 'man2' for '--generate' (man, "));
    assert!(out.stdout.is_empty());
}
