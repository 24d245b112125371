//! Each player's own settings (how their boards look, whether Chimera writes to them when it is
//! their turn), and the turn notices those direct messages come from.
//!
//! A player has a row once they change a setting; until then [`UserSettings::default`] holds.
//! A change is written whole, read and replaced in one transaction, so two changes at once each
//! keep the other's fields.
//!
//! A turn notice is queued in the transaction of the move that makes it someone's turn, due at
//! once or when their quiet hours end; [`WriteTx::claim_turn_notices`] hands each due notice to
//! one process, which drops it there if the game has moved on since, so a player is written to
//! at most once per turn and never about a turn that is over.

use crate::db::{ReadTx, WriteTx};
use crate::error::Result;
use crate::sql::{params, sql, Row};
use crate::text::text_enum;
use crate::{GameId, Millis, PlayerId};

text_enum! {
    /// Which side a player's boards show at the bottom.
    pub enum Bottom ("board bottom") {
        /// The side to move, as every board was before players had settings.
        ToMove => "to_move",
        /// The player's own side, in their own games; the side to move in others'.
        Own => "own",
    }
}

/// Hours in which a player gets no direct message: minutes after midnight in their zone, from
/// `from` until `to`; `to` before `from` means the hours pass midnight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuietHours {
    pub from: u16,
    pub to: u16,
}

impl QuietHours {
    /// Minutes in a day: every bound is below it.
    pub const DAY: u16 = 24 * 60;

    /// Whether `minute` (after midnight) falls in these hours. Equal bounds mean none.
    ///
    /// ```
    /// let night = data::QuietHours { from: 22 * 60, to: 7 * 60 };
    /// assert!(night.contains(23 * 60) && night.contains(0) && !night.contains(7 * 60));
    /// assert!(!night.contains(12 * 60));
    /// ```
    pub fn contains(self, minute: u16) -> bool {
        if self.from <= self.to {
            (self.from..self.to).contains(&minute)
        } else {
            minute >= self.from || minute < self.to
        }
    }
}

/// A player's own settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserSettings {
    /// A board theme's name, as the renderer names it; `None`: the deployment's theme.
    pub theme: Option<String>,
    /// File letters and rank numbers around the board.
    pub coordinates: bool,
    pub bottom: Bottom,
    /// Whether the player's boards come with the pieces written out by square.
    pub described: bool,
    /// Whether Chimera writes to the player directly when it is their turn in a correspondence
    /// game.
    pub turn_dm: bool,
    pub quiet: Option<QuietHours>,
    /// An IANA time zone's name (`Europe/Berlin`) for the quiet hours; `None`: UTC.
    pub zone: Option<String>,
}

impl Default for UserSettings {
    fn default() -> UserSettings {
        UserSettings {
            theme: None,
            coordinates: true,
            bottom: Bottom::ToMove,
            described: false,
            turn_dm: false,
            quiet: None,
            zone: None,
        }
    }
}

/// The columns `UserSettings::from_row` reads, in its order.
macro_rules! settings_columns {
    () => {
        "theme, coordinates, bottom, described, turn_dm, quiet_from, quiet_to, zone"
    };
}

impl UserSettings {
    fn from_row(row: &Row<'_, '_>) -> Result<UserSettings> {
        let minute = |column: usize| -> Result<Option<u16>> {
            // The schema keeps them within a day.
            Ok(row.get::<Option<i64>>(column)?.map(|m| m.clamp(0, i64::from(QuietHours::DAY) - 1) as u16))
        };
        let quiet = match (minute(5)?, minute(6)?) {
            (Some(from), Some(to)) => Some(QuietHours { from, to }),
            _ => None,
        };
        Ok(UserSettings {
            theme: row.get(0)?,
            coordinates: row.get(1)?,
            bottom: row.get(2)?,
            described: row.get(3)?,
            turn_dm: row.get(4)?,
            quiet,
            zone: row.get(7)?,
        })
    }
}

/// A direct message owed to a player: it became their turn in `game` after `ply` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnNotice {
    pub game: GameId,
    pub ply: u32,
    pub player: PlayerId,
    pub due_at: Millis,
}

