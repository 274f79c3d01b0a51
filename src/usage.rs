//! Command-line errors in GNU grep's words.
//!
//! clap reports a bad command line its own way (`error: unexpected
//! argument ...`, a tip, its usage); scripts and users expect every message
//! to start with the program's name, as grep's do, followed by grep's two
//! usage lines. This turns clap's error into that text.

use clap::error::{ContextKind, ContextValue, Error, ErrorKind};

/// The usage lines every command-line error ends with.
pub fn usage_lines(prog: &str) -> String {
    format!(
        "Usage: {prog} [OPTION]... PATTERNS [FILE]...\nTry '{prog} --help' for more information."
    )
}

/// The message for a clap error (without a trailing newline): grep's words
/// where grep has them, else clap's first line, prefixed with the program.
pub fn clap_message(e: &Error, prog: &str) -> String {
    let arg = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => s.split_whitespace().next().unwrap_or("").to_string(),
        _ => String::new(),
    };
    let name = arg.split('=').next().unwrap_or("");
    let what = match e.kind() {
        ErrorKind::UnknownArgument if arg.starts_with("--") => {
            match crate::cli::longs_starting(name) {
                several if several.len() > 1 => {
                    let listed: Vec<String> = several.iter().map(|l| format!("'--{l}'")).collect();
                    format!(
                        "option '{arg}' is ambiguous; possibilities: {}",
                        listed.join(" ")
                    )
                }
                _ => format!("unrecognized option '{arg}'"),
            }
        }
        ErrorKind::UnknownArgument if arg.starts_with('-') => {
            format!("invalid option -- '{}'", arg.trim_start_matches('-'))
        }
        ErrorKind::TooManyValues | ErrorKind::UnknownArgument if name.starts_with("--") => {
            format!("option '{name}' doesn't allow an argument")
        }
        ErrorKind::InvalidValue if name.starts_with("--") && !invalid_value(e).is_empty() => {
            let valid = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => format!(" ({})", v.join(", ")),
                _ => String::new(),
            };
            format!(
                "invalid argument '{}' for '{name}'{valid}",
                invalid_value(e)
            )
        }
        ErrorKind::InvalidValue | ErrorKind::NoEquals if name.starts_with("--") => {
            format!("option '{name}' requires an argument")
        }
        _ => {
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("").trim();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    };
    format!("{prog}: {what}\n{}", usage_lines(prog))
}

/// The value clap refused, if any.
fn invalid_value(e: &Error) -> &str {
    match e.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(v)) => v,
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::Parser;

    fn message(args: &[&str]) -> String {
        let e = Cli::try_parse_from(std::iter::once("gpugrep").chain(args.iter().copied()))
            .expect_err("an error");
        clap_message(&e, "gpugrep")
    }

    #[test]
    fn every_command_line_error_starts_with_the_program_name() {
        let usage = "\nUsage: gpugrep [OPTION]... PATTERNS [FILE]...\n\
                     Try 'gpugrep --help' for more information.";
        assert_eq!(
            message(&["--bogus", "x"]),
            format!("gpugrep: unrecognized option '--bogus'{usage}")
        );
        assert_eq!(
            message(&["--bin", "x"]),
            format!("gpugrep: option '--bin' is ambiguous; possibilities: '--binary-files' '--binary'{usage}")
        );
        assert_eq!(
            message(&["-k", "x"]),
            format!("gpugrep: invalid option -- 'k'{usage}")
        );
        assert_eq!(
            message(&["--count=3", "x"]),
            format!("gpugrep: option '--count' doesn't allow an argument{usage}")
        );
        assert_eq!(
            message(&["x", "--regexp"]),
            format!("gpugrep: option '--regexp' requires an argument{usage}")
        );
        for args in [&["-e"][..], &["--colo=x", "--co"], &["--max-count"]] {
            let m = message(args);
            assert!(m.starts_with("gpugrep: "), "{args:?}: {m}");
            assert!(!m.contains("error:"), "{args:?}: {m}");
        }
    }
}
