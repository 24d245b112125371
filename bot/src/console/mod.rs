//! `chimera console`: a local channel in the terminal. Anyone can play without a chat account:
//! each line names who speaks (and optionally where) and what they type, exactly as on Discord:
//!
//! ```text
//! alice: /challenge @bob variant:chess
//! bob: /accept
//! alice@general-2: /move e4
//! ```
//!
//! The console is the host's adapter for the platform `console`, where a user's id is their
//! name. It prints every reply, draws boards as text, and writes each board picture to a folder.
//! Interactively it runs the scheduler every second and the puzzle job (`CHIMERA_PUZZLE_CPU`);
//! with `--script` it ticks after each line, and leaves finding puzzles to the chat bots.
//! It shows no progress of long commands (an analysis): the reply is printed when it is ready,
//! so a script's transcript is the same on any machine.

mod board;
mod show;

use std::collections::HashMap;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result};
use async_trait::async_trait;

use host::{Command, Host, Mention, PlaceError, Places, Reply, Request, Settings, User};

pub use show::Printer;

/// The platform name the console's games are stored under.
pub const PLATFORM: &str = "console";

#[derive(clap::Args, Debug)]
pub struct ConsoleArgs {
    /// The database: a SQLite file (created if missing) or a postgres:// URL.
    #[arg(long, default_value_t = host::Location::from(host::default_database()), value_parser = parse_location)]
    db: host::Location,
    /// Run the lines of FILE instead of reading the terminal.
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// Stop with a non-zero exit code at the first error reply.
    #[arg(long)]
    strict: bool,
    /// Where board pictures are written.
    #[arg(long, default_value = "boards")]
    boards: PathBuf,
    /// The channel of lines that do not name one.
    #[arg(long, default_value = "general")]
    channel: String,
    /// Users who manage the console's tournaments as a server manager would (comma-separated).
    /// The user named `admin` always does.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    managers: Vec<String>,
}

/// `--db`, read as `CHIMERA_DB` is: a libpq string or an unknown scheme is refused.
fn parse_location(text: &str) -> Result<host::Location, host::LocationError> {
    host::Location::parse(text)
}

pub fn run(args: ConsoleArgs) -> Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(session(args))
}

async fn session(args: ConsoleArgs) -> Result<ExitCode> {
    let mut settings = Settings::new(args.db.clone(), PLATFORM);
    if args.script.is_some() {
        // A script is the operator's own file, read as fast as the disk gives it: the command
        // rate limit is for people typing, and would refuse a long game's moves.
        settings.limits.commands = usize::MAX;
    }
    let env = crate::settings::non_empty(|name: &str| std::env::var(name).ok());
    // Links to the web pages, as from a chat bot, when the environment gives their address.
    settings.web_url = crate::settings::web_url(&env)?;
    settings.analysis_engines = crate::settings::analysis_engines(&env)?;
    if let Some(percent) = crate::settings::puzzle_cpu(&env)? {
        settings.puzzle_cpu = percent;
    }
    let host = Host::open(settings).await?;
    // The web pages beside the console, as beside a chat bot, when the environment asks.
    let web_addr = crate::settings::web_addr(&env)?;
    let _web = crate::pages::start_if(web_addr, &host, web::Settings::default()).await?;
    let console = Console::new(host, &args.channel).with_managers(&args.managers);
    let mut printer = Printer::new(&args.boards, io::stdout().is_terminal());
    let out = &mut io::stdout().lock();
    match &args.script {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            for line in text.lines() {
                // A script's lines are echoed, so its output reads as the session it was.
                if let Some(said) = console.line(line).await {
                    writeln!(out, "> {}", line.trim())?;
                    let failed = said.reply.is_error();
                    printer.reply(out, &said.channel, &said.reply)?;
                    if failed && args.strict {
                        writeln!(out, "stopping at the first error (--strict)")?;
                        return Ok(ExitCode::FAILURE);
                    }
                }
                // Chimera's answer to a move comes before the next line, as it would to a
                // player who waits for it.
                console.host().engines_idle().await;
                printer.messages(out, &args.channel, &console.tick().await)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        None => interactive(&console, &mut printer, &args).await,
    }
}

/// Reads lines from standard input while the scheduler ticks every second.
async fn interactive(console: &Console, printer: &mut Printer, args: &ConsoleArgs) -> Result<ExitCode> {
    let terminal = io::stdin().is_terminal();
    if terminal {
        println!(
            "Chimera console: type lines like `alice: /challenge @bob variant:chess`, then `bob: /accept`. \
             `anyone: /help` lists the commands; Ctrl-D ends. Boards are written to {}.",
            args.boards.display()
        );
    }
    // Standard input is read on its own thread: a blocking read must not stall the clock.
    let (lines_tx, mut lines) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    // Finished games are searched for puzzles as beside a chat bot (a script has no time for
    // it: its transcript is the same on any machine).
    let puzzles = console.host().clone();
    let job = tokio::spawn(async move { puzzles.run_puzzle_job().await });
    let _stop_job = AbortOnDrop(job);
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            line = lines.recv() => {
                let Some(line) = line else { break };
                if let Some(said) = console.line(&line).await {
                    let out = &mut io::stdout().lock();
                    printer.reply(out, &said.channel, &said.reply)?;
                    if said.reply.is_error() && args.strict {
                        return Ok(ExitCode::FAILURE);
                    }
                }
            }
            _ = ticks.tick() => {
                printer.messages(&mut io::stdout().lock(), &args.channel, &console.tick().await)?;
            }
            // Chimera moved in a game against it: shown at once.
            _ = console.host().posts_waiting() => {
                printer.messages(&mut io::stdout().lock(), &args.channel, &console.deliver().await)?;
            }
        }
    }
    printer.messages(&mut io::stdout().lock(), &args.channel, &console.tick().await)?;
    Ok(ExitCode::SUCCESS)
}

