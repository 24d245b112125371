//! The host's reply as Discord messages: text with the pinged players (and the whole text as a
//! file when it is longer than a message), boards as PNG attachments shown in embeds, buttons
//! five to a row carrying the host's command lines, links as link buttons after them (five rows
//! at most, as Discord takes), private messages as ephemeral ones.
//!
//! What it guarantees: every interaction gets its answer, in the one form Discord takes at the
//! stage it is in (a response, the follow-up that replaces "thinking", the edit that replaces
//! progress); a private answer after a public deferral stays private; a button that did its
//! work loses its message's buttons, so it cannot be pressed again; announcements carry the
//! host's key as their nonce, so a second post of one shows once.

use poise::serenity_prelude as serenity;
use serenity::{
    Builder, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton, CreateEmbed,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    EditInteractionResponse, Http,
};
use tracing::warn;

use super::channel::channel_id;
use super::incoming::{Origin, Target};
use super::Error;
use crate::progress::{Pace, Show};
use host::{ButtonStyle, Message, PlaceError, Progress, Reply};

/// Discord's limits ("Message Object", "Component Reference").
const CONTENT_LIMIT: usize = 2000;
const CUSTOM_ID_LIMIT: usize = 100;
const BUTTONS_PER_ROW: usize = 5;
const ROWS: usize = 5;
const URL_LIMIT: usize = 512;

/// How often a deferred answer is edited to show progress: interaction webhooks share Discord's
/// limit of about five requests in five seconds, and a step under 5% says nothing new.
/// Shown from the deferral on, which came after `defer_after` already.
pub const PROGRESS_PACE: Pace =
    Pace { first_after: std::time::Duration::ZERO, every: std::time::Duration::from_millis(1500), step: 5 };

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
pub struct Placeholder<'a> {
    pub http: &'a Http,
    pub token: &'a str,
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

/// Posts a message the host sends by itself (a game ended on time, a round paired, a player's
/// turn) in `channel`: its own, or the DM of the user it is for.
pub async fn post(http: &Http, channel: serenity::ChannelId, message: &Message) -> Result<(), serenity::Error> {
    let key = message.key.clone();
    let mut create = Outgoing::from(message.clone()).message();
    // Discord's idempotency: the same nonce again within minutes returns the first message.
    if let Some(key) = key {
        create = create.nonce(serenity::Nonce::String(key)).enforce_nonce(true);
    }
    create.execute(http, (channel, None)).await?;
    Ok(())
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
        // Link buttons (a game's page) open their address and need no interaction.
        let links: Vec<CreateButton> = message
            .links
            .into_iter()
            .filter_map(|link| {
                if link.url.len() > URL_LIMIT {
                    warn!(url = %link.url, "a link is too long for a link button; left out");
                    return None;
                }
                Some(CreateButton::new_link(link.url).label(clip(&link.label, 80)))
            })
            .collect();
        let mut buttons: Vec<CreateButton> = message
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
        // Discord takes five rows of five: the links keep their place, the commands give way.
        let room = (BUTTONS_PER_ROW * ROWS).saturating_sub(links.len());
        if buttons.len() > room {
            warn!(left_out = buttons.len() - room, "more buttons than a Discord message holds; the last are left out");
            buttons.truncate(room);
        }
        buttons.extend(links);
        buttons.truncate(BUTTONS_PER_ROW * ROWS);
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

pub fn clip(text: &str, limit: usize) -> String {
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
    use host::Command;

    #[test]
    fn long_text_is_attached_whole() {
        let out = Outgoing::from(Message::text("1. e4 e5 ".repeat(400)));
        assert!(out.content.chars().count() <= CONTENT_LIMIT);
        assert_eq!(out.files.len(), 1);
    }

    #[test]
    fn every_help_topic_fits_one_message() {
        // Longer, and Discord would show the start with the rest as a file.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../host/src/help");
        let mut topics = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let out = Outgoing::from(Message::text(text.trim_end()));
            assert!(out.files.is_empty(), "{} characters: {:?}", text.trim_end().chars().count(), text.lines().next());
            topics += 1;
        }
        assert!(topics >= 9, "{topics} help topics in {}", dir.display());
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

    #[test]
    fn a_link_is_a_link_button_and_every_button_fits_five_rows_of_five() {
        let mut message = Message::text("pick").with_link(Some(host::Link {
            label: "Watch".into(),
            url: "https://chess.example.org/g/00112233445566778899aabb".into(),
        }));
        for i in 0..30 {
            let command = Command::Move { text: "e4".into(), confirm: false, game: Some(i) };
            message = message.with_button(&format!("turn {i}"), command, ButtonStyle::Secondary);
        }
        let rows = Outgoing::from(message).components;
        assert_eq!(rows.len(), ROWS);
        let json = serde_json::to_value(&rows).unwrap();
        let buttons: Vec<&serde_json::Value> =
            json.as_array().unwrap().iter().flat_map(|row| row["components"].as_array().unwrap()).collect();
        assert!(json
            .as_array()
            .unwrap()
            .iter()
            .all(|row| row["components"].as_array().unwrap().len() <= BUTTONS_PER_ROW));
        assert_eq!(buttons.len(), BUTTONS_PER_ROW * ROWS);
        let link = buttons.last().unwrap();
        // Button style 5 is a link: a URL, no custom id.
        assert_eq!(link["style"], 5);
        assert_eq!(link["url"], "https://chess.example.org/g/00112233445566778899aabb");
        assert_eq!(link["label"], "Watch");
        assert!(link.get("custom_id").is_none());
    }
}
