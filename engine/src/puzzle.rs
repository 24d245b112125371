//! Puzzles from played games: a position where a player went wrong and the opponent has one
//! move that wins clearly, with the line that makes the win plain.
//!
//! What makes a puzzle, every test a [`Finder`] applies (each rejection is a [`NotAPuzzle`]):
//! - **Clearly**: the best move scores at least [`Settings::win`] for the solver, the second
//!   best (the best once the first is excluded) at most [`Settings::second_at_most`] and at least
//!   [`Settings::margin`] below it; or the best mates and the second does not. A position where
//!   two moves win is no puzzle: the answer would not be one move.
//! - **Stays best**: a deeper search ([`Settings::confirm_depth`]) picks the same move.
//! - **Plain**: the line runs, the opponent answering with its best reply, until the solver has
//!   mated (or taken the Ghost King) or gained [`Settings::decisive_material`] on the board
//!   after the opponent's reply; every solver move on the way passes the same tests. A line
//!   that is not plain within [`Settings::max_solver_moves`] is rejected.
//!
//! Everything here is deterministic for a given [`Settings`]: depth limits only, no clock, so
//! the same game always gives the same puzzles whatever the machine's load.

use std::fmt;
use std::sync::atomic::AtomicBool;

use rules::{Color, Move, Outcome, Position};

use crate::search::{Limits, Searcher, MATE, MAX_PLY};

/// The thresholds a position must pass, in centipawns for the side named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Depth of the cheap pass over a game's positions that finds its mistakes.
    pub scan_depth: u32,
    /// Depth at which a candidate's best and second-best moves are compared.
    pub depth: u32,
    /// Depth at which the best move must still be best.
    pub confirm_depth: u32,
    /// How much a move must lose to be a mistake.
    pub mistake: i32,
    /// The least the best move must score for the solver.
    pub win: i32,
    /// The most the second-best move may score for the solver.
    pub second_at_most: i32,
    /// The least gap between the best and the second best.
    pub margin: i32,
    /// Material gained (values of the evaluation) that makes a win plain.
    pub decisive_material: i32,
    /// The longest line, in the solver's moves.
    pub max_solver_moves: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scan_depth: 4,
            depth: 6,
            confirm_depth: 8,
            mistake: 200,
            win: 250,
            second_at_most: 100,
            margin: 250,
            decisive_material: 250,
            max_solver_moves: 4,
        }
    }
}

/// A puzzle: the position after a mistake, and its solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// The number of moves played in the game before the puzzle's position (so the mistake is
    /// move `ply - 1`, counting from 0).
    pub ply: usize,
    /// The position the solver faces.
    pub position: Position,
    /// The solver's move, the opponent's reply, the solver's move, and so on; it ends with a
    /// move of the solver's.
    pub solution: Vec<Move>,
    /// The best move's score for the solver at the compared depth (mates near ±[`MATE`]).
    pub score: i32,
}

impl Puzzle {
    /// The side that solves it.
    pub fn solver(&self) -> Color {
        self.position.turn()
    }
}

/// Why a position is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotAPuzzle {
    /// The game is over there, or the side to move has at most one legal move.
    Forced,
    /// The best move scores `best`, less than a clear win.
    NotWinning { best: i32 },
    /// The second-best move scores `second` against the best's `best`: it wins too, or comes
    /// too close.
    SecondAlsoWins { best: i32, second: i32 },
    /// A deeper search prefers another move.
    ChangesDeeper,
    /// The line does not reach mate or a decisive gain of material within the moves allowed,
    /// or a later move of the solver's is not the only clear win.
    NotPlain,
}

impl fmt::Display for NotAPuzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAPuzzle::Forced => f.write_str("the side to move has no choice"),
            NotAPuzzle::NotWinning { best } => write!(f, "the best move scores only {best}"),
            NotAPuzzle::SecondAlsoWins { best, second } => {
                write!(f, "the second-best move scores {second} against the best's {best}")
            }
            NotAPuzzle::ChangesDeeper => f.write_str("a deeper search prefers another move"),
            NotAPuzzle::NotPlain => f.write_str("the win does not become plain"),
        }
    }
}

impl std::error::Error for NotAPuzzle {}

/// Finds puzzles, with one searcher (its table helps from position to position of a game).
pub struct Finder {
    searcher: Searcher,
    settings: Settings,
    /// Never set: the finder's searches end by depth alone. The caller bounds a game's cost by
    /// the settings, and runs the finder where its CPU may go (a low-priority thread).
    stop: AtomicBool,
}

