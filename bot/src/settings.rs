//! What every chat adapter is set up with (the database, board pictures, the scheduler's beat,
//! the limits), read from the environment the same way for Discord and Matrix, and the running
//! of a bot process: its `.env`, its log, its stop signal. `.env.example` lists every setting.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;
use host::Theme;
use rules::Variant;
use tracing::warn;

/// A token, password or passphrase: its `Debug` shows that it is set, never what it is, so a
/// settings struct printed whole (`{:?}` in a log line or a panic) gives nothing away.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The value, for the one call that needs it (a login).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(hidden)")
    }
}

/// The settings shared by the chat adapters.
#[derive(Clone, Debug)]
pub struct Common {
    /// Its `Debug` and `Display` hide the password (see [`host::Location`]).
    pub db: host::Location,
    pub board_size: u32,
    pub theme: Theme,
    /// How often the scheduler ends games on time and expires challenges.
    pub tick: Duration,
    /// How much one user may do at once, and how fast.
    pub limits: host::Limits,
    /// Threads Chimera thinks on in games against it (0: another process does).
    pub engine_threads: usize,
    /// The puzzle job's CPU budget, in percent of one core (0: off).
    pub puzzle_cpu: u32,
    /// Where `/healthz` and `/metrics` are served, if anywhere (see `http.rs`).
    pub http_addr: Option<std::net::SocketAddr>,
    /// Where the web pages are served beside the bot, if anywhere; `chimera web`'s address.
    pub web_addr: Option<std::net::SocketAddr>,
    /// The pages' public address, for the links chat messages carry; none when unset.
    pub web_url: Option<host::WebUrl>,
    /// Outside engines for `/analyse`, by variant.
    pub analysis_engines: HashMap<Variant, host::OutsideEngine>,
}

/// A setting with a value that cannot be used, or a required one missing.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// What is missing and where to put it, in one line.
    #[error("{0}")]
    Missing(String),
    #[error("{name}={value:?}: {why}")]
    Invalid { name: &'static str, value: String, why: String },
}

impl Common {
    /// Reads the shared settings through `get` (empty values already count as unset).
    pub fn from_lookup(get: &impl Fn(&str) -> Option<String>) -> Result<Common, SettingsError> {
        let mut common = Common {
            db: host::default_database().into(),
            board_size: render::BoardView::DEFAULT_SIZE,
            theme: Theme::default(),
            tick: Duration::from_secs(1),
            limits: host::Limits::default(),
            engine_threads: host::default_engine_threads(),
            puzzle_cpu: host::DEFAULT_PUZZLE_CPU,
            http_addr: None,
            web_addr: None,
            web_url: None,
            analysis_engines: HashMap::new(),
        };
        // A URL with a password is never echoed back in the error (only its kind of mistake).
        if let Some(db) = get("CHIMERA_DB") {
            common.db = host::Location::parse(&db).map_err(|why| SettingsError::Invalid {
                name: "CHIMERA_DB",
                value: "(not shown: it may hold a password)".into(),
                why: why.to_string(),
            })?;
        }
        if let Some(size) = parse_with("CHIMERA_BOARD_SIZE", get, |v| match v.parse::<u32>() {
            Ok(px) if (160..=1600).contains(&px) => Ok(px),
            _ => Err("needs a width in pixels from 160 to 1600".into()),
        })? {
            common.board_size = size;
        }
        if let Some(theme) = parse_with("CHIMERA_THEME", get, |v| {
            v.parse::<Theme>().map_err(|_| {
                let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
                format!("needs one of {}", names.join(", "))
            })
        })? {
            common.theme = theme;
        }
        if let Some(ms) = parse_with("CHIMERA_TICK_MS", get, |v| match v.parse::<u64>() {
            Ok(ms) if (100..=60_000).contains(&ms) => Ok(ms),
            _ => Err("needs milliseconds from 100 to 60000".into()),
        })? {
            common.tick = Duration::from_millis(ms);
        }
        let limits = &mut common.limits;
        for (name, limit) in [
            ("CHIMERA_LIMIT_OPEN_CHALLENGES", &mut limits.open_challenges),
            ("CHIMERA_LIMIT_GAMES", &mut limits.games),
            ("CHIMERA_LIMIT_COMMANDS", &mut limits.commands),
            ("CHIMERA_LIMIT_TOURNAMENT_SIZE", &mut limits.tournament_size),
            ("CHIMERA_LIMIT_ENGINE_GAMES", &mut limits.engine_games),
            ("CHIMERA_LIMIT_ANALYSES", &mut limits.analyses),
            ("CHIMERA_LIMIT_TOURNAMENTS_PER_USER", &mut limits.tournaments_per_user),
            ("CHIMERA_LIMIT_TOURNAMENTS_PER_SERVER", &mut limits.tournaments_per_server),
        ] {
            if let Some(n) = parse_with(name, get, |v| match v.parse::<usize>() {
                Ok(n) if (1..=100_000).contains(&n) => Ok(n),
                _ => Err("needs a number from 1 to 100000".into()),
            })? {
                *limit = n;
            }
        }
        if let Some(n) = parse_with("CHIMERA_ENGINE_THREADS", get, |v| match v.parse::<usize>() {
            Ok(n) if n <= 256 => Ok(n),
            _ => Err("needs a number of threads from 0 to 256".into()),
        })? {
            common.engine_threads = n;
        }
        if let Some(percent) = puzzle_cpu(get)? {
            common.puzzle_cpu = percent;
        }
        common.http_addr = parse_with("CHIMERA_HTTP_ADDR", get, |v| {
            v.parse::<std::net::SocketAddr>()
                .map_err(|_| "needs an address and port, such as 127.0.0.1:9100 or [::1]:9100".into())
        })?;
        common.web_addr = web_addr(get)?;
        common.web_url = web_url(get)?;
        common.analysis_engines = analysis_engines(get)?;
        Ok(common)
    }

