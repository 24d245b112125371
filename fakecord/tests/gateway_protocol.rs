//! The gateway, frame by frame, with a bare WebSocket client: the handshake, heartbeats, RESUME,
//! compression, close codes, and interactions, checked against Discord's payloads and decoded
//! with serenity's own model types.

use std::time::Duration;

use fakecord::{ChannelId, Config, FakeDiscord, GuildId, UserId};
use flate2::{Decompress, FlushDecompress};
use futures_util::{SinkExt, StreamExt};
use poise::serenity_prelude as serenity;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message as Frame;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

/// GUILDS | GUILD_MESSAGES.
const INTENTS: u64 = 1 | (1 << 9);

/// A bare gateway client that inflates what the gateway compresses.
struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The connection's zlib stream, with `compress=zlib-stream`.
    stream: Option<Decompress>,
}

impl Client {
    async fn connect(fake: &FakeDiscord, query: &str) -> Client {
        let (socket, _) = connect_async(format!("{}?{query}", fake.gateway_url())).await.expect("the gateway accepts");
        let stream = query.contains("compress=zlib-stream").then(|| Decompress::new(true));
        Client { socket, stream }
    }

    async fn send(&mut self, payload: Value) {
        self.socket.send(Frame::Text(payload.to_string())).await.expect("the gateway reads");
    }

    /// The next payload, or `{"close": code}` when the gateway closes.
    async fn next(&mut self) -> Value {
        let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
            .await
            .expect("the gateway sends within 10 s")
            .expect("the connection is open")
            .expect("the frame is well formed");
        match frame {
            Frame::Text(text) => serde_json::from_str(&text).unwrap(),
            Frame::Binary(bytes) => serde_json::from_slice(&self.inflate(&bytes)).unwrap(),
            Frame::Close(frame) => json!({ "close": frame.map(|f| u16::from(f.code)) }),
            other => panic!("unexpected frame {other:?}"),
        }
    }

    fn inflate(&mut self, bytes: &[u8]) -> Vec<u8> {
        match &mut self.stream {
            Some(stream) => {
                assert!(bytes.ends_with(&[0, 0, 0xff, 0xff]), "each zlib-stream frame ends in a sync flush");
                let mut out = Vec::with_capacity(bytes.len() * 20 + 1024);
                stream.decompress_vec(bytes, &mut out, FlushDecompress::Sync).unwrap();
                out
            }
            None => {
                let mut out = Vec::new();
                std::io::Read::read_to_end(&mut flate2::read::ZlibDecoder::new(bytes), &mut out).unwrap();
                out
            }
        }
    }

    async fn identify(&mut self, token: &str, extra: Value) {
        let mut identify = json!({
            "op": 2,
            "d": {
                "token": token,
                "intents": INTENTS,
                "properties": { "os": "linux", "browser": "fakecord-test", "device": "fakecord-test" },
                "shard": [0, 1],
            },
        });
        identify["d"].as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
        self.send(identify).await;
    }

    /// Connects, identifies, and reads HELLO, READY and the GUILD_CREATEs.
    async fn session(fake: &FakeDiscord, guilds: usize) -> (Client, Value) {
        let mut client = Client::connect(fake, "v=10&encoding=json").await;
        assert_eq!(client.next().await["op"], 10);
        client.identify(&fake.token(), json!({})).await;
        let ready = client.next().await;
        for _ in 0..guilds {
            assert_eq!(client.next().await["t"], "GUILD_CREATE");
        }
        (client, ready)
    }
}

struct Setup {
    fake: FakeDiscord,
    guild: GuildId,
    lobby: ChannelId,
    alice: UserId,
}

async fn setup(config: Config) -> Setup {
    let fake = FakeDiscord::start_with(config).await.unwrap();
    let guild = fake.add_guild("Chimera Club");
    let lobby = fake.add_channel(guild, "lobby");
    let alice = fake.add_user("alice");
    Setup { fake, guild, lobby, alice }
}

