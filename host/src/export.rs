//! A stored game as the pages and files outside the chat show it (the web crate's view of a
//! game): rebuilt by the same replay as the host's own commands, so a page, a `/pgn` answer and
//! a replay GIF of one game always agree.
//!
//! Nothing here checks who may see the game: the caller has already decided that (the web
//! serves a game only to those holding its unguessable key).

use std::fmt;

use data::{GameRecord, Player};
use rules::Color;

use super::rating::Rating;
use super::table::Table;

/// A stored game that does not replay (a corrupt row or a move the rules refuse); the text says
/// which game and why, for a log, never for a visitor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(String);

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unreadable {}

/// A stored game, replayed by the rules, with its players.
#[derive(Clone)]
pub struct StoredGame {
    table: Table,
}

impl StoredGame {
    /// Replays `record`'s moves from its start position.
    pub fn new(record: GameRecord, white: Player, black: Player) -> Result<StoredGame, Unreadable> {
        Table::new(record, white, black).map(|table| StoredGame { table }).map_err(|r| Unreadable(r.text().to_string()))
    }

    pub fn record(&self) -> &GameRecord {
        &self.table.record
    }

    pub fn player(&self, color: Color) -> &Player {
        self.table.player(color)
    }

    pub fn variant(&self) -> rules::Variant {
        self.table.variant()
    }

    /// The rules' game with its stored ending applied (a resignation, a time-out, an agreed
    /// draw): what the PGN and the replay GIF are made from.
    pub fn ended_game(&self) -> rules::Game {
        self.table.ended_game()
    }

    /// The clock in words, as `/game` says it (`10+5`, `3 days per move`, `no clock`).
    pub fn describe_time(&self) -> String {
        self.table.describe_time()
    }

    /// The milliseconds `color` has left at `now`: the side to move counts down to the deadline,
    /// the other keeps its allowance. `None` without a clock.
    pub fn time_left(&self, color: Color, now: data::Millis) -> Option<i64> {
        if self.table.record.game.state == data::GameState::Active && color == self.table.to_move() {
            self.table.record.game.deadline.map(|d| (d - now).max(0))
        } else {
            self.table.allowance(color)
        }
    }

    /// The game as PGN, the same text `/pgn` gives (plain names: no chat's typed-text marks).
    pub fn pgn(&self) -> String {
        super::info::pgn_text(&self.table, |color| self.player(color).display_name.clone())
    }
}

/// `player`'s rating as the chat shows it (`1623`, or `1500?` while provisional).
pub fn rating_text(stored: Option<&data::Rating>) -> String {
    Rating::from_stored(stored).display()
}

impl StoredGame {
    /// The replay of the game as an animated GIF, as the chat's result message carries it:
    /// every position, the players named, the result on the last frame. Takes tens of
    /// milliseconds for a long game: call it off the async runtime.
    pub fn replay_gif(&self, renderer: &render::Renderer, theme: render::Theme, size: u32) -> render::GifOutput {
        let game = self.ended_game();
        let (white, black) = (&self.player(Color::White).display_name, &self.player(Color::Black).display_name);
        renderer.game_gif(&render::GameGif::new(&game).players(white, black).theme(theme).size(size))
    }
}

/// A game's kept analysis (`/analyse` ran) as its page draws it.
#[derive(Clone, Debug)]
pub struct KeptAnalysis {
    /// The evaluation of every position, from the start.
    pub evals: Vec<render::Eval>,
    /// The marked moves, each with the engine's better move where it had one.
    pub marks: Vec<(render::Mark, Option<String>)>,
    /// White's and Black's accuracy in percent.
    pub accuracy: [Option<f64>; 2],
}

impl KeptAnalysis {
    pub fn new(analysis: &data::Analysis) -> KeptAnalysis {
        use render::{Eval, Judgement, Mark};
        let evals = analysis
            .plies
            .iter()
            .map(|p| match p.eval {
                data::Eval::Centipawns(cp) => Eval::Centipawns(cp),
                data::Eval::Mate { winner, moves } => {
                    Eval::Mate { winner: if winner == data::Color::White { Color::White } else { Color::Black }, moves }
                }
            })
            .collect();
        let marks = analysis
            .plies
            .iter()
            .enumerate()
            .filter_map(|(ply, p)| {
                let judgement = match p.judgement? {
                    data::Judgement::Inaccuracy => Judgement::Inaccuracy,
                    data::Judgement::Mistake => Judgement::Mistake,
                    data::Judgement::Blunder => Judgement::Blunder,
                };
                Some((Mark { ply, judgement }, p.better.clone()))
            })
            .collect();
        KeptAnalysis { evals, marks, accuracy: analysis.accuracy }
    }
}
