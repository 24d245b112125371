//! What the host stops when the chat platform shuts it out: paused tournaments, and the waiting
//! challenges and running games of a server or room Chimera was removed from.
//!
//! A paused tournament keeps its state (`running`): pausing only stops the host from opening
//! its games, and resuming (the organiser's `/tournament start`) removes the pause, after which
//! the next step opens what is missing.

use crate::db::{ReadTx, WriteTx};
use crate::error::Result;
use crate::sql::{params, sql, Row};
use crate::text::text_enum;
use crate::{GameId, Millis, TournamentId};

text_enum! {
    /// Why the host paused a tournament.
    pub enum PauseReason ("pause reason") {
        /// The platform kept refusing (no access, no permission, a channel gone) to open its
        /// games, past the host's bound on retrying.
        Refused => "refused",
        /// Chimera was removed from the tournament's server or room.
        Lost => "lost",
    }
}

/// A tournament's pause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pause {
    pub tournament: TournamentId,
    pub reason: PauseReason,
    pub paused_at: Millis,
}

impl Pause {
    fn from_row(row: &Row<'_, '_>) -> Result<Pause> {
        Ok(Pause { tournament: row.get(0)?, reason: row.get(1)?, paused_at: row.get(2)? })
    }
}

impl ReadTx<'_> {
    /// The pause of tournament `id`, if it is paused.
    pub fn tournament_pause(&self, id: TournamentId) -> Result<Option<Pause>> {
        self.conn().query_opt(
            sql!("SELECT tournament_id, reason, paused_at FROM tournament_pauses WHERE tournament_id = $1"),
            params![id],
            Pause::from_row,
        )
    }

    /// The paused tournaments of `platform`, by id.
    pub fn paused_tournaments(&self, platform: &str) -> Result<Vec<Pause>> {
        self.conn().query(
            sql!(
                "SELECT p.tournament_id, p.reason, p.paused_at FROM tournament_pauses p
                 JOIN tournaments t ON t.id = p.tournament_id
                 WHERE t.platform = $1 ORDER BY p.tournament_id"
            ),
            params![platform],
            Pause::from_row,
        )
    }

    /// The active games of a server (a Discord guild, a Matrix room) of `platform`.
    pub fn active_games_in(&self, platform: &str, server: &str) -> Result<Vec<GameId>> {
        self.conn().query(
            sql!("SELECT id FROM games WHERE platform = $1 AND server = $2 AND state = 'active' ORDER BY id"),
            params![platform, server],
            |row| row.get(0),
        )
    }
}

impl WriteTx<'_> {
    /// Pauses tournament `id` for `reason`; `false` (and nothing changed) when it already was.
    pub fn pause_tournament(&self, id: TournamentId, reason: PauseReason, now: Millis) -> Result<bool> {
        let added = self.conn().execute(
            sql!(
                "INSERT INTO tournament_pauses (tournament_id, reason, paused_at) VALUES ($1, $2, $3)
                 ON CONFLICT (tournament_id) DO NOTHING"
            ),
            params![id, reason, now],
        )?;
        Ok(added > 0)
    }

    /// Ends the pause of tournament `id`; `false` when it was not paused.
    pub fn resume_tournament(&self, id: TournamentId) -> Result<bool> {
        let removed =
            self.conn().execute(sql!("DELETE FROM tournament_pauses WHERE tournament_id = $1"), params![id])?;
        Ok(removed > 0)
    }

    /// Removes the waiting challenges of a server of `platform`: nobody there can answer them
    /// any more. Returns how many there were.
    pub fn drop_challenges_in(&self, platform: &str, server: &str) -> Result<u64> {
        self.conn()
            .execute(sql!("DELETE FROM challenges WHERE platform = $1 AND server = $2"), params![platform, server])
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{on_both_backends, TestDb};
    use crate::{Format, NewTournament, PauseReason};

    fn a_pause_is_kept_once_and_lifted(db: &TestDb) {
        let mut store = db.store();
        let id = store
            .write(|tx| {
                let organiser = tx.upsert_player("discord", "1", "ann", 0)?.id;
                let new = NewTournament {
                    platform: "discord".into(),
                    server: "g".into(),
                    channel: "c".into(),
                    organiser,
                    name: "Cup".into(),
                    variant: "chess".into(),
                    format: Format::Swiss,
                    rounds: None,
                    time_control: None,
                    rated: false,
                    starts_at: 0,
                    double: false,
                };
                Ok(tx.create_tournament(&new, 0)?.id)
            })
            .unwrap();
        assert!(store.write(|tx| tx.pause_tournament(id, PauseReason::Refused, 5)).unwrap());
        assert!(!store.write(|tx| tx.pause_tournament(id, PauseReason::Lost, 9)).unwrap(), "paused once");
        let pause = store.read(|tx| tx.tournament_pause(id)).unwrap().unwrap();
        assert_eq!((pause.reason, pause.paused_at), (PauseReason::Refused, 5));
        assert_eq!(store.read(|tx| tx.paused_tournaments("discord")).unwrap().len(), 1);
        assert!(store.read(|tx| tx.paused_tournaments("matrix")).unwrap().is_empty());
        assert!(store.write(|tx| tx.resume_tournament(id)).unwrap());
        assert_eq!(store.read(|tx| tx.tournament_pause(id)).unwrap(), None);
    }

    on_both_backends!(a_pause_is_kept_once_and_lifted);
}
