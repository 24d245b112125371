//! A message or a reaction in, a request to the host out. Commands are the host's words behind
//! the room's prefix, read by the host's one reader; the people they name are resolved here (a
//! full user id, a mention pill, or a member's display name when only one member has it). A bare
//! legal move from the player to move is a move; any other message without the prefix is chat.
//!
//! An encrypted event whose room key had not come yet when it arrived is tried again for about
//! a minute as the key may follow, then handled like any other. At most
//! [`WAITING_PER_SENDER`] events of one sender, and [`WAITING_IN_ALL`] in all, wait so; past
//! that an unreadable event is given up at once, so a flood of them costs a bounded number of
//! tasks however long it goes on.
//!
//! A reaction counts only in the room of the message it reacts to: a reaction elsewhere that
//! names a button's message is ignored.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use matrix_sdk::ruma::events::reaction::OriginalSyncReactionEvent;
use matrix_sdk::ruma::events::room::encrypted::OriginalSyncRoomEncryptedEvent;
use matrix_sdk::ruma::events::room::message::{MessageType, OriginalSyncRoomMessageEvent, Relation};
use matrix_sdk::ruma::events::{AnySyncMessageLikeEvent, AnySyncTimelineEvent, SyncMessageLikeEvent};
use matrix_sdk::ruma::serde::Raw;
use matrix_sdk::ruma::{MilliSecondsSinceUnixEpoch, OwnedEventId, OwnedUserId, UserId};
use matrix_sdk::{Room, RoomMemberships};
use tracing::{debug, info, warn};

use host::{Command, Mention, PlaceKind, Reply, Request, User};

use super::channel::Channel;
use super::outgoing::{Origin, PROGRESS_PACE};
use super::position::Ticket;
use super::{text, Bot, Event, Job, PLATFORM};
use crate::progress::{self, Reporting, Show};

/// Tries to decrypt an event whose key is missing, the first after half a second, each wait
/// twice the last: about a minute in all.
const DECRYPTION_TRIES: u32 = 7;

/// Undecryptable events of one sender waiting for their key at once, at most.
pub const WAITING_PER_SENDER: usize = 16;

/// Undecryptable events waiting for their key at once, everyone's together, at most.
pub const WAITING_IN_ALL: usize = 256;

/// How many undecryptable events wait for their key, per sender: a place is taken with
/// [`Waiting::enter`] and given back when its [`Place`] is dropped.
pub struct Waiting {
    counts: Mutex<(HashMap<OwnedUserId, usize>, usize)>,
    per_sender: usize,
    in_all: usize,
}

/// One event's place among those waiting for a key.
pub struct Place {
    waiting: Arc<Waiting>,
    sender: OwnedUserId,
}

impl Waiting {
    pub fn new(per_sender: usize, in_all: usize) -> Waiting {
        Waiting { counts: Mutex::new((HashMap::new(), 0)), per_sender, in_all }
    }

    /// A place for one more event of `sender`; `None` when the sender, or everyone together,
    /// has as many waiting as allowed.
    pub fn enter(self: &Arc<Self>, sender: &UserId) -> Option<Place> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let (per, all) = &mut *counts;
        let mine = per.get(sender).copied().unwrap_or(0);
        if mine >= self.per_sender || *all >= self.in_all {
            return None;
        }
        per.insert(sender.to_owned(), mine + 1);
        *all += 1;
        Some(Place { waiting: Arc::clone(self), sender: sender.to_owned() })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.waiting.counts.lock().unwrap_or_else(|e| e.into_inner());
        let (per, all) = &mut *counts;
        *all -= 1;
        if let Some(mine) = per.get_mut(&self.sender) {
            *mine -= 1;
            if *mine == 0 {
                per.remove(&self.sender);
            }
        }
    }
}

