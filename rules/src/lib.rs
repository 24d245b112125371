//! The rules of Chimera's chess variants: positions, legal moves, outcomes, notation and perft.
//!
//! Pure and synchronous. A [`Setup`] is what a FEN says; a [`Position`] is a setup the rules
//! accept; [`Position::legal_moves`] and [`Position::play_unchecked`] drive a game.
//! [`Position::san`] and [`Position::coord`] write moves, [`Position::parse_move`] reads them in
//! any common notation, and [`pgn`] writes and reads whole games. [`Game`] keeps a game's
//! history for the draw rules that need it.
//!
//! # Examples
//!
//! Read a FEN, list the legal moves, play a move given in SAN:
//!
//! ```
//! use rules::{Position, Variant};
//!
//! let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
//! let pos = Position::from_fen(Variant::Chess, fen)?;
//! assert_eq!(pos.legal_moves().len(), 20);
//!
//! let e5 = pos.parse_move("e5")?;
//! let pos = pos.after(&e5);
//! assert_eq!(pos.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A Grolman Chess turn is a lead move and the chain it sets off: every square the side
//! vacates pulls in a friendly piece. The lead alone is enough when the chain leaves no choice;
//! the coordinate form and SAN both write the chain in parentheses.
//!
//! ```
//! use rules::{Position, Variant};
//!
//! let pos = Position::start(Variant::Grolman);
//! let turn = pos.parse_move("e4")?;
//! assert_eq!(pos.san(&turn), "e4 (Ne2, Rg1)");
//! assert_eq!(pos.coord(&turn), "e2e4 (g1e2 h1g1)");
//! assert_eq!(pos.parse_move("e2e4 (g1e2 h1g1)")?, turn);
//! assert_eq!(pos.parse_coord("e2e4 (g1e2 h1g1)")?, turn);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A Werewolf jumps an occupied square; jumping an enemy it may also take it. That hop is a
//! two-leg move in coordinates, the first leg ending on the square of the piece taken:
//!
//! ```
//! use rules::{Position, Variant};
//!
//! let pos = Position::from_fen(Variant::Werewolf, "4k3/8/8/4p3/3W4/8/8/4K3 w - - 0 1")?;
//! let e5 = "e5".parse()?;
//! let hop = pos.parse_move("d4e5,e5f6")?;
//! assert_eq!(pos.san(&hop), "Wxe5-f6");
//! assert_eq!(pos.after(&hop).board().piece_at(e5), None);
//!
//! let jump = pos.parse_move("Wf6")?; // the same jump, leaving the pawn
//! assert_eq!(pos.coord(&jump), "d4f6");
//! assert!(pos.after(&jump).board().piece_at(e5).is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A Golem hit by anything but a Golem survives as a Half-Golem, and its attacker is removed:
//!
//! ```
//! use rules::{Color, Piece, Position, Role, Variant};
//!
//! let pos = Position::from_fen(Variant::Golem, "4k3/8/8/8/5g2/8/4N3/4K3 w - - 0 1")?;
//! let hit = pos.parse_move("Nxf4")?;
//! assert_eq!(pos.san(&hit), "Nxf4=H");
//!
//! let after = pos.after(&hit);
//! assert_eq!(after.board().piece_at("f4".parse()?), Some(Piece::new(Color::Black, Role::HalfGolem)));
//! assert!(after.board().by_role(Role::Knight).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bitboard;
pub mod board;
pub mod coord;
pub mod cpu;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod parse;
pub mod perft;
pub mod pgn;
pub mod position;
mod reach;
mod reading;
pub mod role;
pub mod san;
pub mod setup;
pub mod square;
pub mod variants;

pub use bitboard::Bitboard;
pub use board::Board;
pub use coord::CoordError;
pub use game::{Game, PlayError};
pub use geometry::Geometry;
pub use moves::{Chain, Move, MoveKind, Step};
pub use outcome::{DrawReason, Outcome, WinReason};
pub use parse::{MoveError, Problem};
pub use perft::{divide, perft};
pub use pgn::{PgnError, PgnGame, Tags};
pub use position::{Position, PositionError};
pub use reading::CastlingSide;
pub use role::{Color, Piece, Role};
pub use setup::{FenError, Setup};
pub use square::Square;
pub use variants::{Capture, CastlingFiles, UnknownVariant, Variant};
