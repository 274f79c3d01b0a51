//! Running a search: patterns → engine → every input → ordered output.
//!
//! Inputs are searched in parallel, one per worker at a time; each worker
//! writes a file's output into its own buffer and the main thread prints the
//! buffers in input order, so the output is the same with 1 thread or 64.
//! A single input streams straight to stdout instead (`tail -f | gpugrep`).

mod one;

use crate::config::{Config, EngineChoice, Mode};
use crate::exit::ExitStatus;
use crate::input::walk::{self, Item};
use crate::output::json::{write_summary, JsonStats};
use crate::output::standard::{write_separator, PrintOptions};
use crate::pattern::{self, Compiled};
use one::FileResult;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What every worker reads.
pub struct Shared {
    pub cfg: Config,
    pub compiled: Compiled,
    pub print: PrintOptions,
    /// The program name for messages.
    pub prog: String,
}

/// Runs the whole search and returns the exit status.
pub fn run(cfg: Config, prog: &str) -> ExitStatus {
    let patterns = match pattern::read_patterns(&cfg.patterns) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{prog}: {}: {}", e.file, e.reason);
            return ExitStatus::Error;
        }
    };
    let compiled = match pattern::compile(&patterns, &cfg) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{prog}: {e}");
            return ExitStatus::Error;
        }
    };
    if cfg.debug {
        eprintln!("{prog}: debug: patterns: {}", compiled.description);
    }
    if let Err(msg) = choose_engine(&cfg, prog) {
        eprintln!("{prog}: {msg}");
        return ExitStatus::Error;
    }
    let print = PrintOptions::from_config(&cfg);
    let shared = Shared {
        cfg,
        compiled,
        print,
        prog: prog.to_string(),
    };
    let items = walk::collect(&shared.cfg);
    let quiet = shared.cfg.mode == Mode::Quiet;
    let (selected, had_error) = match search_all(&shared, &items) {
        Ok(r) => r,
        // stdout closed (`| head -1`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => (true, false),
        Err(e) => {
            eprintln!("{prog}: write error: {}", crate::input::io_reason(&e));
            (false, true)
        }
    };
    ExitStatus::from_outcome(selected, had_error, quiet)
}

/// Decides the engine. The GPU engine is opened only when asked for.
fn choose_engine(cfg: &Config, prog: &str) -> Result<(), String> {
    match cfg.engine {
        EngineChoice::Cpu | EngineChoice::Auto => {
            if cfg.debug {
                eprintln!("{prog}: debug: engine: cpu");
            }
            Ok(())
        }
        EngineChoice::Gpu => match crate::engine::gpu::GpuEngine::open() {
            Ok(_) => Ok(()),
            Err(e) => Err(e.to_string()),
        },
    }
}

/// Searches every item; returns (a line was selected, an error occurred).
fn search_all(shared: &Shared, items: &[Item]) -> io::Result<(bool, bool)> {
    let started = std::time::Instant::now();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut state = Printed::default();
    search_items(shared, items, &mut out, &mut state)?;
    if shared.cfg.json && shared.cfg.mode != Mode::Quiet {
        let mut summary = Vec::new();
        write_summary(&mut summary, &state.json, started.elapsed());
        out.write_all(&summary)?;
    }
    out.flush()?;
    Ok((state.selected, state.had_error))
}

/// Searches the items in order (in parallel when there are several).
fn search_items(
    shared: &Shared,
    items: &[Item],
    out: &mut io::StdoutLock,
    state: &mut Printed,
) -> io::Result<()> {
    let single = items.len() == 1 || shared.cfg.threads <= 1;
    if single {
        for item in items {
            let result = match item {
                Item::Error(msg) => error_result(msg),
                Item::Input(input) => {
                    let prefilter = &*shared.compiled.prefilter;
                    // Stream straight to stdout (after any separator owed).
                    if state.any_lines
                        && shared.cfg.before + shared.cfg.after > 0
                        && shared.cfg.mode == Mode::Lines
                    {
                        let mut sep_probe = one::search_input(shared, input, prefilter, None)?;
                        state.emit(shared, out, &mut sep_probe)?;
                        if state.stop(shared) {
                            break;
                        }
                        continue;
                    }
                    one::search_input(shared, input, prefilter, Some(out))?
                }
            };
            let mut result = result;
            state.emit(shared, out, &mut result)?;
            if state.stop(shared) {
                break;
            }
        }
        return Ok(());
    }

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = shared.cfg.threads.min(items.len()).max(1);
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::channel::<(usize, io::Result<FileResult>)>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = match item {
                    Item::Error(msg) => Ok(error_result(msg)),
                    Item::Input(input) => {
                        one::search_input(shared, input, &*shared.compiled.prefilter, None)
                    }
                };
                if tx.send((i, result)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, io::Result<FileResult>> = BTreeMap::new();
        let mut want = 0;
        let outcome = (|| -> io::Result<()> {
            for (i, r) in rx.iter() {
                pending.insert(i, r);
                while let Some(r) = pending.remove(&want) {
                    want += 1;
                    let mut r = r?;
                    state.emit(shared, out, &mut r)?;
                    if state.stop(shared) {
                        return Ok(());
                    }
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        outcome
    })
}

fn error_result(msg: &str) -> FileResult {
    FileResult {
        messages: vec![msg.to_string()],
        had_error: true,
        ..FileResult::default()
    }
}

/// What has been printed so far, across files.
#[derive(Default)]
struct Printed {
    selected: bool,
    had_error: bool,
    any_lines: bool,
    json: JsonStats,
}

impl Printed {
    /// Prints one file's result in order.
    fn emit(&mut self, shared: &Shared, out: &mut dyn Write, r: &mut FileResult) -> io::Result<()> {
        let cfg = &shared.cfg;
        if r.printed_lines || !r.out.is_empty() {
            let context = cfg.before + cfg.after > 0 && cfg.mode == Mode::Lines;
            if context && self.any_lines && r.printed_lines {
                let mut sep = Vec::new();
                write_separator(&mut sep, &shared.print);
                out.write_all(&sep)?;
            }
            out.write_all(&r.out)?;
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
        if !r.messages.is_empty() {
            out.flush()?;
            for m in &r.messages {
                let is_binary_note = m.ends_with(": binary file matches");
                let wanted = if is_binary_note {
                    cfg.mode != Mode::Quiet
                } else {
                    !cfg.no_messages
                };
                if wanted {
                    eprintln!("{}: {m}", shared.prog);
                }
            }
        }
        Ok(())
    }

    /// With -q, the first selected line ends the run.
    fn stop(&self, shared: &Shared) -> bool {
        shared.cfg.mode == Mode::Quiet && self.selected
    }
}
