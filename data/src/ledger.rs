//! The ledger of a chat adapter whose network does not keep it (Matrix): which events it has
//! answered, the reactions that stand for buttons, and its sync position. Kept with the games
//! it serves, so that every process of a deployment shares it and a backup restores it with
//! them.
//!
//! - An event is marked handled once answered ([`WriteTx::mark_handled`]); a second mark keeps
//!   the first time, so an event counts as handled from its first answer on.
//! - What was handled before a time can be forgotten ([`WriteTx::forget_handled_before`]): the
//!   adapter does so for events too old to come again as fresh.
//! - A reaction button is kept per platform, message and key ([`WriteTx::add_button`]); using one
//!   marks every button of its message used ([`WriteTx::use_buttons`]), so one answer to a
//!   question closes it.
//! - A sync position is kept per platform and account; a new one replaces the old.
//!
//! Platforms and accounts are names and ids: this crate knows nothing of the networks.

use crate::db::{ReadTx, WriteTx};
use crate::error::Result;
use crate::sql::{params, sql, Row};
use crate::Millis;

/// A reaction that stands for a button: what reacting with its key runs, and who may use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReactionButton {
    /// The host's command line (`/accept challenge:3`).
    pub command: String,
    /// The channel of the message it is on.
    pub channel: String,
    /// The users the message called on, and who asked.
    pub callers: Vec<String>,
    /// A question for the callers alone.
    pub private: bool,
    /// Whether a button of its message has been used.
    pub used: bool,
}

impl ReactionButton {
    fn from_row(row: &Row<'_, '_>) -> Result<ReactionButton> {
        let callers: String = row.get(2)?;
        Ok(ReactionButton {
            command: row.get(0)?,
            channel: row.get(1)?,
            callers: callers.lines().map(str::to_string).collect(),
            private: row.get(3)?,
            used: row.get(4)?,
        })
    }
}

impl ReadTx<'_> {
    /// Whether event `event_id` of `platform` has been answered.
    pub fn is_handled(&self, platform: &str, event_id: &str) -> Result<bool> {
        let found = self.conn().query_opt(
            sql!("SELECT 1 FROM handled_events WHERE platform = $1 AND event_id = $2"),
            params![platform, event_id],
            |_| Ok(()),
        )?;
        Ok(found.is_some())
    }

    /// The reaction button of `platform` on message `message_id` with key `key`.
    pub fn reaction_button(&self, platform: &str, message_id: &str, key: &str) -> Result<Option<ReactionButton>> {
        self.conn().query_opt(
            sql!(
                "SELECT command, channel, callers, private, used FROM reaction_buttons
                 WHERE platform = $1 AND message_id = $2 AND key = $3"
            ),
            params![platform, message_id, key],
            ReactionButton::from_row,
        )
    }

    /// The sync position `account` of `platform` stored last, if any.
    pub fn sync_position(&self, platform: &str, account: &str) -> Result<Option<String>> {
        self.conn().query_opt(
            sql!("SELECT token FROM sync_positions WHERE platform = $1 AND account = $2"),
            params![platform, account],
            |row| row.get(0),
        )
    }
}

impl WriteTx<'_> {
    /// Marks event `event_id` of `platform` answered at `now` (the first mark's time stays).
    pub fn mark_handled(&self, platform: &str, event_id: &str, now: Millis) -> Result<()> {
        self.conn().execute(
            sql!(
                "INSERT INTO handled_events (platform, event_id, handled_at) VALUES ($1, $2, $3)
                 ON CONFLICT (platform, event_id) DO NOTHING"
            ),
            params![platform, event_id, now],
        )?;
        Ok(())
    }

    /// Forgets the events of `platform` handled before `before`; how many.
    pub fn forget_handled_before(&self, platform: &str, before: Millis) -> Result<u64> {
        self.conn().execute(
            sql!("DELETE FROM handled_events WHERE platform = $1 AND handled_at < $2"),
            params![platform, before],
        )
    }

    /// Keeps a reaction button of `platform` (unused), replacing one with the same message and key.
    pub fn add_reaction_button(
        &self,
        platform: &str,
        message_id: &str,
        key: &str,
        button: &ReactionButton,
    ) -> Result<()> {
        let callers = button.callers.join("\n");
        self.conn().execute(
            sql!(
                "INSERT INTO reaction_buttons (platform, message_id, key, command, channel, callers, private, used)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, FALSE)
                 ON CONFLICT (platform, message_id, key) DO UPDATE SET command = excluded.command,
                     channel = excluded.channel, callers = excluded.callers, private = excluded.private,
                     used = FALSE"
            ),
            params![platform, message_id, key, button.command, button.channel, callers, button.private],
        )?;
        Ok(())
    }

    /// Marks every reaction button of `platform` on message `message_id` used.
    pub fn use_reaction_buttons(&self, platform: &str, message_id: &str) -> Result<()> {
        self.conn().execute(
            sql!("UPDATE reaction_buttons SET used = TRUE WHERE platform = $1 AND message_id = $2"),
            params![platform, message_id],
        )?;
        Ok(())
    }

    /// Stores `token` as the sync position of `account` of `platform`.
    pub fn save_sync_position(&self, platform: &str, account: &str, token: &str) -> Result<()> {
        self.conn().execute(
            sql!(
                "INSERT INTO sync_positions (platform, account, token) VALUES ($1, $2, $3)
                 ON CONFLICT (platform, account) DO UPDATE SET token = excluded.token"
            ),
            params![platform, account, token],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
