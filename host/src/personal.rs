//! Each player's own settings, the half of `/settings` that is theirs: how the boards shown to
//! them look (theme, coordinates, which side is at the bottom, the pieces written out), and
//! whether Chimera writes to them when it is their turn in a correspondence game, outside their
//! quiet hours.
//!
//! What it guarantees:
//!
//! - Anyone changes their own settings, anywhere (a server channel, a direct chat, the
//!   console); nobody changes another's. They are kept per player, on every server alike.
//! - A change is read, applied and written in one transaction: two changes at once each keep
//!   the other's fields. A change that cannot be read (a theme or zone that does not exist)
//!   is refused by the command reader and writes nothing.
//! - A board is drawn for one viewer ([`Look`]): the asker of `/board` and `/moves`, and for
//!   what everyone sees after a move, the player whose turn it is (or, when that is Chimera,
//!   the other). Settings that cannot be read fall back to the defaults, logged:
//!   a board is never withheld for them.

use std::fmt;
use std::str::FromStr;

use chrono::{TimeZone, Timelike};
use data::{Bottom, Millis, QuietHours, UserSettings};
use render::Theme;
use rules::Color;

use super::command::SettingsCommand;
use super::table::Table;
use super::{Ctx, Host, Refusal};

/// A board theme as `theme:` names it: one of the renderer's, or the deployment's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeChoice {
    /// Whatever the deployment draws (`CHIMERA_THEME`).
    Default,
    Named(Theme),
}

impl FromStr for ThemeChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<ThemeChoice, String> {
        let wanted = text.to_ascii_lowercase();
        if wanted == "default" {
            return Ok(ThemeChoice::Default);
        }
        Theme::ALL.into_iter().find(|t| t.name() == wanted).map(ThemeChoice::Named).ok_or_else(|| {
            let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
            format!("there is no board theme `{text}`: {} or default", names.join(", "))
        })
    }
}

impl fmt::Display for ThemeChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThemeChoice::Default => f.write_str("default"),
            ThemeChoice::Named(theme) => f.write_str(theme.name()),
        }
    }
}

/// A time zone by its IANA name (`Europe/Berlin`, `America/New_York`, `UTC`), for quiet hours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zone(pub chrono_tz::Tz);

impl Zone {
    pub const UTC: Zone = Zone(chrono_tz::UTC);

    /// The minute of the day (after local midnight) at `now`.
    fn minute_at(self, now: Millis) -> u16 {
        let local = chrono::Utc.timestamp_millis_opt(now).single().unwrap_or_default().with_timezone(&self.0);
        (local.hour() * 60 + local.minute()) as u16
    }

    /// The zone a stored name gives: UTC for none, and for one this build does not know
    /// (logged), so a player's notices still come.
    fn stored(name: Option<&str>) -> Zone {
        match name.map(str::parse::<Zone>) {
            None => Zone::UTC,
            Some(Ok(zone)) => zone,
            Some(Err(e)) => {
                tracing::warn!("a stored time zone does not read ({e}); UTC is used");
                Zone::UTC
            }
        }
    }
}

impl FromStr for Zone {
    type Err = String;

    fn from_str(text: &str) -> Result<Zone, String> {
        chrono_tz::Tz::from_str_insensitive(text).map(Zone).map_err(|_| {
            format!("`{text}` is not a time zone Chimera knows: give its IANA name, like Europe/Berlin, America/New_York or UTC")
        })
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

/// `quiet:22:00-07:00`: quiet hours from one time of day to another, or `quiet:off`.
pub fn read_quiet(text: &str) -> Result<Option<QuietHours>, String> {
    let bad = || format!("`quiet:{text}` is not quiet hours: give them as `quiet:22:00-07:00`, or `quiet:off`");
    if matches!(text.to_ascii_lowercase().as_str(), "off" | "no" | "none") {
        return Ok(None);
    }
    let (from, to) = text.split_once('-').ok_or_else(bad)?;
    let minute = |t: &str| -> Option<u16> {
        let (h, m) = t.trim().split_once(':')?;
        let digits = |s: &str, most: usize| (1..=most).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(h, 2) || !digits(m, 2) || m.len() != 2 {
            return None;
        }
        let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
        (h < 24 && m < 60).then_some(h * 60 + m)
    };
    let (from, to) = (minute(from).ok_or_else(bad)?, minute(to).ok_or_else(bad)?);
    if from == to {
        return Err(format!("`quiet:{text}` starts and ends at the same time; `quiet:off` turns them off"));
    }
    Ok(Some(QuietHours { from, to }))
}

/// Up to `limit` time zone names containing `typed` (any case), those starting with it first:
/// for an adapter's suggestions as a player types.
pub fn zones_matching(typed: &str, limit: usize) -> Vec<&'static str> {
    let typed = typed.trim().to_ascii_lowercase();
    let names = || chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name());
    let starting = names().filter(|name| name.to_ascii_lowercase().starts_with(&typed));
    let containing = names().filter(|name| {
        let name = name.to_ascii_lowercase();
        !name.starts_with(&typed) && name.contains(&typed)
    });
    starting.chain(containing).take(limit).collect()
}

