//! Auto's probe of the CPU engine's pace, for a regex's automaton decided
//! once the inputs are listed (`settle`): before CUDA is asked for, each of
//! the run's threads counts the lines of a sample of one listed file, as
//! `-c` does, and their paces together foretell the CPU engine's time.
//!
//! Why not the live pace alone (`start::open_gate`): over large files it
//! comes too late. 16 threads each take a 256 MiB file at once, none is done
//! when the gate first looks, so the gate opened blind, and the GPU started
//! only after that look, with 4 GiB already the CPU's (16 GiB of loghub, 3
//! regexes: auto 1.34-1.61 s, the GPU alone 0.96 s; forty-seventh session).
//! A sample of 1 MiB a thread, counted twice, takes about 5 ms at the
//! 0.45 GB/s a thread those regexes ran at.

use crate::config::Config;
use crate::input::walk::Item;
use crate::pattern::Compiled;
use crate::search::Search;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::time::Instant;

/// Bytes each thread counts, from the start of its file, and the least
/// a file must hold to be sampled.
const SAMPLE_BYTES: usize = 1 << 20;
const SAMPLE_MIN: u64 = 64 << 10;

/// The CPU engine's pace on this run, bytes a second: each thread's pace
/// over its sample (the second of two counts, the first warming its
/// caches), times the threads that would search the files. `None` where
/// no file holds a sample, or under `--decompress` (a file's bytes are not
/// its text).
pub(super) fn cpu_pace(
    cfg: &Config,
    compiled: &Compiled,
    items: &[Item],
    sizes: &[Option<u64>],
) -> Option<f64> {
    if cfg.decompress {
        return None;
    }
    let c = compiled;
    let confirm = c.confirm_decides_lines();
    let search = Search::new(cfg, &*c.prefilter, c.line_matcher(), confirm, 1);
    let files: Vec<&Path> = items
        .iter()
        .zip(sizes)
        .filter_map(|(item, size)| match item {
            Item::Input(i) if size.is_some_and(|s| s >= SAMPLE_MIN) => i.path.as_deref(),
            _ => None,
        })
        .collect();
    // One file is split among the threads; among several, a thread a file.
    let threads = match items.len() {
        1 => cfg.threads,
        n => cfg.threads.min(n),
    }
    .max(1);
    let n = threads.min(files.len());
    if n == 0 {
        return None;
    }
    let picked: Vec<&Path> = (0..n).map(|k| files[pick(k, n, files.len())]).collect();
    let timed: Vec<(usize, f64)> = std::thread::scope(|s| {
        let counts: Vec<_> = picked
            .iter()
            .map(|path| s.spawn(|| sample(&search, path, cfg.terminator)))
            .collect();
        counts
            .into_iter()
            .filter_map(|h| h.join().ok().flatten())
            .collect()
    });
    let bytes: usize = timed.iter().map(|t| t.0).sum();
    let secs: f64 = timed.iter().map(|t| t.1).sum();
    (bytes > 0 && secs > 0.0).then(|| bytes as f64 / secs * threads as f64)
}

/// The file thread `k` of `n` samples among `len`: one of the `k`th
/// `n`th of the list, not always its first, so that a list whose files
/// repeat with a period (loghub's 16 systems over 16,384 files: the first
/// of each sixteenth was always the same system, and 30 regexes were
/// probed at 0.69-0.74 s where the CPU engine took 1.85) is not sampled in
/// step with it.
fn pick(k: usize, n: usize, len: usize) -> usize {
    let (start, end) = (k * len / n, (k + 1) * len / n);
    // splitmix64's finalizer: a fixed spread, the same on every run.
    let mut z = (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    start + (z % (end - start).max(1) as u64) as usize
}

/// At most the first [`SAMPLE_BYTES`] of `path`, cut after its last terminator,
/// counted twice: its bytes and the second count's seconds.
fn sample(search: &Search, path: &Path, terminator: u8) -> Option<(usize, f64)> {
    let mut buf = Vec::with_capacity(SAMPLE_BYTES);
    File::open(path)
        .ok()?
        .take(SAMPLE_BYTES as u64)
        .read_to_end(&mut buf)
        .ok()?;
    let end = memchr::memrchr(terminator, &buf)? + 1;
    let lines = &buf[..end];
    search.count_slice(lines).ok()?;
    let t = Instant::now();
    search.count_slice(lines).ok()?;
    Some((lines.len(), t.elapsed().as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probe reads samples only from files that hold one, and none
    /// under `--decompress`.
    #[test]
    fn the_cpu_engines_pace_comes_from_samples_of_large_files() {
        let dir = tempfile::tempdir().unwrap();
        let line = "10.0.0.1 GET /index.html 200 deadbeef\n";
        let big = line.repeat(2 * SAMPLE_BYTES / line.len());
        let mut items = Vec::new();
        let mut sizes = Vec::new();
        for (name, text) in [("small", line), ("a", &big[..]), ("b", &big[..])] {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            items.push(Item::Input(crate::input::walk::Input::file(path, false)));
            sizes.push(Some(text.len() as u64));
        }
        let pace = |args: &[&str], items: &[Item], sizes: &[Option<u64>]| {
            let regex = ["-c", "-E", "[0-9]+[.][0-9]+", "f"];
            let cfg = Config::from_args(&[args, &regex].concat());
            let compiled = crate::pattern::compile(&[b"[0-9]+[.][0-9]+".to_vec()], &cfg).unwrap();
            cpu_pace(&cfg, &compiled, items, sizes)
        };
        assert_eq!(pace(&["-j2"], &items[..1], &sizes[..1]), None, "no sample");
        assert!(pace(&["-j2"], &items, &sizes).is_some_and(|p| p > 0.0));
        assert_eq!(pace(&["-j2", "-z"], &items, &sizes), None, "compressed");
    }

    /// Files that repeat with the threads' period are sampled across it.
    #[test]
    fn samples_do_not_follow_a_period_of_the_list() {
        let (n, len) = (16, 16384);
        let picks: Vec<usize> = (0..n).map(|k| pick(k, n, len)).collect();
        for (k, &p) in picks.iter().enumerate() {
            assert!((k * len / n..(k + 1) * len / n).contains(&p), "{k}: {p}");
        }
        let systems: std::collections::HashSet<usize> = picks.iter().map(|p| p % 16).collect();
        assert!(systems.len() >= 8, "{picks:?}");
        assert_eq!(pick(0, 1, 1), 0);
        assert_eq!(pick(2, 3, 3), 2);
    }
}
