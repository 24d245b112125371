//! Two serenity clients, each running one shard of two, against one fake: each receives the
//! events of its own guilds only, as two `chimera discord` processes with `DISCORD_SHARDS=0-0/2`
//! and `1-1/2` would.

use std::sync::Arc;
use std::time::Duration;

use fakecord::{shard_of, FakeDiscord, GuildId};
use serde_json::json;
use serenity::all::{Command, Context, CreateCommand, EventHandler, GatewayIntents, GuildChannel, Interaction, Ready};
use serenity::async_trait;
use tokio::sync::watch;

/// Notes what one client's shard received: `guild <id>`, `channel <name> in <guild>`,
/// `interaction in <guild>`.
struct Recorder {
    shard: u32,
    seen: Arc<watch::Sender<Vec<String>>>,
}

#[async_trait]
impl EventHandler for Recorder {
    async fn ready(&self, ctx: Context, _: Ready) {
        if self.shard == 0 {
            // One process registers the commands for the application.
            Command::create_global_command(&ctx.http, CreateCommand::new("ping").description("Answers pong"))
                .await
                .expect("the fake takes the command");
        }
    }

    async fn guild_create(&self, _: Context, guild: serenity::all::Guild, _: Option<bool>) {
        self.seen.send_modify(|seen| seen.push(format!("guild {}", guild.id)));
    }

    async fn channel_create(&self, _: Context, channel: GuildChannel) {
        self.seen.send_modify(|seen| seen.push(format!("channel {} in {}", channel.name, channel.guild_id)));
    }

    async fn interaction_create(&self, _: Context, interaction: Interaction) {
        if let Interaction::Command(command) = interaction {
            let guild = command.guild_id.map_or("none".to_string(), |g| g.to_string());
            self.seen.send_modify(|seen| seen.push(format!("interaction in {guild}")));
        }
    }
}

struct Client {
    seen: Arc<watch::Sender<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Client {
    /// Waits until the client has noted `note`.
    async fn wait_saw(&self, note: &str) {
        let mut seen = self.seen.subscribe();
        let saw =
            tokio::time::timeout(Duration::from_secs(20), seen.wait_for(|seen| seen.iter().any(|n| n == note))).await;
        assert!(saw.is_ok(), "never saw {note:?}; saw {:?}", self.seen.borrow());
    }

    fn saw_anything_of(&self, guild: GuildId) -> Vec<String> {
        self.seen.borrow().iter().filter(|note| note.contains(&guild.to_string())).cloned().collect()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A client running shard `shard` of `total`, as a bot process with `DISCORD_SHARDS=s-s/total`.
async fn start_client(fake: &FakeDiscord, shard: u32, total: u32) -> Client {
    let seen = Arc::new(watch::Sender::new(Vec::new()));
    let http = serenity::all::HttpBuilder::new(fake.token()).proxy(fake.base_url()).ratelimiter_disabled(true).build();
    let mut client = serenity::all::ClientBuilder::new_with_http(http, GatewayIntents::non_privileged())
        .event_handler(Recorder { shard, seen: Arc::clone(&seen) })
        .await
        .expect("the client builds");
    let task = tokio::spawn(async move {
        client.start_shard(shard, total).await.expect("the client runs until the test ends");
    });
    Client { seen, task }
}

#[tokio::test]
async fn two_clients_on_two_shards_each_receive_only_their_guilds_events() {
    let fake = FakeDiscord::start().await.expect("the fake binds 127.0.0.1");
    let north = fake.add_guild_on_shard("North", 0, 2);
    let south = fake.add_guild_on_shard("South", 1, 2);
    assert_eq!((shard_of(north, 2), shard_of(south, 2)), (0, 1));
    let north_lobby = fake.add_channel(north, "lobby");
    let south_lobby = fake.add_channel(south, "lobby");
    let alice = fake.add_user("alice");

    let zero = start_client(&fake, 0, 2).await;
    let one = start_client(&fake, 1, 2).await;
    fake.wait_shard_ready(0).await.expect("shard 0 identifies");
    fake.wait_shard_ready(1).await.expect("shard 1 identifies");
    assert_eq!(fake.shards(), (vec![0, 1], Some(2)));
    fake.wait_command("ping").await.expect("shard 0 registers /ping");

    // READY's wake: each shard is sent its own guild.
    zero.wait_saw(&format!("guild {north}")).await;
    one.wait_saw(&format!("guild {south}")).await;

    // Events raised now: a channel and a slash command in each guild, the south's first.
    fake.add_channel(south, "arena");
    fake.add_channel(north, "arena");
    fake.slash(alice, south_lobby, "ping", json!({})).expect("south's shard is connected");
    fake.slash(alice, north_lobby, "ping", json!({})).expect("north's shard is connected");
    zero.wait_saw(&format!("channel arena in {north}")).await;
    zero.wait_saw(&format!("interaction in {north}")).await;
    one.wait_saw(&format!("channel arena in {south}")).await;
    one.wait_saw(&format!("interaction in {south}")).await;

    // A last event per shard: once each has it, it has everything sent to it before, in order.
    fake.add_channel(north, "fence");
    fake.add_channel(south, "fence");
    zero.wait_saw(&format!("channel fence in {north}")).await;
    one.wait_saw(&format!("channel fence in {south}")).await;
    assert_eq!(zero.saw_anything_of(south), Vec::<String>::new(), "shard 0 was sent a south event");
    assert_eq!(one.saw_anything_of(north), Vec::<String>::new(), "shard 1 was sent a north event");

    let stats = fake.gateway_stats();
    assert_eq!((stats.connections, stats.identifies), (2, 2));
}

#[tokio::test]
async fn an_interaction_in_a_guild_whose_shard_is_not_connected_cannot_be_sent() {
    let fake = FakeDiscord::start().await.expect("the fake binds 127.0.0.1");
    let north = fake.add_guild_on_shard("North", 0, 2);
    let south = fake.add_guild_on_shard("South", 1, 2);
    let south_lobby = fake.add_channel(south, "lobby");
    let alice = fake.add_user("alice");
    let zero = start_client(&fake, 0, 2).await;
    fake.wait_shard_ready(0).await.expect("shard 0 identifies");
    fake.wait_command("ping").await.expect("shard 0 registers /ping");
    zero.wait_saw(&format!("guild {north}")).await;

    let refused = fake.slash(alice, south_lobby, "ping", json!({})).err();
    assert!(matches!(refused, Some(fakecord::Error::NoSession)), "{refused:?}");
}
