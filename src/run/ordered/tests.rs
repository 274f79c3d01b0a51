use super::*;
use crate::run::one::FileResult;
use crate::run::parallel::BYTES_AHEAD;
use queue::tests::{batch, key};

/// A queue holding one batch of files 0..4.
fn queue_with_a_batch() -> Queue {
    let queue = Queue::new(Vec::new(), 2);
    let task = Task {
        key: key(0),
        work: Work::Search(batch(0..4)),
    };
    queue.add(vec![task], false);
    queue
}

/// A lead past the far bound (twice the byte bound waits to be printed).
fn lead_past_the_far_bound() -> Lead {
    let lead = Lead::new(std::iter::empty(), 2);
    let out = Vec::with_capacity(3 * BYTES_AHEAD);
    lead.add(&Ok(FileResult {
        out,
        ..FileResult::default()
    }));
    assert!(lead.far_too_many_bytes());
    lead
}

/// What `far_step` gives a thread while the printer waits for `want`:
/// the ids of the files it is to search.
fn caught_up_while_waiting_for(want: Want) -> Option<Vec<usize>> {
    let queue = queue_with_a_batch();
    let lead = lead_past_the_far_bound();
    let inbox = Inbox::new(1, false);
    std::thread::scope(|scope| {
        let printer = scope.spawn(|| inbox.take(want).len());
        while inbox.want() != want {
            std::thread::yield_now();
        }
        let got = far_step(&queue, &lead, &inbox).map(|t| match t.work {
            Work::Search(batch) => batch.iter().map(|(id, _)| *id).collect(),
            Work::List(..) => Vec::new(),
        });
        // The sender ends: the printer wakes with nothing.
        inbox.close();
        assert_eq!(printer.join().ok(), Some(0));
        got
    })
}

/// Past the far bound a thread begins the earliest file nobody began
/// while the printer waits for a file, and nothing while it waits for a
/// listing. (Regression: it began the earliest queued file then, a large
/// directory's in the order read, and the printer's next few places were
/// taken by files it printed much later: 20,512 files in one directory,
/// `-n the`, 16 threads on 2 cores, all 16 places.)
#[test]
fn past_the_far_bound_nothing_is_begun_while_a_listing_is_awaited() {
    assert_eq!(caught_up_while_waiting_for(Want::Result(9)), Some(vec![0]));
    assert_eq!(caught_up_while_waiting_for(Want::Listing(1)), None);
}
