//! Snowflake ids, minted the way Discord mints them.
//!
//! Discord's "Snowflakes" (API Reference): 42 bits of milliseconds since the Discord epoch
//! (2015-01-01), then worker, process and an increment. Bots read creation times out of ids, so
//! the fake's ids carry real timestamps; the increment keeps ids minted in the same millisecond
//! distinct and ordered.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds from the Unix epoch to the Discord epoch, the first second of 2015.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

macro_rules! snowflake {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u64);

        impl $name {
            /// The raw snowflake, as serenity's `Id::new` takes it.
            pub fn get(self) -> u64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

snowflake! {
    /// A guild (server).
    GuildId,
    /// A channel: a text channel or a thread.
    ChannelId,
    /// A user, the bot's own included.
    UserId,
    /// A message.
    MessageId,
    /// An interaction the fake sent to the bot.
    InteractionId,
    /// A registered application command.
    CommandId,
    /// An uploaded attachment.
    AttachmentId,
}

/// Mints snowflakes: strictly increasing, each carrying the time it was minted.
#[derive(Debug, Default)]
pub(crate) struct Snowflakes {
    last: AtomicU64,
}

impl Snowflakes {
    pub(crate) fn next(&self) -> u64 {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let fresh = now.saturating_sub(DISCORD_EPOCH_MS) << 22;
        let mut last = self.last.load(Ordering::Relaxed);
        loop {
            let id = fresh.max(last + 1);
            match self.last.compare_exchange_weak(last, id, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return id,
                Err(seen) => last = seen,
            }
        }
    }
}

/// The ISO 8601 timestamp a snowflake was minted at, as Discord's `timestamp` fields carry it.
pub(crate) fn timestamp_of(snowflake: u64) -> String {
    let since_unix = Duration::from_millis((snowflake >> 22) + DISCORD_EPOCH_MS);
    humantime::format_rfc3339_millis(UNIX_EPOCH + since_unix).to_string()
}

/// The current time in the same format, for fields such as `edited_timestamp`.
pub(crate) fn now_timestamp() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snowflakes_increase_and_carry_their_time() {
        let ids = Snowflakes::default();
        let (a, b) = (ids.next(), ids.next());
        assert!(b > a);
        assert!(timestamp_of(a).starts_with("20"), "{}", timestamp_of(a));
        assert!(timestamp_of(a).ends_with('Z'));
    }

    #[test]
    fn the_discord_epoch_is_the_first_millisecond_of_2015() {
        assert_eq!(timestamp_of(0), "2015-01-01T00:00:00.000Z");
    }
}
