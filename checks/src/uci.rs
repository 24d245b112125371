//! The line reader of `chimera uci`, driven in-process through its [`Driver`] (the engine's
//! UCI session, its searches on threads): a line it refuses gets exactly one `info string
//! error` and changes nothing; every `go` it accepts ends in exactly one `bestmove`, a legal
//! move of the position searched (`(none)` only where there is none), and every principal
//! variation it reports is a line of legal moves.
//!
//! Input: the bytes as text, one UCI line per line. Searches stop after a few thousand nodes
//! and the hash takes at most 2 MiB (the session's [`Caps`]), so an input costs milliseconds.

use std::sync::{Arc, Mutex};

use chimera::uci::{Caps, Driver};
use rules::{Position, Variant};

const MAX_LINES: usize = 24;
const CAPS: Caps = Caps { nodes: Some(2_000), hash_mb: 2 };

pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    converse(&lines);
}

/// Feeds `lines` to a fresh session and checks everything it said.
pub fn converse(lines: &[&str]) {
    let said: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = said.clone();
    let mut session = Driver::new(Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())), CAPS);
    // The position each accepted `go` searched, in order.
    let mut searched: Vec<(Variant, String)> = Vec::new();
    let errors = |said: &Mutex<Vec<String>>| said.lock().unwrap().iter().filter(|l| is_error(l)).count();
    let mut quit = false;
    for line in lines {
        let before = session.state();
        let errors_before = errors(&said);
        let goes_on = session.handle(line);
        let refused = errors(&said) - errors_before;
        assert!(refused <= 1, "{line:?} got {refused} error lines");
        if refused == 1 {
            assert_eq!(session.state(), before, "{line:?} was refused but changed the session");
        } else if line.split_whitespace().next() == Some("go") {
            let fen = before.fens.last().expect("a session has a position").clone();
            searched.push((before.variant, fen));
        }
        if !goes_on {
            quit = true;
            break;
        }
    }
    if !quit {
        session.end_of_input();
    }
    drop(session);
    let said = said.lock().unwrap().clone();
    check_searches(&searched, &said);
}

fn is_error(line: &str) -> bool {
    line.starts_with("info string error")
}

/// Each search's lines come before its `bestmove`, and a session runs one search at a time.
fn check_searches(searched: &[(Variant, String)], said: &[String]) {
    let bestmoves: Vec<&String> = said.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), searched.len(), "{} searches but these answers: {said:#?}", searched.len());
    let mut search = 0;
    for line in said {
        let Some((variant, fen)) = searched.get(search) else { break };
        let root = Position::from_fen(*variant, fen).unwrap_or_else(|e| panic!("the session searched {fen}: {e}"));
        if let Some(best) = line.strip_prefix("bestmove ") {
            let best = best.split_whitespace().next().unwrap_or_default();
            if best == "(none)" {
                assert!(root.legal_moves().is_empty(), "bestmove (none) at {fen}, which has moves");
            } else {
                root.parse_coord(best).unwrap_or_else(|e| panic!("bestmove {best} at {fen}: {e}"));
            }
            search += 1;
        } else if let Some((_, pv)) = line.split_once(" pv ") {
            let mut pos = root.clone();
            for text in pv.split_whitespace() {
                let m = pos.parse_coord(text).unwrap_or_else(|e| panic!("pv {pv} at {fen}: {text}: {e}"));
                pos.play_unchecked(&m);
            }
        }
    }
}
