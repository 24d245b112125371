//! Channels on Discord: a channel id as the host stores it (decimal text), the host's places
//! (a public thread of the busy channel for a new game), and a failed Discord call as the host
//! weighs it.

use std::sync::Arc;

use async_trait::async_trait;
use poise::serenity_prelude as serenity;
use serenity::{AutoArchiveDuration, ChannelType, CreateThread, Http};

use host::{Message, PlaceError, Places};

use super::outgoing;

/// Discord's limit on a thread's name.
const THREAD_NAME_LIMIT: usize = 100;

/// The host's places on Discord: public threads for games whose channel is busy, and
/// announcements posted in their channels.
pub struct DiscordThreads {
    http: Arc<Http>,
}

impl DiscordThreads {
    pub fn new(http: Arc<Http>) -> DiscordThreads {
        DiscordThreads { http }
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
        outgoing::post(&self.http, message).await
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

/// A channel id as the host stores it (decimal text).
pub fn channel_id(text: &str) -> Option<serenity::ChannelId> {
    text.parse::<u64>().ok().filter(|&id| id != 0).map(serenity::ChannelId::new)
}
