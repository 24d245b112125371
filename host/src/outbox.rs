//! Announcements: what the host says on its own, because something happened (a clock ran out, a
//! round was paired, a tournament ended), rather than in answer to a command.
//!
//! # Guarantees
//!
//! - **Never lost.** An announcement is queued in the transaction that makes it true (data's
//!   outbox), so a process killed after that commit leaves it queued. The process that queued it
//!   posts it right after the commit, through the adapter's [`Places::post`], and forgets it once
//!   posted; if that process died, whichever process claims it once its hold ([`HOLD_MS`]) has run
//!   out posts it instead.
//! - **Posted once.** Within a process, a post in flight is not claimed again. Between
//!   processes, claims are exclusive (see [`data::WriteTx::claim_posts`]). The one window left, a
//!   process dying between posting and forgetting, is closed where the network dedupes: every
//!   announcement carries its outbox id as the message's idempotency key ([`Message::key`]:
//!   Discord's nonce, Matrix's transaction id).
//! - **Pictures as they are when posted.** An announcement stores its text and names its picture
//!   (a game's board or replay, a tournament's standings); the picture is drawn when it is
//!   posted, from what is stored then, so the outbox holds a few hundred bytes, never an image.
//! - **Links as they are when posted.** An announcement names the page it links to (a game's,
//!   a tournament's; by default its picture's); the address is made when it is posted, from the
//!   stored web key and the host's `web_url` then, so none is stored and an unset `web_url`
//!   gives none.
//!
//! A post that fails is retried later, [`ATTEMPTS`] times in all, then dropped with an error in
//! the log: a channel that was deleted must not be retried for ever. A channel that refuses
//! (401, 403) or is gone (404) backs off as a whole (`backoff`): its other announcements wait
//! for its backoff without a request each, and once it has refused for the bounded time they are
//! dropped unsent.

use std::collections::HashSet;
use std::sync::Mutex;

use data::{GameId, PostId, PuzzleId, TournamentId, WriteTx};
use serde::{Deserialize, Serialize};

use super::arbiter;
use super::backoff::{Verdict, Work};
use super::{Host, Link, Message, PlaceError, Places, Refusal, User};

/// How long the process that claimed an announcement has to post it before another may: far
/// longer than drawing a replay and one request to the network take.
pub(crate) const HOLD_MS: i64 = 20_000;

/// Attempts to post an announcement the network keeps refusing, before it is dropped.
const ATTEMPTS: u32 = 6;

/// The wait before the next attempt, per failed attempt so far.
const RETRY_MS: i64 = 5_000;

/// What a direct message's outbox channel starts with, before its person's id.
const DIRECT: &str = "direct:";

/// Announcements claimed at a time, and batches posted per delivery at most (what is left waits
/// for the next tick).
const BATCH: u32 = 32;
const BATCHES: usize = 16;

/// The picture an announcement shows, drawn when it is posted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Picture {
    /// The game's board as it stands.
    Board(GameId),
    /// The game's animated replay (a finished game's result).
    Replay(GameId),
    /// The tournament's standings; final ones once it is over.
    Standings { tournament: TournamentId, last: bool },
    /// A puzzle's board as it is set (the daily puzzle).
    Puzzle(PuzzleId),
}

impl Picture {
    /// The page of what the picture shows, if it has one. A puzzle has none: its game's page
    /// would show the solution.
    fn page(self) -> Option<Page> {
        match self {
            Picture::Board(game) | Picture::Replay(game) => Some(Page::Game(game)),
            Picture::Standings { tournament, .. } => Some(Page::Tournament(tournament)),
            Picture::Puzzle(_) => None,
        }
    }
}

/// The web page an announcement links to, its address made when it is posted (from the key in
/// the store and the host's `web_url` then; none when that is unset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Page {
    Game(GameId),
    Tournament(TournamentId),
}

/// An announcement as stored: a message's text, the people it calls, its picture, and the page
/// it links to.
#[derive(Serialize, Deserialize)]
struct Stored {
    text: String,
    /// Each person called, as platform id and name.
    mentions: Vec<(String, String)>,
    picture: Option<Picture>,
    /// Absent in announcements queued before links were made: their picture's page is taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    page: Option<Page>,
    /// The one person it is for, as platform id and name, in a direct chat ([`Message::to`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<(String, String)>,
}

/// What an announcement is queued with: the platform it is said on and the process that holds
/// it while posting. Cheap to clone into a write transaction's closure.
#[derive(Clone)]
pub(crate) struct Outbox {
    platform: String,
    holder: String,
}

impl Outbox {
    /// Queues `message` (text, mentions, channel; announcements carry no buttons, and their
    /// pictures are named by `picture`, not attached) in the caller's transaction.
    /// It links to the page of what its picture shows, if that has one.
    pub fn queue(&self, tx: &WriteTx<'_>, now: i64, message: &Message, picture: Option<Picture>) -> data::Result<()> {
        self.store(tx, now, message, picture, picture.and_then(Picture::page))
    }

