//! The daily puzzle: a place's setting (the channel it is posted in and the time of day, UTC)
//! and the posts claimed under it. The host decides when a post is due and what it says; this
//! keeps the rules that make it happen once:
//!
//! - a place (a Discord server, a Matrix room) has at most one setting, keyed by the place;
//!   turning it off deletes it;
//! - a day's post is claimed once: the claim is keyed by the place and the UTC day, so of
//!   several processes, or of a process and itself after a restart, one claims it, and the
//!   claim commits with whatever the caller queues beside it (the post in the outbox);
//! - a claim names the puzzle it posted (none on a day there was none to post), and a puzzle is
//!   posted in a place once: the schema keys it;
//! - the puzzle a place is given comes from a finished game of that very server, never from a
//!   direct chat or another server or platform (a place with a server is never a direct chat, so
//!   this is the games' visibility rule, as [`ReadTx::puzzle_for`] applies it to a server).

use std::fmt;
use std::str::FromStr;

use crate::db::{ReadTx, WriteTx};
use crate::error::{ColumnError, Result};
use crate::puzzles::{Attempt, Puzzle, PuzzleId};
use crate::sql::{params, sql, Cell, FromCell, Row, ToValue, Value};
use crate::{Millis, PlayerId};

const MINUTE_MS: Millis = 60_000;
const DAY_MS: Millis = 24 * 60 * MINUTE_MS;
const MINUTES_A_DAY: u16 = 24 * 60;

/// A time of day in UTC, to the minute: `00:00` to `23:59`.
///
/// ```
/// use data::TimeOfDay;
///
/// let six_pm: TimeOfDay = "18:00".parse().unwrap();
/// assert_eq!((six_pm.hour(), six_pm.minute()), (18, 0));
/// assert_eq!(six_pm.to_string(), "18:00");
/// assert_eq!("7:05".parse::<TimeOfDay>().unwrap().to_string(), "07:05");
/// for wrong in ["24:00", "18:60", "18", "18:0", "six", "-1:00", "18:00:00"] {
///     assert!(wrong.parse::<TimeOfDay>().is_err(), "{wrong}");
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeOfDay(u16);

/// Text that is not a time of day.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotATimeOfDay(pub String);

impl fmt::Display for NotATimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a time of day: write it as HH:MM, 00:00 to 23:59 (UTC), like 18:00", self.0)
    }
}

impl std::error::Error for NotATimeOfDay {}

impl TimeOfDay {
    /// `hour:minute`, if it is one (hour below 24, minute below 60).
    pub fn new(hour: u8, minute: u8) -> Option<TimeOfDay> {
        (hour < 24 && minute < 60).then(|| TimeOfDay(u16::from(hour) * 60 + u16::from(minute)))
    }

    /// The time of day of `at`, in UTC, to the minute.
    pub fn of(at: Millis) -> TimeOfDay {
        TimeOfDay((at.rem_euclid(DAY_MS) / MINUTE_MS) as u16)
    }

    pub fn hour(self) -> u8 {
        (self.0 / 60) as u8
    }

    pub fn minute(self) -> u8 {
        (self.0 % 60) as u8
    }

    /// Minutes since midnight: how the database keeps it.
    pub fn minutes(self) -> u16 {
        self.0
    }

    /// This time on `day`, as a moment.
    pub fn on(self, day: Day) -> Millis {
        day.start() + i64::from(self.0) * MINUTE_MS
    }
}

impl FromStr for TimeOfDay {
    type Err = NotATimeOfDay;

    fn from_str(text: &str) -> std::result::Result<TimeOfDay, NotATimeOfDay> {
        let wrong = || NotATimeOfDay(text.to_string());
        let (hour, minute) = text.split_once(':').ok_or_else(wrong)?;
        let digits = |part: &str, most: usize| {
            (!part.is_empty() && part.len() <= most && part.bytes().all(|b| b.is_ascii_digit()))
                .then(|| part.parse::<u8>().ok())
                .flatten()
        };
        // Minutes have two digits (`18:05`), so that `18:5` is not taken for five past.
        let (Some(hour), Some(minute)) = (digits(hour, 2), digits(minute, 2).filter(|_| minute.len() == 2)) else {
            return Err(wrong());
        };
        TimeOfDay::new(hour, minute).ok_or_else(wrong)
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.hour(), self.minute())
    }
}

impl ToValue for TimeOfDay {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(self.0))
    }
}

