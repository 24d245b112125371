//! A real serenity + poise bot against the fake: it connects, registers its commands, and answers
//! slash commands, autocomplete and buttons, posts messages, opens threads, and rides out the
//! gateway dropping it.

use std::sync::Arc;
use std::time::Duration;

use fakecord::{CallbackType, ChannelId, FakeDiscord, GuildId, UserId};
use poise::serenity_prelude as serenity;
use serde_json::json;
use tokio::sync::watch;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

/// A 1x1 PNG: the fake must hand back these exact bytes.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d,
    0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// What the bot saw over the gateway, for the test to check.
struct Data {
    seen: Arc<watch::Sender<Vec<String>>>,
}

/// Echoes a word with a picture and a button.
#[poise::command(slash_command)]
async fn ping(
    ctx: Context<'_>,
    #[description = "A word to echo"]
    #[autocomplete = "complete_word"]
    word: String,
) -> Result<(), Error> {
    let again = serenity::CreateButton::new("ping:again").label("Again");
    let reply = poise::CreateReply::default()
        .content(format!("pong: {word}"))
        .attachment(serenity::CreateAttachment::bytes(PNG, "board.png"))
        .components(vec![serenity::CreateActionRow::Buttons(vec![again])]);
    ctx.send(reply).await?;
    Ok(())
}

async fn complete_word(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let words = ["chess", "chimera", "checkmate", "rook"];
    let choices = words.into_iter().filter(|w| w.starts_with(partial)).map(serenity::AutocompleteChoice::from);
    serenity::CreateAutocompleteResponse::new().set_choices(choices.collect())
}

/// Answers only the caller.
#[poise::command(slash_command, ephemeral)]
async fn secret(ctx: Context<'_>) -> Result<(), Error> {
    ctx.say("only you can see this").await?;
    Ok(())
}

/// Thinks before answering, then adds a second thought.
#[poise::command(slash_command)]
async fn think(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer().await?;
    ctx.say("thought about it").await?;
    ctx.say("and one more thing").await?;
    Ok(())
}

/// Announces a game in the channel, opens a thread on the announcement and a private one.
#[poise::command(slash_command)]
async fn open(ctx: Context<'_>, #[description = "Who to play"] opponent: serenity::User) -> Result<(), Error> {
    let channel = ctx.channel_id();
    let announcement = format!("Game: {} vs {}", ctx.author().name, opponent.name);
    let message = channel.send_message(ctx, serenity::CreateMessage::new().content(announcement)).await?;
    let game = channel.create_thread_from_message(ctx, message.id, serenity::CreateThread::new("game-1")).await?;
    game.send_message(ctx, serenity::CreateMessage::new().content("1. e4")).await?;
    let private = serenity::CreateThread::new("analysis").kind(serenity::ChannelType::PrivateThread);
    let analysis = channel.create_thread(ctx, private).await?;
    let looked_up = analysis.id.to_channel(ctx).await?.guild().ok_or("not a guild channel")?;
    ctx.send(
        poise::CreateReply::default().content(format!("opened {} and {}", game.name, looked_up.name)).ephemeral(true),
    )
    .await?;
    Ok(())
}

async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    let ctx = framework.serenity_context;
    let note = match event {
        serenity::FullEvent::GuildCreate { guild, .. } => {
            let mut channels: Vec<&str> = guild.channels.values().map(|c| c.name.as_str()).collect();
            channels.sort();
            Some(format!("guild {} with {}", guild.name, channels.join(",")))
        }
        serenity::FullEvent::Resume { .. } => Some("resumed".into()),
        serenity::FullEvent::ThreadCreate { thread } => Some(format!("thread {}", thread.name)),
        serenity::FullEvent::Message { new_message } => Some(format!("message {}", new_message.content)),
        serenity::FullEvent::InteractionCreate { interaction: serenity::Interaction::Component(click) } => {
            if click.data.custom_id == "ping:again" {
                // serenity sends `attachments` with every update, so a picture that should stay is
                // uploaded again: Discord keeps only what the update lists.
                let update = serenity::CreateInteractionResponseMessage::new()
                    .content("pong again")
                    .components(vec![])
                    .add_file(serenity::CreateAttachment::bytes(PNG, "board.png"));
                click.create_response(ctx, serenity::CreateInteractionResponse::UpdateMessage(update)).await?;
            }
            None
        }
        _ => None,
    };
    if let Some(note) = note {
        framework.user_data.seen.send_modify(|seen| seen.push(note));
    }
    Ok(())
}

