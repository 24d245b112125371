//! A long command's progress in chat ("Analysing game 12… 40%"), for the adapters that edit a
//! message as it goes: Discord its deferred answer, Matrix a notice.
//!
//! The host reports progress through [`host::Places::progress`], which must not wait; the
//! adapter wraps its places in [`Reporting`], which keeps the newest report, and runs the
//! command through [`show_while`], which shows reports at the network's [`Pace`] beside it.
//!
//! # Guarantees
//!
//! - A report never waits and never queues: it replaces the newest, and one not yet shown is
//!   dropped for the next.
//! - The command is polled all along: an edit in flight never holds it up.
//! - Nothing is shown before [`Pace::first_after`]; then one edit at a time, at most one per
//!   [`Pace::every`], each for a step of at least [`Pace::step`] percent or for completion.
//! - Once the command is done no edit starts, and one in flight ends first: the answer comes
//!   after the last edit, so no progress ever overwrites it.

use std::future::Future;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::watch;
use tokio::time::Instant;
use tracing::warn;

use host::{ChannelMention, FoundChannel, Message, PlaceError, Places, Progress};

/// The adapter's places for one request, keeping the newest progress the host reports.
pub struct Reporting<'a> {
    places: &'a dyn Places,
    newest: watch::Sender<Option<Progress>>,
}

impl<'a> Reporting<'a> {
    /// `places` with its progress kept; the receiver sees the newest report.
    pub fn new(places: &'a dyn Places) -> (Reporting<'a>, watch::Receiver<Option<Progress>>) {
        let (newest, receiver) = watch::channel(None);
        (Reporting { places, newest }, receiver)
    }
}

#[async_trait]
impl Places for Reporting<'_> {
    async fn open_place(&self, parent_channel: &str, title: &str) -> Result<String, PlaceError> {
        self.places.open_place(parent_channel, title).await
    }

    async fn post(&self, message: &Message) -> Result<(), PlaceError> {
        self.places.post(message).await
    }

    async fn find_channel(&self, server: &str, named: &ChannelMention) -> Result<FoundChannel, PlaceError> {
        self.places.find_channel(server, named).await
    }

    async fn channel_name(&self, channel: &str) -> Option<String> {
        self.places.channel_name(channel).await
    }

    fn progress(&self, progress: Progress) {
        self.newest.send_replace(Some(progress));
    }
}

/// When a network's message shows progress, and how often it may be edited.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pace {
    /// How long the command runs before progress is first shown (a quick one shows none).
    pub first_after: Duration,
    /// The least time between two edits.
    pub every: Duration,
    /// The least step, in percent, worth an edit (completion always is).
    pub step: u8,
}

impl Pace {
    /// Whether `now` is worth showing after `shown`.
    pub fn worth(&self, shown: Option<Progress>, now: Progress) -> bool {
        match shown {
            None => true,
            Some(shown) if shown.task() != now.task() => true,
            Some(shown) => {
                let stepped = now.percent() >= shown.percent().saturating_add(self.step.max(1));
                stepped || (now.is_complete() && !shown.is_complete())
            }
        }
    }
}

/// Where progress is shown: a message the adapter sends once and edits after.
pub trait Show {
    /// Shows `progress`, sending or editing the message; done once the network has it.
    fn show(&mut self, progress: Progress) -> impl Future<Output = Result<(), PlaceError>> + Send;
}