/// Ends a background task when the session ends.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The console's side of the host: turns lines into requests, and opens new channels.
pub struct Console {
    host: Host,
    places: ConsolePlaces,
    channel: String,
    /// Users with a server manager's say over tournaments, besides `admin`.
    managers: Vec<String>,
    /// Makes request ids unique across runs on one database (see [`Console::request_id`]).
    run: u64,
    lines: AtomicU64,
}

impl Console {
    pub fn new(host: Host, channel: &str) -> Console {
        let run = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        Console {
            host,
            places: ConsolePlaces::default(),
            channel: channel.to_string(),
            managers: Vec::new(),
            run,
            lines: AtomicU64::new(0),
        }
    }

    /// Gives these users a server manager's say over tournaments (the user `admin` has it
    /// anyway).
    pub fn with_managers(mut self, managers: &[String]) -> Console {
        self.managers = managers.iter().map(|m| m.trim().to_string()).filter(|m| !m.is_empty()).collect();
        self
    }

    /// The scheduler's step, with the console's places for tournament games.
    pub async fn tick(&self) -> Vec<host::Message> {
        self.host.tick(&self.places).await;
        self.places.posted()
    }

    /// The announcements waiting to be posted (Chimera's moves), posted now.
    pub async fn deliver(&self) -> Vec<host::Message> {
        self.host.deliver(&self.places).await;
        self.places.posted()
    }

    pub fn host(&self) -> &Host {
        &self.host
    }

    /// Runs one line; `None` for blank lines and `#` comments.
    pub async fn line(&self, line: &str) -> Option<Said> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let (speaker, said) = match speaker(line) {
            Ok(found) => found,
            Err(error) => return Some(Said { channel: self.channel.clone(), reply: Reply::error(error) }),
        };
        let channel = speaker.channel.unwrap_or(&self.channel).trim_start_matches('#').to_string();
        let mut reply = match read_command(said) {
            Ok(command) => self.host.handle(self.request(speaker.user, &channel, command), &self.places).await,
            Err(error) => Reply::error(error),
        };
        // What the command announced elsewhere (a tournament's next round) is shown with it.
        reply.messages.extend(self.places.posted());
        Some(Said { channel, reply })
    }

    /// A request as the console makes it: the user's id is their name.
    pub fn request(&self, user: &str, channel: &str, command: Command) -> Request {
        Request {
            platform: PLATFORM.to_string(),
            server: None,
            channel: channel.trim_start_matches('#').to_string(),
            user: User { id: user.to_string(), name: user.to_string() },
            manager: user == "admin" || self.managers.iter().any(|m| m == user),
            place: host::PlaceKind::Direct,
            request_id: self.request_id(),
            command,
        }
    }

    /// A fresh id per line. A move's request id is stored with it for as long as it stands,
    /// so ids must not repeat across runs: each run has its own start time in them.
    fn request_id(&self) -> String {
        format!("console-{}-{}", self.run, self.lines.fetch_add(1, Ordering::Relaxed) + 1)
    }
}

/// A line's answer, and the channel it was spoken in.
pub struct Said {
    pub channel: String,
    pub reply: Reply,
}

