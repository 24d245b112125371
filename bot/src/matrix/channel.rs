//! Channels on Matrix: a room's main timeline, or one thread of it. The host knows a channel by
//! its text: the room id (`!abc:example.org`), or the room id and the thread's root event
//! (`!abc:example.org/$root`), so each thread holds a game of its own. A message for one user
//! alone goes to the direct room with them ([`DirectRooms`]). A setting names a room by its id
//! or an alias.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use matrix_sdk::ruma::api::error::ErrorKind;
use matrix_sdk::ruma::events::room::member::MembershipState;
use matrix_sdk::ruma::events::room::message::RoomMessageEventContent;
use matrix_sdk::ruma::{EventId, OwnedEventId, OwnedRoomId, OwnedUserId, RoomAliasId, RoomId, UserId};
use matrix_sdk::{Client, Room, RoomState};

use host::{ChannelMention, FoundChannel, Message, PlaceError, Places, User};

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
/// thread), and announcements posted with their key as the transaction id, in their channel or
/// in the direct room of the one user they are for.
pub struct MatrixThreads {
    pub speaker: Speaker,
    pub direct: DirectRooms,
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
        let key = message.key.as_deref();
        match &message.to {
            Some(user) => {
                let room = self.direct.room_with(&self.speaker.client, user).await?;
                self.speaker.post_in(&Channel::room(room.room_id().to_owned()), None, message, key).await?;
            }
            None => self.speaker.post(None, message, key).await?,
        }
        Ok(())
    }

    /// A room named by its id (`!abc:example.org`) or an alias (`#chess:example.org`, resolved
    /// by the homeserver). A Matrix room is a place of its own (the host's server), so the one
    /// room a setting of `server` may name is that room itself: its main timeline.
    async fn find_channel(&self, server: &str, named: &ChannelMention) -> Result<FoundChannel, PlaceError> {
        let text = named.as_str();
        let room: OwnedRoomId = if let Ok(room) = RoomId::parse(text) {
            room
        } else if let Ok(alias) = RoomAliasId::parse(text) {
            match self.speaker.client.resolve_room_alias(&alias).await {
                Ok(found) => found.room_id,
                Err(e) if matches!(e.client_api_error_kind(), Some(ErrorKind::NotFound)) => {
                    return Ok(FoundChannel::Unknown)
                }
                Err(e) => return Err(e.into()),
            }
        } else {
            return Ok(FoundChannel::Unknown);
        };
        Ok(if room.as_str() == server {
            FoundChannel::Here(Channel::room(room).to_string())
        } else {
            FoundChannel::Elsewhere
        })
    }

    /// The room's display name as Matrix computes it (its name, else its alias, else its members),
    /// the same for a thread of it; none for a room Chimera is not in or that has no name at all.
    async fn channel_name(&self, channel: &str) -> Option<String> {
        use matrix_sdk::RoomDisplayName;
        let channel: Channel = channel.parse().ok()?;
        let room = self.speaker.client.get_room(&channel.room)?;
        match room.display_name().await.ok()? {
            RoomDisplayName::Named(name)
            | RoomDisplayName::Aliased(name)
            | RoomDisplayName::Calculated(name)
            | RoomDisplayName::EmptyWas(name) => Some(name),
            RoomDisplayName::Empty => None,
        }
    }
}

/// Chimera's direct room with each user it has written to alone. Shared by every clone.
///
/// matrix-sdk counts a room it created as direct only once a sync brings back the `m.direct`
/// account data it set, so a second message to the same user before then would open a second
/// room; this remembers the room from its creation on, and lets one lookup run at a time.
#[derive(Clone, Default)]
pub struct DirectRooms(Arc<tokio::sync::Mutex<HashMap<OwnedUserId, OwnedRoomId>>>);

impl DirectRooms {
    /// The direct room with `user` that they are in or invited to; when there is none, a new
    /// one, with `user` invited and the room marked direct (`Client::create_dm`, which makes it
    /// encrypted: the invitation's devices are given its key when the first message is sent).
    async fn room_with(&self, client: &Client, user: &User) -> Result<Room, PlaceError> {
        let id = UserId::parse(&user.id)
            .map_err(|e| format!("a direct message for {}, who is no Matrix user: {e}", user.id))?;
        let mut known = self.0.lock().await;
        let remembered = known.get(&id).and_then(|room| client.get_room(room));
        let found: Vec<Room> = remembered.into_iter().chain(client.get_dm_rooms(&id)).collect();
        for room in found {
            if reaches(&room, &id).await.map_err(|e| dm_error(user, e))? {
                known.insert(id, room.room_id().to_owned());
                return Ok(room);
            }
        }
        let room = client.create_dm(&id).await.map_err(|e| dm_error(user, e))?;
        tracing::info!(user = %id, room = %room.room_id(), "opened a direct room");
        known.insert(id, room.room_id().to_owned());
        Ok(room)
    }
}

/// Whether a message in `room` reaches `user`: Chimera is in it, and they are or are invited. A
/// direct room they left (or Chimera was made to leave) reaches nobody.
async fn reaches(room: &Room, user: &UserId) -> matrix_sdk::Result<bool> {
    if room.state() != RoomState::Joined {
        return Ok(false);
    }
    let member = room.get_member(user).await?;
    Ok(member.is_some_and(|m| matches!(m.membership(), MembershipState::Join | MembershipState::Invite)))
}

/// A failed call for a direct room, as the host weighs it: the homeserver's 401 or 403 (the
/// user's server refuses the invitation, Chimera may not create rooms) refused, so the host backs
/// off from that user and drops their messages in bounded time; anything else worth retrying.
fn dm_error(user: &User, e: matrix_sdk::Error) -> PlaceError {
    let status = e.as_client_api_error().map(|api| api.status_code.as_u16());
    let what = format!("a direct room with {} ({}): {e}", user.name, user.id);
    match status {
        Some(401 | 403) => PlaceError::refused(what),
        _ => PlaceError::from(what),
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
