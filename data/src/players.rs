//! Players: one per chat platform and user id, with the name they were last seen under.

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
use crate::sql::{params, sql, Row};
use crate::{Millis, PlayerId};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    /// The chat platform, e.g. `discord` or `console`.
    pub platform: String,
    /// The platform's id of the user (text, so no platform's id format is assumed).
    pub user_id: String,
    pub display_name: String,
    pub created_at: Millis,
    pub updated_at: Millis,
}

/// The columns `Player::from_row` reads, in its order.
macro_rules! player_columns {
    () => {
        "id, platform, user_id, display_name, created_at, updated_at"
    };
}

impl Player {
    /// From the row's columns `first..first + 6`, as [`player_columns!`] lists them.
    pub(crate) fn from_row_at(row: &Row<'_, '_>, first: usize) -> Result<Player> {
        Ok(Player {
            id: row.get(first)?,
            platform: row.get(first + 1)?,
            user_id: row.get(first + 2)?,
            display_name: row.get(first + 3)?,
            created_at: row.get(first + 4)?,
            updated_at: row.get(first + 5)?,
        })
    }

    fn from_row(row: &Row<'_, '_>) -> Result<Player> {
        Player::from_row_at(row, 0)
    }
}

impl ReadTx<'_> {
    pub fn player(&self, id: PlayerId) -> Result<Player> {
        self.conn()
            .query_opt(
                sql!("SELECT ", player_columns!(), " FROM players WHERE id = $1"),
                params![id],
                Player::from_row,
            )?
            .ok_or(Error::NotFound { what: "player", id })
    }

    pub fn find_player(&self, platform: &str, user_id: &str) -> Result<Option<Player>> {
        self.conn().query_opt(
            sql!("SELECT ", player_columns!(), " FROM players WHERE platform = $1 AND user_id = $2"),
            params![platform, user_id],
            Player::from_row,
        )
    }
}

impl WriteTx<'_> {
    /// The player with this platform and user id, created if new; the display name is updated
    /// if it changed (players rename themselves).
    pub fn upsert_player(&self, platform: &str, user_id: &str, display_name: &str, now: Millis) -> Result<Player> {
        self.conn().execute(
            sql!(
                "INSERT INTO players (platform, user_id, display_name, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $4)
                 ON CONFLICT (platform, user_id) DO UPDATE
                 SET display_name = excluded.display_name, updated_at = excluded.updated_at
                 WHERE players.display_name <> excluded.display_name"
            ),
            params![platform, user_id, display_name, now],
        )?;
        self.find_player(platform, user_id)?.ok_or(Error::NoRow)
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{on_both_backends, TestDb};
    use crate::Error;

    fn a_player_is_found_by_platform_and_user_id_and_keeps_their_latest_name(db: &TestDb) {
        let mut store = db.store();
        let first = store.write(|tx| tx.upsert_player("discord", "42", "Ann", 10)).unwrap();
        let again = store.write(|tx| tx.upsert_player("discord", "42", "Ann", 20)).unwrap();
        assert_eq!(again, first, "an unchanged name leaves the row alone");

        let renamed = store.write(|tx| tx.upsert_player("discord", "42", "Annie", 30)).unwrap();
        assert_eq!(renamed.id, first.id);
        assert_eq!(renamed.display_name, "Annie");
        assert_eq!((renamed.created_at, renamed.updated_at), (10, 30));

        let other_platform = store.write(|tx| tx.upsert_player("console", "42", "Ann", 40)).unwrap();
        assert_ne!(other_platform.id, first.id);

        store
            .read(|tx| {
                assert_eq!(tx.find_player("discord", "42")?.unwrap(), renamed);
                assert_eq!(tx.player(other_platform.id)?, other_platform);
                assert!(tx.find_player("discord", "43")?.is_none());
                assert!(matches!(tx.player(999), Err(Error::NotFound { what: "player", id: 999 })));
                Ok(())
            })
            .unwrap();
    }

    on_both_backends!(a_player_is_found_by_platform_and_user_id_and_keeps_their_latest_name);
}
