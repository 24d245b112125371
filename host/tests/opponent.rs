//! Games against Chimera through the host: `/play`, the engine's answers from the outbox, its
//! turn picked up after a restart, takebacks and draw offers, ratings left alone.

mod common;

use std::sync::Mutex;

use common::{shown, text, Rooms};
use host::{Command, Host, Level, Message, Reply, Request, Settings, TimeControl, User};
use rules::Variant;

struct Table {
    host: Host,
    room: Rooms,
    path: std::path::PathBuf,
    requests: Mutex<u32>,
    _dir: tempfile::TempDir,
}

fn alice() -> User {
    User { id: "alice".into(), name: "alice".into() }
}

async fn open(threads: usize) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chimera.db");
    Table { host: host_on(&path, threads).await, room: Rooms::default(), path, requests: Mutex::new(0), _dir: dir }
}

async fn host_on(path: &std::path::Path, threads: usize) -> Host {
    let mut settings = Settings::new(path, "console");
    settings.engine_threads = threads;
    Host::open(settings).await.unwrap()
}

impl Table {
    async fn say(&self, channel: &str, command: Command) -> Reply {
        let id = {
            let mut n = self.requests.lock().unwrap();
            *n += 1;
            *n
        };
        let request = Request {
            platform: "console".into(),
            server: None,
            channel: channel.into(),
            user: alice(),
            manager: false,
            place: host::PlaceKind::Direct,
            request_id: format!("r{id}"),
            command,
        };
        self.host.handle(request, &self.room).await
    }

    async fn alice(&self, line: &str) -> Reply {
        let command = line.parse::<Command<host::Mention>>().unwrap();
        self.say("general", command.try_map_users(|_| Ok::<_, ()>(alice())).unwrap()).await
    }

    /// Chimera's answers, once it has thought.
    async fn chimera(&self) -> Vec<Message> {
        self.host.engines_idle().await;
        self.host.deliver(&self.room).await;
        shown(self.room.fresh())
    }

    fn moves(&self, game: i64) -> Vec<String> {
        let store = data::Store::open(&self.path).unwrap();
        store.read(|tx| tx.game_record(game)).unwrap().moves.into_iter().map(|m| m.san).collect()
    }

    fn game(&self, game: i64) -> data::Game {
        data::Store::open(&self.path).unwrap().read(|tx| tx.game(game)).unwrap()
    }
}

