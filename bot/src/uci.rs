//! `chimera uci`: the engine as a standard UCI engine, for GUIs and match tools.
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name … value …`, `position startpos|fen …
//! [moves …]`, `go [depth N] [movetime MS] [nodes N] [wtime MS btime MS winc MS binc MS movestogo N]
//! [infinite]`, `stop`, `quit`. Options: `UCI_Variant` (chess, golem, grolman, ghostking,
//! werewolf, unicorngreat), `Skill Level` (the chat levels 1 to 8) and `Hash` (MiB).
//!
//! Moves are the project's coordinate form; a Grolman turn is one token, its lead move and
//! chain steps joined by `/` (`e2e4/g1e2/h1g1`). Every move printed is accepted back by
//! `position … moves` and by `chimera perft --moves`.
//!
//! Guarantees: a line that cannot be read gets one `info string error: …` line and changes
//! nothing (a bad `position` keeps the previous position, a bad `setoption` the previous
//! value, a bad `go` starts no search). The search runs on its own thread, so `stop`,
//! `isready` and `quit` are answered while it thinks; `go infinite` prints its `bestmove` only
//! after `stop`. Every `go` ends in exactly one `bestmove`.
//!
//! [`Session`] is the protocol without the terminal: lines in through [`Session::handle`],
//! lines out through an [`Output`], so tests and the fuzz checks drive it in-process.

use std::io::BufRead;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Result;
use engine::{Info, Level, Limits, Score, Searcher};
use rules::{Color, Position, Variant};

const DEFAULT_HASH_MB: usize = 16;
const MAX_HASH_MB: usize = 1024;

/// Where a session's lines go: standard output in `chimera uci`, a buffer in tests. The search
/// thread writes through it too, so it is shared.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Bounds on what one session may spend, for tests and fuzzing, which feed it any input:
/// every search stops after `nodes` nodes, and `setoption name Hash` takes at most `hash_mb`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Caps {
    pub nodes: Option<u64>,
    pub hash_mb: usize,
}

impl Default for Caps {
    /// No node bound, and the protocol's own hash bound: what `chimera uci` runs with.
    fn default() -> Caps {
        Caps { nodes: None, hash_mb: MAX_HASH_MB }
    }
}

/// What a session holds between lines: the settings and the game. A line refused with
/// `info string error` leaves it as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub variant: Variant,
    pub level: Level,
    pub hash_mb: usize,
    /// The FEN of every position of the game, its start first.
    pub fens: Vec<String>,
}

/// A variant's `UCI_Variant` name, as Fairy-Stockfish spells it: its id without hyphens
/// (`ghost-king` is `ghostking`).
fn uci_name(variant: Variant) -> String {
    variant.id().replace('-', "")
}

/// The position's moves written as one token each, along the line they are played in.
fn line_text(start: &Position, moves: &[rules::Move]) -> String {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for m in moves {
        out.push(pos.coord_token(m));
        pos.play_unchecked(m);
    }
    out.join(" ")
}

fn info_line(start: &Position, info: &Info) -> String {
    let score = match info.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let ms = info.elapsed.as_millis().max(1);
    let nps = info.nodes as u128 * 1000 / ms;
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.elapsed.as_millis(),
        line_text(start, &info.pv)
    )
}

struct Running {
    stop: Arc<AtomicBool>,
    /// Set by `go infinite` until `stop` arrives: the thread waits before its `bestmove`.
    hold: Arc<AtomicBool>,
    handle: JoinHandle<Searcher>,
}

/// One UCI conversation: the options set, the game given by `position`, and the search running.
pub struct Session {
    variant: Variant,
    level: Level,
    hash_mb: usize,
    /// The game so far, its start first; the last is the position to search.
    positions: Vec<Position>,
    searcher: Option<Searcher>,
    running: Option<Running>,
    seed: u64,
    out: Output,
    caps: Caps,
}

impl Session {
    /// A session writing its lines to `out`, within `caps`.
    pub fn new(out: Output, caps: Caps) -> Session {
        Session {
            variant: Variant::Chess,
            level: Level::MAX,
            hash_mb: DEFAULT_HASH_MB.min(caps.hash_mb),
            positions: vec![Position::start(Variant::Chess)],
            searcher: None,
            running: None,
            seed: 0x5eed,
            out,
            caps,
        }
    }

