//! The option values of a command line, parsed and checked one option at a
//! time for [`Config::from_cli`](super::Config::from_cli): each function
//! turns what was typed into a typed setting or grep's usage message, so
//! `from_cli` reads as the list of settings it builds.

use super::{BinaryMode, EngineChoice, Mode, PatternSource, Syntax, UsageError};
use crate::cli::Cli;
use std::ffi::OsString;
use std::io::IsTerminal;

/// The patterns (`-e`, `-f`, else the first operand) and the operands left.
pub(super) fn patterns_and_paths(
    cli: &mut Cli,
) -> Result<(Vec<PatternSource>, Vec<OsString>), UsageError> {
    let mut patterns: Vec<PatternSource> = Vec::new();
    let mut positional = std::mem::take(&mut cli.positional).into_iter();
    let explicit = !cli.regexp.is_empty() || !cli.file.is_empty();
    patterns.extend(
        std::mem::take(&mut cli.regexp)
            .into_iter()
            .map(PatternSource::Arg),
    );
    patterns.extend(
        std::mem::take(&mut cli.file)
            .into_iter()
            .map(PatternSource::File),
    );
    if !explicit {
        match positional.next() {
            Some(p) => patterns.push(PatternSource::Arg(p)),
            None => {
                return Err(UsageError(
                    "no pattern given\nUsage: gpugrep [OPTION]... PATTERNS [FILE]...".into(),
                ))
            }
        }
    }
    Ok((patterns, positional.collect()))
}

/// `-F`, `-G`, `-E` or `-P`: at most one of them.
pub(super) fn syntax(cli: &Cli) -> Result<Syntax, UsageError> {
    let matchers = [
        cli.fixed_strings,
        cli.extended_regexp,
        cli.basic_regexp,
        cli.perl_regexp,
    ];
    if matchers.iter().filter(|&&m| m).count() > 1 {
        return Err(UsageError("conflicting matchers specified".into()));
    }
    Ok(if cli.fixed_strings {
        Syntax::Fixed
    } else if cli.extended_regexp {
        Syntax::Extended
    } else if cli.perl_regexp {
        Syntax::Perl
    } else {
        Syntax::Basic
    })
}

/// Lines of context before and after (`-B`, `-A`, else `-C`).
pub(super) fn context(cli: &Cli) -> Result<(usize, usize), UsageError> {
    let context = |v: &Option<String>| -> Result<Option<usize>, UsageError> {
        v.as_deref()
            .map(|s| {
                parse_count(s, "context length").map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            })
            .transpose()
    };
    let both = context(&cli.context)?.unwrap_or(0);
    let before = context(&cli.before_context)?.unwrap_or(both);
    let after = context(&cli.after_context)?.unwrap_or(both);
    Ok((before, after))
}

/// What is printed per file: `-q` beats `-l`, `-L`, `-c`, `--count-matches`.
pub(super) fn mode(cli: &Cli) -> Mode {
    if cli.quiet {
        Mode::Quiet
    } else if cli.files_with_matches {
        Mode::FilesWithMatches
    } else if cli.files_without_match {
        Mode::FilesWithoutMatch
    } else if cli.count {
        Mode::Count
    } else if cli.count_matches {
        Mode::CountMatches
    } else {
        Mode::Lines
    }
}

/// `-a`, `-I` or `--binary-files`.
pub(super) fn binary(cli: &Cli) -> Result<BinaryMode, UsageError> {
    Ok(match cli.binary_files.as_deref() {
        _ if cli.text => BinaryMode::Text,
        _ if cli.ignore_binary => BinaryMode::WithoutMatch,
        None | Some("binary") => BinaryMode::Binary,
        Some("text") => BinaryMode::Text,
        Some("without-match") => BinaryMode::WithoutMatch,
        Some(_) => return Err(UsageError("unknown binary-files type".into())),
    })
}