/// Quiet hours as `quiet:` takes them: `22:00-07:00`, or `off`.
pub(crate) fn write_quiet(quiet: Option<QuietHours>) -> String {
    match quiet {
        None => "off".to_string(),
        Some(q) => format!("{}-{}", clock_time(q.from), clock_time(q.to)),
    }
}

fn clock_time(minute: u16) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// When the quiet hours of `settings` that hold at `now` end; `None` when they do not hold.
pub(crate) fn quiet_until(settings: &UserSettings, now: Millis) -> Option<Millis> {
    let quiet = settings.quiet?;
    let zone = Zone::stored(settings.zone.as_deref());
    let minute = zone.minute_at(now);
    if !quiet.contains(minute) {
        return None;
    }
    // Whole minutes to the end, from the start of the current one. A clock change inside the
    // quiet hours moves the end by its hour; the notice then comes an hour early or late.
    let left = (i64::from(quiet.to) - i64::from(minute)).rem_euclid(i64::from(QuietHours::DAY));
    let minute_start = now - now.rem_euclid(60_000);
    Some(minute_start + left * 60_000)
}

/// How one viewer's boards look: their settings over the deployment's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    pub theme: Theme,
    pub coordinates: bool,
    pub bottom: Bottom,
    /// The pieces written out by square below the board.
    pub described: bool,
    /// The viewer's platform user id, if someone in particular looks.
    pub viewer: Option<String>,
}

impl Look {
    /// A board for nobody in particular: the deployment's theme, every default.
    pub fn everyones(deployment: Theme) -> Look {
        Look::of(&UserSettings::default(), deployment, None)
    }

    fn of(settings: &UserSettings, deployment: Theme, viewer: Option<String>) -> Look {
        let theme = settings.theme.as_deref().and_then(|name| match name.parse::<ThemeChoice>() {
            Ok(ThemeChoice::Named(theme)) => Some(theme),
            Ok(ThemeChoice::Default) => None,
            Err(e) => {
                tracing::warn!("a player's stored theme does not read ({e}); the deployment's is used");
                None
            }
        });
        Look {
            theme: theme.unwrap_or(deployment),
            coordinates: settings.coordinates,
            bottom: settings.bottom,
            described: settings.described,
            viewer,
        }
    }

    /// The side at the bottom of `table`'s board: the viewer's own if they play in it and want
    /// it, else the side to move.
    pub fn bottom_of(&self, table: &Table) -> Color {
        let own = match (self.bottom, &self.viewer) {
            (Bottom::Own, Some(viewer)) => table.color_of(viewer),
            _ => None,
        };
        own.unwrap_or_else(|| table.to_move())
    }
}

impl Host {
    /// How the boards shown to the user `viewer` look (the deployment's defaults for nobody in
    /// particular).
    pub(crate) async fn look_for(&self, viewer: Option<&str>) -> Look {
        let deployment = self.settings().theme;
        let Some(viewer) = viewer else { return Look::everyones(deployment) };
        let (platform, user) = (self.settings().platform.clone(), viewer.to_string());
        let settings = self.store().read(move |tx| tx.user_settings_of(&platform, &user)).await.unwrap_or_else(|e| {
            tracing::warn!("a player's settings cannot be read ({e}); their board is drawn as everyone's");
            UserSettings::default()
        });
        Look::of(&settings, deployment, Some(viewer.to_string()))
    }

    /// How a board that everyone in the game's channel sees looks: as its viewer's, the player
    /// to move (or, when that is Chimera, the other).
    pub(crate) async fn look_at(&self, table: &Table) -> Look {
        let viewer = [table.to_move(), !table.to_move()].into_iter().find(|&c| table.user(c).engine_level().is_none());
        self.look_for(viewer.map(|c| table.player(c).user_id.as_str())).await
    }
}

