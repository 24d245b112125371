//! The rules of Chimera's chess variants: positions, legal moves, outcomes, notation and perft.
//!
//! Pure and synchronous. A [`Setup`] is what a FEN says; a [`Position`] is a setup the rules
//! accept; [`Position::legal_moves`] and [`Position::play_unchecked`] drive a game.
//! [`Position::san`] and [`Position::coord`] write moves, [`Position::parse_move`] reads them in
//! any common notation, and [`pgn`] writes and reads whole games.

pub mod bitboard;
pub mod board;
pub mod coord;
pub mod game;
pub mod geometry;
mod grolman;
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
pub mod variant;

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
pub use variant::{UnknownVariant, Variant};
