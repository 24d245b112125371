//! `/settings`: the speaker's own settings ([`personal`]), what a place has set, and its
//! managers' switches: its web listing (its leaderboards, tournament lists and player pages on
//! the web pages) and its daily puzzle.
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
//! - The daily puzzle is posted in a channel of the place itself: the adapter finds the channel
//!   named ([`Places::find_channel`]), and one of another server or room, one Chimera cannot see,
//!   or one that holds no messages is refused, naming it as typed. A direct chat has none. Its
//!   time is UTC, and says so wherever it is shown. When it is posted, and what: `puzzles::daily`.
//! - A refused change writes nothing, the speaker's own fields included: every change a command
//!   asks for is checked before any is written.
//!
//! [`Request::manager`]: crate::Request::manager
//! [`Places::find_channel`]: crate::Places::find_channel

use data::{Day, TimeOfDay};

use super::command::{ChannelMention, DailyPuzzleSetting, SettingsCommand};
use super::personal;
use super::puzzles::daily::date;
use super::{Command, Ctx, FoundChannel, Handled, Host, HostError, Message, PlaceKind, Refusal, Reply, Typed, User};

/// A change to the place's settings, checked: what to write.
struct PlaceChange {
    platform: String,
    server: String,
    web: Option<bool>,
    daily: Option<DailyChange>,
}

/// A change to the daily puzzle, its channel found.
#[derive(Clone)]
enum DailyChange {
    Set { channel: String, time: TimeOfDay },
    Stop,
}

/// What the daily puzzle's change did, for the answer.
enum DailyChanged {
    /// Set: its first post's day.
    Set {
        channel: String,
        time: TimeOfDay,
        first: Day,
    },
    Stopped {
        was_on: bool,
    },
}

/// `/settings`, shown or changed: the speaker's own settings ([`personal`]) and the place's.
/// A change is checked whole before anything is written: a place setting from someone who may
/// not change it, or where there is no place, refuses the command, the speaker's own fields too.
pub(crate) async fn settings(cx: &Ctx<'_>, command: &SettingsCommand) -> Handled {
    if command.is_show() {
        return show(cx).await;
    }
    let place = if command.is_place() { Some(check_place_change(cx, command).await?) } else { None };
    let mut lines = personal::change(cx, command).await?;
    if let Some(change) = place {
        lines.extend(write_place_change(cx, change).await?);
    }
    let mut message = Message::text(lines.join("\n"));
    // One's own settings are one's own business; a place's change is news to its members.
    message.private = !command.is_place();
    Ok(Reply::one(message))
}