#[tokio::test]
async fn identify_is_answered_with_ready_then_each_guild() {
    let Setup { fake, guild, .. } = setup(Config::default()).await;
    let mut client = Client::connect(&fake, "v=10&encoding=json").await;

    let hello = client.next().await;
    assert_eq!(hello["op"], 10);
    assert_eq!(hello["d"]["heartbeat_interval"], 41_250);

    client.identify(&fake.token(), json!({})).await;
    let ready = client.next().await;
    assert_eq!((&ready["op"], &ready["t"], &ready["s"]), (&json!(0), &json!("READY"), &json!(1)));
    let data = &ready["d"];
    assert_eq!(data["v"], 10);
    assert_eq!(data["user"]["id"], fake.bot_id().to_string());
    assert_eq!(data["user"]["bot"], true);
    assert_eq!(data["guilds"], json!([{ "id": guild.to_string(), "unavailable": true }]));
    assert_eq!(data["resume_gateway_url"], fake.gateway_url());
    assert_eq!(data["shard"], json!([0, 1]));
    assert_eq!(data["application"]["id"], fake.application_id().to_string());
    let ready: serenity::Ready = serde_json::from_value(data.clone()).expect("serenity reads READY");
    assert_eq!(ready.application.id.get(), fake.application_id());

    let guild_create = client.next().await;
    assert_eq!((&guild_create["t"], &guild_create["s"]), (&json!("GUILD_CREATE"), &json!(2)));
    let guild: serenity::Guild =
        serde_json::from_value(guild_create["d"].clone()).expect("serenity reads GUILD_CREATE");
    assert_eq!(guild.name, "Chimera Club");
    assert_eq!(guild.channels.values().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["lobby"]);
    assert_eq!(guild.members.len(), 2, "the bot and alice");

    client.send(json!({ "op": 1, "d": 2 })).await;
    assert_eq!(client.next().await["op"], 11);
    assert_eq!(fake.gateway_stats().heartbeats, 1);
}

#[tokio::test]
async fn resume_replays_what_was_missed_then_says_resumed() {
    let Setup { fake, guild, .. } = setup(Config::default()).await;
    let (mut client, ready) = Client::session(&fake, 1).await;
    let session_id = ready["d"]["session_id"].as_str().unwrap().to_owned();
    client.socket.close(None).await.unwrap();

    // Raised while no connection holds the session: it waits in the session.
    fake.add_channel(guild, "arena");

    let mut client = Client::connect(&fake, "v=10&encoding=json").await;
    assert_eq!(client.next().await["op"], 10);
    client.send(json!({ "op": 6, "d": { "token": fake.token(), "session_id": session_id, "seq": 2 } })).await;
    let missed = client.next().await;
    assert_eq!(
        (&missed["t"], &missed["s"], &missed["d"]["name"]),
        (&json!("CHANNEL_CREATE"), &json!(3), &json!("arena"))
    );
    let resumed = client.next().await;
    assert_eq!((&resumed["t"], &resumed["s"]), (&json!("RESUMED"), &json!(4)));
    fake.wait_ready().await.unwrap();
    assert_eq!((fake.gateway_stats().identifies, fake.gateway_stats().resumes), (1, 1));
}

#[tokio::test]
async fn resuming_an_unknown_session_is_refused() {
    let Setup { fake, .. } = setup(Config::default()).await;
    let mut client = Client::connect(&fake, "v=10&encoding=json").await;
    client.next().await;

    client.send(json!({ "op": 6, "d": { "token": fake.token(), "session_id": "gone", "seq": 7 } })).await;

    assert_eq!(client.next().await, json!({ "op": 9, "d": false, "s": null, "t": null }));
}

#[tokio::test]
async fn identify_with_compress_gets_zlib_payloads() {
    let Setup { fake, .. } = setup(Config::default()).await;
    let mut client = Client::connect(&fake, "v=10&encoding=json").await;
    assert!(matches!(client.socket.next().await, Some(Ok(Frame::Text(_)))), "HELLO comes before IDENTIFY asks");

    client.identify(&fake.token(), json!({ "compress": true })).await;

    let frame = client.socket.next().await.unwrap().unwrap();
    let Frame::Binary(bytes) = frame else { panic!("a compressed payload comes as binary, got {frame:?}") };
    let ready: Value = serde_json::from_slice(&client.inflate(&bytes)).unwrap();
    assert_eq!(ready["t"], "READY");
}