impl TurnNotice {
    fn from_row(row: &Row<'_, '_>) -> Result<TurnNotice> {
        Ok(TurnNotice {
            game: row.get(0)?,
            ply: row.get::<i64>(1)?.clamp(0, i64::from(u32::MAX)) as u32,
            player: row.get(2)?,
            due_at: row.get(3)?,
        })
    }
}

impl ReadTx<'_> {
    /// The settings of `player`: the defaults until they change one.
    pub fn user_settings(&self, player: PlayerId) -> Result<UserSettings> {
        Ok(self
            .conn()
            .query_opt(
                sql!("SELECT ", settings_columns!(), " FROM user_settings WHERE player_id = $1"),
                params![player],
                UserSettings::from_row,
            )?
            .unwrap_or_default())
    }

    /// The settings of the user `user_id` of `platform`: the defaults for one never seen.
    pub fn user_settings_of(&self, platform: &str, user_id: &str) -> Result<UserSettings> {
        match self.find_player(platform, user_id)? {
            Some(player) => self.user_settings(player.id),
            None => Ok(UserSettings::default()),
        }
    }

    /// The notices waiting for `player`, oldest first.
    pub fn turn_notices_of(&self, player: PlayerId) -> Result<Vec<TurnNotice>> {
        self.conn().query(
            sql!(
                "SELECT game_id, ply, player_id, due_at FROM turn_notices WHERE player_id = $1
                 ORDER BY due_at, game_id"
            ),
            params![player],
            TurnNotice::from_row,
        )
    }

    /// Whether any notice of `platform` is due at `now`.
    pub fn has_turn_notices(&self, platform: &str, now: Millis) -> Result<bool> {
        Ok(self
            .conn()
            .query_opt(
                sql!(
                    "SELECT 1 FROM turn_notices n JOIN games g ON g.id = n.game_id
                     WHERE g.platform = $1 AND n.due_at <= $2 LIMIT 1"
                ),
                params![platform, now],
                |_| Ok(()),
            )?
            .is_some())
    }
}

impl WriteTx<'_> {
    /// Replaces the settings of `player` with `settings`.
    pub fn set_user_settings(&self, player: PlayerId, settings: &UserSettings, now: Millis) -> Result<()> {
        let (from, to) = match settings.quiet {
            Some(q) => (Some(i64::from(q.from)), Some(i64::from(q.to))),
            None => (None, None),
        };
        self.conn().execute(
            sql!(
                "INSERT INTO user_settings (player_id, ",
                settings_columns!(),
                ", updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                 ON CONFLICT (player_id) DO UPDATE SET
                   theme = $2, coordinates = $3, bottom = $4, described = $5, turn_dm = $6,
                   quiet_from = $7, quiet_to = $8, zone = $9, updated_at = $10"
            ),
            params![
                player,
                settings.theme,
                settings.coordinates,
                settings.bottom,
                settings.described,
                settings.turn_dm,
                from,
                to,
                settings.zone,
                now
            ],
        )?;
        Ok(())
    }

    /// Queues a turn notice; one already queued for the same game and ply stays as it is.
    pub fn queue_turn_notice(&self, notice: &TurnNotice) -> Result<()> {
        self.conn().execute(
            sql!(
                "INSERT INTO turn_notices (game_id, ply, player_id, due_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id, ply) DO NOTHING"
            ),
            params![notice.game, i64::from(notice.ply), notice.player, notice.due_at],
        )?;
        Ok(())
    }

    /// Takes up to `limit` notices of `platform` due at `now`, oldest first, deleting them: each
    /// goes to one process (on PostgreSQL, notices another transaction holds are skipped).
    pub fn claim_turn_notices(&self, platform: &str, now: Millis, limit: u32) -> Result<Vec<TurnNotice>> {
        let mut claimed = self.conn().query(
            sql!(
                postgres: "DELETE FROM turn_notices WHERE (game_id, ply) IN (
                     SELECT n.game_id, n.ply FROM turn_notices n JOIN games g ON g.id = n.game_id
                     WHERE g.platform = $1 AND n.due_at <= $2
                     ORDER BY n.due_at, n.game_id LIMIT $3 FOR UPDATE OF n SKIP LOCKED)
                 RETURNING game_id, ply, player_id, due_at",
                sqlite: "DELETE FROM turn_notices WHERE (game_id, ply) IN (
                     SELECT n.game_id, n.ply FROM turn_notices n JOIN games g ON g.id = n.game_id
                     WHERE g.platform = $1 AND n.due_at <= $2
                     ORDER BY n.due_at, n.game_id LIMIT $3)
                 RETURNING game_id, ply, player_id, due_at",
            ),
            params![platform, now, limit],
            TurnNotice::from_row,
        )?;
        claimed.sort_by_key(|n| (n.due_at, n.game));
        Ok(claimed)
    }
}

