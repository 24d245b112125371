//! Discord's objects as JSON, field for field from the API documentation.
//!
//! Each builder names the documentation section it follows. Fields the fake has no model for are
//! sent with the value Discord sends when the feature is unused (`null`, `[]`, `false`, `0`), so a
//! client that requires a field finds it.

use serde_json::{json, Value};

use crate::ids::{timestamp_of, ChannelId, GuildId};
use crate::state::{Attachment, Channel, ChannelKind, Guild, InteractionKind, Message, User, World};

/// Permission bits ("Permissions", Bitwise Permission Flags) a member of a fake guild holds:
/// see channels, read history, send messages (in threads too), attach files, embed links, use
/// application commands, start threads.
const MEMBER_PERMISSIONS: u64 = (1 << 10) // VIEW_CHANNEL
    | (1 << 11) // SEND_MESSAGES
    | (1 << 14) // EMBED_LINKS
    | (1 << 15) // ATTACH_FILES
    | (1 << 16) // READ_MESSAGE_HISTORY
    | (1 << 31) // USE_APPLICATION_COMMANDS
    | (1 << 35) // CREATE_PUBLIC_THREADS
    | (1 << 36) // CREATE_PRIVATE_THREADS
    | (1 << 38); // SEND_MESSAGES_IN_THREADS

/// The permission a server's managers hold ("Permissions", MANAGE_GUILD).
const MANAGE_GUILD: u64 = 1 << 5;

/// What the bot may do in a fake guild: a member's permissions plus managing threads and messages.
const BOT_PERMISSIONS: u64 = MEMBER_PERMISSIONS | (1 << 13) /* MANAGE_MESSAGES */ | (1 << 34) /* MANAGE_THREADS */;

/// The upload limit in bytes an interaction reports ("Interaction Object", attachment_size_limit).
const ATTACHMENT_SIZE_LIMIT: u64 = 10 * 1024 * 1024;

/// "User Object". Usernames are unique, so the discriminator is "0".
pub(crate) fn user(user: &User) -> Value {
    json!({
        "id": user.id.to_string(),
        "username": user.name,
        "discriminator": "0",
        "global_name": if user.bot { Value::Null } else { json!(user.name) },
        "avatar": null,
        "bot": user.bot,
        "system": false,
        "banner": null,
        "accent_color": null,
        "public_flags": 0,
        "avatar_decoration_data": null,
    })
}

/// "Get Current User": the user object with the fields only its owner sees.
pub(crate) fn current_user(bot: &User) -> Value {
    let mut user = user(bot);
    user["mfa_enabled"] = json!(false);
    user["verified"] = json!(true);
    user["flags"] = json!(0);
    user["locale"] = json!("en-US");
    user
}

/// "Guild Member Object". Everyone joined when the guild was made.
pub(crate) fn member(guild: &Guild, user: &User) -> Value {
    json!({
        "user": self::user(user),
        "nick": null,
        "avatar": null,
        "banner": null,
        "roles": [],
        "joined_at": timestamp_of(guild.id.get()),
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
    })
}

/// "Role Object" for @everyone, whose id is the guild's ("Permissions", Role Object).
fn everyone_role(guild: GuildId) -> Value {
    json!({
        "id": guild.to_string(),
        "name": "@everyone",
        "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": 0,
        "permissions": MEMBER_PERMISSIONS.to_string(),
        "managed": false,
        "mentionable": false,
        "flags": 0,
    })
}

/// "Channel Object": a guild text channel, a thread with its "Thread Metadata Object", or a DM
/// with its recipient.
pub(crate) fn channel(world: &World, channel: &Channel) -> Value {
    let mut json = json!({
        "id": channel.id.to_string(),
        "type": channel.kind as u8,
        "last_message_id": channel.last_message.map(|id| id.to_string()),
        "flags": 0,
    });
    if let Some(guild) = channel.guild {
        json["guild_id"] = json!(guild.to_string());
        json["name"] = json!(channel.name);
        json["rate_limit_per_user"] = json!(0);
        json["nsfw"] = json!(false);
    }
    match channel.kind {
        ChannelKind::GuildText => {
            json["position"] = json!(0);
            json["permission_overwrites"] = json!([]);
            json["topic"] = Value::Null;
            json["parent_id"] = Value::Null;
            json["last_pin_timestamp"] = Value::Null;
        }
        ChannelKind::PublicThread | ChannelKind::PrivateThread => {
            let created = timestamp_of(channel.id.get());
            json["parent_id"] = json!(channel.parent.map(|id| id.to_string()));
            json["owner_id"] = json!(channel.owner.map(|id| id.to_string()));
            json["message_count"] = json!(channel.message_count);
            json["total_message_sent"] = json!(channel.message_count);
            json["member_count"] = json!(1);
            json["thread_metadata"] = json!({
                "archived": false,
                "auto_archive_duration": channel.auto_archive_minutes,
                "archive_timestamp": created,
                "locked": false,
                "create_timestamp": created,
            });
            if channel.kind == ChannelKind::PrivateThread {
                json["thread_metadata"]["invitable"] = json!(true);
            }
        }
        ChannelKind::Dm => {
            let recipient = channel.recipient.and_then(|id| world.users.get(&id));
            json["recipients"] = json!(recipient.map(user).into_iter().collect::<Vec<_>>());
            json["last_pin_timestamp"] = Value::Null;
        }
    }
    json
}

/// "Unavailable Guild Object": what READY lists before each guild's GUILD_CREATE.
pub(crate) fn unavailable_guild(guild: &Guild) -> Value {
    json!({ "id": guild.id.to_string(), "unavailable": true })
}