    fn say(&self, line: &str) {
        (self.out)(line)
    }

    /// The settings and the game, as the next `go` would use them.
    pub fn state(&self) -> State {
        State {
            variant: self.variant,
            level: self.level,
            hash_mb: self.hash_mb,
            fens: self.positions.iter().map(Position::fen).collect(),
        }
    }

    /// Ends a running search (its `bestmove` is printed) and takes its searcher back.
    pub fn finish(&mut self) {
        if let Some(run) = self.running.take() {
            run.stop.store(true, Ordering::Relaxed);
            run.hold.store(false, Ordering::Relaxed);
            if let Ok(searcher) = run.handle.join() {
                self.searcher = Some(searcher);
            }
        }
    }

    fn searcher(&mut self) -> Searcher {
        match self.searcher.take() {
            Some(s) if s.variant() == self.variant => s,
            _ => Searcher::new(self.variant, self.hash_mb),
        }
    }

    /// The end of input: a finite search runs to its end and prints its move (a GUI piping a
    /// script expects it); `go infinite` is released as by `stop`.
    pub fn end_of_input(&mut self) {
        if let Some(run) = self.running.take() {
            run.hold.store(false, Ordering::Relaxed);
            if let Ok(searcher) = run.handle.join() {
                self.searcher = Some(searcher);
            }
        }
    }

    /// Handles one line; `false` for `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else { return true };
        let result = match command {
            "uci" => {
                self.say(&format!("id name Chimera {}", env!("CARGO_PKG_VERSION")));
                self.say("id author the Chimera project");
                let vars: Vec<String> = Variant::ALL.iter().map(|&v| format!("var {}", uci_name(v))).collect();
                self.say(&format!("option name UCI_Variant type combo default chess {}", vars.join(" ")));
                self.say("option name Skill Level type spin default 8 min 1 max 8");
                self.say(&format!(
                    "option name Hash type spin default {} min 1 max {}",
                    DEFAULT_HASH_MB.min(self.caps.hash_mb),
                    self.caps.hash_mb
                ));
                self.say("uciok");
                Ok(())
            }
            "isready" => {
                self.say("readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.finish();
                self.positions = vec![Position::start(self.variant)];
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                Ok(())
            }
            "setoption" => {
                self.finish();
                self.set_option(line)
            }
            "position" => {
                self.finish();
                self.set_position(&words[1..])
            }
            "go" => {
                self.finish();
                self.go(&words[1..])
            }
            "stop" => {
                self.finish();
                Ok(())
            }
            "quit" => {
                self.finish();
                return false;
            }
            "debug" | "register" | "ponderhit" => Ok(()),
            other => Err(format!("unknown command `{other}`")),
        };
        if let Err(why) = result {
            self.say(&format!("info string error: {why}"));
        }
        true
    }

