//! Time: where "now" comes from, the time controls (correspondence, days per move; live,
//! minutes plus increment), and each side's clock, which is never stored as such but derived
//! from the moves.
//!
//! A clock is a deadline. The database keeps one per active game: when the player to move runs
//! out of time. Everything else follows from the stored moves: in a live game a side has its base
//! time, plus the increment of each of its moves, minus the time each of them took; in
//! correspondence every move gets the full allowance again. A move's time used is what it took
//! off the deadline (allowance at the start of the turn minus what was left), not the wall-clock
//! time since the previous move, so when the host moves deadlines on after downtime
//! (`schedule.rs`), the time the bot was down is charged to nobody.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use rules::Color;

/// The host's source of "now", in milliseconds since the Unix epoch.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
}

/// The computer's clock.
#[derive(Copy, Clone, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
    }
}

/// A clock that moves only when told: tests run a whole time control in no time at all.
/// Clones share one time.
#[derive(Clone, Debug)]
pub struct ManualClock(Arc<AtomicI64>);

impl ManualClock {
    pub fn new(now_ms: i64) -> ManualClock {
        ManualClock(Arc::new(AtomicI64::new(now_ms)))
    }

    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// Each move must come within this many days of the previous one.
    Correspondence { days: u32 },
    /// Each player has `minutes` for the game and gains `increment` seconds per move.
    Live { minutes: u32, increment: u32 },
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl::Correspondence { days: 3 }
    }
}

impl TimeControl {
    /// A player's time at the start of the game.
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::Correspondence { days } => i64::from(days) * DAY_MS,
            TimeControl::Live { minutes, .. } => i64::from(minutes) * 60_000,
        }
    }

    pub fn is_live(self) -> bool {
        matches!(self, TimeControl::Live { .. })
    }

    /// Time credited after each move (none in correspondence, where each move has its own
    /// allowance).
    pub fn increment_ms(self) -> i64 {
        match self {
            TimeControl::Correspondence { .. } => 0,
            TimeControl::Live { increment, .. } => i64::from(increment) * 1000,
        }
    }

    /// In words: `3 days per move`, `5+3 (5 minutes each, plus 3 seconds a move)`.
    pub fn describe(self) -> String {
        let plural = |n: u32| if n == 1 { "" } else { "s" };
        match self {
            TimeControl::Correspondence { days } => format!("{days} day{} per move", plural(days)),
            TimeControl::Live { minutes, increment: 0 } => {
                format!("{minutes}+0 ({minutes} minute{} each)", plural(minutes))
            }
            TimeControl::Live { minutes, increment } => format!(
                "{minutes}+{increment} ({minutes} minute{} each, plus {increment} second{} a move)",
                plural(minutes),
                plural(increment)
            ),
        }
    }

    /// The PGN standard's `TimeControl` tag (its section 9.6): seconds for the game, and the
    /// increment after a `+` (`300+3` for 5+3, `300` for 5+0); correspondence as one move per
    /// so many seconds (`1/259200` for 3 days a move).
    pub fn pgn(self) -> String {
        match self {
            TimeControl::Correspondence { days } => format!("1/{}", u64::from(days) * 86_400),
            TimeControl::Live { minutes, increment: 0 } => format!("{}", u64::from(minutes) * 60),
            TimeControl::Live { minutes, increment } => format!("{}+{increment}", u64::from(minutes) * 60),
        }
    }

    /// A `TimeControl` tag [`TimeControl::pgn`] wrote (or another writer wrote for a clock
    /// Chimera has): `None` for any other.
    pub fn from_pgn(tag: &str) -> Option<TimeControl> {
        let seconds = |text: &str| text.parse::<u64>().ok();
        if let Some(("1", per_move)) = tag.split_once('/') {
            let per_move = seconds(per_move)?;
            let days = u32::try_from(per_move / 86_400).ok().filter(|_| per_move % 86_400 == 0)?;
            return Some(TimeControl::Correspondence { days });
        }
        let (base, increment) = tag.split_once('+').unwrap_or((tag, "0"));
        let (base, increment) = (seconds(base)?, seconds(increment)?);
        let minutes = u32::try_from(base / 60).ok().filter(|_| base % 60 == 0)?;
        Some(TimeControl::Live { minutes, increment: u32::try_from(increment).ok()? })
    }

    /// The time `color` has for its next move, from the moves so far (`first` moved first).
    pub fn allowance(self, moves: &[data::Move], first: Color, color: Color) -> i64 {
        self.allowance_from(self.initial_ms(), moves, first, color)
    }

    /// [`allowance`](Self::allowance) for a side whose base time is `base_ms` (a game with time
    /// odds): in correspondence the allowance of each move, live the budget for the game.
    pub fn allowance_from(self, base_ms: i64, moves: &[data::Move], first: Color, color: Color) -> i64 {
        match self {
            TimeControl::Correspondence { .. } => base_ms,
            TimeControl::Live { .. } => {
                let own = moves.iter().enumerate().filter(|(i, _)| mover(first, *i) == color);
                base_ms + own.map(|(_, m)| self.increment_ms() - m.time_used_ms).sum::<i64>()
            }
        }
    }

    /// The base times (White's, Black's) of an Armageddon decider under this clock: White keeps
    /// the full base and Black has four fifths of it, the 5-to-4 of FIDE's usual Armageddon
    /// (White 5 minutes, Black 4), so that White's extra time weighs against Black's draw odds.
    /// Scaled rather than fixed, it fits every time control; the increment stays the same for
    /// both. In correspondence it is each move's allowance: 3 days for White, 2.4 for Black.
    /// Every base Chimera offers is whole minutes or days, so four fifths is exact.
    pub fn armageddon_bases(self) -> (i64, i64) {
        let base = self.initial_ms();
        (base, base / 5 * 4)
    }

    /// [`describe`](Self::describe) for a game with time odds: `10+5 with time odds: White 10
    /// minutes and Black 8 minutes, each plus 5 seconds a move`.
    pub fn describe_odds(self, white_ms: i64, black_ms: i64) -> String {
        let per_move = if self.is_live() { "" } else { " per move" };
        let increment = match self {
            TimeControl::Live { increment, .. } if increment > 0 => {
                format!(", each plus {increment} second{} a move", if increment == 1 { "" } else { "s" })
            }
            _ => String::new(),
        };
        format!(
            "{self} with time odds: White {}{per_move} and Black {}{per_move}{increment}",
            spell_duration(white_ms),
            spell_duration(black_ms)
        )
    }
}

