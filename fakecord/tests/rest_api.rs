//! The REST API through serenity's own `Http` client: what it sends reaches the fake, and what
//! the fake answers decodes into serenity's model.

use fakecord::{ChannelId, FakeDiscord, GuildId};
use poise::serenity_prelude as serenity;
use serde_json::json;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n not really a picture beyond the signature";

struct Setup {
    fake: FakeDiscord,
    http: serenity::Http,
    guild: GuildId,
    lobby: serenity::ChannelId,
}

async fn setup() -> Setup {
    let fake = FakeDiscord::start().await.unwrap();
    let guild = fake.add_guild("Chimera Club");
    let lobby = serenity::ChannelId::new(fake.add_channel(guild, "lobby").get());
    let http = serenity::HttpBuilder::new(fake.token()).proxy(fake.base_url()).ratelimiter_disabled(true).build();
    Setup { fake, http, guild, lobby }
}

fn discord_error(error: serenity::Error) -> (u16, isize) {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            (response.status_code.as_u16(), response.error.code)
        }
        other => panic!("not an API error: {other:?}"),
    }
}

#[tokio::test]
async fn a_wrong_token_is_unauthorized() {
    let Setup { fake, .. } = setup().await;
    let stranger =
        serenity::HttpBuilder::new("MTIz.NDU2.Nzg5").proxy(fake.base_url()).ratelimiter_disabled(true).build();

    let refused = stranger.get_current_user().await.unwrap_err();

    assert_eq!(discord_error(refused), (401, 0));
    assert_eq!(fake.requests().last().map(|r| (r.path.as_str(), r.status)), Some(("/users/@me", 401)));
}

#[tokio::test]
async fn the_bot_reads_itself_its_application_the_gateway_and_channels() {
    let Setup { fake, http, guild, lobby } = setup().await;

    let me = http.get_current_user().await.unwrap();
    assert_eq!((me.id.get(), me.name.as_str(), me.bot), (fake.bot_id().get(), "Chimera", true));
    let application = http.get_current_application_info().await.unwrap();
    assert_eq!(application.id.get(), fake.application_id());
    assert_eq!(http.get_gateway().await.unwrap().url, fake.gateway_url());
    assert_eq!(http.get_bot_gateway().await.unwrap().shards, 1);
    let channel = http.get_channel(lobby).await.unwrap().guild().expect("a guild channel");
    assert_eq!(
        (channel.name.as_str(), channel.kind, channel.guild_id.get()),
        ("lobby", serenity::ChannelType::Text, guild.get())
    );
    assert!(fake.token().split('.').count() == 3, "shaped like a Discord token");
}

#[tokio::test]
async fn a_posted_file_is_stored_served_and_kept_through_edits() {
    let Setup { fake, http, lobby, .. } = setup().await;
    let message = serenity::CreateMessage::new()
        .content("the board")
        .add_file(serenity::CreateAttachment::bytes(PNG, "board.png"));

    let mut posted = lobby.send_message(&http, message).await.unwrap();

    let attachment = &posted.attachments[0];
    assert_eq!((attachment.filename.as_str(), attachment.size as usize), ("board.png", PNG.len()));
    assert_eq!(attachment.download().await.unwrap(), PNG, "the fake serves the bytes at the attachment's URL");
    posted.edit(&http, serenity::EditMessage::new().content("the board, edited")).await.unwrap();
    let stored = fake.message(fakecord::MessageId(posted.id.get())).unwrap();
    assert_eq!(stored.content, "the board, edited");
    assert_eq!(stored.attachments[0].bytes, PNG, "an edit that names no attachments keeps them");
    assert_eq!(fake.revisions(stored.id), ["the board", "the board, edited"], "each version is kept");
    assert!(posted.edited_timestamp.is_some());
    let fetched = lobby.message(&http, posted.id).await.unwrap();
    assert_eq!(fetched.content, "the board, edited");
}

#[tokio::test]
async fn the_fake_refuses_what_discord_refuses() {
    let Setup { fake: _fake, http, lobby, .. } = setup().await;

    let empty = lobby.send_message(&http, serenity::CreateMessage::new()).await.unwrap_err();
    assert_eq!(discord_error(empty), (400, 50006));
    // serenity checks the length itself, so this goes straight through its raw route.
    let long = http.send_message(lobby, vec![], &json!({ "content": "x".repeat(2001) })).await.unwrap_err();
    assert_eq!(discord_error(long), (400, 50035));
    let nowhere = serenity::ChannelId::new(1).send_message(&http, serenity::CreateMessage::new().content("hi")).await;
    assert_eq!(discord_error(nowhere.unwrap_err()), (404, 10003));

    let root = lobby.send_message(&http, serenity::CreateMessage::new().content("root")).await.unwrap();
    let thread = lobby.create_thread_from_message(&http, root.id, serenity::CreateThread::new("t")).await.unwrap();
    assert_eq!(thread.id.get(), root.id.get(), "a thread from a message shares its id");
    let again = lobby.create_thread_from_message(&http, root.id, serenity::CreateThread::new("t2")).await.unwrap_err();
    assert_eq!(discord_error(again), (400, 160004));
    let nested = thread.id.create_thread(&http, serenity::CreateThread::new("nested")).await.unwrap_err();
    assert_eq!(discord_error(nested), (400, 50024));
    let nameless = http.create_thread(lobby, &json!({ "type": 11 }), None).await.unwrap_err();
    assert_eq!(discord_error(nameless), (400, 50035));
}