/// The running bot: what it saw, and its client task.
struct Bot {
    seen: Arc<watch::Sender<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Bot {
    /// Waits until the bot has noted each of `notes`.
    async fn wait_saw(&self, notes: &[&str]) {
        let mut seen = self.seen.subscribe();
        let all_seen = tokio::time::timeout(
            Duration::from_secs(20),
            seen.wait_for(|seen| notes.iter().all(|note| seen.iter().any(|n| n == note))),
        )
        .await
        .is_ok();
        assert!(all_seen, "the bot never saw all of {notes:?}; it saw {:?}", self.seen.borrow());
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts the bot against the fake: global commands, plus /open in `guild` only.
async fn start_bot(fake: &FakeDiscord, guild: GuildId) -> Bot {
    let seen = Arc::new(watch::Sender::new(Vec::new()));
    let data = Data { seen: Arc::clone(&seen) };
    let guild = serenity::GuildId::new(guild.get());
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![ping(), secret(), think(), open()],
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            ..Default::default()
        })
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                let (global, local) = framework.options().commands.split_at(3);
                poise::builtins::register_globally(ctx, global).await?;
                poise::builtins::register_in_guild(ctx, local, guild).await?;
                Ok(data)
            })
        })
        .build();
    // The ratelimiter sends its requests past the proxy, straight to discord.com: it must be off.
    let http = serenity::HttpBuilder::new(fake.token()).proxy(fake.base_url()).ratelimiter_disabled(true).build();
    let mut client = serenity::ClientBuilder::new_with_http(http, serenity::GatewayIntents::non_privileged())
        .framework(framework)
        .await
        .expect("the client builds");
    let task = tokio::spawn(async move {
        client.start().await.expect("the client runs until the test ends");
    });
    Bot { seen, task }
}

struct World {
    fake: FakeDiscord,
    guild: GuildId,
    lobby: ChannelId,
    alice: UserId,
    bob: UserId,
    bot: Bot,
}

/// A fake with one guild, a #lobby, two players, and the bot connected with its commands.
async fn world() -> World {
    let fake = FakeDiscord::start().await.expect("the fake binds 127.0.0.1");
    let guild = fake.add_guild("Chimera Club");
    let lobby = fake.add_channel(guild, "lobby");
    fake.add_channel(guild, "arena");
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let bot = start_bot(&fake, guild).await;
    fake.wait_ready().await.expect("the bot identifies");
    for command in ["ping", "secret", "think", "open"] {
        fake.wait_command(command).await.expect("the bot registers its commands");
    }
    World { fake, guild, lobby, alice, bob, bot }
}

#[tokio::test]
async fn connects_and_registers_its_commands() {
    let World { fake, guild, bot, .. } = world().await;

    let stats = fake.gateway_stats();
    assert_eq!((stats.connections, stats.identifies, stats.resumes), (1, 1, 0));

    let commands = fake.registered_commands();
    let ping = commands.iter().find(|c| c.name == "ping").unwrap();
    assert_eq!(ping.guild, None);
    assert_eq!(ping.json["description"], "Echoes a word with a picture and a button.");
    let word = &ping.json["options"][0];
    assert_eq!(
        (&word["name"], &word["type"], &word["required"], &word["autocomplete"]),
        (&json!("word"), &json!(3), &json!(true), &json!(true))
    );
    let open = commands.iter().find(|c| c.name == "open").unwrap();
    assert_eq!(open.guild, Some(guild));

    let app = fake.application_id();
    let requests: Vec<String> =
        fake.requests().iter().map(|r| format!("{} {} {}", r.method, r.path, r.status)).collect();
    for expected in [
        "GET /gateway 200".to_owned(),
        "GET /oauth2/applications/@me 200".to_owned(),
        format!("PUT /applications/{app}/commands 200"),
        format!("PUT /applications/{app}/guilds/{guild}/commands 200"),
    ] {
        assert!(requests.contains(&expected), "{expected} not in {requests:?}");
    }

    // READY's guild stub was followed by a GUILD_CREATE that serenity understood.
    bot.wait_saw(&["guild Chimera Club with arena,lobby"]).await;
}

