//! gpugrep: grep-compatible search with a GPU engine and a CPU engine.
//!
//! The crate is a pipeline of stages, one module each, in the order data
//! flows: `cli` (what was typed) → `config` (what to do) → `input` (walking,
//! mapping files) → `pattern` (parsing and compiling patterns) →
//! `engine` (finding candidate matches, CPU or GPU) → `confirm` (turning
//! candidates into exact line matches) → `search` (opening an input,
//! binary data, streaming, lines, context, limits) → `output` (grep's and
//! ripgrep's formats, counts and file lists). `run` joins them; `error`
//! and `exit` are what a run ends with. DESIGN.md maps it all. `encoding`
//! (`--encoding`: transcoded patterns, the character-boundary back-read,
//! decoding) sits beside `pattern` and `output`. `generate` writes the man
//! page and shell completions from `cli`'s definitions.

pub mod cli;
pub mod config;
pub mod confirm;
pub mod encoding;
pub mod engine;
pub mod error;
pub mod exit;
pub mod generate;
pub mod input;
pub mod knobs;
pub mod output;
pub mod parts;
pub mod pattern;
pub mod run;
pub mod search;
pub mod stdio;
pub mod usage;
