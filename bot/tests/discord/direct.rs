//! Messages to one user alone (a player's turn in a correspondence game, for those who asked
//! with `/settings notify:on`): posted in the user's DM, which the bot opens for them; shown once
//! however often the same one is posted; and given up in bounded time for a user who takes no
//! DMs.

use std::sync::Arc;

use chimera::discord::DiscordThreads;
use fakecord::{ChannelId, FakeDiscord};
use host::{
    Command, Host, ImageFormat, Link, ManualClock, Message, PlaceFailure, Places, Settings, SettingsCommand, User,
};
use poise::serenity_prelude as serenity;
use serde_json::json;

use crate::harness::{assert_board, World};
use crate::platform::{run, say, Where};

const T0: i64 = 1_700_000_000_000;

/// The bot's places as it builds them, reaching the fake (a new one: a process of its own).
fn places(fake: &FakeDiscord) -> DiscordThreads {
    let http = serenity::HttpBuilder::new(fake.token()).proxy(fake.base_url()).ratelimiter_disabled(true).build();
    DiscordThreads::new(Arc::new(http))
}

/// How many times the bot asked Discord to open a DM.
fn dms_opened(fake: &FakeDiscord) -> usize {
    fake.requests().iter().filter(|r| r.method == "POST" && r.path == "/users/@me/channels").count()
}

#[tokio::test]
async fn a_player_who_asked_is_told_of_their_turn_in_their_dm_with_the_board_and_the_link() {
    let world = World::with(&[("CHIMERA_WEB_URL", "https://chess.example.org")]).await;
    let on = world.choice("settings", "notify", "on");
    let asked = world.slash(world.bob, world.lobby, "settings", json!({ "notify": on })).await.message;
    assert!(asked.is_ephemeral(), "{}", asked.content);
    world.start_game(world.lobby, "chess").await;
    world.play(world.lobby, &["e4"]).await;

    let notice = world.fake.wait_dm_message(world.bob, |_| true).await.expect("bob is written to");
    assert!(notice.content.contains("bob, it is your move in game 1 (Chess) against alice"), "{}", notice.content);
    assert_board(&notice);
    let links = notice.links();
    assert!(links.iter().any(|(_, url)| url.starts_with("https://chess.example.org/g/")), "{links:?}");
    assert_eq!(world.fake.dm_channel(world.alice), None, "alice asked for nothing");
    let dm = world.fake.dm_channel(world.bob).expect("bob's DM");
    assert_eq!(world.fake.messages_in(dm).len(), 1);
    assert!(world.fake.messages_in(world.lobby).iter().all(|m| !m.content.contains("your move in game")));
}

#[tokio::test]
async fn a_message_posted_again_with_its_key_shows_once_and_the_dm_is_opened_once() {
    let fake = FakeDiscord::start().await.unwrap();
    let guild = fake.add_guild("Club");
    fake.add_channel(guild, "lobby");
    let bob = fake.add_user("bob");
    let mut notice = Message::text("bob, it is your move in game 7 (Chess) against ann.")
        .to_user(&User { id: bob.get().to_string(), name: "bob".into() })
        .with_link(Some(Link {
            label: "Watch".into(),
            url: "https://chess.example.org/g/00112233445566778899aabb".into(),
        }));
    notice.images.push(host::Image {
        file_name: "game-7.png".into(),
        bytes: b"\x89PNG\r\n\x1a\n a board".to_vec(),
        format: ImageFormat::Png,
        width: 320,
        height: 340,
        alt: "Chess board: bob (Black) to move".into(),
        board: None,
    });
    notice.key = Some("7.1700000000000".into());

    let first = places(&fake);
    first.post(&notice).await.unwrap();
    first.post(&notice).await.unwrap();
    // A process that died before forgetting it: another posts it again, knowing no DM yet.
    places(&fake).post(&notice).await.unwrap();

    let dm = fake.dm_channel(bob).expect("bob's DM is open");
    let posted = fake.messages_in(dm);
    assert_eq!(posted.len(), 1, "one message for one key");
    let shown = &posted[0];
    assert_eq!(shown.content, "bob, it is your move in game 7 (Chess) against ann.");
    assert_eq!(shown.attachments[0].description.as_deref(), Some("Chess board: bob (Black) to move"));
    assert_eq!(shown.embeds[0]["image"]["url"], "attachment://game-7.png");
    let watch = ("Watch".to_string(), "https://chess.example.org/g/00112233445566778899aabb".to_string());
    assert_eq!(shown.links(), [watch]);
    assert_eq!(dms_opened(&fake), 2, "each process opens the DM once, and Discord gives both the same");

    // Without a key nothing dedupes: the same channel takes a second message.
    notice.key = None;
    first.post(&notice).await.unwrap();
    assert_eq!((fake.messages_in(dm).len(), dms_opened(&fake)), (2, 2));
}

#[tokio::test]
async fn a_player_who_takes_no_dms_is_refused_and_given_up_in_bounded_time() {
    let fake = FakeDiscord::start().await.unwrap();
    let guild = fake.add_guild("Club");
    let lobby = fake.add_channel(guild, "lobby");
    let (ann, bob) = (fake.add_user("ann"), fake.add_user("bob"));
    fake.refuse_dms(bob);
    let places = places(&fake);
    let to_bob =
        Message::text("bob, it is your move.").to_user(&User { id: bob.get().to_string(), name: "bob".into() });

    let refused = places.post(&to_bob).await.unwrap_err();
    assert_eq!(refused.failure(), PlaceFailure::Refused, "{refused:?}");
    let said = refused.to_string();
    assert!(said.contains("bob") && said.contains("Cannot send messages to this user"), "{said}");

    // The host on a manual clock, its notice refused: it backs off and drops it.
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::new(T0);
    let mut settings = Settings::new(dir.path().join("chimera.db"), "discord");
    settings.clock = Arc::new(clock.clone());
    settings.board_size = 160;
    settings.network = chimera::discord::LIMITS;
    let host = Host::open(settings).await.unwrap();
    let at = Where { server: guild.get().to_string(), channel: lobby.get().to_string() };
    let (ann, bob) = (ann.get().to_string(), bob.get().to_string());
    let n = &mut 0;
    let dm_on = Command::Settings(SettingsCommand { dm: Some(true), ..SettingsCommand::default() });
    run(&host, &places, &at, n, &bob, dm_on).await;
    say(&host, &places, &at, n, &ann, &format!("/challenge <@{bob}> variant:chess color:white")).await;
    say(&host, &places, &at, n, &bob, "/accept").await;
    say(&host, &places, &at, n, &ann, "/move e4").await;
    let dm = fake.dm_channel(fakecord::UserId(bob.parse().unwrap())).expect("opened by the first post");
    let tries = |fake: &FakeDiscord| {
        let path = format!("/channels/{dm}/messages");
        fake.requests().iter().filter(|r| r.method == "POST" && r.path == path && r.status == 403).count()
    };
    let before = tries(&fake);
    for _ in 0..600 {
        clock.advance(1_000);
        host.tick(&places).await;
    }
    let refusals = tries(&fake) - before;
    assert!((2..=10).contains(&refusals), "{refusals} posts refused in ten minutes");
    for _ in 0..30 {
        clock.advance(60_000);
        host.tick(&places).await;
    }
    assert_eq!(tries(&fake) - before, refusals, "given up: nothing more is asked");
    assert!(fake.messages_in(dm).is_empty());
    assert!(fake.messages_in(ChannelId(lobby.get())).is_empty());
}