/// `--color`: `auto` colours a terminal that is not `TERM=dumb`.
pub(super) fn color(cli: &Cli) -> Result<bool, UsageError> {
    Ok(match cli.color.as_deref() {
        None | Some("never") | Some("no") | Some("none") => false,
        Some("always") | Some("yes") | Some("force") => true,
        Some("auto") | Some("tty") | Some("if-tty") => {
            std::io::stdout().is_terminal()
                && std::env::var("TERM").map(|t| t != "dumb").unwrap_or(false)
        }
        Some(other) => {
            return Err(UsageError(format!(
                "invalid argument '{other}' for '--color' (never, always or auto)"
            )))
        }
    })
}

/// `--engine`.
pub(super) fn engine(cli: &Cli) -> Result<EngineChoice, UsageError> {
    match cli.engine.as_str() {
        "auto" => Ok(EngineChoice::Auto),
        "cpu" => Ok(EngineChoice::Cpu),
        "gpu" => Ok(EngineChoice::Gpu),
        other => Err(UsageError(format!(
            "invalid argument '{other}' for '--engine' (auto, cpu or gpu)"
        ))),
    }
}

/// `-j`: 0 or none means one thread per core.
pub(super) fn threads(cli: &Cli) -> Result<usize, UsageError> {
    Ok(match cli.threads.as_deref() {
        Some(s) => match parse_count(s, "thread count")? {
            0 => default_threads(),
            n => usize::try_from(n).unwrap_or(MAX_THREADS).min(MAX_THREADS),
        },
        None => default_threads(),
    })
}

/// `--gpu-memory` and `--gpu-staging`, else their environment variables.
pub(super) fn gpu_sizes(cli: &Cli) -> Result<(Option<u64>, Option<u64>), UsageError> {
    let size = |opt: &Option<String>,
                env: &crate::knobs::Knob<u64>,
                what: &str|
     -> Result<Option<u64>, UsageError> {
        let invalid = |v: String| UsageError(format!("{v}: invalid {what}"));
        match opt {
            Some(v) => parse_size(v).map(Some).ok_or_else(|| invalid(v.clone())),
            None => env.checked().map_err(invalid),
        }
    };
    let knobs = crate::knobs::get();
    let gpu_memory = size(&cli.gpu_memory, &knobs.gpu_memory, "GPU memory size")?;
    let gpu_staging = size(&cli.gpu_staging, &knobs.gpu_staging, "staging memory size")?;
    Ok((gpu_memory, gpu_staging))
}

/// `--json` prints lines: no counts, file lists or `-o`.
pub(super) fn check_json(cli: &Cli, mode: Mode) -> Result<(), UsageError> {
    if cli.json && !matches!(mode, Mode::Lines | Mode::Quiet) {
        return Err(UsageError(
            "--json cannot be combined with -c, --count-matches, -l or -L".into(),
        ));
    }
    if cli.json && cli.only_matching {
        return Err(UsageError("--json cannot be combined with -o".into()));
    }
    Ok(())
}

/// `-r`/`-R` and `-d`: whether to recurse, and whether to skip directory
/// operands.
pub(super) fn directories(cli: &Cli) -> Result<(bool, bool), UsageError> {
    let recursive = cli.recursive || cli.dereference_recursive;
    match cli.directories.as_deref() {
        None | Some("read") => Ok((recursive, false)),
        Some("skip") => Ok((recursive, true)),
        Some("recurse") => Ok((true, false)),
        Some(other) => Err(UsageError(format!(
            "{other}: invalid argument for --directories (read, skip or recurse)"
        ))),
    }
}

/// `--exclude` globs, with those of every `--exclude-from` file.
pub(super) fn excludes(cli: &mut Cli) -> Result<Vec<String>, UsageError> {
    let mut exclude = std::mem::take(&mut cli.exclude);
    for file in &cli.exclude_from {
        let text = std::fs::read(file).map_err(|e| file_error(file, &e))?;
        let text = String::from_utf8_lossy(&text);
        exclude.extend(text.lines().filter(|l| !l.is_empty()).map(str::to_string));
    }
    Ok(exclude)
}