/// A length of time in words, exactly: `8 minutes`, `2 minutes 24 seconds`, `2 days 9 hours 36
/// minutes`.
pub fn spell_duration(ms: i64) -> String {
    let ms = ms.max(0);
    let parts =
        [(ms / DAY_MS, "day"), (ms / 3_600_000 % 24, "hour"), (ms / 60_000 % 60, "minute"), (ms / 1000 % 60, "second")];
    let words: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n} {unit}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    if words.is_empty() {
        format!("{ms} ms")
    } else {
        words.join(" ")
    }
}

/// The UTC date of a time, as PGN writes it: `2023.11.14`.
pub fn pgn_date(ms: i64) -> String {
    let (year, month, day) = civil_from_days(ms.div_euclid(DAY_MS));
    format!("{year:04}.{month:02}.{day:02}")
}

/// The civil date (year, month, day) of a count of days since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
pub(crate) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Who made the move at index `i` (0-based) of a game where `first` moved first.
pub fn mover(first: Color, i: usize) -> Color {
    if i.is_multiple_of(2) {
        first
    } else {
        !first
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
            TimeControl::Live { minutes, increment } => write!(f, "{minutes}+{increment}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a time control: use days per move like `3d` (1 to 30), or minutes plus increment seconds like `10+5` (1 to 180 minutes, 0 to 60 seconds)")]
pub struct TimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let err = || TimeControlError(s.to_string());
        let t = s.trim().to_ascii_lowercase();
        if let Some(days) = t.strip_suffix('d').or_else(|| t.strip_suffix("days")).or_else(|| t.strip_suffix("day")) {
            let days: u32 = days.trim().parse().map_err(|_| err())?;
            return (1..=30).contains(&days).then_some(TimeControl::Correspondence { days }).ok_or_else(err);
        }
        let (minutes, increment) = t.split_once('+').ok_or_else(err)?;
        let minutes: u32 = minutes.trim().parse().map_err(|_| err())?;
        let increment: u32 = increment.trim().parse().map_err(|_| err())?;
        if (1..=180).contains(&minutes) && increment <= 60 {
            Ok(TimeControl::Live { minutes, increment })
        } else {
            Err(err())
        }
    }
}

