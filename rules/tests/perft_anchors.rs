//! Perft against figures from engines written outside this project (tests/data/perft-anchors.txt,
//! see also docs/rules.md, "Perft"). Cases whose node count is small run always; the deep ones are
//! ignored here and run by `.ci/run` with `--ignored`.

use rules::{perft, Position, Variant};

/// Leaf counts at or below this run in the ordinary suite.
const QUICK_NODES: u64 = 5_000_000;

struct Case {
    variant: Variant,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft-anchors.txt");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        let variant: Variant = parts[0].parse().expect("variant id");
        let fen = if parts[1] == "start" { variant.start_fen().to_string() } else { parts[1].to_string() };
        for entry in parts[2].split_whitespace() {
            let (depth, nodes) = entry.split_once('=').expect("depth=nodes");
            out.push(Case { variant, fen: fen.clone(), depth: depth.parse().unwrap(), nodes: nodes.parse().unwrap() });
        }
    }
    out
}

fn check(variants: &[Variant], keep: impl Fn(&Case) -> bool) {
    let mut ran = 0;
    for case in cases().iter().filter(|c| variants.contains(&c.variant) && keep(c)) {
        let pos = Position::from_fen(case.variant, &case.fen).expect("anchor FEN is legal");
        assert_eq!(perft(&pos, case.depth), case.nodes, "{} {} depth {}", case.variant, case.fen, case.depth);
        ran += 1;
    }
    assert!(ran > 0, "no anchor case selected");
}

const ISSUE_2: [Variant; 4] = [Variant::Chess, Variant::UnicornGreat, Variant::Werewolf, Variant::GhostKing];

#[test]
fn anchors_quick() {
    check(&ISSUE_2, |c| c.nodes <= QUICK_NODES);
}

#[test]
#[ignore = "deep perft: run by .ci/run"]
fn anchors_deep() {
    check(&ISSUE_2, |c| c.nodes > QUICK_NODES);
}
