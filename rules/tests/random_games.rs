//! Properties that must hold in every position of every variant, checked on random games from
//! the start (up to [`MAX_PLIES`] random legal moves) and on random piece placements:
//!
//! - the FEN round-trips: read back it gives the same position, which writes the same text;
//! - the coordinate text of every legal move reads back as that move;
//! - the generator agrees with [`Position::is_legal`], which judges a move directly: every
//!   generated move is legal, `count_legal` counts the generated moves, and moves made up around
//!   them (other targets, other promotions, other kinds, castling and en passant shapes) are
//!   accepted exactly when the generator produces them;
//! - outcomes are consistent: no legal move means mate, stalemate or a decided game, and
//!   a [`Game`] takes every move until its outcome, then refuses them.
//!
//! `PROPTEST_CASES` sets the number of games per variant (default [`DEFAULT_CASES`]).

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestCaseError;
use rules::{Chain, Game, Move, MoveKind, Outcome, PlayError, Position, Role, Square, Variant, WinReason};

const MAX_PLIES: usize = 100;
const DEFAULT_CASES: u32 = 32;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(DEFAULT_CASES);
    ProptestConfig::with_cases(cases)
}

/// Checks every property of one position. `choice` picks which piece's made-up moves to try.
fn check_position(pos: &Position, choice: u32) -> Result<(), TestCaseError> {
    let variant = pos.variant();
    let fen = pos.fen();

    let back = Position::from_fen(variant, &fen);
    prop_assert!(back.is_ok(), "{variant}: own FEN rejected: {fen}: {:?}", back);
    let back = back.unwrap();
    prop_assert_eq!(&back, pos, "{}: FEN does not read back as the same position", variant);
    prop_assert_eq!(back.fen(), fen.clone(), "{}: FEN does not re-serialise identically", variant);

    let legal = pos.legal_moves();
    prop_assert_eq!(pos.count_legal(), legal.len() as u64, "{}: count_legal differs in {}", variant, fen);

    for m in &legal {
        let coord = pos.coord(m);
        prop_assert!(pos.is_legal(m), "{variant}: generated {coord} is not legal in {fen}");
        let parsed = pos.parse_coord(&coord);
        prop_assert_eq!(parsed, Ok(*m), "{}: {} does not read back in {}", variant, coord, fen);
    }

    for candidate in made_up_moves(pos, &legal, choice) {
        let generated = legal.contains(&candidate);
        prop_assert_eq!(
            pos.is_legal(&candidate),
            generated,
            "{}: is_legal and the generator disagree on {:?} in {}",
            variant,
            candidate,
            fen
        );
    }

    check_outcome(pos, &legal)
}