#[tokio::test]
async fn zlib_stream_compresses_the_whole_connection() {
    let Setup { fake, .. } = setup(Config::default()).await;
    let mut client = Client::connect(&fake, "v=10&encoding=json&compress=zlib-stream").await;

    assert_eq!(client.next().await["op"], 10);
    client.identify(&fake.token(), json!({})).await;
    assert_eq!(client.next().await["t"], "READY");
    assert_eq!(client.next().await["t"], "GUILD_CREATE");
}

#[tokio::test]
async fn each_shard_is_a_session_of_its_own_and_the_totals_must_agree() {
    let fake = FakeDiscord::start().await.unwrap();
    let north = fake.add_guild_on_shard("North", 0, 2);
    let south = fake.add_guild_on_shard("South", 1, 2);
    let guild_ids = |ready: &Value| -> Vec<String> {
        ready["d"]["guilds"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_owned()).collect()
    };
    let shard = |id: u64, total: u64| {
        let fake = &fake;
        async move {
            let mut client = Client::connect(fake, "v=10").await;
            assert_eq!(client.next().await["op"], 10);
            client.identify(&fake.token(), json!({ "shard": [id, total] })).await;
            client
        }
    };
    let mut zero = shard(0, 2).await;
    let ready = zero.next().await;
    assert_eq!((ready["t"].as_str(), &ready["d"]["shard"]), (Some("READY"), &json!([0, 2])));
    assert_eq!(guild_ids(&ready), [north.to_string()], "READY lists the shard's guilds only");
    assert_eq!(zero.next().await["d"]["id"], json!(north.to_string()));
    let mut one = shard(1, 2).await;
    let ready = one.next().await;
    assert_eq!(guild_ids(&ready), [south.to_string()]);
    assert_eq!(one.next().await["d"]["id"], json!(south.to_string()));
    assert_eq!(fake.shards(), (vec![0, 1], Some(2)));

    // Another total while those are connected, or a shard beyond the total: 4010.
    for (id, total) in [(0, 3), (2, 2)] {
        let mut wrong = shard(id, total).await;
        assert_eq!(wrong.next().await, json!({ "close": 4010 }), "shard [{id}, {total}]");
    }
    // The refused ones changed nothing.
    assert_eq!((fake.shards(), fake.gateway_stats().identifies), ((vec![0, 1], Some(2)), 2));
}

#[tokio::test]
async fn the_gateway_closes_with_discords_codes() {
    let Setup { fake, .. } = setup(Config::default()).await;
    let token = fake.token();
    let cases = [
        ("v=10", json!({ "op": 2, "d": { "token": "not-the-token", "intents": INTENTS } }), 4004),
        ("v=10", json!({ "op": 2, "d": { "token": token, "intents": 1 << 15 } }), 4014),
        ("v=10", json!({ "op": 3, "d": { "status": "online" } }), 4003),
        ("v=10", json!({ "op": 99, "d": null }), 4001),
        ("v=9", json!({ "op": 1, "d": null }), 4012),
    ];
    for (query, payload, code) in cases {
        let mut client = Client::connect(&fake, query).await;
        let first = client.next().await;
        if first.get("close").is_none() {
            client.send(payload.clone()).await;
            assert_eq!(client.next().await, json!({ "close": code }), "{payload}");
        } else {
            assert_eq!(first, json!({ "close": code }), "{query}");
        }
    }
    let mut client = Client::connect(&fake, "v=10").await;
    client.next().await;
    client.socket.send(Frame::Text("{not json".into())).await.unwrap();
    assert_eq!(client.next().await, json!({ "close": 4002 }));
}

/// Registers a /move command with a string and a user option, the way a bot would.
async fn register_move(fake: &FakeDiscord, http: &serenity::Http) {
    http.set_application_id(serenity::ApplicationId::new(fake.application_id()));
    let command = serenity::CreateCommand::new("move")
        .description("Make a move")
        .add_option(
            serenity::CreateCommandOption::new(serenity::CommandOptionType::String, "san", "The move").required(true),
        )
        .add_option(serenity::CreateCommandOption::new(serenity::CommandOptionType::User, "against", "Opponent"));
    serenity::Command::create_global_command(http, command).await.expect("the fake stores the command");
}

