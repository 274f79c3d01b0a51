//! The GPU path: files → corpus batches → one GPU pass per batch → the same
//! per-file search, with the GPU's match offsets as the prefilter.
//!
//! The GPU answers "where does the literal occur" for a whole batch of files
//! at once; everything after that (lines, `-w`/`-x` confirmation, context,
//! output) is the CPU path unchanged, driven by a [`Matcher`] that reads the
//! offsets. So the GPU can never change what is printed, only how fast the
//! candidates are found. Any GPU failure falls back to the CPU engine for
//! the batch it hit, with a note under `--debug`.

use super::one::{self, FileResult};
use super::{search_items, Printed, Shared};
use crate::config::{Config, EngineChoice};
use crate::engine::gpu::{GpuEngine, MatchSet};
use crate::engine::Matcher;
use crate::input::corpus::Corpus;
use crate::input::source::{self, Mapped, Source};
use crate::input::walk::{Input, Item};
use crate::pattern::Compiled;
use std::collections::HashMap;
use std::io::{self, Write};
use std::ops::Range;

/// From how many bytes of input `--engine auto` takes the GPU; below it
/// the CPU searches and CUDA is never initialised. `None`: never yet.
/// Measured on the H100 machine (benches/RESULTS.md, 2026-11-21): for one
/// literal the whole GPU path (CUDA start 0.35 s, copying files into one
/// corpus, upload at 27 GB/s) lost to the 16-core CPU engine at every size
/// from 16 MiB (0.37 s vs 0.006 s) to 4 GiB in 2000 files (1.05 s vs
/// 0.11 s); the kernel itself takes 2 ms of that. Streaming straight from
/// the file maps into pinned buffers, overlapped with the kernel, is what
/// can turn this around; until then auto stays on the CPU.
pub const AUTO_MIN_BYTES: Option<u64> = None;

/// Largest batch of file bytes searched in one GPU pass.
const BATCH_BYTES: u64 = 4 << 30;

/// Decides the engine: `Some` opens the GPU for this run.
pub fn choose(
    cfg: &Config,
    compiled: &Compiled,
    input_bytes: &dyn Fn() -> u64,
    prog: &str,
) -> Result<Option<GpuEngine>, String> {
    let debug = |msg: &str| {
        if cfg.debug {
            eprintln!("{prog}: debug: {msg}");
        }
    };
    if cfg.engine == EngineChoice::Cpu {
        debug("engine: cpu (--engine cpu)");
        return Ok(None);
    }
    if compiled.literal.is_none() {
        debug(&format!(
            "engine: cpu (the GPU engine takes one case-sensitive literal; this search is {})",
            compiled.description
        ));
        if cfg.engine == EngineChoice::Gpu {
            // Still tell a user who asked for the GPU whether it exists.
            GpuEngine::open().map_err(|e| e.to_string())?;
        }
        return Ok(None);
    }
    if cfg.engine == EngineChoice::Auto {
        let Some(min) = AUTO_MIN_BYTES else {
            debug(
                "engine: cpu (auto: the GPU path does not yet beat the CPU at any measured size)",
            );
            return Ok(None);
        };
        let bytes = input_bytes();
        if bytes < min {
            debug(&format!(
                "engine: cpu ({bytes} bytes of files, GPU from {min})"
            ));
            return Ok(None);
        }
    }
    match GpuEngine::open() {
        Ok(engine) => {
            debug(&format!("engine: gpu ({})", engine.describe()));
            Ok(Some(engine))
        }
        Err(e) if cfg.engine == EngineChoice::Gpu => Err(e.to_string()),
        Err(e) => {
            debug(&format!("engine: cpu ({e})"));
            Ok(None)
        }
    }
}

/// Bytes of regular files among the inputs (what the GPU would search).
pub fn mapped_bytes(items: &[Item]) -> u64 {
    items
        .iter()
        .filter_map(|item| match item {
            Item::Input(Input { path: Some(p), .. }) => std::fs::metadata(p).ok(),
            _ => None,
        })
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// Offsets found by the GPU, seen from inside one file of the corpus.
struct GpuFileMatcher<'s> {
    set: &'s MatchSet,
    base: u64,
    len: u64,
    pattern_len: u64,
}

impl Matcher for GpuFileMatcher<'_> {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let g = self.set.next_at_or_after(self.base + at as u64)?;
        // `hay` is the file or a prefix of it (a piece of a split search).
        // Offsets ascend: if this one runs past the end, so do all later.
        let end = self.base + self.len.min(hay.len() as u64);
        (g + self.pattern_len <= end).then(|| {
            let start = (g - self.base) as usize;
            start..start + self.pattern_len as usize
        })
    }
}

