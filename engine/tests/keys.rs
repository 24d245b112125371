//! The Zobrist key covers every piece of state the rules keep, and ignores the move counters.

use engine::zobrist::hash;
use rules::{Position, Variant};

fn key(variant: Variant, fen: &str) -> u64 {
    hash(&Position::from_fen(variant, fen).unwrap())
}

#[test]
fn key_covers_rules_state() {
    let base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let k = key(Variant::Chess, base);
    assert_ne!(k, key(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"), "side to move");
    assert_ne!(k, key(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1"), "castling");
    assert_eq!(k, key(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30"), "move counters ignored");
    let ep = key(Variant::Chess, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert_ne!(ep, key(Variant::Chess, "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"), "en passant");
    let golem = key(Variant::Golem, "4k3/8/8/8/5h2/8/8/4K3 w - - 0 1 g");
    assert_ne!(golem, key(Variant::Golem, "4k3/8/8/8/5h2/8/8/4K3 w - - 0 1"), "Golem capture state");
    assert_ne!(
        key(Variant::Golem, "4k3/8/8/8/5h2/8/8/4K3 w - - 0 1"),
        key(Variant::Golem, "4k3/8/8/8/5g2/8/8/4K3 w - - 0 1"),
        "Golem and Half-Golem"
    );
}

#[test]
fn key_equal_for_equal_positions() {
    // The same position reached by two move orders.
    let mut a = Position::start(Variant::Werewolf);
    let mut b = Position::start(Variant::Werewolf);
    for t in ["Nf3", "Nf6", "Nc3", "Nc6"] {
        let m = a.parse_move(t).unwrap();
        a.play_unchecked(&m);
    }
    for t in ["Nc3", "Nc6", "Nf3", "Nf6"] {
        let m = b.parse_move(t).unwrap();
        b.play_unchecked(&m);
    }
    assert_eq!(hash(&a), hash(&b));
}
