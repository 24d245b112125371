//! The Zobrist key covers every piece of state the rules keep, and ignores the move counters;
//! the key the search updates move by move is always the key computed afresh.

use engine::zobrist::{hash, update};
use proptest::prelude::*;
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

proptest! {
    /// Along a random game of every variant, the key updated after each move (and after a null
    /// move from each position, as the search makes them) equals the key of the new position.
    #[test]
    fn updated_key_is_the_fresh_key(picks in prop::collection::vec(any::<u16>(), 1..160)) {
        for variant in Variant::ALL {
            let mut pos = Position::start(variant);
            let mut key = hash(&pos);
            for &pick in &picks {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_decided() {
                    break;
                }
                let passed = pos.null_move();
                prop_assert_eq!(update(key, &pos, &passed), hash(&passed), "null move at {}", pos.fen());
                let m = moves[usize::from(pick) % moves.len()];
                let next = pos.after(&m);
                key = update(key, &pos, &next);
                prop_assert_eq!(key, hash(&next), "{} after {}", pos.fen(), pos.coord(&m));
                pos = next;
            }
        }
    }
}
