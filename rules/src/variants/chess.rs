//! FIDE chess: the rules every other variant starts from, so nothing here overrides them.

use super::Rules;

pub(crate) struct Chess;

impl Rules for Chess {
    const ID: &'static str = "chess";
    const NAME: &'static str = "Chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}
