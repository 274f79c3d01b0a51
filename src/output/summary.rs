//! The summary printer: what is printed for a whole input instead of its
//! lines (ripgrep's `Summary` beside its `Standard` and `JSON`): a count
//! (`-c`, `--count-matches`), a file name (`-l` with a selected line, `-L`
//! without), or nothing (`-q`, and the lines mode, whose lines the standard
//! and JSON printers print). One function per case it is asked for: a
//! searched input, an input the GPU tallied without searching its lines,
//! and a directory operand, which GNU grep still counts (0) under `-c` and
//! lists under `-L` after saying it is a directory.

use super::standard::{paint, PrintOptions};
use crate::config::Mode;

/// The summary of an input with `selected` lines holding `matches`
/// matches: `shown` is the name printed before a count, if any, `name` the
/// name a file list prints.
pub fn write_summary(
    out: &mut Vec<u8>,
    opts: &PrintOptions,
    shown: Option<&[u8]>,
    name: &[u8],
    selected: u64,
    matches: u64,
) {
    match opts.mode {
        Mode::Count => write_count(out, opts, shown, selected),
        Mode::CountMatches => write_count(out, opts, shown, matches),
        Mode::FilesWithMatches if selected > 0 => write_name(out, opts, name),
        Mode::FilesWithoutMatch if selected == 0 => write_name(out, opts, name),
        _ => {}
    }
}

/// The summary of a directory operand (after its "Is a directory").
pub fn write_directory(out: &mut Vec<u8>, opts: &PrintOptions, shown: Option<&[u8]>, name: &[u8]) {
    match opts.mode {
        Mode::Count | Mode::CountMatches => write_count(out, opts, shown, 0),
        Mode::FilesWithoutMatch => write_name(out, opts, name),
        _ => {}
    }
}

/// `-c`: `NAME:COUNT` or `COUNT`.
fn write_count(out: &mut Vec<u8>, opts: &PrintOptions, name: Option<&[u8]>, count: u64) {
    let c = opts.colors.as_ref();
    if let Some(name) = name {
        paint(out, c, c.map(|c| c.file_name.as_str()), name);
        if opts.null {
            out.push(0);
        } else {
            paint(out, c, c.map(|c| c.separator.as_str()), b":");
        }
    }
    out.extend_from_slice(count.to_string().as_bytes());
    out.push(b'\n');
}

/// `-l`/`-L`: the name, then a newline (NUL with `-Z`).
fn write_name(out: &mut Vec<u8>, opts: &PrintOptions, name: &[u8]) {
    let c = opts.colors.as_ref();
    paint(out, c, c.map(|c| c.file_name.as_str()), name);
    out.push(if opts.null { 0 } else { b'\n' });
}
