//! Chimera's engine: search and evaluation for every variant the rules crate knows.
//!
//! Pure like `rules`: no I/O and no threads of its own. A [`Searcher`] searches on the
//! caller's thread until its [`Limits`] (depth, nodes, time) are reached or the caller's stop
//! flag is set, and returns a legal move whenever the position has one.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use engine::{Limits, Searcher};
//! use rules::{Position, Variant};
//!
//! // White mates with Qxf7.
//! let pos = Position::from_fen(Variant::Chess, "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4")?;
//! let mut searcher = Searcher::new(Variant::Chess, 1);
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = searcher.search(std::slice::from_ref(&pos), &limits, &AtomicBool::new(false), &mut |_| {});
//! assert_eq!(pos.san(&result.best.unwrap()), "Qxf7#");
//! # Ok::<(), rules::PositionError>(())
//! ```
//!
//! [`Level`] turns the chat levels 1 to 8 into limits, and says when the engine resigns,
//! accepts a draw or grants a takeback. [`uci`] is the UCI protocol as lines in and lines out,
//! its searches handed to the caller to run; [`bench`] is the fixed benchmark.

pub mod bench;
pub mod eval;
pub mod level;
pub mod opening;
pub mod order;
pub mod puzzle;
pub mod rng;
pub mod search;
pub mod texel;
pub mod tt;
pub mod uci;
pub mod zobrist;

pub use eval::{Evaluator, Params, ParamsError};
pub use level::{accepts_draw, allows_takeback, should_resign, BadLevel, Clock, Level};
pub use search::{Info, Limits, Noise, Score, SearchResult, Searcher, MATE};