/// Runs `work` (the host handling a request whose places are [`Reporting`]) and shows its
/// progress, read from `newest`, through `shower` at `pace` until it is done. Returns what
/// `work` gave and the last progress shown, if any was. A failed edit is logged and ends the
/// showing; the work goes on.
pub async fn show_while<T>(
    work: impl Future<Output = T>,
    newest: &mut watch::Receiver<Option<Progress>>,
    pace: Pace,
    shower: &mut impl Show,
) -> (T, Option<Progress>) {
    let (finished, mut done) = watch::channel(false);
    let run = async {
        let out = work.await;
        finished.send_replace(true);
        out
    };
    let show = async {
        let mut shown: Option<Progress> = None;
        let mut next = Instant::now() + pace.first_after;
        loop {
            tokio::select! {
                biased;
                _ = done.wait_for(|&d| d) => break,
                changed = newest.changed() => if changed.is_err() { break },
            }
            let Some(progress) = *newest.borrow_and_update() else { continue };
            if !pace.worth(shown, progress) {
                continue;
            }
            if Instant::now() < next {
                tokio::select! {
                    biased;
                    _ = done.wait_for(|&d| d) => break,
                    () = tokio::time::sleep_until(next) => {}
                }
            }
            // What came while waiting is newer still.
            let progress = newest.borrow_and_update().unwrap_or(progress);
            next = Instant::now() + pace.every;
            match shower.show(progress).await {
                Ok(()) => shown = Some(progress),
                Err(e) => {
                    warn!("cannot show progress ({progress}): {e}");
                    break;
                }
            }
        }
        shown
    };
    tokio::join!(run, show)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use host::Task;

    use super::*;

    fn at(done: u32) -> Progress {
        Progress::new(Task::Analysis { game: 3 }, done, 20)
    }

    #[test]
    fn edits_are_worth_a_step_or_the_end() {
        let pace = Pace { first_after: Duration::ZERO, every: Duration::from_secs(2), step: 10 };
        assert!(pace.worth(None, at(0)));
        assert!(!pace.worth(Some(at(0)), at(1)), "5% is not a step of 10");
        assert!(pace.worth(Some(at(0)), at(2)));
        assert!(pace.worth(Some(at(19)), at(20)), "the end is always shown");
        assert!(!pace.worth(Some(at(20)), at(20)));
    }

    /// Shows into a list, and tells the work each time it has shown something.
    struct Recorder {
        shown: Arc<Mutex<Vec<Progress>>>,
        showed: Arc<tokio::sync::Notify>,
    }

    impl Show for Recorder {
        async fn show(&mut self, progress: Progress) -> Result<(), PlaceError> {
            self.shown.lock().unwrap().push(progress);
            self.showed.notify_one();
            Ok(())
        }
    }

    struct Silent;

    #[async_trait]
    impl Places for Silent {
        async fn open_place(&self, _: &str, _: &str) -> Result<String, PlaceError> {
            Err("none".into())
        }
        async fn post(&self, _: &Message) -> Result<(), PlaceError> {
            Ok(())
        }
        async fn find_channel(&self, server: &str, named: &ChannelMention) -> Result<FoundChannel, PlaceError> {
            Ok(FoundChannel::Here(format!("{server}/{named}")))
        }
    }

    #[tokio::test]
    async fn a_channel_is_found_by_the_places_reported_on() {
        let (places, _) = Reporting::new(&Silent);
        let named: ChannelMention = "#puzzles".parse().unwrap();
        let found = places.find_channel("guild", &named).await.unwrap();
        assert_eq!(found, FoundChannel::Here("guild/#puzzles".into()), "not the default, which knows none");
    }

    #[tokio::test]
    async fn each_step_worth_it_is_shown_and_nothing_once_the_work_is_done() {
        let (places, mut newest) = Reporting::new(&Silent);
        let (shown, showed) = (Arc::new(Mutex::new(Vec::new())), Arc::new(tokio::sync::Notify::new()));
        let mut recorder = Recorder { shown: Arc::clone(&shown), showed: Arc::clone(&showed) };
        let pace = Pace { first_after: Duration::ZERO, every: Duration::ZERO, step: 10 };
        let work = async {
            for done in (0..=18).step_by(2) {
                places.progress(at(done));
                // Each step is a step of 10%: it is shown, and the work goes on once it is.
                showed.notified().await;
            }
            // Reported as the work ends: too late to be shown.
            places.progress(at(20));
            "reply"
        };
        let (out, last) = show_while(work, &mut newest, pace, &mut recorder).await;
        assert_eq!(out, "reply");
        let shown = shown.lock().unwrap().clone();
        assert_eq!(shown, (0..=18).step_by(2).map(at).collect::<Vec<_>>());
        assert_eq!(last, Some(at(18)));
    }

    #[tokio::test]
    async fn a_report_never_waits_for_the_network() {
        let (places, mut newest) = Reporting::new(&Silent);
        // Nobody shows anything yet: reports replace each other.
        for done in 0..=20 {
            places.progress(at(done));
        }
        assert_eq!(*newest.borrow_and_update(), Some(at(20)));
    }
}
