//! Storage's records as the host's typed values, converted here and nowhere else.
//!
//! `data` keeps a variant as its id and colours and clocks as its own small types; the host
//! works with the rules' [`Variant`] and [`Color`], its own [`TimeControl`] and [`User`]. Every
//! conversion between the two is in this module, with one policy for a stored value that does
//! not convert: that is Chimera's failure, not the player's, so it becomes
//! [`Refusal::Broken`], logged here at error level when it happens, and the command that met it
//! changes nothing. Work that serves many games at once (the scheduler) sets such a game aside
//! and goes on with the others; the log says which.

use std::fmt::Display;

use data::Player;
use rules::{Color, Variant};

use super::clock::{TimeControl, DAY_MS};
use super::{Refusal, User};

/// The failure for a record that does not convert, logged once as it is made.
pub(crate) fn unreadable(record: impl Display, why: impl Display) -> Refusal {
    tracing::error!(%record, "a stored record cannot be read: {why}");
    Refusal::Broken(format!("{record} cannot be read: {why}"))
}

pub(crate) fn variant(id: &str, record: impl Display) -> Result<Variant, Refusal> {
    id.parse().map_err(|e| unreadable(record, e))
}

/// The clock a record was stored with.
pub(crate) fn time_control(tc: data::TimeControl, record: impl Display) -> Result<TimeControl, Refusal> {
    let whole = |ms: i64, unit: i64| u32::try_from(ms / unit).ok().filter(|_| ms % unit == 0);
    let converted = match tc.kind {
        data::ClockKind::Correspondence if tc.increment_ms == 0 => {
            whole(tc.base_ms, DAY_MS).map(|days| TimeControl::Correspondence { days })
        }
        data::ClockKind::Correspondence => None,
        data::ClockKind::Live => whole(tc.base_ms, 60_000)
            .zip(whole(tc.increment_ms, 1000))
            .map(|(minutes, increment)| TimeControl::Live { minutes, increment }),
    };
    converted.ok_or_else(|| unreadable(record, format!("{tc:?} is not a time control Chimera offers")))
}

/// How storage keeps a clock: its kind, its base and its increment.
pub(crate) fn to_time_control(time: TimeControl) -> data::TimeControl {
    let kind = if time.is_live() { data::ClockKind::Live } else { data::ClockKind::Correspondence };
    data::TimeControl { kind, base_ms: time.initial_ms(), increment_ms: time.increment_ms() }
}

pub(crate) fn color(color: data::Color) -> Color {
    match color {
        data::Color::White => Color::White,
        data::Color::Black => Color::Black,
    }
}

pub(crate) fn to_color(color: Color) -> data::Color {
    match color {
        Color::White => data::Color::White,
        Color::Black => data::Color::Black,
    }
}

pub(crate) fn user(player: &Player) -> User {
    User { id: player.user_id.clone(), name: player.display_name.clone() }
}

/// A record that names a variant and a clock: a game, a challenge, a tournament.
pub(crate) trait Terms {
    /// How the log names the record: `game 12`.
    fn record(&self) -> String;
    fn variant_id(&self) -> &str;
    fn stored_time(&self) -> Option<data::TimeControl>;

    fn variant(&self) -> Result<Variant, Refusal> {
        variant(self.variant_id(), self.record())
    }

    fn time_control(&self) -> Result<Option<TimeControl>, Refusal> {
        self.stored_time().map(|tc| time_control(tc, self.record())).transpose()
    }
}

impl Terms for data::Game {
    fn record(&self) -> String {
        format!("game {}", self.id)
    }
    fn variant_id(&self) -> &str {
        &self.variant
    }
    fn stored_time(&self) -> Option<data::TimeControl> {
        self.time_control
    }
}

impl Terms for data::Challenge {
    fn record(&self) -> String {
        format!("challenge {}", self.id)
    }
    fn variant_id(&self) -> &str {
        &self.variant
    }
    fn stored_time(&self) -> Option<data::TimeControl> {
        self.time_control
    }
}

impl Terms for data::Tournament {
    fn record(&self) -> String {
        format!("tournament {}", self.id)
    }
    fn variant_id(&self) -> &str {
        &self.variant
    }
    fn stored_time(&self) -> Option<data::TimeControl> {
        self.time_control
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_control_is_stored_and_read_back() {
        for time in [
            TimeControl::Correspondence { days: 1 },
            TimeControl::Correspondence { days: 30 },
            TimeControl::Live { minutes: 1, increment: 0 },
            TimeControl::Live { minutes: 180, increment: 60 },
            // A live game as long as a day is still live: the kind is stored, not guessed.
            TimeControl::Live { minutes: 24 * 60, increment: 0 },
        ] {
            assert_eq!(time_control(to_time_control(time), "game 1").ok(), Some(time));
        }
    }

    #[test]
    fn a_clock_that_does_not_convert_is_broken() {
        let odd = data::TimeControl { kind: data::ClockKind::Correspondence, base_ms: DAY_MS + 1, increment_ms: 0 };
        match time_control(odd, "game 7") {
            Err(Refusal::Broken(why)) => assert!(why.starts_with("game 7 cannot be read"), "{why}"),
            other => panic!("expected a broken record, got {other:?}"),
        }
        assert!(matches!(variant("checkers", "game 8"), Err(Refusal::Broken(_))));
    }
}
