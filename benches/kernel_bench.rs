//! gpugrep-kernel-bench: GPU kernel throughput per pattern length, and one
//! chunk's search through a lane end to end (upload included, the path the
//! pipeline ships) for a few sizes.
//!
//! Kernel mode: a 64 MiB block of English-like text is generated on the host,
//! uploaded once and replicated on the GPU to `--gib` GiB; each kernel runs
//! `--reps` times per pattern length, timed with CUDA events; the table shows
//! the median. Match counts are checked against the CPU (memchr's memmem on
//! the block, times the copies, plus matches spanning copies) and between
//! kernels. End-to-end mode times `GpuLane::search` wall-clock (text in
//! pinned and in pageable memory) against a single-threaded CPU memmem
//! count on the same text.
//!
//! Literal-set mode (`--multi FILE`, one pattern a line, repeatable): the
//! `multi` kernel alone over `--text FILE` (default the generated block)
//! replicated to `--gib` GiB, ASCII-folded with `--fold`; the count is
//! checked against the tables' CPU reference (`MultiTables::reference`)
//! on the block and across one seam.
//!
//! Usage: gpugrep-kernel-bench [--gib N] [--reps N] [--e2e-only] [--kernel-only] [--csv PATH]
//!        gpugrep-kernel-bench --multi FILE [--multi FILE...] [--text FILE] [--fold] [--gib N] [--reps N]

use std::io::Write;
use std::time::Instant;

use gpugrep::engine::gpu::kernels::BM_DEFAULT_PORTION;
use gpugrep::engine::gpu::{ChunkFound, GpuEngine, Kernel, MultiTables, Timings};

const BLOCK: usize = 64 << 20;
const LENGTHS: [usize; 10] = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "to",
    "a",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "I",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "had",
    "they",
    "you",
    "were",
    "their",
    "one",
    "all",
    "we",
    "can",
    "her",
    "has",
    "there",
    "been",
    "if",
    "more",
    "when",
    "will",
    "would",
    "who",
    "so",
    "no",
    "time",
    "people",
    "water",
    "little",
    "between",
    "government",
    "children",
    "question",
    "important",
    "different",
    "something",
    "following",
    "without",
    "information",
    "development",
    "understanding",
    "search",
    "memory",
    "kernel",
    "thread",
    "pattern",
    "through",
    "because",
    "before",
    "around",
    "another",
    "country",
    "company",
    "system",
    "program",
    "number",
    "problem",
    "business",
    "service",
    "general",
    "history",
    "morning",
];

/// English-like text: Zipf-weighted words, spaces, some punctuation and newlines.
fn english(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = XorShift(seed);
    // Zipf-ish: word i has weight 1/(i+1); sample by inverting a cumulative table.
    let weights: Vec<f64> = (0..WORDS.len()).map(|i| 1.0 / (i as f64 + 1.0)).collect();
    let total: f64 = weights.iter().sum();
    let mut cum = Vec::with_capacity(WORDS.len());
    let mut acc = 0.0;
    for w in &weights {
        acc += w / total;
        cum.push((acc * u32::MAX as f64) as u64);
    }
    let mut v = Vec::with_capacity(len + 32);
    let mut sentence_start = true;
    while v.len() < len {
        let r = rng.next() & u64::from(u32::MAX);
        let i = cum.partition_point(|&c| c < r).min(WORDS.len() - 1);
        let w = WORDS[i].as_bytes();
        if sentence_start {
            v.push(w[0].to_ascii_uppercase());
            v.extend_from_slice(&w[1..]);
        } else {
            v.extend_from_slice(w);
        }
        let p = rng.next() % 100;
        sentence_start = false;
        if p < 6 {
            v.extend_from_slice(b".");
            sentence_start = true;
        } else if p < 10 {
            v.push(b',');
        }
        v.push(if rng.next().is_multiple_of(14) {
            b'\n'
        } else {
            b' '
        });
    }
    v.truncate(len);
    v
}

/// A pattern of `len` bytes from the text, starting after a space.
fn pattern_from(block: &[u8], len: usize, k: u64) -> Vec<u8> {
    let mut rng = XorShift(0x5bd1e995 ^ (len as u64 * 7919) ^ k);
    loop {
        let at = (rng.next() % (block.len() - len - 1) as u64) as usize;
        if block[at] == b' ' {
            return block[at + 1..at + 1 + len].to_vec();
        }
    }
}

