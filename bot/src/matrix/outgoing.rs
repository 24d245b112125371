//! The host's reply as Matrix events. Each message is an `m.notice` with an HTML body and a plain
//! one; the players it calls on are named with pills and listed in `m.mentions`, so their
//! clients notify them. A private message (a refusal, a question only the asker answers) is a
//! reply to the event it answers, since Matrix has no private answers. Pictures follow as
//! `m.image` events, and a game's PGN as an `m.file`, uploaded (encrypted in encrypted rooms).
//! Buttons become the bot's own reactions on its notice, one key per answer, recorded in the
//! ledger before they are shown. Links to the web pages end the notice: `Watch: URL` in the
//! plain body, an escaped `<a href>` in the HTML.
//!
//! A long command's progress ("Analysing game 12… 40%") is one notice replying to the command,
//! sent once the command has run for [`PROGRESS_PACE`]'s first wait, then edited in place
//! (`m.replace`, which clients show as the notice's new text, marked edited) at most every two
//! seconds and each 10%; the reply follows as usual, and the notice ends with the last progress
//! the host reported (`Analysed game 12.` once it is done). Neither notifies anyone.
//!
//! Every event is sent with a transaction id made from what it answers (the event id of the
//! command) or from the announcement's key, and its place in the message: the homeserver keeps
//! a device's transaction ids for a while (Synapse: 30 minutes) and answers a repeat with the
//! first event, so a message sent again after a crash or a failed attempt shows once.

use std::io::Cursor;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use matrix_sdk::ruma::events::reaction::ReactionEventContent;
use matrix_sdk::ruma::events::relation::{Annotation, InReplyTo, Thread};
use matrix_sdk::ruma::events::room::message::{
    FileInfo, FileMessageEventContent, ImageMessageEventContent, MessageType, Relation, ReplacementMetadata,
    RoomMessageEventContent, RoomMessageEventContentWithoutRelation,
};
use matrix_sdk::ruma::events::room::ImageInfo;
use matrix_sdk::ruma::events::{Mentions, MessageLikeEventContent};
use matrix_sdk::ruma::{OwnedEventId, OwnedTransactionId, OwnedUserId, UInt, UserId};
use matrix_sdk::{Client, Room};

use host::{Image, Message, PlaceError, Progress};

use super::channel::Channel;
use super::ledger::{self, Ledger};
use super::text;
use crate::progress::{Pace, Show};

/// When a command's progress shows, and how often its notice is edited: after a second (a
/// quick command shows none), then at most every two seconds and each 10%, as each edit is an
/// event the homeserver rate-limits like any message.
pub const PROGRESS_PACE: Pace = Pace { first_after: Duration::from_secs(1), every: Duration::from_secs(2), step: 10 };

/// What a reply answers: the channel it came from, the event (a message, or the bot's message
/// that was reacted to) and who asked.
pub struct Origin {
    pub channel: Channel,
    pub event: Option<OwnedEventId>,
    pub asker: OwnedUserId,
}

/// The longest text shown in a room; a longer one (a long PGN) is cut, and says so.
const TEXT_LIMIT: usize = 3000;

/// What sends the host's messages: the client, the prefix its commands are shown with, and the
/// ledger its reaction buttons are kept in. Cheap to clone.
#[derive(Clone)]
pub struct Speaker {
    pub client: Client,
    pub prefix: Arc<str>,
    pub ledger: Ledger,
}

/// The transaction ids of one message's events: `key` and the event's place in the message.
struct Transactions<'a> {
    key: Option<&'a str>,
    next: usize,
}

impl Transactions<'_> {
    fn next(&mut self) -> Option<OwnedTransactionId> {
        let key = self.key?;
        self.next += 1;
        Some(format!("chimera.{key}.{}", self.next - 1).into())
    }
}

/// Sends `content` in `room`, with the transaction id `txn` when there is one.
async fn send(
    room: &Room,
    content: impl MessageLikeEventContent,
    txn: Option<OwnedTransactionId>,
) -> matrix_sdk::Result<OwnedEventId> {
    let sending = room.send(content);
    let sending = match txn {
        Some(txn) => sending.with_transaction_id(txn),
        None => sending,
    };
    Ok(sending.await?.response.event_id)
}

impl Speaker {
    /// Posts one message of a reply, or an announcement (`origin` `None`). `key` names the
    /// message uniquely (the answered event's id and the message's place in the reply, or the
    /// announcement's key): a second post with the same key shows once.
    pub async fn post(&self, origin: Option<&Origin>, message: &Message, key: Option<&str>) -> anyhow::Result<()> {
        let channel = match (&message.channel, origin) {
            (Some(channel), _) => channel.parse::<Channel>().map_err(anyhow::Error::msg)?,
            (None, Some(origin)) => origin.channel.clone(),
            (None, None) => anyhow::bail!("an announcement without a channel: {}", message.text),
        };
        self.post_in(&channel, origin, message, key).await
    }