impl Ctx<'_> {
    /// How the boards shown to the speaker look.
    pub(crate) async fn look(&self) -> Look {
        self.host.look_for(Some(&self.user().id)).await
    }
}

/// Applies the personal fields of `command` to the speaker's settings in one transaction;
/// what changed, as a sentence per field (empty when the command has none of them).
pub(crate) async fn change(cx: &Ctx<'_>, command: &SettingsCommand) -> Result<Vec<String>, Refusal> {
    if !command.is_personal() {
        return Ok(Vec::new());
    }
    if command.dm == Some(true) && !cx.host.settings().direct_messages {
        return Err(Refusal::Told(format!(
            "Chimera cannot write to anyone directly on {} yet, so `notify` stays off; nothing was changed.",
            cx.platform()
        )));
    }
    let request = cx.request;
    let (platform, user, now, command_) = (request.platform.clone(), request.user.clone(), cx.now, command.clone());
    cx.store()
        .write(move |tx| {
            let player = tx.upsert_player(&platform, &user.id, &user.name, now)?;
            let mut settings = tx.user_settings(player.id)?;
            apply(&command_, &mut settings);
            tx.set_user_settings(player.id, &settings, now)
        })
        .await?;
    Ok(changed(command, cx.host.settings().theme))
}

/// `settings` with the fields `command` gives replaced.
fn apply(command: &SettingsCommand, settings: &mut UserSettings) {
    if let Some(theme) = command.theme {
        settings.theme = match theme {
            ThemeChoice::Default => None,
            ThemeChoice::Named(theme) => Some(theme.name().to_string()),
        };
    }
    if let Some(on) = command.coordinates {
        settings.coordinates = on;
    }
    if let Some(bottom) = command.bottom {
        settings.bottom = bottom;
    }
    if let Some(on) = command.text {
        settings.described = on;
    }
    if let Some(on) = command.dm {
        settings.turn_dm = on;
    }
    if let Some(quiet) = command.quiet {
        settings.quiet = quiet;
    }
    if let Some(zone) = command.zone {
        settings.zone = (zone != Zone::UTC).then(|| zone.to_string());
    }
}

/// What a change did, one sentence per field given.
fn changed(command: &SettingsCommand, deployment: Theme) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(theme) = command.theme {
        lines.push(match theme {
            ThemeChoice::Default => format!("Your boards use this Chimera's theme ({}).", deployment.name()),
            ThemeChoice::Named(theme) => format!("Your boards use the {} theme.", theme.name()),
        });
    }
    if let Some(on) = command.coordinates {
        lines.push(format!("Your boards show coordinates: {}.", on_off(on)));
    }
    if let Some(bottom) = command.bottom {
        lines.push(format!("Your boards show {} at the bottom.", bottom_words(bottom)));
    }
    if let Some(on) = command.text {
        lines.push(if on {
            "Your boards come with every piece written out by square.".to_string()
        } else {
            "Your boards come without the pieces written out.".to_string()
        });
    }
    if let Some(on) = command.dm {
        lines.push(if on {
            "Chimera writes to you directly when it is your move in a correspondence game.".to_string()
        } else {
            "Chimera no longer writes to you directly when it is your move.".to_string()
        });
    }
    if let Some(quiet) = command.quiet {
        lines.push(match quiet {
            Some(q) => format!(
                "Quiet hours {}: a turn's message waits until they end.",
                write_quiet(Some(q)).replace('-', " to ")
            ),
            None => "No quiet hours: a turn's message comes at once.".to_string(),
        });
    }
    if let Some(zone) = command.zone {
        lines.push(format!("Your quiet hours are in {zone} time."));
    }
    lines
}

fn on_off(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

fn bottom_words(bottom: Bottom) -> &'static str {
    match bottom {
        Bottom::ToMove => "the side to move",
        Bottom::Own => "your own side in your games (the side to move in others')",
    }
}

/// The speaker's settings as `/settings` shows them, with the options that change each.
pub(crate) fn shown(settings: &UserSettings, deployment: Theme) -> String {
    let theme = match &settings.theme {
        Some(name) => name.clone(),
        None => format!("default ({})", deployment.name()),
    };
    let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
    let quiet = match settings.quiet {
        Some(q) => write_quiet(Some(q)),
        None => "off".to_string(),
    };
    let zone = settings.zone.as_deref().unwrap_or("UTC");
    [
        "Your settings (everywhere you play):".to_string(),
        format!("theme: {theme} ({}, or default)", names.join(", ")),
        format!("coordinates: {} (on, off)", on_off(settings.coordinates)),
        format!("bottom: {} (to-move: the side to move; own: your side in your games)", bottom_text(settings.bottom)),
        format!("text: {} (on: every board comes with its pieces written out by square)", on_off(settings.described)),
        format!(
            "notify: {} (on: Chimera writes to you directly when it is your move in a correspondence game)",
            on_off(settings.turn_dm)
        ),
        format!("quiet: {quiet} (no direct messages in these hours, e.g. quiet:22:00-07:00)"),
        format!("zone: {zone} (the time zone of your quiet hours, e.g. zone:Europe/Berlin)"),
    ]
    .join("\n")
}