fn cpu_count(hay: &[u8], pat: &[u8]) -> u64 {
    // Overlapping occurrences: memmem's find_iter skips overlaps, so walk by one.
    let f = memchr::memmem::Finder::new(pat);
    let mut count = 0u64;
    let mut at = 0;
    while let Some(i) = f.find(&hay[at..]) {
        count += 1;
        at += i + 1;
        if at >= hay.len() {
            break;
        }
    }
    count
}

/// Where two copies of `block` meet: its last `reach` bytes, then its
/// first `reach`.
fn seam(block: &[u8], reach: usize) -> Vec<u8> {
    let mut seam = block[block.len() - reach..].to_vec();
    seam.extend_from_slice(&block[..reach]);
    seam
}

/// Matches in `copies` back-to-back copies of `block`.
fn cpu_count_repeated(block: &[u8], copies: u64, pat: &[u8]) -> u64 {
    let m = pat.len();
    let inner = cpu_count(block, pat);
    let spanning = if m > 1 {
        cpu_count(&seam(block, m - 1), pat)
    } else {
        0
    };
    inner * copies + spanning * (copies - 1)
}

/// Positions the tables mark in `copies` back-to-back copies of `block`:
/// the block's own times the copies, plus those that start in one copy
/// and end in the next, once per seam.
fn multi_count_repeated(t: &MultiTables, block: &[u8], copies: u64) -> u64 {
    let inner = t.reference(block).len() as u64;
    let reach = (t.maxlen as usize).saturating_sub(1).min(block.len());
    let tail = &block[block.len() - reach..];
    let starting_in_tail = |v: Vec<u64>| v.iter().filter(|&&p| (p as usize) < reach).count();
    let spanning = starting_in_tail(t.reference(&seam(block, reach))) - t.reference(tail).len();
    inner * copies + spanning as u64 * copies.saturating_sub(1)
}

/// `--multi`: the literal-set kernel alone, per pattern file; returns the
/// exit status (1 on a mismatch or an error).
fn multi_mode(engine: &mut GpuEngine, args: &Args) -> i32 {
    let block = match &args.text {
        Some(path) => match std::fs::read(path) {
            Ok(b) if !b.is_empty() => b,
            Ok(_) => {
                eprintln!("{path}: empty");
                return 1;
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                return 1;
            }
        },
        None => english(BLOCK, 0x1234_5678_9abc_def1),
    };
    let copies = ((args.gib << 30) / block.len() as u64).max(1);
    let n = match engine.bench_load_repeated(&block, copies) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("cannot load the text: {e}");
            return 1;
        }
    };
    println!(
        "resident text: {n} bytes ({copies} x {} bytes), fold {}",
        block.len(),
        args.fold
    );
    println!(
        "{:<32} {:>8} {:>10} {:>10} {:>14} {:>9}",
        "patterns", "count", "median ms", "GB/s", "marked", "check"
    );
    let mut status = 0;
    for path in &args.multi {
        let pats: Vec<Vec<u8>> = match std::fs::read(path) {
            Ok(b) => b
                .split(|&c| c == b'\n')
                .filter(|l| !l.is_empty())
                .map(<[u8]>::to_vec)
                .collect(),
            Err(e) => {
                eprintln!("{path}: {e}");
                status = 1;
                continue;
            }
        };
        let built = if args.fold {
            MultiTables::new_folded(&pats)
        } else {
            MultiTables::new(&pats)
        };
        let Some(tables) = built else {
            eprintln!("{path}: no tables (an empty set or pattern)");
            status = 1;
            continue;
        };
        let want = multi_count_repeated(&tables, &block, copies);
        match engine.bench_multi(&tables, args.reps) {
            Ok((mut times, count)) => {
                let ms = median(&mut times);
                let gbs = n as f64 / (f64::from(ms) * 1e-3) / 1e9;
                let ok = count == want;
                if !ok {
                    status = 1;
                }
                println!(
                    "{path:<32} {:>8} {ms:>10.3} {gbs:>10.1} {count:>14} {:>9}",
                    pats.len(),
                    if ok {
                        "ok".to_string()
                    } else {
                        format!("MISMATCH (cpu {want})")
                    }
                );
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                status = 1;
            }
        }
    }
    status
}

/// The lane's time between two readings of its (cumulative) timings.
fn since(before: Timings, after: Timings) -> Timings {
    Timings {
        upload_ms: after.upload_ms - before.upload_ms,
        search_ms: after.search_ms - before.search_ms,
        readback_ms: after.readback_ms - before.readback_ms,
        segments: after.segments - before.segments,
    }
}

fn median(v: &mut [f32]) -> f32 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

struct Args {
    gib: u64,
    reps: usize,
    kernel: bool,
    e2e: bool,
    csv: Option<String>,
    multi: Vec<String>,
    text: Option<String>,
    fold: bool,
}

