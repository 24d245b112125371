//! Text from outside (FEN, coordinate moves) is answered with an error, never a panic: arbitrary
//! strings, arbitrary bytes read as lossy UTF-8, and near-misses of valid text, in every variant.
//! A position that does read is then driven through the generator, FEN writing and outcomes.
//! (`fuzz/` runs the same readers, and more, under cargo-fuzz for longer runs on nightly.)

use std::sync::LazyLock;

use proptest::prelude::*;
use rules::{Position, Setup, Variant};

/// Whatever the text, reading it returns; when it is a position, using it does not panic either.
fn read_fen(text: &str) {
    for variant in Variant::ALL {
        let _ = Setup::from_fen(variant, text);
        if let Ok(pos) = Position::from_fen(variant, text) {
            let moves = pos.legal_moves();
            assert_eq!(pos.count_legal(), moves.len() as u64, "{variant} {text}");
            let _ = pos.outcome();
            assert_eq!(Position::from_fen(variant, &pos.fen()).map(|p| p.fen()), Ok(pos.fen()), "{variant} {text}");
            for m in moves.iter().take(8) {
                let _ = pos.after(m).legal_moves();
            }
        }
    }
}

/// Positions to read moves in: every start position (the random games check that they load)
/// and some with moves of every shape: hops, promotions, Ghost King castling, rank 10.
static POSITIONS: LazyLock<Vec<Position>> = LazyLock::new(|| {
    let extra = [
        (Variant::Werewolf, "4k3/8/5n2/4p3/3W4/8/8/4K3 w - - 0 1"),
        (Variant::Werewolf, "1n1w3k/2P5/8/8/8/8/8/4K3 w - - 0 1"),
        (Variant::GhostKing, "4kr2/4r3/8/8/8/8/8/R3K2R w KQ - 0 1"),
        (Variant::UnicornGreat, "r8k/1P8/10/10/10/10/10/10/10/1R3K2R1 w K - 0 1"),
    ];
    Variant::ALL
        .into_iter()
        .map(|v| (v, v.start_fen()))
        .chain(extra)
        .filter_map(|(v, fen)| Position::from_fen(v, fen).ok())
        .collect()
});

/// Whatever the text, reading it as a move returns.
fn read_coord(text: &str) {
    for pos in POSITIONS.iter() {
        let _ = pos.parse_coord(text);
    }
}

/// Text close to a FEN: the right alphabet, in the right places, most of the time.
fn fen_like() -> impl Strategy<Value = String> {
    let placement = "[KQRBNPGHWUCLkqrbnpghwucl1-9/]{0,100}(10)?";
    let field = prop_oneof!["[wb]", "[KQkq-]{1,4}", "[a-j][0-9]{1,2}", "-", "[0-9]{1,7}", "g", "\\PC{0,3}"];
    (placement, prop::collection::vec(field, 0..8)).prop_map(|(board, fields)| {
        let mut fen = board;
        for f in fields {
            fen.push(' ');
            fen.push_str(&f);
        }
        fen
    })
}

/// A start FEN with one character replaced, inserted or removed.
fn start_fen_mutant() -> impl Strategy<Value = String> {
    (prop::sample::select(Variant::ALL.to_vec()), any::<prop::sample::Index>(), any::<char>(), 0..3u8).prop_map(
        |(variant, at, c, how)| {
            let mut chars: Vec<char> = variant.start_fen().chars().collect();
            let i = at.index(chars.len());
            match how {
                0 => chars[i] = c,
                1 => chars.insert(i, c),
                _ => {
                    chars.remove(i);
                }
            }
            chars.into_iter().collect()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fen_from_any_string(text in any::<String>()) {
        read_fen(&text);
    }

    #[test]
    fn fen_from_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..160)) {
        read_fen(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn fen_from_near_misses(text in prop_oneof![fen_like(), start_fen_mutant()]) {
        read_fen(&text);
    }

    #[test]
    fn coord_from_any_string(text in any::<String>()) {
        read_coord(&text);
    }

    #[test]
    fn coord_from_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..24)) {
        read_coord(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn coord_from_near_misses(text in "[a-kA-K -]?[0-9]{0,3}[a-k -]?[0-9]{0,3}[a-z]?(,[a-k][0-9]{1,3}[a-k][0-9]{1,3}[a-z]?)?") {
        read_coord(&text);
    }
}
