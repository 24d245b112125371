//! The bot's settings, read from the environment (and `.env`, loaded before). `.env.example`
//! lists every one with its default; this is the one place that reads them.

use std::env;
use std::time::Duration;

pub use crate::settings::SettingsError;
use crate::settings::{non_empty, parse_with, Common, Secret};

/// Everything `chimera discord` is configured with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The bot's token (Developer Portal, Bot tab); hidden from `Debug`.
    pub token: Secret,
    /// Register the commands in this guild only: updates show at once, for testing.
    pub guild: Option<u64>,
    /// Send every REST request, and so the gateway look-up, to this base URL instead of
    /// `https://discord.com` (an HTTP proxy for Discord's API, or a fake Discord in tests).
    pub proxy_url: Option<String>,
    /// Which shards this process runs.
    pub shards: Shards,
    /// A command still unanswered after this long is deferred ("Chimera is thinking…"), so
    /// Discord's three seconds never run out. Zero defers every command.
    pub defer_after: Duration,
    /// The database, pictures, scheduler and limits, as every adapter reads them.
    pub common: Common,
}

/// Which shards this process runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shards {
    /// As many as Discord recommends, all in this process.
    Auto,
    /// Shards `first` to `last` (inclusive) of `total`, for a deployment split across processes.
    Range { first: u32, last: u32, total: u32 },
}

const NO_TOKEN: &str = "DISCORD_TOKEN is not set; put the bot's token in the environment or in .env (see .env.example)";

impl Settings {
    /// Reads the process environment.
    pub fn from_env() -> Result<Settings, SettingsError> {
        Settings::from_lookup(|name| env::var(name).ok())
    }

    /// Reads settings through `get`, so tests need not touch the process environment. A setting
    /// that is empty counts as not set, as `.env.example`'s blank lines mean.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Settings, SettingsError> {
        let get = non_empty(get);
        let token = get("DISCORD_TOKEN").ok_or(SettingsError::Missing(NO_TOKEN.into()))?.trim().to_string();
        if token.contains(char::is_whitespace) {
            let why = "a token has no spaces in it".to_string();
            return Err(SettingsError::Invalid { name: "DISCORD_TOKEN", value: "(hidden)".into(), why });
        }
        let mut settings = Settings {
            token: Secret::new(token),
            guild: None,
            proxy_url: None,
            shards: Shards::Auto,
            defer_after: Duration::from_millis(1500),
            common: Common::from_lookup(&get)?,
        };
        let guild = parse_with("DISCORD_GUILD_ID", &get, |v| v.parse::<u64>().map_err(|_| "not a guild id".into()))?;
        settings.guild = guild;
        settings.proxy_url = parse_with("DISCORD_PROXY_URL", &get, |v| {
            if v.starts_with("http://") || v.starts_with("https://") {
                Ok(v.trim_end_matches('/').to_string())
            } else {
                Err("needs to start with http:// or https://".into())
            }
        })?;
        if let Some(shards) = parse_with("DISCORD_SHARDS", &get, parse_shards)? {
            settings.shards = shards;
        }
        if let Some(ms) = parse_with("CHIMERA_DEFER_MS", &get, |v| match v.parse::<u64>() {
            Ok(ms) if ms <= 2500 => Ok(ms),
            _ => Err("needs milliseconds from 0 to 2500 (Discord allows 3 seconds)".into()),
        })? {
            settings.defer_after = Duration::from_millis(ms);
        }
        Ok(settings)
    }

    /// The host's settings for this bot.
    pub fn host(&self) -> host::Settings {
        let mut host = self.common.host(super::PLATFORM);
        host.network = super::LIMITS;
        // Clocks run once the gateway says READY, and stop while it is lost.
        host.adapter_connects = true;
        host.channel_link = channel_link;
        host
    }
}

/// Discord's address of a channel (`@me` for a direct message), which its clients open.
pub fn channel_link(server: Option<&str>, channel: &str) -> Option<String> {
    Some(format!("https://discord.com/channels/{}/{channel}", server.unwrap_or("@me")))
}

