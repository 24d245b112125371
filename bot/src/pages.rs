//! The web pages (the `web` crate) in the bot: `chimera web` serves them alone, over the
//! database the settings name; an adapter serves them beside itself, sharing its store, when
//! `CHIMERA_WEB_ADDR` is set. An address that cannot be bound stops the start with one line
//! naming it.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, Result};
use clap::Args;
use host::Host;

use crate::settings::{self, Common};

/// Where `chimera web` listens when `CHIMERA_WEB_ADDR` is not set: loopback only.
pub const DEFAULT_ADDR: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 8080);

#[derive(Args)]
pub struct WebArgs {
    /// A settings file to load before the environment (default: `.env`, if there is one).
    #[arg(long, value_name = "FILE")]
    env_file: Option<std::path::PathBuf>,
}

/// The pages' settings from the bot's.
pub fn web_settings(common: &Common) -> web::Settings {
    web::Settings { theme: common.theme, gif_size: common.board_size, ..web::Settings::default() }
}

/// Starts the pages beside an adapter when `addr` is set, over the adapter's own store.
pub async fn start_if(addr: Option<SocketAddr>, host: &Host, settings: web::Settings) -> Result<Option<web::Server>> {
    let Some(addr) = addr else { return Ok(None) };
    let web = web::Web::new(host.store().clone(), settings);
    Ok(Some(web::start(addr, web).await?))
}

/// `chimera web`.
pub fn run(args: WebArgs) -> Result<ExitCode> {
    settings::load_env(args.env_file.as_deref())?;
    settings::init_logging("info");
    let get = settings::non_empty(|name: &str| std::env::var(name).ok());
    let common = Common::from_lookup(&get)?;
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let store =
            data::AsyncStore::open(common.db.clone()).await.with_context(|| format!("cannot open {}", common.db))?;
        let addr = common.web_addr.unwrap_or(DEFAULT_ADDR);
        let server = web::start(addr, web::Web::new(store, web_settings(&common))).await?;
        println!("serving the web pages on http://{}", server.addr);
        settings::shutdown_signal().await;
        drop(server);
        // Let open event streams see their connection close before the runtime goes.
        tokio::time::sleep(Duration::from_millis(50)).await;
        Ok(ExitCode::SUCCESS)
    })
}