/// Whether the speaker may make the place changes `command` asks for: what to write, or the
/// refusal.
async fn check_place_change(cx: &Ctx<'_>, command: &SettingsCommand) -> Result<PlaceChange, Refusal> {
    let Some(server) = cx.request.server.clone() else {
        return Err(Refusal::Told(
            "A server's settings (`web`, `daily-puzzle`) belong to a server (a Discord server, a Matrix room), and \
             there is none here: the console and direct messages have only your own settings."
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
    if command.web == Some(true) {
        if let Some(why) = never_listed(cx.request.place) {
            return Err(Refusal::Told(format!(
                "Games in Matrix direct chats and encrypted rooms never get a listing, and {why}."
            )));
        }
    }
    let daily = match &command.daily_puzzle {
        None => None,
        Some(DailyPuzzleSetting::Off) => Some(DailyChange::Stop),
        Some(DailyPuzzleSetting::At { channel, time }) => {
            Some(DailyChange::Set { channel: daily_channel(cx, &server, channel).await?, time: *time })
        }
    };
    Ok(PlaceChange { platform: cx.platform().to_string(), server, web: command.web, daily })
}

/// Writes a checked place change in one commit; what it did, a sentence per setting.
async fn write_place_change(cx: &Ctx<'_>, change: PlaceChange) -> Result<Vec<String>, Refusal> {
    let PlaceChange { platform, server, web, daily } = change;
    let now = cx.now;
    let daily = cx
        .store()
        .write(move |tx| {
            if let Some(on) = web {
                tx.set_web_listing(&platform, &server, on, now)?;
            }
            Ok(match &daily {
                None => None,
                Some(DailyChange::Stop) => {
                    Some(DailyChanged::Stopped { was_on: tx.stop_daily_puzzle(&platform, &server)? })
                }
                Some(DailyChange::Set { channel, time }) => {
                    let set = tx.set_daily_puzzle(&platform, &server, channel, *time, now)?;
                    // Today's, unless its time is past or the place had today's post already.
                    let today = Day::of(now);
                    let today_free = tx.daily_post(&platform, &server, today)?.is_none();
                    let first = if today_free && set.posts_on(today) { today } else { Day(today.0 + 1) };
                    Some(DailyChanged::Set { channel: set.channel, time: set.time, first })
                }
            })
        })
        .await?;
    let who = Typed(&cx.user().name);
    let mut said = Vec::new();
    match web {
        Some(true) => said.push(format!(
            "{who} turns this server's web listing on: its leaderboards, tournaments and players are listed on the web pages."
        )),
        Some(false) => said.push(format!(
            "{who} turns this server's web listing off: its leaderboards, tournaments and players are no longer listed on the web pages (a game's own link still shows its game)."
        )),
        None => {}
    }
    match daily {
        Some(DailyChanged::Set { channel, time, first }) => said.push(format!(
            "{who} sets this server's daily puzzle: a puzzle from its games, posted in #{channel} every day at {time} UTC, \
             the first on {} (UTC).",
            date(first)
        )),
        Some(DailyChanged::Stopped { was_on: true }) => said.push(format!("{who} stops this server's daily puzzle.")),
        Some(DailyChanged::Stopped { was_on: false }) => {
            said.push("This server has no daily puzzle to stop: it is off.".to_string())
        }
        None => {}
    }
    Ok(said)
}

/// The speaker's settings, and the place's where there is one; shown to the speaker only.
async fn show(cx: &Ctx<'_>) -> Handled {
    let request = cx.request;
    let (platform, server, user) = (request.platform.clone(), request.server.clone(), request.user.id.clone());
    let (mine, place) = cx
        .store()
        .read(move |tx| {
            let mine = tx.user_settings_of(&platform, &user)?;
            let place = match server.as_deref() {
                None => None,
                Some(server) => Some((tx.web_listing(&platform, server)?, tx.daily_puzzle(&platform, server)?)),
            };
            Ok((mine, place))
        })
        .await?;
    let mut text = personal::shown(&mine, cx.host.settings().theme);
    text.push_str("\n\n");
    text.push_str(&match place {
        Some((listed, daily)) => shown(listed, daily.as_ref(), request.place),
        None => "No server settings here: the console and direct messages have none.".to_string(),
    });
    let mut message = Message::text(text);
    message.private = true;
    Ok(Reply::one(message))
}

/// The channel `named` names, for the daily puzzle of `server`: refused unless it is one of the
/// place's, for messages, that Chimera can see.
async fn daily_channel(cx: &Ctx<'_>, server: &str, named: &ChannelMention) -> Result<String, Refusal> {
    if cx.request.place == PlaceKind::Direct {
        return Err(Refusal::Told(
            "A direct chat has no daily puzzle: it is posted in a channel of a server (on Matrix, a room).".to_string(),
        ));
    }
    let found = cx
        .places
        .find_channel(server, named)
        .await
        .map_err(|e| Refusal::Broken(format!("cannot look for the channel of the daily puzzle: {e}")))?;
    let named = Typed(named.as_str());
    Err(Refusal::Told(match found {
        FoundChannel::Here(channel) => return Ok(channel),
        FoundChannel::Unknown => format!(
            "Chimera sees no channel {named} here: name a channel of this server that Chimera can read, like `#puzzles`."
        ),
        FoundChannel::Elsewhere => format!(
            "{named} is not a channel of this server: the daily puzzle is posted in one of its own channels (on Matrix, in this room)."
        ),
        FoundChannel::NotForMessages => format!(
            "{named} holds no messages of its own (a category, a voice channel or a forum): name a text channel."
        ),
    }))
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
fn shown(listed: bool, daily: Option<&data::DailyPuzzle>, kind: PlaceKind) -> String {
    let change = Command::<User>::Settings(SettingsCommand { web: Some(!listed), ..SettingsCommand::default() });
    let web = match never_listed(kind) {
        Some(why) if !listed => format!("web: off (never on here: {why})"),
        _ => format!(
            "web: {} (leaderboards, tournaments and players listed on the web pages; a server manager changes it with `{change}`)",
            if listed { "on" } else { "off" }
        ),
    };
    let example = "#puzzles".parse().map(|channel| DailyPuzzleSetting::At {
        channel,
        time: TimeOfDay::new(18, 0).expect("18:00 is a time of day"),
    });
    let set = Command::<User>::Settings(SettingsCommand {
        daily_puzzle: Some(example.expect("#puzzles names a channel")),
        ..SettingsCommand::default()
    });
    let stop = Command::<User>::Settings(SettingsCommand {
        daily_puzzle: Some(DailyPuzzleSetting::Off),
        ..SettingsCommand::default()
    });
    let daily = match (daily, kind) {
        (Some(daily), _) => format!(
            "daily puzzle: in #{} every day at {} UTC (a server manager moves it with `{set}`, the time in UTC, or stops it with `{stop}`)",
            daily.channel, daily.time
        ),
        (None, PlaceKind::Direct) => "daily puzzle: off (never in a direct chat)".to_string(),
        (None, _) => {
            format!("daily puzzle: off (a server manager has one posted every day with `{set}`, the time in UTC)")
        }
    };
    format!("Settings of this server:\n{web}\n{daily}")
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
