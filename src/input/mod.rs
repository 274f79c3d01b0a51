//! Input: which files to search, and their bytes.
//!
//! `walk` turns the operands into an ordered list of inputs (grep prints in
//! the order files are given, and in name order inside directories, so
//! output is deterministic however many threads search). `source` maps
//! regular files into memory and streams everything else; `decompress`
//! turns compressed files into streams of their content (`--decompress`);
//! `list` reads the operands of `--files-from`. (The GPU lays files out in
//! chunks itself: `run/gpu/pack.rs`.)

pub mod decompress;
pub mod glob;
pub mod list;
pub mod long_path;
pub mod same_file;
pub mod source;
pub mod truncation;
pub mod walk;

/// An I/O error as grep words it: "No such file or directory", without
/// Rust's "(os error 2)" suffix.
pub fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
