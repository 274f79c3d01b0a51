//! Independent work per item, cut into one part per thread, results in
//! the items' order: compiling a pack is mostly work per rule (each rule's
//! automata for the GPU's rule book, each rule's regex for the CPU; on the
//! H100 host 10,000 rules took 1.7 s on one core), and the GPU pipeline
//! reads each input's size.

/// `f` of each item, in order, on all cores (at least 64 items a thread).
pub fn map_on_all_cores<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_in_parts(items, cores(), 64, f)
}

/// The cores this process may run on.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `f` of each item, in order, on up to `threads` threads, each taking at
/// least `min_part` items (fewer items: on the calling thread).
pub fn map_in_parts<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    min_part: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let per = items.len().div_ceil(threads.max(1)).max(min_part.max(1));
    if items.len() <= per {
        return items.iter().map(&f).collect();
    }
    let f = &f;
    std::thread::scope(|s| {
        let parts: Vec<_> = items
            .chunks(per)
            .map(|part| s.spawn(move || part.iter().map(f).collect::<Vec<_>>()))
            .collect();
        parts
            .into_iter()
            .zip(items.chunks(per))
            .flat_map(|(h, part)| {
                // A thread that panicked has its items redone here, where
                // the panic, if any, is the caller's as without threads.
                h.join().unwrap_or_else(|_| part.iter().map(f).collect())
            })
            .collect()
    })
}

/// `f` of each item, in order, on all cores, each thread taking the next
/// `batch` items as it gets free: for items whose costs differ widely
/// (gitleaks' rule regexes: 0.1 to 70 ms each, the slow ones together in
/// its file; in parts of 64, 214 rules on 16 cores took 4 threads and
/// 0.72 s, session 41).
pub fn map_on_all_cores_as_free<T: Sync, R: Send>(
    items: &[T],
    batch: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let batch = batch.max(1);
    let threads = cores().min(items.len().div_ceil(batch));
    if threads <= 1 {
        return items.iter().map(&f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let at = next.fetch_add(batch, Ordering::Relaxed);
            let Some(part) = items.get(at..(at + batch).min(items.len())) else {
                return done;
            };
            done.extend(part.iter().enumerate().map(|(k, x)| (at + k, f(x))));
        }
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    all.sort_unstable_by_key(|&(i, _)| i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_order() {
        for n in [0, 1, 63, 64, 65, 1000, 4097] {
            let items: Vec<usize> = (0..n).collect();
            let want: Vec<usize> = items.iter().map(|i| i * 3).collect();
            assert_eq!(map_on_all_cores(&items, |&i| i * 3), want);
            for (threads, min_part) in [(0, 0), (1, 1), (3, 2), (16, 256)] {
                assert_eq!(map_in_parts(&items, threads, min_part, |&i| i * 3), want);
            }
            for batch in [0, 1, 7, 64] {
                assert_eq!(map_on_all_cores_as_free(&items, batch, |&i| i * 3), want);
            }
        }
    }
}
