//! What the program will do, decided once from what the user typed.
//!
//! `Config` holds validated, typed settings; every later stage reads it and
//! none looks back at the command line. Errors here are usage errors: grep's
//! message and exit status 2, before any file is opened.

use crate::cli::Cli;
use crate::encoding::{self, EncodingChoice};
use std::ffi::OsString;
use std::io::IsTerminal;

/// How patterns are interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `-F`: fixed strings.
    Fixed,
    /// `-G` (default): basic regular expressions.
    Basic,
    /// `-E`: extended regular expressions.
    Extended,
}

/// What is printed for each file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Selected lines (or parts with `-o`), with context.
    Lines,
    /// `-c`: a count of selected lines.
    Count,
    /// `--count-matches`: a count of matches.
    CountMatches,
    /// `-l`: names of files with a selected line.
    FilesWithMatches,
    /// `-L`: names of files without one.
    FilesWithoutMatch,
    /// `-q`: nothing.
    Quiet,
}

/// What to do with files that look binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryMode {
    /// Suppress output; say "binary file matches" once.
    Binary,
    /// Treat as text (`-a`).
    Text,
    /// Treat as not matching (`-I`).
    WithoutMatch,
}

/// Which engine searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineChoice {
    /// The GPU when the input is large enough to win, else the CPU.
    Auto,
    /// The CPU engine.
    Cpu,
    /// The GPU engine, or an error.
    Gpu,
}

/// A usage error: printed as `gpugrep: MESSAGE`, exit status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Where patterns come from, in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternSource {
    /// `-e PAT` or the positional PATTERNS.
    Arg(OsString),
    /// `-f FILE` (`-` is standard input).
    File(OsString),
}

