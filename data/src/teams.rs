//! Team games decided by vote: which games are team games (with their vote window), which
//! challenges offer one, and the votes cast in each window. The host decides who may vote and when a window closes; this keeps
//! the rules that make a window's result well defined and durable:
//!
//! - a vote is stored before anyone is told of it, and only for the window that is open: the
//!   game active, with exactly the plies the voter saw ([`Error::PlyConflict`] otherwise), so a
//!   vote that arrives after its window was resolved never counts for the next one;
//! - one standing vote per voter and window: voting again replaces it, and is then the voter's
//!   latest vote (a vote for the same move again changes nothing);
//! - the order of the votes of a window is kept as a count (`seq`), so the [`Tally`] is total:
//!   most votes first, and of moves with as many votes, the one whose earliest standing vote was
//!   cast first.

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
use crate::sql::{params, sql, Row};
use crate::{ChallengeId, GameId, Millis, PlayerId};

/// A voter's standing vote in one window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vote {
    pub game: GameId,
    /// The plies played before the move voted for: the window's number.
    pub ply: u32,
    pub voter: PlayerId,
    /// Coordinate form, as the rules crate writes it (`e2e4`).
    pub coord: String,
    pub san: String,
    /// Its place among the votes of the window, from 1.
    pub seq: i64,
    pub voted_at: Millis,
}

impl Vote {
    fn from_row(row: &Row<'_, '_>) -> Result<Vote> {
        Ok(Vote {
            game: row.get(0)?,
            ply: row.get(1)?,
            voter: row.get(2)?,
            coord: row.get(3)?,
            san: row.get(4)?,
            seq: row.get(5)?,
            voted_at: row.get(6)?,
        })
    }
}

/// One move's standing votes in a window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub coord: String,
    pub san: String,
    pub votes: u32,
    /// The `seq` of its earliest standing vote: what breaks a tie.
    pub first: i64,
}

impl ReadTx<'_> {
    /// The vote window of a team game; `None` for any other game.
    pub fn vote_window(&self, game: GameId) -> Result<Option<Millis>> {
        self.conn()
            .query_opt(sql!("SELECT window_ms FROM team_games WHERE game_id = $1"), params![game], |row| row.get(0))
    }

    /// The vote window of the game a team challenge offers; `None` for any other challenge.
    pub fn team_challenge_window(&self, challenge: ChallengeId) -> Result<Option<Millis>> {
        self.conn().query_opt(
            sql!("SELECT window_ms FROM team_challenges WHERE challenge_id = $1"),
            params![challenge],
            |row| row.get(0),
        )
    }

    /// The standing votes of the window after `ply` plies of `game`, one line per move: most
    /// votes first, then the move whose earliest standing vote came first. The first line, if
    /// any, is the move the window plays.
    pub fn tally(&self, game: GameId, ply: u32) -> Result<Vec<Tally>> {
        self.conn().query(
            sql!(
                "SELECT coord, san, count(*), min(seq) FROM votes
                 WHERE game_id = $1 AND ply = $2
                 GROUP BY coord, san
                 ORDER BY count(*) DESC, min(seq)"
            ),
            params![game, ply],
            |row| Ok(Tally { coord: row.get(0)?, san: row.get(1)?, votes: row.get(2)?, first: row.get(3)? }),
        )
    }

    /// `voter`'s standing vote in the window after `ply` plies of `game`, if they voted.
    pub fn vote_of(&self, game: GameId, ply: u32, voter: PlayerId) -> Result<Option<Vote>> {
        self.conn().query_opt(
            sql!(
                "SELECT game_id, ply, voter_id, coord, san, seq, voted_at FROM votes
                 WHERE game_id = $1 AND ply = $2 AND voter_id = $3"
            ),
            params![game, ply, voter],
            Vote::from_row,
        )
    }
}

