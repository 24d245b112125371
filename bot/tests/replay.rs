//! `chimera replay` as a user runs it: the built binary, a score from a file or stdin.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn replay(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("replay")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("stdin is piped").write_all(stdin.as_bytes()).expect("stdin takes the score");
    child.wait_with_output().expect("the binary finishes")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("utf-8 output")
}

#[test]
fn fide_game_ending_in_mate() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/opera-game.pgn");
    let out = replay(&["chess", path], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17\n1-0 (White wins by checkmate)\n");
}

#[test]
fn score_from_stdin_with_an_undecided_result() {
    let out = replay(&["chess", "-"], "1. e4 e5 2. Nf3 Nc6 1/2-1/2");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n1/2-1/2\n");
    let out = replay(&["chess"], "e4 e5");
    assert_eq!(stdout(&out), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n*\n");
}

#[test]
fn illegal_move_exits_1_naming_it() {
    let out = replay(&["chess", "-"], "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxe8");
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(
        err,
        "error: move 4. `Bxe8`: White has no bishop that can move to e8; \
         legal nearby: Bf1, Be2, Bd3, Ba4, Bc4, Bxa6, Bxc6\n"
    );
}

#[test]
fn unicorn_great_coordinate_moves() {
    let out = replay(&["unicorn-great", "-"], "e3e5 a9a7 e2e4 a10a8 f3f4 c10b8");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1r1bukbnrq/1pppllpppp/cn2pp4/p9/10/4P5/4LP4/10/PPPP1LPPPP/CRNBUKBNRQ w KQkq - 1 4\n*\n");
}

#[test]
fn bad_input_fails_cleanly() {
    let missing = replay(&["chess", "/nonexistent/score.pgn"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("cannot read `/nonexistent/score.pgn`"), "{}", stderr(&missing));
    let garbled = replay(&["chess", "-"], "[Event \"x\"\n1. e4 {");
    assert_eq!(garbled.status.code(), Some(1));
    assert_eq!(stderr(&garbled).lines().count(), 1, "{}", stderr(&garbled));
    let unknown = replay(&["shogi", "-"], "");
    assert!(!unknown.status.success());
}
