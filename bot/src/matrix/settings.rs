//! The Matrix bot's settings, read from the environment (and `.env`, loaded before);
//! `.env.example` lists every one with its default.

use std::env;
use std::path::PathBuf;

use matrix_sdk::ruma::{OwnedServerName, OwnedUserId, UserId};

use crate::settings::{non_empty, parse_with, Common, Secret, SettingsError};

/// Everything `chimera matrix` is configured with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The homeserver's base URL (`https://matrix.example.org`).
    pub homeserver: String,
    /// The bot's account, a full user id (`@chimera:example.org`).
    pub user: OwnedUserId,
    pub credentials: Credentials,
    /// The SDK's state and crypto store, and the session (the bot's ledger is in the database).
    pub store_dir: PathBuf,
    /// Encrypts the store's secrets at rest when set; hidden from `Debug`.
    pub store_passphrase: Option<Secret>,
    /// What commands start with (`!` in `!move e4`).
    pub prefix: String,
    /// Join rooms only when invited by users of these servers; empty: from anywhere.
    pub allowed_servers: Vec<OwnedServerName>,
    /// The database, pictures, scheduler and limits, as every adapter reads them.
    pub common: Common,
}

/// How the bot logs in the first time (after that the stored session is used).
#[derive(Clone)]
pub enum Credentials {
    Password(String),
    AccessToken(String),
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Password(_) => f.write_str("Password(hidden)"),
            Credentials::AccessToken(_) => f.write_str("AccessToken(hidden)"),
        }
    }
}

const SEE: &str = "put it in the environment or in .env (see .env.example)";

impl Settings {
    /// Reads the process environment.
    pub fn from_env() -> Result<Settings, SettingsError> {
        Settings::from_lookup(|name| env::var(name).ok())
    }

    /// Reads settings through `get`, so tests need not touch the process environment. A setting
    /// that is empty counts as not set.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Settings, SettingsError> {
        let get = non_empty(get);
        let homeserver = parse_with("MATRIX_HOMESERVER", &get, |v| {
            if v.starts_with("http://") || v.starts_with("https://") {
                Ok(v.trim_end_matches('/').to_string())
            } else {
                Err("needs to start with http:// or https://".into())
            }
        })?
        .ok_or_else(|| SettingsError::Missing(format!("MATRIX_HOMESERVER is not set (the homeserver's URL); {SEE}")))?;
        let user = parse_with("MATRIX_USER", &get, |v| {
            UserId::parse(v).map_err(|_| "needs a full user id like @chimera:example.org".to_string())
        })?
        .ok_or_else(|| SettingsError::Missing(format!("MATRIX_USER is not set (the bot's user id); {SEE}")))?;
        let credentials = match (get("MATRIX_PASSWORD"), get("MATRIX_ACCESS_TOKEN")) {
            (_, Some(token)) => Credentials::AccessToken(token.trim().to_string()),
            (Some(password), None) => Credentials::Password(password),
            (None, None) => {
                return Err(SettingsError::Missing(format!(
                    "neither MATRIX_PASSWORD nor MATRIX_ACCESS_TOKEN is set; {SEE}"
                )))
            }
        };
        let prefix = parse_with("MATRIX_COMMAND_PREFIX", &get, |v| {
            if v.chars().count() <= 8 && !v.contains(char::is_whitespace) {
                Ok(v.to_string())
            } else {
                Err("needs a short prefix without spaces, like !".into())
            }
        })?
        .unwrap_or_else(|| "!".into());
        let allowed_servers = parse_with("MATRIX_ALLOWED_SERVERS", &get, |v| {
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| OwnedServerName::try_from(s).map_err(|_| format!("`{s}` is not a server name")))
                .collect::<Result<Vec<_>, _>>()
        })?
        .unwrap_or_default();
        Ok(Settings {
            homeserver,
            user,
            credentials,
            store_dir: get("MATRIX_STORE_DIR").map_or_else(|| PathBuf::from("matrix-store"), |d| d.trim().into()),
            store_passphrase: get("MATRIX_STORE_PASSPHRASE").map(Secret::new),
            prefix,
            allowed_servers,
            common: Common::from_lookup(&get)?,
        })
    }

    /// The host's settings, with what the homeserver takes.
    pub fn host(&self, network: host::NetworkLimits) -> host::Settings {
        let mut host = self.common.host(super::PLATFORM);
        host.network = network;
        // Clocks run once a sync came back, and stop while syncs fail (see `presence`).
        host.adapter_connects = true;
        host.channel_link = room_link;
        host
    }
}