/// Everything the search will do.
#[derive(Debug, Clone)]
pub struct Config {
    pub patterns: Vec<PatternSource>,
    pub syntax: Syntax,
    pub ignore_case: bool,
    pub word: bool,
    pub line: bool,
    pub invert: bool,
    /// The line terminator: `\n`, or NUL with `-z`.
    pub terminator: u8,
    pub mode: Mode,
    pub only_matching: bool,
    pub no_messages: bool,
    pub max_count: Option<u64>,
    pub line_number: bool,
    pub byte_offset: bool,
    /// `Some` when -H or -h decided; `None`: names when several files or recursing.
    pub with_filename: Option<bool>,
    pub label: OsString,
    pub null: bool,
    pub before: usize,
    pub after: usize,
    /// Any of -A/-B/-C was given (even 0): groups get separators.
    pub context_given: bool,
    pub group_separator: Option<Vec<u8>>,
    pub color: bool,
    pub line_buffered: bool,
    pub binary: BinaryMode,
    pub recursive: bool,
    /// `-d skip`: directory operands are passed over silently.
    pub skip_directories: bool,
    /// `-D skip`: devices, FIFOs and sockets given as operands are skipped.
    pub skip_devices: bool,
    pub follow_links: bool,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub exclude_dir: Vec<String>,
    pub gitignore: bool,
    /// `--decompress`: compressed files are searched by their content.
    pub decompress: bool,
    pub json: bool,
    pub stats: bool,
    pub engine: EngineChoice,
    /// `--encoding`: what the files are encoded in.
    pub encoding: EncodingChoice,
    pub debug: bool,
    pub threads: usize,
    /// `--gpu-memory`: the GPU engine's device memory budget in bytes.
    pub gpu_memory: Option<u64>,
    /// `--gpu-staging`: page-locked host memory for the staging ring.
    pub gpu_staging: Option<u64>,
    /// Files and directories to search, in order; empty means the default.
    pub paths: Vec<OsString>,
    /// True when no path was given, by operand or list (stdin, or `.` with -r).
    pub implicit_path: bool,
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
fn parse_max_count(value: &str) -> Result<Option<u64>, UsageError> {
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

impl Config {
    /// The configuration of a command line (the program name left out),
    /// for unit tests.
    #[cfg(test)]
    pub(crate) fn from_args(args: &[&str]) -> Config {
        use clap::Parser;
        let argv = std::iter::once("gpugrep").chain(args.iter().copied());
        Config::from_cli(Cli::try_parse_from(argv).unwrap()).unwrap()
    }

    /// Validates what was typed and decides what to do.
    pub fn from_cli(cli: Cli) -> Result<Config, UsageError> {
        let mut patterns: Vec<PatternSource> = Vec::new();
        let mut positional = cli.positional.into_iter();
        let explicit = !cli.regexp.is_empty() || !cli.file.is_empty();
        patterns.extend(cli.regexp.into_iter().map(PatternSource::Arg));
        patterns.extend(cli.file.into_iter().map(PatternSource::File));
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
        let paths: Vec<OsString> = positional.collect();

        let matchers = [cli.fixed_strings, cli.extended_regexp, cli.basic_regexp];
        if matchers.iter().filter(|&&m| m).count() > 1 {
            return Err(UsageError("conflicting matchers specified".into()));
        }
        let syntax = if cli.fixed_strings {
            Syntax::Fixed
        } else if cli.extended_regexp {
            Syntax::Extended
        } else {
            Syntax::Basic
        };

        let context = |v: &Option<String>| -> Result<Option<usize>, UsageError> {
            v.as_deref()
                .map(|s| {
                    parse_count(s, "context length")
                        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
                })
                .transpose()
        };
        let both = context(&cli.context)?.unwrap_or(0);
        let before = context(&cli.before_context)?.unwrap_or(both);
        let after = context(&cli.after_context)?.unwrap_or(both);
        let max_count = cli
            .max_count
            .as_deref()
            .map(parse_max_count)
            .transpose()?
            .flatten();

        let mode = if cli.quiet {
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
        };

        let binary = match cli.binary_files.as_deref() {
            _ if cli.text => BinaryMode::Text,
            _ if cli.ignore_binary => BinaryMode::WithoutMatch,
            None | Some("binary") => BinaryMode::Binary,
            Some("text") => BinaryMode::Text,
            Some("without-match") => BinaryMode::WithoutMatch,
            Some(_) => return Err(UsageError("unknown binary-files type".into())),
        };

        let color = match cli.color.as_deref() {
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
        };

        let engine = match cli.engine.as_str() {
            "auto" => EngineChoice::Auto,
            "cpu" => EngineChoice::Cpu,
            "gpu" => EngineChoice::Gpu,
            other => {
                return Err(UsageError(format!(
                    "invalid argument '{other}' for '--engine' (auto, cpu or gpu)"
                )))
            }
        };

        let encoding = encoding::parse_label(&cli.encoding).map_err(UsageError)?;

        let threads = match cli.threads.as_deref() {
            Some(s) => match parse_count(s, "thread count")? {
                0 => default_threads(),
                n => usize::try_from(n).unwrap_or(MAX_THREADS).min(MAX_THREADS),
            },
            None => default_threads(),
        };

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

        let group_separator = if cli.no_group_separator {
            None
        } else {
            Some(
                cli.group_separator
                    .map(os_to_bytes)
                    .unwrap_or_else(|| b"--".to_vec()),
            )
        };

        let with_filename = if cli.with_filename {
            Some(true)
        } else if cli.no_filename {
            Some(false)
        } else {
            None
        };

        if cli.json && !matches!(mode, Mode::Lines | Mode::Quiet) {
            return Err(UsageError(
                "--json cannot be combined with -c, --count-matches, -l or -L".into(),
            ));
        }
        if cli.json && cli.only_matching {
            return Err(UsageError("--json cannot be combined with -o".into()));
        }
        let (recursive, skip_directories) = match cli.directories.as_deref() {
            None | Some("read") => (cli.recursive || cli.dereference_recursive, false),
            Some("skip") => (cli.recursive || cli.dereference_recursive, true),
            Some("recurse") => (true, false),
            Some(other) => {
                return Err(UsageError(format!(
                    "{other}: invalid argument for --directories (read, skip or recurse)"
                )))
            }
        };
        let mut exclude = cli.exclude;
        for file in &cli.exclude_from {
            let text = std::fs::read(file).map_err(|e| {
                UsageError(format!(
                    "{}: {}",
                    file.to_string_lossy(),
                    crate::input::io_reason(&e)
                ))
            })?;
            let text = String::from_utf8_lossy(&text);
            exclude.extend(text.lines().filter(|l| !l.is_empty()).map(str::to_string));
        }
        let skip_devices = match cli.devices.as_deref() {
            None | Some("read") => false,
            Some("skip") => true,
            Some(other) => {
                return Err(UsageError(format!(
                    "{other}: invalid argument for --devices (read or skip)"
                )))
            }
        };
        let listed = !cli.files_from.is_empty() || !cli.files_from0.is_empty();
        let implicit_path = paths.is_empty() && !listed;
        let mut paths = paths;
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
        let lists = (cli.files_from.iter().map(|l| (l, b'\n')))
            .chain(cli.files_from0.iter().map(|l| (l, 0u8)));
        for (list, separator) in lists {
            let listed = crate::input::list::read(list, separator).map_err(|e| {
                UsageError(format!(
                    "{}: {}",
                    list.to_string_lossy(),
                    crate::input::io_reason(&e)
                ))
            })?;
            paths.extend(listed);
        }
        Ok(Config {
            patterns,
            syntax,
            ignore_case: cli.ignore_case && !cli.no_ignore_case,
            word: cli.word_regexp,
            line: cli.line_regexp,
            invert: cli.invert_match,
            terminator: if cli.null_data { 0 } else { b'\n' },
            mode,
            only_matching: cli.only_matching,
            no_messages: cli.no_messages,
            max_count,
            line_number: cli.line_number,
            byte_offset: cli.byte_offset,
            with_filename,
            label: cli
                .label
                .unwrap_or_else(|| OsString::from("(standard input)")),
            null: cli.null,
            before,
            after,
            context_given: cli.context.is_some()
                || cli.before_context.is_some()
                || cli.after_context.is_some(),
            group_separator,
            color,
            line_buffered: cli.line_buffered,
            binary,
            recursive,
            skip_directories,
            skip_devices,
            follow_links: cli.dereference_recursive,
            include: cli.include,
            exclude,
            exclude_dir: cli.exclude_dir,
            gitignore: cli.gitignore,
            decompress: cli.decompress,
            json: cli.json,
            stats: cli.stats,
            engine,
            encoding,
            debug: cli.debug,
            threads,
            gpu_memory,
            gpu_staging,
            paths,
            implicit_path,
        })
    }

    /// True when output needs line numbers counted.
    pub fn needs_line_numbers(&self) -> bool {
        self.line_number || self.json
    }
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