impl FromCell for TimeOfDay {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<TimeOfDay, ColumnError> {
        let minutes = i64::from_cell(cell)?;
        u16::try_from(minutes)
            .ok()
            .filter(|&m| m < MINUTES_A_DAY)
            .map(TimeOfDay)
            .ok_or(ColumnError::OutOfRange { value: minutes, target: "time of day" })
    }
}

/// A day of the UTC calendar, as days since 1970-01-01.
///
/// ```
/// use data::Day;
///
/// let day = Day::of(1_700_000_000_000); // 2023-11-14T22:13:20Z
/// assert_eq!(day, Day(19_675));
/// assert_eq!(day.start(), 1_699_920_000_000);
/// assert_eq!(Day::of(day.start()), day);
/// assert_eq!(Day::of(day.start() - 1), Day(19_674));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i64);

impl Day {
    /// The day `at` falls on.
    pub fn of(at: Millis) -> Day {
        Day(at.div_euclid(DAY_MS))
    }

    /// Its first moment, midnight UTC.
    pub fn start(self) -> Millis {
        self.0 * DAY_MS
    }
}

impl ToValue for Day {
    fn to_value(&self) -> Value<'_> {
        Value::Int(self.0)
    }
}

impl FromCell for Day {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<Day, ColumnError> {
        i64::from_cell(cell).map(Day)
    }
}

/// A place's daily puzzle: posted in `channel` every day at `time`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyPuzzle {
    pub platform: String,
    pub server: String,
    pub channel: String,
    pub time: TimeOfDay,
    /// When it was set: a time of day already past then (to the minute) is first posted the
    /// next day.
    pub set_at: Millis,
}

impl DailyPuzzle {
    fn from_row(row: &Row<'_, '_>) -> Result<DailyPuzzle> {
        Ok(DailyPuzzle {
            platform: row.get(0)?,
            server: row.get(1)?,
            channel: row.get(2)?,
            time: row.get(3)?,
            set_at: row.get(4)?,
        })
    }

    /// Whether it posts on `day`: it was set by its time that day (set in the minute of its
    /// time counts as by then), so a time already past when it was set waits for the next day.
    pub fn posts_on(&self, day: Day) -> bool {
        self.set_at < self.time.on(day) + MINUTE_MS
    }

    /// Whether its post of `day` is due at `now`: `now` is on that day, its time has come, and
    /// it [posts on](Self::posts_on) that day.
    pub fn is_due(&self, day: Day, now: Millis) -> bool {
        Day::of(now) == day && self.time.on(day) <= now && self.posts_on(day)
    }
}

macro_rules! daily_columns {
    () => {
        "d.platform, d.server, d.channel, d.minute, d.set_at"
    };
}

/// One day's claimed post of a place: where it went and which puzzle it showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyPost {
    pub platform: String,
    pub server: String,
    pub day: Day,
    pub channel: String,
    /// `None`: there was no puzzle to post that day, and nothing was posted.
    pub puzzle: Option<PuzzleId>,
    pub posted_at: Millis,
}

impl DailyPost {
    fn from_row(row: &Row<'_, '_>) -> Result<DailyPost> {
        Ok(DailyPost {
            platform: row.get(0)?,
            server: row.get(1)?,
            day: row.get(2)?,
            channel: row.get(3)?,
            puzzle: row.get(4)?,
            posted_at: row.get(5)?,
        })
    }
}

macro_rules! post_columns {
    () => {
        "p.platform, p.server, p.day, p.channel, p.puzzle_id, p.posted_at"
    };
}

