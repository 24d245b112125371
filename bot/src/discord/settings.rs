//! The bot's settings, read from the environment (and `.env`, loaded before). `.env.example`
//! lists every one with its default; this is the one place that reads them.

use std::env;
use std::path::PathBuf;
use std::time::Duration;

use host::Theme;

/// Everything `chimera discord` is configured with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The bot's token (Developer Portal, Bot tab).
    pub token: String,
    /// Register the commands in this guild only: updates show at once, for testing.
    pub guild: Option<u64>,
    /// Send every REST request, and so the gateway look-up, to this base URL instead of
    /// `https://discord.com` (an HTTP proxy for Discord's API, or a fake Discord in tests).
    pub proxy_url: Option<String>,
    pub db: PathBuf,
    pub board_size: u32,
    pub theme: Theme,
    /// Which shards this process runs.
    pub shards: Shards,
    /// How often the scheduler ends games on time and expires challenges.
    pub tick: Duration,
    /// A command still unanswered after this long is deferred ("Chimera is thinking…"), so
    /// Discord's three seconds never run out. Zero defers every command.
    pub defer_after: Duration,
    /// How much one user may do at once, and how fast.
    pub limits: host::Limits,
    /// Threads Chimera thinks on in games against it (0: another process does).
    pub engine_threads: usize,
}

/// Which shards this process runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shards {
    /// As many as Discord recommends, all in this process.
    Auto,
    /// Shards `first` to `last` (inclusive) of `total`, for a deployment split across processes.
    Range { first: u32, last: u32, total: u32 },
}

/// A setting with a value that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("DISCORD_TOKEN is not set; put the bot's token in the environment or in .env (see .env.example)")]
    NoToken,
    #[error("{name}={value:?}: {why}")]
    Invalid { name: &'static str, value: String, why: String },
}

impl Settings {
    /// Reads the process environment.
    pub fn from_env() -> Result<Settings, SettingsError> {
        Settings::from_lookup(|name| env::var(name).ok())
    }

    /// Reads settings through `get`, so tests need not touch the process environment. A setting
    /// that is empty counts as not set, as `.env.example`'s blank lines mean.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Settings, SettingsError> {
        let get = |name: &str| get(name).filter(|v| !v.trim().is_empty());
        let token = get("DISCORD_TOKEN").ok_or(SettingsError::NoToken)?.trim().to_string();
        if token.contains(char::is_whitespace) {
            let why = "a token has no spaces in it".to_string();
            return Err(SettingsError::Invalid { name: "DISCORD_TOKEN", value: "(hidden)".into(), why });
        }
        let mut settings = Settings {
            token,
            guild: None,
            proxy_url: None,
            db: host::default_database(),
            board_size: render::BoardView::DEFAULT_SIZE,
            theme: Theme::default(),
            shards: Shards::Auto,
            tick: Duration::from_secs(1),
            defer_after: Duration::from_millis(1500),
            limits: host::Limits::default(),
            engine_threads: host::default_engine_threads(),
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
        if let Some(db) = get("CHIMERA_DB") {
            settings.db = PathBuf::from(db.trim());
        }
        if let Some(size) = parse_with("CHIMERA_BOARD_SIZE", &get, |v| match v.parse::<u32>() {
            Ok(px) if (160..=1600).contains(&px) => Ok(px),
            _ => Err("needs a width in pixels from 160 to 1600".into()),
        })? {
            settings.board_size = size;
        }
        if let Some(theme) = parse_with("CHIMERA_THEME", &get, |v| match v.to_ascii_lowercase().as_str() {
            "green" => Ok(Theme::Green),
            "blue" => Ok(Theme::Blue),
            _ => Err("needs green or blue".into()),
        })? {
            settings.theme = theme;
        }
        if let Some(shards) = parse_with("DISCORD_SHARDS", &get, parse_shards)? {
            settings.shards = shards;
        }
        if let Some(ms) = parse_with("CHIMERA_TICK_MS", &get, |v| match v.parse::<u64>() {
            Ok(ms) if (100..=60_000).contains(&ms) => Ok(ms),
            _ => Err("needs milliseconds from 100 to 60000".into()),
        })? {
            settings.tick = Duration::from_millis(ms);
        }
        if let Some(ms) = parse_with("CHIMERA_DEFER_MS", &get, |v| match v.parse::<u64>() {
            Ok(ms) if ms <= 2500 => Ok(ms),
            _ => Err("needs milliseconds from 0 to 2500 (Discord allows 3 seconds)".into()),
        })? {
            settings.defer_after = Duration::from_millis(ms);
        }
        let limits = &mut settings.limits;
        for (name, limit) in [
            ("CHIMERA_LIMIT_OPEN_CHALLENGES", &mut limits.open_challenges),
            ("CHIMERA_LIMIT_GAMES", &mut limits.games),
            ("CHIMERA_LIMIT_COMMANDS", &mut limits.commands),
            ("CHIMERA_LIMIT_TOURNAMENT_SIZE", &mut limits.tournament_size),
            ("CHIMERA_LIMIT_ENGINE_GAMES", &mut limits.engine_games),
            ("CHIMERA_LIMIT_ANALYSES", &mut limits.analyses),
        ] {
            if let Some(n) = parse_with(name, &get, |v| match v.parse::<usize>() {
                Ok(n) if (1..=100_000).contains(&n) => Ok(n),
                _ => Err("needs a number from 1 to 100000".into()),
            })? {
                *limit = n;
            }
        }
        if let Some(n) = parse_with("CHIMERA_ENGINE_THREADS", &get, |v| match v.parse::<usize>() {
            Ok(n) if n <= 256 => Ok(n),
            _ => Err("needs a number of threads from 0 to 256".into()),
        })? {
            settings.engine_threads = n;
        }
        Ok(settings)
    }

