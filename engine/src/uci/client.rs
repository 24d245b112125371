//! The other side of UCI: what Chimera says to an outside engine (a UCI program the operator
//! names, such as Stockfish) and the reading of what that engine answers. Still no I/O: the
//! caller runs the program and hands each line of its output to [`read`].
//!
//! Guarantees: [`read`] never fails; a line it does not understand is [`Answer::Other`], so an
//! engine's chatter (`info string …`, options, copyright lines) is passed over, not an error.
//! A score is read only from an `info` line that gives an exact score for the first line of
//! play (no `lowerbound`/`upperbound`, no `multipv` above 1).
//!
//! ```
//! use engine::uci::client::{read, Answer};
//! use engine::Score;
//!
//! let info = read("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 4000 pv e7e5");
//! assert_eq!(info, Answer::Score { depth: Some(12), score: Score::Centipawns(-35) });
//! assert_eq!(read("bestmove e2e4 ponder e7e5"), Answer::BestMove(Some("e2e4".into())));
//! assert_eq!(read("bestmove (none)"), Answer::BestMove(None));
//! ```

use rules::{Move, Position};

use crate::search::Score;

/// One line of an outside engine's output, as far as analysing with it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `id name …`: the engine's name, to say who judged.
    Name(String),
    /// `option name UCI_Variant type combo … var chess var …`: the variants it plays.
    Variants(Vec<String>),
    UciOk,
    ReadyOk,
    /// An exact score of the principal line, from the side to move's point of view.
    Score {
        depth: Option<u32>,
        score: Score,
    },
    /// `bestmove MOVE`, or `None` for `(none)` / `0000`: no move to play.
    BestMove(Option<String>),
    /// Anything else.
    Other,
}

/// Reads one line of an engine's output.
pub fn read(line: &str) -> Answer {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("id") if words.next() == Some("name") => {
            let name = words.collect::<Vec<_>>().join(" ");
            if name.is_empty() {
                Answer::Other
            } else {
                Answer::Name(name)
            }
        }
        Some("option") => read_option(words),
        Some("uciok") => Answer::UciOk,
        Some("readyok") => Answer::ReadyOk,
        Some("info") => read_info(words),
        Some("bestmove") => match words.next() {
            None | Some("(none)") | Some("0000") => Answer::BestMove(None),
            Some(text) => Answer::BestMove(Some(text.to_string())),
        },
        _ => Answer::Other,
    }
}

fn read_option<'a>(mut words: impl Iterator<Item = &'a str>) -> Answer {
    if words.next() != Some("name") || words.next() != Some("UCI_Variant") {
        return Answer::Other;
    }
    let mut variants = Vec::new();
    while let Some(word) = words.next() {
        if word == "var" {
            if let Some(name) = words.next() {
                variants.push(name.to_string());
            }
        }
    }
    Answer::Variants(variants)
}

fn read_info<'a>(mut words: impl Iterator<Item = &'a str>) -> Answer {
    let (mut depth, mut score, mut exact, mut first_line) = (None, None, true, true);
    while let Some(word) = words.next() {
        match word {
            "depth" => depth = words.next().and_then(|d| d.parse().ok()),
            "multipv" => first_line = words.next() == Some("1"),
            "score" => {
                score = match (words.next(), words.next().and_then(|n| n.parse::<i32>().ok())) {
                    (Some("cp"), Some(cp)) => Some(Score::Centipawns(cp)),
                    // `mate 0`: the side to move is mated already; a game's ended positions
                    // are never asked about, so it is read as what it means.
                    (Some("mate"), Some(n)) => Some(Score::Mate(n)),
                    _ => None,
                }
            }
            "lowerbound" | "upperbound" => exact = false,
            // The principal variation and a string run to the end of the line.
            "pv" | "string" => break,
            _ => {}
        }
    }
    match score {
        Some(score) if exact && first_line => Answer::Score { depth, score },
        _ => Answer::Other,
    }
}

/// The `position` command for the position after `moves` from `start`: `startpos` when the game
/// began at its variant's start, its FEN otherwise, then the moves in coordinate form (a
/// Grolman turn as one token).
pub fn position_command(start: &Position, moves: &[Move]) -> String {
    let mut line = if *start == Position::start(start.variant()) {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.fen())
    };
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&super::line_text(start, moves));
    }
    line
}

#[cfg(test)]
mod tests {
    use rules::Variant;

    use super::*;

    #[test]
    fn bounds_and_other_lines_give_no_score() {
        assert_eq!(read("info depth 9 score cp 20 lowerbound nodes 10"), Answer::Other);
        assert_eq!(read("info depth 9 score cp 20 upperbound"), Answer::Other);
        assert_eq!(read("info depth 9 multipv 2 score cp 20 pv e2e4"), Answer::Other);
        assert_eq!(read("info string NNUE evaluation using nn.bin"), Answer::Other);
        assert_eq!(read("info depth 3 score cp abc"), Answer::Other);
        assert_eq!(read("info depth 3 currmove e2e4 currmovenumber 1"), Answer::Other);
        assert_eq!(read("Stockfish 15.1 by the Stockfish developers"), Answer::Other);
        assert_eq!(read(""), Answer::Other);
    }

    #[test]
    fn mates_and_names_are_read() {
        assert_eq!(
            read("info depth 5 score mate -2 pv a1a2"),
            Answer::Score { depth: Some(5), score: Score::Mate(-2) }
        );
        assert_eq!(read("id name Stockfish 15.1"), Answer::Name("Stockfish 15.1".into()));
        assert_eq!(read("id author someone"), Answer::Other);
        assert_eq!(
            read("option name UCI_Variant type combo default chess var chess var unicorngreat"),
            Answer::Variants(vec!["chess".into(), "unicorngreat".into()])
        );
        assert_eq!(read("option name Hash type spin default 16 min 1 max 33554432"), Answer::Other);
    }

    #[test]
    fn positions_are_written_from_the_start_or_a_fen() {
        let start = Position::start(Variant::Chess);
        let e4 = start.parse_coord("e2e4").unwrap();
        assert_eq!(position_command(&start, &[]), "position startpos");
        assert_eq!(position_command(&start, &[e4]), "position startpos moves e2e4");
        let mut later = start.clone();
        later.play_unchecked(&e4);
        let e5 = later.parse_coord("e7e5").unwrap();
        assert_eq!(position_command(&later, &[e5]), format!("position fen {} moves e7e5", later.fen()));
    }
}
