//! Reading pattern sources into one list of byte-string patterns, with
//! where each came from (a `-f` file's name and line, for messages about
//! an invalid pattern, as GNU grep prints them: `grep: rules.txt:17: ...`).

use crate::config::{os_to_bytes, PatternSource};
use std::io::Read;

/// A pattern source that could not be read.
#[derive(Debug)]
pub struct ReadError {
    /// The file as the user named it.
    pub file: String,
    /// Why it failed.
    pub reason: String,
}

/// Where a pattern came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `-e` or the positional PATTERNS: GNU grep names no place for them.
    Arg,
    /// Line `line` (from 1) of the `-f` file named `file` (`-` for
    /// standard input, as GNU grep names it).
    File { file: String, line: usize },
}

impl Origin {
    /// `FILE:LINE` for a pattern file's line, else `None`.
    pub fn place(&self) -> Option<String> {
        match self {
            Origin::Arg => None,
            Origin::File { file, line } => Some(format!("{file}:{line}")),
        }
    }
}

/// The patterns, and where each came from (same length, same order).
#[derive(Debug, Default)]
pub struct Patterns {
    pub list: Vec<Vec<u8>>,
    pub origins: Vec<Origin>,
}

/// Reads every pattern, in command-line order. `-f -` reads standard input.
/// An argument or file holding N lines gives N patterns (a final newline
/// adds none); an empty file gives none.
pub fn read_patterns(sources: &[PatternSource]) -> Result<Vec<Vec<u8>>, ReadError> {
    read_patterns_located(sources).map(|p| p.list)
}

/// [`read_patterns`], with each pattern's [`Origin`].
pub fn read_patterns_located(sources: &[PatternSource]) -> Result<Patterns, ReadError> {
    let mut out = Patterns::default();
    for source in sources {
        match source {
            PatternSource::Arg(arg) => {
                let split = split_arg(&os_to_bytes(arg.clone()));
                out.origins.extend(split.iter().map(|_| Origin::Arg));
                out.list.extend(split);
            }
            PatternSource::File(path) => {
                let data = if path == "-" && crate::stdio::stdin_closed() {
                    Err(std::io::Error::from_raw_os_error(libc::EBADF))
                } else if path == "-" {
                    let mut buf = Vec::new();
                    std::io::stdin().lock().read_to_end(&mut buf).map(|_| buf)
                } else {
                    std::fs::read(path)
                };
                let data = data.map_err(|e| ReadError {
                    file: path.to_string_lossy().into_owned(),
                    reason: crate::input::io_reason(&e),
                })?;
                let split = split_file(&data);
                let file = path.to_string_lossy().into_owned();
                out.origins
                    .extend((1..=split.len()).map(|line| Origin::File {
                        file: file.clone(),
                        line,
                    }));
                out.list.extend(split);
            }
        }
    }
    Ok(out)
}

/// `-e 'a\nb'` is two patterns; `-e ''` is one empty pattern.
fn split_arg(arg: &[u8]) -> Vec<Vec<u8>> {
    arg.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

/// A file's lines; the final newline ends the last line, it does not start
/// an empty one.
fn split_file(data: &[u8]) -> Vec<Vec<u8>> {
    if data.is_empty() {
        return Vec::new();
    }
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    split_arg(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_file_has_no_patterns() {
        assert!(split_file(b"").is_empty());
    }

    #[test]
    fn file_with_empty_line_has_empty_pattern() {
        assert_eq!(split_file(b"\n"), vec![b"".to_vec()]);
        assert_eq!(
            split_file(b"a\n\nb"),
            vec![b"a".to_vec(), b"".to_vec(), b"b".to_vec()]
        );
    }

    #[test]
    fn arg_with_newlines_is_several_patterns() {
        assert_eq!(split_arg(b"a\nb"), vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(split_arg(b""), vec![b"".to_vec()]);
    }
}
