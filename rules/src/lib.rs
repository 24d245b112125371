//! The rules of Chimera's chess variants: positions, legal moves, outcomes, notation and perft.
//!
//! Pure and synchronous. A [`Setup`] is what a FEN says; a [`Position`] is a setup the rules
//! accept; [`Position::legal_moves`] and [`Position::play_unchecked`] drive a game.

pub mod bitboard;
pub mod board;
pub mod coord;
pub mod game;
pub mod geometry;
mod grolman;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
pub mod position;
mod reach;
pub mod role;
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
pub use perft::{divide, perft};
pub use position::{Position, PositionError};
pub use role::{Color, Piece, Role};
pub use setup::{FenError, Setup};
pub use square::Square;
pub use variant::{UnknownVariant, Variant};
