//! `chimera uci` through the built binary: the handshake, `position … moves` with every kind
//! of move, `go` with each limit, `stop`, and bad input answered with `info string error` and
//! no change. Every `bestmove` is checked with the rules and fed back to `perft --moves`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use rules::{Position, Variant};

struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

/// Long enough for any search below on a loaded machine; only a hung engine reaches it.
const PATIENCE: Duration = Duration::from_secs(120);

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let input = child.stdin.take().expect("stdin");
        let output = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, input, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.lines.recv_timeout(PATIENCE).unwrap_or_else(|_| panic!("no `{prefix}` after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    fn bestmove(&mut self, go: &str) -> (Vec<String>, String) {
        self.send(go);
        let lines = self.until("bestmove");
        let best = lines.last().unwrap().split_whitespace().nth(1).expect("a move").to_string();
        (lines, best)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// The position the rules reach from a UCI `position` line's parts.
fn reach(variant: Variant, fen: Option<&str>, moves: &[&str]) -> Position {
    let mut pos = match fen {
        Some(fen) => Position::from_fen(variant, fen).unwrap(),
        None => Position::start(variant),
    };
    for text in moves {
        let m = pos.parse_coord(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play_unchecked(&m);
    }
    pos
}

fn perft_accepts(variant: &str, fen: Option<&str>, moves: &str) {
    let mut args = vec!["perft", variant, "1", "--moves", moves];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_chimera")).args(&args).output().unwrap();
    assert!(out.status.success(), "perft --moves `{moves}`: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn handshake() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    assert!(lines[0].starts_with("id name Chimera"), "{lines:?}");
    let variants = lines.iter().find(|l| l.starts_with("option name UCI_Variant")).expect("UCI_Variant");
    for v in ["chess", "golem", "grolman", "ghostking", "werewolf", "unicorngreat"] {
        assert!(variants.contains(&format!("var {v}")), "{variants}");
    }
    assert!(lines.iter().any(|l| l == "option name Skill Level type spin default 8 min 1 max 8"));
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")));
    assert!(engine.sync().is_empty());
    engine.send("ucinewgame");
    assert!(engine.sync().is_empty());
}

#[test]
fn position_moves_of_every_kind() {
    // (UCI_Variant, project id, FEN or startpos, moves): castling, en passant, promotion, a
    // Werewolf hop, a Golem hit, Ghost King castling onto the rook, Grolman turns in token
    // form, a Unicorn Great double step from the third rank and promotion to a Unicorn.
    let cases: [(&str, Variant, &str, Option<&str>, &str); 8] = [
        ("chess", Variant::Chess, "chess", None, "e2e4 d7d5 e4e5 f7f5 e5f6 g8f6 g1f3 e7e6 f1e2 f8e7 e1g1"),
        ("chess", Variant::Chess, "chess", Some("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"), "e7e8q"),
        ("werewolf", Variant::Werewolf, "werewolf", Some("4k3/8/8/4p3/3W4/8/8/4K3 w - - 0 1"), "d4e5,e5f6"),
        ("golem", Variant::Golem, "golem", Some("4k3/8/8/8/5g2/8/4N3/4K3 w - - 0 1"), "e2f4"),
        ("ghostking", Variant::GhostKing, "ghost-king", Some("r3k3/8/8/8/8/8/8/4K2R w K - 0 1"), "e1h1"),
        ("grolman", Variant::Grolman, "grolman", None, "e2e4/g1e2/h1g1 b8a6/a8b8"),
        ("unicorngreat", Variant::UnicornGreat, "unicorn-great", None, "e3e5"),
        (
            "unicorngreat",
            Variant::UnicornGreat,
            "unicorn-great",
            Some("5k4/1P8/10/10/10/10/10/10/10/5K4 w - - 0 1"),
            "b9b10u",
        ),
    ];
    let mut engine = Engine::start();
    for (uci_variant, variant, id, fen, moves) in cases {
        engine.send(&format!("setoption name UCI_Variant value {uci_variant}"));
        let setup = fen.map_or("startpos".to_string(), |f| format!("fen {f}"));
        engine.send(&format!("position {setup} moves {moves}"));
        assert!(engine.sync().is_empty(), "{uci_variant} {moves}: the position was refused");
        let list: Vec<&str> = moves.split_whitespace().collect();
        let pos = reach(variant, fen, &list);
        let (_, best) = engine.bestmove("go depth 2");
        let m = pos.parse_coord(&best).unwrap_or_else(|e| panic!("{uci_variant}: bestmove {best}: {e}"));
        assert!(pos.legal_moves().contains(&m));
        assert_eq!(pos.coord_token(&m), best, "printed in token form");
        perft_accepts(id, fen, &format!("{moves} {best}"));
    }
}

#[test]
fn a_grolman_game_through_uci_reads_back() {
    // Every move the engine prints is accepted back by `position … moves` and perft.
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Variant value grolman");
    engine.send("setoption name Skill Level value 3");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..16 {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        assert!(engine.sync().is_empty(), "refused: {moves:?}");
        let (_, best) = engine.bestmove("go depth 2");
        if best == "(none)" {
            break;
        }
        moves.push(best);
    }
    assert!(moves.iter().any(|m| m.contains('/')), "some turns had chains: {moves:?}");
    perft_accepts("grolman", None, &moves.join(" "));
}

#[test]
fn go_with_each_limit_and_stop() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    let (lines, best) = engine.bestmove("go depth 3");
    let info = lines.iter().find(|l| l.starts_with("info depth 3")).expect("an info line for depth 3");
    for field in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
        assert!(info.contains(field), "{info}");
    }
    let pos = reach(Variant::Chess, None, &["e2e4"]);
    assert!(pos.parse_coord(&best).is_ok());

    for go in ["go movetime 50", "go nodes 3000", "go wtime 2000 btime 2000 winc 10 binc 10"] {
        let (_, best) = engine.bestmove(go);
        assert!(pos.parse_coord(&best).is_ok(), "{go}: {best}");
    }

    // `go infinite` thinks until `stop`; `isready` is answered meanwhile.
    engine.send("go infinite");
    engine.until("info depth 1");
    let meanwhile = engine.sync();
    assert!(meanwhile.iter().all(|l| !l.starts_with("bestmove")), "{meanwhile:?}");
    engine.send("stop");
    let lines = engine.until("bestmove");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(pos.parse_coord(&best).is_ok());

    // A mate is reported as one.
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    let (lines, best) = engine.bestmove("go depth 3");
    assert_eq!(best, "a1a8");
    assert!(lines.iter().any(|l| l.contains(" score mate 1 ")), "{lines:?}");
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    assert!(engine.sync().is_empty());
    let refused = [
        ("position startpos moves e2e4 e7e5 e2e5", "move 3 `e2e5`"),
        ("position fen 8/8/8 w - - 0 1", "bad FEN"),
        ("position sideways", "position needs"),
        ("setoption name Skill Level value 12", "level 12 does not exist"),
        ("setoption name UCI_Variant value xiangqi", "unknown UCI_Variant `xiangqi`"),
        ("setoption name Hash value lots", "Hash `lots`"),
        ("setoption name Contempt value 3", "unknown option `Contempt`"),
        ("go depth many", "not a number"),
        ("go sideways", "unknown go parameter"),
        ("fly", "unknown command `fly`"),
    ];
    for (line, why) in refused {
        engine.send(line);
        let answer = engine.sync();
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        assert!(answer[0].starts_with("info string error: ") && answer[0].contains(why), "{line}: {answer:?}");
    }
    // Still chess, still after 1. e4, still level 8: the engine answers as Black.
    let (_, best) = engine.bestmove("go depth 2");
    let pos = reach(Variant::Chess, None, &["e2e4"]);
    assert!(pos.parse_coord(&best).is_ok(), "{best}");
}
