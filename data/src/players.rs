//! Players: one per chat platform and user id, with the name they were last seen under.

use rusqlite::{params, OptionalExtension, Row};

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
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

const COLUMNS: &str = "id, platform, user_id, display_name, created_at, updated_at";

impl Player {
    pub(crate) fn from_row(row: &Row<'_>) -> rusqlite::Result<Player> {
        Ok(Player {
            id: row.get("id")?,
            platform: row.get("platform")?,
            user_id: row.get("user_id")?,
            display_name: row.get("display_name")?,
            created_at: row.get("created_at")?,
            updated_at: row.get("updated_at")?,
        })
    }
}

impl ReadTx<'_> {
    pub fn player(&self, id: PlayerId) -> Result<Player> {
        self.conn()
            .prepare_cached(&format!("SELECT {COLUMNS} FROM players WHERE id = ?1"))?
            .query_row([id], Player::from_row)
            .optional()?
            .ok_or(Error::NotFound { what: "player", id })
    }

    pub fn find_player(&self, platform: &str, user_id: &str) -> Result<Option<Player>> {
        Ok(self
            .conn()
            .prepare_cached(&format!("SELECT {COLUMNS} FROM players WHERE platform = ?1 AND user_id = ?2"))?
            .query_row([platform, user_id], Player::from_row)
            .optional()?)
    }
}

impl WriteTx<'_> {
    /// The player with this platform and user id, created if new; the display name is updated
    /// if it changed (players rename themselves).
    pub fn upsert_player(&self, platform: &str, user_id: &str, display_name: &str, now: Millis) -> Result<Player> {
        self.conn()
            .prepare_cached(
                "INSERT INTO players (platform, user_id, display_name, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?4)
                 ON CONFLICT (platform, user_id) DO UPDATE
                 SET display_name = excluded.display_name, updated_at = excluded.updated_at
                 WHERE display_name <> excluded.display_name",
            )?
            .execute(params![platform, user_id, display_name, now])?;
        Ok(self.find_player(platform, user_id)?.expect("the player was just written"))
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::temp_store;
    use crate::Error;

    #[test]
    fn a_player_is_found_by_platform_and_user_id_and_keeps_their_latest_name() {
        let (_dir, mut store) = temp_store();
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
}