impl ReadTx<'_> {
    /// The daily puzzle of the place `server` of `platform`, if it has one.
    pub fn daily_puzzle(&self, platform: &str, server: &str) -> Result<Option<DailyPuzzle>> {
        self.conn().query_opt(
            sql!("SELECT ", daily_columns!(), " FROM daily_puzzles d WHERE d.platform = $1 AND d.server = $2"),
            params![platform, server],
            DailyPuzzle::from_row,
        )
    }

    /// The daily puzzles of `platform` whose post of today (UTC) is due at `now` and not yet
    /// claimed (see [`DailyPuzzle::is_due`]): no earlier day's, so a process that was down does
    /// not post a backlog.
    pub fn daily_puzzles_due(&self, platform: &str, now: Millis) -> Result<Vec<DailyPuzzle>> {
        let today = Day::of(now);
        let due = self.conn().query(
            sql!(
                "SELECT ",
                daily_columns!(),
                " FROM daily_puzzles d
                 WHERE d.platform = $1 AND $2 + d.minute * 60000 <= $3
                   AND NOT EXISTS (SELECT 1 FROM daily_posts p
                                   WHERE p.platform = d.platform AND p.server = d.server AND p.day = $4)
                 ORDER BY d.server"
            ),
            params![platform, today.start(), now, today],
            DailyPuzzle::from_row,
        )?;
        // The rule once, in Rust: the query above only narrows it down.
        Ok(due.into_iter().filter(|d| d.is_due(today, now)).collect())
    }

    /// The puzzle to post as the daily puzzle of the place `server` of `platform`: from a
    /// finished game of that server, never posted there before; the least tried first (fresh
    /// puzzles before those its players have seen), then the oldest.
    pub fn daily_puzzle_choice(&self, platform: &str, server: &str) -> Result<Option<Puzzle>> {
        self.conn().query_opt(
            sql!(
                "SELECT ",
                crate::puzzles::puzzle_columns!(),
                " FROM puzzles p JOIN games g ON g.id = p.game_id
                 WHERE g.platform = $1 AND g.server = $2
                   AND NOT EXISTS (SELECT 1 FROM daily_posts d
                                   WHERE d.platform = $1 AND d.server = $2 AND d.puzzle_id = p.id)
                 ORDER BY p.attempts, p.id
                 LIMIT 1"
            ),
            params![platform, server],
            Puzzle::from_row,
        )
    }

    /// The latest daily puzzle posted in `channel` of `platform` since `since`, if one was.
    /// Days with nothing posted are passed over.
    pub fn daily_post_in(&self, platform: &str, channel: &str, since: Millis) -> Result<Option<DailyPost>> {
        self.conn().query_opt(
            sql!(
                "SELECT ",
                post_columns!(),
                " FROM daily_posts p
                 WHERE p.platform = $1 AND p.channel = $2 AND p.posted_at >= $3 AND p.puzzle_id IS NOT NULL
                 ORDER BY p.posted_at DESC, p.day DESC
                 LIMIT 1"
            ),
            params![platform, channel, since],
            DailyPost::from_row,
        )
    }

    /// The post the place `server` of `platform` claimed for `day`, if any.
    pub fn daily_post(&self, platform: &str, server: &str, day: Day) -> Result<Option<DailyPost>> {
        self.conn().query_opt(
            sql!(
                "SELECT ",
                post_columns!(),
                " FROM daily_posts p WHERE p.platform = $1 AND p.server = $2 AND p.day = $3"
            ),
            params![platform, server, day],
            DailyPost::from_row,
        )
    }

    /// `player`'s attempt at `puzzle`, open or ended, wherever it was made (a player tries a
    /// puzzle once).
    pub fn attempt_at(&self, puzzle: PuzzleId, player: PlayerId) -> Result<Option<Attempt>> {
        self.conn().query_opt(
            sql!(
                "SELECT ",
                crate::puzzles::attempt_columns!(),
                " FROM puzzle_attempts WHERE puzzle_id = $1 AND player_id = $2"
            ),
            params![puzzle, player],
            Attempt::from_row,
        )
    }
}

