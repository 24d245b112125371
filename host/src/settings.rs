//! `/settings`: what a place has set, and its managers' switch for its web listing (its
//! leaderboards, tournament lists and player pages on the web pages).
//!
//! What it guarantees:
//!
//! - Anyone may see a place's settings; only its managers ([`Request::manager`]) change them.
//! - Settings belong to a server (a Discord server, a Matrix room): the console and Discord
//!   direct messages have none, and `/settings` there is refused, saying so.
//! - A place only its members can read ([`PlaceKind::Direct`], [`PlaceKind::Encrypted`]) is
//!   never listed: turning the listing on there is refused; turning it off is always allowed.
//!   A room that becomes encrypted has its listing turned off ([`Host::place_encrypted`]).
//! - A refused change writes nothing.
//!
//! [`Request::manager`]: crate::Request::manager

use super::command::SettingsCommand;
use super::{told, Command, Ctx, Handled, Host, HostError, Message, PlaceKind, Reply, Typed, User};

/// `/settings`, shown or changed.
pub(crate) async fn settings(cx: &Ctx<'_>, command: &SettingsCommand) -> Handled {
    let Some(server) = cx.request.server.clone() else {
        return told(
            "Settings belong to a server (a Discord server, a Matrix room), and there is none here: \
             the console and direct messages have no settings.",
        );
    };
    let platform = cx.platform().to_string();
    let kind = cx.request.place;
    let Some(on) = command.web else {
        let (platform, server) = (platform.clone(), server.clone());
        let listed = cx.store().read(move |tx| tx.web_listing(&platform, &server)).await?;
        return Ok(Reply::one(Message::text(shown(listed, kind))));
    };
    if !cx.request.manager {
        return told(format!(
            "Only a manager of this server (Manage Server on Discord, a moderator on Matrix) may change its settings; \
             `{}` shows them.",
            Command::<User>::Settings(SettingsCommand::default())
        ));
    }
    if on {
        if let Some(why) = never_listed(kind) {
            return told(format!("Games in Matrix direct chats and encrypted rooms never get a listing, and {why}."));
        }
    }
    let now = cx.now;
    cx.store().write(move |tx| tx.set_web_listing(&platform, &server, on, now)).await?;
    let text = if on {
        format!(
            "{} turns this server's web listing on: its leaderboards, tournaments and players are listed on the web pages.",
            Typed(&cx.user().name)
        )
    } else {
        format!(
            "{} turns this server's web listing off: its leaderboards, tournaments and players are no longer listed on the web pages (a game's own link still shows its game).",
            Typed(&cx.user().name)
        )
    };
    Ok(Reply::one(Message::text(text)))
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
    let change = Command::<User>::Settings(SettingsCommand { web: Some(!listed) });
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