/// The `matrix.to` address of the room a game is in (its server, on Matrix: the room; a
/// thread's channel is within it).
pub fn room_link(server: Option<&str>, channel: &str) -> Option<String> {
    let room = matrix_sdk::ruma::RoomId::parse(server.unwrap_or(channel)).ok()?;
    Some(room.matrix_to_uri().to_string())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn a_game_s_room_is_linked_through_matrix_to() {
        assert_eq!(
            room_link(Some("!abc:example.org"), "!abc:example.org").as_deref(),
            Some("https://matrix.to/#/!abc:example.org")
        );
        assert_eq!(room_link(None, "not a room"), None);
    }

    fn read(pairs: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        let env: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Settings::from_lookup(|name| env.get(name).cloned())
    }

    const NEEDED: [(&str, &str); 3] = [
        ("MATRIX_HOMESERVER", "https://matrix.example.org/"),
        ("MATRIX_USER", "@chimera:example.org"),
        ("MATRIX_PASSWORD", "secret"),
    ];

    #[test]
    fn defaults_need_a_homeserver_a_user_and_a_credential() {
        let settings = read(&NEEDED).unwrap();
        assert_eq!(settings.homeserver, "https://matrix.example.org");
        assert_eq!(settings.user.as_str(), "@chimera:example.org");
        assert!(matches!(settings.credentials, Credentials::Password(ref p) if p == "secret"));
        assert_eq!(settings.prefix, "!");
        assert_eq!(settings.store_dir, PathBuf::from("matrix-store"));
        assert!(settings.allowed_servers.is_empty() && settings.store_passphrase.is_none());
        assert_eq!(settings.common.db, host::Location::from(host::default_database()));
    }

    #[test]
    fn each_missing_setting_is_named_in_one_line() {
        for (left_out, named) in [(0, "MATRIX_HOMESERVER"), (1, "MATRIX_USER"), (2, "MATRIX_PASSWORD")] {
            let pairs: Vec<_> = NEEDED.iter().enumerate().filter(|(i, _)| *i != left_out).map(|(_, p)| *p).collect();
            let error = read(&pairs).unwrap_err().to_string();
            assert!(error.contains(named) && error.contains(".env") && !error.contains('\n'), "{error}");
        }
    }

    #[test]
    fn every_setting_is_read() {
        let mut pairs = NEEDED.to_vec();
        pairs.extend([
            ("MATRIX_ACCESS_TOKEN", "syt_abc"),
            ("MATRIX_STORE_DIR", "/var/lib/chimera/store"),
            ("MATRIX_STORE_PASSPHRASE", "pass phrase"),
            ("MATRIX_COMMAND_PREFIX", "chess!"),
            ("MATRIX_ALLOWED_SERVERS", "example.org, localhost:8448"),
            ("CHIMERA_TICK_MS", "250"),
            ("CHIMERA_LIMIT_GAMES", "4"),
        ]);
        let settings = read(&pairs).unwrap();
        assert!(matches!(settings.credentials, Credentials::AccessToken(ref t) if t == "syt_abc"));
        assert_eq!(settings.store_dir, PathBuf::from("/var/lib/chimera/store"));
        assert_eq!(settings.store_passphrase.as_ref().map(Secret::expose), Some("pass phrase"));
        assert_eq!(settings.prefix, "chess!");
        let servers: Vec<&str> = settings.allowed_servers.iter().map(|s| s.as_str()).collect();
        assert_eq!(servers, ["example.org", "localhost:8448"]);
        assert_eq!(settings.common.tick, std::time::Duration::from_millis(250));
        assert_eq!(settings.common.limits.games, 4);
    }

    #[test]
    fn bad_values_name_the_setting() {
        for (name, value) in [
            ("MATRIX_HOMESERVER", "matrix.example.org"),
            ("MATRIX_USER", "chimera"),
            ("MATRIX_COMMAND_PREFIX", "! !"),
            ("MATRIX_ALLOWED_SERVERS", "exa mple.org"),
            ("CHIMERA_BOARD_SIZE", "20"),
        ] {
            let mut pairs: Vec<_> = NEEDED.iter().filter(|(n, _)| *n != name).copied().collect();
            pairs.push((name, value));
            let error = read(&pairs).unwrap_err().to_string();
            assert!(error.starts_with(name), "{name}={value}: {error}");
        }
    }

    /// A settings struct printed whole (a log line, a panic) shows no secret: not the password
    /// or access token, not the store's passphrase, not the database's password.
    #[test]
    fn debug_hides_the_password_the_token_the_passphrase_and_the_database_password() {
        for (credential, value) in [("MATRIX_PASSWORD", "hunter2-password"), ("MATRIX_ACCESS_TOKEN", "hunter2-token")] {
            let mut pairs: Vec<_> = NEEDED.iter().filter(|(n, _)| *n != "MATRIX_PASSWORD").copied().collect();
            pairs.extend([
                (credential, value),
                ("MATRIX_STORE_PASSPHRASE", "hunter2-passphrase"),
                ("CHIMERA_DB", "postgres://chimera:hunter2-db@db/chimera?password=hunter2-query"),
            ]);
            let shown = format!("{:?}", read(&pairs).unwrap());
            assert!(!shown.contains("hunter2"), "{shown}");
            assert!(shown.contains("store_passphrase: Some(Secret(hidden))"), "{shown}");
        }
    }
}
