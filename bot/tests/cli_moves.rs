//! Every move text the command line prints, it accepts back: `perft --divide` writes Grolman
//! turns with their chains (`b1a3 (a1b1)`), and `--moves` reads them, spaces and all.

use std::process::{Command, Output};

use rules::{Position, Variant};

fn chimera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chimera")).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

/// The moves `perft --divide` prints, each with its count.
fn divide(variant: &str, depth: &str, moves: &str) -> Vec<(String, u64)> {
    let out = chimera(&["perft", variant, depth, "--divide", "--moves", moves]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let mut lines: Vec<&str> = stdout.lines().collect();
    lines.pop(); // the total
    lines
        .into_iter()
        .map(|line| {
            let (m, n) = line.rsplit_once(' ').expect("a move and its count");
            (m.to_string(), n.parse().expect("a count"))
        })
        .collect()
}

#[test]
fn the_grolman_turns_divide_prints_are_accepted_back_by_moves() {
    let first = divide("grolman", "2", "");
    assert!(first.iter().any(|(m, _)| m.contains(" (")), "some first turns have chains: {first:?}");
    for (m, n) in &first {
        let again = divide("grolman", "1", m);
        assert_eq!(again.len() as u64, *n, "after `{m}`");
    }
}

#[test]
fn two_grolman_turns_with_chains_count_as_the_rules_count() {
    let moves = "b1a3 (a1b1) b7b5 (c8b7 d8c8 e8d8)";
    let out = chimera(&["perft", "grolman", "3", "--moves", moves]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut position = Position::start(Variant::Grolman);
    for m in rules::coord::split_moves(moves).unwrap() {
        let parsed = position.parse_coord(m).unwrap();
        position.play_unchecked(&parsed);
    }
    assert_eq!(text(&out.stdout).trim(), rules::perft(&position, 3).to_string());
}

#[test]
fn a_chain_without_its_move_is_refused_in_one_line() {
    for moves in ["(a1b1) b1a3", "b1a3 (a1b1", "b1a3) e7e5"] {
        let out = chimera(&["perft", "grolman", "1", "--moves", moves]);
        assert!(!out.status.success(), "{moves}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: bad --moves"), "{err}");
    }
}

#[test]
fn render_takes_the_same_moves() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("board.png");
    let out =
        chimera(&["render", "grolman", "--moves", "b1a3 (a1b1) b7b5 (c8b7 d8c8 e8d8)", "-o", png.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}
