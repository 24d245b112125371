//! Channels on Matrix: a room's main timeline, or one thread of it. The host knows a channel by
//! its text: the room id (`!abc:example.org`), or the room id and the thread's root event
//! (`!abc:example.org/$root`), so each thread holds a game of its own.

use std::fmt;
use std::str::FromStr;

use async_trait::async_trait;
use matrix_sdk::ruma::events::room::message::RoomMessageEventContent;
use matrix_sdk::ruma::{EventId, OwnedEventId, OwnedRoomId, RoomId};

use host::{Message, PlaceError, Places};

use super::outgoing::Speaker;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Channel {
    pub room: OwnedRoomId,
    /// The thread's root event; `None` for the room's main timeline.
    pub thread: Option<OwnedEventId>,
}

impl Channel {
    pub fn room(room: OwnedRoomId) -> Channel {
        Channel { room, thread: None }
    }

    /// What follows `https://matrix.to/#/` in a link to it.
    pub fn link_path(&self) -> String {
        match &self.thread {
            Some(root) => format!("{}/{}", self.room, root),
            None => self.room.to_string(),
        }
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.link_path())
    }
}

impl FromStr for Channel {
    type Err = String;

    fn from_str(text: &str) -> Result<Channel, String> {
        let (room, thread) = match text.split_once("/$") {
            Some((room, root)) => (room, Some(format!("${root}"))),
            None => (text, None),
        };
        let room = RoomId::parse(room).map_err(|e| format!("`{text}` is not a Matrix room: {e}"))?;
        let thread = thread
            .map(|root| EventId::parse(&root).map_err(|e| format!("`{text}` is not a Matrix thread: {e}")))
            .transpose()?;
        Ok(Channel { room, thread })
    }
}

/// The host's places on Matrix: threads for games whose channel is busy (a notice in the room,
/// titled as the host asks, `Round 2 · Board 3 · alice vs bob`, becomes the root of the game's
/// thread), and announcements posted with their key as the transaction id.
pub struct MatrixThreads {
    pub speaker: Speaker,
}

#[async_trait]
impl Places for MatrixThreads {
    async fn open_place(&self, parent_channel: &str, title: &str) -> Result<String, PlaceError> {
        let parent: Channel = parent_channel.parse()?;
        let room =
            self.speaker.client.get_room(&parent.room).ok_or_else(|| format!("Chimera is not in {}", parent.room))?;
        let body = format!("🧵 {title}");
        let html = format!("🧵 <strong>{}</strong>", super::text::escape(title));
        let sent = room.send(RoomMessageEventContent::notice_html(body, html)).await?;
        Ok(Channel { room: parent.room, thread: Some(sent.response.event_id) }.to_string())
    }

    async fn post(&self, message: &Message) -> Result<(), PlaceError> {
        self.speaker.post(None, message, message.key.as_deref()).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_read_back_as_written() {
        for text in ["!abc:example.org", "!abc:example.org/$Root_event-id", "!abc:localhost:8448/$x"] {
            let channel: Channel = text.parse().unwrap();
            assert_eq!(channel.to_string(), text);
        }
        let thread: Channel = "!abc:example.org/$root".parse().unwrap();
        assert_eq!(thread.thread.as_ref().map(|e| e.as_str()), Some("$root"));
        assert!("general".parse::<Channel>().is_err());
    }
}
