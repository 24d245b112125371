//! A team game on the console, as people type it: #general against #club, 5 seconds a move.
//! Each session is a process of its own, so every window here closes after a restart: the votes
//! are kept in the database, and the scheduler's tick after the next session's first line closes
//! the window.

use std::time::Duration;

#[path = "support/session.rs"]
mod session;

use session::run;

/// Longer than a window (5 s), shorter than the downtime the host credits clocks for (10 s).
fn let_the_window_close() {
    std::thread::sleep(Duration::from_millis(6_500));
}

#[test]
fn votes_decide_ties_go_to_the_first_vote_and_a_silent_side_loses_on_time_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chimera.db");

    // #club accepts #general's challenge; votes are counted and shown as they come, the leading
    // move on a button.
    let first = run(
        dir.path(),
        &db,
        "alice: /challenge team:#club variant:chess color:white window:5s\n\
         zoe@club: /accept\n\
         alice: /move e4\nbob: /move d4\ncarol: /move e2e4\n",
    );
    assert!(first.contains("#general (team) challenges #club (team) to a team game of Chess"), "{first}");
    assert!(first.contains("Team game 1 begins: #general (team) (White) against #club (team) (Black)"), "{first}");
    assert!(first.contains("Votes for 1.: e4 2 votes, d4 1 vote. Leading: e4."), "{first}");
    assert!(first.contains("[Vote e4] /move e2e4 game:1"), "{first}");
    assert!(!first.contains("plays 1."), "the window is still open: {first}");

    // After a restart the votes stand, and the window's close plays the most-voted move; #club's
    // members vote next, e5 first and d5 as often: e5 is played.
    let_the_window_close();
    let second = run(dir.path(), &db, "zoe@club: /board\nzoe@club: /move e5\nyan@club: /move d5\n");
    assert!(second.contains("plays 1. e4 by vote (e4 2 votes, d4 1 vote)."), "{second}");
    assert!(second.contains("Votes for 1...: e5 1 vote, d5 1 vote. Leading: e5."), "{second}");

    // Nobody in #general votes: it loses on time.
    let_the_window_close();
    let third = run(dir.path(), &db, "anyone: /board\n");
    assert!(third.contains("plays 1... e5 by vote (e5 1 vote, d5 1 vote)."), "{third}");
    let_the_window_close();
    let fourth = run(dir.path(), &db, "anyone@club: /pgn game:1\n");
    assert!(fourth.contains("Time is up in game 1: #general (team) (White) ran out of time."), "{fourth}");
    assert!(fourth.contains("[White \"#general (team)\"]"), "{fourth}");
}
