//! The match harness: plays one player against another in one variant and prints the score
//! with its games and error margin. Openings come from a small set of varied start moves (two
//! random plies from a seed, the same opening played with colours reversed), colours alternate.
//!
//! ```text
//! cargo run --release -p chimera-engine --example match -- VARIANT A B GAMES BUDGET [SEED]
//!   A, B: `level1` .. `level8`, or `greedy` (one ply: the move whose position evaluates best,
//!   a win when one is on the board), or `level8:W=700` (level 8 with one evaluation term
//!   changed: a value by the piece's FEN letter, or `mob.W`, `ctr.W`: the tuning probes of
//!   docs/engine.md), or `level8:params=FILE` (level 8 with the terms a file names, in the
//!   format of `engine::Params::parse`, as `--example tune` writes it), or `uci:SKILL` (an
//!   outside UCI engine at its `Skill Level` SKILL: the program named by `MATCH_UCI_ENGINE`,
//!   with `MATCH_UCI_VARIANT_PATH` as its `VariantPath` and `MATCH_UCI_HASH` as its `Hash`
//!   when set; Fairy-Stockfish for the comparison in docs/engine.md, or another build of
//!   Chimera: `--example uci`)
//!   BUDGET: milliseconds a move, or `nodes=N`: N nodes a move, the same on any machine and
//!   under any load, so that a match measures the search and not the machine
//! ```
//!
//! With `MATCH_SPRT=ELO0,ELO1` (for example `0,5`) the match is a sequential probability ratio
//! test of "A is ELO1 stronger than B" against "ELO0": it stops as soon as the log-likelihood
//! ratio leaves [-2.94, 2.94] (5% false positives, 5% false negatives), GAMES at most. The
//! ratio is the usual normal approximation over game pairs (each opening played with both
//! colours), whose variance takes the openings' own bias into account.
//!
//! A game ends by the rules (mate, stalemate, a taken Ghost King, a losing Grolman turn,
//! insufficient material), by a claimable draw (threefold repetition, fifty moves), or is
//! adjudicated a draw after 400 plies.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::rng::Rng;
use engine::{Evaluator, Level, Limits, Params, Searcher};
use rules::{Color, Game, Move, Position, Variant};

#[derive(Clone, Debug)]
enum Kind {
    Level(Level),
    Greedy,
    /// Level 8 with other evaluation terms (one value, or a file's).
    Tuned(Box<Params>),
    /// An outside UCI engine at this `Skill Level`.
    Uci(u32),
}

struct Player {
    kind: Kind,
    searcher: Option<Searcher>,
    eval: Evaluator,
    uci: Option<UciEngine>,
}

/// An outside engine spoken to over UCI, one process per game.
struct UciEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl UciEngine {
    fn start(variant: Variant, skill: u32) -> UciEngine {
        let path = std::env::var("MATCH_UCI_ENGINE").expect("uci:SKILL needs MATCH_UCI_ENGINE, the engine's path");
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut engine = UciEngine { child, input, output };
        engine.send("uci");
        engine.wait_for("uciok");
        if let Ok(ini) = std::env::var("MATCH_UCI_VARIANT_PATH") {
            engine.send(&format!("setoption name VariantPath value {ini}"));
        }
        if let Ok(mb) = std::env::var("MATCH_UCI_HASH") {
            engine.send(&format!("setoption name Hash value {mb}"));
        }
        engine.send(&format!("setoption name UCI_Variant value {}", uci_variant(variant)));
        engine.send(&format!("setoption name Skill Level value {skill}"));
        engine.send("setoption name Threads value 1");
        engine.send("ucinewgame");
        engine.send("isready");
        engine.wait_for("readyok");
        engine
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).expect("the engine reads its input");
    }

    /// Reads lines up to the first that starts with `word`, and returns it.
    fn wait_for(&mut self, word: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let read = self.output.read_line(&mut line).expect("the engine's output");
            assert!(read > 0, "the engine closed its output before `{word}`");
            if line.split_whitespace().next() == Some(word) {
                return line.trim().to_owned();
            }
        }
    }

    fn best(&mut self, game: &Game, budget: Budget) -> Option<Move> {
        let mut pos = game.start().clone();
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|m| {
                let text = pos.coord_token(m);
                pos.play_unchecked(m);
                text
            })
            .collect();
        self.send(&format!("position startpos moves {}", moves.join(" ")));
        match budget {
            Budget::Time(movetime) => self.send(&format!("go movetime {}", movetime.as_millis())),
            Budget::Nodes(nodes) => self.send(&format!("go nodes {nodes}")),
        }
        let line = self.wait_for("bestmove");
        let text = line.split_whitespace().nth(1)?;
        if text == "(none)" {
            return None;
        }
        let m = game.position().parse_coord(text).unwrap_or_else(|e| panic!("the engine's `{text}`: {e}"));
        Some(m)
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