    /// The host's settings for the adapter of `platform`.
    pub fn host(&self, platform: &str) -> host::Settings {
        let mut host = host::Settings::new(self.db.clone(), platform);
        host.board_size = self.board_size;
        host.theme = self.theme;
        host.limits = self.limits;
        host.engine_threads = self.engine_threads;
        host.puzzle_cpu = self.puzzle_cpu;
        host.web_url = self.web_url.clone();
        host.analysis_engines = self.analysis_engines.clone();
        host
    }
}

/// `CHIMERA_PUZZLE_CPU`: the puzzle job's CPU budget in percent of one core, if set.
pub fn puzzle_cpu(get: &impl Fn(&str) -> Option<String>) -> Result<Option<u32>, SettingsError> {
    parse_with("CHIMERA_PUZZLE_CPU", get, |v| match v.parse::<u32>() {
        Ok(n) if n <= 100 => Ok(n),
        _ => Err("needs a share of one core in percent, from 0 (off) to 100".into()),
    })
}

/// `CHIMERA_WEB_ADDR`: where the web pages are served, if set.
pub fn web_addr(get: &impl Fn(&str) -> Option<String>) -> Result<Option<std::net::SocketAddr>, SettingsError> {
    parse_with("CHIMERA_WEB_ADDR", get, |v| {
        v.parse::<std::net::SocketAddr>()
            .map_err(|_| "needs an address and port, such as 127.0.0.1:8080 or [::]:8080".into())
    })
}

/// `CHIMERA_WEB_URL`: the web pages' public address, if set (an absolute http or https URL with
/// no query or fragment; see [`host::WebUrl`]).
pub fn web_url(get: &impl Fn(&str) -> Option<String>) -> Result<Option<host::WebUrl>, SettingsError> {
    parse_with("CHIMERA_WEB_URL", get, |v| v.parse::<host::WebUrl>().map_err(|e| e.to_string()))
}

/// `CHIMERA_ANALYSIS_ENGINE_<VARIANT>` (`CHESS`, `UNICORN_GREAT`, …): a UCI program that judges
/// `/analyse` in that variant, and `CHIMERA_ANALYSIS_ENGINE_<VARIANT>_OPTIONS`, the UCI options to
/// give it as `Name=value` pairs split by `;` (`VariantPath=/etc/chimera/unicorn-great.ini`).
/// A program that is not there is taken all the same (with a warning in the log): it may be
/// installed later, and until then Chimera's own engine judges.
pub fn analysis_engines(
    get: &impl Fn(&str) -> Option<String>,
) -> Result<HashMap<Variant, host::OutsideEngine>, SettingsError> {
    let mut engines = HashMap::new();
    for variant in Variant::ALL {
        let name = analysis_engine_setting(variant);
        let Some(path) = get(&name) else { continue };
        let mut engine = host::OutsideEngine::new(path.trim());
        if !engine.path.is_file() {
            warn!("{name}={path:?}: no such file; Chimera's own engine judges {} until it exists", variant.name());
        }
        let options_name = format!("{name}_OPTIONS");
        if let Some(text) = get(&options_name) {
            engine.options = uci_options(&text).map_err(|why| SettingsError::Invalid {
                name: "CHIMERA_ANALYSIS_ENGINE_<VARIANT>_OPTIONS",
                value: format!("{options_name}={text}"),
                why,
            })?;
        }
        engines.insert(variant, engine);
    }
    Ok(engines)
}

