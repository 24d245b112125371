//! [`Event`]: one tournament as stored, with everything the arbiter decides from.

use std::collections::HashMap;

use data::{Entrant, Game, GameId, Pairing, Player, PlayerId, ReadTx, Round, Tournament, TournamentState};

use super::super::clock::TimeControl;
use super::super::pairing;
use super::super::stored::{self, Terms};
use super::super::{Refusal, Typed, User};

/// The rating an entrant without one starts from (the host's default Glicko rating).
const UNRATED: i64 = 1500;

pub(crate) struct Event {
    pub t: Tournament,
    pub entrants: Vec<Entrant>,
    pub rounds: Vec<Round>,
    pub players: HashMap<PlayerId, Player>,
    /// The latest game of every pairing that has one.
    pub games: HashMap<GameId, Game>,
    /// Why and since when the host paused it, if it did (see `pause`).
    pub paused: Option<data::Pause>,
}

impl Event {
    pub fn load(tx: &ReadTx<'_>, id: data::TournamentId) -> data::Result<Event> {
        let t = tx.tournament(id)?;
        let entrants = tx.entrants(id)?;
        let rounds = tx.rounds(id)?;
        let mut players = HashMap::new();
        players.insert(t.organiser, tx.player(t.organiser)?);
        for e in &entrants {
            players.insert(e.player, tx.player(e.player)?);
        }
        let mut games = HashMap::new();
        for p in rounds.iter().flat_map(|r| &r.pairings) {
            if let Some(g) = p.game {
                games.insert(g, tx.game(g)?);
            }
        }
        let paused = tx.tournament_pause(id)?;
        Ok(Event { t, entrants, rounds, players, games, paused })
    }

    /// A player's name, marked as typed.
    pub fn name(&self, id: PlayerId) -> Typed<'_> {
        Typed(self.players.get(&id).map_or("?", |p| p.display_name.as_str()))
    }

    pub fn user(&self, id: PlayerId) -> User {
        self.players.get(&id).map_or_else(|| User { id: id.to_string(), name: "?".into() }, stored::user)
    }

    pub fn is_entrant(&self, user_id: &str) -> bool {
        self.entrants.iter().any(|e| self.players.get(&e.player).is_some_and(|p| p.user_id == user_id))
    }

    /// The field as the engines see it: start ratings (fixed at the start), withdrawn players
    /// inactive.
    pub fn field(&self) -> Vec<pairing::Player> {
        self.entrants
            .iter()
            .map(|e| pairing::Player {
                id: e.player,
                rating: e.start_rating.unwrap_or(UNRATED) as f64,
                active: e.withdrawn_at.is_none(),
            })
            .collect()
    }

    pub fn current(&self) -> Option<&Round> {
        self.rounds.last()
    }

    pub fn game_of(&self, pairing: &Pairing) -> Option<&Game> {
        pairing.game.and_then(|g| self.games.get(&g))
    }

    pub fn time_control(&self) -> Result<Option<TimeControl>, Refusal> {
        self.t.time_control()
    }

    /// `Swiss, 4 rounds, Golem Chess, 5+3 (...), rated`.
    pub fn terms(&self) -> Result<String, Refusal> {
        let variant = self.t.variant()?.name();
        let format = match self.t.format {
            data::Format::Swiss => "Swiss".to_string(),
            data::Format::RoundRobin if self.t.double => "double round robin".to_string(),
            data::Format::RoundRobin => "round robin".to_string(),
            data::Format::Knockout => "knockout".to_string(),
        };
        let rounds = match self.t.rounds {
            Some(1) => ", 1 round".to_string(),
            Some(n) => format!(", {n} rounds"),
            None => String::new(),
        };
        let time = self.time_control()?.map_or("no clock".to_string(), TimeControl::describe);
        let rated = if self.t.rated { "rated" } else { "unrated" };
        Ok(format!("{format}{rounds}, {variant}, {time}, {rated}"))
    }

    /// `tournament 3 "Friday Swiss"`.
    /// `tournament 3 "Name"`, its name marked as typed.
    pub fn title(&self) -> String {
        format!("tournament {} \"{}\"", self.t.id, Typed(&self.t.name))
    }

    pub fn is_live(&self) -> bool {
        matches!(self.t.state, TournamentState::Open | TournamentState::Running)
    }
}