fn parse_args() -> Args {
    let mut a = Args {
        gib: 4,
        reps: 7,
        kernel: true,
        e2e: true,
        csv: None,
        multi: Vec::new(),
        text: None,
        fold: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        match x.as_str() {
            "--gib" => a.gib = it.next().and_then(|v| v.parse().ok()).unwrap_or(a.gib),
            "--reps" => {
                a.reps = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(a.reps)
                    .max(1)
            }
            "--kernel-only" => a.e2e = false,
            "--e2e-only" => a.kernel = false,
            "--csv" => a.csv = it.next(),
            "--multi" => a.multi.extend(it.next()),
            "--text" => a.text = it.next(),
            "--fold" => a.fold = true,
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    a
}

fn main() {
    let args = parse_args();
    let mut engine = match GpuEngine::open() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("skipped: no GPU: {e}");
            return;
        }
    };
    println!("{}", engine.describe());
    if !args.multi.is_empty() {
        std::process::exit(multi_mode(&mut engine, &args));
    }
    let block = english(BLOCK, 0x1234_5678_9abc_def1);
    let mut csv = String::from(
        "mode,kernel,portion,pattern_len,text_bytes,median_ms,gb_per_s,matches,check\n",
    );
    let mut failures = 0;

    if args.kernel {
        let copies = (args.gib << 30) / BLOCK as u64;
        let t = Instant::now();
        let n = match engine.bench_load_repeated(&block, copies) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("cannot load {} GiB: {e}", args.gib);
                std::process::exit(1);
            }
        };
        println!(
            "resident text: {n} bytes ({} x {} MiB block), loaded in {:.2} s",
            copies,
            BLOCK >> 20,
            t.elapsed().as_secs_f64()
        );
        println!(
            "\nkernel throughput (median of {} runs, CUDA events), GB/s = 1e9 text bytes/s",
            args.reps
        );
        println!(
            "{:>6} {:>12} {:>12} {:>14} {:>10}",
            "m", "prefix4", "boyer-moore", "matches", "check"
        );
        let mut table: Vec<(usize, f64, f64)> = Vec::new();
        for &m in &LENGTHS {
            let pat = pattern_from(&block, m, 0);
            let want = cpu_count_repeated(&block, copies, &pat);
            let mut row = [0.0f64; 2];
            let mut counts = [0u64; 2];
            for (i, k) in [Kernel::Prefix4, Kernel::BoyerMoore]
                .into_iter()
                .enumerate()
            {
                match engine.bench_kernel(&pat, k, args.reps) {
                    Ok((ran, mut times, count)) => {
                        let ms = median(&mut times);
                        row[i] = n as f64 / (f64::from(ms) * 1e-3) / 1e9;
                        counts[i] = count;
                        let ok = count == want;
                        failures += usize::from(!ok);
                        csv.push_str(&format!(
                            "kernel,{},{},{m},{n},{ms:.4},{:.1},{count},{}\n",
                            ran.name(),
                            if ran == Kernel::BoyerMoore {
                                BM_DEFAULT_PORTION
                            } else {
                                0
                            },
                            row[i],
                            if ok { "ok" } else { "MISMATCH" }
                        ));
                    }
                    Err(e) => {
                        eprintln!("m={m} {k:?}: {e}");
                        failures += 1;
                    }
                }
            }
            let check = if counts[0] == want && counts[1] == want {
                "ok"
            } else {
                "MISMATCH"
            };
            println!(
                "{m:>6} {:>12.1} {:>12.1} {:>14} {:>10}",
                row[0], row[1], want, check
            );
            table.push((m, row[0], row[1]));
        }
        // Boyer-Moore portion sweep at two lengths.
        println!("\nboyer-moore portion sweep (GB/s)");
        print!("{:>6}", "m");
        let portions = [32u32, 64, 128, 256, 512];
        for p in portions {
            print!(" {:>9}", format!("p={p}"));
        }
        println!();
        for m in [16usize, 256, 1024] {
            let pat = pattern_from(&block, m, 1);
            print!("{m:>6}");
            for p in portions {
                if engine.set_bm_portion(p).is_err() {
                    continue;
                }
                match engine.bench_kernel(&pat, Kernel::BoyerMoore, args.reps) {
                    Ok((_, mut times, count)) => {
                        let ms = median(&mut times);
                        let gbs = n as f64 / (f64::from(ms) * 1e-3) / 1e9;
                        print!(" {gbs:>9.1}");
                        csv.push_str(&format!(
                            "portion,boyer-moore,{p},{m},{n},{ms:.4},{gbs:.1},{count},\n"
                        ));
                    }
                    Err(e) => print!(" err:{e}"),
                }
            }
            println!();
        }
        let _ = engine.set_bm_portion(BM_DEFAULT_PORTION);
        match engine.bench_copy_ceiling(args.reps) {
            Ok(gbs) => {
                println!("\ndevice-to-device copy (read + write bytes): {gbs:.1} GB/s");
                csv.push_str(&format!("copy,dtod,0,0,{n},0,{gbs:.1},0,\n"));
            }
            Err(e) => eprintln!("copy ceiling: {e}"),
        }
        let best: Vec<String> = table
            .iter()
            .map(|(m, a, b)| format!("{m}:{}", if a >= b { "prefix4" } else { "bm" }))
            .collect();
        println!("\nfaster kernel by length: {}", best.join(" "));
    }

    if args.e2e {
        println!(
            "\none chunk end to end through a lane (upload + kernel + count + results), median of 3 (GB/s = 1e9 text bytes/s);"
        );
        println!("text: 'pinned' = in page-locked memory as the pipeline holds it, 'pageable' = the driver copies from the Vec; cpu = memmem, 1 thread");
        println!(
            "{:>10} {:>4} {:>9} {:>10} {:>10} {:>8} {:>8} {:>8} {:>9} {:>8}",
            "size",
            "m",
            "text",
            "gpu ms",
            "gpu GB/s",
            "up ms",
            "srch ms",
            "back ms",
            "matches",
            "shape"
        );
        let sizes: [usize; 4] = [1 << 20, 16 << 20, 256 << 20, 1 << 30];
        let big: Vec<u8> = block.iter().copied().cycle().take(1 << 30).collect();
        let pinned = match engine.alloc_host(big.len(), 8) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("pinned memory: {e}");
                std::process::exit(1);
            }
        };
        // SAFETY: the buffer holds big.len() bytes, lives until the end of
        // this block, and only this thread touches it.
        let pinned_text = unsafe { std::slice::from_raw_parts_mut(pinned.as_ptr(), pinned.len()) };
        pinned_text.copy_from_slice(&big);
        let mut lane = match engine.lane() {
            Ok(l) => l,
            Err(e) => {
                eprintln!("lane: {e}");
                std::process::exit(1);
            }
        };
        let mut cpu_rows = Vec::new();
        for &size in &sizes {
            for m in [4usize, 32] {
                let pat = pattern_from(&block, m, 2);
                let t = Instant::now();
                let want = cpu_count(&big[..size], &pat);
                let cpu_ms = t.elapsed().as_secs_f32() * 1e3;
                let gb = |ms: f32| size as f64 / (f64::from(ms) * 1e-3) / 1e9;
                cpu_rows.push(format!(
                    "{size:>10} {m:>4} {cpu_ms:>10.2} {:>10.2} {want:>9}",
                    gb(cpu_ms)
                ));
                csv.push_str(&format!(
                    "cpu,memmem,0,{m},{size},{cpu_ms:.3},{:.2},{want},\n",
                    gb(cpu_ms)
                ));
                let modes: &[(&str, &[u8])] =
                    &[("pinned", &pinned_text[..size]), ("pageable", &big[..size])];
                for &(mode, text) in modes {
                    let mut times = Vec::new();
                    let mut got = None;
                    let mut tm = Default::default();
                    for _ in 0..3 {
                        let before = lane.timings();
                        let t = Instant::now();
                        let r = lane.search(text, &pat, None, u64::MAX, None);
                        times.push(t.elapsed().as_secs_f32() * 1e3);
                        tm = since(before, lane.timings());
                        got = Some(r);
                    }
                    let gpu_ms = median(&mut times);
                    let (count, shape) = match got {
                        Some(Ok(ChunkFound::Offsets(v))) => (v.len() as u64, lane.last_shipped()),
                        Some(Ok(_)) => (u64::MAX, "unexpected"),
                        Some(Err(e)) => {
                            eprintln!("search: {e}");
                            (u64::MAX, "error")
                        }
                        None => (u64::MAX, "none"),
                    };
                    let ok = count == want;
                    failures += usize::from(!ok);
                    println!(
                        "{size:>10} {m:>4} {mode:>9} {gpu_ms:>10.2} {:>10.2} {:>8.2} {:>8.2} {:>8.2} {count:>9} {shape:>8}{}",
                        gb(gpu_ms),
                        tm.upload_ms,
                        tm.search_ms,
                        tm.readback_ms,
                        if ok { "" } else { "  MISMATCH" }
                    );
                    csv.push_str(&format!(
                        "e2e-{mode},{},0,{m},{size},{gpu_ms:.3},{:.2},{count},{}\n",
                        lane.last_kernel(),
                        gb(gpu_ms),
                        if ok { "ok" } else { "MISMATCH" }
                    ));
                }
            }
        }
        drop(lane);
        // Dense matches (bitmap shipped) and a pathological text for prefix4
        // (every position passes the 4-byte prefix test).
        println!("\nspecial texts ({{a,b}}: 256 MiB, all-a: 64 MiB), kernel forced, median of 3;");
        println!("shape: auto, or forced to offsets / bitmap; phases of the last run");
        println!(
            "{:>16} {:>4} {:>12} {:>14} {:>9} {:>8} {:>8} {:>8} {:>10}",
            "text", "m", "kernel", "shape", "total ms", "upload", "search", "back", "matches"
        );
        let size = 256usize << 20;
        let mut rng = XorShift(77);
        let ab: Vec<u8> = (0..size)
            .map(|_| if rng.next() & 1 == 0 { b'a' } else { b'b' })
            .collect();
        let aaa = vec![b'a'; 64 << 20];
        let cases: Vec<(&str, &[u8], Vec<u8>)> = vec![
            ("random {a,b}", &ab, b"ab".to_vec()),
            ("random {a,b}", &ab, b"abbabaab".to_vec()),
            ("all a", &aaa, [vec![b'a'; 15], vec![b'b']].concat()),
            ("all a", &aaa, [vec![b'a'; 255], vec![b'b']].concat()),
        ];
        for (label, text, pat) in cases {
            let want = cpu_count(text, &pat);
            let runs = [
                (Kernel::Prefix4, None),
                (Kernel::BoyerMoore, None),
                (Kernel::Prefix4, Some(true)),
                (Kernel::Prefix4, Some(false)),
            ];
            for (k, force) in runs {
                if force.is_some() && want == 0 {
                    continue;
                }
                // A lane takes the engine's settings when it is made.
                engine.bench_force_offsets(force);
                let mut lane = match engine.lane() {
                    Ok(l) => l,
                    Err(e) => {
                        failures += 1;
                        println!("lane: {e}");
                        continue;
                    }
                };
                lane.set_kernel(Some(k));
                let mut times = Vec::new();
                let mut shape = "";
                let mut tm = Default::default();
                for _ in 0..3 {
                    let before = lane.timings();
                    let t = Instant::now();
                    let r = lane.search(text, &pat, None, u64::MAX, None);
                    times.push(t.elapsed().as_secs_f32() * 1e3);
                    tm = since(before, lane.timings());
                    match r {
                        Ok(ChunkFound::Offsets(v)) => {
                            shape = lane.last_shipped();
                            if v.len() as u64 != want {
                                failures += 1;
                                println!("MISMATCH {label} m={} {k:?}", pat.len());
                            }
                        }
                        Ok(_) => {
                            failures += 1;
                            println!("unexpected result shape {label}");
                        }
                        Err(e) => {
                            failures += 1;
                            println!("error {label}: {e}");
                        }
                    }
                }
                let ms = median(&mut times);
                let shape_col = match force {
                    None => format!("auto:{shape}"),
                    Some(_) => format!("forced:{shape}"),
                };
                println!(
                    "{label:>16} {:>4} {:>12} {shape_col:>14} {ms:>9.2} {:>8.2} {:>8.2} {:>8.2} {want:>10}",
                    pat.len(),
                    lane.last_kernel(),
                    tm.upload_ms,
                    tm.search_ms,
                    tm.readback_ms
                );
                csv.push_str(&format!(
                    "special-{label}-{shape_col},{},0,{},{},{ms:.3},0,{want},\n",
                    k.name(),
                    pat.len(),
                    text.len()
                ));
            }
        }
        engine.bench_force_offsets(None);
        println!("\ncpu memmem (1 thread), same texts");
        println!(
            "{:>10} {:>4} {:>10} {:>10} {:>9}",
            "size", "m", "cpu ms", "cpu GB/s", "matches"
        );
        for r in cpu_rows {
            println!("{r}");
        }
    }

    if let Some(path) = args.csv {
        if let Err(e) = std::fs::File::create(&path).and_then(|mut f| f.write_all(csv.as_bytes())) {
            eprintln!("cannot write {path}: {e}");
        }
    }
    if failures > 0 {
        println!("\n{failures} COUNT MISMATCHES");
        std::process::exit(1);
    }
    println!("\nall counts match the CPU");
}
