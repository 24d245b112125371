//! When Discord shuts the bot out: a tournament whose threads Discord forbids backs off and is
//! paused instead of asking every second; a server that removes the bot has what lived there
//! stopped; and a bot whose Discord is gone still stops on SIGTERM.

use std::sync::Arc;
use std::time::Duration;

use chimera::discord::DiscordThreads;
use host::{Command, Host, ManualClock, Request, Settings, User};
use poise::serenity_prelude as serenity;
use serde_json::json;

use crate::harness::World;

const T0: i64 = 1_700_000_000_000;

/// The host of a Discord bot on a manual clock, reaching the fake through the real adapter's
/// places (serenity's HTTP client, as the bot builds it).
#[tokio::test]
async fn forbidden_threads_are_asked_for_a_bounded_number_of_times_and_the_tournament_is_paused() {
    let fake = fakecord::FakeDiscord::start().await.unwrap();
    let guild = fake.add_guild("Club");
    let lobby = fake.add_channel(guild, "lobby");
    let http = serenity::HttpBuilder::new(fake.token()).proxy(fake.base_url()).ratelimiter_disabled(true).build();
    let places = DiscordThreads::new(Arc::new(http));
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::new(T0);
    let mut settings = Settings::new(dir.path().join("chimera.db"), "discord");
    settings.clock = Arc::new(clock.clone());
    settings.board_size = 160;
    let host = Host::open(settings).await.unwrap();
    let at = Where { server: guild.get().to_string(), channel: lobby.get().to_string() };
    let n = &mut 0;
    say(&host, &places, &at, n, "1001", "/tournament create name:Cup variant:chess format:knockout").await;
    say(&host, &places, &at, n, "1002", "/tournament join").await;
    say(&host, &places, &at, n, "1003", "/tournament join").await;
    fake.forbid_threads(true);
    say(&host, &places, &at, n, "1001", "/tournament start").await;
    for _ in 0..600 {
        clock.advance(1_000);
        host.tick(&places).await;
    }
    let asked = |fake: &fakecord::FakeDiscord| {
        fake.requests().iter().filter(|r| r.method == "POST" && r.path.ends_with("/threads")).count()
    };
    let threads = asked(&fake);
    assert!((2..=20).contains(&threads), "{threads} threads asked for in ten minutes of 403s");
    let told = fake.messages_in(lobby).into_iter().find(|m| m.content.contains("is paused"));
    let told = told.expect("the organiser is told in the tournament's channel");
    assert!(told.content.contains("<@1001>") && told.content.contains("/tournament start"), "{}", told.content);
    for _ in 0..30 {
        clock.advance(60_000);
        host.tick(&places).await;
    }
    assert_eq!(asked(&fake), threads, "paused: nothing more is asked");
    // Permission given back, the organiser resumes it and the game opens.
    fake.forbid_threads(false);
    say(&host, &places, &at, n, "1001", "/tournament start").await;
    assert_eq!(fake.threads_of(lobby).len(), 1);
}

pub(crate) struct Where {
    pub server: String,
    pub channel: String,
}

/// `user` types `line` in the lobby, and it must not be refused.
pub(crate) async fn say(host: &Host, places: &DiscordThreads, at: &Where, n: &mut u32, user: &str, line: &str) {
    run(host, places, at, n, user, chimera::console::read_command(line).unwrap()).await;
}

/// `user` runs `command` in the lobby, typed as a slash command's options give it, and it must
/// not be refused.
pub(crate) async fn run(host: &Host, places: &DiscordThreads, at: &Where, n: &mut u32, user: &str, command: Command) {
    *n += 1;
    let line = command.to_string();
    let request = Request {
        platform: "discord".into(),
        server: Some(at.server.clone()),
        channel: at.channel.clone(),
        user: User { id: user.into(), name: user.into() },
        manager: false,
        place: host::PlaceKind::Shared,
        request_id: format!("r{n}"),
        command,
    };
    let reply = host.handle(request, places).await;
    assert!(!reply.is_error(), "{line}: {:?}", reply.messages);
}

#[tokio::test]
async fn a_server_that_removes_the_bot_has_its_game_stopped_and_its_tournament_paused() {
    let world = World::new().await;
    let args = json!({
        "name": "Cup",
        "variant": world.choice("tournament create", "variant", "Chess"),
        "format": world.choice("tournament create", "format", "Swiss"),
    });
    world.slash(world.carol, world.lobby, "tournament create", args).await;
    world.start_game(world.lobby, "chess").await;
    world.fake.remove_guild(world.guild);
    let store = data::Store::open(world.db()).unwrap();
    let mut stopped = false;
    for _ in 0..100 {
        let (game, pause) = store.read(|tx| Ok((tx.game(1)?, tx.tournament_pause(1)?))).unwrap();
        if game.state == data::GameState::Aborted {
            assert_eq!(pause.map(|p| p.reason), Some(data::PauseReason::Lost));
            stopped = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(stopped, "the game in the server the bot left is stopped");
}

/// `chimera discord` whose Discord went away (the port closed while it ran) stops within a
/// few seconds of SIGTERM, rather than trying to reconnect for ever.
#[tokio::test]
async fn the_binary_stops_on_sigterm_when_discord_is_gone() {
    let fake = fakecord::FakeDiscord::start().await.unwrap();
    let guild = fake.add_guild("Ops");
    let dir = tempfile::tempdir().unwrap();
    let mut bot = tokio::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("discord")
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", fake.token())
        .env("DISCORD_PROXY_URL", fake.base_url())
        .env("DISCORD_GUILD_ID", guild.get().to_string())
        .env("CHIMERA_DB", dir.path().join("ops.db"))
        .env("RUST_LOG", "warn")
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    fake.wait_ready().await.expect("the bot connects");
    fake.wait_command("tournament").await.expect("and registers its commands");
    drop(fake);
    // Long enough for serenity to give its shard up and requeue it: it then retries a closed
    // port every five seconds, with no shard runner left for its shutdown to stop.
    tokio::time::sleep(Duration::from_secs(8)).await;
    let pid = bot.id().expect("running").to_string();
    let sent = std::process::Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(sent.success());
    let status = tokio::time::timeout(Duration::from_secs(15), bot.wait()).await;
    let status = status.expect("the bot stops within 15 s of SIGTERM").unwrap();
    assert!(status.code().is_some(), "it exits, not killed: {status}");
}