impl WriteTx<'_> {
    /// Sets the daily puzzle of the place `server` of `platform`: posted in `channel` at `time`
    /// from now on (replacing what it had).
    pub fn set_daily_puzzle(
        &self,
        platform: &str,
        server: &str,
        channel: &str,
        time: TimeOfDay,
        now: Millis,
    ) -> Result<DailyPuzzle> {
        self.conn().query_one(
            sql!(
                "INSERT INTO daily_puzzles (platform, server, channel, minute, set_at)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (platform, server) DO UPDATE SET channel = excluded.channel,
                     minute = excluded.minute, set_at = excluded.set_at
                 RETURNING platform, server, channel, minute, set_at"
            ),
            params![platform, server, channel, time, now],
            DailyPuzzle::from_row,
        )
    }

    /// Turns the daily puzzle of the place off; whether it was on.
    pub fn stop_daily_puzzle(&self, platform: &str, server: &str) -> Result<bool> {
        let deleted = self.conn().execute(
            sql!("DELETE FROM daily_puzzles WHERE platform = $1 AND server = $2"),
            params![platform, server],
        )?;
        Ok(deleted > 0)
    }

    /// Claims the post of `post.day` for its place; `true` for the one caller that claims it,
    /// `false` (and nothing written) when it was claimed already. Queue the post in the same
    /// transaction: it then exists exactly when the claim does.
    pub fn claim_daily_post(&self, post: &DailyPost) -> Result<bool> {
        let claimed = self.conn().execute(
            sql!(
                "INSERT INTO daily_posts (platform, server, day, channel, puzzle_id, posted_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (platform, server, day) DO NOTHING"
            ),
            params![post.platform, post.server, post.day, post.channel, post.puzzle, post.posted_at],
        )?;
        Ok(claimed == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{new_game, on_both_backends, two_players, TestDb};
    use crate::{Finish, GameResult, Glicko, NewGame, NewPuzzle, Store};

    /// 2023-11-14T00:00:00Z.
    const DAY: Day = Day(19_675);

    fn at(hour: u8, minute: u8) -> Millis {
        TimeOfDay::new(hour, minute).unwrap().on(DAY)
    }

    /// A finished game in `game`, scanned with one puzzle: the puzzle's number.
    fn puzzle_of(store: &mut Store, game: NewGame) -> PuzzleId {
        store
            .write(move |tx| {
                let id = tx.create_game(&game, 1)?.id;
                let finish = Finish { result: GameResult::WhiteWins, reason: "resignation".into(), ratings: vec![] };
                tx.finish_game(id, &finish, 2)?;
                let found = NewPuzzle {
                    ply: 7,
                    fen: "fen".into(),
                    solution: vec!["d1d8".into()],
                    glicko: Glicko { rating: 1500.0, deviation: 350.0, volatility: 0.06 },
                };
                assert!(tx.record_scan(id, &[found], 1, 3)?);
                tx.conn().query_one(sql!("SELECT max(id) FROM puzzles"), params![], |row| row.get(0))
            })
            .unwrap()
    }

    fn post(server: &str, day: Day, puzzle: Option<PuzzleId>) -> DailyPost {
        DailyPost {
            platform: "test".into(),
            server: server.into(),
            day,
            channel: "daily".into(),
            puzzle,
            posted_at: day.start() + 1,
        }
    }

    #[test]
    fn a_setting_is_due_once_its_time_has_come_on_the_day_and_not_before_it_was_set() {
        let six_pm = |set_at| DailyPuzzle {
            platform: "test".into(),
            server: "s".into(),
            channel: "c".into(),
            time: TimeOfDay::new(18, 0).unwrap(),
            set_at,
        };
        let set_early = six_pm(at(9, 0));
        assert!(!set_early.is_due(DAY, at(17, 59)));
        assert!(set_early.is_due(DAY, at(18, 0)));
        assert!(set_early.is_due(DAY, at(23, 59)), "late, the same day");
        assert!(!set_early.is_due(DAY, DAY.start() + DAY_MS + 1), "not the next day");
        // Set at 18:00:30 for 18:00: this minute is its time still.
        assert!(six_pm(at(18, 0) + 30_000).is_due(DAY, at(18, 1)));
        // Set at 19:00 for 18:00: tomorrow.
        let set_late = six_pm(at(19, 0));
        assert!(!set_late.is_due(DAY, at(19, 1)));
        assert!(set_late.is_due(Day(DAY.0 + 1), at(18, 0) + DAY_MS));
    }

    fn a_place_has_one_setting_and_a_day_one_claim(db: &TestDb) {
        let mut store = db.store();
        let six_pm = TimeOfDay::new(18, 0).unwrap();
        let set = store.write(move |tx| tx.set_daily_puzzle("test", "s", "c1", six_pm, at(9, 0))).unwrap();
        assert_eq!((set.channel.as_str(), set.time, set.set_at), ("c1", six_pm, at(9, 0)));
        // Set again: replaced, not doubled.
        let seven = TimeOfDay::new(7, 30).unwrap();
        store.write(move |tx| tx.set_daily_puzzle("test", "s", "c2", seven, at(6, 0))).unwrap();
        let read = store.read(|tx| tx.daily_puzzle("test", "s")).unwrap().expect("set");
        assert_eq!((read.channel.as_str(), read.time), ("c2", seven));
        assert_eq!(store.read(|tx| tx.daily_puzzle("other", "s")).unwrap(), None, "per platform");

        assert_eq!(store.read(|tx| tx.daily_puzzles_due("test", at(7, 29))).unwrap(), vec![]);
        assert_eq!(store.read(|tx| tx.daily_puzzles_due("test", at(7, 30))).unwrap(), vec![read.clone()]);
        assert!(store.write(|tx| tx.claim_daily_post(&post("s", DAY, None))).unwrap());
        assert!(!store.write(|tx| tx.claim_daily_post(&post("s", DAY, None))).unwrap(), "claimed once");
        assert_eq!(store.read(|tx| tx.daily_puzzles_due("test", at(7, 31))).unwrap(), vec![], "claimed");
        assert_eq!(store.read(|tx| tx.daily_post("test", "s", DAY)).unwrap(), Some(post("s", DAY, None)));
        // The next day it is due again.
        let tomorrow = at(7, 30) + DAY_MS;
        assert_eq!(store.read(move |tx| tx.daily_puzzles_due("test", tomorrow)).unwrap(), vec![read]);

        assert!(store.write(|tx| tx.stop_daily_puzzle("test", "s")).unwrap());
        assert!(!store.write(|tx| tx.stop_daily_puzzle("test", "s")).unwrap(), "off already");
        assert_eq!(store.read(move |tx| tx.daily_puzzles_due("test", tomorrow)).unwrap(), vec![]);
    }

    fn a_server_is_given_its_own_puzzles_each_once(db: &TestDb) {
        let mut store = db.store();
        let (white, black) = store.write(|tx| Ok(two_players(tx))).unwrap();
        let first = puzzle_of(&mut store, new_game("c1", white, black));
        let direct = NewGame { server: None, channel: "daily".into(), ..new_game("dm", white, black) };
        let from_direct = puzzle_of(&mut store, direct);
        let elsewhere = NewGame { server: Some("other".into()), ..new_game("c2", white, black) };
        let from_elsewhere = puzzle_of(&mut store, elsewhere);
        let second = puzzle_of(&mut store, new_game("c3", white, black));
        let choice =
            |store: &mut Store| store.read(|tx| tx.daily_puzzle_choice("test", "server")).unwrap().map(|p| p.id);

        assert_eq!(choice(&mut store), Some(first), "the oldest of the server's own");
        assert!(store.write(move |tx| tx.claim_daily_post(&post("server", DAY, Some(first)))).unwrap());
        assert_eq!(choice(&mut store), Some(second), "never the same twice; never a direct chat's");
        // The schema itself refuses the same puzzle twice in a place.
        let tomorrow = Day(DAY.0 + 1);
        assert!(store.write(move |tx| tx.claim_daily_post(&post("server", tomorrow, Some(first)))).is_err());
        assert!(store.write(move |tx| tx.claim_daily_post(&post("server", tomorrow, Some(second)))).unwrap());
        assert_eq!(choice(&mut store), None, "nothing left: a direct chat's and another server's stay there");
        assert_ne!(from_direct, from_elsewhere);

        // The channel's latest post with a puzzle, within the window asked.
        let latest = store.read(|tx| tx.daily_post_in("test", "daily", DAY.start())).unwrap();
        assert_eq!(latest.and_then(|p| p.puzzle), Some(second));
        let later = Day(DAY.0 + 1).start() + 2;
        assert_eq!(store.read(move |tx| tx.daily_post_in("test", "daily", later)).unwrap(), None);
        assert_eq!(store.read(|tx| tx.daily_post_in("test", "other", 0)).unwrap(), None);

        // A player's attempt at a puzzle, wherever it was made.
        assert_eq!(store.read(move |tx| tx.attempt_at(second, black)).unwrap(), None);
        let opened = store.write(move |tx| tx.start_attempt(second, black, "test", "anywhere", 5)).unwrap();
        assert_eq!(store.read(move |tx| tx.attempt_at(second, black)).unwrap(), Some(opened));
    }

    fn the_schema_refuses_a_time_that_is_no_time_of_day(db: &TestDb) {
        let store = db.store();
        for minute in ["-1", "1440"] {
            let refused = store.execute_raw(&format!(
                "INSERT INTO daily_puzzles (platform, server, channel, minute, set_at) VALUES ('t', 's', 'c', {minute}, 0)"
            ));
            assert!(refused.is_err(), "{minute}");
        }
    }

    on_both_backends!(
        a_place_has_one_setting_and_a_day_one_claim,
        a_server_is_given_its_own_puzzles_each_once,
        the_schema_refuses_a_time_that_is_no_time_of_day
    );
}
