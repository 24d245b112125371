//! Leases and reminders: the primitives that let several processes share one database's
//! scheduled work, each piece done by one of them (see "Several processes" in the crate docs).
//!
//! A lease is a named piece of work held by one holder until a time; anyone may take it over
//! once that time has passed, so a holder that died gives its work up by itself. Times are the
//! caller's, like every other time in this crate: leases assume the processes' clocks agree to
//! well within a lease's length.

use crate::db::{ReadTx, WriteTx};
use crate::error::Result;
use crate::sql::{params, sql, Row};
use crate::{GameId, Millis};

/// Who holds a named piece of work, and until when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub name: String,
    /// Whoever took it: a name unique to the process (host name, process id, start time).
    pub holder: String,
    /// Another holder may take it from this moment on.
    pub expires_at: Millis,
}

impl Lease {
    fn from_row(row: &Row<'_, '_>) -> Result<Lease> {
        Ok(Lease { name: row.get(0)?, holder: row.get(1)?, expires_at: row.get(2)? })
    }
}

impl ReadTx<'_> {
    /// The lease `name`, expired or not, if anyone ever took it.
    pub fn lease(&self, name: &str) -> Result<Option<Lease>> {
        self.conn().query_opt(
            sql!("SELECT name, holder, expires_at FROM leases WHERE name = $1"),
            params![name],
            Lease::from_row,
        )
    }
}

impl WriteTx<'_> {
    /// Takes the lease `name` for `holder` until `expires_at`, or renews it if `holder` has it
    /// already; `None` (and nothing changed) while someone else holds it at `now`.
    ///
    /// Two processes asking at once cannot both get it: SQLite has one writer, and on
    /// PostgreSQL the second waits for the first's row and then conflicts (its transaction is
    /// run again and sees the first's lease).
    pub fn acquire_lease(&self, name: &str, holder: &str, now: Millis, expires_at: Millis) -> Result<Option<Lease>> {
        self.conn().query_opt(
            sql!(
                "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
                 ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                 WHERE leases.holder = excluded.holder OR leases.expires_at <= $4
                 RETURNING name, holder, expires_at"
            ),
            params![name, holder, expires_at, now],
            Lease::from_row,
        )
    }

    /// Gives the lease up, if `holder` holds it (a lease taken over since is left alone);
    /// whether it did.
    pub fn release_lease(&self, name: &str, holder: &str) -> Result<bool> {
        let released =
            self.conn().execute(sql!("DELETE FROM leases WHERE name = $1 AND holder = $2"), params![name, holder])?;
        Ok(released > 0)
    }

    /// Claims the reminder of `game`'s player to move for the turn that ends at `deadline`:
    /// `true` once per game and deadline, to whichever process asks first (the claim commits
    /// with the caller's transaction); `false` for everyone after.
    pub fn claim_reminder(&self, game: GameId, deadline: Millis) -> Result<bool> {
        let claimed = self.conn().query_opt(
            sql!(
                "INSERT INTO reminders (game_id, deadline) VALUES ($1, $2)
                 ON CONFLICT (game_id) DO UPDATE SET deadline = excluded.deadline
                 WHERE reminders.deadline <> excluded.deadline
                 RETURNING game_id"
            ),
            params![game, deadline],
            |_| Ok(()),
        )?;
        Ok(claimed.is_some())
    }
}
