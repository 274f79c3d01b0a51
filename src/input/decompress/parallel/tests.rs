//! The parallel reader against the single-threaded decoder: same bytes for
//! every cut of the jobs, false member headers, damage in the middle.

use super::*;
use proptest::prelude::*;
use std::io::Write;

fn text(lines: std::ops::Range<u32>) -> Vec<u8> {
    lines
        .flat_map(|i| format!("line {i} {}\n", i.wrapping_mul(2654435761)).into_bytes())
        .collect()
}

fn gzip(text: &[u8], level: u32) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

fn shared(bytes: Vec<u8>) -> Shared {
    Arc::new(Mapped::Owned(bytes))
}

/// Everything the parallel reader gives, and its error if any.
fn read_parallel(
    data: &[u8],
    format: Format,
    step: usize,
    threads: usize,
) -> (Vec<u8>, Option<String>) {
    let data = shared(data.to_vec());
    let jobs = match format {
        Format::Gzip => gzip_jobs(&data, step),
        _ => zstd_jobs(&data, step),
    };
    let mut reader = Parallel::start(data, format, jobs, threads).unwrap();
    let mut out = Vec::new();
    let mut buf = vec![0u8; 7919];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some(e.to_string())),
        }
    }
}

fn read_sequential(data: &[u8]) -> Vec<u8> {
    let (mut r, _) = super::super::wrap(Box::new(io::Cursor::new(data.to_vec()))).unwrap();
    let mut out = Vec::new();
    r.read_to_end(&mut out).unwrap();
    out
}

#[test]
fn gzip_jobs_start_at_member_headers() {
    let a = gzip(&text(0..2000), 6);
    let b = gzip(&text(2000..4000), 6);
    let c = gzip(&text(4000..6000), 6);
    let all = [a.clone(), b.clone(), c.clone()].concat();
    let jobs = gzip_jobs(&all, 1);
    let starts: Vec<usize> = jobs.iter().map(|j| j.start).collect();
    assert_eq!(starts, vec![0, a.len(), a.len() + b.len()]);
    assert_eq!(jobs.last().unwrap().stop, all.len());
    // One member: nothing to cut.
    assert_eq!(gzip_jobs(&a, 1).len(), 1);
}

#[test]
fn no_second_member_in_the_window_means_one_job() {
    // A first member past the window (stored: its bytes as they are).
    let big = vec![b'x'; FIRST_MEMBER_WINDOW + 1000];
    let a = gzip(&big, 0);
    let b = gzip(&text(0..100), 6);
    let all = [a.clone(), b.clone(), b].concat();
    assert_eq!(gzip_jobs(&all, 1).len(), 1);
    // Within it, every member is found.
    let small = [gzip(&big[..1000], 0), gzip(&text(0..100), 6)].concat();
    assert_eq!(gzip_jobs(&small, 1).len(), 2);
}

#[test]
fn zstd_jobs_are_whole_frames_and_a_damaged_tail_is_one_job() {
    let frames: Vec<Vec<u8>> = (0..4)
        .map(|i| zstd::encode_all(&text(i * 1000..(i + 1) * 1000)[..], 3).unwrap())
        .collect();
    let all = frames.concat();
    let jobs = zstd_jobs(&all, 1);
    assert_eq!(jobs.len(), 4);
    let mut cut = all.clone();
    cut.truncate(all.len() - frames[3].len() / 2);
    let jobs = zstd_jobs(&cut, 1);
    assert_eq!(jobs.len(), 4);
    assert_eq!(jobs[3].stop, cut.len());
    let (out, err) = read_parallel(&cut, Format::Zstd, 1, 3);
    assert!(err.unwrap().starts_with("truncated zstd data"));
    assert!(text(0..3000).starts_with(&out) && out.len() >= text(0..3000).len());
}

/// Members stored uncompressed whose text holds a gzip header: the guessed
/// cuts fall inside members, and the output is still the file's.
#[test]
fn false_member_headers_cost_time_not_output() {
    let fake = b"\x1F\x8B\x08\x00\x00\x00\x00\x00\x00\x03fake\n";
    let mut body = Vec::new();
    for i in 0..300u32 {
        body.extend_from_slice(format!("row {i}\n").as_bytes());
        body.extend_from_slice(fake);
    }
    let members: Vec<Vec<u8>> = (0..5)
        .map(|i| gzip(&body, if i % 2 == 0 { 0 } else { 6 }))
        .collect();
    let all = members.concat();
    let want = read_sequential(&all);
    for step in [1, 7, 100, 1000, 5000] {
        for threads in [2, 4] {
            let (out, err) = read_parallel(&all, Format::Gzip, step, threads);
            assert_eq!(err, None, "step {step}");
            assert!(out == want, "step {step} threads {threads}");
        }
    }
}

#[test]
fn damage_in_a_middle_member_ends_the_stream_after_the_members_before() {
    let a = gzip(&text(0..3000), 6);
    let b = gzip(&text(3000..6000), 6);
    let c = gzip(&text(6000..9000), 6);
    let mut bad = b.clone();
    let mid = bad.len() / 2;
    bad[mid..mid + 16].fill(0xAA);
    let all = [a.clone(), bad, c].concat();
    for step in [1, 1000] {
        let (out, err) = read_parallel(&all, Format::Gzip, step, 3);
        let err = err.expect("an error");
        assert!(err.starts_with("corrupt gzip data"), "{err}");
        // The damaged member's bytes before the damage was noticed may
        // come out (inflate output is checked by the member's CRC only at
        // its end), as from the single-threaded decoder; never the member
        // after it.
        assert!(out.starts_with(&text(0..3000)));
        assert!(memchr::memmem::find(&out, &text(6000..6001)).is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any members (sizes, levels), any job size, any threads: the parallel
    /// reader gives what the single-threaded decoder gives.
    #[test]
    fn parallel_equals_sequential(
        sizes in proptest::collection::vec(0u32..1500, 1..8),
        levels in proptest::collection::vec(0u32..10, 8),
        step in 1usize..20_000,
        threads in 2usize..5,
        zst in any::<bool>(),
    ) {
        let mut from = 0;
        let mut all = Vec::new();
        for (i, n) in sizes.iter().enumerate() {
            let t = text(from..from + n);
            from += n;
            all.extend(match zst {
                true => zstd::encode_all(&t[..], levels[i] as i32 + 1).unwrap(),
                false => gzip(&t, levels[i]),
            });
        }
        let format = if zst { Format::Zstd } else { Format::Gzip };
        let (out, err) = read_parallel(&all, format, step, threads);
        prop_assert_eq!(err, None);
        prop_assert!(out == text(0..from));
    }
}