/// A duration for people: `2d 3h`, `4h 10m`, `3:05`, `12.4s`.
pub fn format_duration(ms: i64) -> String {
    let ms = ms.max(0);
    let (days, hours, minutes, seconds) = (ms / DAY_MS, ms / 3_600_000 % 24, ms / 60_000 % 60, ms / 1000 % 60);
    if days > 0 && hours == 0 {
        format!("{days}d")
    } else if days > 0 {
        format!("{days}d {hours}h")
    } else if hours > 0 {
        format!("{hours}h {minutes}m")
    } else if minutes > 0 {
        format!("{minutes}:{seconds:02}")
    } else {
        format!("{:.1}s", ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_time_controls() {
        assert_eq!("3d".parse(), Ok(TimeControl::Correspondence { days: 3 }));
        assert_eq!("10+5".parse(), Ok(TimeControl::Live { minutes: 10, increment: 5 }));
        assert_eq!(" 1 day".parse(), Ok(TimeControl::Correspondence { days: 1 }));
        for bad in ["", "0d", "31d", "10", "0+5", "10+61", "x+1", "+"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        for tc in [TimeControl::Correspondence { days: 7 }, TimeControl::Live { minutes: 3, increment: 2 }] {
            assert_eq!(tc.to_string().parse(), Ok(tc));
        }
    }

    fn played(time_used_ms: i64) -> data::Move {
        data::Move {
            ply: 0,
            coord: String::new(),
            san: String::new(),
            fen_after: String::new(),
            time_used_ms,
            request_id: String::new(),
            played_at: 0,
        }
    }

    #[test]
    fn live_allowances_add_the_increment_and_take_the_time_used() {
        let tc = TimeControl::Live { minutes: 5, increment: 3 };
        let moves = [played(10_000), played(1_000), played(4_000)];
        assert_eq!(tc.allowance(&moves, Color::White, Color::White), 300_000 + 2 * 3_000 - 14_000);
        assert_eq!(tc.allowance(&moves, Color::White, Color::Black), 300_000 + 3_000 - 1_000);
        let days = TimeControl::Correspondence { days: 2 };
        assert_eq!(days.allowance(&moves, Color::White, Color::Black), 2 * DAY_MS);
    }

    #[test]
    fn an_armageddon_decider_gives_white_five_fourths_of_blacks_time() {
        let live = TimeControl::Live { minutes: 10, increment: 5 };
        assert_eq!(live.armageddon_bases(), (600_000, 480_000));
        assert_eq!(TimeControl::Live { minutes: 5, increment: 0 }.armageddon_bases(), (300_000, 240_000));
        assert_eq!(TimeControl::Correspondence { days: 3 }.armageddon_bases(), (3 * DAY_MS, 3 * DAY_MS * 4 / 5));
        assert_eq!(
            live.describe_odds(600_000, 480_000),
            "10+5 with time odds: White 10 minutes and Black 8 minutes, each plus 5 seconds a move"
        );
        assert_eq!(
            TimeControl::Live { minutes: 3, increment: 0 }.describe_odds(180_000, 144_000),
            "3+0 with time odds: White 3 minutes and Black 2 minutes 24 seconds"
        );
        assert_eq!(
            TimeControl::Correspondence { days: 3 }.describe_odds(3 * DAY_MS, 3 * DAY_MS * 4 / 5),
            "3d with time odds: White 3 days per move and Black 2 days 9 hours 36 minutes per move"
        );
        // Each side's allowance starts from its own base; the increment is the same.
        let moves = [played(1_000), played(2_000)];
        assert_eq!(live.allowance_from(480_000, &moves, Color::White, Color::Black), 480_000 + 5_000 - 2_000);
        assert_eq!(TimeControl::Correspondence { days: 3 }.allowance_from(7, &moves, Color::White, Color::Black), 7);
    }

    #[test]
    fn time_controls_read_as_words() {
        assert_eq!(TimeControl::Correspondence { days: 1 }.describe(), "1 day per move");
        assert_eq!(TimeControl::Live { minutes: 1, increment: 0 }.describe(), "1+0 (1 minute each)");
        assert_eq!(
            TimeControl::Live { minutes: 5, increment: 3 }.describe(),
            "5+3 (5 minutes each, plus 3 seconds a move)"
        );
    }

    #[test]
    fn pgn_dates_are_utc_calendar_days() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(1_700_000_000_000), "2023.11.14");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_709_251_199_000), "2024.02.29");
    }

    #[test]
    fn a_manual_clock_moves_when_told_and_its_clones_follow() {
        let clock = ManualClock::new(1_000);
        let other = clock.clone();
        clock.advance(500);
        assert_eq!(other.now_ms(), 1_500);
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(format_duration(2 * DAY_MS + 3 * 3_600_000), "2d 3h");
        assert_eq!(format_duration(DAY_MS), "1d");
        assert_eq!(format_duration(185_000), "3:05");
        assert_eq!(format_duration(12_400), "12.4s");
        assert_eq!(format_duration(-5), "0.0s");
    }
}
