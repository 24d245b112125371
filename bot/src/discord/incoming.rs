//! From an interaction to the host: the typed command a slash command builds or a button's
//! custom id reads as (the people it names looked up on Discord), the request, and the deferral
//! when the host is slow.
//!
//! What it guarantees: Discord hears back within [`Settings::defer_after`] of every interaction
//! (the answer, or a deferral: "thinking" for a slash command, a silent acknowledgement for a
//! button), well inside the three seconds after which it forgets one. A slash command the host
//! is slow with and that reports progress (an analysis) shows it in its deferred answer, at
//! [`PROGRESS_PACE`]; a command answered before the deferral shows none, and a button's deferral
//! leaves its message as it is.
//!
//! [`Settings::defer_after`]: super::Settings::defer_after

use std::time::Instant;

use poise::serenity_prelude as serenity;
use serenity::{Builder, CreateInteractionResponse, CreateInteractionResponseMessage, Http, InteractionId};
use tracing::debug;

use super::channel::DiscordThreads;
use super::outgoing::{answer, Answered, Placeholder, PROGRESS_PACE};
use super::{Context, Data, Error, PLATFORM};
use crate::progress::{self, Reporting};
use host::{Command, Mention, PlaceKind, Reply, Request, User};

/// Who acts, as the host knows them: their server nickname if they have one.
pub fn user_of(user: &serenity::User, member: Option<&serenity::Member>) -> User {
    let name = member.and_then(|m| m.nick.clone()).or_else(|| user.global_name.clone()).unwrap_or(user.name.clone());
    User { id: user.id.to_string(), name }
}

/// Where an interaction happened and how to answer it.
pub struct Target<'a> {
    pub id: InteractionId,
    pub token: &'a str,
    pub channel: serenity::ChannelId,
    pub guild: Option<serenity::GuildId>,
    pub user: User,
    /// May run the server's tournaments (Manage Server).
    pub manager: bool,
    pub origin: Origin,
}

/// What an interaction came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Slash,
    /// A click on a button of one of Chimera's messages: once its command has run, the
    /// message's buttons are removed, so a used button cannot be pressed again.
    Button,
}

impl<'a> Target<'a> {
    pub fn new(
        id: InteractionId,
        token: &'a str,
        channel: serenity::ChannelId,
        guild: Option<serenity::GuildId>,
        user: &serenity::User,
        member: Option<&serenity::Member>,
        origin: Origin,
    ) -> Target<'a> {
        let (user, manager) = (user_of(user, member), super::is_manager(member));
        Target { id, token, channel, guild, user, manager, origin }
    }
}

/// A user named in a slash option, as the host knows them: Discord resolved them, with their
/// server nickname when the interaction carries it.
pub fn person(ctx: Context<'_>, user: &serenity::User) -> User {
    let member = match ctx {
        poise::Context::Application(app) => app.interaction.data.resolved.members.get(&user.id),
        poise::Context::Prefix(_) => None,
    };
    let nick = member.and_then(|m| m.nick.clone());
    User { name: nick.unwrap_or_else(|| user_of(user, None).name), id: user.id.to_string() }
}

/// Runs a slash command's typed command as its user and answers; a free-text option that does
/// not read (`time:soon`) is answered privately with what is wrong.
pub async fn run(ctx: Context<'_>, command: Result<Command, String>) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else { return Ok(()) };
    let interaction = app.interaction;
    let (member, guild) = (interaction.member.as_deref(), interaction.guild_id);
    let target = Target::new(
        interaction.id,
        &interaction.token,
        interaction.channel_id,
        guild,
        &interaction.user,
        member,
        Origin::Slash,
    );
    match command {
        Ok(command) => execute(ctx.serenity_context(), ctx.data(), &target, command).await,
        Err(why) => answer(&ctx.serenity_context().http, &target, Reply::error(why), Answered::Not).await,
    }
}