#[tokio::test]
async fn a_slash_command_answers_with_text_a_png_and_a_button() {
    let World { fake, lobby, alice, bot: _bot, .. } = world().await;

    let reply = fake.slash(alice, lobby, "ping", json!({ "word": "hello" })).unwrap().response().await.unwrap();

    assert_eq!(reply.callback, CallbackType::ChannelMessageWithSource);
    let message = &reply.message;
    assert_eq!(message.content, "pong: hello");
    assert!(!message.is_ephemeral());
    assert_eq!(message.button_ids(), ["ping:again"]);
    let [picture] = &message.attachments[..] else { panic!("one attachment, got {:?}", message.attachments) };
    assert_eq!(picture.filename, "board.png");
    assert_eq!(picture.content_type.as_deref(), Some("image/png"));
    assert!(picture.bytes.starts_with(PNG_SIGNATURE));
    assert_eq!(picture.bytes, PNG);
    assert_eq!(fake.messages_in(lobby).iter().map(|m| m.id).collect::<Vec<_>>(), [message.id]);
    assert_eq!(fake.timings().len(), 1);
}

#[tokio::test]
async fn an_ephemeral_answer_reaches_only_its_user() {
    let World { fake, lobby, alice, bot: _bot, .. } = world().await;

    let reply = fake.slash(alice, lobby, "secret", json!({})).unwrap().response().await.unwrap();

    assert_eq!(reply.message.content, "only you can see this");
    assert!(reply.message.is_ephemeral());
    assert!(fake.messages_in(lobby).is_empty());
}

#[tokio::test]
async fn autocomplete_offers_the_matching_words() {
    let World { fake, lobby, alice, bot: _bot, .. } = world().await;

    let typing = fake.autocomplete(alice, lobby, "ping", json!({ "word": "ch" }), "word").unwrap();
    let names: Vec<String> = typing.choices().await.unwrap().into_iter().map(|c| c.name).collect();
    assert_eq!(names, ["chess", "chimera", "checkmate"]);

    let typing = fake.autocomplete(alice, lobby, "ping", json!({ "word": "ro" }), "word").unwrap();
    let choices = typing.choices().await.unwrap();
    assert_eq!((choices[0].name.as_str(), &choices[0].value), ("rook", &json!("rook")));
    assert_eq!(typing.callback().await.unwrap().0, CallbackType::AutocompleteResult);
}

#[tokio::test]
async fn a_button_click_updates_its_message() {
    let World { fake, lobby, alice, bob, bot: _bot, .. } = world().await;
    let reply = fake.slash(alice, lobby, "ping", json!({ "word": "hi" })).unwrap().response().await.unwrap();

    let update = fake.click(bob, reply.message.id, "ping:again").unwrap().response().await.unwrap();

    assert_eq!(update.callback, CallbackType::UpdateMessage);
    assert_eq!(update.message.id, reply.message.id);
    assert_eq!(update.message.content, "pong again");
    assert!(update.message.button_ids().is_empty());
    let [picture] = &update.message.attachments[..] else { panic!("one attachment: {:?}", update.message.attachments) };
    assert_eq!(picture.bytes, PNG);
    assert_ne!(picture.id, reply.message.attachments[0].id, "the update uploaded it anew");
    assert_eq!(fake.message(reply.message.id).unwrap().content, "pong again");
    // The button is gone: nobody can click it now.
    assert!(fake.click(bob, reply.message.id, "ping:again").is_err());
}

