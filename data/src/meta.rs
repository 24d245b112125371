//! The host's own facts that outlive a process: named integers (its heartbeat), and the one
//! change they call for, moving every running clock past a stretch of downtime.

use crate::db::{ReadTx, WriteTx};
use crate::error::Result;
use crate::sql::{params, sql};
use crate::Millis;

impl ReadTx<'_> {
    /// The integer stored under `key`, if any.
    pub fn meta(&self, key: &str) -> Result<Option<i64>> {
        self.conn().query_opt(sql!("SELECT value FROM meta WHERE key = $1"), params![key], |row| row.get(0))
    }
}

impl WriteTx<'_> {
    pub fn set_meta(&self, key: &str, value: i64) -> Result<()> {
        self.conn().execute(
            sql!(
                "INSERT INTO meta (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            ),
            params![key, value],
        )?;
        Ok(())
    }

    /// Moves the deadline of every active game with a running clock `by` milliseconds later
    /// (time nobody could move in); returns how many games it touched.
    pub fn shift_deadlines(&self, by: Millis, now: Millis) -> Result<usize> {
        let shifted = self.conn().execute(
            sql!(
                "UPDATE games SET deadline = deadline + $1, updated_at = $2
                 WHERE state = 'active' AND deadline IS NOT NULL"
            ),
            params![by, now],
        )?;
        Ok(shifted as usize)
    }

    /// Like [`WriteTx::shift_deadlines`], for the games of one platform only: each platform's
    /// downtime is its own (Matrix down while Discord serves moves Matrix clocks only).
    pub fn shift_deadlines_on(&self, platform: &str, by: Millis, now: Millis) -> Result<usize> {
        let shifted = self.conn().execute(
            sql!(
                "UPDATE games SET deadline = deadline + $1, updated_at = $2
                 WHERE state = 'active' AND deadline IS NOT NULL AND platform = $3"
            ),
            params![by, now, platform],
        )?;
        Ok(shifted as usize)
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{new_game, on_both_backends, store_with_game, two_players, TestDb};

    fn meta_values_are_kept_and_replaced(db: &TestDb) {
        let (mut store, ..) = store_with_game(db);
        assert_eq!(store.read(|tx| tx.meta("last_alive")).unwrap(), None);
        store.write(|tx| tx.set_meta("last_alive", 10)).unwrap();
        store.write(|tx| tx.set_meta("last_alive", 25)).unwrap();
        assert_eq!(store.read(|tx| tx.meta("last_alive")).unwrap(), Some(25));
    }

    fn challenge_numbers_are_never_reused(db: &TestDb) {
        let (mut store, ..) = store_with_game(db);
        let challenge = |tx: &crate::WriteTx<'_>| {
            let (white, _) = two_players(tx);
            let new = crate::NewChallenge {
                platform: "test".into(),
                server: None,
                channel: "c1".into(),
                challenger: white,
                challenged: None,
                variant: "chess".into(),
                color: crate::ColorChoice::Random,
                time_control: None,
                rated: false,
                expires_at: 100,
            };
            tx.create_challenge(&new, 0)
        };
        let first = store.write(challenge).unwrap();
        store.write(|tx| tx.expire_challenges_on("test", 100)).unwrap();
        let second = store.write(challenge).unwrap();
        assert!(second.id > first.id, "{} after {}", second.id, first.id);
    }

    fn a_shift_moves_running_clocks_only(db: &TestDb) {
        let (mut store, game, ..) = store_with_game(db);
        let unclocked = store
            .write(|tx| {
                let (white, black) = two_players(tx);
                let new = crate::NewGame { deadline: None, time_control: None, ..new_game("c2", white, black) };
                Ok(tx.create_game(&new, 0)?.id)
            })
            .unwrap();
        assert_eq!(store.write(|tx| tx.shift_deadlines(5_000, 7)).unwrap(), 1);
        store
            .read(|tx| {
                assert_eq!(tx.game(game)?.deadline, Some(605_000));
                assert_eq!(tx.game(unclocked)?.deadline, None);
                Ok(())
            })
            .unwrap();
    }

    on_both_backends!(
        meta_values_are_kept_and_replaced,
        challenge_numbers_are_never_reused,
        a_shift_moves_running_clocks_only
    );
}