/// "Guild Object" with the extra fields of the "Guild Create" gateway event.
pub(crate) fn guild_create(world: &World, guild: &Guild) -> Value {
    let channels = world.channels.values().filter(|c| c.guild == Some(guild.id));
    let (threads, channels): (Vec<&Channel>, Vec<&Channel>) = channels.partition(|c| c.parent.is_some());
    let members: Vec<Value> = world.users.values().map(|u| member(guild, u)).collect();
    json!({
        "id": guild.id.to_string(),
        "name": guild.name,
        "icon": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": guild.owner.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [everyone_role(guild.id)],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_members": 500_000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
        "joined_at": timestamp_of(guild.id.get()),
        "large": false,
        "unavailable": false,
        "member_count": members.len(),
        "voice_states": [],
        "members": members,
        "channels": channels.into_iter().map(|c| channel(world, c)).collect::<Vec<_>>(),
        "threads": threads.into_iter().map(|c| channel(world, c)).collect::<Vec<_>>(),
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    })
}

/// "Attachment Object". The fake serves the bytes itself, at the URL it reports.
pub(crate) fn attachment(world: &World, message: &Message, attachment: &Attachment) -> Value {
    let url =
        format!("{}/attachments/{}/{}/{}", world.base_url, message.channel_id, attachment.id, attachment.filename);
    json!({
        "id": attachment.id.to_string(),
        "filename": attachment.filename,
        "description": attachment.description,
        "content_type": attachment.content_type,
        "size": attachment.bytes.len(),
        "url": url,
        "proxy_url": url,
        "flags": 0,
    })
}

/// "Message Object". Replies to interactions carry the webhook, application and
/// "Message Interaction Metadata Object" that Discord sets on them.
pub(crate) fn message(world: &World, message: &Message) -> Value {
    let author = world.users.get(&message.author).map(user).unwrap_or(Value::Null);
    let interaction = message.interaction.and_then(|id| world.interactions.get(&id));
    let kind = match interaction.map(|i| i.kind) {
        Some(InteractionKind::ApplicationCommand) => 20, // CHAT_INPUT_COMMAND
        _ => 0,                                          // DEFAULT
    };
    let guild = world.guild_of(message.channel_id).map(|g| g.to_string());
    let mut json = json!({
        "id": message.id.to_string(),
        "channel_id": message.channel_id.to_string(),
        "guild_id": guild,
        "author": author,
        "content": message.content,
        "timestamp": timestamp_of(message.id.get()),
        "edited_timestamp": message.edited_at,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": message.attachments.iter().map(|a| attachment(world, message, a)).collect::<Vec<_>>(),
        "embeds": message.embeds,
        "pinned": false,
        "type": kind,
        "flags": message.flags,
        "components": message.components,
    });
    if let Some(interaction) = interaction {
        json["webhook_id"] = json!(world.application.to_string());
        json["application_id"] = json!(world.application.to_string());
        json["interaction_metadata"] = json!({
            "id": interaction.id.to_string(),
            "type": interaction.kind as u8,
            "user": world.users.get(&interaction.user).map(user),
            "authorizing_integration_owners": { "0": guild },
        });
        // "Message Interaction Metadata Object": a component's carries the message it sits on.
        if let Some(source) = interaction.source_message {
            json["interaction_metadata"]["interacted_message_id"] = json!(source.to_string());
        }
    }
    if let Some(thread) = world.channels.get(&ChannelId(message.id.get())) {
        // A thread started from a message shares its id ("Start Thread from Message").
        json["thread"] = channel(world, thread);
    }
    json
}

/// "Interaction Object" as INTERACTION_CREATE carries it, around type-specific `data`.
pub(crate) fn interaction(
    world: &World,
    interaction: &crate::state::Interaction,
    data: Value,
    source_message: Option<&Message>,
) -> Value {
    let channel = &world.channels[&interaction.channel];
    let guild = channel.guild.and_then(|g| world.guilds.get(&g));
    let guild = guild.expect("interactions come from guild channels (`World::interaction_guild`)");
    let user = &world.users[&interaction.user];
    let mut member = member(guild, user);
    let permissions = if user.manager { MEMBER_PERMISSIONS | MANAGE_GUILD } else { MEMBER_PERMISSIONS };
    member["permissions"] = json!(permissions.to_string());
    let mut json = json!({
        "id": interaction.id.to_string(),
        "application_id": world.application.to_string(),
        "type": interaction.kind as u8,
        "data": data,
        "guild": { "id": guild.id.to_string(), "locale": "en-US", "features": [] },
        "guild_id": guild.id.to_string(),
        "channel": self::channel(world, channel),
        "channel_id": channel.id.to_string(),
        "member": member,
        "token": interaction.token,
        "version": 1,
        "app_permissions": BOT_PERMISSIONS.to_string(),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": { "0": guild.id.to_string() },
        "context": 0, // GUILD
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    });
    if let Some(message) = source_message {
        json["message"] = self::message(world, message);
    }
    json
}

/// "Application Object", as "Get Current Application" returns it.
pub(crate) fn application(world: &World) -> Value {
    let bot = &world.users[&world.bot];
    json!({
        "id": world.application.to_string(),
        "name": bot.name,
        "icon": null,
        "description": "",
        "bot_public": true,
        "bot_require_code_grant": false,
        "bot": user(bot),
        "owner": user(bot),
        "team": null,
        "summary": "",
        "verify_key": format!("{:064x}", world.application),
        "flags": 0,
        "approximate_guild_count": world.guilds.len(),
        "tags": [],
    })
}