#[tokio::test]
async fn a_deferred_answer_is_filled_by_the_first_follow_up() {
    let World { fake, lobby, alice, bot: _bot, .. } = world().await;

    let handle = fake.slash(alice, lobby, "think", json!({})).unwrap();
    let reply = handle.response().await.unwrap();
    let followups = handle.followups(1).await.unwrap();

    assert_eq!(reply.callback, CallbackType::DeferredChannelMessageWithSource);
    assert_eq!(reply.message.content, "thought about it");
    assert_eq!(followups.iter().map(|m| m.content.as_str()).collect::<Vec<_>>(), ["and one more thing"]);
    let contents: Vec<String> = fake.messages_in(lobby).into_iter().map(|m| m.content).collect();
    assert_eq!(contents, ["thought about it", "and one more thing"]);
    let timing = fake.timings()[0];
    assert!(timing.answered.unwrap() >= timing.acknowledged);
}

#[tokio::test]
async fn a_command_posts_to_the_channel_and_opens_threads() {
    let World { fake, lobby, alice, bob, bot, .. } = world().await;

    let reply = fake.slash(alice, lobby, "open", json!({ "opponent": bob.get() })).unwrap().response().await.unwrap();

    assert_eq!(reply.message.content, "opened game-1 and analysis");
    assert!(reply.message.is_ephemeral());
    let announcement = fake.messages_in(lobby).into_iter().find(|m| m.content == "Game: alice vs bob").unwrap();
    let threads = fake.threads_of(lobby);
    let [game, analysis] = &threads[..] else { panic!("two threads, got {threads:?}") };
    assert_eq!((game.name.as_str(), game.private, game.starter), ("game-1", false, Some(announcement.id)));
    assert_eq!((analysis.name.as_str(), analysis.private, analysis.starter), ("analysis", true, None));
    assert_eq!(fake.messages_in(game.id).iter().map(|m| m.content.as_str()).collect::<Vec<_>>(), ["1. e4"]);
    // The gateway told the bot about its own posts and threads.
    bot.wait_saw(&["thread game-1", "thread analysis", "message 1. e4"]).await;
}

#[tokio::test]
async fn the_bot_resumes_after_reconnect_requests_and_dropped_connections() {
    let World { fake, lobby, alice, bot, .. } = world().await;

    // op 7 RECONNECT: the bot reconnects and resumes its session.
    fake.reconnect().unwrap();
    fake.wait_gateway("a RESUME after op 7", |s| s.resumes == 1).await.unwrap();
    fake.wait_ready().await.unwrap();
    let reply = fake.slash(alice, lobby, "ping", json!({ "word": "one" })).unwrap().response().await.unwrap();
    assert_eq!(reply.message.content, "pong: one");

    // A dropped connection: an interaction sent while the bot is away waits for its RESUME.
    fake.drop_connection().unwrap();
    let while_away = fake.slash(alice, lobby, "ping", json!({ "word": "two" })).unwrap();
    fake.wait_gateway("a RESUME after the drop", |s| s.resumes == 2).await.unwrap();
    assert_eq!(while_away.response().await.unwrap().message.content, "pong: two");
    bot.wait_saw(&["resumed"]).await;

    // An invalidated session: the bot identifies afresh.
    fake.invalidate_session().unwrap();
    fake.wait_gateway("a fresh IDENTIFY", |s| s.identifies == 2).await.unwrap();
    fake.wait_ready().await.unwrap();
    let reply = fake.slash(alice, lobby, "ping", json!({ "word": "three" })).unwrap().response().await.unwrap();
    assert_eq!(reply.message.content, "pong: three");

    let stats = fake.gateway_stats();
    assert_eq!((stats.identifies, stats.resumes), (2, 2));
    assert_eq!(stats.connections, 4, "one connection per identify or resume");
}
