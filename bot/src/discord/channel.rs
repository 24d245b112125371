//! Channels on Discord: a channel id as the host stores it (decimal text), the host's places
//! (a public thread of the busy channel for a new game, a user's DM for a message to them
//! alone, a channel a setting names), and a failed Discord call as the host weighs it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use poise::serenity_prelude as serenity;
use serenity::{AutoArchiveDuration, ChannelType, CreateThread, Http};

use host::{ChannelMention, FoundChannel, Message, PlaceError, PlaceFailure, Places, User};

use super::outgoing;

/// Discord's limit on a thread's name.
const THREAD_NAME_LIMIT: usize = 100;

/// The host's places on Discord: public threads for games whose channel is busy, and
/// announcements posted in their channels, or in the DM of the one user they are for.
pub struct DiscordThreads {
    http: Arc<Http>,
    /// Each user's DM channel once opened: Discord answers every "Create DM" with the same
    /// channel, so asking once per user and process is enough.
    dms: Mutex<HashMap<serenity::UserId, serenity::ChannelId>>,
}

impl DiscordThreads {
    pub fn new(http: Arc<Http>) -> DiscordThreads {
        DiscordThreads { http, dms: Mutex::default() }
    }

    /// The DM channel with `user`, opened if it is not known yet.
    async fn dm_channel(&self, user: serenity::UserId) -> Result<serenity::ChannelId, serenity::Error> {
        if let Some(&channel) = self.dms().get(&user) {
            return Ok(channel);
        }
        let channel = user.create_dm_channel(&*self.http).await?.id;
        self.dms().insert(user, channel);
        Ok(channel)
    }

    fn dms(&self) -> std::sync::MutexGuard<'_, HashMap<serenity::UserId, serenity::ChannelId>> {
        self.dms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Posts `message` to `user` alone, in their DM.
    async fn post_to(&self, user: &User, message: &Message) -> Result<(), PlaceError> {
        let id = user_id(&user.id).ok_or_else(|| format!("a direct message for {}, who has no Discord id", user.id))?;
        let channel = self.dm_channel(id).await.map_err(|e| dm_error(user, e))?;
        outgoing::post(&self.http, channel, message).await.map_err(|e| {
            let error = dm_error(user, e);
            if error.failure() == PlaceFailure::Gone {
                // The DM is no more: the next attempt asks Discord for the one it has now.
                self.dms().remove(&id);
            }
            error
        })
    }
}

#[async_trait]
impl Places for DiscordThreads {
    async fn open_place(&self, parent_channel: &str, title: &str) -> Result<String, PlaceError> {
        let mut parent =
            channel_id(parent_channel).ok_or_else(|| format!("{parent_channel} is not a Discord channel id"))?;
        // A thread cannot hold a thread: a game asked for inside one goes beside it.
        if let serenity::Channel::Guild(channel) = parent.to_channel(&self.http).await.map_err(place_error)? {
            if channel.thread_metadata.is_some() {
                parent = channel.parent_id.unwrap_or(parent);
            }
        }
        let name: String = title.chars().take(THREAD_NAME_LIMIT).collect();
        let thread =
            CreateThread::new(name).kind(ChannelType::PublicThread).auto_archive_duration(AutoArchiveDuration::OneWeek);
        let created = parent.create_thread(&self.http, thread).await.map_err(place_error)?;
        Ok(created.id.to_string())
    }

    async fn post(&self, message: &Message) -> Result<(), PlaceError> {
        if let Some(user) = &message.to {
            return self.post_to(user, message).await;
        }
        let channel = message
            .channel
            .as_deref()
            .and_then(channel_id)
            .ok_or_else(|| format!("an announcement without a Discord channel: {:?}", message.channel))?;
        outgoing::post(&self.http, channel, message).await.map_err(place_error)
    }

    /// A channel mention (`<#id>`, as a channel option is written; `#id`), looked up on Discord:
    /// a text or announcement channel or a thread of `server` is one for messages. One Chimera
    /// cannot see (403) or that does not exist (404), or text that names no id, is unknown.
    async fn find_channel(&self, server: &str, named: &ChannelMention) -> Result<FoundChannel, PlaceError> {
        let text = named.as_str();
        let id = text.strip_prefix("<#").and_then(|t| t.strip_suffix('>')).or_else(|| text.strip_prefix('#'));
        let Some(id) = id.and_then(channel_id) else { return Ok(FoundChannel::Unknown) };
        let channel = match id.to_channel(&self.http).await {
            Ok(channel) => channel,
            Err(e) => {
                let error = place_error(e);
                return if error.is_permanent() { Ok(FoundChannel::Unknown) } else { Err(error) };
            }
        };
        let serenity::Channel::Guild(channel) = channel else { return Ok(FoundChannel::Elsewhere) };
        if channel.guild_id.to_string() != server {
            return Ok(FoundChannel::Elsewhere);
        }
        let for_messages = matches!(
            channel.kind,
            ChannelType::Text
                | ChannelType::News
                | ChannelType::PublicThread
                | ChannelType::PrivateThread
                | ChannelType::NewsThread
        );
        Ok(if for_messages { FoundChannel::Here(channel.id.to_string()) } else { FoundChannel::NotForMessages })
    }

    /// A server channel's name, as Discord has it now; none for a direct message or a channel
    /// Chimera cannot look at.
    async fn channel_name(&self, channel: &str) -> Option<String> {
        match channel_id(channel)?.to_channel(&self.http).await.ok()? {
            serenity::Channel::Guild(channel) => Some(channel.name),
            _ => None,
        }
    }
}

/// A failed Discord call as the host weighs it: 401 and 403 refused (no access, a missing
/// permission such as Create Public Threads, a bot kicked from the server), 404 gone (a deleted
/// channel), anything else worth trying again. The host backs off from the first two and gives
/// the work up in bounded time, as Discord blocks a bot that sends it too many of them.
pub fn place_error(e: serenity::Error) -> PlaceError {
    let status = match &e {
        serenity::Error::Http(http) => http.status_code().map(|s| s.as_u16()),
        _ => None,
    };
    match status {
        Some(401 | 403) => PlaceError::refused(e),
        Some(404) => PlaceError::gone(e),
        _ => PlaceError::from(e),
    }
}

/// A failed call for a direct message, weighed as [`place_error`] weighs any, and saying whom
/// it was for: Discord refuses (403, code 50007 "Cannot send messages to this user") a message
/// to a user who takes no DMs from server members, has blocked the bot, or shares no server
/// with it, and the host then backs off from that user and drops their messages in bounded time.
fn dm_error(user: &User, e: serenity::Error) -> PlaceError {
    let failure = place_error(e);
    PlaceError::new(failure.failure(), format!("a direct message to {} ({}): {failure}", user.name, user.id))
}

/// A channel id as the host stores it (decimal text).
pub fn channel_id(text: &str) -> Option<serenity::ChannelId> {
    text.parse::<u64>().ok().filter(|&id| id != 0).map(serenity::ChannelId::new)
}

/// A user id as the host stores it (decimal text).
fn user_id(text: &str) -> Option<serenity::UserId> {
    text.parse::<u64>().ok().filter(|&id| id != 0).map(serenity::UserId::new)
}
