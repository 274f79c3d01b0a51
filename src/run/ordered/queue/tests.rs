use super::*;
use crate::input::walk::Input;

fn queue(workers: usize) -> Queue {
    Queue::new(Vec::new(), workers)
}

fn batch(ids: std::ops::Range<usize>) -> Vec<(usize, Item)> {
    ids.map(|id| {
        let input = Input::file(format!("f{id}").into(), true);
        (id, Item::Input(input))
    })
    .collect()
}

fn ids(task: &Task) -> Vec<usize> {
    match &task.work {
        Work::Search(b) => b.iter().map(|(id, _)| *id).collect(),
        Work::List(..) => Vec::new(),
    }
}

/// A worker with nothing queued takes the later half of the batch another
/// worker holds; the holder keeps the first half, in order.
#[test]
fn an_idle_worker_takes_the_later_half_of_a_held_batch() {
    let q = queue(2);
    q.add(
        vec![Task {
            key: (0, vec![1]),
            work: Work::Search(batch(0..8)),
        }],
        false,
    );
    let first = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&first), (0..8).collect::<Vec<_>>());
    q.hold(0, first.key, batch(0..8));
    let stolen = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&stolen), vec![4, 5, 6, 7]);
    let kept: Vec<usize> = std::iter::from_fn(|| q.next_held(0))
        .map(|(id, _)| id)
        .collect();
    assert_eq!(kept, vec![0, 1, 2, 3]);
}

/// The last file of a batch whose thread is busy with the one before goes
/// to an idle thread (regression: left to the busy thread, 16 threads over
/// 64 logs ended with two threads searching two of the slowest each), and
/// the work ends once every worker that searched asks again.
#[test]
fn the_last_file_of_a_busy_batch_is_taken_and_the_queue_ends_when_all_are_done() {
    let q = queue(2);
    q.add(
        vec![Task {
            key: (0, vec![1]),
            work: Work::Search(batch(0..2)),
        }],
        false,
    );
    let task = q.take(false, || Idle::Nothing).unwrap();
    q.hold(0, task.key, batch(0..2));
    assert_eq!(q.next_held(0).map(|(id, _)| id), Some(0));
    let stolen = q.take(false, || Idle::Nothing).unwrap();
    assert!(matches!(&stolen.work, Work::Search(b) if b.len() == 1 && b[0].0 == 1));
    assert!(q.steal().is_none());
    assert!(q.next_held(0).is_none());
    // Both threads ask again once done; neither gets work.
    std::thread::scope(|s| {
        let other = s.spawn(|| q.take(true, || Idle::Nothing).is_none());
        assert!(q.take(true, || Idle::Nothing).is_none());
        assert!(other.join().unwrap());
    });
}

/// A thread with nothing to take runs its `idle` step (which wakes the
/// printer) before it waits, and still ends when the last listing ends.
#[test]
fn a_thread_about_to_wait_runs_its_idle_step_first() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let q = Queue::new(
        vec![Task {
            key: (0, Vec::new()),
            work: Work::List(1, PathBuf::from("d")),
        }],
        2,
    );
    let listing = q.take(false, || panic!("a task was there"));
    assert!(matches!(
        listing,
        Some(Task {
            work: Work::List(1, _),
            ..
        })
    ));
    let idled = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let waiter = scope.spawn(|| {
            q.take(false, || {
                idled.fetch_add(1, Ordering::SeqCst);
                Idle::Nothing
            })
        });
        while idled.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        // The listing ends with a batch: the waiting thread takes it.
        q.add(
            vec![Task {
                key: (0, vec![1]),
                work: Work::Search(batch(0..2)),
            }],
            true,
        );
        let took = waiter.join().ok().flatten();
        assert_eq!(took.as_ref().map(ids), Some(vec![0, 1]));
    });
    assert!(idled.load(Ordering::SeqCst) >= 1);
    // Nothing left and nobody listing: it ends, with no wait.
    assert!(q.take(true, || Idle::Nothing).is_none());
}

