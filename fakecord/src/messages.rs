//! Making, editing and announcing messages, whichever route they come by: a channel post, an
//! interaction response, a follow-up.

use serde_json::{json, Value};

use crate::ids::{now_timestamp, ChannelId, GuildId, InteractionId, MessageId, UserId};
use crate::multipart::{resolve_attachments, MessageBody};
use crate::objects;
use crate::rest::ApiError;
use crate::state::intents::{DIRECT_MESSAGES, GUILD_MESSAGES};
use crate::state::{Message, Shared, World};

/// Flags a bot may set on a message ("Message Object", Message Flags): SUPPRESS_EMBEDS and
/// SUPPRESS_NOTIFICATIONS anywhere, EPHEMERAL only in answer to an interaction.
const SETTABLE_FLAGS: u64 = (1 << 2) | (1 << 12);
pub(crate) const LOADING: u64 = 1 << 7;

/// "Create Message" limits ("Message Resource"): 2000 characters, 10 embeds, 10 files, and 5
/// action rows.
const MAX_CONTENT_CHARS: usize = 2000;
const MAX_EMBEDS: usize = 10;
const MAX_FILES: usize = 10;
const MAX_ACTION_ROWS: usize = 5;
const MAX_PER_ROW: usize = 5;

/// A new message from a request's JSON params and files.
pub(crate) fn compose(
    shared: &Shared,
    channel: ChannelId,
    author: UserId,
    body: MessageBody,
    interaction: Option<InteractionId>,
) -> Result<Message, ApiError> {
    let settable = if interaction.is_some() { SETTABLE_FLAGS | Message::EPHEMERAL } else { SETTABLE_FLAGS };
    let mut message = Message {
        id: MessageId(shared.mint()),
        channel_id: channel,
        author,
        content: String::new(),
        embeds: Vec::new(),
        components: Vec::new(),
        attachments: Vec::new(),
        flags: body.payload["flags"].as_u64().unwrap_or(0) & settable,
        interaction,
        edited_at: None,
    };
    fill(shared, &mut message, body)?;
    let empty = message.content.is_empty()
        && message.embeds.is_empty()
        && message.components.is_empty()
        && message.attachments.is_empty();
    if empty {
        return Err(ApiError::new(400, 50006, "Cannot send an empty message"));
    }
    Ok(message)
}

/// Applies "Edit Message" JSON params: what the payload names is replaced, the rest is kept.
pub(crate) fn edit(shared: &Shared, message: &mut Message, body: MessageBody) -> Result<(), ApiError> {
    fill(shared, message, body)?;
    message.flags &= !LOADING;
    message.edited_at = Some(now_timestamp());
    Ok(())
}

fn fill(shared: &Shared, message: &mut Message, body: MessageBody) -> Result<(), ApiError> {
    let payload = &body.payload;
    if let Some(content) = payload.get("content") {
        message.content = content.as_str().unwrap_or_default().to_owned();
    }
    if let Some(embeds) = payload.get("embeds") {
        message.embeds = embeds.as_array().cloned().unwrap_or_default();
    }
    if let Some(components) = payload.get("components") {
        message.components = components.as_array().cloned().unwrap_or_default();
    }
    if body.files.len() > MAX_FILES {
        return Err(ApiError::invalid_form(format!("at most {MAX_FILES} files")));
    }
    let uploads_or_listing = !body.files.is_empty() || payload.get("attachments").is_some();
    if uploads_or_listing {
        message.attachments = resolve_attachments(shared, payload, body.files, &message.attachments)?;
    }
    if message.content.chars().count() > MAX_CONTENT_CHARS {
        return Err(ApiError::invalid_form(format!("content: must be {MAX_CONTENT_CHARS} or fewer in length")));
    }
    if message.embeds.len() > MAX_EMBEDS {
        return Err(ApiError::invalid_form(format!("embeds: at most {MAX_EMBEDS}")));
    }
    if message.components.len() > MAX_ACTION_ROWS {
        return Err(ApiError::invalid_form(format!("components: at most {MAX_ACTION_ROWS} action rows")));
    }
    check_components(&message.components)?;
    Ok(())
}