    /// Queues `message`, with no picture, linking to `page` (a tournament's round announcement).
    pub fn queue_about(&self, tx: &WriteTx<'_>, now: i64, message: &Message, page: Page) -> data::Result<()> {
        self.store(tx, now, message, None, Some(page))
    }

    fn store(
        &self,
        tx: &WriteTx<'_>,
        now: i64,
        message: &Message,
        picture: Option<Picture>,
        page: Option<Page>,
    ) -> data::Result<()> {
        debug_assert!(
            message.buttons.is_empty() && message.images.is_empty() && message.links.is_empty(),
            "an announcement: {}",
            message.text
        );
        // A direct message's "channel" is its person: the key the outbox backs off by, so that
        // one who takes no direct messages holds up nobody else's announcements.
        let channel = match (&message.to, message.channel.as_deref()) {
            (Some(user), _) => format!("{DIRECT}{}", user.id),
            (None, Some(channel)) => channel.to_string(),
            (None, None) => {
                tracing::error!(text = %message.text, "an announcement without a channel cannot be queued");
                return Ok(());
            }
        };
        let stored = Stored {
            text: message.text.clone(),
            mentions: message.mentions.iter().map(|u| (u.id.clone(), u.name.clone())).collect(),
            picture,
            page,
            to: message.to.as_ref().map(|u| (u.id.clone(), u.name.clone())),
        };
        let body = serde_json::to_string(&stored).expect("an announcement is plain data");
        tx.queue_post(&self.platform, &channel, &body, &self.holder, now, now + HOLD_MS)?;
        Ok(())
    }
}

/// The outbox ids this process is posting now, so that a second delivery running beside the
/// first (a command's and the scheduler's) skips them.
#[derive(Default)]
pub(crate) struct InFlight(Mutex<HashSet<PostId>>);

impl InFlight {
    /// Marks `id` as being posted, unless it already is.
    fn start(&self, id: PostId) -> Option<Posting<'_>> {
        let fresh = self.0.lock().unwrap_or_else(|e| e.into_inner()).insert(id);
        fresh.then_some(Posting { in_flight: self, id })
    }
}

/// An id in [`InFlight`], taken out when its posting ends, however it ends.
struct Posting<'a> {
    in_flight: &'a InFlight,
    id: PostId,
}

impl Drop for Posting<'_> {
    fn drop(&mut self) {
        self.in_flight.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.id);
    }
}

impl Host {
    /// How this host queues announcements.
    pub(crate) fn outbox(&self) -> Outbox {
        Outbox { platform: self.settings().platform.clone(), holder: self.inner.holder.clone() }
    }

