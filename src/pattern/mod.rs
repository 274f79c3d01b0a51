//! Patterns: reading them, translating grep's syntaxes, compiling matchers.
//!
//! grep's patterns arrive as `-e` arguments, `-f` files and the positional
//! PATTERNS, each possibly holding several newline-separated patterns. They
//! are read into one list here (`read`), translated from POSIX basic or
//! extended syntax into the `regex` crate's (`translate`), and compiled into
//! the CPU engine's matchers (`compile`). Fixed strings stay byte strings so
//! the literal engines (memchr, Aho-Corasick, the GPU kernels) can take them;
//! for a regular expression, `required` finds literals every match contains,
//! which the GPU's kernels search for candidate lines, and `finder` chooses
//! how the CPU engine finds its lines in whole buffers (`window`: byte
//! classes by position, for regexes without a literal; `required_bytes`:
//! a few bytes every match holds, for alternations without good literals).

pub mod bracket;
pub mod compile;
mod finder;
pub mod fold;
pub mod glushkov;
pub mod interval;
pub mod posix_class;
pub mod read;
pub mod required;
mod required_bytes;
pub mod translate;
pub(crate) mod trim;
mod window;

pub use compile::{compile, Compiled, PatternError};
pub use read::read_patterns;