/// Who speaks a line, and where (`None`: the console's channel).
pub struct Speaker<'a> {
    pub user: &'a str,
    pub channel: Option<&'a str>,
}

/// Splits `alice: /move e4` or `alice@general-2: /move e4` into the speaker and what they say.
pub fn speaker(line: &str) -> Result<(Speaker<'_>, &str), String> {
    let shape = "lines look like `alice: /move e4` (or `alice@general-2: /move e4` to speak in another channel)";
    let (who, said) = line.split_once(':').ok_or_else(|| format!("who says this? {shape}"))?;
    let (user, channel) = match who.trim().split_once('@') {
        Some((user, channel)) => (user.trim(), Some(channel.trim())),
        None => (who.trim(), None),
    };
    let valid = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    if !valid(user) || channel.is_some_and(|c| !valid(c)) {
        return Err(format!("`{}` is not a user name; {shape}", who.trim()));
    }
    Ok((Speaker { user, channel }, said.trim()))
}

/// Chimera's own name on the console: challenging `@chimera` is playing against it.
pub const BOT: &str = "chimera";

/// A command as typed on the console, its people resolved: on the console a user's id is their
/// name, so `@bob` (or `<@bob>`, as Discord writes it) is the user `bob`, and `@chimera` is
/// Chimera itself.
pub fn read_command(said: &str) -> Result<Command, String> {
    let typed: Command<Mention> = said.parse().map_err(|e: host::CommandError| e.to_string())?;
    typed
        .try_map_users(|Mention(m)| {
            let name = m.strip_prefix("<@").and_then(|m| m.strip_suffix('>')).unwrap_or(&m).trim_start_matches('@');
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(format!("`{m}` is not a user: name one like `@bob`"));
            }
            Ok(User { id: name.to_string(), name: name.to_string() })
        })
        .map(|command| command.with_bot_as_engine(BOT))
}

/// New channels for games, named after their parent (`general-2`, `general-3`, ...), and the
/// announcements posted since they were last printed.
#[derive(Default)]
struct ConsolePlaces {
    opened: Mutex<HashMap<String, u32>>,
    posted: Mutex<Vec<host::Message>>,
}

impl ConsolePlaces {
    /// The announcements posted since the last call, oldest first.
    fn posted(&self) -> Vec<host::Message> {
        std::mem::take(&mut *self.posted.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

#[async_trait]
impl Places for ConsolePlaces {
    async fn open_place(&self, parent_channel: &str, _title: &str) -> Result<String, PlaceError> {
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        let n = opened.entry(parent_channel.to_string()).or_insert(1);
        *n += 1;
        Ok(format!("{parent_channel}-{n}"))
    }

    /// The console's "network" is its printer: an announcement is posted once it is handed
    /// over to be printed.
    async fn post(&self, message: &host::Message) -> Result<(), PlaceError> {
        self.posted.lock().unwrap_or_else(|e| e.into_inner()).push(message.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_the_user_the_channel_and_the_command() {
        let (who, said) = speaker("alice@general-2: /move e4").unwrap();
        assert_eq!((who.user, who.channel), ("alice", Some("general-2")));
        assert!(matches!(read_command(said), Ok(Command::Move { ref text, .. }) if text == "e4"));
        assert!(speaker("/move e4").err().unwrap().contains("who says this"));
        assert!(speaker("alice smith: /board").err().unwrap().contains("not a user name"));
        assert!(read_command("/fly").unwrap_err().contains("unknown command `/fly`"));
    }

    #[test]
    fn mentions_are_console_users() {
        let bob = User { id: "bob".into(), name: "bob".into() };
        for typed in ["/history @bob", "/history <@bob>", "/history user:bob"] {
            assert_eq!(read_command(typed), Ok(Command::History { user: Some(bob.clone()) }), "{typed}");
        }
    }

    #[tokio::test]
    async fn replies_are_labelled_with_the_channel_spoken_in() {
        let dir = tempfile::tempdir().unwrap();
        let host = Host::open(Settings::new(dir.path().join("chimera.db"), PLATFORM)).await.unwrap();
        let console = Console::new(host, "general");
        let said = console.line("alice@g2: /board").await.unwrap();
        assert_eq!(said.channel, "g2");
        assert!(said.reply.messages[0].text.contains("There is no game in #g2"), "{:?}", said.reply);
        let said = console.line("alice: /board").await.unwrap();
        assert_eq!(said.channel, "general");
    }
}
