//! The bot's own record: which Matrix events it has answered, the reactions that stand for
//! buttons, and its sync position (see `position`). Kept in Chimera's database beside the games
//! (data's ledger, migrated on SQLite and PostgreSQL like the rest), so that every Matrix
//! process of a deployment shares it and a restore from backup brings it back with the games.
//! Both outlive a restart, which is what makes an event never answered twice and a reaction
//! button work (once) after the bot comes back.
//!
//! An event is marked handled after its answer is sent; a crash in between replays it, and then
//! the host's own guard holds: a move carries the event id as its request id and lands once.
//! The sync position is this account's and device's: another process (another device) keeps
//! its own.
//!
//! A store directory from before the ledger moved holds it in `chimera-ledger.sqlite3`: the
//! first start imports it ([`Ledger::import`]) and renames the file, so buttons shown before the
//! upgrade keep working.

use std::path::Path;

use data::AsyncStore;

pub use data::ReactionButton as Button;

use super::PLATFORM;

/// The ledger of one Matrix account and device. Cheap to clone.
#[derive(Clone)]
pub struct Ledger {
    store: AsyncStore,
    /// Whose sync position it keeps: the user id and the device id.
    account: String,
}

#[derive(Debug, thiserror::Error)]
#[error("the Matrix ledger: {0}")]
pub struct LedgerError(#[from] data::Error);

impl Ledger {
    pub fn new(store: AsyncStore, account: String) -> Ledger {
        Ledger { store, account }
    }

    pub async fn is_handled(&self, event_id: &str) -> Result<bool, LedgerError> {
        let event_id = event_id.to_string();
        Ok(self.store.read(move |tx| tx.is_handled(PLATFORM, &event_id)).await?)
    }

    pub async fn mark_handled(&self, event_id: &str, now_ms: i64) -> Result<(), LedgerError> {
        let event_id = event_id.to_string();
        Ok(self.store.write(move |tx| tx.mark_handled(PLATFORM, &event_id, now_ms)).await?)
    }

    /// Forgets the events handled before `ms` (the bot's clock, as [`Ledger::mark_handled`]
    /// got it): events that old are stale and never acted on, so their record is not needed.
    pub async fn forget_handled_before(&self, ms: i64) -> Result<(), LedgerError> {
        self.store.write(move |tx| tx.forget_handled_before(PLATFORM, ms)).await?;
        Ok(())
    }

    /// The sync token up to which every event has been dealt with (see `position`), if one
    /// was ever stored.
    pub async fn position(&self) -> Result<Option<String>, LedgerError> {
        let account = self.account.clone();
        Ok(self.store.read(move |tx| tx.sync_position(PLATFORM, &account)).await?)
    }

    pub async fn save_position(&self, token: &str) -> Result<(), LedgerError> {
        let (account, token) = (self.account.clone(), token.to_string());
        Ok(self.store.write(move |tx| tx.save_sync_position(PLATFORM, &account, &token)).await?)
    }

    pub async fn add_button(&self, message_id: &str, key: &str, button: &Button) -> Result<(), LedgerError> {
        let (message_id, key, button) = (message_id.to_string(), key.to_string(), button.clone());
        Ok(self.store.write(move |tx| tx.add_reaction_button(PLATFORM, &message_id, &key, &button)).await?)
    }

    pub async fn button(&self, message_id: &str, key: &str) -> Result<Option<Button>, LedgerError> {
        let (message_id, key) = (message_id.to_string(), key.to_string());
        Ok(self.store.read(move |tx| tx.reaction_button(PLATFORM, &message_id, &key)).await?)
    }

    /// Marks every button of a message used: one answer to a question closes it.
    pub async fn use_buttons(&self, message_id: &str) -> Result<(), LedgerError> {
        let message_id = message_id.to_string();
        Ok(self.store.write(move |tx| tx.use_reaction_buttons(PLATFORM, &message_id)).await?)
    }

    /// Imports the ledger an older Chimera kept in a file of its own at `path`, if there is one,
    /// then renames the file (`.imported`), so it is imported once. What the database already
    /// holds stays: its events handled, its newer position.
    pub async fn import(&self, path: &Path) -> anyhow::Result<()> {
        if !path.exists() {
            return Ok(());
        }
        let old = read_old(path)?;
        let account = self.account.clone();
        let (handled, buttons, position) = (old.handled.len(), old.buttons.len(), old.position.is_some());
        self.store
            .write(move |tx| {
                for (event_id, at) in &old.handled {
                    tx.mark_handled(PLATFORM, event_id, *at)?;
                }
                for (message_id, key, button) in &old.buttons {
                    if tx.reaction_button(PLATFORM, message_id, key)?.is_none() {
                        tx.add_reaction_button(PLATFORM, message_id, key, button)?;
                        if button.used {
                            tx.use_reaction_buttons(PLATFORM, message_id)?;
                        }
                    }
                }
                if let Some(token) = &old.position {
                    if tx.sync_position(PLATFORM, &account)?.is_none() {
                        tx.save_sync_position(PLATFORM, &account, token)?;
                    }
                }
                Ok(())
            })
            .await?;
        std::fs::rename(path, path.with_extension("sqlite3.imported"))?;
        tracing::info!(handled, buttons, position, "imported the ledger of {}", path.display());
        Ok(())
    }
}

/// What an older Chimera's ledger file holds.
struct Old {
    handled: Vec<(String, i64)>,
    buttons: Vec<(String, String, Button)>,
    position: Option<String>,
}

fn read_old(path: &Path) -> rusqlite::Result<Old> {
    use rusqlite::OptionalExtension as _;
    let db = rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let handled = db
        .prepare("SELECT event_id, at FROM handled")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let buttons = db
        .prepare("SELECT message_id, key, command, channel, callers, private, used FROM buttons")?
        .query_map([], |row| {
            let callers: String = row.get(4)?;
            let button = Button {
                command: row.get(2)?,
                channel: row.get(3)?,
                callers: callers.lines().map(str::to_string).collect(),
                private: row.get(5)?,
                used: row.get(6)?,
            };
            Ok((row.get(0)?, row.get(1)?, button))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let position = db.query_row("SELECT token FROM position WHERE id = 1", [], |row| row.get(0)).optional()?;
    Ok(Old { handled, buttons, position })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ledger file as an older Chimera wrote it.
    const OLD_SCHEMA: &str = "CREATE TABLE handled (event_id TEXT PRIMARY KEY, at INTEGER NOT NULL);
         CREATE TABLE buttons (message_id TEXT NOT NULL, key TEXT NOT NULL, command TEXT NOT NULL,
             channel TEXT NOT NULL, callers TEXT NOT NULL, private INTEGER NOT NULL DEFAULT 0,
             used INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (message_id, key));
         CREATE TABLE position (id INTEGER PRIMARY KEY CHECK (id = 1), token TEXT NOT NULL);
         INSERT INTO handled VALUES ('$a', 5);
         INSERT INTO buttons VALUES ('$m', '✅', '/accept challenge:3', '!r:x', '@bob:x\n@ann:x', 0, 1);
         INSERT INTO position VALUES (1, 's7');";

    #[tokio::test]
    async fn an_older_ledger_file_is_imported_once() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("chimera-ledger.sqlite3");
        rusqlite::Connection::open(&file).unwrap().execute_batch(OLD_SCHEMA).unwrap();
        let store = AsyncStore::open(dir.path().join("chimera.db")).await.unwrap();
        let ledger = Ledger::new(store, "@bot:x/DEV".into());
        ledger.import(&file).await.unwrap();
        assert!(!file.exists(), "renamed once imported");
        ledger.import(&file).await.unwrap();
        assert!(ledger.is_handled("$a").await.unwrap());
        assert_eq!(ledger.position().await.unwrap().as_deref(), Some("s7"));
        let button = ledger.button("$m", "✅").await.unwrap().unwrap();
        assert_eq!(button.command, "/accept challenge:3");
        assert_eq!(button.callers, ["@bob:x", "@ann:x"]);
        assert!(button.used && !button.private);
    }
}