    /// Posts the announcements that are this process's to post: its own, and any whose process
    /// died. Returns what was posted.
    pub async fn deliver(&self, places: &dyn Places) -> Vec<Message> {
        let mut posted = Vec::new();
        for _ in 0..BATCHES {
            let (platform, holder, now) = (self.settings().platform.clone(), self.inner.holder.clone(), self.now());
            // A read first: most ticks have nothing to post, and then write nothing.
            let (p, h) = (platform.clone(), holder.clone());
            match self.store().read(move |tx| tx.has_posts_for(&p, &h, now)).await {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    tracing::warn!("cannot read the announcements to post: {e}");
                    break;
                }
            }
            let claimed =
                self.store().write(move |tx| tx.claim_posts(&platform, &holder, now, now + HOLD_MS, BATCH)).await;
            let claimed = match claimed {
                Ok(claimed) => claimed,
                Err(e) => {
                    tracing::warn!("cannot read the announcements to post: {e}");
                    break;
                }
            };
            let full = claimed.len() == BATCH as usize;
            let mut progress = false;
            for post in claimed {
                // Posted by another delivery of this process right now.
                let Some(_posting) = self.inner.posting.start(post.id) else { continue };
                let channel = Work::Channel(post.channel.clone());
                if self.inner.backoffs.given_up(&channel, now) {
                    // The channel refused for too long: dropped without asking the network.
                    tracing::error!(post = post.id, channel = %post.channel, "an announcement for a channel that keeps refusing Chimera is dropped");
                    self.forget_post(post.id).await;
                    continue;
                }
                if !self.inner.backoffs.ready(&channel, now) {
                    // The channel refused lately: this waits, claimed, until its hold runs out.
                    continue;
                }
                progress = true;
                match self.announcement(&post).await {
                    Ok(message) => match places.post(&message).await {
                        Ok(()) => {
                            self.inner.backoffs.succeeded(&channel);
                            self.forget_post(post.id).await;
                            posted.push(message);
                        }
                        Err(e) => self.post_failed(&post, &e).await,
                    },
                    Err(refusal) => {
                        tracing::error!(
                            post = post.id,
                            "an announcement cannot be made and is dropped: {}",
                            refusal.text()
                        );
                        self.forget_post(post.id).await;
                    }
                }
            }
            if !full || !progress {
                break;
            }
        }
        posted
    }

    /// The message of a queued announcement, its picture drawn now.
    async fn announcement(&self, post: &data::Post) -> Result<Message, Refusal> {
        let stored: Stored = serde_json::from_str(&post.body)
            .map_err(|e| Refusal::Broken(format!("announcement {} does not read: {e}", post.id)))?;
        let mut message = Message::text(stored.text);
        match stored.to {
            Some((id, name)) => message.to = Some(User { id, name }),
            None => message = message.in_channel(&post.channel),
        }
        message.mentions = stored.mentions.into_iter().map(|(id, name)| User { id, name }).collect();
        message.key = key(post, self.settings().network.key_chars);
        if let Some(page) = stored.page.or(stored.picture.and_then(Picture::page)) {
            message = message.with_link(self.page_link(page).await);
        }
        Ok(match stored.picture {
            None => message,
            Some(Picture::Board(game)) => {
                let table = self.load_table(game).await?;
                // Drawn for its one reader when it has one, else as everyone's.
                let look = match &message.to {
                    Some(user) => self.look_for(Some(&user.id)).await,
                    None => self.look_at(&table).await,
                };
                let board = self.board_message(&table, String::new(), &look);
                message.images = board.images;
                if look.described {
                    message.text = format!("{}\n{}", message.text, board.text);
                }
                message
            }
            Some(Picture::Replay(game)) => {
                let table = self.load_table(game).await?;
                self.with_replay(&table, message).await
            }
            Some(Picture::Standings { tournament, last }) => {
                let image = arbiter::standings_picture(self, tournament, last).await?;
                message.with_image(image)
            }
            Some(Picture::Puzzle(puzzle)) => message.with_image(self.puzzle_picture(puzzle).await?),
        })
    }

    /// The link to `page`, when the pages have an address. A key that cannot be read leaves the
    /// link out (logged): the announcement goes out all the same.
    async fn page_link(&self, page: Page) -> Option<Link> {
        self.settings().web_url.as_ref()?;
        let key = self
            .store()
            .read(move |tx| {
                Ok(match page {
                    Page::Game(id) => tx.game(id)?.web_key,
                    Page::Tournament(id) => tx.tournament(id)?.web_key,
                })
            })
            .await;
        match (page, key) {
            (Page::Game(_), Ok(key)) => self.game_link(&key),
            (Page::Tournament(_), Ok(key)) => self.tournament_link(&key),
            (page, Err(e)) => {
                tracing::warn!(?page, "an announcement goes out without its link: {e}");
                None
            }
        }
    }

    async fn forget_post(&self, id: PostId) {
        if let Err(e) = self.store().write(move |tx| tx.delete_post(id)).await {
            // It stays queued, and is posted again once its hold runs out: the idempotency key
            // keeps that from showing twice where the network dedupes.
            tracing::warn!(post = id, "a posted announcement cannot be forgotten: {e}");
        }
    }

    async fn post_failed(&self, post: &data::Post, why: &PlaceError) {
        let id = post.id;
        let attempts = post.attempts + 1;
        let now = self.now();
        // A channel that refuses (or is gone) backs off as a whole, exponentially, and is given
        // up in bounded time (see `backoff`); other failures are this post's own.
        let retry_at = match self.inner.backoffs.failed(&Work::Channel(post.channel.clone()), now, why) {
            Verdict::GiveUp => {
                tracing::error!(post = id, channel = %post.channel, "the channel keeps refusing Chimera; the announcement is dropped: {why}");
                self.forget_post(id).await;
                return;
            }
            Verdict::RetryAt(at) if why.is_permanent() => at,
            Verdict::RetryAt(_) => now + RETRY_MS * i64::from(attempts),
        };
        if attempts >= ATTEMPTS {
            tracing::error!(post = id, channel = %post.channel, "an announcement was refused {attempts} times and is dropped: {why}");
            self.forget_post(id).await;
            return;
        }
        tracing::warn!(post = id, channel = %post.channel, "an announcement could not be posted (attempt {attempts}); it is retried: {why}");
        if let Err(e) = self.store().write(move |tx| tx.post_failed(id, retry_at)).await {
            tracing::warn!(post = id, "cannot record the failed attempt: {e}");
        }
    }
}

/// An announcement's idempotency key, as long as the network keeps: its id and the time it was
/// queued (unique for the database's life, as ids are never reused, and beyond it), else its id
/// alone, else none.
fn key(post: &data::Post, limit: usize) -> Option<String> {
    [format!("{}.{}", post.id, post.created_at), post.id.to_string()]
        .into_iter()
        .find(|key| key.chars().count() <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_fits_the_network() {
        let post = data::Post {
            id: 1234,
            channel: "c".into(),
            body: String::new(),
            attempts: 0,
            created_at: 1_700_000_000_000,
        };
        assert_eq!(key(&post, usize::MAX).as_deref(), Some("1234.1700000000000"));
        // Discord's nonce: 25 characters.
        assert_eq!(key(&post, 25).as_deref(), Some("1234.1700000000000"));
        assert_eq!(key(&post, 8).as_deref(), Some("1234"));
        assert_eq!(key(&post, 3), None);
    }
}