impl Bot {
    /// An encrypted event the SDK could not decrypt when it came (its room key had not arrived):
    /// tried again as the key may follow, then put in its room's queue like any other.
    pub(super) fn decrypt_later(
        self: &Arc<Self>,
        room: Room,
        event: Raw<OriginalSyncRoomEncryptedEvent>,
        ticket: Ticket,
    ) {
        let bot = Arc::clone(self);
        let id = event.get_field::<OwnedEventId>("event_id").ok().flatten();
        let sender = event.get_field::<OwnedUserId>("sender").ok().flatten();
        let Some(place) = sender.as_deref().and_then(|sender| self.undecrypted.enter(sender)) else {
            warn!(room = %room.room_id(), event = ?id, ?sender, "an event cannot be decrypted, and too many wait for their key already; given up");
            ticket.done();
            return;
        };
        debug!(room = %room.room_id(), event = ?id, "an event could not be decrypted yet");
        tokio::spawn(async move {
            let _place = place;
            let mut wait = Duration::from_millis(500);
            for _ in 0..DECRYPTION_TRIES {
                tokio::time::sleep(wait).await;
                wait *= 2;
                let decrypted = match room.decrypt_event(&event, None).await {
                    Ok(decrypted) if !decrypted.kind.is_utd() => decrypted,
                    Ok(_) => continue,
                    Err(e) => {
                        warn!(room = %room.room_id(), event = ?id, "cannot decrypt an event: {e}");
                        ticket.done();
                        return;
                    }
                };
                info!(room = %room.room_id(), event = ?id, "decrypted an event once its key came");
                match decrypted.raw().deserialize() {
                    Ok(AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::RoomMessage(
                        SyncMessageLikeEvent::Original(message),
                    ))) => bot.enqueue(&room, Job { event: Event::Message(Box::new(message)), ticket }),
                    Ok(AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::Reaction(
                        SyncMessageLikeEvent::Original(reaction),
                    ))) => bot.enqueue(&room, Job { event: Event::Reaction(reaction), ticket }),
                    _ => ticket.done(),
                }
                return;
            }
            ticket.done();
            warn!(
                room = %room.room_id(),
                event = ?id,
                "an encrypted event stayed unreadable: its sender's device never sent Chimera's device the key"
            );
        });
    }

    /// Whether an event is one to act on: not the bot's own, not seen, not stale, and sent
    /// after the bot joined its room.
    async fn is_fresh(
        &self,
        room: &Room,
        sender: &UserId,
        id: &str,
        sent: MilliSecondsSinceUnixEpoch,
    ) -> anyhow::Result<bool> {
        if sender == self.me || sent < self.not_before || self.ledger.is_handled(id).await? {
            return Ok(false);
        }
        let me = room.get_member_no_sync(&self.me).await?;
        let joined = me.and_then(|m| m.event().origin_server_ts());
        Ok(joined.is_none_or(|joined| sent >= joined))
    }

    pub(super) async fn on_message(&self, room: &Room, event: OriginalSyncRoomMessageEvent) -> anyhow::Result<()> {
        let arrived = std::time::Instant::now();
        let id = event.event_id.to_string();
        if !self.is_fresh(room, &event.sender, &id, event.origin_server_ts).await? {
            return Ok(());
        }
        let MessageType::Text(content) = &event.content.msgtype else { return Ok(()) };
        let thread = match &event.content.relates_to {
            Some(Relation::Thread(thread)) => Some(thread.event_id.clone()),
            // An edit is not a new command.
            Some(Relation::Replacement(_)) => return Ok(()),
            _ => None,
        };
        let channel = Channel { room: room.room_id().to_owned(), thread };
        let html = content.formatted.as_ref().map(|f| f.body.as_str());
        let command = match text::read(&content.body, html, &self.settings.prefix) {
            text::Said::Command(line) => self.read(room, &line).await,
            text::Said::Text(said) => {
                let channel_id = channel.to_string();
                if !self.host.is_bare_move(PLATFORM, &channel_id, event.sender.as_str(), &said).await? {
                    // Chat: no answer. Remembered all the same: an event may be given again after
                    // a restart (see `position`), and by then the same words may have become a
                    // legal move (the opponent's turn has come), which they were not when sent.
                    self.ledger.mark_handled(&id, self.host.now()).await?;
                    return Ok(());
                }
                Ok(Command::Move { text: said, confirm: false, game: None })
            }
        };
        let origin = Origin { channel, event: Some(event.event_id.clone()), asker: event.sender.clone() };
        let reply = match command {
            Ok(command) => self.run(room, &origin, &id, command).await?,
            Err(why) => Reply::error(why),
        };
        // A refusal already given (a flood over the command rate) is not said again: every
        // answer here is a message in the room.
        if !reply.quiet {
            self.answer(&origin, &id, reply).await?;
            self.host.metrics().answered(arrived.elapsed());
        }
        self.ledger.mark_handled(&id, self.host.now()).await?;
        Ok(())
    }

    /// A reaction to one of the bot's messages with one of its keys runs the button's command.
    /// A question for the asker alone takes only the asker's reaction; on a question to the
    /// room (an open challenge) the host decides. Reactions the host refuses are ignored unless
    /// they come from someone the question was for, who hears why (a used one included).
    pub(super) async fn on_reaction(&self, room: &Room, event: OriginalSyncReactionEvent) -> anyhow::Result<()> {
        let arrived = std::time::Instant::now();
        let id = event.event_id.to_string();
        if !self.is_fresh(room, &event.sender, &id, event.origin_server_ts).await? {
            return Ok(());
        }
        let annotation = &event.content.relates_to;
        let message_id = annotation.event_id.to_string();
        let Some(button) = self.ledger.button(&message_id, &annotation.key).await? else { return Ok(()) };
        let channel = button.channel.parse::<Channel>().map_err(anyhow::Error::msg)?;
        let called = button.callers.iter().any(|c| c == event.sender.as_str());
        if !counts_in(&channel, room.room_id()) || (button.private && !called) {
            self.ledger.mark_handled(&id, self.host.now()).await?;
            return Ok(());
        }
        let origin = Origin { channel, event: Some(annotation.event_id.clone()), asker: event.sender.clone() };
        if button.used {
            if called {
                self.answer(&origin, &id, Reply::error("That question has been answered already.")).await?;
            }
            self.ledger.mark_handled(&id, self.host.now()).await?;
            return Ok(());
        }
        let reply = match self.read(room, &button.command).await {
            Ok(command) => self.run(room, &origin, &id, command).await?,
            Err(why) => Reply::error(why),
        };
        if reply.is_error() {
            if called && !reply.quiet {
                self.answer(&origin, &id, reply).await?;
            }
        } else {
            self.ledger.use_buttons(&message_id).await?;
            self.answer(&origin, &id, reply).await?;
            self.host.metrics().answered(arrived.elapsed());
        }
        self.ledger.mark_handled(&id, self.host.now()).await?;
        Ok(())
    }

    /// Runs a command as the event's sender; the event id is the request id. A long command's
    /// progress shows meanwhile in a notice (see `outgoing`), which ends with the last progress
    /// the host reported.
    async fn run(&self, room: &Room, origin: &Origin, id: &str, command: Command) -> anyhow::Result<Reply> {
        let user = self.user(room, &origin.asker).await;
        let manager = match room.get_member(&origin.asker).await {
            Ok(Some(member)) => member.can_kick(),
            _ => false,
        };
        debug!(user = %user.id, channel = %origin.channel, %command, "command");
        let request = Request {
            platform: PLATFORM.to_string(),
            server: Some(room.room_id().to_string()),
            channel: origin.channel.to_string(),
            user,
            manager,
            place: place_kind(room).await,
            request_id: id.to_string(),
            command,
        };
        let threads = self.places();
        let (places, mut progress) = Reporting::new(&threads);
        let mut notice = self.speaker.progress_notice(origin, id);
        let work = self.host.handle(request, &places);
        let (reply, shown) = progress::show_while(work, &mut progress, PROGRESS_PACE, &mut notice).await;
        let newest = *progress.borrow();
        if let (Some(shown), Some(newest)) = (shown, newest) {
            if shown != newest {
                if let Err(e) = notice.show(newest).await {
                    warn!(channel = %origin.channel, "cannot show the last progress ({newest}): {e}");
                }
            }
        }
        Ok(reply)
    }

    /// A command line (`/challenge @bob:example.org variant:golem`) read by the host's reader,
    /// its people resolved among the room's members.
    async fn read(&self, room: &Room, line: &str) -> Result<Command, String> {
        let typed: Command<Mention> =
            line.parse().map_err(|e: host::CommandError| text::with_prefix(&e.to_string(), &self.settings.prefix))?;
        let mut found = Vec::new();
        for Mention(named) in typed.people() {
            found.push(self.person(room, named).await?);
        }
        let mut found = found.into_iter();
        let command = typed.try_map_users(|_| found.next().ok_or_else(|| "a user went missing".to_string()))?;
        // Challenging the bot itself is playing against Chimera.
        Ok(command.with_bot_as_engine(self.me.as_str()))
    }

    /// Someone named in a command: `@bob:example.org` (typed, or a pill), or `@Bob` / `Bob`, a
    /// display name only one member of the room has.
    async fn person(&self, room: &Room, named: &str) -> Result<User, String> {
        let named = named.trim();
        if let Ok(id) = UserId::parse(named) {
            return Ok(self.user(room, &id).await);
        }
        let wanted = named.trim_start_matches('@');
        if wanted.is_empty() {
            return Err(format!("`{named}` is not a user: name one like @bob:example.org"));
        }
        let members = room.members(RoomMemberships::JOIN | RoomMemberships::INVITE).await.map_err(|e| e.to_string())?;
        let matches: Vec<_> = members
            .iter()
            .filter(|m| {
                m.display_name().is_some_and(|d| d.eq_ignore_ascii_case(wanted))
                    || m.user_id().localpart().eq_ignore_ascii_case(wanted)
            })
            .collect();
        match matches.as_slice() {
            [one] => Ok(User { id: one.user_id().to_string(), name: one.name().to_string() }),
            [] => Err(format!("nobody in this room is called `{wanted}`; name them by user id, like @bob:example.org")),
            _ => Err(format!("more than one member is called `{wanted}`; name them by user id, like @bob:example.org")),
        }
    }

    /// A user as the host knows them: their Matrix id, and their display name in this room.
    async fn user(&self, room: &Room, id: &UserId) -> User {
        let name = match room.get_member(id).await {
            Ok(Some(member)) => member.name().to_string(),
            _ => id.localpart().to_string(),
        };
        User { id: id.to_string(), name }
    }

    /// Shows the reply to the event `id` (see `outgoing`): its messages are keyed by `id`, so
    /// an answer sent again (the event replayed after a crash before it was marked handled)
    /// shows once.
    pub(super) async fn answer(&self, origin: &Origin, id: &str, reply: Reply) -> anyhow::Result<()> {
        for (i, message) in reply.messages.iter().enumerate() {
            let key = format!("{id}.{i}");
            self.speaker.post(Some(origin), message, Some(&key)).await.context("cannot answer")?;
        }
        Ok(())
    }
}