impl WriteTx<'_> {
    /// Makes `game` (just created, in this transaction) a team game whose windows last
    /// `window_ms`.
    pub fn make_team_game(&self, game: GameId, window_ms: Millis) -> Result<()> {
        self.conn()
            .execute(sql!("INSERT INTO team_games (game_id, window_ms) VALUES ($1, $2)"), params![game, window_ms])?;
        Ok(())
    }

    /// Makes `challenge` (just created, in this transaction) a team challenge: the game it
    /// starts gets windows of `window_ms`.
    pub fn make_team_challenge(&self, challenge: ChallengeId, window_ms: Millis) -> Result<()> {
        self.conn().execute(
            sql!("INSERT INTO team_challenges (challenge_id, window_ms) VALUES ($1, $2)"),
            params![challenge, window_ms],
        )?;
        Ok(())
    }

    /// Casts `voter`'s vote for `coord` (`san`) in the window after `ply` plies of the team game
    /// `game`, replacing their earlier vote of that window. The game must be an active team game
    /// (`NotFound`, `GameNotActive`) with exactly `ply` plies (`PlyConflict`: the window was
    /// resolved meanwhile). Returns the standing vote.
    pub fn cast_vote(
        &self,
        game: GameId,
        ply: u32,
        voter: PlayerId,
        coord: &str,
        san: &str,
        now: Millis,
    ) -> Result<Vote> {
        self.active(game)?;
        if self.vote_window(game)?.is_none() {
            return Err(Error::NotFound { what: "team game", id: game });
        }
        let actual = self.ply_count(game)?;
        if actual != ply {
            return Err(Error::PlyConflict { game_id: game, expected: ply, actual });
        }
        self.conn().execute(
            sql!(
                "INSERT INTO votes (game_id, ply, voter_id, coord, san, seq, voted_at)
                 VALUES ($1, $2, $3, $4, $5,
                     (SELECT coalesce(max(seq), 0) + 1 FROM votes WHERE game_id = $1 AND ply = $2), $6)
                 ON CONFLICT (game_id, ply, voter_id) DO UPDATE
                 SET coord = excluded.coord, san = excluded.san, seq = excluded.seq, voted_at = excluded.voted_at
                 WHERE votes.coord <> excluded.coord"
            ),
            params![game, ply, voter, coord, san, now],
        )?;
        self.vote_of(game, ply, voter)?.ok_or(Error::NoRow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{new_game, nth_move, on_both_backends, two_players, TestDb};
    use crate::GameState;

    fn votes_are_counted_replaced_and_tied_by_the_earliest(db: &TestDb) {
        let mut store = db.store();
        let (game, voters, plain) = store
            .write(|tx| {
                let (white, black) = two_players(tx);
                let game = tx.create_game(&new_game("team", white, black), 0)?.id;
                tx.make_team_game(game, 30_000)?;
                let plain = tx.create_game(&new_game("plain", white, black), 0)?.id;
                let voters = ["ann", "bo", "cy", "di"]
                    .map(|name| tx.upsert_player("test", name, name, 0).map(|p| p.id).unwrap());
                Ok((game, voters, plain))
            })
            .unwrap();
        let [ann, bo, cy, di] = voters;
        let cast = |store: &mut crate::Store, voter, coord: &'static str, at| {
            store.write(move |tx| tx.cast_vote(game, 0, voter, coord, coord, at)).unwrap()
        };
        assert_eq!(store.read(move |tx| tx.game_record(game)).unwrap().vote_window, Some(30_000));
        assert_eq!(store.read(move |tx| tx.game_record(plain)).unwrap().vote_window, None);
        assert_eq!(store.read(move |tx| tx.tally(game, 0)).unwrap(), vec![]);

        // All at one instant: the order they were cast in still breaks the tie.
        assert_eq!(cast(&mut store, ann, "d2d4", 5).seq, 1);
        cast(&mut store, bo, "e2e4", 5);
        let tally = store.read(move |tx| tx.tally(game, 0)).unwrap();
        let line = |coord: &str, votes, first| Tally { coord: coord.into(), san: coord.into(), votes, first };
        assert_eq!(tally, vec![line("d2d4", 1, 1), line("e2e4", 1, 2)], "a tie goes to the earliest vote");

        // Ann votes again for the same move: nothing changes, her vote keeps its place.
        assert_eq!(cast(&mut store, ann, "d2d4", 6).seq, 1);
        // Ann changes her mind: her vote is cast anew, after Bo's.
        let changed = cast(&mut store, ann, "e2e4", 7);
        assert_eq!((changed.seq, changed.voted_at), (3, 7));
        cast(&mut store, cy, "d2d4", 8);
        let tally = store.read(move |tx| tx.tally(game, 0)).unwrap();
        assert_eq!(tally, vec![line("e2e4", 2, 2), line("d2d4", 1, 4)]);
        cast(&mut store, di, "d2d4", 9);
        let tally = store.read(move |tx| tx.tally(game, 0)).unwrap();
        assert_eq!(tally, vec![line("e2e4", 2, 2), line("d2d4", 2, 4)], "Bo's e4 came before Cy's d4");
        assert_eq!(store.read(move |tx| tx.vote_of(game, 0, di)).unwrap().map(|v| v.coord), Some("d2d4".into()));

        // A vote for a window that is over (a move was played meanwhile) is refused.
        store.write(move |tx| tx.append_move(game, &nth_move(0, Some(60_000)), 10)).unwrap();
        let late = store.write(move |tx| tx.cast_vote(game, 0, cy, "g1f3", "Nf3", 11));
        assert!(matches!(late, Err(Error::PlyConflict { expected: 0, actual: 1, .. })), "{late:?}");
        // A game that is not a team game takes no votes.
        let refused = store.write(move |tx| tx.cast_vote(plain, 0, cy, "e2e4", "e4", 11));
        assert!(matches!(refused, Err(Error::NotFound { what: "team game", .. })), "{refused:?}");
        // Nor does a game that is over.
        store.write(move |tx| tx.abort_game(game, "test", 12)).unwrap();
        assert_eq!(store.read(move |tx| tx.game(game)).unwrap().state, GameState::Aborted);
        let over = store.write(move |tx| tx.cast_vote(game, 1, cy, "e7e5", "e5", 13));
        assert!(matches!(over, Err(Error::GameNotActive { .. })), "{over:?}");
    }

    fn the_schema_refuses_a_window_of_no_time_and_a_vote_outside_a_team_game(db: &TestDb) {
        let (store, game, white, _) = crate::testing::store_with_game(db);
        assert!(store.execute_raw(&format!("INSERT INTO team_games VALUES ({game}, 0)")).is_err());
        let vote = format!("INSERT INTO votes VALUES ({game}, 0, {white}, 'e2e4', 'e4', 1, 0)");
        assert!(store.execute_raw(&vote).is_err(), "not a team game");
        store.execute_raw(&format!("INSERT INTO team_games VALUES ({game}, 1000)")).unwrap();
        store.execute_raw(&vote).unwrap();
        assert!(store.execute_raw(&vote).is_err(), "one vote per voter and window");
    }

    fn a_team_challenge_keeps_its_window_and_goes_with_its_challenge(db: &TestDb) {
        let mut store = db.store();
        let challenge = |store: &mut crate::Store, channel: &'static str| {
            store
                .write(move |tx| {
                    let (a, b) = (
                        tx.upsert_player("test", "team:a", "#a", 0)?.id,
                        tx.upsert_player("test", "team:b", "#b", 0)?.id,
                    );
                    let new = crate::NewChallenge {
                        platform: "test".into(),
                        server: Some("s".into()),
                        channel: channel.into(),
                        challenger: a,
                        challenged: Some(b),
                        variant: "chess".into(),
                        color: crate::ColorChoice::White,
                        time_control: None,
                        rated: false,
                        expires_at: 1_000,
                    };
                    let id = tx.create_challenge(&new, 0)?.id;
                    tx.make_team_challenge(id, 30_000)?;
                    Ok((id, b))
                })
                .unwrap()
        };
        let (declined, b) = challenge(&mut store, "b");
        assert_eq!(store.read(move |tx| tx.team_challenge_window(declined)).unwrap(), Some(30_000));
        store.write(move |tx| tx.decline_challenge(declined, b)).unwrap();
        assert_eq!(store.read(move |tx| tx.team_challenge_window(declined)).unwrap(), None, "gone with it");
        let (expired, _) = challenge(&mut store, "b");
        store.write(|tx| tx.expire_challenges(1_000)).unwrap();
        assert_eq!(store.read(move |tx| tx.team_challenge_window(expired)).unwrap(), None, "gone with it");
        assert!(store.execute_raw("INSERT INTO team_challenges VALUES (424242, 1000)").is_err(), "no such challenge");
    }

    on_both_backends!(
        votes_are_counted_replaced_and_tied_by_the_earliest,
        a_team_challenge_keeps_its_window_and_goes_with_its_challenge,
        the_schema_refuses_a_window_of_no_time_and_a_vote_outside_a_team_game,
    );
}
