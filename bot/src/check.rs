//! `chimera check`: what an operator runs before starting the bot, and after changing its
//! settings or upgrading it.
//!
//! It reads the settings as the bot would, opens and migrates the database, and asks each
//! network whether it takes the bot's credentials. One line per check, `ok` or what is wrong;
//! the exit status is non-zero when any check failed. It posts nothing and joins nothing: a
//! Discord token is checked by reading the bot's own user and application, a Matrix login by
//! `whoami` (a password by logging in and out again).

use std::process::ExitCode;

use crate::settings::{non_empty, Common};

/// What `chimera check` takes on the command line.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The networks to check; default: each one whose settings are present (DISCORD_TOKEN,
    /// MATRIX_HOMESERVER).
    #[arg(value_enum)]
    pub networks: Vec<Network>,
    /// A settings file to load before the environment (default: `.env`, if there is one).
    #[arg(long, value_name = "FILE")]
    pub env_file: Option<std::path::PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Network {
    Discord,
    Matrix,
}

/// One check's outcome: what it found, or what is wrong.
type Outcome = Result<String, String>;

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    crate::settings::load_env(args.env_file.as_deref())?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let checks = runtime.block_on(checks(&args.networks, &|name| std::env::var(name).ok()));
    let mut problems = 0;
    for (name, outcome) in &checks {
        match outcome {
            Ok(found) => println!("ok       {name}: {found}"),
            Err(why) => {
                problems += 1;
                println!("problem  {name}: {why}");
            }
        }
    }
    if problems == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    // The report is on standard output; the failure is said on standard error too, as every
    // command of the binary does.
    eprintln!("error: chimera check found {problems} problem(s)");
    Ok(ExitCode::FAILURE)
}

/// Every check, in order, through `get` (the environment).
async fn checks(asked: &[Network], get: &(dyn Fn(&str) -> Option<String> + Sync)) -> Vec<(&'static str, Outcome)> {
    let get = non_empty(get);
    let mut checks = Vec::new();
    let common = Common::from_lookup(&get);
    checks.push((
        "settings",
        common.as_ref().map(|_| "every CHIMERA_ setting reads".to_string()).map_err(|e| e.to_string()),
    ));
    if let Ok(common) = &common {
        checks.push(("database", database(common).await));
    }
    let networks: Vec<Network> = if asked.is_empty() {
        let present = |name: &str| get(name).is_some();
        [(Network::Discord, present("DISCORD_TOKEN")), (Network::Matrix, present("MATRIX_HOMESERVER"))]
            .into_iter()
            .filter_map(|(network, present)| present.then_some(network))
            .collect()
    } else {
        asked.to_vec()
    };
    if networks.is_empty() {
        checks.push(("network", Err("none is set up: set DISCORD_TOKEN, or MATRIX_HOMESERVER and its account".into())));
    }
    // A CHIMERA_ setting that does not read was reported above: each network's check then
    // goes on with the defaults, so that it reports only its own problems.
    let shared_failed = common.is_err();
    let get = |name: &str| if shared_failed && name.starts_with("CHIMERA_") { None } else { get(name) };
    for network in networks {
        match network {
            Network::Discord => checks.push(("discord", discord(&get).await)),
            Network::Matrix => checks.push(("matrix", matrix(&get).await)),
        }
    }
    checks
}

/// Opens the database as the bot does (creating and migrating it), and checks its integrity.
async fn database(common: &Common) -> Outcome {
    let location = common.db.clone();
    let opened = tokio::task::spawn_blocking(move || {
        let store = data::Store::open(location.clone())?;
        store.check_integrity()?;
        Ok::<_, data::Error>(format!("{location} opens at schema version {}", store.schema_version()?))
    })
    .await;
    match opened {
        Ok(Ok(found)) => Ok(found),
        Ok(Err(e)) => Err(format!("{}: {e}", common.db)),
        Err(e) => Err(format!("the check stopped: {e}")),
    }
}

#[cfg(feature = "discord")]
async fn discord(get: &impl Fn(&str) -> Option<String>) -> Outcome {
    use poise::serenity_prelude as serenity;

    let settings = crate::discord::Settings::from_lookup(get).map_err(|e| e.to_string())?;
    let mut http = serenity::HttpBuilder::new(settings.token.expose());
    if let Some(proxy) = &settings.proxy_url {
        http = http.proxy(proxy).ratelimiter_disabled(true);
    }
    let http = http.build();
    let refused = |e: serenity::Error| match &e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) if response.status_code == 401 => {
            "DISCORD_TOKEN is not accepted by Discord (401): reset it in the Developer Portal".to_string()
        }
        _ => format!("cannot reach Discord: {e}"),
    };
    let user = http.get_current_user().await.map_err(refused)?;
    let application = http.get_current_application_info().await.map_err(refused)?;
    Ok(format!(
        "logged in as {} (application {}); invite it with {}",
        user.name,
        application.id,
        crate::discord::invite_link(application.id.get())
    ))
}

#[cfg(not(feature = "discord"))]
async fn discord(_: &impl Fn(&str) -> Option<String>) -> Outcome {
    Err("this build has no Discord adapter".into())
}

#[cfg(feature = "matrix")]
async fn matrix(get: &impl Fn(&str) -> Option<String>) -> Outcome {
    let settings = crate::matrix::Settings::from_lookup(get).map_err(|e| e.to_string())?;
    crate::matrix::check_login(&settings).await.map_err(|e| format!("{e:#}"))
}

#[cfg(not(feature = "matrix"))]
async fn matrix(_: &impl Fn(&str) -> Option<String>) -> Outcome {
    Err("this build has no Matrix adapter".into())
}
