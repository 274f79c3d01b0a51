use super::*;
use crate::input::walk::Input;
use crate::run::ordered::inbox::Want;

fn queue(workers: usize) -> Queue {
    Queue::new(Vec::new(), workers)
}

/// File `id`'s path: ids in name order.
fn path(id: usize) -> PathBuf {
    format!("f{id:04}").into()
}

/// The key of a batch that begins with file `id`.
pub(in crate::run::ordered) fn key(id: usize) -> Key {
    (0, tree_key(&path(id)))
}

/// Files `ids`, named in their order (`path`).
pub(in crate::run::ordered) fn batch(ids: std::ops::Range<usize>) -> Vec<(usize, Item)> {
    ids.map(|id| (id, Item::Input(Input::file(path(id), true))))
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
            key: key(0),
            work: Work::Search(batch(0..8)),
        }],
        false,
    );
    let first = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&first), (0..8).collect::<Vec<_>>());
    q.hold(0, first.key, batch(0..8));
    let stolen = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&stolen), vec![4, 5, 6, 7]);
    assert!(
        stolen.key == key(4),
        "the half taken is keyed by its own first file"
    );
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
            key: key(0),
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
                key: key(0),
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

/// The files not begun of a batch a worker holds go with the queued ones
/// when its next file is picked; the file under way stays its worker's.
/// (Regression: a large directory's held batches kept the order read, and
/// past the far bound threads were given their files as the printer's
/// next.)
#[test]
fn batches_taken_by_their_first_file_include_held_files_not_begun() {
    let q = queue(2);
    q.hold(0, key(0), batch(0..4));
    q.hold(1, key(20), batch(20..22));
    assert_eq!(q.next_held(0).map(|(id, _)| id), Some(0));
    let taken: Vec<Vec<usize>> = q
        .take_batches(|id| id < 10)
        .iter()
        .map(|b| b.iter().map(|(id, _)| *id).collect())
        .collect();
    assert_eq!(taken, vec![vec![1, 2, 3]]);
    assert!(q.next_held(0).is_none());
    assert_eq!(q.next_held(1).map(|(id, _)| id), Some(20));
}

/// What is left of a batch given back is keyed by its next file, so it
/// keeps its place among the others.
#[test]
fn a_released_batch_is_keyed_by_its_next_file() {
    let q = queue(1);
    q.hold(0, key(0), batch(0..4));
    let _ = q.next_held(0);
    let _ = q.next_held(0);
    q.release_held(0);
    let left = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&left), vec![2, 3]);
    assert!(left.key == key(2));
}

/// A thread too far ahead of the printer searches only the first file of
/// the earliest batch; the rest is queued again, still first in line.
#[test]
fn first_only_queues_the_rest_of_the_batch_again() {
    let q = queue(2);
    let task = Task {
        key: key(3),
        work: Work::Search(batch(3..7)),
    };
    q.add(
        vec![Task {
            key: key(7),
            work: Work::Search(batch(7..9)),
        }],
        false,
    );
    let first = q.first_only(task);
    assert_eq!(ids(&first), vec![3]);
    let next = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&next), vec![4, 5, 6]);
    assert!(
        next.key == key(4),
        "the rest is keyed by its own first file"
    );
    let last = q.take(false, || Idle::Nothing).unwrap();
    assert_eq!(ids(&last), vec![7, 8]);
}

/// Past the far bound a thread gets the earliest file nobody began, alone:
/// the next of a batch a worker holds before the earliest queued, else
/// the first of the earliest queued, the rest left where it was; nothing
/// when `room` says no.
#[test]
fn the_earliest_file_is_taken_alone_and_the_rest_stays() {
    let q = queue(2);
    q.hold(0, key(10), batch(10..14));
    let _searching = q.next_held(0);
    let task = |ids: std::ops::Range<usize>| Task {
        key: key(ids.start),
        work: Work::Search(batch(ids)),
    };
    q.add(vec![task(20..22)], false);
    assert!(q.take_earliest_file(|| false).is_none());
    let file = q.take_earliest_file(|| true).unwrap();
    assert_eq!(ids(&file), vec![11]);
    assert!(file.key == key(11));
    q.add(vec![task(0..3)], false);
    assert!(q.take_earliest_file(|| false).is_none());
    let file = q.take_earliest_file(|| true).unwrap();
    assert_eq!(ids(&file), vec![0]);
    let order: Vec<Vec<usize>> = std::iter::from_fn(|| q.state.lock().unwrap().tasks.pop())
        .map(|Reverse(t)| ids(&t))
        .collect();
    assert_eq!(order, vec![vec![1, 2], vec![20, 21]]);
    assert_eq!(q.next_held(0).map(|(id, _)| id), Some(12));
}

/// Past the far bound the file the printer waits for is taken alone from
/// a queued batch (the files before and after it stay queued, each part
/// keyed by its first file) or from a held one; nothing while it is under
/// way. Its listing is taken whole.
#[test]
fn the_wanted_file_is_taken_alone_unless_under_way() {
    let q = Queue::new(
        vec![Task {
            key: key(50),
            work: Work::List(7, PathBuf::from("d")),
        }],
        2,
    );
    q.add(
        vec![Task {
            key: key(0),
            work: Work::Search(batch(0..4)),
        }],
        false,
    );
    q.hold(1, key(10), batch(10..13));
    let file = q.take_wanted(Want::Result(2)).unwrap();
    assert_eq!(ids(&file), vec![2]);
    assert!(file.key == key(2));
    let file = q.take_wanted(Want::Result(11)).unwrap();
    assert_eq!(ids(&file), vec![11]);
    assert_eq!(q.next_held(1).map(|(id, _)| id), Some(10));
    assert!(q.take_wanted(Want::Result(10)).is_none(), "under way");
    assert!(q.take_wanted(Want::Nothing).is_none());
    let listing = q.take_wanted(Want::Listing(7)).unwrap();
    assert!(matches!(listing.work, Work::List(7, _)));
    let left: Vec<(Key, Vec<usize>)> = std::iter::from_fn(|| q.state.lock().unwrap().tasks.pop())
        .map(|Reverse(t)| (t.key.clone(), ids(&t)))
        .collect();
    assert_eq!(left, vec![(key(0), vec![0, 1]), (key(3), vec![3])]);
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
