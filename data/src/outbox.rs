//! The outbox: announcements that must reach their channel although nobody asked for them (a
//! game ended on time, a tournament's round opened), kept until they are posted.
//!
//! An announcement is queued in the transaction that makes it true, so the two commit together:
//! a process that dies after the commit leaves its announcements here, not lost. The writer holds
//! each row while it posts it and deletes it once posted; a row whose hold ran out (its writer
//! died, or posting failed and waits for its retry) is claimed by whichever process asks next.
//! A post is therefore made at least once; a writer that dies between posting and deleting
//! leaves it to be posted again, which networks with an idempotency key (Discord's nonce,
//! Matrix's transaction id) turn into once when the id is passed as that key.
//!
//! The body is the caller's: this crate stores it as text and never reads it.

use crate::db::{ReadTx, WriteTx};
use crate::error::Result;
use crate::sql::{params, sql, Row};
use crate::Millis;

/// The id of a queued announcement: unique in the database, never reused (even after its post
/// is deleted).
pub type PostId = i64;

/// A queued announcement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Post {
    pub id: PostId,
    pub channel: String,
    /// The announcement as its writer encoded it.
    pub body: String,
    /// Failed attempts to post it so far.
    pub attempts: u32,
    /// When it was queued.
    pub created_at: Millis,
}

impl Post {
    fn from_row(row: &Row<'_, '_>) -> Result<Post> {
        let attempts: i64 = row.get(3)?;
        Ok(Post {
            id: row.get(0)?,
            channel: row.get(1)?,
            body: row.get(2)?,
            attempts: attempts.max(0) as u32,
            created_at: row.get(4)?,
        })
    }
}

impl ReadTx<'_> {
    /// Whether [`WriteTx::claim_posts`] would find anything for `holder` at `now`: a read, so a
    /// process with nothing to post (the common case, every tick) writes nothing.
    pub fn has_posts_for(&self, platform: &str, holder: &str, now: Millis) -> Result<bool> {
        let found = self.conn().query_opt(
            sql!("SELECT 1 FROM outbox WHERE platform = $1 AND (holder = $2 OR held_until <= $3) LIMIT 1"),
            params![platform, holder, now],
            |_| Ok(()),
        )?;
        Ok(found.is_some())
    }

    /// How many announcements of `platform` wait to be posted, whoever holds them.
    pub fn posts_waiting(&self, platform: &str) -> Result<u64> {
        let n: i64 = self.conn().value(sql!("SELECT COUNT(*) FROM outbox WHERE platform = $1"), params![platform])?;
        Ok(n.max(0) as u64)
    }
}

impl WriteTx<'_> {
    /// Queues an announcement of `platform` in `channel`, held by `holder` until `held_until`
    /// (the writer posts it after its commit); its id.
    pub fn queue_post(
        &self,
        platform: &str,
        channel: &str,
        body: &str,
        holder: &str,
        now: Millis,
        held_until: Millis,
    ) -> Result<PostId> {
        self.conn().value(
            sql!(
                "INSERT INTO outbox (platform, channel, body, created_at, holder, held_until)
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id"
            ),
            params![platform, channel, body, now, holder, held_until],
        )
    }

    /// Up to `limit` announcements of `platform` for `holder` to post, oldest first: its own,
    /// and anyone's whose hold ran out by `now`; each is held by `holder` until `held_until`
    /// from now on. On PostgreSQL the rows are locked until the commit and skipped by every
    /// other process's claim meanwhile, so two processes never claim the same row at once.
    pub fn claim_posts(
        &self,
        platform: &str,
        holder: &str,
        now: Millis,
        held_until: Millis,
        limit: u32,
    ) -> Result<Vec<Post>> {
        let mut posts = self.conn().query(
            sql!(
                postgres: "UPDATE outbox SET holder = $2, held_until = $4 WHERE id IN (
                               SELECT id FROM outbox
                                WHERE platform = $1 AND (holder = $2 OR held_until <= $3)
                                ORDER BY id LIMIT $5 FOR UPDATE SKIP LOCKED)
                           RETURNING id, channel, body, attempts, created_at",
                sqlite: "UPDATE outbox SET holder = $2, held_until = $4 WHERE id IN (
                             SELECT id FROM outbox
                              WHERE platform = $1 AND (holder = $2 OR held_until <= $3)
                              ORDER BY id LIMIT $5)
                         RETURNING id, channel, body, attempts, created_at",
            ),
            params![platform, holder, now, held_until, i64::from(limit)],
            Post::from_row,
        )?;
        posts.sort_by_key(|p| p.id);
        Ok(posts)
    }

    /// Forgets a posted announcement; whether it was still there (another process that took
    /// it over may have posted and deleted it first).
    pub fn delete_post(&self, id: PostId) -> Result<bool> {
        Ok(self.conn().execute(sql!("DELETE FROM outbox WHERE id = $1"), params![id])? > 0)
    }

    /// Records a failed attempt to post `id`: it is nobody's until `retry_at`, then anyone's.
    pub fn post_failed(&self, id: PostId, retry_at: Millis) -> Result<()> {
        self.conn().execute(
            sql!("UPDATE outbox SET attempts = attempts + 1, holder = '', held_until = $2 WHERE id = $1"),
            params![id, retry_at],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