/// Searches every item, batch by batch, in order.
pub fn search(
    shared: &Shared,
    engine: &mut GpuEngine,
    items: &[Item],
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let literal = shared.compiled.literal.clone().unwrap_or_default();
    let mut start = 0;
    while start < items.len() {
        let clock = std::time::Instant::now();
        // Map the files of one batch.
        let mut maps: HashMap<usize, Mapped> = HashMap::new();
        let mut bytes = 0u64;
        let mut end = start;
        while end < items.len() && (bytes < BATCH_BYTES || end == start) {
            if let Item::Input(Input { path: Some(p), .. }) = &items[end] {
                if let Ok(Source::Mapped(m)) = source::open(p, true) {
                    bytes += m.len() as u64;
                    maps.insert(end, m);
                }
            }
            end += 1;
        }
        let mapped_at = clock.elapsed();
        let order: Vec<usize> = (start..end).filter(|i| maps.contains_key(i)).collect();
        let slices: Vec<&[u8]> = order
            .iter()
            .filter_map(|i| maps.get(i).map(|m| &m[..]))
            .collect();
        let corpus = Corpus::from_files(shared.cfg.terminator, &slices, shared.cfg.threads);
        let index: HashMap<usize, usize> = order.iter().enumerate().map(|(f, &i)| (i, f)).collect();
        drop(slices);
        drop(maps);
        let built_at = clock.elapsed();
        let found = engine.find_literal(corpus.bytes(), &literal);
        let found_at = clock.elapsed();
        if shared.cfg.debug {
            match &found {
                Ok(set) => {
                    let t = engine.last_timings();
                    eprintln!(
                        "{}: debug: gpu: {} files, {} bytes, {} matches, kernel {}; \
                         map {:.1} ms, corpus {:.1} ms, find {:.1} ms \
                         (upload {:.1}, search {:.1}, readback {:.1})",
                        shared.prog,
                        corpus.len(),
                        corpus.bytes().len(),
                        set.len(),
                        engine.last_kernel(),
                        mapped_at.as_secs_f64() * 1e3,
                        (built_at - mapped_at).as_secs_f64() * 1e3,
                        (found_at - built_at).as_secs_f64() * 1e3,
                        t.upload_ms,
                        t.search_ms,
                        t.readback_ms
                    )
                }
                Err(e) => eprintln!(
                    "{}: debug: gpu failed, CPU engine for this batch: {e}",
                    shared.prog
                ),
            }
        }
        let batch = &items[start..end];
        let set = found.ok();
        let cpu = &*shared.compiled.prefilter;
        // Files in the corpus are searched in the corpus bytes the GPU saw,
        // with its offsets (or the CPU prefilter if the GPU failed); others
        // (stdin, special files) on the CPU.
        let job =
            |i: usize, input: &Input, stream: Option<&mut dyn Write>| -> io::Result<FileResult> {
                let Some(&f) = index.get(&(start + i)) else {
                    return one::search_input(shared, input, None, cpu, stream);
                };
                let bytes = Some(corpus.file(f));
                match &set {
                    Some(set) => {
                        let span = corpus.span(f);
                        let matcher = GpuFileMatcher {
                            set,
                            base: span.start,
                            len: span.len,
                            pattern_len: literal.len() as u64,
                        };
                        one::search_input(shared, input, bytes, &matcher, stream)
                    }
                    None => one::search_input(shared, input, bytes, cpu, stream),
                }
            };
        search_items(shared, batch, &job, out, state)?;
        if shared.cfg.debug && set.is_some() {
            eprintln!(
                "{}: debug: gpu: lines and output {:.1} ms",
                shared.prog,
                (clock.elapsed() - found_at).as_secs_f64() * 1e3
            );
        }
        if state.stop(shared) {
            break;
        }
        start = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Literal;
    use crate::search::{Line, SearchOptions, Searcher, Sink};
    use proptest::prelude::*;

    #[derive(Default)]
    struct Lines(Vec<u64>);
    impl Sink for Lines {
        fn selected(&mut self, line: &Line) -> io::Result<bool> {
            self.0.push(line.offset);
            Ok(true)
        }
        fn context(&mut self, _: &Line) -> io::Result<()> {
            Ok(())
        }
        fn gap(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn selected(data: &[u8], m: &dyn Matcher, line: &dyn Matcher) -> Vec<u64> {
        let opts = SearchOptions {
            terminator: b'\n',
            invert: false,
            max_count: None,
            before: 0,
            after: 0,
            line_numbers: false,
            stop_on_nul: false,
            separators: false,
        };
        let mut sink = Lines::default();
        Searcher::with_line_matcher(opts, m, line, true)
            .search_slice(data, &mut sink)
            .unwrap();
        sink.0
    }

    proptest! {
        /// Offsets over the whole corpus, read through each file's window,
        /// select exactly the lines memmem selects in that file alone.
        #[test]
        fn corpus_offsets_select_the_same_lines_as_memmem(
            files in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 0..40), 1..6),
            pattern in prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 1..4),
        ) {
            let mut corpus = Corpus::new(b'\n');
            for f in &files {
                corpus.push(f);
            }
            // What the GPU reports: every occurrence in the whole buffer,
            // including ones that cross a separator.
            let hay = corpus.bytes();
            let offsets: Vec<u64> = (0..hay.len())
                .filter(|&i| hay[i..].starts_with(&pattern))
                .map(|i| i as u64)
                .collect();
            let set = MatchSet::from_sorted(offsets);
            for (i, f) in files.iter().enumerate() {
                let span = corpus.span(i);
                let gpu = GpuFileMatcher { set: &set, base: span.start, len: span.len, pattern_len: pattern.len() as u64 };
                let lit = Literal::new(&pattern);
                prop_assert_eq!(selected(corpus.file(i), &gpu, &lit), selected(f, &lit, &lit));
            }
        }
    }

    /// Regression: a split search hands each thread a prefix of the file;
    /// offsets past the prefix made the searcher slice out of bounds.
    #[test]
    fn offsets_past_a_prefix_of_the_file_are_not_reported() {
        let set = MatchSet::from_sorted(vec![2, 10]);
        let m = GpuFileMatcher {
            set: &set,
            base: 0,
            len: 20,
            pattern_len: 2,
        };
        let file = [b'x'; 20];
        assert_eq!(m.find_at(&file, 0), Some(2..4));
        assert_eq!(m.find_at(&file[..8], 3), None);
        assert_eq!(m.find_at(&file[..12], 3), Some(10..12));
        assert_eq!(m.find_at(&file[..11], 3), None);
    }
}
