//! Puzzles from the community's own games: the job that finds them ([`job`], on the engine's
//! threads within a CPU budget, in steps cut by [`scan`]), `/puzzle` with the moves that
//! answer it ([`command`]), and the daily puzzle a place's managers have posted in a channel
//! ([`daily`]). The store (`data::puzzles`) keeps them and holds the rules that keep
//! them whole; each module here states what it guarantees.

pub(crate) mod command;
pub(crate) mod daily;
pub mod job;
pub mod scan;

pub use job::{ScanError, Scanned};
pub use scan::Scan;
