//! `chimera discord`: the game host on Discord, through serenity, with poise for the slash
//! commands.
//!
//! - `commands` (and `tournament_commands`, `/tournament`'s subcommands): one small function per
//!   slash command, each building the host's typed command.
//! - `incoming`: an interaction in (a typed command, or a button's command line), a request to
//!   the host, deferred if the host is slow.
//! - `text`: the host's text as Discord content.
//! - `outgoing`: the host's reply out as Discord messages.
//! - `channel`: channels, and threads for games whose channel is busy ([`DiscordThreads`]).
//! - `settings`: what `.env.example` lists.
//!
//! Buttons carry the host's command lines as custom ids (`/accept challenge:12`), so a button
//! works after a restart exactly as when it was made, and the host refuses a stale one. The
//! scheduler runs in the same process and posts what it announces; see the README for sharding.

mod channel;
mod commands;
mod incoming;
mod outgoing;
mod settings;
mod text;
mod tournament_commands;

use std::future::Future;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use poise::serenity_prelude as serenity;
use serenity::{ConnectionStage, FullEvent, GatewayIntents, Interaction, Permissions};
use tracing::{error, info, warn};

use crate::adapter::{AdapterArgs, Background, Process};
pub use channel::DiscordThreads;
use host::{Host, NetworkLimits};
use incoming::{Origin, Target};
pub use settings::{Settings, SettingsError, Shards};

/// The platform name Discord games are stored under.
pub const PLATFORM: &str = "discord";

/// What the bot needs in a channel, and nothing more; the README's invite link asks for these.
pub const PERMISSIONS: Permissions = Permissions::VIEW_CHANNEL
    .union(Permissions::SEND_MESSAGES)
    .union(Permissions::SEND_MESSAGES_IN_THREADS)
    .union(Permissions::CREATE_PUBLIC_THREADS)
    .union(Permissions::EMBED_LINKS)
    .union(Permissions::ATTACH_FILES);

/// What Discord takes: files up to 10 MiB (a server without boosts), nonces up to 25
/// characters ("Create Message").
pub const LIMITS: NetworkLimits = NetworkLimits { upload_bytes: 10 * 1024 * 1024, key_chars: 25 };

/// How long stopping waits for the gateway connections to close, and then for what is left: the
/// bot exits within a few seconds of SIGTERM whatever the network is doing.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// Shared by every command and event: poise's "data".
pub struct Data {
    pub host: Host,
    pub settings: Settings,
}

pub type Error = anyhow::Error;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// `chimera discord`: reads the settings, connects, and runs until SIGINT or SIGTERM.
pub fn run(args: AdapterArgs) -> anyhow::Result<ExitCode> {
    let process = Process { log_filter: "info,serenity=warn,poise=warn", shutdown_grace: SHUTDOWN_GRACE };
    crate::adapter::run(&args, process, Settings::from_env, serve)
}

/// Runs the bot until `stop` completes, then closes the gateway connections and lets the
/// database finish its writes.
pub async fn serve(settings: Settings, stop: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    let host = Host::open(settings.host()).await?;
    let mut http = serenity::HttpBuilder::new(settings.token.expose());
    if let Some(proxy) = &settings.proxy_url {
        // serenity's ratelimiter sends its requests past the proxy, so it must be off; the
        // proxy (twilight-http-proxy, or a fake) keeps to the limits instead.
        http = http.proxy(proxy).ratelimiter_disabled(true);
    }
    let http = http.build();
    let data = Data { host: host.clone(), settings: settings.clone() };
    let guild = settings.guild;
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            on_error: |failure| Box::pin(on_error(failure)),
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                match guild {
                    Some(guild) => {
                        poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(guild)).await?;
                        info!(guild, "registered {} commands in one guild", commands.len());
                    }
                    None => {
                        poise::builtins::register_globally(ctx, commands).await?;
                        info!("registered {} commands globally", commands.len());
                    }
                }
                info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected");
                Ok(data)
            })
        })
        .build();
    let mut client = serenity::ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .context("cannot build the Discord client")?;

    let background = Background::start(&host, DiscordThreads::new(Arc::clone(&client.http)), settings.common.tick);
    let _endpoint = crate::http::start_if(settings.common.http_addr, &host).await?;
    let _web =
        crate::pages::start_if(settings.common.web_addr, &host, crate::pages::web_settings(&settings.common)).await?;
    let shards = Arc::clone(&client.shard_manager);
    let (stopping, stopped) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        stop.await;
        info!("shutting down");
        // serenity waits for each shard to stop, five seconds at most each; a shard that is
        // reconnecting to an unreachable gateway is no runner to stop, and then `Client::start`
        // would wait for ever: the shutdown is bounded below instead.
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, shards.shutdown_all()).await;
        let _ = stopping.send(());
    });
    let start = async {
        match settings.shards {
            Shards::Auto => client.start_autosharded().await,
            Shards::Range { first, last, total } => client.start_shard_range(first..last, total).await,
        }
    };
    tokio::pin!(start);
    let started = tokio::select! {
        started = &mut start => started,
        Ok(()) = stopped => match tokio::time::timeout(SHUTDOWN_GRACE, &mut start).await {
            Ok(started) => started,
            Err(_) => {
                warn!("the gateway connection did not close in time (unreachable?); stopping without it");
                Ok(())
            }
        },
    };
    drop(background);
    started.context("the Discord connection failed")?;
    info!("stopped");
    Ok(())
}

