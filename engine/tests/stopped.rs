//! A search stopped mid-iteration keeps what that iteration had already proved: a root move
//! searched to the end that beat the last finished iteration's best.

use std::sync::atomic::AtomicBool;

use engine::{bench, Limits, SearchResult, Searcher};
use rules::Position;

fn search(pos: &Position, limits: Limits) -> SearchResult {
    let mut searcher = Searcher::new(pos.variant(), 16);
    searcher.search(std::slice::from_ref(pos), &limits, &AtomicBool::new(false), &mut |_| {})
}

#[test]
fn a_search_stopped_at_the_last_node_of_an_iteration_plays_the_move_that_iteration_found() {
    let mut changed_minds = 0;
    for pos in bench::positions() {
        for depth in 2..=4 {
            let shallow = search(&pos, Limits { depth: Some(depth), ..Limits::default() });
            let deep = search(&pos, Limits { depth: Some(depth + 1), ..Limits::default() });
            if shallow.best == deep.best {
                continue;
            }
            changed_minds += 1;
            // The same search, one node short of finishing depth + 1: a fresh searcher walks the
            // same tree, so everything but the iteration's last node was searched.
            let stopped =
                search(&pos, Limits { depth: Some(depth + 1), nodes: Some(deep.nodes - 1), ..Limits::default() });
            assert_eq!(stopped.depth, depth, "{}: depth {} was not finished", pos.fen(), depth + 1);
            assert_eq!(
                stopped.best.map(|m| pos.coord(&m)),
                deep.best.map(|m| pos.coord(&m)),
                "{}: depth {} had found its move; depth {depth} played {:?}",
                pos.fen(),
                depth + 1,
                shallow.best.map(|m| pos.coord(&m)),
            );
        }
    }
    assert!(changed_minds >= 5, "the bench positions should change their best move with depth: {changed_minds}");
}

#[test]
fn a_search_stopped_before_any_move_beat_the_first_keeps_the_finished_iterations_move() {
    let pos = Position::start(rules::Variant::Chess);
    let finished = search(&pos, Limits { depth: Some(3), ..Limits::default() });
    let full = search(&pos, Limits { depth: Some(4), ..Limits::default() });
    // A few nodes into depth 4: the first root move is not even done.
    let stopped = search(&pos, Limits { depth: Some(4), nodes: Some(finished.nodes + 5), ..Limits::default() });
    assert!(stopped.nodes < full.nodes);
    assert_eq!(stopped.depth, 3);
    assert_eq!(stopped.best, finished.best);
    assert_eq!(stopped.score, finished.score);
}
