//! What the user typed: GNU grep's options, parsed by clap.
//!
//! Nothing here is interpreted: numbers stay strings so that `config` can
//! reject them with grep's own messages, and the first positional argument
//! is split into PATTERN and FILEs there, since that depends on `-e`/`-f`.

use clap::{ArgAction, Parser};
use std::ffi::OsString;

/// grep-compatible search on an NVIDIA GPU, with a fast CPU engine.
#[derive(Parser, Debug, Default)]
#[command(
    name = "gpugrep",
    version,
    disable_help_flag = true,
    infer_long_args = true,
    // grep lets any option be repeated; the last value wins.
    args_override_self = true,
    override_usage = "gpugrep [OPTION]... PATTERNS [FILE]...",
    after_help = "Exit status is 0 if any line is selected, 1 otherwise; \
                  2 if an error occurred, unless -q was given and a line was selected."
)]
pub struct Cli {
    /// PATTERNS (unless -e or -f is given) followed by FILEs.
    #[arg(value_name = "PATTERNS [FILE]", allow_hyphen_values = false)]
    pub positional: Vec<OsString>,

    // --- Pattern selection and interpretation ---
    /// Use PATTERNS for matching (repeatable).
    #[arg(short = 'e', long = "regexp", value_name = "PATTERNS", action = ArgAction::Append, allow_hyphen_values = true)]
    pub regexp: Vec<OsString>,
    /// Take PATTERNS from FILE, one per line (`-` is standard input).
    #[arg(short = 'f', long = "file", value_name = "FILE", action = ArgAction::Append)]
    pub file: Vec<OsString>,
    // -F, -E and -G exclude each other: `config` rejects two of them, as grep
    // does ("conflicting matchers specified"); one of them twice is fine.
    /// PATTERNS are fixed strings.
    #[arg(short = 'F', long = "fixed-strings")]
    pub fixed_strings: bool,
    /// PATTERNS are extended regular expressions.
    #[arg(short = 'E', long = "extended-regexp")]
    pub extended_regexp: bool,
    /// PATTERNS are basic regular expressions (the default).
    #[arg(short = 'G', long = "basic-regexp")]
    pub basic_regexp: bool,
    /// PATTERNS are Perl-style regular expressions, in the syntax of Rust's `regex` crate (as ripgrep's default): no look-around, no back-references.
    #[arg(short = 'P', long = "perl-regexp")]
    pub perl_regexp: bool,
    /// Ignore case distinctions in patterns and data.
    #[arg(
        short = 'i',
        long = "ignore-case",
        visible_short_alias = 'y',
        overrides_with = "no_ignore_case"
    )]
    pub ignore_case: bool,
    /// Do not ignore case distinctions (the default).
    #[arg(long = "no-ignore-case", overrides_with = "ignore_case")]
    pub no_ignore_case: bool,
    /// Match only whole words.
    #[arg(short = 'w', long = "word-regexp")]
    pub word_regexp: bool,
    /// Match only whole lines.
    #[arg(short = 'x', long = "line-regexp")]
    pub line_regexp: bool,
    /// Select non-matching lines.
    #[arg(short = 'v', long = "invert-match")]
    pub invert_match: bool,
    /// Lines end with a NUL byte, not a newline.
    #[arg(short = 'z', long = "null-data")]
    pub null_data: bool,

    // --- Output control ---
    /// Print only a count of selected lines per file.
    #[arg(short = 'c', long = "count")]
    pub count: bool,
    /// Print only a count of matches per file.
    #[arg(long = "count-matches")]
    pub count_matches: bool,
    /// Print only names of files with selected lines.
    #[arg(
        short = 'l',
        long = "files-with-matches",
        overrides_with = "files_without_match"
    )]
    pub files_with_matches: bool,
    /// Print only names of files with no selected lines.
    #[arg(
        short = 'L',
        long = "files-without-match",
        overrides_with = "files_with_matches"
    )]
    pub files_without_match: bool,
    /// Show only the matched parts of lines.
    #[arg(short = 'o', long = "only-matching")]
    pub only_matching: bool,
    /// Suppress all normal output.
    #[arg(short = 'q', long = "quiet", alias = "silent")]
    pub quiet: bool,
    /// Suppress error messages about missing or unreadable files.
    #[arg(short = 's', long = "no-messages")]
    pub no_messages: bool,
    /// Stop after NUM selected lines.
    #[arg(
        short = 'm',
        long = "max-count",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub max_count: Option<String>,
    /// Print the line number with output lines.
    #[arg(short = 'n', long = "line-number")]
    pub line_number: bool,
    /// Print the byte offset with output lines.
    #[arg(short = 'b', long = "byte-offset")]
    pub byte_offset: bool,
    /// Print the file name for each match.
    #[arg(short = 'H', long = "with-filename", overrides_with = "no_filename")]
    pub with_filename: bool,
    /// Suppress the file name prefix on output.
    #[arg(short = 'h', long = "no-filename", overrides_with = "with_filename")]
    pub no_filename: bool,
    /// Use LABEL as the file name for standard input.
    #[arg(long = "label", value_name = "LABEL")]
    pub label: Option<OsString>,
    /// Print a NUL byte after each file name.
    #[arg(short = 'Z', long = "null")]
    pub null: bool,
    /// Line up each line's text on a tab stop after the file name, line
    /// number and byte offset (numbers padded to one width per file).
    #[arg(short = 'T', long = "initial-tab")]
    pub initial_tab: bool,
    /// Print NUM lines of trailing context.
    #[arg(
        short = 'A',
        long = "after-context",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub after_context: Option<String>,
    /// Print NUM lines of leading context.
    #[arg(
        short = 'B',
        long = "before-context",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub before_context: Option<String>,
    /// Print NUM lines of output context.
    #[arg(
        short = 'C',
        long = "context",
        value_name = "NUM",
        allow_hyphen_values = true
    )]
    pub context: Option<String>,
    /// Print SEP between groups of context lines.
    #[arg(
        long = "group-separator",
        value_name = "SEP",
        allow_hyphen_values = true
    )]
    pub group_separator: Option<OsString>,
    /// Print no separator between groups of context lines.
    #[arg(long = "no-group-separator")]
    pub no_group_separator: bool,
    /// Colour matches: never, always or auto (only on a terminal).
    #[arg(long = "color", alias = "colour", value_name = "WHEN", num_args = 0..=1, require_equals = true, default_missing_value = "auto")]
    pub color: Option<String>,
    /// Flush output after every line.
    #[arg(long = "line-buffered")]
    pub line_buffered: bool,

    // --- File and directory selection ---
    /// Process a binary file as if it were text.
    #[arg(short = 'a', long = "text")]
    pub text: bool,
    /// Ignore binary files (as --binary-files=without-match).
    #[arg(short = 'I')]
    pub ignore_binary: bool,
    /// How to treat binary files: binary, text or without-match.
    #[arg(long = "binary-files", value_name = "TYPE")]
    pub binary_files: Option<String>,
    /// No effect: GNU grep's -U keeps carriage returns on MS-DOS and
    /// Windows; here, as on every POSIX system, they are never stripped.
    #[arg(short = 'U', long = "binary")]
    pub binary: bool,
    /// Search directories recursively.
    #[arg(short = 'r', long = "recursive")]
    pub recursive: bool,
    /// What to do with directories: read (an error), skip or recurse.
    #[arg(short = 'd', long = "directories", value_name = "ACTION")]
    pub directories: Option<String>,
    /// What to do with devices, FIFOs and sockets: read or skip.
    #[arg(short = 'D', long = "devices", value_name = "ACTION")]
    pub devices: Option<String>,
    /// Search directories recursively, following all symbolic links.
    #[arg(short = 'R', long = "dereference-recursive")]
    pub dereference_recursive: bool,
    /// Search only files whose base name matches GLOB.
    #[arg(long = "include", value_name = "GLOB", action = ArgAction::Append)]
    pub include: Vec<String>,
    /// Skip files whose base name matches GLOB.
    #[arg(long = "exclude", value_name = "GLOB", action = ArgAction::Append)]
    pub exclude: Vec<String>,
    /// Skip directories whose base name matches GLOB.
    #[arg(long = "exclude-dir", value_name = "GLOB", action = ArgAction::Append)]
    pub exclude_dir: Vec<String>,
    /// Skip files whose base name matches a glob read from FILE (one a line).
    #[arg(long = "exclude-from", value_name = "FILE", action = ArgAction::Append)]
    pub exclude_from: Vec<OsString>,
    /// Honour .gitignore, .ignore and git's exclude files while recursing.
    #[arg(long = "gitignore")]
    pub gitignore: bool,
    /// Search the files named in FILE, one a line (`-` is standard input),
    /// after the FILE operands (repeatable).
    #[arg(long = "files-from", value_name = "FILE", action = ArgAction::Append)]
    pub files_from: Vec<OsString>,
    /// Search the files named in FILE, separated by NUL bytes (as `find
    /// -print0` writes them; `-` is standard input), after those of
    /// --files-from (repeatable).
    #[arg(long = "files-from0", value_name = "FILE", action = ArgAction::Append)]
    pub files_from0: Vec<OsString>,
    /// Search gzip, zstd, bzip2, xz and lz4 files by their decompressed
    /// content (the format is told by the file's first bytes).
    #[arg(long = "decompress")]
    pub decompress: bool,

    // --- gpugrep's own options ---
    /// Print results as JSON Lines (ripgrep's schema).
    #[arg(long = "json")]
    pub json: bool,
    /// Print statistics about the search on standard error.
    #[arg(long = "stats")]
    pub stats: bool,
    /// Engine: auto (GPU when it pays), gpu or cpu.
    #[arg(long = "engine", value_name = "ENGINE", default_value = "auto")]
    pub engine: String,
    /// Encoding of the files: a WHATWG label (shift_jis, euc-jp, gbk, big5,
    /// euc-kr, utf-16le, windows-1252, ...) or auto (BOM sniffing).
    #[arg(long = "encoding", value_name = "LABEL", default_value = "auto")]
    pub encoding: String,
    /// Most GPU memory the GPU engine may use (e.g. 256M, 2G; default: what
    /// its buffers need). Also GPUGREP_GPU_MEMORY.
    #[arg(long = "gpu-memory", value_name = "SIZE")]
    pub gpu_memory: Option<String>,
    /// Most page-locked host memory for the GPU's staging ring (default 1G).
    /// Also GPUGREP_GPU_STAGING.
    #[arg(long = "gpu-staging", value_name = "SIZE")]
    pub gpu_staging: Option<String>,
    /// Print what gpugrep decided (engine, kernel, fallbacks) on standard error.
    #[arg(long = "debug")]
    pub debug: bool,
    /// Number of search threads (default: all cores).
    #[arg(short = 'j', long = "threads", value_name = "NUM")]
    pub threads: Option<String>,
    /// Print the man page (man) or a shell completion script (complete-bash,
    /// complete-zsh, complete-fish, complete-powershell) and exit.
    #[arg(
        long = "generate",
        value_name = "KIND",
        value_parser = ["man", "complete-bash", "complete-zsh", "complete-fish", "complete-powershell"]
    )]
    pub generate: Option<String>,
    /// Print help.
    #[arg(long = "help", action = ArgAction::Help)]
    pub help: Option<bool>,
}