/// Button clicks: each button's custom id is a command line, run as the user who clicked.
async fn on_event(framework: poise::FrameworkContext<'_, Data, Error>, event: &FullEvent) -> Result<(), Error> {
    let host = &framework.user_data.host;
    match event {
        // Connected and serving: the host credits the time it was not (see its `schedule.rs`).
        FullEvent::Ready { .. } | FullEvent::Resume { .. } => host.connected().await?,
        // A shard lost its connection: nobody can move until it is back.
        FullEvent::ShardStageUpdate { event }
            if event.old == ConnectionStage::Connected && event.new != ConnectionStage::Connected =>
        {
            host.disconnected()
        }
        // Removed from a server (kicked, banned, or the server deleted; an outage says
        // `unavailable` instead): what lived there is stopped (see the host's `lost.rs`).
        FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            info!(guild = %incomplete.id, "removed from a server");
            host.server_lost(&incomplete.id.to_string()).await?;
        }
        _ => {}
    }
    if let FullEvent::InteractionCreate { interaction: Interaction::Component(click) } = event {
        let target = Target::new(
            click.id,
            &click.token,
            click.channel_id,
            click.guild_id,
            &click.user,
            click.member.as_ref(),
            Origin::Button,
        );
        incoming::click(framework.serenity_context, framework.user_data, &target, &click.data.custom_id).await?;
    }
    Ok(())
}

async fn on_error(failure: poise::FrameworkError<'_, Data, Error>) {
    match &failure {
        poise::FrameworkError::Command { error, ctx, .. } => {
            error!(command = %ctx.command().name, "{error:#}");
        }
        poise::FrameworkError::EventHandler { error, .. } => {
            error!("handling an event failed: {error:#}");
            return;
        }
        other => warn!("{other}"),
    }
    if let Err(e) = poise::builtins::on_error(failure).await {
        warn!("cannot report an error to the user: {e}");
    }
}

/// Whether a member may run this server's tournaments (Discord computes the permissions an
/// interaction's member has in its channel).
fn is_manager(member: Option<&serenity::Member>) -> bool {
    member.and_then(|m| m.permissions).is_some_and(|p| p.manage_guild() || p.administrator())
}

/// The invite link for an application: the bot with its slash commands and [`PERMISSIONS`].
pub fn invite_link(application_id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={application_id}&scope=bot+applications.commands&permissions={}",
        PERMISSIONS.bits()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_invites_with_exactly_the_permissions_used() {
        let readme = include_str!("../../../README.md");
        let link = invite_link(0).replace("client_id=0", "client_id=APP_ID");
        assert!(readme.contains(&link), "README.md should show {link}");
        for needed in
            [Permissions::SEND_MESSAGES_IN_THREADS, Permissions::CREATE_PUBLIC_THREADS, Permissions::ATTACH_FILES]
        {
            assert!(PERMISSIONS.contains(needed));
        }
        assert!(
            !PERMISSIONS.contains(Permissions::ADMINISTRATOR) && !PERMISSIONS.contains(Permissions::MENTION_EVERYONE)
        );
    }
}