/// Whether a reaction in `room` counts for a button of a message in `channel`: only in the
/// message's own room. Event ids are not secret (anyone who was ever in the room has them), and
/// a homeserver does not always stop a reaction in one room from naming a message in another
/// (Synapse refuses it from its own users, but not over federation, nor when the relation is
/// hidden inside an encrypted event); it would run the command as someone perhaps not even a
/// member of the message's room.
fn counts_in(channel: &Channel, room: &matrix_sdk::ruma::RoomId) -> bool {
    channel.room == room
}

/// Who can read `room`: encrypted (also when the SDK cannot tell: a listing wrongly refused
/// costs nothing, one wrongly allowed would publish what its members meant for themselves), else
/// a direct chat, else shared.
async fn place_kind(room: &Room) -> PlaceKind {
    if super::outgoing::is_encrypted(room).await {
        return PlaceKind::Encrypted;
    }
    match room.is_direct().await {
        Ok(false) => PlaceKind::Shared,
        Ok(true) => PlaceKind::Direct,
        Err(e) => {
            warn!(room = %room.room_id(), "cannot tell whether the room is a direct chat; taken as encrypted: {e}");
            PlaceKind::Encrypted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reaction_counts_only_in_the_room_of_the_message_it_reacts_to() {
        let here: matrix_sdk::ruma::OwnedRoomId = "!here:x".try_into().unwrap();
        let elsewhere: matrix_sdk::ruma::OwnedRoomId = "!elsewhere:x".try_into().unwrap();
        let root: OwnedEventId = "$root".try_into().unwrap();
        let main = Channel { room: here.clone(), thread: None };
        let thread = Channel { room: here.clone(), thread: Some(root) };
        assert!(counts_in(&main, &here) && counts_in(&thread, &here), "in the room, main timeline or thread");
        assert!(!counts_in(&main, &elsewhere) && !counts_in(&thread, &elsewhere), "never from another room");
    }

    #[test]
    fn events_waiting_for_a_key_are_bounded_per_sender_and_in_all() {
        let waiting = Arc::new(Waiting::new(2, 3));
        let (a, b, c) =
            (UserId::parse("@a:x").unwrap(), UserId::parse("@b:x").unwrap(), UserId::parse("@c:x").unwrap());
        let a1 = waiting.enter(&a).expect("a's first");
        let _a2 = waiting.enter(&a).expect("a's second");
        assert!(waiting.enter(&a).is_none(), "a has two waiting already");
        let _b1 = waiting.enter(&b).expect("b is not held back by a");
        assert!(waiting.enter(&c).is_none(), "three wait in all");
        drop(a1);
        assert!(waiting.enter(&c).is_some(), "a place given back is free again");
        assert!(waiting.enter(&a).is_some());
    }
}
