//! Time controls: correspondence (days per move) and live (minutes plus increment).

use std::fmt;
use std::str::FromStr;

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

    /// Time credited after each move: the increment, or in correspondence a fresh allowance.
    pub fn is_live(self) -> bool {
        matches!(self, TimeControl::Live { .. })
    }

    pub fn increment_ms(self) -> i64 {
        match self {
            TimeControl::Correspondence { .. } => 0,
            TimeControl::Live { increment, .. } => i64::from(increment) * 1000,
        }
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
    if days > 0 {
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

    #[test]
    fn durations_read_naturally() {
        assert_eq!(format_duration(2 * DAY_MS + 3 * 3_600_000), "2d 3h");
        assert_eq!(format_duration(185_000), "3:05");
        assert_eq!(format_duration(12_400), "12.4s");
        assert_eq!(format_duration(-5), "0.0s");
    }
}
