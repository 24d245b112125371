//! A fake Discord with one guild, a #lobby, three players, and the real bot (`chimera::discord`)
//! connected to it through `DISCORD_PROXY_URL`, with a database of its own.

use std::collections::HashMap;
use std::time::Duration;

use chimera::discord::{serve, Settings};
use fakecord::{CallbackType, ChannelId, FakeDiscord, GuildId, Message, Response, UserId};
use serde_json::Value;
use tempfile::TempDir;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub struct World {
    pub fake: FakeDiscord,
    pub guild: GuildId,
    pub lobby: ChannelId,
    pub alice: UserId,
    pub bob: UserId,
    pub carol: UserId,
    dir: TempDir,
    env: Vec<(String, String)>,
    bot: Option<Bot>,
}

struct Bot {
    stop: oneshot::Sender<()>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl World {
    pub async fn new() -> World {
        World::with(&[]).await
    }

    /// A world whose bot has these settings beside the defaults.
    pub async fn with(env: &[(&str, &str)]) -> World {
        let fake = FakeDiscord::start().await.expect("the fake binds 127.0.0.1");
        let guild = fake.add_guild("Chimera Club");
        let lobby = fake.add_channel(guild, "lobby");
        let (alice, bob, carol) = (fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol"));
        let dir = tempfile::tempdir().expect("a temporary directory");
        let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let mut world = World { fake, guild, lobby, alice, bob, carol, dir, env, bot: None };
        world.start_bot().await;
        world
    }

    /// The bot's database.
    pub fn db(&self) -> std::path::PathBuf {
        self.dir.path().join("chimera.db")
    }

    fn settings(&self) -> Settings {
        let mut env: HashMap<String, String> = HashMap::from([
            ("DISCORD_TOKEN".into(), self.fake.token()),
            ("DISCORD_PROXY_URL".into(), self.fake.base_url()),
            ("DISCORD_GUILD_ID".into(), self.guild.get().to_string()),
            ("CHIMERA_DB".into(), self.dir.path().join("chimera.db").display().to_string()),
            ("CHIMERA_BOARD_SIZE".into(), "320".into()),
            ("CHIMERA_TICK_MS".into(), "200".into()),
            // The test users play whole games in a second; people are slower.
            ("CHIMERA_LIMIT_COMMANDS".into(), "1000".into()),
        ]);
        env.extend(self.env.iter().cloned());
        Settings::from_lookup(|name| env.get(name).cloned()).expect("valid settings")
    }

    /// Starts the bot and waits until it is connected with its commands registered.
    pub async fn start_bot(&mut self) {
        let identified = self.fake.gateway_stats().identifies;
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(serve(self.settings(), async {
            let _ = stopped.await;
        }));
        self.bot = Some(Bot { stop, task });
        self.fake.wait_gateway("a new IDENTIFY", |s| s.identifies > identified).await.expect("the bot identifies");
        self.fake.wait_ready().await.expect("the bot receives READY");
        for command in ["challenge", "move", "help"] {
            self.fake.wait_command(command).await.expect("the bot registers its commands");
        }
    }

    /// Stops the bot as SIGTERM would, and waits for it to finish.
    pub async fn stop_bot(&mut self) {
        let bot = self.bot.take().expect("a running bot");
        let _ = bot.stop.send(());
        let finished = tokio::time::timeout(Duration::from_secs(20), bot.task).await;
        finished.expect("the bot stops within 20 s").expect("the bot's task").expect("the bot stops cleanly");
    }

    /// Runs a slash command and waits for its answer.
    pub async fn slash(&self, user: UserId, channel: ChannelId, command: &str, args: Value) -> Response {
        let handle = self.fake.slash(user, channel, command, args).expect("a valid interaction");
        handle.response().await.unwrap_or_else(|e| panic!("/{command}: {e}"))
    }

    /// Plays `moves` in turn, White (alice) first, each answered publicly.
    pub async fn play(&self, channel: ChannelId, moves: &[&str]) -> Vec<Response> {
        let mut answers = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            let user = if i % 2 == 0 { self.alice } else { self.bob };
            let answer = self.slash(user, channel, "move", serde_json::json!({ "move": mv })).await;
            assert!(!answer.message.is_ephemeral(), "{mv}: {}", answer.message.content);
            answers.push(answer);
        }
        answers
    }

    /// The value Discord sends for the choice named `name` of a command's option.
    pub fn choice(&self, command: &str, option: &str, name: &str) -> Value {
        self.fake.choice(command, option, name)
    }

    /// alice challenges bob in `channel` and bob accepts with the button: the game's first message.
    pub async fn start_game(&self, channel: ChannelId, variant: &str) -> Message {
        let name = variant.parse::<rules::Variant>().expect("a variant id").name();
        let variant = self.choice("challenge", "variant", name);
        let white = self.choice("challenge", "color", "White");
        let args = serde_json::json!({ "variant": variant, "opponent": self.bob.get().to_string(), "color": white });
        let challenge = self.slash(self.alice, channel, "challenge", args).await.message;
        let accept = button(&challenge, "/accept");
        let accepted = self.fake.click(self.bob, challenge.id, &accept).expect("the button is there");
        accepted.followups(1).await.expect("the acceptance is answered").remove(0)
    }

    /// Clicks `user`'s way on the button of `message` whose command starts with `prefix`.
    pub async fn press(&self, user: UserId, message: &Message, prefix: &str) -> Pressed {
        let custom_id = button(message, prefix);
        let click = self.fake.click(user, message.id, &custom_id).expect("the button is there");
        let response = click.response().await.expect("the click is answered");
        match response.callback {
            // The command ran: the clicked message was updated, and the answer followed.
            CallbackType::UpdateMessage | CallbackType::DeferredUpdateMessage => {
                let answer = click.followups(1).await.expect("the answer follows").remove(0);
                Pressed { answer, updated: Some(response.message) }
            }
            _ => Pressed { answer: response.message, updated: None },
        }
    }
}

/// What a click did.
pub struct Pressed {
    /// The answer to it: what the command said, or why it was refused.
    pub answer: Message,
    /// The clicked message as the click left it, when its command ran.
    pub updated: Option<Message>,
}

impl Pressed {
    /// Checks that the command ran and its message lost its buttons; returns the answer.
    pub fn used(self) -> Message {
        let updated = self.updated.unwrap_or_else(|| panic!("the click was refused: {}", self.answer.content));
        assert!(updated.components().is_empty(), "a used button is removed: {:?}", updated.components());
        self.answer
    }
}

/// The custom id of the message's button whose command starts with `prefix`.
pub fn button(message: &Message, prefix: &str) -> String {
    let ids: Vec<String> = message.components().into_iter().filter_map(|c| c.custom_id).collect();
    ids.iter().find(|id| id.starts_with(prefix)).cloned().unwrap_or_else(|| panic!("no {prefix} button in {ids:?}"))
}

/// Checks that the message shows exactly one board: an embed pointing at an attached PNG that
/// decodes to a square picture of the configured size.
pub fn assert_board(message: &Message) {
    assert_eq!(message.attachments.len(), 1, "{}", message.content);
    assert_board_first(message);
}

/// Checks that a game's last message shows its final board and then its replay: a GIF of
/// `frames` frames, in an embed of its own.
pub fn assert_board_and_replay(message: &Message, frames: usize) {
    assert_eq!(message.attachments.len(), 2, "{}", message.content);
    assert_board_first(message);
    let replay = &message.attachments[1];
    assert!(replay.filename.ends_with(".gif"), "{}", replay.filename);
    assert_eq!(message.embeds[1]["image"]["url"].as_str(), Some(format!("attachment://{}", replay.filename).as_str()));
    let mut decoder = gif::DecodeOptions::new().read_info(replay.bytes.as_slice()).expect("a GIF");
    let mut n = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        n += 1;
    }
    assert_eq!(n, frames, "one frame per position");
}

fn assert_board_first(message: &Message) {
    let attachment = &message.attachments[0];
    assert!(attachment.filename.ends_with(".png"), "{}", attachment.filename);
    let image = message.embeds[0]["image"]["url"].as_str().unwrap_or_default();
    assert_eq!(image, format!("attachment://{}", attachment.filename));
    let decoder = png::Decoder::new(std::io::Cursor::new(&attachment.bytes));
    let mut reader = decoder.read_info().expect("a valid PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a sane size")];
    let frame = reader.next_frame(&mut pixels).expect("valid PNG data");
    assert_eq!(frame.width, 320, "the board's width");
    assert!(frame.height >= 320, "the board's height");
    assert!(attachment.description.as_deref().is_some_and(|alt| alt.contains("board")), "alt text");
}
