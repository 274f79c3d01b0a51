//! Errors and messages, as types: what ends a run ([`Error`], printed once
//! by `main` as `PROG: MESSAGE`, exit status 2) and what one input says on
//! standard error ([`Message`]).
//!
//! Every message's text is GNU grep's, byte for byte (tests compare them);
//! the types exist so that no code classifies a message by its text (`-s`
//! silences errors but not "binary file matches", `-q` the reverse) and so
//! that a driver's error travels as a [`source`](std::error::Error::source)
//! instead of as a flattened string.

use crate::config::UsageError;
use crate::engine::gpu::GpuError;
use crate::pattern::compile::PatternError;
use crate::pattern::read::ReadError;
use std::fmt;
use std::io;

/// Why a run ended before or instead of searching (exit status 2).
#[derive(Debug)]
pub enum Error {
    /// The command line is wrong.
    Usage(UsageError),
    /// A pattern file (`-f FILE`) cannot be read: `FILE: reason`.
    PatternFile(ReadError),
    /// A pattern does not compile.
    Pattern(PatternError),
    /// The GPU engine was asked for and cannot serve (the driver's error).
    Gpu(GpuError),
    /// The GPU engine cannot serve, said in words by a caller that has
    /// flattened the driver's error already.
    Engine(String),
    /// Standard output failed (a closed pipe is not an error).
    Write(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(e) => write!(f, "{e}"),
            Error::PatternFile(e) => write!(f, "{}: {}", e.file, e.reason),
            Error::Pattern(e) => write!(f, "{e}"),
            Error::Gpu(e) => write!(f, "{e}"),
            Error::Engine(why) => f.write_str(why),
            Error::Write(e) => write!(f, "write error: {}", crate::input::io_reason(e)),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Usage(e) => Some(e),
            Error::Gpu(e) => Some(e),
            Error::Write(e) => Some(e),
            Error::PatternFile(_) | Error::Pattern(_) | Error::Engine(_) => None,
        }
    }
}

impl From<UsageError> for Error {
    fn from(e: UsageError) -> Error {
        Error::Usage(e)
    }
}

impl From<ReadError> for Error {
    fn from(e: ReadError) -> Error {
        Error::PatternFile(e)
    }
}

impl From<PatternError> for Error {
    fn from(e: PatternError) -> Error {
        Error::Pattern(e)
    }
}

impl From<GpuError> for Error {
    fn from(e: GpuError) -> Error {
        Error::Gpu(e)
    }
}

impl From<String> for Error {
    fn from(why: String) -> Error {
        Error::Engine(why)
    }
}

/// What one input says on standard error, after `PROG: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// An error about the input (`FILE: reason`): exit status 2, silenced
    /// by `-s`.
    Error(String),
    /// `FILE: binary file matches`: not an error, silenced by `-q` only.
    BinaryMatches(String),
}

impl Message {
    /// `NAME: reason` for an input that could not be opened or read.
    pub fn io(name: &str, e: &io::Error) -> Message {
        Message::Error(format!("{name}: {}", crate::input::io_reason(e)))
    }

    /// Whether the message is an error (exit status 2).
    pub fn is_error(&self) -> bool {
        matches!(self, Message::Error(_))
    }

    /// Whether the message is printed: `-s` (`no_messages`) silences
    /// errors, `-q` (`quiet`) the binary-file note.
    pub fn shown(&self, no_messages: bool, quiet: bool) -> bool {
        match self {
            Message::Error(_) => !no_messages,
            Message::BinaryMatches(_) => !quiet,
        }
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Error(m) => f.write_str(m),
            Message::BinaryMatches(name) => write!(f, "{name}: binary file matches"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_keep_grep_text() {
        let binary = Message::BinaryMatches("f".into());
        assert_eq!(binary.to_string(), "f: binary file matches");
        assert!(binary.shown(true, false) && !binary.shown(false, true));
        let error = Message::Error("f: No such file or directory".into());
        assert!(!error.shown(true, false) && error.shown(false, true));
        let write = Error::Write(io::Error::from_raw_os_error(libc::ENOSPC));
        assert!(write.to_string().starts_with("write error: "));
    }

    #[test]
    fn gpu_error_is_the_source() {
        let e = Error::from(GpuError::Unavailable("no driver".into()));
        assert_eq!(e.to_string(), "GPU engine not available: no driver");
        let source = std::error::Error::source(&e).map(ToString::to_string);
        assert_eq!(
            source.as_deref(),
            Some("GPU engine not available: no driver")
        );
    }
}