    /// Posts one message in `channel`, whichever channel the message names (a direct room
    /// found for the user it is for).
    pub async fn post_in(
        &self,
        channel: &Channel,
        origin: Option<&Origin>,
        message: &Message,
        key: Option<&str>,
    ) -> anyhow::Result<()> {
        let mut txns = Transactions { key, next: 0 };
        let room =
            self.client.get_room(&channel.room).with_context(|| format!("Chimera is not in {}", channel.room))?;
        // A private answer quotes what it answers, when that is in the same channel.
        let reply_to = match origin {
            Some(origin) if message.private && origin.channel == *channel => origin.event.clone(),
            _ => None,
        };
        let relation = |reply_to: Option<OwnedEventId>| relation(channel, reply_to);

        let keys: Vec<String> = message
            .buttons
            .iter()
            .enumerate()
            .map(|(i, b)| text::key_for(&b.label, b.style, i, message.buttons.len()))
            .collect();
        // A game's PGN goes as a file; move lists stay short (see `text`).
        let (said, file) = text::attachment(&message.text);
        let said = text::brief(&said, message.private);
        let notice = if said.trim().is_empty() && message.buttons.is_empty() && message.links.is_empty() {
            None
        } else {
            let mut content = self.notice(message, &said, &keys);
            content.relates_to = relation(reply_to.clone());
            Some(send(&room, content, txns.next()).await.context("cannot send a notice")?)
        };
        if let Some(file) = file {
            self.send_file(&room, file, relation(None), txns.next()).await?;
        }
        for image in &message.images {
            self.send_image(&room, image, relation(None), txns.next()).await?;
        }
        if let Some(notice) = notice.filter(|_| !message.buttons.is_empty()) {
            // Who the question is for hears refusals; the asker of a private question is one.
            let mut callers: Vec<String> = message.mentions.iter().map(|u| u.id.clone()).collect();
            if let Some(origin) = origin {
                callers.push(origin.asker.to_string());
            }
            for (key, button) in keys.iter().zip(&message.buttons) {
                let stored = ledger::Button {
                    command: button.command.to_string(),
                    channel: channel.to_string(),
                    callers: callers.clone(),
                    private: message.private,
                    used: false,
                };
                self.ledger.add_button(notice.as_str(), key, &stored).await?;
                let reaction = ReactionEventContent::new(Annotation::new(notice.clone(), key.clone()));
                send(&room, reaction, txns.next()).await.context("cannot react")?;
            }
        }
        Ok(())
    }

    /// The message's text (`said`) as a notice: prefix for commands, channels as links, the
    /// reaction keys and what each does, the players called on.
    fn notice(&self, message: &Message, said: &str, keys: &[String]) -> RoomMessageEventContent {
        let mut body = said.to_string();
        if body.chars().count() > TEXT_LIMIT {
            body = body.chars().take(TEXT_LIMIT).collect::<String>() + "… (cut)";
        }
        let (mut plain, html) = text::bodies(&body, &self.prefix);
        let mut html = text::markup(&html);
        if !keys.is_empty() {
            let choices: Vec<String> =
                keys.iter().zip(&message.buttons).map(|(key, button)| format!("{key} {}", button.label)).collect();
            plain.push_str(&format!("\nReact: {}", choices.join(" · ")));
            html.push_str(&format!("<br>React: {}", text::escape(&choices.join(" · "))));
        }
        // Each player called on is a pill where the text names them, or after it when it does not.
        let mut mentioned = Vec::new();
        let (mut names, mut pills) = (Vec::new(), Vec::new());
        for user in &message.mentions {
            let Ok(id) = UserId::parse(&user.id) else { continue };
            match text::pill(&html, &user.name, id.as_str()) {
                Some(with_pill) => html = with_pill,
                None => {
                    names.push(user.name.clone());
                    pills.push(format!(
                        "<a href=\"https://matrix.to/#/{}\">{}</a>",
                        text::escape(id.as_str()),
                        text::escape(&user.name)
                    ));
                }
            }
            mentioned.push(id);
        }
        if !names.is_empty() {
            plain.push_str(&format!("\n{}", names.join(" ")));
            html.push_str(&format!("<br>{}", pills.join(" ")));
        }
        text::add_links(&mut plain, &mut html, &message.links);
        let mut content = RoomMessageEventContent::notice_html(plain, html);
        content.mentions = Some(Mentions::with_user_ids(mentioned));
        content
    }

    /// A long text (a game's PGN) as `m.file`: uploaded, encrypted first in an encrypted room,
    /// with its name, mimetype and size.
    async fn send_file(
        &self,
        room: &Room,
        file: text::Attachment,
        relation: Option<Relation<RoomMessageEventContentWithoutRelation>>,
        txn: Option<OwnedTransactionId>,
    ) -> anyhow::Result<()> {
        let bytes = file.content.into_bytes();
        let mut content = if is_encrypted(room).await {
            let encrypted = self
                .client
                .upload_encrypted_file(&mut Cursor::new(bytes.as_slice()))
                .await
                .context("cannot upload an encrypted file")?;
            FileMessageEventContent::encrypted(file.name.clone(), encrypted)
        } else {
            let mime: mime::Mime = file.mime.parse().context("a file's type")?;
            let uploaded =
                self.client.media().upload(&mime, bytes.clone(), None).await.context("cannot upload a file")?;
            FileMessageEventContent::plain(file.name.clone(), uploaded.content_uri)
        };
        let mut info = FileInfo::new();
        info.mimetype = Some(file.mime.to_string());
        info.size = UInt::new(bytes.len() as u64);
        content.info = Some(Box::new(info));
        content.filename = Some(file.name);
        let mut message = RoomMessageEventContent::new(MessageType::File(content));
        message.relates_to = relation;
        message.mentions = Some(Mentions::new());
        send(room, message, txn).await.context("cannot send a file")?;
        Ok(())
    }