/// A large directory's batches queued in the order read are taken out
/// whole by their first file (`listing.rs` queues them again in name
/// order); other directories' batches stay, earliest first.
#[test]
fn batches_taken_by_their_first_file_leave_the_others_queued() {
    let q = queue(1);
    let task = |key: u8, ids: std::ops::Range<usize>| Task {
        key: (0, vec![key]),
        work: Work::Search(batch(ids)),
    };
    q.add(vec![task(3, 0..4), task(1, 10..12), task(2, 4..8)], false);
    let mut taken: Vec<usize> = q
        .take_batches(|id| id < 10)
        .into_iter()
        .flatten()
        .map(|(id, _)| id)
        .collect();
    taken.sort_unstable();
    assert_eq!(taken, (0..8).collect::<Vec<_>>());
    let left = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&left), vec![10, 11]);
    assert!(q.take_batches(|_| true).is_empty());
}

/// A thread too far ahead of the printer searches only the first file of
/// the earliest batch; the rest is queued again, still first in line.
#[test]
fn first_only_queues_the_rest_of_the_batch_again() {
    let q = queue(2);
    let task = Task {
        key: (0, vec![1]),
        work: Work::Search(batch(3..7)),
    };
    q.add(
        vec![Task {
            key: (0, vec![2]),
            work: Work::Search(batch(7..9)),
        }],
        false,
    );
    let first = q.first_only(task);
    assert_eq!(ids(&first), vec![3]);
    let next = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&next), vec![4, 5, 6]);
    let last = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&last), vec![7, 8]);
}

/// Past the far bound a thread gets the earliest file nobody began: the
/// next of an earlier batch a worker holds before its own task's first,
/// and its own task's first when no held batch comes before it.
#[test]
fn earliest_file_takes_an_earlier_held_batch_first() {
    let q = queue(2);
    q.hold(0, (0, vec![1]), batch(0..4));
    let _searching = q.next_held(0);
    let mine = Task {
        key: (0, vec![2]),
        work: Work::Search(batch(10..12)),
    };
    let file = q.earliest_file(mine);
    assert_eq!(ids(&file), vec![1]);
    // The task given back is queued whole.
    let queued = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&queued), vec![10, 11]);
    let earlier = Task {
        key: (0, vec![0]),
        work: Work::Search(batch(20..23)),
    };
    let file = q.earliest_file(earlier);
    assert_eq!(ids(&file), vec![20]);
}

/// A thread that waits for the printer gives its task back: the printer's
/// next files were hidden in a sleeping thread's hands and begun one at a
/// time, each when the printer asked for it (10,000 words, `-n`, 16
/// threads: 3.4x ripgrep's time). The queue's counts let the run end.
#[test]
fn a_waiting_thread_puts_its_task_back_for_others() {
    let q = queue(2);
    q.add(
        vec![Task {
            key: (0, vec![1]),
            work: Work::Search(batch(0..3)),
        }],
        false,
    );
    let task = q.take(false, || Idle::Nothing).unwrap();
    q.put_back(task);
    let other = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&other), vec![0, 1, 2]);
    // Searched and done: nothing is left, and no one waits for more.
    assert!(q.take(true, || Idle::Nothing).is_none());
}

/// The tail is told once no listing is out and the last batch is taken
/// with no more unbegun files than workers, or when a worker runs out of
/// its own and finds no more than that held by the others.
#[test]
fn the_tail_begins_when_no_more_files_are_left_than_workers() {
    let q = Queue::new(
        vec![Task {
            key: (0, Vec::new()),
            work: Work::List(1, PathBuf::from("d")),
        }],
        2,
    );
    let listing = q.take(false, || Idle::Nothing).unwrap();
    assert!(matches!(listing.work, Work::List(..)));
    let batches = (0..2)
        .map(|i| Task {
            key: (0, vec![i as u8]),
            work: Work::Search(batch(i * 3..i * 3 + 3)),
        })
        .collect();
    q.add(batches, true);
    let first = q.take(false, || Idle::Nothing).unwrap();
    q.hold(0, first.key, batch(0..3));
    let _ = q.next_held(0);
    assert!(!q.in_tail(), "a batch is still queued");
    // The last batch taken: 2 held + 3 more, over 2 workers.
    let second = q.take(false, || Idle::Nothing).unwrap();
    assert!(!q.in_tail());
    q.hold(1, second.key, batch(3..6));
    for _ in 0..3 {
        let _ = q.next_held(1);
    }
    // Worker 1 ran out: it steals from worker 0's 2 files, no more than
    // the 2 workers.
    let stolen = q.take(true, || Idle::Nothing).unwrap();
    assert!(q.in_tail());
    assert!(matches!(stolen.work, Work::Search(b) if b.len() == 1));
}
