//! What has been printed so far, across files: each file's result printed
//! in turn (with context group separators and messages), the totals for
//! `--stats` and `--json`, and whether `-q` may stop.

use super::gathered::Gathered;
use super::one::FileResult;
use super::Shared;
use crate::config::Mode;
use crate::output::json::JsonStats;
use crate::output::standard::write_separator;
use std::io::{self, Write};

/// What has been printed so far, across files.
#[derive(Default)]
pub(crate) struct Printed {
    pub(crate) selected: bool,
    pub(crate) had_error: bool,
    pub(crate) files: u64,
    pub(crate) files_matched: u64,
    pub(crate) bytes: u64,
    pub(crate) lines: u64,
    pub(crate) any_lines: bool,
    pub(crate) json: JsonStats,
    /// The GPU searched at least one chunk.
    pub(crate) gpu: bool,
    /// `--stats` lines about the GPU pipeline's stages.
    pub(crate) stage_lines: Vec<String>,
    /// A packed result's output, unpacked to be written (`packed`).
    pub(crate) unpacked: Vec<u8>,
    /// Outputs held to be written together (the printers of trees and
    /// listed files; elsewhere off: each is written as it comes).
    pub(crate) gathered: Gathered,
    /// `--engine gpu`: the GPU did not start, nothing was searched (the
    /// run's error, exit status 2).
    pub(crate) gpu_unavailable: Option<crate::engine::gpu::GpuError>,
}

impl Printed {
    /// Prints one file's result in order.
    pub(crate) fn emit(
        &mut self,
        shared: &Shared,
        out: &mut dyn Write,
        r: &mut FileResult,
    ) -> io::Result<()> {
        let cfg = &shared.cfg;
        if r.printed_lines || !r.out.is_empty() {
            let context = cfg.context_given && cfg.mode == Mode::Lines;
            if context && self.any_lines && r.printed_lines {
                let mut sep = Vec::new();
                write_separator(&mut sep, &shared.print);
                self.gathered.push(sep, out)?;
            }
            match r.packed {
                true => {
                    self.gathered.write(out)?;
                    crate::run::packed::unpack_into(&r.out, &mut self.unpacked, out)?;
                }
                false => self.gathered.push(std::mem::take(&mut r.out), out)?,
            }
            if cfg.line_buffered {
                out.flush()?;
            }
        }
        self.any_lines |= r.printed_lines;
        if let Some(stats) = &r.json {
            self.json.add(stats);
        }
        self.selected |= r.selected;
        self.had_error |= r.had_error;
        self.files += 1;
        self.files_matched += u64::from(r.selected);
        self.bytes += r.bytes;
        self.lines += r.lines;
        if !r.messages.is_empty() {
            self.gathered.write(out)?;
            out.flush()?;
            for m in &r.messages {
                if m.shown(cfg.no_messages, cfg.mode == Mode::Quiet) {
                    eprintln!("{}: {m}", shared.prog);
                }
            }
        }
        Ok(())
    }

    /// `--stats`, on stderr so that pipes see only results; `listed`: the
    /// time taken to list the inputs before searching them.
    pub(crate) fn print_stats(
        &self,
        elapsed: std::time::Duration,
        listed: Option<std::time::Duration>,
    ) {
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            self.bytes as f64 / secs / 1e9
        } else {
            0.0
        };
        eprintln!(
            "{} matched lines\n{} files contained matches\n{} files searched\n\
             {} bytes searched\n{secs:.6} seconds\n{rate:.2} GB/s\nengine {}",
            self.lines,
            self.files_matched,
            self.files,
            self.bytes,
            if self.gpu { "gpu" } else { "cpu" }
        );
        if let Some(w) = listed {
            eprintln!("inputs listed in {:.6} seconds", w.as_secs_f64());
        }
        for l in &self.stage_lines {
            eprintln!("{l}");
        }
        if let Some(l) = crate::search::split_stats_line() {
            eprintln!("{l}");
        }
        if let Some(l) = crate::engine::fastest::stats_line() {
            eprintln!("{l}");
        }
        if let Some(l) = crate::engine::retimed::stats_line() {
            let gave_up = crate::engine::cpu::dfa_lines_gave_up();
            eprintln!("{l} (whose DFA gave up {gave_up} time(s), the rules answering)");
        }
    }

    /// With -q, the first selected line ends the run.
    pub(crate) fn stop(&self, shared: &Shared) -> bool {
        shared.cfg.mode == Mode::Quiet && self.selected
    }
}
