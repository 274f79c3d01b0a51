//! What the program will do, decided once from what the user typed.
//!
//! `Config` holds validated, typed settings; every later stage reads it and
//! none looks back at the command line. Errors here are usage errors: grep's
//! message and exit status 2, before any file is opened.

mod parse;

use crate::cli::Cli;
use crate::encoding::{self, EncodingChoice};
pub use parse::{os_to_bytes, parse_size, MAX_THREADS};
use std::ffi::OsString;

/// How patterns are interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `-F`: fixed strings.
    Fixed,
    /// `-G` (default): basic regular expressions.
    Basic,
    /// `-E`: extended regular expressions.
    Extended,
    /// `-P`: the `regex` crate's own syntax, read as it is (`(?i)`, `\d`,
    /// lazy repetitions, `\p{..}`), for rules written for ripgrep, RE2 or
    /// Go (secret scanners' configurations). Not PCRE: no look-around, no
    /// back-references, no `\K`; the crate's error names what it lacks.
    Perl,
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

impl Mode {
    /// `-l`, `-L` and `-q`: the first selected line settles an input.
    pub fn first_match_ends(self) -> bool {
        matches!(
            self,
            Mode::FilesWithMatches | Mode::FilesWithoutMatch | Mode::Quiet
        )
    }
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
    /// `-T`: a tab before each printed line's text, numbers padded.
    pub initial_tab: bool,
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
    pub fn from_cli(mut cli: Cli) -> Result<Config, UsageError> {
        let (patterns, paths) = parse::patterns_and_paths(&mut cli)?;
        let syntax = parse::syntax(&cli)?;
        let (before, after) = parse::context(&cli)?;
        let max_count = cli
            .max_count
            .as_deref()
            .map(parse::max_count)
            .transpose()?
            .flatten();
        let mode = parse::mode(&cli);
        let binary = parse::binary(&cli)?;
        let color = parse::color(&cli)?;
        let engine = parse::engine(&cli)?;
        let encoding = encoding::parse_label(&cli.encoding).map_err(UsageError)?;
        let threads = parse::threads(&cli)?;
        let (gpu_memory, gpu_staging) = parse::gpu_sizes(&cli)?;
        let group_separator = match cli.no_group_separator {
            true => None,
            false => Some(
                cli.group_separator
                    .take()
                    .map(os_to_bytes)
                    .unwrap_or_else(|| b"--".to_vec()),
            ),
        };
        let with_filename = match (cli.with_filename, cli.no_filename) {
            (true, _) => Some(true),
            (false, true) => Some(false),
            (false, false) => None,
        };
        parse::check_json(&cli, mode)?;
        let (recursive, skip_directories) = parse::directories(&cli)?;
        let exclude = parse::excludes(&mut cli)?;
        let skip_devices = parse::skip_devices(&cli)?;
        let implicit_path = paths.is_empty() && !parse::has_file_lists(&cli);
        let paths = parse::listed_paths(&cli, &patterns, paths)?;
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
            initial_tab: cli.initial_tab,
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

    /// Only which lines match matters, not where in them: no `-o`, colour,
    /// `--count-matches` or JSON (whose lines carry their submatches).
    pub fn lines_only(&self) -> bool {
        !(self.only_matching || self.color || self.json || self.mode == Mode::CountMatches)
    }

    /// True when output needs line numbers counted.
    pub fn needs_line_numbers(&self) -> bool {
        self.line_number || self.json
    }
}
