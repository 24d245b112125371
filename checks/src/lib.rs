//! The properties Chimera's fuzz targets check, one module per target, each a plain function of
//! the fuzzer's bytes that panics when a property fails (for the fuzzer, a crash).
//!
//! The fuzz crate (`fuzz/`, built by `cargo +nightly fuzz`) calls these functions and nothing
//! else, and `tests/corpus.rs` replays every file of the committed corpus (`fuzz/corpus/<target>/`)
//! through them, so the ordinary test suite runs each input the fuzzer ever kept. A finding is
//! fixed in the crate it was found in, with a regression test there; its input stays in the corpus.
//!
//! | target | what it reads | what must hold |
//! | --- | --- | --- |
//! | [`notation`] | FEN, SAN, coordinates, token form, PGN, in every variant | accepted text reads back the same after writing |
//! | [`command`] | command text (console, button ids) | a parsed command's `Display` parses back to it |
//! | [`matrix_text`] | Matrix messages: plain and HTML bodies, pills, reply quotes | pills read as their user ids; a command read writes back to a message that reads the same |
//! | [`uci`] | lines to `chimera uci` | errors change nothing; each `go` ends in one legal `bestmove` |
//! | [`legality`] | fuzzed games from fuzzed FENs | `legal_moves` and `is_legal` agree; played positions round-trip through FEN |
//! | [`host`] | command scripts against a host | one active game per channel, contiguous plies, ratings move only with rated results |
//!
//! Every function refuses nothing: bytes that say nothing useful are simply a short check.

pub mod command;
pub mod host;
pub mod legality;
pub mod matrix_text;
pub mod notation;
pub mod uci;

use rules::Variant;

/// The variant a byte picks.
pub(crate) fn variant(byte: u8) -> Variant {
    Variant::ALL[usize::from(byte) % Variant::ALL.len()]
}
