//! The bot's own record, beside the SDK's stores: which Matrix events it has answered, and the
//! reactions that stand for buttons. Both outlive a restart, which is what makes an event never
//! answered twice and a reaction button work (once) after the bot comes back.
//!
//! An event is marked handled after its answer is sent; a crash in between replays it, and then
//! the host's own guard holds: a move carries the event id as its request id and lands once.
//! Beside them, the bot's own sync position (see `position`): where the next start syncs from.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};

/// A reaction button: what reacting with its key runs, and who may use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    /// The host's command line (`/accept challenge:3`), as its `Display` wrote it.
    pub command: String,
    /// The channel of the message it is on (a thread's answers stay in the thread).
    pub channel: String,
    /// Who the message called on, and who asked: their reactions get answers, even refusals;
    /// everyone else's are ignored unless the host accepts them (an open challenge).
    pub callers: Vec<String>,
    /// A question for the asker alone (a resignation to confirm, a Grolman turn to choose):
    /// only the callers' reactions count, even where the host would take someone else's.
    pub private: bool,
    /// Whether a button of its message has been used.
    pub used: bool,
}

pub struct Ledger {
    db: Mutex<Connection>,
}

#[derive(Debug, thiserror::Error)]
#[error("the Matrix ledger: {0}")]
pub struct LedgerError(#[from] rusqlite::Error);

impl Ledger {
    pub fn open(path: &Path) -> Result<Ledger, LedgerError> {
        let db = Connection::open(path)?;
        db.execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE IF NOT EXISTS handled (event_id TEXT PRIMARY KEY, at INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS buttons (
                 message_id TEXT NOT NULL,
                 key        TEXT NOT NULL,
                 command    TEXT NOT NULL,
                 channel    TEXT NOT NULL,
                 callers    TEXT NOT NULL,
                 private    INTEGER NOT NULL DEFAULT 0,
                 used       INTEGER NOT NULL DEFAULT 0,
                 PRIMARY KEY (message_id, key)
             );
             CREATE TABLE IF NOT EXISTS position (
                 id    INTEGER PRIMARY KEY CHECK (id = 1),
                 token TEXT NOT NULL
             );",
        )?;
        Ok(Ledger { db: Mutex::new(db) })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn is_handled(&self, event_id: &str) -> Result<bool, LedgerError> {
        let found =
            self.db().query_row("SELECT 1 FROM handled WHERE event_id = ?1", [event_id], |_| Ok(())).optional()?;
        Ok(found.is_some())
    }

    pub fn mark_handled(&self, event_id: &str, now_ms: i64) -> Result<(), LedgerError> {
        self.db().execute("INSERT OR IGNORE INTO handled (event_id, at) VALUES (?1, ?2)", params![event_id, now_ms])?;
        Ok(())
    }

    /// Forgets the events handled before `ms` (the bot's clock, as [`Ledger::mark_handled`]
    /// got it): events that old are stale and never acted on, so their record is not needed.
    pub fn forget_handled_before(&self, ms: i64) -> Result<(), LedgerError> {
        self.db().execute("DELETE FROM handled WHERE at < ?1", [ms])?;
        Ok(())
    }

    /// The sync token up to which every event has been dealt with (see `position`), if one
    /// was ever stored.
    pub fn position(&self) -> Result<Option<String>, LedgerError> {
        Ok(self.db().query_row("SELECT token FROM position WHERE id = 1", [], |row| row.get(0)).optional()?)
    }

    pub fn save_position(&self, token: &str) -> Result<(), LedgerError> {
        self.db().execute(
            "INSERT INTO position (id, token) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET token = excluded.token",
            [token],
        )?;
        Ok(())
    }

    pub fn add_button(&self, message_id: &str, key: &str, button: &Button) -> Result<(), LedgerError> {
        self.db().execute(
            "INSERT OR REPLACE INTO buttons (message_id, key, command, channel, callers, private, used)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0)",
            params![message_id, key, button.command, button.channel, button.callers.join("\n"), button.private],
        )?;
        Ok(())
    }

    pub fn button(&self, message_id: &str, key: &str) -> Result<Option<Button>, LedgerError> {
        let found = self
            .db()
            .query_row(
                "SELECT command, channel, callers, private, used FROM buttons WHERE message_id = ?1 AND key = ?2",
                params![message_id, key],
                |row| {
                    let callers: String = row.get(2)?;
                    Ok(Button {
                        command: row.get(0)?,
                        channel: row.get(1)?,
                        callers: callers.lines().map(str::to_string).collect(),
                        private: row.get(3)?,
                        used: row.get(4)?,
                    })
                },
            )
            .optional()?;
        Ok(found)
    }

    /// Marks every button of a message used: one answer to a question closes it.
    pub fn use_buttons(&self, message_id: &str) -> Result<(), LedgerError> {
        self.db().execute("UPDATE buttons SET used = 1 WHERE message_id = ?1", [message_id])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handled_events_and_used_buttons_outlive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite3");
        let button = Button {
            command: "/accept challenge:3".into(),
            channel: "!r:x".into(),
            callers: vec!["@bob:x".into()],
            private: false,
            used: false,
        };
        {
            let ledger = Ledger::open(&path).unwrap();
            assert!(!ledger.is_handled("$a").unwrap());
            ledger.mark_handled("$a", 1).unwrap();
            ledger.mark_handled("$a", 2).unwrap();
            ledger.add_button("$m", "✅", &button).unwrap();
            ledger
                .add_button("$m", "❌", &Button { command: "/decline challenge:3".into(), ..button.clone() })
                .unwrap();
            ledger.use_buttons("$m").unwrap();
        }
        let ledger = Ledger::open(&path).unwrap();
        assert!(ledger.is_handled("$a").unwrap() && !ledger.is_handled("$b").unwrap());
        ledger.forget_handled_before(1).unwrap();
        assert!(ledger.is_handled("$a").unwrap());
        ledger.forget_handled_before(2).unwrap();
        assert!(!ledger.is_handled("$a").unwrap());
        assert_eq!(ledger.button("$m", "✅").unwrap(), Some(Button { used: true, ..button }));
        assert!(ledger.button("$m", "❌").unwrap().unwrap().used);
        assert_eq!(ledger.button("$m", "🎉").unwrap(), None);
        assert_eq!(ledger.position().unwrap(), None);
        ledger.save_position("s1").unwrap();
        ledger.save_position("s2").unwrap();
        drop(ledger);
        assert_eq!(Ledger::open(&path).unwrap().position().unwrap().as_deref(), Some("s2"));
    }
}
