//! The move generator is compiled twice, for any x86-64 and with the wide instructions
//! (`rules::cpu`), and the other suites reach only the copy this CPU runs. Here both copies
//! count every perft anchor position (tests/data/perft-anchors.txt) and must agree: with
//! perft_anchors.rs holding one of them to the published figures, both are right.

use rules::{perft, Position, Variant};

/// Deep enough for promotions, castling, en passant and checks, quick twice over.
const MAX_NODES: u64 = 1_000_000;

fn anchor_cases() -> Vec<(Position, u32)> {
    let mut out = Vec::new();
    for line in include_str!("data/perft-anchors.txt").lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        let variant: Variant = parts[0].parse().expect("variant id");
        let fen = if parts[1] == "start" { variant.start_fen() } else { parts[1] };
        let pos = Position::from_fen(variant, fen).expect("anchor FEN is legal");
        let deepest = parts[2]
            .split_whitespace()
            .filter_map(|entry| entry.split_once('='))
            .filter(|(_, nodes)| nodes.parse::<u64>().unwrap() <= MAX_NODES)
            .map(|(depth, _)| depth.parse().unwrap())
            .max()
            .expect("a small case");
        out.push((pos, deepest));
    }
    out
}

#[test]
fn both_copies_count_the_same() {
    let cases = anchor_cases();
    assert!(Variant::ALL.iter().all(|v| cases.iter().any(|(pos, _)| pos.variant() == *v)));
    let counted = |cases: &[(Position, u32)]| cases.iter().map(|(pos, depth)| perft(pos, *depth)).collect::<Vec<_>>();
    let this_cpu = counted(&cases);
    rules::cpu::force_baseline();
    assert!(!rules::cpu::wide());
    assert_eq!(counted(&cases), this_cpu);
}
