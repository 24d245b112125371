//! Puzzles from finished games, their scans, the attempts at them and both sides' puzzle
//! ratings. The host finds the puzzles (with the engine) and computes the ratings; this keeps
//! them and holds the rules that keep them whole:
//!
//! - a game is scanned once: its puzzles and its scan row commit together, and a second scan of
//!   the same game finds the row and writes nothing;
//! - a game is scanned by one process at a time: a scanner claims the game first
//!   ([`WriteTx::claim_game_to_scan`]), a lease that no other holder gets while it is live, and
//!   that anyone may take once it has expired (so a scanner that died gives its game up);
//! - a puzzle is offered only where its source game may be seen, never to a player twice;
//! - a player has at most one open attempt per channel, and an attempt's progress moves only
//!   from the value its caller read (two answers at once: one counts);
//! - an attempt's end and both rating updates commit together, each update applied to the
//!   state it was computed from (as game ratings are).

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
use crate::ratings::Glicko;
use crate::sql::{params, sql, Row};
use crate::text::text_enum;
use crate::{GameId, Millis, PlayerId};

pub type PuzzleId = i64;
pub type AttemptId = i64;

/// A puzzle the finder found in a game.
#[derive(Clone, Debug, PartialEq)]
pub struct NewPuzzle {
    /// Moves played in the game before the puzzle's position.
    pub ply: u32,
    pub fen: String,
    /// The solver's move, the reply, the solver's move...: coordinate text.
    pub solution: Vec<String>,
    /// The puzzle's starting rating.
    pub glicko: Glicko,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    pub id: PuzzleId,
    pub game: GameId,
    pub ply: u32,
    pub variant: String,
    pub fen: String,
    pub solution: Vec<String>,
    pub glicko: Glicko,
    /// Attempts that have rated it.
    pub attempts: i64,
    pub created_at: Millis,
}

impl Puzzle {
    pub(crate) fn from_row(row: &Row<'_, '_>) -> Result<Puzzle> {
        let solution: String = row.get(5)?;
        Ok(Puzzle {
            id: row.get(0)?,
            game: row.get(1)?,
            ply: row.get(2)?,
            variant: row.get(3)?,
            fen: row.get(4)?,
            solution: solution.split(' ').map(str::to_owned).collect(),
            glicko: Glicko { rating: row.get(6)?, deviation: row.get(7)?, volatility: row.get(8)? },
            attempts: row.get(9)?,
            created_at: row.get(10)?,
        })
    }
}

macro_rules! puzzle_columns {
    () => {
        "p.id, p.game_id, p.ply, p.variant, p.fen, p.solution, p.rating, p.deviation, p.volatility, \
         p.attempts, p.created_at"
    };
}

pub(crate) use puzzle_columns;

text_enum! {
    pub enum AttemptState ("attempt state") {
        Open => "open",
        Solved => "solved",
        Failed => "failed",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub id: AttemptId,
    pub puzzle: PuzzleId,
    pub player: PlayerId,
    pub platform: String,
    pub channel: String,
    /// Moves of the solution played so far (the solver's and the replies).
    pub progress: u32,
    pub state: AttemptState,
    pub started_at: Millis,
    pub finished_at: Option<Millis>,
}

impl Attempt {
    pub(crate) fn from_row(row: &Row<'_, '_>) -> Result<Attempt> {
        Ok(Attempt {
            id: row.get(0)?,
            puzzle: row.get(1)?,
            player: row.get(2)?,
            platform: row.get(3)?,
            channel: row.get(4)?,
            progress: row.get(5)?,
            state: row.get(6)?,
            started_at: row.get(7)?,
            finished_at: row.get(8)?,
        })
    }
}

macro_rules! attempt_columns {
    () => {
        "id, puzzle_id, player_id, platform, channel, progress, state, started_at, finished_at"
    };
}

pub(crate) use attempt_columns;

/// A player's puzzle rating in a variant.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRating {
    pub player: PlayerId,
    pub variant: String,
    pub glicko: Glicko,
    pub attempts: i64,
    pub updated_at: Millis,
}