/// The setting that names `variant`'s analysis engine: `CHIMERA_ANALYSIS_ENGINE_GHOST_KING`.
pub fn analysis_engine_setting(variant: Variant) -> String {
    format!("CHIMERA_ANALYSIS_ENGINE_{}", variant.id().replace('-', "_").to_ascii_uppercase())
}

/// `Name=value;Name=value` as UCI options, in order.
fn uci_options(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(';')
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            // A line break would end the `setoption` line and start another command.
            _ if pair.contains(['\n', '\r']) => Err("an option may not hold a line break".to_string()),
            Some((name, value)) if !name.trim().is_empty() => Ok((name.trim().to_string(), value.trim().to_string())),
            _ => Err(format!("`{pair}` is not Name=value (options are split by `;`)")),
        })
        .collect()
}

/// `get` with empty values read as unset, as `.env.example`'s blank lines mean.
pub fn non_empty(get: impl Fn(&str) -> Option<String>) -> impl Fn(&str) -> Option<String> {
    move |name: &str| get(name).filter(|v| !v.trim().is_empty())
}

/// Reads the setting `name` with `parse`; a value it rejects is an error naming the setting.
pub fn parse_with<T>(
    name: &'static str,
    get: &impl Fn(&str) -> Option<String>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, SettingsError> {
    get(name).map(|value| parse(value.trim()).map_err(|why| SettingsError::Invalid { name, value, why })).transpose()
}

/// Loads `file`, or `.env` when there is one, into the environment.
pub fn load_env(file: Option<&Path>) -> anyhow::Result<()> {
    match file {
        Some(file) => {
            dotenvy::from_path(file).with_context(|| format!("cannot read {}", file.display()))?;
        }
        // No .env is fine: the environment may hold everything.
        None => match dotenvy::dotenv() {
            Ok(_) => {}
            Err(e) if e.not_found() => {}
            Err(e) => return Err(e).context("cannot read .env"),
        },
    }
    Ok(())
}

/// Logs to standard output, filtered by `RUST_LOG` or else (unset, empty, or not a filter)
/// `default`.
pub fn init_logging(default: &str) {
    let filter = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .and_then(|v| tracing_subscriber::EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| default.into());
    // Colours only on a terminal: a service manager's journal or a log file gets plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    // A second call (tests running two bots in one process) keeps the first subscriber.
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(ansi).try_init();
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM (a service manager stopping the bot).
// Written out so that `Send + 'static`, which the adapters' `serve` needs, is in the signature.
#[allow(clippy::manual_async_fn)]
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    async {
        let interrupt = tokio::signal::ctrl_c();
        #[cfg(unix)]
        {
            let mut terminate = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(e) => {
                    warn!("cannot listen for SIGTERM: {e}");
                    let _ = interrupt.await;
                    return;
                }
            };
            tokio::select! {
                _ = interrupt => {}
                _ = terminate.recv() => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = interrupt.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;

    #[test]
    fn the_web_url_is_read_and_a_bad_one_names_the_setting() {
        let with = |value: &'static str| move |name: &str| (name == "CHIMERA_WEB_URL").then(|| value.to_string());
        let common = super::Common::from_lookup(&with("https://chess.example.org/")).unwrap();
        assert_eq!(common.web_url.map(|u| u.to_string()).as_deref(), Some("https://chess.example.org"));
        assert_eq!(
            common_host_url(&super::Common::from_lookup(&with("http://127.0.0.1:8080")).unwrap()),
            Some("http://127.0.0.1:8080".into())
        );
        for bad in ["chess.example.org", "https://chess.example.org/?x=1", "https://chess.example.org/#a"] {
            let err = super::Common::from_lookup(&with(bad)).unwrap_err().to_string();
            assert!(err.starts_with("CHIMERA_WEB_URL="), "{err}");
            assert!(err.contains(bad), "{err}");
        }
        assert!(super::Common::from_lookup(&|_: &str| None).unwrap().web_url.is_none());
    }

    #[test]
    fn analysis_engines_are_read_by_variant_with_their_options() {
        let env = |name: &str| match name {
            "CHIMERA_ANALYSIS_ENGINE_CHESS" => Some("/usr/games/stockfish".to_string()),
            "CHIMERA_ANALYSIS_ENGINE_UNICORN_GREAT" => Some("/opt/fairy-stockfish".to_string()),
            "CHIMERA_ANALYSIS_ENGINE_UNICORN_GREAT_OPTIONS" => {
                Some("VariantPath=/etc/chimera/unicorn-great.ini; Hash = 64;".to_string())
            }
            _ => None,
        };
        let common = super::Common::from_lookup(&env).unwrap();
        let engines = &common.host("console").analysis_engines;
        assert_eq!(engines.len(), 2);
        assert_eq!(engines[&rules::Variant::Chess], host::OutsideEngine::new("/usr/games/stockfish"));
        let unicorn = &engines[&rules::Variant::UnicornGreat];
        assert_eq!(unicorn.path, std::path::PathBuf::from("/opt/fairy-stockfish"));
        assert_eq!(
            unicorn.options,
            [("VariantPath".to_string(), "/etc/chimera/unicorn-great.ini".to_string()), ("Hash".into(), "64".into())]
        );
        assert_eq!(super::analysis_engine_setting(rules::Variant::GhostKing), "CHIMERA_ANALYSIS_ENGINE_GHOST_KING");
        for bad in ["Hash", "=64", "Hash=64\nquit=1"] {
            let env = |name: &str| match name {
                "CHIMERA_ANALYSIS_ENGINE_CHESS" => Some("/usr/games/stockfish".to_string()),
                "CHIMERA_ANALYSIS_ENGINE_CHESS_OPTIONS" => Some(bad.to_string()),
                _ => None,
            };
            let err = super::Common::from_lookup(&env).unwrap_err().to_string();
            assert!(err.contains("CHIMERA_ANALYSIS_ENGINE_CHESS_OPTIONS="), "{err}");
        }
    }

    #[test]
    fn the_puzzle_budget_is_a_share_of_one_core() {
        let with = |value: &'static str| move |name: &str| (name == "CHIMERA_PUZZLE_CPU").then(|| value.to_string());
        assert_eq!(super::Common::from_lookup(&|_: &str| None).unwrap().puzzle_cpu, host::DEFAULT_PUZZLE_CPU);
        let off = super::Common::from_lookup(&with("0")).unwrap();
        assert_eq!((off.puzzle_cpu, off.host("discord").puzzle_cpu), (0, 0));
        assert_eq!(super::Common::from_lookup(&with("100")).unwrap().puzzle_cpu, 100);
        for bad in ["101", "-5", "a quarter"] {
            let err = super::Common::from_lookup(&with(bad)).unwrap_err().to_string();
            assert!(err.starts_with("CHIMERA_PUZZLE_CPU=") && err.contains("from 0 (off) to 100"), "{err}");
        }
    }

    /// The address the host is given.
    fn common_host_url(common: &super::Common) -> Option<String> {
        common.host("console").web_url.map(|u| u.to_string())
    }

    /// Every setting an adapter asks for is in `.env.example`, and the values there are usable.
    #[test]
    #[cfg(all(feature = "discord", feature = "matrix"))]
    fn env_example_lists_every_setting_with_a_usable_value() {
        let example = include_str!("../../.env.example");
        let listed: HashMap<&str, &str> = example
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .filter_map(|line| line.split_once('='))
            .collect();
        let asked = RefCell::new(Vec::new());
        let lookup = |required: &'static [(&'static str, &'static str)]| {
            let (asked, listed) = (&asked, &listed);
            move |name: &str| {
                asked.borrow_mut().push(name.to_string());
                let given = required.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string());
                given.or_else(|| listed.get(name).map(|v| v.to_string()))
            }
        };
        let discord = crate::discord::Settings::from_lookup(lookup(&[("DISCORD_TOKEN", "t")])).unwrap();
        let matrix = crate::matrix::Settings::from_lookup(lookup(&[
            ("MATRIX_HOMESERVER", "https://matrix.example.org"),
            ("MATRIX_USER", "@chimera:example.org"),
            ("MATRIX_PASSWORD", "secret"),
        ]))
        .unwrap();
        for name in asked.borrow().iter() {
            assert!(listed.contains_key(name.as_str()), "{name} is missing from .env.example");
        }
        assert_eq!(discord.shards, crate::discord::Shards::Auto);
        assert_eq!(matrix.prefix, "!");
        for common in [&discord.common, &matrix.common] {
            assert_eq!(common.db, host::Location::Sqlite("chimera.db".into()));
            assert_eq!(common.limits, host::Limits::default());
        }
    }
}
