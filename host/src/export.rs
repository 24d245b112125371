//! A stored game or tournament as the pages and files outside the chat show it (the web crate's
//! view): a game is rebuilt by the same replay as the host's own commands, so a page, a `/pgn`
//! answer and a replay GIF of one game always agree; a tournament's standings come from the
//! same function as `/tournament standings`, so a page and the chat never rank differently; a
//! variant's rules are the text and diagrams `/rules` gives.
//!
//! Nothing here checks who may see the game: the caller has already decided that (the web
//! serves a game only to those holding its unguessable key).

use std::fmt;

use data::{Entrant, Game, GameRecord, Pairing, Player, PlayerId, ReadTx, Round, Tournament, TournamentId};
use render::Diagram;
use rules::{Color, Variant};

use super::arbiter::{self, Event};
use super::rating::Rating;
use super::table::Table;
pub use super::tiebreak::Standing;

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
    /// The engine that judged: an outside engine's name is its own text, to be shown as such.
    pub judge: data::Judge,
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
        KeptAnalysis { evals, marks, accuracy: analysis.accuracy, judge: analysis.judge.clone() }
    }
}

/// One line of a tournament's standings, exactly as `/tournament standings` shows it (the same
/// function makes both): the tie-break engine's line, the player's name and whether they
/// withdrew.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingRow {
    pub standing: Standing,
    pub name: String,
    pub withdrawn: bool,
}

/// A stored tournament with everything its page shows: entrants, rounds with their pairings,
/// the players, the latest game of every pairing. Read in one transaction, so they agree.
///
/// Nothing here checks who may see it: the caller has (the web serves a tournament only to
/// those holding its unguessable key).
pub struct StoredTournament {
    event: Event,
}

impl StoredTournament {
    /// Tournament `id` as stored now.
    pub fn load(tx: &ReadTx<'_>, id: TournamentId) -> data::Result<StoredTournament> {
        Event::load(tx, id).map(|event| StoredTournament { event })
    }

    pub fn tournament(&self) -> &Tournament {
        &self.event.t
    }

    pub fn entrants(&self) -> &[Entrant] {
        &self.event.entrants
    }

    /// The rounds paired so far, in order, each with its pairings by board.
    pub fn rounds(&self) -> &[Round] {
        &self.event.rounds
    }

    /// An entrant (or the organiser); `None` for anyone else.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.event.players.get(&id)
    }

    /// The latest game played for `pairing`, if one was.
    pub fn game_of(&self, pairing: &Pairing) -> Option<&Game> {
        self.event.game_of(pairing)
    }

    /// `Swiss, 4 rounds, Golem Chess, 5+3, rated`, as `/tournament list` says it.
    pub fn terms(&self) -> Result<String, Unreadable> {
        self.event.terms().map_err(|r| Unreadable(r.text().to_string()))
    }

    /// The standings now, best first, the same lines in the same order as `/tournament
    /// standings` (see [`crate::tiebreak`] for how each value is computed).
    pub fn standings(&self) -> Vec<StandingRow> {
        arbiter::standings(&self.event)
    }
}

/// A standings number as `/tournament standings` writes it: `3`, `2.5`, `6.25`.
pub fn points_text(points: f64) -> String {
    arbiter::number(points)
}

/// A variant's rules in the project's own words, as `/rules` gives them (Markdown: paragraphs,
/// `**bold**`, `` `code` ``, numbered lists).
pub fn rules_text(variant: Variant) -> &'static str {
    super::info::help_text(variant)
}

/// The diagrams `/rules` shows for a variant, in its order.
pub fn rule_diagrams(variant: Variant) -> Vec<Diagram> {
    super::info::diagrams(variant)
}
