//! The UCI protocol without the terminal: a [`Session`] reads one line at a time and answers
//! with a [`Reply`], the lines to print and, for `go`, a [`Search`] for the caller to run away
//! from the reading thread. No I/O and no threads here: `chimera uci` wires standard input and
//! output and runs each search on a thread of its own; the tests run them in place.
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name … value …`, `position startpos|fen …
//! [moves …]`, `go [depth N] [movetime MS] [nodes N] [wtime MS btime MS winc MS binc MS movestogo N]
//! [infinite]`, `stop`, `quit`. Options: `UCI_Variant` (every variant's id without hyphens:
//! chess, golem, grolman, ghostking, werewolf, unicorngreat), `Skill Level` (the chat levels 1
//! to 8) and `Hash` (MiB).
//!
//! Moves are the project's coordinate form; a Grolman turn is one token, its lead move and
//! chain steps joined by `/` (`e2e4/g1e2/h1g1`). Every move printed is accepted back by
//! `position … moves` and by `chimera perft --moves`.
//!
//! Guarantees: a line that cannot be read gets one `info string error: …` line and changes
//! nothing (a bad `position` keeps the previous position, a bad `setoption` the previous
//! value, a bad `go` starts no search). `isready` is answered while a search runs; every other
//! command first ends it (its `bestmove` comes first). `go infinite` gives its `bestmove` only
//! at `stop`, `quit` or the end of input. Every `go` ends in exactly one `bestmove`, provided
//! its [`Search`] is run.
//!
//! ```
//! use engine::uci::{Caps, Session};
//!
//! let mut session = Session::new(Caps::default());
//! assert_eq!(session.handle("position startpos moves e2e4").lines, Vec::<String>::new());
//! let search = session.handle("go depth 2").search.expect("a search to run");
//! let mut said = Vec::new();
//! search.run(&mut |line| said.push(line.to_string()));
//! assert!(said.last().unwrap().starts_with("bestmove "));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::Duration;

use rules::{Color, Move, Position, Variant};

use crate::{Info, Level, Limits, Score, Searcher};

pub mod client;

const DEFAULT_HASH_MB: usize = 16;
const MAX_HASH_MB: usize = 1024;

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

/// The answer to one line.
#[derive(Debug, Default)]
#[must_use]
pub struct Reply {
    /// Lines to print now, in order (before anything `search` prints).
    pub lines: Vec<String>,
    /// A search `go` started: run it away from the thread that reads the lines, so that
    /// `stop` and `isready` are heard while it thinks.
    pub search: Option<Search>,
    /// `quit`: read no more lines.
    pub quit: bool,
}

/// A search `go` asked for, with its searcher. [`run`](Search::run) prints its `info` lines
/// and `bestmove` and hands the searcher back to the session.
pub struct Search {
    searcher: Searcher,
    positions: Vec<Position>,
    limits: Limits,
    stop: Arc<AtomicBool>,
    /// `go infinite`: the `bestmove` waits for `stop`, so it goes back to the session instead.
    infinite: bool,
    back: Sender<Finished>,
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search").field("limits", &self.limits).field("infinite", &self.infinite).finish()
    }
}

/// A search's end, sent back to its session.
struct Finished {
    searcher: Searcher,
    /// The `bestmove` line of a `go infinite`, printed when the session is told to stop.
    held: Option<String>,
}

impl Search {
    /// Searches until a limit or the session's `stop`, printing through `out`.
    pub fn run(self, out: &mut dyn FnMut(&str)) {
        let Search { mut searcher, positions, limits, stop, infinite, back } = self;
        let root = positions.last().expect("a session always has a position");
        let result = searcher.search(&positions, &limits, &stop, &mut |info| out(&info_line(root, info)));
        let best = match result.best {
            Some(m) => format!("bestmove {}", root.coord_token(&m)),
            None => "bestmove (none)".to_string(),
        };
        let held = if infinite {
            Some(best)
        } else {
            out(&best);
            None
        };
        // The session may be gone (the program is ending): nobody is left to print to.
        let _ = back.send(Finished { searcher, held });
    }
}

/// A search handed out and not yet known to be over.
struct Running {
    stop: Arc<AtomicBool>,
    infinite: bool,
    back: Receiver<Finished>,
}

/// One UCI conversation: the options set, the game given by `position`, and the searcher kept
/// from one `go` to the next (its table helps from move to move).
pub struct Session {
    variant: Variant,
    level: Level,
    hash_mb: usize,
    /// The game so far, its start first; the last is the position to search.
    positions: Vec<Position>,
    searcher: Option<Searcher>,
    running: Option<Running>,
    seed: u64,
    caps: Caps,
}

/// A variant's `UCI_Variant` name, as Fairy-Stockfish spells it: its id without hyphens
/// (`ghost-king` is `ghostking`).
pub fn variant_name(variant: Variant) -> String {
    variant.id().replace('-', "")
}

