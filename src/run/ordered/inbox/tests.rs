use super::*;
use crate::run::one::FileResult;

fn found(id: usize) -> Msg {
    Msg::Found(vec![(id, Ok(FileResult::default()))])
}

/// Runs `take(want)` on another thread once the printer waits for it,
/// and `then` here; returns how many messages `take` got.
fn waiting_for(inbox: &Inbox, want: Want, then: impl FnOnce()) -> usize {
    std::thread::scope(|scope| {
        let printer = scope.spawn(|| inbox.take(want).len());
        while inbox.want() != want {
            std::thread::yield_now();
        }
        then();
        printer.join().unwrap_or(usize::MAX)
    })
}

#[test]
fn messages_waiting_are_taken_at_once() {
    let inbox = Inbox::new(1, false);
    inbox.send(found(1));
    inbox.send(Msg::Listed(3, Vec::new()));
    assert_eq!(inbox.take(Want::Result(7)).len(), 2);
}

#[test]
fn the_wanted_result_alone_waits_for_a_nudge() {
    let inbox = Inbox::new(2, false);
    let got = waiting_for(&inbox, Want::Result(5), || {
        inbox.send(found(4));
        inbox.send(found(5));
        // Fewer than wake_after messages: the printer is left asleep
        // until a thread about to wait says so.
        assert!(inbox.state.lock().unwrap().holds_want);
        inbox.nudge();
    });
    assert_eq!(got, 2);
    assert!(!inbox.state.lock().unwrap().holds_want);
}

#[test]
fn enough_messages_wake_the_printer_for_its_result() {
    for (senders, enough) in [(1, WAKE_AFTER_FEW), (FEW_SENDERS + 1, WAKE_AFTER)] {
        let inbox = Inbox::new(senders, false);
        assert_eq!(inbox.wake_after, enough);
        let got = waiting_for(&inbox, Want::Listing(9), || {
            inbox.send(Msg::Listed(9, Vec::new()));
            for id in 1..enough {
                inbox.send(found(id));
            }
        });
        // Woken by the last of them (or later: all are there by then).
        assert_eq!(got, enough);
    }
}

#[test]
fn a_sender_ending_wakes_the_printer_for_what_it_left() {
    let inbox = Inbox::new(2, false);
    let got = waiting_for(&inbox, Want::Result(1), || {
        inbox.send(found(1));
        inbox.close();
    });
    assert_eq!(got, 1);
}

#[test]
fn the_last_sender_ending_wakes_the_printer_with_nothing() {
    let inbox = Inbox::new(1, false);
    let got = waiting_for(&inbox, Want::Result(1), || inbox.close());
    assert_eq!(got, 0);
}

#[test]
fn a_prompt_inbox_wakes_the_printer_for_its_result_at_once() {
    let inbox = Inbox::new(2, true);
    let got = waiting_for(&inbox, Want::Result(3), || inbox.send(found(3)));
    assert_eq!(got, 1);
}

/// Regression: with 2 threads the printer waited for 32 messages, and the
/// parts of 8 large logs' output (a megabyte each) came after the listing
/// it waited for: 32 of 37 MB of parts were held until the threads were
/// done. A part wakes the printer once it can go on.
#[test]
fn a_part_wakes_the_printer_once_what_it_waits_for_is_there() {
    let inbox = Inbox::new(2, false);
    // True when the printer took the messages without a nudge (one comes
    // after 5 s so that a failure ends).
    let taken = || {
        let start = std::time::Instant::now();
        while !inbox.state.lock().unwrap().msgs.is_empty() {
            if start.elapsed() > std::time::Duration::from_secs(5) {
                inbox.nudge();
                return false;
            }
            std::thread::yield_now();
        }
        true
    };
    let mut woken = false;
    let got = waiting_for(&inbox, Want::Listing(4), || {
        inbox.send(Msg::Listed(4, Vec::new()));
        assert!(inbox.state.lock().unwrap().holds_want);
        inbox.send(Msg::Part(0, vec![b'x'; 16]));
        woken = taken();
    });
    assert!(woken, "a part left the printer asleep on its listing");
    assert_eq!(got, 2);
    let got = waiting_for(&inbox, Want::Result(0), || {
        inbox.send(Msg::Part(0, vec![b'x'; 16]));
        woken = taken();
    });
    assert!(woken, "a part of its file left the printer asleep");
    assert_eq!(got, 1);
}

#[test]
fn a_part_of_another_file_leaves_the_printer_asleep() {
    let inbox = Inbox::new(2, false);
    let got = waiting_for(&inbox, Want::Result(0), || {
        inbox.send(Msg::Part(1, vec![b'x'; 16]));
        assert!(!inbox.state.lock().unwrap().holds_want);
        inbox.send(found(0));
        inbox.nudge();
    });
    assert_eq!(got, 2);
}

#[test]
fn a_thread_that_failed_stops_the_printer_waiting() {
    let inbox = Inbox::new(2, false);
    assert_eq!(waiting_for(&inbox, Want::Result(7), || inbox.fail()), 0);
    assert!(inbox.failed());
    inbox.send(found(1));
    assert!(inbox.take(Want::Result(7)).is_empty());
}

/// Dense output wakes the printer before `wake_after` messages wait: a
/// directory of 1,000 prose files (`-n the`, 2 threads) sent 9 messages,
/// and their 8.7 MB of output waited until the threads were done.
#[test]
fn dense_output_wakes_the_printer_before_enough_messages() {
    let inbox = Inbox::new(2, false);
    let dense = |id| {
        let out = vec![b'x'; WAKE_BYTES / 2];
        Msg::Found(vec![(
            id,
            Ok(FileResult {
                out,
                ..FileResult::default()
            }),
        )])
    };
    let mut woken = false;
    let got = waiting_for(&inbox, Want::Listing(9), || {
        inbox.send(Msg::Listed(9, Vec::new()));
        inbox.send(dense(1));
        assert!(inbox.state.lock().unwrap().holds_want, "half: asleep");
        inbox.send(dense(2));
        // Woken by the second (far fewer than WAKE_AFTER_FEW messages);
        // the nudge ends the test either way.
        woken = !inbox.state.lock().unwrap().holds_want;
        inbox.nudge();
    });
    assert!(woken);
    assert_eq!(got, 3);
    assert_eq!(inbox.state.lock().unwrap().bytes, 0, "taken with them");
}

/// Once a message holding what the printer waits for is here, threads
/// are told it wants nothing: past the bound on waiting output they
/// looked for it in every queued batch until the printer woke.
#[test]
fn the_want_is_nothing_once_its_message_waits() {
    let inbox = Inbox::new(2, false);
    let mut told = Want::Listing(0);
    let got = waiting_for(&inbox, Want::Result(5), || {
        assert!(inbox.want() == Want::Result(5));
        inbox.send(found(5));
        told = inbox.want();
        inbox.nudge();
    });
    assert!(told == Want::Nothing);
    assert_eq!(got, 1);
}