/// Moves shaped like real ones, legal or not: every target for one piece of the side to move
/// (chosen by `choice`, whether or not it has a legal move), with hops over a piece in between,
/// promotions, castling and en passant shapes, and the generated moves with every promotion.
fn made_up_moves(pos: &Position, legal: &[Move], choice: u32) -> Vec<Move> {
    let board = pos.board();
    let geo = pos.geometry();
    let squares: Vec<Square> = Square::all().filter(|&s| geo.contains(s)).collect();
    let ours: Vec<Square> = board.by_color(pos.turn()).collect();
    let mut out = Vec::new();
    let shaped = |role, from, to, kind, promotion| Move {
        role,
        from,
        to,
        capture: board.role_at(to),
        promotion,
        kind,
        chain: Chain::EMPTY,
    };

    if let Some(&from) = ours.get(choice as usize % ours.len().max(1)) {
        let role = board.role_at(from).expect("own piece");
        for &to in &squares {
            out.push(shaped(role, from, to, MoveKind::Normal, None));
            if role == Role::Pawn {
                for &promotion in Role::ALL.iter() {
                    out.push(shaped(role, from, to, MoveKind::Normal, Some(promotion)));
                }
            }
            // A hop over the square halfway, when `to` is two steps away in a queen direction.
            let (df, dr) = (to.file() as i8 - from.file() as i8, to.rank() as i8 - from.rank() as i8);
            if (df.abs() == 2 || df == 0) && (dr.abs() == 2 || dr == 0) && (df, dr) != (0, 0) {
                let over = from.offset(df / 2, dr / 2).expect("between two squares of the board");
                if let Some(taken) = board.role_at(over) {
                    out.push(shaped(role, from, to, MoveKind::Hop { over, taken }, None));
                }
            }
        }
    }

    // Castling in every shape the rules could mean: the king to its castling square with either
    // rook, from wherever it stands.
    if let (Some(files), Some(king)) = (pos.variant().castling_files(), pos.royal_square(pos.turn())) {
        let rank = geo.back_rank(pos.turn());
        for side in 0..2 {
            let rook = Square::new(files.rook[side], rank).expect("on the board");
            let to = Square::new(files.king_to[side], rank).expect("on the board");
            out.push(Move {
                capture: None,
                ..shaped(pos.variant().royal(), king, to, MoveKind::Castle { rook }, None)
            });
        }
    }

    // En passant onto the en passant square, from every square a pawn could take from.
    if let Some(ep) = pos.ep_square() {
        for df in [-1, 1] {
            if let Some(from) = ep.offset(df, -pos.turn().forward()) {
                out.push(Move { capture: Some(Role::Pawn), ..shaped(Role::Pawn, from, ep, MoveKind::EnPassant, None) });
            }
        }
    }

    // The generated moves with every other promotion, and with none.
    for m in legal {
        out.push(Move { promotion: None, ..*m });
        for &promotion in Role::ALL.iter() {
            out.push(Move { promotion: Some(promotion), ..*m });
        }
    }
    out
}

/// No legal move means the game is over, and a game over has no legal move.
fn check_outcome(pos: &Position, legal: &[Move]) -> Result<(), TestCaseError> {
    let variant = pos.variant();
    let outcome = pos.outcome();
    if pos.is_decided() {
        prop_assert!(legal.is_empty(), "{variant}: a decided game has moves: {}", pos.fen());
        let decisive_reason = match outcome {
            Some(Outcome::Decisive { reason, .. }) => Some(reason),
            _ => None,
        };
        prop_assert!(
            matches!(decisive_reason, Some(WinReason::RoyalCaptured | WinReason::KingLeftAttacked)),
            "{variant}: decided position without a decisive outcome: {outcome:?} in {}",
            pos.fen()
        );
    } else if legal.is_empty() {
        let expected = if pos.is_check() {
            Outcome::Decisive { winner: !pos.turn(), reason: WinReason::Checkmate }
        } else {
            Outcome::Draw(rules::DrawReason::Stalemate)
        };
        prop_assert_eq!(outcome, Some(expected), "{}: no legal move in {}", variant, pos.fen());
    } else {
        prop_assert!(
            !matches!(
                outcome,
                Some(
                    Outcome::Decisive { reason: WinReason::Checkmate, .. }
                        | Outcome::Draw(rules::DrawReason::Stalemate)
                )
            ),
            "{variant}: mate or stalemate with legal moves: {}",
            pos.fen()
        );
    }
    Ok(())
}

/// Plays a random game: `choices[i]` picks the move of ply `i` among the legal moves.
fn check_game(variant: Variant, choices: &[u32]) -> Result<(), TestCaseError> {
    let mut game = Game::new(Position::start(variant));
    for &choice in choices {
        let pos = game.position().clone();
        check_position(&pos, choice)?;
        let legal = pos.legal_moves();
        if let Some(outcome) = game.outcome() {
            if let Some(&m) = legal.first() {
                prop_assert_eq!(game.play(m), Err(PlayError::Over(outcome)), "{}: played after the end", variant);
            }
            return Ok(());
        }
        prop_assert!(!legal.is_empty(), "{variant}: no legal move yet no outcome in {}", pos.fen());
        let m = legal[choice as usize % legal.len()];
        let null = Move { to: m.from, capture: None, kind: MoveKind::Normal, ..m };
        prop_assert_eq!(game.play(null), Err(PlayError::Illegal), "{}: a null move was accepted", variant);
        prop_assert_eq!(game.play(m), Ok(()), "{}: {} refused in {}", variant, pos.coord(&m), pos.fen());
    }
    check_position(game.position(), 0)
}