    /// The host's settings for this bot.
    pub fn host(&self) -> host::Settings {
        let mut host = host::Settings::new(self.db.clone(), super::PLATFORM);
        host.board_size = self.board_size;
        host.theme = self.theme;
        host.limits = self.limits;
        host.engine_threads = self.engine_threads;
        host
    }
}

fn parse_with<T>(
    name: &'static str,
    get: &impl Fn(&str) -> Option<String>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, SettingsError> {
    get(name).map(|value| parse(value.trim()).map_err(|why| SettingsError::Invalid { name, value, why })).transpose()
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

    fn read(pairs: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        let env: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Settings::from_lookup(|name| env.get(name).cloned())
    }

    #[test]
    fn defaults_need_only_a_token() {
        let settings = read(&[("DISCORD_TOKEN", "abc.def.ghi")]).unwrap();
        assert_eq!(settings.token, "abc.def.ghi");
        assert_eq!(settings.guild, None);
        assert_eq!(settings.shards, Shards::Auto);
        assert_eq!(settings.db, host::default_database());
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
        };
        assert_eq!(settings.limits, limits);
        assert_eq!(settings.engine_threads, 0);
        assert_eq!(settings.guild, Some(123));
        assert_eq!(settings.proxy_url.as_deref(), Some("http://127.0.0.1:9000"));
        assert_eq!(settings.db, PathBuf::from("/tmp/x.db"));
        assert_eq!(settings.board_size, 480);
        assert_eq!(settings.theme, Theme::Blue);
        assert_eq!(settings.shards, Shards::Range { first: 2, last: 3, total: 8 });
        assert_eq!(settings.tick, Duration::from_millis(250));
        assert_eq!(settings.defer_after, Duration::ZERO);
    }

    #[test]
    fn env_example_lists_every_setting_with_a_usable_value() {
        let example = include_str!("../../../.env.example");
        let listed: HashMap<&str, &str> = example
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .filter_map(|line| line.split_once('='))
            .collect();
        let asked = std::cell::RefCell::new(Vec::new());
        let settings = Settings::from_lookup(|name| {
            asked.borrow_mut().push(name.to_string());
            if name == "DISCORD_TOKEN" {
                return Some("t".into());
            }
            listed.get(name).map(|v| v.to_string())
        })
        .unwrap();
        for name in asked.borrow().iter() {
            assert!(listed.contains_key(name.as_str()), "{name} is missing from .env.example");
        }
        assert_eq!(settings.shards, Shards::Auto);
        assert_eq!(settings.db, PathBuf::from("chimera.db"));
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
        ] {
            let error = read(&[("DISCORD_TOKEN", "t"), (name, value)]).unwrap_err().to_string();
            assert!(error.starts_with(name), "{name}={value}: {error}");
        }
    }
}