/// The variant's `UCI_Variant` name, as Fairy-Stockfish and Chimera spell it: its id without
/// hyphens (Fairy-Stockfish plays only chess and, given its variant file, unicorngreat).
fn uci_variant(variant: Variant) -> String {
    variant.id().replace('-', "")
}

/// What each player may spend on a move.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Time(Duration),
    Nodes(u64),
}

impl std::str::FromStr for Budget {
    type Err = String;

    fn from_str(text: &str) -> Result<Budget, String> {
        let number = |n: &str| n.parse::<u64>().map_err(|_| format!("`{text}`: milliseconds or nodes=N"));
        match text.strip_prefix("nodes=") {
            Some(n) => Ok(Budget::Nodes(number(n)?.max(1))),
            None => Ok(Budget::Time(Duration::from_millis(number(text)?))),
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Time(t) => write!(f, "{} ms", t.as_millis()),
            Budget::Nodes(n) => write!(f, "{n} nodes"),
        }
    }
}

/// The expected score of a player `elo` points stronger.
fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The log-likelihood ratio of "A is `elo1` stronger" against "`elo0`", from the scores of
/// game pairs (each 0 to 1), in the normal approximation: the pairs' mean and variance stand
/// in for the unknown distribution of a pair's result.
fn llr(pairs: &[f64], elo0: f64, elo1: f64) -> f64 {
    let n = pairs.len() as f64;
    let mean = pairs.iter().sum::<f64>() / n;
    let var = pairs.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected(elo0), expected(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

impl Player {
    fn new(kind: Kind, variant: Variant) -> Player {
        let eval = match &kind {
            Kind::Tuned(params) => Evaluator::with_params(variant, (**params).clone()),
            _ => Evaluator::new(variant),
        };
        let searcher = match kind {
            Kind::Level(_) | Kind::Tuned(..) => Some(Searcher::with_evaluator(eval.clone(), 8)),
            Kind::Greedy | Kind::Uci(_) => None,
        };
        let uci = match kind {
            Kind::Uci(skill) => Some(UciEngine::start(variant, skill)),
            _ => None,
        };
        Player { kind, searcher, eval, uci }
    }

    fn choose(&mut self, game: &Game, budget: Budget, rng: &mut Rng) -> Option<Move> {
        let pos = game.position();
        match self.kind {
            Kind::Level(_) | Kind::Tuned(_) => {
                let level = match self.kind {
                    Kind::Level(level) => level,
                    _ => Level::MAX,
                };
                let limits = match budget {
                    Budget::Time(movetime) => level.limits(movetime, rng.next_u64()),
                    // The level's depth cap, node budget and deliberate mistakes, on no clock:
                    // N nodes, or the level's own budget where it is smaller.
                    Budget::Nodes(nodes) => Limits {
                        nodes: Some(level.nodes().map_or(nodes, |own| own.min(nodes))),
                        movetime: None,
                        soft_time: None,
                        ..level.limits(Duration::MAX, rng.next_u64())
                    },
                };
                let searcher = self.searcher.as_mut().expect("a searcher");
                searcher.search(game.positions(), &limits, &AtomicBool::new(false), &mut |_| {}).best
            }
            Kind::Uci(_) => self.uci.as_mut().expect("an engine").best(game, budget),
            Kind::Greedy => {
                let us = pos.turn();
                let moves = pos.legal_moves();
                let value = |m: &Move| {
                    let after = pos.after(m);
                    match after.outcome() {
                        Some(o) if o.winner() == Some(us) => 1_000_000,
                        Some(o) if o.winner() == Some(!us) => -1_000_000,
                        Some(_) => 0,
                        None => -self.eval.evaluate(&after),
                    }
                };
                let best = moves.iter().map(value).max()?;
                let top: Vec<&Move> = moves.iter().filter(|m| value(m) == best).collect();
                Some(*top[rng.below(top.len() as u64) as usize])
            }
        }
    }
}

fn parse_kind(variant: Variant, text: &str) -> Kind {
    if text == "greedy" {
        return Kind::Greedy;
    }
    if let Some(skill) = text.strip_prefix("uci:") {
        return Kind::Uci(skill.parse().expect("uci:SKILL, a Skill Level"));
    }
    if let Some(tuned) = text.strip_prefix("level8:") {
        // `params=FILE`: the file's terms; `W=700` (any other key): that one term.
        let base = Params::for_variant(variant);
        let params = match tuned.strip_prefix("params=") {
            Some(path) => {
                let file = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("level8:params={path}: {e}"));
                Params::parse(variant, base, &file).unwrap_or_else(|e| panic!("level8:params={path}: {e}"))
            }
            None => Params::parse(variant, base, tuned).unwrap_or_else(|e| panic!("{text}: {e}")),
        };
        return Kind::Tuned(Box::new(params));
    }
    let n: i64 = text.strip_prefix("level").and_then(|n| n.parse().ok()).expect("levelN or greedy");
    Kind::Level(Level::new(n).expect("a level 1..8"))
}

/// Plays one game; the score is White's (1, ½, 0).
fn play(
    variant: Variant,
    opening: &[Move],
    white: &mut Player,
    black: &mut Player,
    budget: Budget,
    rng: &mut Rng,
) -> f64 {
    let mut game = Game::new(Position::start(variant));
    for m in opening {
        game.play(*m).expect("opening move legal");
    }
    while game.outcome().is_none() && game.claimable_draw().is_none() && game.moves().len() < 400 {
        let player = if game.position().turn() == Color::White { &mut *white } else { &mut *black };
        let Some(m) = player.choose(&game, budget, rng) else { break };
        game.play(m).expect("players play legal moves");
    }
    if std::env::var_os("MATCH_SHOW").is_some() {
        let mut pos = game.start().clone();
        let line: Vec<String> = game
            .moves()
            .iter()
            .map(|m| {
                let t = pos.san(m);
                pos.play_unchecked(m);
                t
            })
            .collect();
        eprintln!("{:?} {}", game.outcome(), line.join(" "));
    }
    match game.outcome().and_then(|o| o.winner()) {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: match VARIANT A B GAMES MOVETIME_MS|nodes=N [SEED]");
        std::process::exit(2);
    }
    let variant: Variant = args[0].parse().expect("a variant id");
    let (a, b) = (parse_kind(variant, &args[1]), parse_kind(variant, &args[2]));
    let games: usize = args[3].parse().expect("games");
    let budget: Budget = args[4].parse().unwrap_or_else(|e| panic!("BUDGET {e}"));
    let sprt: Option<(f64, f64)> = std::env::var("MATCH_SPRT").ok().map(|text| {
        let (a, b) = text.split_once(',').expect("MATCH_SPRT=ELO0,ELO1");
        (a.trim().parse().expect("ELO0"), b.trim().parse().expect("ELO1"))
    });
    let bound = (0.95f64 / 0.05).ln();
    let mut sprt_llr = 0.0;
    let seed: u64 = args.get(5).map_or(1, |s| s.parse().expect("seed"));
    let mut rng = Rng::new(seed);
    let mut scores = Vec::new();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut book = Vec::new();
    for g in 0..games {
        if g % 2 == 0 {
            book = engine::opening::sane(variant, 2, &mut rng);
        }
        let (mut pa, mut pb) = (Player::new(a.clone(), variant), Player::new(b.clone(), variant));
        let a_score = if g % 2 == 0 {
            play(variant, &book, &mut pa, &mut pb, budget, &mut rng)
        } else {
            1.0 - play(variant, &book, &mut pb, &mut pa, budget, &mut rng)
        };
        match a_score {
            s if s > 0.75 => wins += 1,
            s if s < 0.25 => losses += 1,
            _ => draws += 1,
        }
        scores.push(a_score);
        eprintln!("game {}: {} {a_score}", g + 1, if g % 2 == 0 { "A white" } else { "A black" });
        if let Some((elo0, elo1)) = sprt.filter(|_| g % 2 == 1) {
            let pairs: Vec<f64> = scores.chunks(2).map(|p| (p[0] + p[1]) / 2.0).collect();
            sprt_llr = llr(&pairs, elo0, elo1);
            eprintln!("LLR {sprt_llr:.2} [{:.2}, {bound:.2}] after {} pairs", -bound, pairs.len());
            if sprt_llr.abs() >= bound {
                break;
            }
        }
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let margin = 1.96 * (var / n).sqrt();
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(0.001, 0.999) - 1.0).log10();
    println!(
        "{variant} {} vs {} at {budget}: {:.1}/{} = {:.1}% ± {:.1}% (+{wins} ={draws} -{losses}), Elo {:+.0} [{:+.0}, {:+.0}]",
        args[1],
        args[2],
        mean * n,
        scores.len(),
        mean * 100.0,
        margin * 100.0,
        elo(mean),
        elo(mean - margin),
        elo(mean + margin)
    );
    if let Some((elo0, elo1)) = sprt {
        let verdict = if sprt_llr >= bound {
            "H1 accepted"
        } else if sprt_llr <= -bound {
            "H0 accepted"
        } else {
            "inconclusive"
        };
        println!("SPRT [{elo0}, {elo1}]: LLR {sprt_llr:.2} [{:.2}, {bound:.2}], {verdict}", -bound);
    }
}
