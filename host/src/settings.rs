//! `/settings`: the speaker's own settings ([`personal`]), what a place has set, and its
//! managers' switch for its web listing (its leaderboards, tournament lists and player pages on
//! the web pages).
//!
//! What it guarantees:
//!
//! - Anyone may see a place's settings and their own; only a place's managers
//!   ([`Request::manager`]) change the place's, and everyone only their own.
//! - Place settings belong to a server (a Discord server, a Matrix room): the console and
//!   Discord direct messages have none, and changing one there is refused, saying so. One's own
//!   settings work everywhere.
//! - A place only its members can read ([`PlaceKind::Direct`], [`PlaceKind::Encrypted`]) is
//!   never listed: turning the listing on there is refused; turning it off is always allowed.
//!   A room that becomes encrypted has its listing turned off ([`Host::place_encrypted`]).
//! - A refused change writes nothing, the speaker's own fields included.
//!
//! [`Request::manager`]: crate::Request::manager

use super::command::SettingsCommand;
use super::personal;
use super::{Command, Ctx, Handled, Host, HostError, Message, PlaceKind, Refusal, Reply, Typed, User};

/// `/settings`, shown or changed: the speaker's own settings ([`personal`]) and the place's.
/// A change is checked whole before anything is written: a place setting from someone who may
/// not change it, or where there is no place, refuses the command, the speaker's own fields too.
pub(crate) async fn settings(cx: &Ctx<'_>, command: &SettingsCommand) -> Handled {
    if command.is_show() {
        return show(cx).await;
    }
    let place = match command.web {
        None => None,
        Some(on) => Some(check_place_change(cx, on)?),
    };
    let mut lines = personal::change(cx, command).await?;
    if let Some((platform, server, on)) = place {
        let now = cx.now;
        cx.store().write(move |tx| tx.set_web_listing(&platform, &server, on, now)).await?;
        let name = Typed(&cx.user().name);
        lines.push(if on {
            format!(
                "{name} turns this server's web listing on: its leaderboards, tournaments and players are listed on the web pages."
            )
        } else {
            format!(
                "{name} turns this server's web listing off: its leaderboards, tournaments and players are no longer listed on the web pages (a game's own link still shows its game)."
            )
        });
    }
    let mut message = Message::text(lines.join("\n"));
    // One's own settings are one's own business; a place's change is news to its members.
    message.private = !command.is_place();
    Ok(Reply::one(message))
}

/// Whether the speaker may turn the web listing of this place `on` (or off): the place to
/// change, or the refusal.
fn check_place_change(cx: &Ctx<'_>, on: bool) -> Result<(String, String, bool), Refusal> {
    let Some(server) = cx.request.server.clone() else {
        return Err(Refusal::Told(
            "A server's settings (`web`) belong to a server (a Discord server, a Matrix room), and there is none \
             here: the console and direct messages have only your own settings."
                .to_string(),
        ));
    };
    if !cx.request.manager {
        return Err(Refusal::Told(format!(
            "Only a manager of this server (Manage Server on Discord, a moderator on Matrix) may change its settings; \
             `{}` shows them.",
            Command::<User>::Settings(SettingsCommand::default())
        )));
    }
    if on {
        if let Some(why) = never_listed(cx.request.place) {
            return Err(Refusal::Told(format!(
                "Games in Matrix direct chats and encrypted rooms never get a listing, and {why}."
            )));
        }
    }
    Ok((cx.platform().to_string(), server, on))
}

/// The speaker's settings, and the place's where there is one; shown to the speaker only.
async fn show(cx: &Ctx<'_>) -> Handled {
    let request = cx.request;
    let (platform, server, user) = (request.platform.clone(), request.server.clone(), request.user.id.clone());
    let (mine, listed) = cx
        .store()
        .read(move |tx| {
            let mine = tx.user_settings_of(&platform, &user)?;
            let listed = server.as_deref().map(|server| tx.web_listing(&platform, server)).transpose()?;
            Ok((mine, listed))
        })
        .await?;
    let mut text = personal::shown(&mine, cx.host.settings().theme);
    text.push_str("\n\n");
    text.push_str(&match listed {
        Some(listed) => shown(listed, request.place),
        None => "No server settings here: the console and direct messages have none.".to_string(),
    });
    let mut message = Message::text(text);
    message.private = true;
    Ok(Reply::one(message))
}

/// Why a place of `kind` is never listed, if it is not.
fn never_listed(kind: PlaceKind) -> Option<&'static str> {
    match kind {
        PlaceKind::Shared => None,
        PlaceKind::Direct => Some("this is a direct chat"),
        PlaceKind::Encrypted => Some("this room is encrypted"),
    }
}

/// The settings as `/settings` shows them.
fn shown(listed: bool, kind: PlaceKind) -> String {
    let change = Command::<User>::Settings(SettingsCommand { web: Some(!listed), ..SettingsCommand::default() });
    let web = match never_listed(kind) {
        Some(why) if !listed => format!("web: off (never on here: {why})"),
        _ => format!(
            "web: {} (leaderboards, tournaments and players listed on the web pages; a server manager changes it with `{change}`)",
            if listed { "on" } else { "off" }
        ),
    };
    format!("Settings of this server:\n{web}")
}

impl Host {
    /// The place `server` of this host's platform became end-to-end encrypted (a Matrix room
    /// got `m.room.encryption`): its web listing is turned off, as an encrypted room's always
    /// is. Returns whether it was on.
    pub async fn place_encrypted(&self, server: &str) -> Result<bool, HostError> {
        let (platform, place, now) = (self.settings().platform.clone(), server.to_string(), self.now());
        let was_on = self
            .store()
            .write(move |tx| {
                let on = tx.web_listing(&platform, &place)?;
                if on {
                    tx.set_web_listing(&platform, &place, false, now)?;
                }
                Ok(on)
            })
            .await
            .map_err(|e| HostError::Broken(format!("cannot turn off the web listing of an encrypted room: {e}")))?;
        if was_on {
            tracing::info!(server, "a room became encrypted: its web listing is off");
        }
        Ok(was_on)
    }
}