#[tokio::test]
async fn commands_are_stored_per_scope_and_keep_their_ids() {
    let Setup { fake, http, guild, .. } = setup().await;
    http.set_application_id(serenity::ApplicationId::new(fake.application_id()));
    let ping = || serenity::CreateCommand::new("ping").description("Ping");

    let first = serenity::Command::set_global_commands(&http, vec![ping()]).await.unwrap();
    let second = serenity::Command::set_global_commands(
        &http,
        vec![ping(), serenity::CreateCommand::new("pong").description("Pong")],
    )
    .await
    .unwrap();
    let local = serenity::GuildId::new(guild.get()).set_commands(&http, vec![ping()]).await.unwrap();

    assert_eq!(first[0].id, second[0].id, "a command keeps its id across overwrites");
    assert_ne!(local[0].id, first[0].id, "a guild command is its own");
    assert_eq!(local[0].guild_id.map(|g| g.get()), Some(guild.get()));
    let mut names: Vec<(String, Option<GuildId>)> =
        fake.registered_commands().into_iter().map(|c| (c.name, c.guild)).collect();
    names.sort();
    assert_eq!(names, [("ping".into(), None), ("ping".into(), Some(guild)), ("pong".into(), None)]);

    let shouting =
        serenity::Command::set_global_commands(&http, vec![serenity::CreateCommand::new("Ping").description("Ping")])
            .await;
    assert_eq!(discord_error(shouting.unwrap_err()), (400, 50035));
}

#[tokio::test]
async fn messages_in_a_thread_belong_to_the_thread() {
    let Setup { fake, http, lobby, .. } = setup().await;
    let thread = lobby.create_thread(&http, serenity::CreateThread::new("analysis")).await.unwrap();
    assert_eq!(thread.kind, serenity::ChannelType::PrivateThread, "Discord's default thread type");

    thread.send_message(&http, serenity::CreateMessage::new().content("1. e4 e5")).await.unwrap();

    let thread_id = ChannelId(thread.id.get());
    assert_eq!(fake.messages_in(thread_id)[0].content, "1. e4 e5");
    assert!(fake.messages_in(ChannelId(lobby.get())).is_empty());
    let fetched = http.get_channel(thread.id).await.unwrap().guild().unwrap();
    assert_eq!(fetched.parent_id, Some(lobby));
    assert_eq!(fetched.message_count, Some(1));
}

#[tokio::test]
async fn a_message_sent_again_with_an_enforced_nonce_is_the_first_one() {
    let Setup { fake, http, lobby, .. } = setup().await;
    let send = |text: &str, nonce: &str, enforce: bool| {
        serenity::CreateMessage::new()
            .content(text)
            .nonce(serenity::Nonce::String(nonce.to_string()))
            .enforce_nonce(enforce)
    };

    let first = lobby.send_message(&http, send("round 2", "chimera-7", true)).await.unwrap();
    let again = lobby.send_message(&http, send("round 2 (again)", "chimera-7", true)).await.unwrap();
    let other = lobby.send_message(&http, send("round 3", "chimera-8", true)).await.unwrap();
    let unenforced = lobby.send_message(&http, send("round 3", "chimera-8", false)).await.unwrap();

    assert_eq!((again.id, again.content.as_str()), (first.id, "round 2"), "the first message comes back");
    assert_ne!(other.id, first.id);
    assert_ne!(unenforced.id, other.id, "without enforce_nonce a nonce dedupes nothing");
    let texts: Vec<String> = fake.messages_in(ChannelId(lobby.get())).into_iter().map(|m| m.content).collect();
    assert_eq!(texts, ["round 2", "round 3", "round 3"]);
}

#[tokio::test]
async fn a_dm_is_opened_once_per_user_and_refused_when_the_user_takes_none() {
    let Setup { fake, http, .. } = setup().await;
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    let user = |id: fakecord::UserId| serenity::UserId::new(id.get());

    let dm = user(alice).create_dm_channel(&http).await.unwrap();
    let again = user(alice).create_dm_channel(&http).await.unwrap();
    assert_eq!(again.id, dm.id, "one DM per user, returned again");
    assert_eq!((dm.kind, dm.recipient.name.as_str()), (serenity::ChannelType::Private, "alice"));
    assert_eq!(fake.dm_channel(alice), Some(ChannelId(dm.id.get())));
    assert_eq!(fake.dm_channel(bob), None, "not opened until asked for");
    dm.id.say(&http, "your move").await.unwrap();
    let texts: Vec<String> = fake.messages_in(ChannelId(dm.id.get())).into_iter().map(|m| m.content).collect();
    assert_eq!(texts, ["your move"]);
    let fetched = http.get_channel(dm.id).await.unwrap().private().expect("a DM, in no guild");
    assert_eq!(fetched.recipient.id, user(alice));

    fake.refuse_dms(bob);
    let bobs = user(bob).create_dm_channel(&http).await.expect("opening a DM works, as on Discord");
    let refused = bobs.id.say(&http, "your move").await.unwrap_err();
    assert_eq!(discord_error(refused), (403, 50007));
    assert!(fake.messages_in(ChannelId(bobs.id.get())).is_empty());
    let nobody = serenity::UserId::new(1).create_dm_channel(&http).await.unwrap_err();
    assert_eq!(discord_error(nobody), (404, 10013));
}