#[cfg(test)]
mod tests {
    use super::{Bottom, QuietHours, TurnNotice, UserSettings};
    use crate::testing::{new_game, on_both_backends, TestDb};

    fn settings_start_at_their_defaults_and_are_kept_whole(db: &TestDb) {
        let mut store = db.store();
        let ann = store.write(|tx| tx.upsert_player("discord", "1", "ann", 0)).unwrap();
        let read = |store: &mut crate::Store| store.read(|tx| tx.user_settings(ann.id)).unwrap();
        assert_eq!(read(&mut store), UserSettings::default());
        assert_eq!(store.read(|tx| tx.user_settings_of("discord", "nobody")).unwrap(), UserSettings::default());
        let mine = UserSettings {
            theme: Some("blue".into()),
            coordinates: false,
            bottom: Bottom::Own,
            described: true,
            turn_dm: true,
            quiet: Some(QuietHours { from: 22 * 60, to: 7 * 60 }),
            zone: Some("Europe/Berlin".into()),
        };
        store.write(|tx| tx.set_user_settings(ann.id, &mine, 5)).unwrap();
        assert_eq!(read(&mut store), mine);
        assert_eq!(store.read(|tx| tx.user_settings_of("discord", "1")).unwrap(), mine);
        let back = UserSettings { quiet: None, zone: None, ..mine.clone() };
        store.write(|tx| tx.set_user_settings(ann.id, &back, 6)).unwrap();
        assert_eq!(read(&mut store), back);
    }

    fn a_due_notice_is_claimed_once_and_a_later_one_waits(db: &TestDb) {
        let mut store = db.store();
        let (game, bob) = store
            .write(|tx| {
                let white = tx.upsert_player("discord", "1", "ann", 0)?.id;
                let black = tx.upsert_player("discord", "2", "bob", 0)?.id;
                Ok((tx.create_game(&new_game("c1", white, black), 1)?.id, black))
            })
            .unwrap();
        let now = TurnNotice { game, ply: 1, player: bob, due_at: 100 };
        let later = TurnNotice { game, ply: 3, player: bob, due_at: 500 };
        store
            .write(|tx| {
                tx.queue_turn_notice(&now)?;
                tx.queue_turn_notice(&TurnNotice { due_at: 50, ..now })?;
                tx.queue_turn_notice(&later)
            })
            .unwrap();
        assert_eq!(store.read(|tx| tx.turn_notices_of(bob)).unwrap(), [now, later]);
        assert!(!store.read(|tx| tx.has_turn_notices("test", 99)).unwrap());
        assert!(store.read(|tx| tx.has_turn_notices("test", 100)).unwrap());
        assert!(!store.read(|tx| tx.has_turn_notices("matrix", 1000)).unwrap());
        assert_eq!(store.write(|tx| tx.claim_turn_notices("matrix", 1000, 10)).unwrap(), []);
        assert_eq!(store.write(|tx| tx.claim_turn_notices("test", 100, 10)).unwrap(), [now]);
        assert_eq!(store.write(|tx| tx.claim_turn_notices("test", 100, 10)).unwrap(), []);
        assert_eq!(store.write(|tx| tx.claim_turn_notices("test", 1000, 10)).unwrap(), [later]);
        assert_eq!(store.read(|tx| tx.turn_notices_of(bob)).unwrap(), []);
    }

    on_both_backends!(
        settings_start_at_their_defaults_and_are_kept_whole,
        a_due_notice_is_claimed_once_and_a_later_one_waits
    );
}