/// `auto`, or `FIRST-LAST/TOTAL` (shards FIRST to LAST inclusive, of TOTAL).
fn parse_shards(text: &str) -> Result<Shards, String> {
    if text.eq_ignore_ascii_case("auto") {
        return Ok(Shards::Auto);
    }
    let shape = || "needs auto, or FIRST-LAST/TOTAL like 0-3/8".to_string();
    let (span, total) = text.split_once('/').ok_or_else(shape)?;
    let (first, last) = span.split_once('-').unwrap_or((span, span));
    let number = |s: &str| s.trim().parse::<u32>().map_err(|_| shape());
    let (first, last, total) = (number(first)?, number(last)?, number(total)?);
    if first > last || last >= total {
        return Err(format!("shards {first} to {last} are not within 0 to {}", total.saturating_sub(1)));
    }
    Ok(Shards::Range { first, last, total })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn a_game_s_channel_is_linked_as_discord_links_channels() {
        assert_eq!(channel_link(Some("81"), "90").as_deref(), Some("https://discord.com/channels/81/90"));
        assert_eq!(channel_link(None, "90").as_deref(), Some("https://discord.com/channels/@me/90"));
    }

    fn read(pairs: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        let env: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Settings::from_lookup(|name| env.get(name).cloned())
    }

    #[test]
    fn defaults_need_only_a_token() {
        let settings = read(&[("DISCORD_TOKEN", "abc.def.ghi")]).unwrap();
        assert_eq!(settings.token.expose(), "abc.def.ghi");
        assert_eq!(settings.guild, None);
        assert_eq!(settings.shards, Shards::Auto);
        assert_eq!(settings.common.db, host::Location::from(host::default_database()));
    }

    #[test]
    fn no_token_says_where_to_put_it() {
        let error = read(&[]).unwrap_err().to_string();
        assert!(error.contains("DISCORD_TOKEN") && error.contains(".env"), "{error}");
    }

    #[test]
    fn every_setting_is_read() {
        let settings = read(&[
            ("DISCORD_TOKEN", "t"),
            ("DISCORD_GUILD_ID", "123"),
            ("DISCORD_PROXY_URL", "http://127.0.0.1:9000/"),
            ("CHIMERA_DB", "/tmp/x.db"),
            ("CHIMERA_BOARD_SIZE", "480"),
            ("CHIMERA_THEME", "Blue"),
            ("DISCORD_SHARDS", "2-3/8"),
            ("CHIMERA_TICK_MS", "250"),
            ("CHIMERA_DEFER_MS", "0"),
            ("CHIMERA_LIMIT_OPEN_CHALLENGES", "3"),
            ("CHIMERA_LIMIT_GAMES", "4"),
            ("CHIMERA_LIMIT_COMMANDS", "50"),
            ("CHIMERA_LIMIT_TOURNAMENT_SIZE", "16"),
            ("CHIMERA_LIMIT_ENGINE_GAMES", "1"),
            ("CHIMERA_LIMIT_ANALYSES", "3"),
            ("CHIMERA_LIMIT_TOURNAMENTS_PER_USER", "2"),
            ("CHIMERA_LIMIT_TOURNAMENTS_PER_SERVER", "5"),
            ("CHIMERA_ENGINE_THREADS", "0"),
        ])
        .unwrap();
        let limits = host::Limits {
            open_challenges: 3,
            games: 4,
            commands: 50,
            tournament_size: 16,
            engine_games: 1,
            analyses: 3,
            tournaments_per_user: 2,
            tournaments_per_server: 5,
        };
        assert_eq!(settings.common.limits, limits);
        assert_eq!(settings.common.engine_threads, 0);
        assert_eq!(settings.guild, Some(123));
        assert_eq!(settings.proxy_url.as_deref(), Some("http://127.0.0.1:9000"));
        assert_eq!(settings.common.db, host::Location::Sqlite("/tmp/x.db".into()));
        assert_eq!(settings.common.board_size, 480);
        assert_eq!(settings.common.theme, host::Theme::Blue);
        assert_eq!(settings.shards, Shards::Range { first: 2, last: 3, total: 8 });
        assert_eq!(settings.common.tick, Duration::from_millis(250));
        assert_eq!(settings.defer_after, Duration::ZERO);
    }

    #[test]
    fn bad_values_name_the_setting() {
        for (name, value) in [
            ("DISCORD_GUILD_ID", "general"),
            ("DISCORD_PROXY_URL", "localhost:80"),
            ("CHIMERA_BOARD_SIZE", "20"),
            ("CHIMERA_THEME", "pink"),
            ("DISCORD_SHARDS", "4-2/8"),
            ("DISCORD_SHARDS", "0-8/8"),
            ("DISCORD_SHARDS", "many"),
            ("CHIMERA_DEFER_MS", "5000"),
            ("CHIMERA_LIMIT_GAMES", "0"),
            ("CHIMERA_LIMIT_COMMANDS", "lots"),
            ("CHIMERA_DB", "host=db.internal dbname=chimera password=hunter2"),
            ("CHIMERA_DB", "postgress://chimera:hunter2@db.internal/chimera"),
            ("CHIMERA_DB", "mysql://chimera:hunter2@db.internal/chimera"),
        ] {
            let error = read(&[("DISCORD_TOKEN", "t"), (name, value)]).unwrap_err().to_string();
            assert!(error.starts_with(name), "{name}={value}: {error}");
            assert!(!error.contains("hunter2"), "{error}");
        }
    }

    /// A settings struct printed whole (a log line, a panic) shows no secret: not the token,
    /// not the database's password in the URL or in `?password=`.
    #[test]
    fn debug_hides_the_token_and_the_database_password() {
        for db in ["postgres://chimera:hunter2@db/chimera", "postgres://chimera@db/chimera?password=hunter2"] {
            let settings = read(&[("DISCORD_TOKEN", "abc.def.sekrit"), ("CHIMERA_DB", db)]).unwrap();
            let shown = format!("{settings:?}");
            assert!(!shown.contains("sekrit") && !shown.contains("hunter2"), "{shown}");
            assert!(shown.contains("db/chimera"), "the rest is still shown: {shown}");
        }
    }
}