/// A rating after one more attempt, computed from the state that had `attempts_before`
/// attempts (0 for a player without a puzzle rating): applied only to that state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRatingUpdate {
    pub attempts_before: i64,
    pub glicko: Glicko,
}

/// How an attempt ends: the progress it stood at (`from`, read by the caller) and ends at,
/// whether it was solved, and both new ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttemptEnd {
    pub from: u32,
    pub to: u32,
    pub solved: bool,
    pub player: PuzzleRatingUpdate,
    pub puzzle: PuzzleRatingUpdate,
}

/// Where a puzzle is asked for: the place decides which games' puzzles may be seen (the same
/// rule as for games: the server, or for a place without one, the channel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzlePlace<'a> {
    pub platform: &'a str,
    pub server: Option<&'a str>,
    pub channel: &'a str,
}

/// What the puzzle job has done, per variant: the figures the operator reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanTotals {
    pub variant: String,
    pub games: i64,
    pub puzzles: i64,
    pub cpu_ms: i64,
}

/// The lease that claims `game` for a scan; the SQL of [`WriteTx::claim_game_to_scan`] writes
/// the same name (`'puzzle-scan:' || id`).
fn scan_lease(game: GameId) -> String {
    format!("puzzle-scan:{game}")
}

impl ReadTx<'_> {
    /// Finished games not yet scanned for puzzles, the earliest finished first: all that wait,
    /// claimed or not (a scanner takes its game with [`WriteTx::claim_game_to_scan`]).
    pub fn games_to_scan(&self, limit: u32) -> Result<Vec<GameId>> {
        self.conn().query(
            sql!(
                "SELECT g.id FROM games g
                 WHERE g.state = 'finished'
                   AND NOT EXISTS (SELECT 1 FROM puzzle_scans s WHERE s.game_id = g.id)
                 ORDER BY g.finished_at, g.id
                 LIMIT $1"
            ),
            params![limit],
            |row| row.get(0),
        )
    }

    pub fn puzzle(&self, id: PuzzleId) -> Result<Puzzle> {
        self.conn()
            .query_opt(
                sql!("SELECT ", puzzle_columns!(), " FROM puzzles p WHERE p.id = $1"),
                params![id],
                Puzzle::from_row,
            )?
            .ok_or(Error::NotFound { what: "puzzle", id })
    }

    /// The puzzle to give `player` at `place`: one whose game may be seen there, of `variant`
    /// if named, that the player has not tried, rated nearest `near`.
    pub fn puzzle_for(
        &self,
        place: PuzzlePlace<'_>,
        variant: Option<&str>,
        player: PlayerId,
        near: f64,
    ) -> Result<Option<Puzzle>> {
        self.conn().query_opt(
            sql!(
                "SELECT ",
                puzzle_columns!(),
                " FROM puzzles p JOIN games g ON g.id = p.game_id
                 WHERE g.platform = $1
                   AND ((g.server IS NOT NULL AND g.server = $2) OR (g.server IS NULL AND g.channel = $3))
                   AND p.variant = COALESCE($4, p.variant)
                   AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.player_id = $5)
                 ORDER BY abs(p.rating - $6), p.id
                 LIMIT 1"
            ),
            params![place.platform, place.server, place.channel, variant, player, near],
            Puzzle::from_row,
        )
    }

    /// The player's open attempt in a channel.
    pub fn open_attempt(&self, platform: &str, channel: &str, player: PlayerId) -> Result<Option<Attempt>> {
        self.conn().query_opt(
            sql!(
                "SELECT ",
                attempt_columns!(),
                " FROM puzzle_attempts
                 WHERE platform = $1 AND channel = $2 AND player_id = $3 AND state = 'open'"
            ),
            params![platform, channel, player],
            Attempt::from_row,
        )
    }

    pub fn puzzle_rating(&self, player: PlayerId, variant: &str) -> Result<Option<PuzzleRating>> {
        self.conn().query_opt(
            sql!(
                "SELECT player_id, variant, rating, deviation, volatility, attempts, updated_at
                 FROM puzzle_ratings WHERE player_id = $1 AND variant = $2"
            ),
            params![player, variant],
            |row| {
                Ok(PuzzleRating {
                    player: row.get(0)?,
                    variant: row.get(1)?,
                    glicko: Glicko { rating: row.get(2)?, deviation: row.get(3)?, volatility: row.get(4)? },
                    attempts: row.get(5)?,
                    updated_at: row.get(6)?,
                })
            },
        )
    }

    /// Games scanned, puzzles found and CPU spent, per variant.
    pub fn scan_totals(&self) -> Result<Vec<ScanTotals>> {
        self.conn().query(
            sql!(
                "SELECT g.variant, count(*), CAST(sum(s.found) AS BIGINT), CAST(sum(s.cpu_ms) AS BIGINT)
                 FROM puzzle_scans s JOIN games g ON g.id = s.game_id
                 GROUP BY g.variant ORDER BY g.variant"
            ),
            params![],
            |row| {
                Ok(ScanTotals { variant: row.get(0)?, games: row.get(1)?, puzzles: row.get(2)?, cpu_ms: row.get(3)? })
            },
        )
    }
}

