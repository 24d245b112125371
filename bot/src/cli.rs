//! Command-line parsing and the offline commands (bench, variants, perft, replay).

use std::io::Read;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use rules::{Move, Position, Variant};

#[derive(Parser)]
#[command(name = "chimera", version, about = "Chess variants hosted in chat")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A local channel on the terminal: type `alice: /challenge @bob variant:chess`.
    Console(crate::console::ConsoleArgs),
    #[cfg(feature = "discord")]
    /// The Discord bot: settings from the environment or .env (see .env.example).
    Discord(crate::adapter::AdapterArgs),
    #[cfg(feature = "matrix")]
    /// The Matrix bot: settings from the environment or .env (see .env.example).
    Matrix(crate::adapter::AdapterArgs),
    /// The engine as a UCI engine on standard input and output (UCI_Variant: chess, golem,
    /// grolman, ghostking, werewolf, unicorngreat).
    Uci,
    /// Searches a fixed set of positions (every variant) to a fixed depth and prints the node
    /// count, the search's signature (the same on every run), and nodes per second.
    Bench {
        /// Plies to search each position to.
        #[arg(long, default_value_t = engine::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
    },
    /// Lists every variant: id, name and start FEN.
    Variants,
    /// Counts the legal move sequences of DEPTH plies (the last line printed is the count).
    Perft {
        variant: Variant,
        depth: u32,
        /// Start from this FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// Coordinate moves to play first, separated by spaces; a Grolman turn as --divide
        /// prints it, `b1a3 (a1b1)`, or as one token, `b1a3/a1b1` (as `chimera uci` prints it).
        #[arg(long)]
        moves: Option<String>,
        /// Print the count below each legal move.
        #[arg(long)]
        divide: bool,
    },
    /// Replays a game score (PGN, SAN or coordinate moves) and prints the final FEN and result.
    Replay {
        variant: Variant,
        /// The score's file; `-` or nothing reads standard input.
        file: Option<String>,
    },
    /// Draws a board, or with --diagram a rule diagram, as a PNG.
    Render(crate::render_cmd::RenderArgs),
    /// Checks the settings, the database (opened and migrated) and each network's login; one
    /// line per check, and a non-zero exit status on any problem. Posts nothing.
    Check(crate::check::CheckArgs),
    /// Serves the web pages (game pages, PGN, GIF) from the database the settings name, on
    /// CHIMERA_WEB_ADDR (default 127.0.0.1:8080), until interrupted.
    Web(crate::pages::WebArgs),
    /// Copies the SQLite database (CHIMERA_DB) to FILE, consistently, while the bot runs.
    Backup {
        /// Where the copy goes; an existing file is not overwritten.
        file: std::path::PathBuf,
        /// A settings file to load before the environment (default: `.env`, if there is one).
        #[arg(long, value_name = "FILE")]
        env_file: Option<std::path::PathBuf>,
    },
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match dispatch(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(command: Command) -> Result<ExitCode> {
    match command {
        Command::Console(args) => return crate::console::run(args),
        #[cfg(feature = "discord")]
        Command::Discord(args) => return crate::discord::run(args),
        #[cfg(feature = "matrix")]
        Command::Matrix(args) => return crate::matrix::run(args),
        Command::Uci => return crate::uci::run(),
        Command::Bench { depth } => println!("{}", engine::bench::run(depth)),
        Command::Variants => {
            for v in Variant::ALL {
                println!("{}\t{}\t{}", v.id(), v.name(), v.start_fen());
            }
        }
        Command::Perft { variant, depth, fen, moves, divide } => {
            perft(variant, depth, fen.as_deref(), moves.as_deref(), divide)?
        }
        Command::Replay { variant, file } => replay(variant, file.as_deref())?,
        Command::Render(args) => crate::render_cmd::run(args)?,
        Command::Check(args) => return crate::check::run(args),
        Command::Backup { file, env_file } => backup(&file, env_file.as_deref())?,
        Command::Web(args) => return crate::pages::run(args),
    }
    Ok(ExitCode::SUCCESS)
}

/// `chimera backup`: the database the settings name, copied to `file` (see `data::backup`).
fn backup(file: &std::path::Path, env_file: Option<&std::path::Path>) -> Result<()> {
    crate::settings::load_env(env_file)?;
    let get = crate::settings::non_empty(|name: &str| std::env::var(name).ok());
    let common = crate::settings::Common::from_lookup(&get)?;
    let copied = data::backup(&common.db, file)?;
    println!(
        "backed up {} to {}: schema version {}, {} games, {} moves, {} bytes; integrity check ok",
        common.db,
        file.display(),
        copied.schema_version,
        copied.games,
        copied.moves,
        copied.bytes
    );
    Ok(())
}

/// The position from an optional FEN after optional coordinate moves (`--fen`, `--moves`), and
/// the last of those moves.
pub(crate) fn position(variant: Variant, fen: Option<&str>, moves: Option<&str>) -> Result<(Position, Option<Move>)> {
    let mut pos = match fen {
        Some(fen) => Position::from_fen(variant, fen).context("bad --fen")?,
        None => Position::start(variant),
    };
    let mut last = None;
    let moves = rules::coord::split_moves(moves.unwrap_or("")).context("bad --moves")?;
    for (i, text) in moves.into_iter().enumerate() {
        let m = pos.parse_coord(text).with_context(|| format!("--moves: move {} `{text}`", i + 1))?;
        pos.play_unchecked(&m);
        last = Some(m);
    }
    Ok((pos, last))
}

fn perft(variant: Variant, depth: u32, fen: Option<&str>, moves: Option<&str>, divide: bool) -> Result<()> {
    if depth > 20 {
        bail!("depth {depth} is too deep to count; perft takes a depth of at most 20");
    }
    let (pos, _) = position(variant, fen, moves)?;
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in rules::divide(&pos, depth) {
            println!("{} {n}", pos.coord(&m));
            total += n;
        }
        total
    } else {
        rules::perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!("{nodes} nodes in {secs:.3} s: {:.1} million nodes per second", nodes as f64 / secs.max(1e-9) / 1e6);
    println!("{nodes}");
    Ok(())
}

/// Prints the final FEN, then the result: the outcome when the position decides the game,
/// else the score's result token or Result tag, else `*`.
fn replay(variant: Variant, file: Option<&str>) -> Result<()> {
    let text = read_score(file)?;
    let pgn = rules::pgn::read(variant, &text)?;
    println!("{}", pgn.game.position().fen());
    match pgn.game.outcome() {
        Some(outcome) => println!("{} ({outcome})", outcome.result()),
        None => println!("{}", pgn.result.as_deref().or(pgn.tags.get("Result")).unwrap_or("*")),
    }
    Ok(())
}

fn read_score(file: Option<&str>) -> Result<String> {
    match file {
        None | Some("-") => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).context("cannot read the score from standard input")?;
            Ok(text)
        }
        Some(path) => std::fs::read_to_string(path).with_context(|| format!("cannot read `{path}`")),
    }
}