    fn set_option(&mut self, line: &str) -> Result<(), String> {
        let rest = line.trim_start().strip_prefix("setoption").unwrap_or("").trim();
        let rest = rest.strip_prefix("name").ok_or("setoption needs `name <option> value <value>`")?.trim();
        let (name, value) = match rest.find(" value ") {
            Some(i) => (rest[..i].trim(), rest[i + 7..].trim()),
            None => (rest, ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let variant =
                    Variant::ALL.iter().copied().find(|&v| uci_name(v).eq_ignore_ascii_case(value)).ok_or_else(
                        || {
                            let names: Vec<String> = Variant::ALL.iter().map(|&v| uci_name(v)).collect();
                            format!("unknown UCI_Variant `{value}`; the variants are {}", names.join(", "))
                        },
                    )?;
                if variant != self.variant {
                    self.variant = variant;
                    self.positions = vec![Position::start(variant)];
                    self.searcher = None;
                }
                Ok(())
            }
            "skill level" => {
                let n: i64 = value.parse().map_err(|_| format!("Skill Level `{value}` is not a number from 1 to 8"))?;
                self.level = Level::new(n).map_err(|e| e.to_string())?;
                Ok(())
            }
            "hash" => {
                let mb: usize = value.parse().map_err(|_| format!("Hash `{value}` is not a number of MiB"))?;
                let max = self.caps.hash_mb;
                if !(1..=max).contains(&mb) {
                    return Err(format!("Hash {mb} is outside 1..{max} MiB"));
                }
                self.hash_mb = mb;
                self.searcher = None;
                Ok(())
            }
            _ => Err(format!("unknown option `{name}`; the options are UCI_Variant, Skill Level, Hash")),
        }
    }

    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (setup, moves) = match args.iter().position(|w| *w == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::start(self.variant),
            Some(&"fen") if setup.len() > 1 => {
                let fen = setup[1..].join(" ");
                Position::from_fen(self.variant, &fen)
                    .map_err(|e| format!("bad FEN for {}: {e}", uci_name(self.variant)))?
            }
            _ => return Err("position needs `startpos` or `fen <FEN>`, then optionally `moves …`".into()),
        };
        let mut positions = vec![start];
        for (i, text) in moves.iter().enumerate() {
            let pos = positions.last().expect("a position");
            let m = pos.parse_coord(text).map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
            positions.push(pos.after(&m));
        }
        self.positions = positions;
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let mut limits = Limits::default();
        let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, 0u64, 0u64, None);
        let mut infinite = false;
        let mut movetime = None;
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            let mut number = || -> Result<u64, String> {
                i += 1;
                let text = args.get(i).ok_or_else(|| format!("`go {word}` needs a number"))?;
                text.parse().map_err(|_| format!("`go {word} {text}`: not a number"))
            };
            match word {
                "depth" => limits.depth = Some(number()?.clamp(1, 64) as u32),
                "nodes" => limits.nodes = Some(number()?.max(1)),
                "movetime" => movetime = Some(Duration::from_millis(number()?)),
                "wtime" => wtime = Some(number()?),
                "btime" => btime = Some(number()?),
                "winc" => winc = number()?,
                "binc" => binc = number()?,
                "movestogo" => movestogo = Some(number()?.max(1)),
                "infinite" => infinite = true,
                "ponder" => {}
                other => return Err(format!("unknown go parameter `{other}`")),
            }
            i += 1;
        }
        let turn = self.positions.last().expect("a position").turn();
        let (remaining, inc) = if turn == Color::White { (wtime, winc) } else { (btime, binc) };
        let clock_budget = remaining.map(|r| {
            let share = r / movestogo.unwrap_or(30) + inc * 3 / 4;
            Duration::from_millis(share.min(r / 5).max(5))
        });
        let budget = movetime.or(clock_budget);
        // The level's own depth and deliberate mistakes, within the time the GUI gives.
        let mut level_limits = self.level.limits(budget.unwrap_or(Duration::MAX), self.seed);
        self.seed = self.seed.wrapping_add(1);
        if self.level < Level::MAX {
            limits.noise = level_limits.noise;
            limits.depth = match (limits.depth, level_limits.depth.take()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        if !infinite {
            limits.movetime = budget;
            limits.soft_time = if movetime.is_some() { None } else { clock_budget.map(|b| b / 2) };
        }
        if let Some(cap) = self.caps.nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let hold = Arc::new(AtomicBool::new(infinite));
        let mut searcher = self.searcher();
        let positions = self.positions.clone();
        let (stop2, hold2, out) = (stop.clone(), hold.clone(), self.out.clone());
        let handle = std::thread::Builder::new()
            .name("uci-search".into())
            .spawn(move || {
                let root = positions.last().expect("a position").clone();
                let result = searcher.search(&positions, &limits, &stop2, &mut |info| out(&info_line(&root, info)));
                while hold2.load(Ordering::Relaxed) && !stop2.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
                match result.best {
                    Some(m) => out(&format!("bestmove {}", root.coord_token(&m))),
                    None => out("bestmove (none)"),
                }
                searcher
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running { stop, hold, handle });
        Ok(())
    }
}

/// Runs the UCI loop on standard input and output until `quit` or the end of input.
pub fn run() -> Result<ExitCode> {
    let mut session = Session::new(Arc::new(|line: &str| println!("{line}")), Caps::default());
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line?;
        if !session.handle(&line) {
            return Ok(ExitCode::SUCCESS);
        }
    }
    session.end_of_input();
    Ok(ExitCode::SUCCESS)
}