fn game_choices() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(any::<u32>(), 0..=MAX_PLIES)
}

/// A random FEN for `variant`: pieces of its roles on about a third of the squares, the two
/// royal pieces on `royals`, any side to move, castling field and en passant square. Many are
/// rejected (a pawn on a back rank, the side not to move in check...); those are skipped.
fn random_fen(variant: Variant, cells: &[u8], royals: (u8, u8), black: bool, castling: &str, ep: Option<u8>) -> String {
    let geo = variant.geometry();
    let pieces: Vec<char> =
        variant.roles().iter().filter(|r| !r.is_royal()).flat_map(|r| [r.upper_char(), r.lower_char()]).collect();
    let area = u16::from(geo.width) * u16::from(geo.height);
    let (white_royal, black_royal) = (u16::from(royals.0) % area, u16::from(royals.1) % area);
    let mut rows = Vec::new();
    for rank in (0..geo.height).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..geo.width {
            let index = u16::from(rank) * u16::from(geo.width) + u16::from(file);
            let piece = if index == white_royal {
                Some('K')
            } else if index == black_royal {
                Some('k')
            } else {
                pieces.get(usize::from(cells[usize::from(index)])).copied()
            };
            match piece {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let ep = ep
        .and_then(|i| Square::new(i % geo.width, i / geo.width % geo.height))
        .map_or("-".to_string(), |s| s.to_string());
    let castling = if castling.is_empty() { "-" } else { castling };
    format!("{} {} {castling} {ep} 0 1", rows.join("/"), if black { 'b' } else { 'w' })
}

macro_rules! suites {
    ($($game:ident, $placement:ident => $variant:expr;)*) => {
        const COVERED: &[Variant] = &[$($variant),*];

        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $game(choices in game_choices()) {
                    check_game($variant, &choices)?;
                }

                #[test]
                fn $placement(
                    cells in prop::collection::vec(0u8..60, 100),
                    royals in any::<(u8, u8)>(),
                    black in any::<bool>(),
                    castling in "[KQkq]{0,4}",
                    ep in prop::option::weighted(0.3, 0u8..100),
                    choice in any::<u32>(),
                ) {
                    let fen = random_fen($variant, &cells, royals, black, &castling, ep);
                    if let Ok(pos) = Position::from_fen($variant, &fen) {
                        check_position(&pos, choice)?;
                    }
                }
            )*
        }
    };
}

suites! {
    chess_games, chess_placements => Variant::Chess;
    golem_games, golem_placements => Variant::Golem;
    grolman_games, grolman_placements => Variant::Grolman;
    ghost_king_games, ghost_king_placements => Variant::GhostKing;
    werewolf_games, werewolf_placements => Variant::Werewolf;
    unicorn_great_games, unicorn_great_placements => Variant::UnicornGreat;
}

#[test]
fn every_variant_has_its_suites() {
    for variant in Variant::ALL {
        assert!(COVERED.contains(&variant), "{variant} has no random game suite");
    }
}

/// The placements must not be rejected wholesale, or their properties would hold vacuously.
#[test]
fn random_placements_are_often_positions() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let cells = prop::collection::vec(0u8..60, 100);
    for variant in Variant::ALL {
        let accepted = (0..200)
            .filter(|_| {
                let cells = cells.new_tree(&mut runner).unwrap().current();
                let royals = any::<(u8, u8)>().new_tree(&mut runner).unwrap().current();
                Position::from_fen(variant, &random_fen(variant, &cells, royals, false, "", None)).is_ok()
            })
            .count();
        assert!(accepted >= 20, "{variant}: only {accepted} of 200 random placements are positions");
    }
}