/// Options that take their value from the next argument, read from clap's
/// own definitions (so this can never drift from them): the short letters,
/// and every long name and alias.
struct ValueOptions {
    shorts: Vec<char>,
    /// (long name or alias, whether it takes the next argument as value).
    longs: Vec<(String, bool)>,
}

impl ValueOptions {
    fn from_clap() -> ValueOptions {
        use clap::CommandFactory;
        let mut cmd = Cli::command();
        cmd.build();
        let mut shorts = Vec::new();
        let mut longs = Vec::new();
        for arg in cmd.get_arguments() {
            let takes = arg.get_action().takes_values() && !arg.is_require_equals_set();
            if takes {
                shorts.extend(arg.get_short_and_visible_aliases().unwrap_or_default());
            }
            if let Some(long) = arg.get_long() {
                longs.push((long.to_string(), takes));
            }
            for alias in arg.get_all_aliases().unwrap_or_default() {
                longs.push((alias.to_string(), takes));
            }
        }
        ValueOptions { shorts, longs }
    }

    /// Whether `--NAME` (no `=`) takes the next argument: NAME is an option
    /// or an unambiguous prefix of one (clap's `infer_long_args`, GNU's
    /// getopt), where every candidate agrees.
    fn long_takes_value(&self, name: &str) -> bool {
        if let Some((_, takes)) = self.longs.iter().find(|(l, _)| l == name) {
            return *takes;
        }
        let mut candidates = self.starting(name);
        match candidates.next() {
            Some((_, first)) => *first && candidates.all(|(_, t)| t == first),
            None => false,
        }
    }

