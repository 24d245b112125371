//! The `chimera matrix` process as an operator runs it: killed with SIGKILL while it holds moves
//! it has received and not answered (each is answered once after the restart), stopped with
//! SIGTERM while its homeserver does not answer (it exits within seconds), and its store kept
//! for its user alone whatever the umask.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use matrix_sdk::ruma::OwnedRoomId;

use crate::games::{notice, played};
use crate::harness::{table, Bot, Person};

#[path = "../../../data/src/testing/pg_schema.rs"]
#[allow(dead_code)]
mod pg_schema;

/// `chimera matrix` as a process of its own, on the bot's settings, logging to `log`.
fn spawn(bot: &Bot, log: &Path) -> Child {
    let out = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("a log file");
    Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("matrix")
        .envs(bot.env_vars())
        .env("RUST_LOG", "info,matrix_sdk=warn,matrix_sdk_crypto=warn,matrix_sdk_base=warn")
        .current_dir(bot.dir())
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("the log again"))
        .stderr(out)
        .spawn()
        .expect("the chimera binary starts")
}

/// A transaction that holds the `moves` table of a schema locked against writes (reads go on):
/// every move the bot tries to store waits, as it would behind a slow disk.
struct Hold {
    release: mpsc::Sender<()>,
    done: std::thread::JoinHandle<()>,
}

impl Hold {
    fn take(url: &str) -> Hold {
        let (locked_tx, locked) = mpsc::channel();
        let (release, released) = mpsc::channel::<()>();
        let url = url.to_string();
        let done = std::thread::spawn(move || {
            let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("the test schema answers");
            let mut tx = client.transaction().expect("a transaction");
            tx.batch_execute("LOCK TABLE moves IN EXCLUSIVE MODE").expect("the moves locked");
            locked_tx.send(()).expect("the test waits");
            let _ = released.recv();
            tx.commit().expect("the hold let go");
        });
        locked.recv().expect("the hold is taken");
        Hold { release, done }
    }

    fn release(self) {
        let _ = self.release.send(());
        self.done.join().expect("the hold thread");
    }
}

/// How many writes of moves wait behind the hold.
fn moves_waiting(url: &str) -> i64 {
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("the test schema answers");
    let row = client
        .query_one("SELECT count(*) FROM pg_locks WHERE relation = 'moves'::regclass AND NOT granted", &[])
        .expect("the locks are read");
    row.get(0)
}

#[test]
fn moves_received_before_a_sigkill_are_each_answered_once_after_the_restart() {
    // The schema is made and dropped outside the runtime: its client blocks.
    let Some(schema) = pg_schema::PgSchema::fresh() else { return };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(sigkill(&schema.url));
}

async fn sigkill(url: &str) {
    const GAMES: usize = 3;
    let mut bot = Bot::register().await;
    bot.set_env("CHIMERA_DB", url);
    let log = bot.dir().join("bot.log");
    let _shown = ShowOnPanic(log.clone());
    let mut process = spawn(&bot, &log);
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    let mut rooms: Vec<OwnedRoomId> = Vec::new();
    for _ in 0..GAMES {
        let room = table(&bot, &alice, &[&bob], false).await;
        alice.say(&room, &format!("!challenge {} variant:chess color:white", bob.id)).await;
        notice(&bob, &bot, &room, "challenges").await;
        bob.say(&room, "!accept").await;
        notice(&alice, &bot, &room, &format!("{} (White)", alice.name)).await;
        rooms.push(room);
    }

    // The host is held: each move is received, read, and waits to be stored.
    let hold = {
        let url = url.to_string();
        tokio::task::spawn_blocking(move || Hold::take(&url)).await.unwrap()
    };
    for room in &rooms {
        alice.say(room, "e4").await;
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let u = url.to_string();
        let waiting = tokio::task::spawn_blocking(move || moves_waiting(&u)).await.unwrap();
        if waiting == GAMES as i64 {
            break;
        }
        assert!(Instant::now() < deadline, "{waiting} of {GAMES} moves reached the store; the log:\n{}", tail(&log));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        bob.count(&rooms[0], &bot.id, |s| s.body().contains(&played(1, "e4"))),
        0,
        "no move is answered while the host is held"
    );

    // SIGKILL: nothing of the process's own runs after it.
    process.kill().expect("SIGKILL");
    process.wait().expect("the process is gone");
    tokio::task::spawn_blocking(move || hold.release()).await.unwrap();
    let mut process = spawn(&bot, &log);

    for room in &rooms {
        notice(&bob, &bot, room, &played(1, "e4")).await;
    }
    // Each game goes on, and by the time Black's move is answered, the restart has replayed all
    // it will: White's move was answered exactly once.
    for room in &rooms {
        bob.say(room, "e5").await;
        notice(&alice, &bot, room, &played(2, "e5")).await;
    }
    for room in &rooms {
        let answers = bob.count(room, &bot.id, |s| s.is_notice() && s.body().contains(&played(1, "e4")));
        assert_eq!(answers, 1, "White's move in {room} answered once; the log:\n{}", tail(&log));
    }
    let _ = process.kill();
    let _ = process.wait();
}