/// `-D`: whether devices, FIFOs and sockets given as operands are skipped.
pub(super) fn skip_devices(cli: &Cli) -> Result<bool, UsageError> {
    match cli.devices.as_deref() {
        None | Some("read") => Ok(false),
        Some("skip") => Ok(true),
        Some(other) => Err(UsageError(format!(
            "{other}: invalid argument for --devices (read or skip)"
        ))),
    }
}

/// Whether paths come from `--files-from`/`--files-from0` lists.
pub(super) fn has_file_lists(cli: &Cli) -> bool {
    !cli.files_from.is_empty() || !cli.files_from0.is_empty()
}

/// The operands followed by the paths of every file list; standard input
/// can be one list, and not a pattern file at the same time.
pub(super) fn listed_paths(
    cli: &Cli,
    patterns: &[PatternSource],
    mut paths: Vec<OsString>,
) -> Result<Vec<OsString>, UsageError> {
    let stdin_list = cli
        .files_from
        .iter()
        .chain(&cli.files_from0)
        .filter(|l| *l == "-")
        .count();
    if stdin_list > 0
        && patterns
            .iter()
            .any(|p| matches!(p, PatternSource::File(f) if f == "-"))
    {
        return Err(UsageError(
            "standard input cannot be both a file list (--files-from -) and a pattern file (-f -)"
                .into(),
        ));
    }
    if stdin_list > 1 {
        return Err(UsageError(
            "standard input can be only one file list (--files-from -)".into(),
        ));
    }
    let lists =
        (cli.files_from.iter().map(|l| (l, b'\n'))).chain(cli.files_from0.iter().map(|l| (l, 0u8)));
    for (list, separator) in lists {
        let listed = crate::input::list::read(list, separator).map_err(|e| file_error(list, &e))?;
        paths.extend(listed);
    }
    Ok(paths)
}

/// `FILE: reason` for a file the command line names that cannot be read.
fn file_error(file: &OsString, e: &std::io::Error) -> UsageError {
    UsageError(format!(
        "{}: {}",
        file.to_string_lossy(),
        crate::input::io_reason(e)
    ))
}

/// A count; digits beyond `u64` mean "unlimited" (`u64::MAX`), as GNU grep
/// takes them.
fn parse_count(value: &str, what: &str) -> Result<u64, UsageError> {
    let v = value.trim();
    let digits = v.strip_prefix('+').unwrap_or(v);
    match digits.parse::<u64>() {
        Ok(n) => Ok(n),
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(u64::MAX),
        Err(_) => Err(UsageError(format!("{value}: invalid {what} argument"))),
    }
}

/// `-m NUM`: negative means no limit, as in GNU grep (whose message for a
/// bad value names no value).
pub(super) fn max_count(value: &str) -> Result<Option<u64>, UsageError> {
    let v = value.trim();
    if let Some(rest) = v.strip_prefix('-') {
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(None);
        }
    }
    parse_count(v, "max count")
        .map(|n| (n != u64::MAX).then_some(n))
        .map_err(|_| UsageError("invalid max count".into()))
}

/// A size in bytes with an optional K, M or G suffix (powers of 1024).
pub fn parse_size(value: &str) -> Option<u64> {
    let v = value.trim();
    let (digits, shift) = match v.char_indices().last()? {
        (i, 'k' | 'K') => (&v[..i], 10),
        (i, 'm' | 'M') => (&v[..i], 20),
        (i, 'g' | 'G') => (&v[..i], 30),
        _ => (v, 0),
    };
    let n: u64 = digits.parse().ok()?;
    n.checked_mul(1 << shift).filter(|&b| b > 0)
}

/// `-j` beyond this is taken as this: a thread per file costs more than it
/// gains long before (with `-j 100000` a small search took 75x longer,
/// spawning threads), and 1,024 still covers slow network file systems.
pub const MAX_THREADS: usize = 1024;

fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The bytes of an OS string (Unix: exact).
pub fn os_to_bytes(s: OsString) -> Vec<u8> {
    use std::os::unix::ffi::OsStringExt;
    s.into_vec()
}
