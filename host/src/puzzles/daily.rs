//! The daily puzzle: every day at the time a place's managers chose (`/settings
//! daily-puzzle:#channel time:18:00`, UTC; see `settings`), a puzzle from the place's own games is
//! posted in their channel, for everyone there to answer.
//!
//! # Guarantees
//!
//! - **Once a day, never twice.** A place's post of a day is claimed in the database
//!   ([`data::WriteTx::claim_daily_post`], keyed by the place and the UTC day) in the
//!   transaction that queues it in the outbox: of several processes ticking at once one claims
//!   it, a restart after the commit finds it claimed, and the outbox posts what was queued even
//!   if the process dies right after the commit (keyed, so a network that dedupes shows it once).
//! - **Late rather than never, but no backlog.** A process that was down at the time posts the
//!   day's puzzle when it comes back that same UTC day; the days it missed are not made up. A
//!   time already past when it was set (to the minute) is first posted the next day.
//! - **Only what may be seen there.** The puzzle comes from a finished game of the place's own
//!   server (never from a direct chat, another server or another platform: the same rule as for
//!   games), and a puzzle is posted in a place once. With none left, nothing is posted that day
//!   (logged, not said in the channel), and the day is claimed all the same, so that the step
//!   does not look again at every tick.
//! - **The post opens nothing.** It shows the puzzle as it is set: its board (with alt text),
//!   variant, rating and whose move it is. A member's first `/move` in the channel starts and
//!   answers their own attempt, rated as `/puzzle`'s are (see `command`). The channel's daily
//!   puzzle is its latest post, for [`ANSWERABLE_MS`] after it was posted.

use data::{DailyPost, DailyPuzzle, Day, PuzzleId, WriteTx};

use super::command::{find_line, Line};
use crate::clock::{civil_from_days, DAY_MS};
use crate::outbox::{Outbox, Picture};
use crate::rating::Rating;
use crate::{Host, Message, Refusal};

/// How long a daily puzzle is answered in its channel after its post: until the next day's
/// comes.
pub(crate) const ANSWERABLE_MS: i64 = DAY_MS;

/// What the step did for one place.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// The setting changed since it was read (or was turned off): the next tick reads it again.
    Changed,
    /// Another process (or an earlier tick) claimed the day.
    Claimed,
    /// Posted: the puzzle.
    Posted(PuzzleId),
    /// No puzzle left to post in the place today.
    Nothing,
    /// The puzzle chosen cannot be read (logged): the day passes without a post, and the puzzle
    /// is not chosen again.
    Unreadable(PuzzleId),
}

/// Posts the daily puzzles due on the host's platform, each claimed and queued in one
/// transaction of its own.
pub(crate) async fn post_due(host: &Host) -> Result<(), Refusal> {
    // Not serving (disconnected, or not yet connected): a post would fail and be dropped after
    // its retries; the day's post waits until the adapter is back, that same day.
    if !host.is_serving() {
        return Ok(());
    }
    let (now, platform, outbox) = (host.now(), host.settings().platform.clone(), host.outbox());
    // The places due, from a snapshot: most ticks find none, and then write nothing.
    let due = host.store().read(move |tx| tx.daily_puzzles_due(&platform, now)).await?;
    for setting in due {
        let (outbox, place) = (outbox.clone(), setting.clone());
        let step = host.store().write(move |tx| post(tx, &outbox, &place, now)).await?;
        let (server, channel) = (&setting.server, &setting.channel);
        match step {
            Step::Posted(puzzle) => tracing::info!(%server, %channel, puzzle, "the daily puzzle is posted"),
            Step::Nothing => {
                tracing::info!(%server, %channel, "no puzzle from this place's games is left: no daily puzzle today")
            }
            Step::Unreadable(puzzle) => {
                tracing::error!(%server, %channel, puzzle, "the daily puzzle cannot be read: none is posted today")
            }
            Step::Changed | Step::Claimed => {}
        }
    }
    Ok(())
}

/// Claims and queues `setting`'s post of today, as it stands in `tx`.
fn post(tx: &WriteTx<'_>, outbox: &Outbox, setting: &DailyPuzzle, now: i64) -> data::Result<Step> {
    let today = Day::of(now);
    if tx.daily_puzzle(&setting.platform, &setting.server)?.as_ref() != Some(setting) || !setting.is_due(today, now) {
        return Ok(Step::Changed);
    }
    let chosen = tx.daily_puzzle_choice(&setting.platform, &setting.server)?;
    let message = chosen.as_ref().map(|puzzle| announcement(puzzle, setting, today));
    let claim = DailyPost {
        platform: setting.platform.clone(),
        server: setting.server.clone(),
        day: today,
        channel: setting.channel.clone(),
        puzzle: chosen.as_ref().map(|puzzle| puzzle.id),
        posted_at: now,
    };
    if !tx.claim_daily_post(&claim)? {
        return Ok(Step::Claimed);
    }
    Ok(match (chosen, message) {
        (Some(puzzle), Some(Ok(message))) => {
            outbox.queue(tx, now, &message, Some(Picture::Puzzle(puzzle.id)))?;
            Step::Posted(puzzle.id)
        }
        (Some(puzzle), _) => Step::Unreadable(puzzle.id),
        (None, _) => Step::Nothing,
    })
}

/// The post of `puzzle` as the daily puzzle of `day`, without its picture (drawn when posted).
fn announcement(puzzle: &data::Puzzle, setting: &DailyPuzzle, day: Day) -> Result<Message, Refusal> {
    let line = Line::of(puzzle)?;
    let rating = Rating::of(puzzle.glicko, puzzle.attempts).display();
    let text = format!(
        "**Daily puzzle** of {} (UTC): puzzle {} ({}, rated {rating}), from game {}. {} Answer with `/move`: \
         everyone here has one try, rated as `/puzzle`'s are. The next one comes tomorrow at {} UTC.",
        date(day),
        puzzle.id,
        line.variant.name(),
        puzzle.game,
        find_line(line.solver(), "winning"),
        setting.time,
    );
    Ok(Message::text(text).in_channel(&setting.channel))
}

/// A day as people write it: `2023-11-14`.
pub(crate) fn date(day: Day) -> String {
    let (year, month, day) = civil_from_days(day.0);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_written_as_its_date() {
        assert_eq!(date(Day(0)), "1970-01-01");
        assert_eq!(date(Day::of(1_700_000_000_000)), "2023-11-14");
    }
}