/// Prints the bot's log if the test fails, whichever assertion it was.
struct ShowOnPanic(std::path::PathBuf);

impl Drop for ShowOnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("the bot's log:\n{}", tail(&self.0));
        }
    }
}

/// The last lines of a log, for a failure's message.
fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(80)..].join("\n")
}

#[test]
fn sigterm_stops_the_bot_within_seconds_while_its_homeserver_does_not_answer() {
    // A homeserver that takes every connection and never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().unwrap().port();
    let (called_tx, called) = mpsc::channel();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
            let _ = called_tx.send(());
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("bot.log");
    let out = std::fs::File::create(&log).unwrap();
    let mut process = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("matrix")
        .env("MATRIX_HOMESERVER", format!("http://127.0.0.1:{port}"))
        .env("MATRIX_USER", "@chimera:localhost")
        .env("MATRIX_PASSWORD", "correct horse battery staple")
        .env("MATRIX_STORE_DIR", dir.path().join("store"))
        .env("CHIMERA_DB", dir.path().join("chimera.db"))
        .env("RUST_LOG", "info")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .spawn()
        .expect("the chimera binary starts");
    called.recv_timeout(Duration::from_secs(60)).expect("the bot calls its homeserver");
    // SAFETY: kill(2) on the process this test started.
    assert_eq!(unsafe { libc::kill(process.id() as libc::pid_t, libc::SIGTERM) }, 0);
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = process.try_wait().expect("the process") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = process.kill();
            let _ = process.wait();
            panic!("still running 15 s after SIGTERM; the log:\n{}", tail(&log));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "a clean exit, not death by the signal: {status:?}; the log:\n{}", tail(&log));
    assert!(std::fs::read_to_string(&log).unwrap().contains("shutting down"), "{}", tail(&log));
}

#[cfg(unix)]
#[tokio::test]
async fn the_store_is_for_the_bots_user_alone_whatever_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: umask(2) only sets this process's mask (022 is the usual one, and the test's
    // point: files made under it are readable by everyone unless the bot sees to them).
    unsafe { libc::umask(0o022) };
    let bot = Bot::start(&[]).await;
    let alice = Person::new("alice").await;
    let room = table(&bot, &alice, &[], true).await;
    alice.say(&room, "!help").await;
    notice(&alice, &bot, &room, "challenge").await;
    let store = Path::new(&bot.env_vars()["MATRIX_STORE_DIR"]).to_path_buf();
    let mut open = Vec::new();
    let mut dirs = vec![store.clone()];
    let mut files = 0;
    while let Some(dir) = dirs.pop() {
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        if mode != 0o700 {
            open.push(format!("{} {mode:o}", dir.display()));
        }
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                dirs.push(entry.path());
            } else if kind.is_file() {
                files += 1;
                let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
                if mode != 0o600 {
                    open.push(format!("{} {mode:o}", entry.path().display()));
                }
            }
        }
    }
    assert!(files >= 3, "the session and the SDK's stores are there");
    assert!(open.is_empty(), "readable by others: {open:#?}");
}