/// Runs a button's custom id (a command line the host wrote) as the user who clicked it.
pub async fn click(ctx: &serenity::Context, data: &Data, target: &Target<'_>, custom_id: &str) -> Result<(), Error> {
    let command = match custom_id.parse::<Command<Mention>>() {
        Ok(typed) => resolve(&ctx.http, target.guild, typed).await,
        Err(e) => Err(e.to_string()),
    };
    match command {
        Ok(command) => execute(ctx, data, target, command).await,
        Err(why) => answer(&ctx.http, target, Reply::error(why), Answered::Not).await,
    }
}

/// The people a command read from text names, looked up on Discord: `<@id>` or `@id`.
async fn resolve(http: &Http, guild: Option<serenity::GuildId>, typed: Command<Mention>) -> Result<Command, String> {
    let mut found = Vec::new();
    for Mention(text) in typed.people() {
        let id =
            text.strip_prefix("<@").and_then(|t| t.strip_suffix('>')).unwrap_or(text).trim_start_matches(['@', '!']);
        let id = id.parse::<u64>().ok().filter(|&id| id != 0).ok_or(format!("`{text}` is not a Discord user"))?;
        let user = serenity::UserId::new(id);
        let member = match guild {
            Some(guild) => guild.member(http, user).await.ok(),
            None => None,
        };
        let user = match &member {
            Some(member) => member.user.clone(),
            None => user.to_user(http).await.map_err(|_| format!("there is no Discord user `{text}`"))?,
        };
        found.push(user_of(&user, member.as_ref()));
    }
    let mut found = found.into_iter();
    typed.try_map_users(|_| found.next().ok_or_else(|| "a user went missing".to_string()))
}

/// Runs `command` and answers the interaction, deferring first if the host takes longer than
/// the settings allow; `/metrics` counts the time until the answer went out.
async fn execute(ctx: &serenity::Context, data: &Data, target: &Target<'_>, command: Command) -> Result<(), Error> {
    let arrived = Instant::now();
    let answered = run_and_answer(ctx, data, target, command).await;
    data.host.metrics().answered(arrived.elapsed());
    answered
}

async fn run_and_answer(
    ctx: &serenity::Context,
    data: &Data,
    target: &Target<'_>,
    command: Command,
) -> Result<(), Error> {
    let http = &ctx.http;
    debug!(user = %target.user.id, channel = %target.channel, %command, "command");
    let request = Request {
        platform: PLATFORM.to_string(),
        server: target.guild.map(|g| g.to_string()),
        channel: target.channel.to_string(),
        user: target.user.clone(),
        manager: target.manager,
        // A guild's channel is its members'; without a guild, a direct message.
        place: if target.guild.is_some() { PlaceKind::Shared } else { PlaceKind::Direct },
        request_id: target.id.to_string(),
        command,
    };
    let threads = DiscordThreads::new(http.clone());
    let (places, mut progress) = Reporting::new(&threads);
    let work = data.host.handle(request, &places);
    tokio::pin!(work);
    // Zero means "always defer", whatever the host's speed.
    let wait = data.settings.defer_after;
    if !wait.is_zero() {
        // Progress reported meanwhile is not shown: there is no answer yet to edit.
        if let Ok(reply) = tokio::time::timeout(wait, &mut work).await {
            return answer(http, target, reply, Answered::Not).await;
        }
    }
    // Discord forgets an interaction not answered in 3 s: say "thinking" now (for a button,
    // acknowledge it and leave its message as it is for now).
    let defer = match target.origin {
        Origin::Slash => CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new()),
        Origin::Button => CreateInteractionResponse::Acknowledge,
    };
    defer.execute(http, (target.id, target.token)).await?;
    data.host.metrics().deferred();
    let (reply, answered) = match target.origin {
        Origin::Slash => {
            let mut placeholder = Placeholder { http, token: target.token };
            match progress::show_while(work, &mut progress, PROGRESS_PACE, &mut placeholder).await {
                (reply, Some(_)) => (reply, Answered::Progress),
                (reply, None) => (reply, Answered::Deferred),
            }
        }
        // The acknowledged button's message is the game's: no progress goes there.
        Origin::Button => (work.await, Answered::Deferred),
    };
    answer(http, target, reply, answered).await
}