    /// A picture as `m.image`: uploaded, encrypted first in an encrypted room, with its
    /// mimetype, size in pixels and bytes, and its alt text as the body.
    async fn send_image(
        &self,
        room: &Room,
        image: &Image,
        relation: Option<Relation<RoomMessageEventContentWithoutRelation>>,
        txn: Option<OwnedTransactionId>,
    ) -> anyhow::Result<()> {
        let mime: mime::Mime = image.format.mime().parse().context("a picture's type")?;
        let mut content = if is_encrypted(room).await {
            let file = self
                .client
                .upload_encrypted_file(&mut Cursor::new(image.bytes.as_slice()))
                .await
                .context("cannot upload an encrypted picture")?;
            ImageMessageEventContent::encrypted(image.alt.clone(), file)
        } else {
            let uploaded = self
                .client
                .media()
                .upload(&mime, image.bytes.clone(), None)
                .await
                .context("cannot upload a picture")?;
            ImageMessageEventContent::plain(image.alt.clone(), uploaded.content_uri)
        };
        let mut info = ImageInfo::new();
        info.mimetype = Some(mime.to_string());
        info.width = Some(UInt::from(image.width));
        info.height = Some(UInt::from(image.height));
        info.size = UInt::new(image.bytes.len() as u64);
        content.info = Some(Box::new(info));
        let mut message = RoomMessageEventContent::new(MessageType::Image(content));
        message.relates_to = relation;
        message.mentions = Some(Mentions::new());
        send(room, message, txn).await.context("cannot send a picture")?;
        Ok(())
    }
}

/// An event's place in `channel`: in its thread if it has one, replying to `reply_to` if set.
fn relation(
    channel: &Channel,
    reply_to: Option<OwnedEventId>,
) -> Option<Relation<RoomMessageEventContentWithoutRelation>> {
    match (&channel.thread, reply_to) {
        (Some(root), Some(event)) => Some(Relation::Thread(Thread::reply(root.clone(), event))),
        (Some(root), None) => Some(Relation::Thread(Thread::without_fallback(root.clone()))),
        (None, Some(event)) => {
            Some(Relation::Reply(matrix_sdk::ruma::events::relation::Reply::new(InReplyTo::new(event))))
        }
        (None, None) => None,
    }
}

/// A command's progress as a notice replying to it: sent at the first progress shown, edited
/// (`m.replace`) at each after. Its events' transaction ids come from the command's event id
/// (`key`) and the percent shown, so a command replayed after a crash shows one notice.
pub struct ProgressNotice<'a> {
    speaker: &'a Speaker,
    origin: &'a Origin,
    key: &'a str,
    sent: Option<OwnedEventId>,
}

impl Speaker {
    /// The progress notice of the command `origin` sent, its event id `key`; nothing is sent
    /// before the first progress is shown.
    pub fn progress_notice<'a>(&'a self, origin: &'a Origin, key: &'a str) -> ProgressNotice<'a> {
        ProgressNotice { speaker: self, origin, key, sent: None }
    }
}

impl Show for ProgressNotice<'_> {
    async fn show(&mut self, progress: Progress) -> Result<(), PlaceError> {
        let channel = &self.origin.channel;
        let room =
            self.speaker.client.get_room(&channel.room).ok_or_else(|| format!("Chimera is not in {}", channel.room))?;
        let mut content = RoomMessageEventContent::notice_plain(progress.to_string());
        // Progress calls on nobody, not even the asker its reply quotes.
        content.mentions = Some(Mentions::new());
        match &self.sent {
            None => {
                content.relates_to = relation(channel, self.origin.event.clone());
                let txn = format!("chimera.{}.progress", self.key).into();
                self.sent = Some(send(&room, content, Some(txn)).await?);
            }
            Some(notice) => {
                let edit = content.make_replacement(ReplacementMetadata::new(notice.clone(), None));
                let txn = format!("chimera.{}.progress.{}", self.key, progress.percent()).into();
                send(&room, edit, Some(txn)).await?;
            }
        }
        Ok(())
    }
}

/// Whether `room` is encrypted; when the SDK cannot tell, it is taken to be (an attachment
/// encrypted needlessly is still shown; one sent in the clear into an encrypted room leaks).
pub(super) async fn is_encrypted(room: &Room) -> bool {
    room.latest_encryption_state().await.map(|s| s.is_encrypted()).unwrap_or(true)
}
