//! From an interaction to the host and back: the typed command a slash command builds or a
//! button's custom id reads as, the request, the deferral when the host is slow, and the host's
//! reply as Discord messages (text with the pinged players, boards as PNG attachments shown in
//! embeds, buttons, private errors as ephemeral messages).
//!
//! A slash command the host is slow with and that reports progress (an analysis) shows it in
//! its deferred answer, edited at most every [`PROGRESS_PACE`] ("Analysing game 12… 40%"); the
//! reply then replaces it. A command answered before the deferral shows none, and a button's
//! deferral leaves its message as it is.

use poise::serenity_prelude as serenity;
use serenity::{
    Builder, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateAutocompleteResponse, CreateButton,
    CreateEmbed, CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, EditInteractionResponse, Http, InteractionId,
};
use tracing::{debug, warn};

use super::places::{channel_id, Threads};
use super::{Context, Data, Error, PLATFORM};
use crate::progress::{self, Pace, Reporting, Show};
use host::{ButtonStyle, Command, Mention, Message, PlaceError, Progress, Reply, Request, User};

/// Discord's limits ("Message Object", "Component Reference").
const CONTENT_LIMIT: usize = 2000;
const CUSTOM_ID_LIMIT: usize = 100;
const BUTTONS_PER_ROW: usize = 5;
const CHOICE_LIMIT: usize = 25;
const CHOICE_TEXT_LIMIT: usize = 100;

/// How often a deferred answer is edited to show progress: interaction webhooks share Discord's
/// limit of about five requests in five seconds, and a step under 5% says nothing new.
/// Shown from the deferral on, which came after `defer_after` already.
pub const PROGRESS_PACE: Pace =
    Pace { first_after: std::time::Duration::ZERO, every: std::time::Duration::from_millis(1500), step: 5 };

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
/// the settings allow.
async fn execute(ctx: &serenity::Context, data: &Data, target: &Target<'_>, command: Command) -> Result<(), Error> {
    let http = &ctx.http;
    debug!(user = %target.user.id, channel = %target.channel, %command, "command");
    let request = Request {
        platform: PLATFORM.to_string(),
        server: target.guild.map(|g| g.to_string()),
        channel: target.channel.to_string(),
        user: target.user.clone(),
        manager: target.manager,
        request_id: target.id.to_string(),
        command,
    };
    let threads = Threads::new(http.clone());
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

/// How far an interaction is answered when the host's reply is ready.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answered {
    /// Not at all: the reply's first message is the interaction's response.
    Not,
    /// Deferred: Discord shows "thinking" until the first follow-up, which replaces it.
    Deferred,
    /// Deferred, then edited to show progress: the first message replaces that by an edit.
    Progress,
}

/// A slash command's deferred answer, edited to show the host's progress.
struct Placeholder<'a> {
    http: &'a Http,
    token: &'a str,
}

impl Show for Placeholder<'_> {
    async fn show(&mut self, progress: Progress) -> Result<(), PlaceError> {
        EditInteractionResponse::new().content(progress.to_string()).execute(self.http, self.token).await?;
        Ok(())
    }
}

