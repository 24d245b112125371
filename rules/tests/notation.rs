//! Notation over random games of every variant: the SAN and the coordinates of every legal move
//! read back to that very move, PGN round-trips, and no reader panics on any text.

use proptest::prelude::*;
use rules::{pgn, Game, Position, Setup, Tags, Variant};

/// A game from the start whose every move is the legal move `choice % count` picks, ending
/// early when the game is over.
fn random_game(variant: Variant, choices: &[usize]) -> Game {
    let mut game = Game::new(Position::start(variant));
    for &choice in choices {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        game.play(moves[choice % moves.len()]).expect("a legal move");
    }
    game
}

fn assert_every_move_reads_back(pos: &Position) {
    for m in pos.legal_moves() {
        let san = pos.san(&m);
        assert_eq!(pos.parse_move(&san), Ok(m), "SAN `{san}` in {}", pos.fen());
        let coord = pos.coord(&m);
        assert_eq!(pos.parse_coord(&coord), Ok(m), "coordinates `{coord}` in {}", pos.fen());
        assert_eq!(pos.parse_move(&coord), Ok(m), "coordinates `{coord}` as input in {}", pos.fen());
    }
}

fn assert_notation_round_trips(variant: Variant, choices: &[usize]) {
    let game = random_game(variant, choices);
    for pos in game.positions() {
        assert_every_move_reads_back(pos);
    }
    let text = pgn::write(&game, &Tags::new());
    let back = pgn::read(variant, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.game.moves(), game.moves(), "{text}");
    assert_eq!(back.game.position(), game.position());
}

macro_rules! round_trip_tests {
    ($($name:ident: $variant:expr,)*) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
            $(
                #[test]
                fn $name(choices in prop::collection::vec(any::<usize>(), 0..=80)) {
                    assert_notation_round_trips($variant, &choices);
                }
            )*
        }
    };
}

round_trip_tests! {
    chess_notation_round_trips: Variant::Chess,
    golem_notation_round_trips: Variant::Golem,
    grolman_notation_round_trips: Variant::Grolman,
    ghost_king_notation_round_trips: Variant::GhostKing,
    werewolf_notation_round_trips: Variant::Werewolf,
    unicorn_great_notation_round_trips: Variant::UnicornGreat,
}

/// Characters that move text, FEN and PGN are made of, and a few that they are not.
const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHKLNOPQRUWX0123456789 -=:x+#!?()[]{};$%.,/\"\\\n½é";

/// `base` with one character replaced, inserted or removed at `at` (any index, wrapped), or cut
/// short there.
fn mutate(base: &str, at: usize, c: char, how: u8) -> String {
    let chars: Vec<char> = base.chars().collect();
    let at = at % (chars.len() + 1);
    let (head, tail) = chars.split_at(at);
    let mut out: String = head.iter().collect();
    match how % 4 {
        0 => {
            out.push(c);
            out.extend(tail.iter().skip(1));
        }
        1 => {
            out.push(c);
            out.extend(tail);
        }
        2 => out.extend(tail.iter().skip(1)),
        _ => {}
    }
    out
}

fn any_char() -> impl Strategy<Value = char> {
    prop::sample::select(ALPHABET.chars().collect::<Vec<_>>())
}

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn readers_never_panic_on_any_text(
        variant in variant(),
        choices in prop::collection::vec(any::<usize>(), 0..30),
        text in prop_oneof![any::<String>(), "[a-jA-Z0-9xX:=+#!?()\\[\\]{};$%.,/ \n\"-]{0,24}"],
    ) {
        let pos = random_game(variant, &choices).position().clone();
        let _ = pos.parse_move(&text);
        let _ = pos.parse_coord(&text);
        let _ = Setup::from_fen(variant, &text);
        let _ = Position::from_fen(variant, &text);
        let _ = pgn::read(variant, &text);
    }

    /// Near misses of real text reach deeper into the readers than random strings do.
    #[test]
    fn readers_never_panic_on_near_misses(
        variant in variant(),
        choices in prop::collection::vec(any::<usize>(), 0..30),
        pick in any::<usize>(),
        at in any::<usize>(),
        c in any_char(),
        how in any::<u8>(),
    ) {
        let game = random_game(variant, &choices);
        let pos = game.position();
        let fen = mutate(&pos.fen(), at, c, how);
        let _ = Setup::from_fen(variant, &fen);
        let _ = Position::from_fen(variant, &fen);
        let _ = pgn::read(variant, &mutate(&pgn::write(&game, &Tags::new()), at, c, how));
        let moves = pos.legal_moves();
        if let Some(m) = moves.get(pick % moves.len().max(1)) {
            let _ = pos.parse_move(&mutate(&pos.san(m), at, c, how));
            let _ = pos.parse_move(&mutate(&pos.coord(m), at, c, how));
            let _ = pos.parse_coord(&mutate(&pos.coord(m), at, c, how));
        }
    }
}