/// What Discord checks of action rows ("Component Reference", Button): five components a row; a
/// link button (style 5) has a URL and no custom id, every other button a custom id and no URL.
fn check_components(rows: &[Value]) -> Result<(), ApiError> {
    for row in rows {
        let components = row["components"].as_array().cloned().unwrap_or_default();
        if components.len() > MAX_PER_ROW {
            return Err(ApiError::invalid_form(format!("components: at most {MAX_PER_ROW} in an action row")));
        }
        for c in components.iter().filter(|c| c["type"] == 2) {
            let link = c["style"] == crate::state::Component::LINK;
            let (url, id) = (c["url"].as_str(), c["custom_id"].as_str());
            match (link, url, id) {
                (true, Some(url), None) if url.starts_with("http://") || url.starts_with("https://") => {}
                (true, ..) => {
                    return Err(ApiError::invalid_form(
                        "components: a link button needs an http(s) url and no custom_id",
                    ))
                }
                (false, None, Some(_)) => {}
                (false, ..) => return Err(ApiError::invalid_form("components: a button needs a custom_id and no url")),
            }
        }
    }
    Ok(())
}

/// Stores a new message and tells the bot, as Discord does with MESSAGE_CREATE ("Gateway
/// Events", Message Create: a message object with `guild_id` and the author's partial `member`).
/// Ephemeral messages exist only for their recipient, so no event goes out for them.
pub(crate) fn publish(world: &mut World, message: Message) -> Value {
    let json = objects::message(world, &message);
    if let Some(channel) = world.channels.get_mut(&message.channel_id) {
        channel.last_message = Some(message.id);
        channel.message_count += 1;
    }
    if !message.is_ephemeral() {
        let mut event = json.clone();
        let guild = world.guild_of(message.channel_id).and_then(|g| world.guilds.get(&g));
        if let (Some(guild), Some(author)) = (guild, world.users.get(&message.author)) {
            let mut member = objects::member(guild, author);
            if let Some(member) = member.as_object_mut() {
                member.remove("user");
            }
            event["member"] = member;
        }
        let guild = world.guild_of(message.channel_id);
        world.dispatch(guild, "MESSAGE_CREATE", event, Some(messages_intent(guild)), None);
    }
    world.revisions.insert(message.id, vec![message.content.clone()]);
    world.messages.insert(message.id, message);
    json
}

/// Announces an edited message (MESSAGE_UPDATE), keeps its new content among its revisions, and
/// returns its new JSON.
pub(crate) fn publish_edit(world: &mut World, id: MessageId) -> Value {
    let content = world.messages[&id].content.clone();
    world.revisions.entry(id).or_default().push(content);
    let message = &world.messages[&id];
    let json = objects::message(world, message);
    if !message.is_ephemeral() {
        let guild = world.guild_of(message.channel_id);
        world.dispatch(guild, "MESSAGE_UPDATE", json.clone(), Some(messages_intent(guild)), None);
    }
    json
}

/// Removes a message and announces it ("Gateway Events", Message Delete).
pub(crate) fn delete(world: &mut World, id: MessageId) {
    let Some(message) = world.messages.remove(&id) else { return };
    if !message.is_ephemeral() {
        let guild = world.guild_of(message.channel_id);
        let event = json!({
            "id": id.to_string(),
            "channel_id": message.channel_id.to_string(),
            "guild_id": guild.map(|g| g.to_string()),
        });
        world.dispatch(guild, "MESSAGE_DELETE", event, Some(messages_intent(guild)), None);
    }
}

/// The intent a bot asks for to be told of messages: in a guild's channels, or in DMs (which
/// go to shard 0, as every event of no guild does).
fn messages_intent(guild: Option<GuildId>) -> u64 {
    match guild {
        Some(_) => GUILD_MESSAGES,
        None => DIRECT_MESSAGES,
    }
}