/// The position's moves written as one token each, along the line they are played in.
pub(crate) fn line_text(start: &Position, moves: &[Move]) -> String {
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

impl Session {
    /// A session playing chess at the top level, within `caps`.
    pub fn new(caps: Caps) -> Session {
        Session {
            variant: Variant::Chess,
            level: Level::MAX,
            hash_mb: DEFAULT_HASH_MB.min(caps.hash_mb),
            positions: vec![Position::start(Variant::Chess)],
            searcher: None,
            running: None,
            seed: 0x5eed,
            caps,
        }
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

    /// Ends the running search, if any: stops it, waits for it to hand its searcher back and
    /// returns the `bestmove` it held back (`go infinite`).
    fn finish(&mut self, stop: bool) -> Vec<String> {
        let Some(run) = self.running.take() else { return Vec::new() };
        if stop {
            run.stop.store(true, Ordering::Relaxed);
        }
        // An error: the search was dropped unrun, and its searcher with it.
        match run.back.recv() {
            Ok(Finished { searcher, held }) => {
                self.searcher = Some(searcher);
                held.into_iter().collect()
            }
            Err(_) => Vec::new(),
        }
    }

    /// The end of input: a finite search runs to its end and prints its move (a GUI piping a
    /// script expects it); `go infinite` is stopped, and its move is returned.
    pub fn end_of_input(&mut self) -> Vec<String> {
        let infinite = self.running.as_ref().is_some_and(|r| r.infinite);
        self.finish(infinite)
    }

    /// Handles one line. A [`Search`] from an earlier reply must have been run, or be running
    /// elsewhere, or have been dropped: a line that ends the search waits for it.
    pub fn handle(&mut self, line: &str) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else { return Reply::default() };
        // What changes the game or the settings, or starts a search, ends the running one first.
        let ends_search = matches!(command, "ucinewgame" | "setoption" | "position" | "go" | "stop" | "quit");
        let mut lines = if ends_search { self.finish(true) } else { Vec::new() };
        let mut reply = Reply::default();
        let result = match command {
            "uci" => {
                lines.push(format!("id name Chimera {}", env!("CARGO_PKG_VERSION")));
                lines.push("id author the Chimera project".into());
                let vars: Vec<String> = Variant::ALL.iter().map(|&v| format!("var {}", variant_name(v))).collect();
                lines.push(format!("option name UCI_Variant type combo default chess {}", vars.join(" ")));
                lines.push("option name Skill Level type spin default 8 min 1 max 8".into());
                lines.push(format!(
                    "option name Hash type spin default {} min 1 max {}",
                    DEFAULT_HASH_MB.min(self.caps.hash_mb),
                    self.caps.hash_mb
                ));
                lines.push("uciok".into());
                Ok(())
            }
            "isready" => {
                lines.push("readyok".into());
                Ok(())
            }
            "ucinewgame" => {
                self.positions = vec![Position::start(self.variant)];
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                Ok(())
            }
            "setoption" => self.set_option(line),
            "position" => self.set_position(&words[1..]),
            "go" => self.go(&words[1..]).map(|search| reply.search = Some(search)),
            "stop" | "debug" | "register" | "ponderhit" => Ok(()),
            "quit" => {
                reply.quit = true;
                Ok(())
            }
            other => Err(format!("unknown command `{other}`")),
        };
        if let Err(why) = result {
            lines.push(format!("info string error: {why}"));
        }
        reply.lines = lines;
        reply
    }

    fn searcher(&mut self) -> Searcher {
        match self.searcher.take() {
            Some(s) if s.variant() == self.variant => s,
            _ => Searcher::new(self.variant, self.hash_mb),
        }
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
                    Variant::ALL.iter().copied().find(|&v| variant_name(v).eq_ignore_ascii_case(value)).ok_or_else(
                        || {
                            let names: Vec<String> = Variant::ALL.iter().map(|&v| variant_name(v)).collect();
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
                    .map_err(|e| format!("bad FEN for {}: {e}", variant_name(self.variant)))?
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

    fn go(&mut self, args: &[&str]) -> Result<Search, String> {
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
            limits.nodes = match (limits.nodes, level_limits.nodes) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            limits.nodes_min_depth = level_limits.nodes_min_depth;
        }
        if !infinite {
            limits.movetime = budget;
            limits.soft_time = if movetime.is_some() { None } else { clock_budget.map(|b| b / 2) };
        }
        if let Some(cap) = self.caps.nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (back, receiver) = mpsc::channel();
        self.running = Some(Running { stop: stop.clone(), infinite, back: receiver });
        Ok(Search { searcher: self.searcher(), positions: self.positions.clone(), limits, stop, infinite, back })
    }
}
