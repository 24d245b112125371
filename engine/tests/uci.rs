//! The UCI session in-process, its searches run in place: the handshake, `position … moves` in
//! every variant, `go` and its `bestmove`, `go infinite` held until `stop` or the end of input,
//! and bad input answered with one `info string error` and no change. (`bot/tests/uci.rs`
//! drives the built `chimera uci` with its threads.)

use engine::uci::{Caps, Reply, Session};
use rules::{Position, Variant};

const CAPS: Caps = Caps { nodes: Some(3_000), hash_mb: 2 };

/// The lines a reply prints, then those its search prints when run in place.
fn said(reply: Reply) -> Vec<String> {
    let mut lines = reply.lines;
    if let Some(search) = reply.search {
        search.run(&mut |line| lines.push(line.to_string()));
    }
    lines
}

fn tell(session: &mut Session, line: &str) -> Vec<String> {
    said(session.handle(line))
}

/// The move of a `bestmove` line, checked legal in `pos` and printed in token form.
fn best_move(pos: &Position, lines: &[String]) -> String {
    let last = lines.last().expect("a reply");
    let best = last.strip_prefix("bestmove ").unwrap_or_else(|| panic!("no bestmove last: {lines:?}"));
    let m = pos.parse_coord(best).unwrap_or_else(|e| panic!("bestmove {best}: {e}"));
    assert!(pos.legal_moves().contains(&m));
    assert_eq!(pos.coord_token(&m), best, "printed in token form");
    best.to_string()
}

fn current(session: &Session) -> Position {
    let state = session.state();
    Position::from_fen(state.variant, state.fens.last().expect("a position")).unwrap()
}

#[test]
fn handshake_names_every_variant_and_option() {
    let mut session = Session::new(CAPS);
    let lines = tell(&mut session, "uci");
    assert!(lines[0].starts_with("id name Chimera"), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    let variants = lines.iter().find(|l| l.starts_with("option name UCI_Variant")).expect("UCI_Variant");
    for v in Variant::ALL {
        assert!(variants.contains(&format!("var {}", v.id().replace('-', ""))), "{variants}");
    }
    assert!(lines.iter().any(|l| l == "option name Skill Level type spin default 8 min 1 max 8"));
    assert!(lines.iter().any(|l| l == "option name Hash type spin default 2 min 1 max 2"), "capped: {lines:?}");
    assert_eq!(tell(&mut session, "isready"), ["readyok"]);
    assert!(tell(&mut session, "ucinewgame").is_empty());
}

#[test]
fn position_and_go_in_every_variant() {
    let mut session = Session::new(CAPS);
    for variant in Variant::ALL {
        let uci_name = variant.id().replace('-', "");
        assert!(tell(&mut session, &format!("setoption name UCI_Variant value {uci_name}")).is_empty());
        // Two plies of the rules' own first moves, sent back as tokens (a Grolman chain too).
        let mut pos = Position::start(variant);
        let mut tokens = Vec::new();
        for _ in 0..2 {
            let m = *pos.legal_moves().last().expect("a move");
            tokens.push(pos.coord_token(&m));
            pos.play_unchecked(&m);
        }
        assert!(tell(&mut session, &format!("position startpos moves {}", tokens.join(" "))).is_empty());
        assert_eq!(session.state().variant, variant);
        assert_eq!(session.state().fens.last(), Some(&pos.fen()), "{variant:?}");
        let lines = tell(&mut session, "go depth 2");
        let info = lines.iter().find(|l| l.starts_with("info depth 2")).expect("an info line for depth 2");
        for field in [" seldepth ", " score ", " nodes ", " nps ", " time ", " pv "] {
            assert!(info.contains(field), "{info}");
        }
        best_move(&pos, &lines);
    }
}

#[test]
fn a_mate_is_reported_as_one() {
    let mut session = Session::new(CAPS);
    tell(&mut session, "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    let lines = tell(&mut session, "go depth 3");
    assert_eq!(best_move(&current(&session), &lines), "a1a8");
    assert!(lines.iter().any(|l| l.contains(" score mate 1 ")), "{lines:?}");
}

#[test]
fn go_infinite_holds_its_move_until_stop() {
    let mut session = Session::new(CAPS);
    tell(&mut session, "position startpos moves e2e4");
    // Run in place, the search ends at the node cap, but its move waits.
    let lines = tell(&mut session, "go infinite");
    assert!(lines.iter().any(|l| l.starts_with("info depth 1")), "{lines:?}");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "{lines:?}");
    assert_eq!(tell(&mut session, "isready"), ["readyok"]);
    let stopped = tell(&mut session, "stop");
    assert_eq!(stopped.len(), 1, "{stopped:?}");
    best_move(&current(&session), &stopped);
    assert!(tell(&mut session, "stop").is_empty(), "one bestmove per go");

    // The end of input releases it as `stop` does; a finite search's move was printed already.
    tell(&mut session, "go infinite");
    best_move(&current(&session), &session.end_of_input());
    let lines = tell(&mut session, "go depth 1");
    best_move(&current(&session), &lines);
    assert!(session.end_of_input().is_empty());
}

#[test]
fn a_command_that_ends_the_search_prints_the_held_move_first() {
    let mut session = Session::new(CAPS);
    tell(&mut session, "go infinite");
    let before = current(&session);
    let lines = tell(&mut session, "position startpos moves d2d4");
    assert_eq!(lines.len(), 1, "{lines:?}");
    best_move(&before, &lines);
    let quit = session.handle("quit");
    assert!(quit.quit && quit.lines.is_empty() && quit.search.is_none());
}

#[test]
fn a_search_dropped_unrun_leaves_the_session_usable() {
    let mut session = Session::new(CAPS);
    drop(session.handle("go depth 2"));
    assert!(tell(&mut session, "position startpos moves g1f3").is_empty());
    best_move(&current(&session), &tell(&mut session, "go depth 2"));
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut session = Session::new(CAPS);
    tell(&mut session, "position startpos moves e2e4");
    let refused = [
        ("position startpos moves e2e4 e7e5 e2e5", "move 3 `e2e5`"),
        ("position fen 8/8/8 w - - 0 1", "bad FEN"),
        ("position sideways", "position needs"),
        ("setoption name Skill Level value 12", "level 12 does not exist"),
        ("setoption name UCI_Variant value xiangqi", "unknown UCI_Variant `xiangqi`"),
        ("setoption name Hash value lots", "Hash `lots`"),
        ("setoption name Hash value 3", "outside 1..2 MiB"),
        ("setoption name Contempt value 3", "unknown option `Contempt`"),
        ("go depth many", "not a number"),
        ("go sideways", "unknown go parameter"),
        ("fly", "unknown command `fly`"),
    ];
    let state = session.state();
    for (line, why) in refused {
        let reply = session.handle(line);
        assert!(reply.search.is_none(), "{line}");
        assert_eq!(reply.lines.len(), 1, "{line}: {:?}", reply.lines);
        assert!(reply.lines[0].starts_with("info string error: ") && reply.lines[0].contains(why), "{line}: {reply:?}");
        assert_eq!(session.state(), state, "{line}");
    }
    // Still chess, still after 1. e4: the engine answers as Black.
    best_move(&current(&session), &tell(&mut session, "go depth 2"));
}