fn http(fake: &FakeDiscord) -> serenity::Http {
    serenity::HttpBuilder::new(fake.token()).proxy(fake.base_url()).ratelimiter_disabled(true).build()
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
async fn an_interaction_takes_exactly_one_callback() {
    let Setup { fake, guild, lobby, alice } = setup(Config::default()).await;
    let http = http(&fake);
    register_move(&fake, &http).await;
    let (mut client, _) = Client::session(&fake, 1).await;

    let handle = fake.slash(alice, lobby, "move", json!({ "san": "e4", "against": fake.bot_id().get() })).unwrap();

    let event = client.next().await;
    assert_eq!(event["t"], "INTERACTION_CREATE");
    let data = &event["d"];
    assert_eq!(
        (&data["type"], &data["guild_id"], &data["channel_id"]),
        (&json!(2), &json!(guild.to_string()), &json!(lobby.to_string()))
    );
    assert_eq!(data["member"]["user"]["id"], alice.to_string());
    assert_eq!(data["data"]["name"], "move");
    assert_eq!(data["data"]["options"][0], json!({ "name": "san", "type": 3, "value": "e4" }));
    assert_eq!(data["data"]["options"][1]["value"], fake.bot_id().to_string());
    assert_eq!(data["data"]["resolved"]["users"][fake.bot_id().to_string()]["bot"], true);
    let serenity::Interaction::Command(command) = serde_json::from_value(data.clone()).expect("serenity reads it")
    else {
        panic!("a command interaction")
    };
    assert_eq!(command.data.options[0].value.as_str(), Some("e4"));

    let answer =
        serenity::CreateInteractionResponse::Message(serenity::CreateInteractionResponseMessage::new().content("ok"));
    command.create_response(&http, answer.clone()).await.expect("the first callback is taken");
    assert_eq!(discord_error(command.create_response(&http, answer).await.unwrap_err()), (400, 40060));
    assert_eq!(handle.response().await.unwrap().message.content, "ok");

    // The reply reaches the bot's own gateway as MESSAGE_CREATE.
    let created = client.next().await;
    assert_eq!((&created["t"], &created["d"]["content"]), (&json!("MESSAGE_CREATE"), &json!("ok")));
    assert_eq!(created["d"]["interaction_metadata"]["id"], handle.id().to_string());
}

#[tokio::test]
async fn a_callback_after_the_deadline_finds_no_interaction() {
    let Setup { fake, lobby, alice, .. } =
        setup(Config { interaction_deadline: Duration::ZERO, ..Config::default() }).await;
    let http = http(&fake);
    register_move(&fake, &http).await;
    let (mut client, _) = Client::session(&fake, 1).await;
    fake.slash(alice, lobby, "move", json!({ "san": "d4" })).unwrap();
    let event = client.next().await;
    let serenity::Interaction::Command(command) = serde_json::from_value(event["d"].clone()).unwrap() else {
        panic!("a command interaction")
    };

    let late = command.create_response(&http, serenity::CreateInteractionResponse::Acknowledge).await.unwrap_err();

    assert_eq!(discord_error(late), (404, 10062));
}

#[tokio::test]
async fn the_fake_refuses_interactions_discord_would_never_send() {
    let Setup { fake, lobby, alice, .. } = setup(Config::default()).await;
    assert!(matches!(fake.slash(alice, lobby, "move", json!({})), Err(fakecord::Error::NoSession)));
    let http = http(&fake);
    register_move(&fake, &http).await;
    let _session = Client::session(&fake, 1).await;

    for (invocation, args) in [
        ("resign", json!({})),
        ("move", json!({})),
        ("move", json!({ "san": 4 })),
        ("move", json!({ "san": "e4", "promote": "q" })),
        ("move", json!({ "san": "e4", "against": 1 })),
    ] {
        let refused = fake.slash(alice, lobby, invocation, args.clone());
        assert!(matches!(refused, Err(fakecord::Error::Invalid(_))), "/{invocation} {args}");
    }
    assert!(fake.autocomplete(alice, lobby, "move", json!({ "san": "e" }), "san").is_err(), "san has no autocomplete");
}