    /// The long names and aliases that `name` is a prefix of, in the
    /// order they are defined.
    fn starting<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a (String, bool)> {
        self.longs.iter().filter(move |(l, _)| l.starts_with(name))
    }
}

/// The long options and aliases that `--name` abbreviates, in the order
/// they are defined (clap's `infer_long_args` refuses the prefix of more
/// than one: GNU's getopt names them in its error).
pub fn longs_starting(name: &str) -> Vec<String> {
    let options = ValueOptions::from_clap();
    let name = name.trim_start_matches('-');
    options.starting(name).map(|(l, _)| l.clone()).collect()
}

/// GNU grep's context shorthand: `-NUM` means `--context=NUM`. Rewrites
/// those arguments (not option values, nothing after `--`) so clap sees a
/// normal option.
pub fn expand_context_shorthand(args: Vec<OsString>) -> Vec<OsString> {
    let options = ValueOptions::from_clap();
    let mut out = Vec::with_capacity(args.len());
    let mut value_next = false;
    let mut done = false;
    for (i, arg) in args.into_iter().enumerate() {
        let text = arg.to_str().unwrap_or("");
        let is_value = std::mem::take(&mut value_next);
        if i == 0 || done || is_value {
            out.push(arg);
            continue;
        }
        if text == "--" {
            done = true;
        } else if let Some(num) = text
            .strip_prefix('-')
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            out.push(OsString::from(format!("--context={num}")));
            continue;
        } else if let Some(long) = text.strip_prefix("--") {
            value_next = !long.contains('=') && options.long_takes_value(long);
        } else if let Some(cluster) = text.strip_prefix('-') {
            // `-ie PAT`: the value follows when the cluster ends with a
            // value-taking letter and holds no inline value.
            // A cluster's first value-taking letter takes the rest of it,
            // or the next argument when it is the cluster's last letter.
            let first_valued = cluster
                .char_indices()
                .find(|(_, c)| options.shorts.contains(c));
            value_next = first_valued.is_some_and(|(i, c)| i + c.len_utf8() == cluster.len());
        }
        out.push(arg);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(OsString::from).collect();
        expand_context_shorthand(args)
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn dash_num_becomes_context() {
        assert_eq!(expand(&["g", "-2", "x"]), ["g", "--context=2", "x"]);
        assert_eq!(
            expand(&["g", "-e", "-2", "-3"]),
            ["g", "-e", "-2", "--context=3"]
        );
        assert_eq!(expand(&["g", "-ie", "-2"]), ["g", "-ie", "-2"]);
        assert_eq!(expand(&["g", "--regexp", "-2"]), ["g", "--regexp", "-2"]);
        assert_eq!(expand(&["g", "--", "-2"]), ["g", "--", "-2"]);
        assert_eq!(
            expand(&["g", "-m", "-1", "-1", "x"]),
            ["g", "-m", "-1", "--context=1", "x"]
        );
        assert_eq!(expand(&["g", "-n", "-"]), ["g", "-n", "-"]);
    }

    /// Regression: `--reg -2` (a prefix of `--regexp`) took `-2` as
    /// `--context=2`: the option table beside clap's did not know prefixes.
    #[test]
    fn long_prefix_takes_its_value() {
        assert_eq!(
            expand(&["g", "--reg", "-2", "f"]),
            ["g", "--reg", "-2", "f"]
        );
        assert_eq!(
            expand(&["g", "--max", "-1", "-1"]),
            ["g", "--max", "-1", "--context=1"]
        );
        assert_eq!(
            expand(&["g", "--reg=x", "-2"]),
            ["g", "--reg=x", "--context=2"]
        );
        assert_eq!(
            expand(&["g", "--colour", "-2"]),
            ["g", "--colour", "--context=2"]
        );
        assert_eq!(expand(&["g", "-e2", "-2"]), ["g", "-e2", "--context=2"]);
        assert_eq!(expand(&["g", "-ne", "-2"]), ["g", "-ne", "-2"]);
    }
}