impl Finder {
    pub fn new(variant: rules::Variant, settings: Settings) -> Finder {
        Finder { searcher: Searcher::new(variant, 16), settings, stop: AtomicBool::new(false) }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The puzzles of a game, given as its positions from the start (`positions[i + 1]` follows
    /// `positions[i]` by the game's move `i`). A mistake that hands the opponent a clear win
    /// makes a candidate; candidates closer than two moves to the previous puzzle are skipped
    /// (the same tactic seen twice).
    pub fn find_in_game(&mut self, positions: &[Position]) -> Vec<Puzzle> {
        let scores: Vec<Option<i32>> = (0..positions.len()).map(|i| self.scan(&positions[..=i])).collect();
        let mut found: Vec<Puzzle> = Vec::new();
        for ply in 1..positions.len() {
            let (Some(before), Some(after)) = (scores[ply - 1], scores[ply]) else { continue };
            // `before` is the mover's view, `after` the opponent's: the mover lost `before + after`.
            let lost = before.saturating_add(after);
            if lost < self.settings.mistake || after < self.settings.win {
                continue;
            }
            if found.last().is_some_and(|p| ply < p.ply + 4) {
                continue;
            }
            if let Ok(puzzle) = self.judge(&positions[..=ply]) {
                found.push(Puzzle { ply, ..puzzle });
            }
        }
        found
    }

    /// Whether the last of `history` (the game so far, its start first, for repetitions) is a
    /// puzzle for the side to move, and its solution if it is. `ply` of the answer is the
    /// number of positions before it in `history`.
    pub fn judge(&mut self, history: &[Position]) -> Result<Puzzle, NotAPuzzle> {
        let root = history.last().ok_or(NotAPuzzle::Forced)?.clone();
        let solver = root.turn();
        let (first, score) = self.only_win(history)?;
        let deeper = self.search(history, self.settings.confirm_depth, Vec::new());
        if deeper.0 != Some(first) {
            return Err(NotAPuzzle::ChangesDeeper);
        }
        let material_at_start = material(self.searcher.evaluator(), &root, solver);
        let mut line = history.to_vec();
        let mut solution = vec![first];
        let mut next = first;
        loop {
            let after = line.last().expect("the line holds the root").after(&next);
            line.push(after);
            let here = line.last().expect("just pushed");
            if let Some(Outcome::Decisive { winner, .. }) = here.outcome() {
                if winner == solver {
                    break;
                }
                return Err(NotAPuzzle::NotPlain);
            }
            let (reply, _) = self.search(&line, self.settings.depth, Vec::new());
            let Some(reply) = reply else { return Err(NotAPuzzle::NotPlain) };
            let answered = line.last().expect("just pushed").after(&reply);
            let gained = material(self.searcher.evaluator(), &answered, solver) - material_at_start;
            if gained >= self.settings.decisive_material {
                break;
            }
            if solution.len().div_ceil(2) >= self.settings.max_solver_moves {
                return Err(NotAPuzzle::NotPlain);
            }
            line.push(answered);
            next = self.only_win(&line).map_err(|_| NotAPuzzle::NotPlain)?.0;
            solution.push(reply);
            solution.push(next);
        }
        Ok(Puzzle { ply: history.len() - 1, position: root, solution, score })
    }

    /// The one clearly winning move of the last position, and its score.
    fn only_win(&mut self, history: &[Position]) -> Result<(Move, i32), NotAPuzzle> {
        let here = history.last().ok_or(NotAPuzzle::Forced)?;
        if here.outcome().is_some() || here.legal_moves().len() < 2 {
            return Err(NotAPuzzle::Forced);
        }
        let (best, score) = self.search(history, self.settings.depth, Vec::new());
        let Some(best) = best else { return Err(NotAPuzzle::Forced) };
        if score < self.settings.win {
            return Err(NotAPuzzle::NotWinning { best: score });
        }
        let (second, second_score) = self.search(history, self.settings.depth, vec![best]);
        if second.is_none() {
            return Err(NotAPuzzle::Forced);
        }
        // A mate is the only answer when nothing else mates, however far ahead the rest leaves
        // the solver; short of mate, the rest must not win.
        let clear = if is_mate(score) {
            !is_mate(second_score)
        } else {
            second_score <= self.settings.second_at_most && score.saturating_sub(second_score) >= self.settings.margin
        };
        if !clear {
            return Err(NotAPuzzle::SecondAlsoWins { best: score, second: second_score });
        }
        Ok((best, score))
    }

    /// The scan's score of the last position for its side to move; `None` where the game is
    /// over (nothing to find there).
    fn scan(&mut self, history: &[Position]) -> Option<i32> {
        let pos = history.last()?;
        if pos.outcome().is_some() {
            return None;
        }
        let (best, score) = self.search(history, self.settings.scan_depth, Vec::new());
        best.map(|_| score)
    }

    fn search(&mut self, history: &[Position], depth: u32, excluded: Vec<Move>) -> (Option<Move>, i32) {
        let limits = Limits { depth: Some(depth), excluded, ..Limits::default() };
        let result = self.searcher.search(history, &limits, &self.stop, &mut |_| {});
        (result.best, clamp_mate(result.score))
    }
}

fn is_mate(score: i32) -> bool {
    score >= MATE - MAX_PLY as i32
}

/// Mates kept apart from centipawns but ordered with them: a mate in n counts as a win bigger
/// than any material.
fn clamp_mate(score: i32) -> i32 {
    if score.abs() >= MATE - MAX_PLY as i32 {
        score.signum() * (MATE - MAX_PLY as i32)
    } else {
        score
    }
}

/// `color`'s material minus the other side's, in the evaluation's piece values (royal pieces
/// left out: they are never traded).
fn material(eval: &crate::Evaluator, pos: &Position, color: Color) -> i32 {
    pos.board()
        .pieces()
        .filter(|(_, p)| !p.role.is_royal())
        .map(|(_, p)| if p.color == color { eval.params.value(p.role) } else { -eval.params.value(p.role) })
        .sum()
}