impl WriteTx<'_> {
    /// Claims the game `holder` is to scan next: the earliest finished game not yet scanned
    /// that no other holder has claimed until after `now`, leased to `holder` until
    /// `expires_at` (a claim `holder` has already is renewed, so a scanner that failed half-way
    /// takes its own game again). `None` when no game is left to claim.
    ///
    /// Two scanners asking at once get different games: the claim is a row of `leases`, taken
    /// as [`WriteTx::acquire_lease`] takes it, in the transaction that chose the game. A
    /// scanner that dies holds its game only until `expires_at`; one that scans for longer
    /// renews the claim first ([`WriteTx::renew_scan_claim`]).
    pub fn claim_game_to_scan(&self, holder: &str, now: Millis, expires_at: Millis) -> Result<Option<GameId>> {
        let game: Option<GameId> = self.conn().query_opt(
            sql!(
                "SELECT g.id FROM games g
                 WHERE g.state = 'finished'
                   AND NOT EXISTS (SELECT 1 FROM puzzle_scans s WHERE s.game_id = g.id)
                   AND NOT EXISTS (SELECT 1 FROM leases l
                                   WHERE l.name = 'puzzle-scan:' || g.id AND l.holder <> $1 AND l.expires_at > $2)
                 ORDER BY g.finished_at, g.id
                 LIMIT 1"
            ),
            params![holder, now],
            |row| row.get(0),
        )?;
        let Some(game) = game else { return Ok(None) };
        // The query above found no live claim of another holder in this very transaction, so
        // the lease is `holder`'s; `None` here would be a claim the query missed.
        Ok(self.acquire_lease(&scan_lease(game), holder, now, expires_at)?.map(|_| game))
    }

    /// Extends `holder`'s claim on `game` to `expires_at`; `false` (and nothing changed) when
    /// another holder took the game over after the claim expired: the scan is theirs now.
    pub fn renew_scan_claim(&self, game: GameId, holder: &str, now: Millis, expires_at: Millis) -> Result<bool> {
        Ok(self.acquire_lease(&scan_lease(game), holder, now, expires_at)?.is_some())
    }

    /// Records a game's scan and the puzzles it found, all or nothing; `false` (and nothing
    /// written) when the game was scanned already. Either way the game's claim goes: a
    /// scanned game is never claimed again.
    pub fn record_scan(&self, game: GameId, found: &[NewPuzzle], cpu_ms: i64, now: Millis) -> Result<bool> {
        self.conn().execute(sql!("DELETE FROM leases WHERE name = $1"), params![scan_lease(game)])?;
        let inserted = self.conn().execute(
            sql!(
                "INSERT INTO puzzle_scans (game_id, found, cpu_ms, scanned_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id) DO NOTHING"
            ),
            params![game, found.len() as i64, cpu_ms, now],
        )?;
        if inserted == 0 {
            return Ok(false);
        }
        let variant = self.game(game)?.variant;
        for puzzle in found {
            let Glicko { rating, deviation, volatility } = puzzle.glicko;
            self.conn().execute(
                sql!(
                    "INSERT INTO puzzles (game_id, ply, variant, fen, solution, rating, deviation,
                         volatility, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                ),
                params![
                    game,
                    puzzle.ply,
                    variant,
                    puzzle.fen,
                    puzzle.solution.join(" "),
                    rating,
                    deviation,
                    volatility,
                    now
                ],
            )?;
        }
        Ok(true)
    }

    /// Opens `player`'s attempt at `puzzle` in a channel; `AttemptOpen` if they have one there.
    pub fn start_attempt(
        &self,
        puzzle: PuzzleId,
        player: PlayerId,
        platform: &str,
        channel: &str,
        now: Millis,
    ) -> Result<Attempt> {
        if let Some(open) = self.open_attempt(platform, channel, player)? {
            return Err(Error::AttemptOpen { attempt: open.id });
        }
        self.conn().query_one(
            sql!(
                "INSERT INTO puzzle_attempts (puzzle_id, player_id, platform, channel, started_at)
                 VALUES ($1, $2, $3, $4, $5)
                 RETURNING ",
                attempt_columns!()
            ),
            params![puzzle, player, platform, channel, now],
            Attempt::from_row,
        )
    }

    /// Moves an open attempt's progress from `from` to `to`; `false` if it was not open at
    /// `from` (another answer came first).
    pub fn advance_attempt(&self, attempt: AttemptId, from: u32, to: u32) -> Result<bool> {
        let changed = self.conn().execute(
            sql!(
                "UPDATE puzzle_attempts SET progress = $3
                 WHERE id = $1 AND progress = $2 AND state = 'open'"
            ),
            params![attempt, from, to],
        )?;
        Ok(changed == 1)
    }

    /// Ends an open attempt as `end` says, with the player's and the puzzle's new ratings;
    /// `false` (nothing written) if it was no longer open at `end.from`. A rating computed from
    /// a state that has changed since is refused (`PuzzleRatingConflict`, `RatingConflict`),
    /// and the whole end rolls back.
    pub fn finish_attempt(&self, attempt: &Attempt, end: &AttemptEnd, now: Millis) -> Result<bool> {
        let AttemptEnd { from, to, solved, player, puzzle } = *end;
        let state = if solved { AttemptState::Solved } else { AttemptState::Failed };
        let changed = self.conn().execute(
            sql!(
                "UPDATE puzzle_attempts SET progress = $3, state = $4, finished_at = $5
                 WHERE id = $1 AND progress = $2 AND state = 'open'"
            ),
            params![attempt.id, from, to, state, now],
        )?;
        if changed == 0 {
            return Ok(false);
        }
        let found = self.puzzle(attempt.puzzle)?;
        if found.attempts != puzzle.attempts_before {
            return Err(Error::PuzzleRatingConflict {
                puzzle: found.id,
                expected: puzzle.attempts_before,
                actual: found.attempts,
            });
        }
        let Glicko { rating, deviation, volatility } = puzzle.glicko;
        self.conn().execute(
            sql!(
                "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4, attempts = attempts + 1
                 WHERE id = $1"
            ),
            params![attempt.puzzle, rating, deviation, volatility],
        )?;
        let before = self.puzzle_rating(attempt.player, &found.variant)?.map_or(0, |r| r.attempts);
        if before != player.attempts_before {
            return Err(Error::RatingConflict {
                player: attempt.player,
                variant: found.variant,
                expected: player.attempts_before,
                actual: before,
            });
        }
        let Glicko { rating, deviation, volatility } = player.glicko;
        self.conn().execute(
            sql!(
                "INSERT INTO puzzle_ratings (player_id, variant, rating, deviation, volatility, attempts,
                     updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (player_id, variant) DO UPDATE SET rating = excluded.rating,
                     deviation = excluded.deviation, volatility = excluded.volatility,
                     attempts = excluded.attempts, updated_at = excluded.updated_at"
            ),
            params![attempt.player, found.variant, rating, deviation, volatility, before + 1, now],
        )?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{new_game, on_both_backends, two_players, TestDb};
    use crate::{Finish, GameResult, NewGame, Store};

    const START: Glicko = Glicko { rating: 1500.0, deviation: 350.0, volatility: 0.06 };

    fn puzzle(ply: u32) -> NewPuzzle {
        NewPuzzle {
            ply,
            fen: format!("fen {ply}"),
            solution: vec!["d1d4".into(), "g8h8".into(), "d4d8".into()],
            glicko: START,
        }
    }

    /// A finished game in `game` (platform "test"), scanned with one puzzle at ply 7.
    fn finished(store: &mut Store, game: NewGame) -> (GameId, PuzzleId) {
        store
            .write(move |tx| {
                let id = tx.create_game(&game, 1)?.id;
                let finish = Finish { result: GameResult::WhiteWins, reason: "resignation".into(), ratings: vec![] };
                tx.finish_game(id, &finish, 2)?;
                assert!(tx.record_scan(id, &[puzzle(7)], 40, 3)?);
                let found = tx.puzzle_for(
                    PuzzlePlace { platform: &game.platform, server: game.server.as_deref(), channel: &game.channel },
                    None,
                    0,
                    1500.0,
                )?;
                Ok((id, found.expect("the new puzzle").id))
            })
            .unwrap()
    }

    fn a_game_is_scanned_once_and_its_puzzles_kept_whole(db: &TestDb) {
        let mut store = db.store();
        let (white, black, active) = store
            .write(|tx| {
                let (white, black) = two_players(tx);
                Ok((white, black, tx.create_game(&new_game("live", white, black), 1)?.id))
            })
            .unwrap();
        let (game, id) = finished(&mut store, new_game("c1", white, black));
        let read = store.read(|tx| tx.puzzle(id)).unwrap();
        assert_eq!((read.game, read.ply, read.variant.as_str()), (game, 7, "chess"));
        assert_eq!(read.solution, ["d1d4", "g8h8", "d4d8"]);
        assert_eq!(read.glicko, START);
        // Scanned: a second scan writes nothing, not even its puzzles.
        assert!(!store.write(move |tx| tx.record_scan(game, &[puzzle(9)], 10, 5)).unwrap());
        let totals = store.read(|tx| tx.scan_totals()).unwrap();
        assert_eq!(totals, [ScanTotals { variant: "chess".into(), games: 1, puzzles: 1, cpu_ms: 40 }]);
        // Neither the scanned game nor the active one is to scan.
        assert_eq!(store.read(|tx| tx.games_to_scan(10)).unwrap(), Vec::<GameId>::new());
        assert_ne!(active, game);
    }

    fn a_puzzle_is_offered_only_where_its_game_may_be_seen_and_once(db: &TestDb) {
        let mut store = db.store();
        let (white, black) = store.write(|tx| Ok(two_players(tx))).unwrap();
        let (_, in_server) = finished(&mut store, new_game("c1", white, black));
        let direct = NewGame { server: None, channel: "dm".into(), ..new_game("dm", white, black) };
        let (_, in_direct) = finished(&mut store, direct);
        let asked = |store: &mut Store, server: Option<&'static str>, channel: &'static str, platform: &'static str| {
            store
                .read(move |tx| {
                    tx.puzzle_for(PuzzlePlace { platform, server, channel }, None, white, 1500.0)
                        .map(|p| p.map(|p| p.id))
                })
                .unwrap()
        };
        assert_eq!(asked(&mut store, Some("server"), "elsewhere", "test"), Some(in_server));
        assert_eq!(asked(&mut store, Some("other"), "c1", "test"), None, "another server");
        assert_eq!(asked(&mut store, Some("server"), "c1", "discord"), None, "another platform");
        assert_eq!(asked(&mut store, None, "dm", "test"), Some(in_direct), "the direct chat it was played in");
        assert_eq!(asked(&mut store, None, "dm2", "test"), None, "another direct chat");
        let variant = store
            .read(move |tx| {
                tx.puzzle_for(
                    PuzzlePlace { platform: "test", server: Some("server"), channel: "x" },
                    Some("golem"),
                    white,
                    1.0,
                )
            })
            .unwrap();
        assert_eq!(variant, None, "no golem puzzle");
        // Tried once, never offered again.
        store.write(move |tx| tx.start_attempt(in_server, white, "test", "x", 5)).unwrap();
        assert_eq!(asked(&mut store, Some("server"), "elsewhere", "test"), None);
        let _ = black;
    }

    fn an_attempt_moves_once_per_answer_and_ends_with_both_ratings(db: &TestDb) {
        let mut store = db.store();
        let (white, black) = store.write(|tx| Ok(two_players(tx))).unwrap();
        let (_, id) = finished(&mut store, new_game("c1", white, black));
        let attempt = store.write(move |tx| tx.start_attempt(id, black, "test", "p", 10)).unwrap();
        assert_eq!((attempt.progress, attempt.state), (0, AttemptState::Open));
        let again = store.write(move |tx| tx.start_attempt(id, black, "test", "p", 11));
        assert!(matches!(again, Err(Error::AttemptOpen { attempt: a }) if a == attempt.id), "{again:?}");
        // Two answers at once: the first moves it, the second finds it moved.
        assert!(store.write(move |tx| tx.advance_attempt(attempt.id, 0, 2)).unwrap());
        assert!(!store.write(move |tx| tx.advance_attempt(attempt.id, 0, 2)).unwrap());
        let player = PuzzleRatingUpdate { attempts_before: 0, glicko: Glicko { rating: 1650.0, ..START } };
        let rated = PuzzleRatingUpdate { attempts_before: 0, glicko: Glicko { rating: 1350.0, ..START } };
        // A puzzle update computed from a stale state rolls the whole end back.
        let stale = PuzzleRatingUpdate { attempts_before: 3, ..rated };
        let a = attempt.clone();
        let refused = store.write(move |tx| {
            tx.finish_attempt(&a, &AttemptEnd { from: 2, to: 3, solved: true, player, puzzle: stale }, 20)
        });
        assert!(matches!(refused, Err(Error::PuzzleRatingConflict { .. })), "{refused:?}");
        assert_eq!(store.read(move |tx| tx.open_attempt("test", "p", black)).unwrap().map(|a| a.progress), Some(2));
        let a = attempt.clone();
        assert!(store
            .write(move |tx| tx.finish_attempt(
                &a,
                &AttemptEnd { from: 2, to: 3, solved: true, player, puzzle: rated },
                20
            ))
            .unwrap());
        let a = attempt.clone();
        assert!(
            !store
                .write(move |tx| tx.finish_attempt(
                    &a,
                    &AttemptEnd { from: 2, to: 3, solved: true, player, puzzle: rated },
                    21
                ))
                .unwrap(),
            "ended once"
        );
        store
            .read(move |tx| {
                assert_eq!(tx.open_attempt("test", "p", black)?, None);
                let mine = tx.puzzle_rating(black, "chess")?.expect("a puzzle rating");
                assert_eq!((mine.glicko.rating, mine.attempts), (1650.0, 1));
                let puzzle = tx.puzzle(id)?;
                assert_eq!((puzzle.glicko.rating, puzzle.attempts), (1350.0, 1));
                // Game ratings are another thing.
                assert_eq!(tx.rating(black, "chess")?, None);
                Ok(())
            })
            .unwrap();
    }

    /// Two stores on one database, as two processes of a deployment: a game one claims is not
    /// the other's until the claim expires, and a recorded game is nobody's.
    fn a_game_claimed_for_a_scan_is_left_to_its_claimant_until_the_claim_expires(db: &TestDb) {
        let (mut one, mut two) = (db.store(), db.store());
        let (first, second) = one
            .write(|tx| {
                let (white, black) = two_players(tx);
                let finished = |channel: &str, at: Millis| {
                    let id = tx.create_game(&new_game(channel, white, black), 1)?.id;
                    let finish = Finish { result: GameResult::Draw, reason: "agreement".into(), ratings: vec![] };
                    tx.finish_game(id, &finish, at)?;
                    Ok::<_, Error>(id)
                };
                Ok((finished("c1", 10)?, finished("c2", 20)?))
            })
            .unwrap();
        let claim = |store: &mut Store, holder: &'static str, now: Millis| {
            store.write(move |tx| tx.claim_game_to_scan(holder, now, now + 1_000)).unwrap()
        };
        // The earliest finished to the first to ask; the next one to the other.
        assert_eq!(claim(&mut one, "one", 100), Some(first));
        assert_eq!(claim(&mut two, "two", 200), Some(second));
        assert_eq!(claim(&mut two, "two", 300), Some(second), "its own claim, renewed: not the first");
        assert_eq!(claim(&mut one, "three", 400), None, "both claimed and live");
        // Both waiting still, claimed or not.
        assert_eq!(one.read(|tx| tx.games_to_scan(10)).unwrap(), [first, second]);
        // "one" dies; once its claim has expired (at 1,100), another takes the game.
        assert_eq!(claim(&mut two, "two", 1_099), Some(second));
        assert_eq!(claim(&mut two, "three", 1_100), Some(first));
        assert!(!one.write(move |tx| tx.renew_scan_claim(first, "one", 1_200, 2_200)).unwrap(), "taken over");
        assert!(two.write(move |tx| tx.renew_scan_claim(first, "three", 1_200, 2_200)).unwrap());
        // Recorded, by whoever: offered to nobody again, even its claimant, even after expiry.
        assert!(two.write(move |tx| tx.record_scan(first, &[], 5, 1_300)).unwrap());
        assert_eq!(claim(&mut one, "three", 1_400), None, "the game left is still two's");
        assert_eq!(claim(&mut one, "three", 2_100), Some(second), "two's claim expired at 2,099");
        assert!(one.write(move |tx| tx.record_scan(second, &[puzzle(7)], 5, 2_200)).unwrap());
        assert_eq!(claim(&mut one, "one", 10_000), None);
        assert_eq!(claim(&mut two, "two", 10_000), None);
        assert_eq!(claim(&mut two, "three", 10_000), None);
        assert_eq!(two.read(|tx| tx.games_to_scan(10)).unwrap(), Vec::<GameId>::new());
        // The claims went with their records.
        for game in [first, second] {
            assert_eq!(one.read(move |tx| tx.lease(&scan_lease(game))).unwrap(), None);
        }
    }

    on_both_backends!(
        a_game_claimed_for_a_scan_is_left_to_its_claimant_until_the_claim_expires,
        a_game_is_scanned_once_and_its_puzzles_kept_whole,
        a_puzzle_is_offered_only_where_its_game_may_be_seen_and_once,
        an_attempt_moves_once_per_answer_and_ends_with_both_ratings
    );
}