/// `bottom:` as the command takes it.
pub(crate) fn bottom_text(bottom: Bottom) -> &'static str {
    match bottom {
        Bottom::ToMove => "to-move",
        Bottom::Own => "own",
    }
}

/// `bottom:own` or `bottom:to-move` (`mine`, `tomove` too).
pub(crate) fn read_bottom(text: &str) -> Result<Bottom, String> {
    match text.to_ascii_lowercase().replace('_', "-").as_str() {
        "own" | "mine" | "my-side" => Ok(Bottom::Own),
        "to-move" | "tomove" | "turn" => Ok(Bottom::ToMove),
        _ => Err(format!(
            "`bottom:{text}` is not a side: `bottom:own` (your side in your games) or `bottom:to-move` (the side to move)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000;
    /// 2026-01-15 00:00 UTC, a winter day (Berlin is UTC+1).
    const MIDNIGHT: i64 = 1_768_435_200_000;

    #[test]
    fn quiet_hours_read_and_write_back() {
        assert_eq!(read_quiet("22:00-07:00"), Ok(Some(QuietHours { from: 1320, to: 420 })));
        assert_eq!(read_quiet("off"), Ok(None));
        assert_eq!(write_quiet(read_quiet("9:05-17:30").unwrap()), "09:05-17:30");
        for bad in ["22-07", "25:00-07:00", "22:00", "22:60-07:00", "ten-eleven", "22:000-07:00"] {
            assert!(read_quiet(bad).unwrap_err().contains(bad), "{bad}");
        }
        assert!(read_quiet("07:00-07:00").unwrap_err().contains("same time"));
    }

    #[test]
    fn quiet_hours_hold_in_the_players_zone_and_say_when_they_end() {
        let night = UserSettings { quiet: Some(QuietHours { from: 22 * 60, to: 7 * 60 }), ..UserSettings::default() };
        // In UTC: 23:30 is quiet until 07:00; 12:00 is not.
        let at = MIDNIGHT - HOUR / 2;
        assert_eq!(quiet_until(&night, at), Some(MIDNIGHT + 7 * HOUR));
        assert_eq!(quiet_until(&night, MIDNIGHT + 12 * HOUR), None);
        // In Berlin (UTC+1 in January), 06:30 UTC is 07:30 there: not quiet. 05:30 UTC is
        // 06:30 there: quiet until 07:00 Berlin, 06:00 UTC.
        let berlin = UserSettings { zone: Some("Europe/Berlin".into()), ..night.clone() };
        assert_eq!(quiet_until(&berlin, MIDNIGHT + 6 * HOUR + HOUR / 2), None);
        assert_eq!(quiet_until(&berlin, MIDNIGHT + 5 * HOUR + HOUR / 2), Some(MIDNIGHT + 6 * HOUR));
        // Without quiet hours, never.
        assert_eq!(quiet_until(&UserSettings::default(), at), None);
    }

    #[test]
    fn themes_and_zones_are_read_by_name() {
        assert_eq!("Blue".parse::<ThemeChoice>(), Ok(ThemeChoice::Named(Theme::Blue)));
        assert_eq!("default".parse::<ThemeChoice>(), Ok(ThemeChoice::Default));
        assert!("plaid".parse::<ThemeChoice>().unwrap_err().contains("green"));
        assert_eq!("europe/berlin".parse::<Zone>().map(|z| z.to_string()), Ok("Europe/Berlin".to_string()));
        assert!("Mars/Olympus".parse::<Zone>().unwrap_err().contains("Mars/Olympus"));
        assert_eq!(read_bottom("mine"), Ok(Bottom::Own));
        assert_eq!(zones_matching("berl", 5), ["Europe/Berlin"]);
        let europe = zones_matching("europe/", 25);
        assert_eq!(europe.len(), 25);
        assert!(europe.iter().all(|z| z.starts_with("Europe/")));
        assert!(read_bottom("left").unwrap_err().contains("left"));
    }
}