fn play(level: i64, color: host::ColorChoice) -> Command {
    Command::Play {
        variant: Variant::Chess,
        level: Level::new(level).unwrap(),
        color,
        time: TimeControl::Live { minutes: 10, increment: 5 },
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chimera_answers_a_move_with_a_message_and_a_board_of_its_own() {
    let t = open(1).await;
    let started = t.say("general", play(1, host::ColorChoice::White)).await;
    assert!(!started.is_error(), "{}", text(&started));
    assert!(text(&started).contains("alice (White) against Chimera (level 1) (Black)"), "{}", text(&started));
    assert!(text(&started).contains("unrated"), "{}", text(&started));

    let moved = t.alice("/move e4").await;
    assert!(text(&moved).starts_with("alice (White) played 1. e4."), "{}", text(&moved));

    let said = t.chimera().await;
    assert_eq!(said.len(), 1, "{said:?}");
    let answer = &said[0];
    assert!(answer.text.starts_with("Chimera (level 1) (Black) played 1..."), "{}", answer.text);
    assert!(answer.text.contains("alice (White) to move."), "{}", answer.text);
    assert_eq!(answer.images.len(), 1, "the board comes with it");
    assert_eq!(answer.mentions, vec![alice()], "the player is called, Chimera never is");
    assert_eq!(answer.channel.as_deref(), Some("general"));
    let moves = t.moves(1);
    assert_eq!(moves.len(), 2);
    assert!(answer.text.contains(&moves[1]), "the move said is the move stored: {moves:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chimera_moves_first_when_it_has_white() {
    let t = open(1).await;
    let started = t.say("general", play(2, host::ColorChoice::Black)).await;
    assert!(text(&started).contains("Chimera (level 2) (White) against alice (Black)"), "{}", text(&started));
    let said = t.chimera().await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].text.starts_with("Chimera (level 2) (White) played 1."), "{}", said[0].text);
    assert_eq!(t.moves(1).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_host_plays_the_turn_its_predecessor_left_once() {
    // A process without engine threads leaves Chimera's turn to another: here, its successor.
    let t = open(0).await;
    t.say("general", play(1, host::ColorChoice::Black)).await;
    assert!(t.chimera().await.is_empty());
    assert_eq!(t.moves(1).len(), 0);

    let next = host_on(&t.path, 1).await;
    next.tick(&t.room).await;
    next.engines_idle().await;
    next.deliver(&t.room).await;
    let said = shown(t.room.fresh());
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].text.starts_with("Chimera (level 1) (White) played 1."), "{}", said[0].text);
    // Later ticks find nothing more to do: it is alice's turn.
    next.tick(&t.room).await;
    next.engines_idle().await;
    assert!(next.deliver(&t.room).await.is_empty());
    assert_eq!(t.moves(1).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_chimera_never_touch_ratings_and_show_in_history() {
    let t = open(1).await;
    t.say("general", play(1, host::ColorChoice::White)).await;
    t.alice("/move e4").await;
    t.chimera().await;
    let resigned = t.alice("/resign confirm:yes").await;
    assert!(text(&resigned).contains("alice resigns"), "{}", text(&resigned));
    let game = t.game(1);
    assert_eq!(game.state, data::GameState::Finished);
    assert!(!game.rated);
    let store = data::Store::open(&t.path).unwrap();
    let ratings = store
        .read(|tx| {
            let alice = tx.find_player("console", "alice")?.expect("alice played");
            let chimera = tx.find_player("console", &User::engine(Level::new(1).unwrap()).id)?.expect("Chimera played");
            Ok((tx.rating(alice.id, "chess")?, tx.rating(chimera.id, "chess")?))
        })
        .unwrap();
    assert_eq!(ratings, (None, None));
    let board = t.alice("/leaderboard chess").await;
    assert!(!text(&board).contains("alice") && !text(&board).contains("Chimera"), "{}", text(&board));
    let history = t.alice("/history").await;
    assert!(text(&history).contains("Chimera (level 1)"), "{}", text(&history));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chimera_grants_a_takeback_of_the_last_move_and_its_reply() {
    let t = open(1).await;
    t.say("general", play(1, host::ColorChoice::White)).await;
    t.alice("/move e4").await;
    t.chimera().await;
    let back = t.alice("/takeback offer").await;
    assert!(!back.is_error(), "{}", text(&back));
    assert!(text(&back).contains("Chimera (level 1) accepts the takeback: 2 moves taken back."), "{}", text(&back));
    assert!(t.moves(1).is_empty());
    // alice is to move again: Chimera does not.
    assert!(t.chimera().await.is_empty());
    assert!(t.moves(1).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chimera_plays_on_in_a_level_position_and_takes_a_draw_in_a_lost_one() {
    let t = open(1).await;
    t.say("general", play(4, host::ColorChoice::White)).await;
    let declined = t.alice("/draw offer").await;
    assert!(text(&declined).contains("Chimera (level 4) declines and plays on."), "{}", text(&declined));
    assert_eq!(t.game(1).state, data::GameState::Active);
    t.alice("/abort").await;

    // Chimera (Black) without its queen and rooks.
    let store = data::Store::open(&t.path).unwrap();
    let mut store = store;
    store
        .write(|tx| {
            let alice = tx.find_player("console", "alice")?.expect("alice played").id;
            let chimera =
                tx.upsert_player("console", &User::engine(Level::new(4).unwrap()).id, "Chimera (level 4)", 0)?;
            let new = data::NewGame {
                platform: "console".into(),
                server: None,
                channel: "general".into(),
                variant: "chess".into(),
                white: alice,
                black: chimera.id,
                start_fen: "1nb1kbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1".into(),
                time_control: None,
                time_odds: None,
                deadline: None,
                rated: false,
            };
            tx.create_game(&new, 0)
        })
        .unwrap();
    let accepted = t.alice("/draw offer").await;
    assert!(text(&accepted).contains("alice offers a draw, and Chimera (level 4) accepts."), "{}", text(&accepted));
    assert_eq!(t.game(2).result, Some(data::GameResult::Draw));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_player_has_only_so_many_games_against_chimera() {
    let t = open(0).await;
    for channel in ["a", "b"] {
        let started = t.say(channel, play(1, host::ColorChoice::White)).await;
        assert!(!started.is_error(), "{}", text(&started));
    }
    let refused = t.say("c", play(1, host::ColorChoice::White)).await;
    assert!(refused.is_error());
    assert!(text(&refused).contains("You are playing 2 games against Chimera"), "{}", text(&refused));
    let store = data::Store::open(&t.path).unwrap();
    assert!(store.read(|tx| tx.active_game("console", "c")).unwrap().is_none(), "nothing was started");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_channel_sends_the_game_against_chimera_elsewhere() {
    let t = open(0).await;
    t.say("general", play(1, host::ColorChoice::White)).await;
    let second = t.say("general", play(1, host::ColorChoice::White)).await;
    assert!(!second.is_error(), "{}", text(&second));
    assert_eq!(t.game(2).channel, "general-2");
    assert!(text(&second).contains("#general has a game on"), "{}", text(&second));
}