/// Shows the host's reply: messages for this channel answer the interaction (the first as its
/// response, after a deferral as the follow-up that replaces "thinking", or after progress as
/// the edit that replaces it); messages for another channel (a new game's thread) are posted
/// there.
pub async fn answer(http: &Http, target: &Target<'_>, reply: Reply, answered: Answered) -> Result<(), Error> {
    let deferred = answered != Answered::Not;
    let failed = reply.is_error();
    let (here, elsewhere): (Vec<Message>, Vec<Message>) =
        reply.messages.into_iter().partition(|m| m.channel.as_deref().is_none_or(|c| c == target.channel.to_string()));
    let mut here = here.into_iter().map(Outgoing::from).collect::<Vec<_>>();
    if target.origin == Origin::Button && !failed {
        // The button did its work: its message loses its buttons, and the answer follows.
        if deferred {
            EditInteractionResponse::new().components(Vec::new()).execute(http, target.token).await?;
        } else {
            let update = CreateInteractionResponseMessage::new().components(Vec::new());
            CreateInteractionResponse::UpdateMessage(update).execute(http, (target.id, target.token)).await?;
        }
        for out in here {
            out.followup().execute(http, (None, target.token)).await?;
        }
        return post_elsewhere(http, target, elsewhere).await;
    }
    if target.origin == Origin::Button && deferred {
        // A refused click after an acknowledgement: the refusal follows privately.
        for out in here {
            out.followup().execute(http, (None, target.token)).await?;
        }
        return Ok(());
    }
    if here.is_empty() {
        // Everything went elsewhere; the interaction still needs its answer.
        let places: Vec<String> =
            elsewhere.iter().filter_map(|m| m.channel.as_deref()).map(|c| format!("<#{c}>")).collect();
        here.push(Outgoing::from(Message::error(format!("Done: see {}.", places.join(", ")))));
    }
    // After a deferral, the first follow-up would replace the public "thinking" placeholder and
    // so be public whatever its flags: a private answer first fills the placeholder (if progress
    // has not), then follows privately, then removes the placeholder.
    let private_after_deferral = deferred && here[0].private;
    if private_after_deferral && answered == Answered::Deferred {
        EditInteractionResponse::new().content("…").execute(http, target.token).await?;
    }
    for (i, out) in here.into_iter().enumerate() {
        match answered {
            Answered::Not if i == 0 => {
                CreateInteractionResponse::Message(out.response()).execute(http, (target.id, target.token)).await?;
            }
            Answered::Progress if i == 0 && !private_after_deferral => {
                out.edit().execute(http, target.token).await?;
            }
            _ => {
                out.followup().execute(http, (None, target.token)).await?;
            }
        }
    }
    if private_after_deferral {
        http.delete_original_interaction_response(target.token).await?;
    }
    post_elsewhere(http, target, elsewhere).await
}

/// Posts the messages of a reply meant for other channels (a new game's thread).
async fn post_elsewhere(http: &Http, target: &Target<'_>, elsewhere: Vec<Message>) -> Result<(), Error> {
    for message in elsewhere {
        let Some(channel) = message.channel.as_deref().and_then(channel_id) else { continue };
        Outgoing::from(message).message().execute(http, (channel, target.guild)).await?;
    }
    Ok(())
}

/// Posts a message the host sends by itself (a game ended on time, a round paired) in its channel.
pub async fn post(http: &Http, message: &Message) -> Result<(), host::PlaceError> {
    let channel = message
        .channel
        .as_deref()
        .and_then(channel_id)
        .ok_or_else(|| format!("an announcement without a Discord channel: {:?}", message.channel))?;
    let key = message.key.clone();
    let mut create = Outgoing::from(message.clone()).message();
    // Discord's idempotency: the same nonce again within minutes returns the first message.
    if let Some(key) = key {
        create = create.nonce(serenity::Nonce::String(key)).enforce_nonce(true);
    }
    create.execute(http, (channel, None)).await.map_err(super::places::place_error)?;
    Ok(())
}

