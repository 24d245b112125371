//! Puzzles from the community's own games: the job that finds them ([`job`], on the engine's
//! threads within a CPU budget, in steps cut by [`scan`]), and `/puzzle` with the moves that
//! answer it ([`command`]). The store (`data::puzzles`) keeps them and holds the rules that keep
//! them whole; each module here states what it guarantees.

pub(crate) mod command;
pub mod job;
pub mod scan;

pub use job::{ScanError, Scanned};
pub use scan::Scan;