/// `/move` autocomplete: the legal moves matching what the player typed.
pub async fn suggest_moves(ctx: Context<'_>, typed: &str) -> CreateAutocompleteResponse {
    let user = ctx.author().id.to_string();
    let found =
        ctx.data().host.suggest_moves(PLATFORM, &ctx.channel_id().to_string(), &user, typed, CHOICE_LIMIT).await;
    let suggestions = found.unwrap_or_else(|e| {
        warn!("move suggestions failed: {e:#}");
        Vec::new()
    });
    let choices = suggestions
        .into_iter()
        .filter(|s| !s.value.is_empty() && s.value.len() <= CHOICE_TEXT_LIMIT)
        .map(|s| serenity::AutocompleteChoice::new(clip(&s.label, CHOICE_TEXT_LIMIT), s.value))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// One host message in Discord's terms.
struct Outgoing {
    content: String,
    embeds: Vec<CreateEmbed>,
    files: Vec<CreateAttachment>,
    components: Vec<CreateActionRow>,
    mentions: CreateAllowedMentions,
    private: bool,
}

impl From<Message> for Outgoing {
    fn from(message: Message) -> Outgoing {
        let pinged: Vec<serenity::UserId> = message.mentions.iter().filter_map(|u| u.id.parse().ok()).collect();
        let mut content = super::text::content(&message.text);
        if !pinged.is_empty() {
            let pings: Vec<String> = pinged.iter().map(|id| format!("<@{id}>")).collect();
            content = format!("{content}\n{}", pings.join(" "));
        }
        let mut files = Vec::new();
        if content.chars().count() > CONTENT_LIMIT {
            // A long PGN or listing: the whole text as a file, its start as the message.
            files.push(CreateAttachment::bytes(host::typed::plain(&message.text).into_bytes(), "chimera.txt"));
            content = format!("{}\n(the full text is attached)", clip(&content, CONTENT_LIMIT - 40));
        }
        let mut embeds = Vec::new();
        for image in message.images {
            embeds.push(CreateEmbed::new().image(format!("attachment://{}", image.file_name)).colour(0x5b8c5a));
            files.push(CreateAttachment::bytes(image.bytes, image.file_name).description(clip(&image.alt, 1024)));
        }
        let buttons: Vec<CreateButton> = message
            .buttons
            .into_iter()
            .filter_map(|b| {
                let custom_id = b.command.to_string();
                if custom_id.len() > CUSTOM_ID_LIMIT {
                    warn!(%custom_id, "a button's command is too long for a custom id; left out");
                    return None;
                }
                let style = match b.style {
                    ButtonStyle::Primary => serenity::ButtonStyle::Primary,
                    ButtonStyle::Secondary => serenity::ButtonStyle::Secondary,
                    ButtonStyle::Danger => serenity::ButtonStyle::Danger,
                };
                Some(CreateButton::new(custom_id).label(clip(&b.label, 80)).style(style))
            })
            .collect();
        let components =
            buttons.chunks(BUTTONS_PER_ROW).map(|row| CreateActionRow::Buttons(row.to_vec())).collect::<Vec<_>>();
        Outgoing {
            content,
            embeds,
            files,
            components,
            mentions: CreateAllowedMentions::new().users(pinged),
            private: message.private,
        }
    }
}

/// serenity's message builders share these method names but no trait: one list fills each.
macro_rules! filled {
    ($builder:expr, $out:expr) => {{
        let out = $out;
        $builder
            .content(out.content)
            .embeds(out.embeds)
            .files(out.files)
            .components(out.components)
            .allowed_mentions(out.mentions)
    }};
}

impl Outgoing {
    fn response(self) -> CreateInteractionResponseMessage {
        let private = self.private;
        filled!(CreateInteractionResponseMessage::new(), self).ephemeral(private)
    }

    fn followup(self) -> CreateInteractionResponseFollowup {
        let private = self.private;
        filled!(CreateInteractionResponseFollowup::new(), self).ephemeral(private)
    }

    /// A message posted in a channel; nothing there can be private.
    fn message(self) -> CreateMessage {
        filled!(CreateMessage::new(), self)
    }

    /// The interaction's public answer, replaced by this message (after progress showed in it).
    fn edit(self) -> EditInteractionResponse {
        let edit = EditInteractionResponse::new()
            .content(self.content)
            .embeds(self.embeds)
            .components(self.components)
            .allowed_mentions(self.mentions);
        self.files.into_iter().fold(edit, EditInteractionResponse::new_attachment)
    }
}

fn clip(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut clipped: String = text.chars().take(limit - 1).collect();
    clipped.push('…');
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_attached_whole() {
        let out = Outgoing::from(Message::text("1. e4 e5 ".repeat(400)));
        assert!(out.content.chars().count() <= CONTENT_LIMIT);
        assert_eq!(out.files.len(), 1);
    }

    #[test]
    fn buttons_come_five_to_a_row() {
        let mut message = Message::text("pick");
        for i in 0..7 {
            let command = Command::Move { text: "e4".into(), confirm: false, game: Some(i) };
            message = message.with_button(&format!("turn {i}"), command, ButtonStyle::Secondary);
        }
        assert_eq!(Outgoing::from(message).components.len(), 2);
    }
}
