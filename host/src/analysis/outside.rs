//! An outside UCI engine for `/analyse`: a program the operator names for a variant
//! (`CHIMERA_ANALYSIS_ENGINE_CHESS=/usr/games/stockfish`), started for one analysis and ended
//! with it. The protocol's reading and writing are the engine crate's
//! ([`engine::uci::client`]); this runs the process.
//!
//! # Guarantees
//!
//! - The engine is asked about a variant other than chess only if its `UCI_Variant` option
//!   lists it (after the operator's options, so a Fairy-Stockfish given a `VariantPath` counts).
//! - Every way the engine can fail is an [`Failed`] that says what happened: the program
//!   missing or not starting, exiting, closing its output, going silent for longer than it was
//!   given plus [`GRACE`], giving no score, or a best move that is not legal in the position.
//!   The caller then judges with Chimera's own engine.
//! - The process ends with the analysis: `quit` when it is done, killed when it fails or when
//!   the analysis is dropped (`kill_on_drop`), so no engine outlives its analysis.

use std::fmt;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use engine::uci::client::{self, Answer};
use engine::Score;
use rules::{Move, Position, Variant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::{timeout_at, Instant};

/// How long past what it was asked for an engine may take to answer before it counts as hung:
/// enough for a slow start (loading a network file) or a loaded machine.
pub const GRACE: Duration = Duration::from_secs(10);

/// A UCI program the operator named for a variant's analyses, and the options to give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutsideEngine {
    pub path: PathBuf,
    /// `setoption name NAME value VALUE`, in order, before anything is asked.
    pub options: Vec<(String, String)>,
}

impl OutsideEngine {
    pub fn new(path: impl Into<PathBuf>) -> OutsideEngine {
        OutsideEngine { path: path.into(), options: Vec::new() }
    }

    /// The program's file name, to name it before it has said its own name.
    pub fn file_name(&self) -> String {
        self.path.file_name().map_or_else(|| self.path.display().to_string(), |n| n.to_string_lossy().into_owned())
    }
}

/// What went wrong with an outside engine, in words for the player and the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed(pub String);

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn failed<T>(why: impl Into<String>) -> Result<T, Failed> {
    Err(Failed(why.into()))
}

/// A started engine, ready for positions of one variant.
pub struct Running {
    child: Child,
    input: ChildStdin,
    output: Lines<BufReader<ChildStdout>>,
    /// What it calls itself (`id name`), or its file name if it did not say.
    pub name: String,
}

impl Running {
    /// Starts the program and readies it for `variant`.
    pub async fn start(engine: &OutsideEngine, variant: Variant) -> Result<Running, Failed> {
        let mut child = Command::new(&engine.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .or_else(|e| failed(format!("it could not be started ({e})")))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return failed("its input and output could not be opened");
        };
        let mut running = Running { child, input, output: BufReader::new(output).lines(), name: engine.file_name() };
        running.send("uci").await?;
        let deadline = Instant::now() + GRACE;
        running.until(deadline, "`uciok`", |answer| matches!(answer, Answer::UciOk)).await?;
        for (name, value) in &engine.options {
            running.send(&format!("setoption name {name} value {value}")).await?;
        }
        if variant != Variant::Chess {
            // Asked again after the operator's options: a variant file given by one of them
            // adds to the list.
            let name = engine::uci::variant_name(variant);
            running.send("uci").await?;
            let mut listed = false;
            running
                .until(Instant::now() + GRACE, "`uciok`", |answer| {
                    if let Answer::Variants(variants) = &answer {
                        listed |= variants.contains(&name);
                    }
                    matches!(answer, Answer::UciOk)
                })
                .await?;
            if !listed {
                return failed(format!("it does not play {}", variant.name()));
            }
            running.send(&format!("setoption name UCI_Variant value {name}")).await?;
        }
        running.send("ucinewgame").await?;
        running.send("isready").await?;
        running.until(Instant::now() + GRACE, "`readyok`", |answer| matches!(answer, Answer::ReadyOk)).await?;
        Ok(running)
    }

    /// Searches the position after `moves` from `start` (`position`, not yet ended) for
    /// `movetime`: its score for the side to move, and its best move.
    pub async fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        position: &Position,
        movetime: Duration,
    ) -> Result<(Score, Move), Failed> {
        self.send(&client::position_command(start, moves)).await?;
        self.send(&format!("go movetime {}", movetime.as_millis().max(1))).await?;
        let deadline = Instant::now() + movetime + GRACE;
        let mut score = None;
        let mut best = None;
        self.until(deadline, "`bestmove`", |answer| match answer {
            Answer::Score { score: s, .. } => {
                score = Some(s);
                false
            }
            Answer::BestMove(m) => {
                best = Some(m);
                true
            }
            _ => false,
        })
        .await?;
        let Some(score) = score else { return failed("it gave no score") };
        let Some(Some(text)) = best else { return failed("it found no move in a position that has moves") };
        match position.parse_coord(&text) {
            Ok(m) => Ok((score, m)),
            Err(e) => failed(format!("its move `{}` is not playable there ({e})", text.escape_debug())),
        }
    }

    /// Tells the engine to quit, and waits a moment for it; whatever is left is killed.
    pub async fn quit(mut self) {
        if self.send("quit").await.is_ok() {
            let _ = tokio::time::timeout(Duration::from_secs(1), self.child.wait()).await;
        }
    }

    async fn send(&mut self, line: &str) -> Result<(), Failed> {
        let sent = async {
            self.input.write_all(line.as_bytes()).await?;
            self.input.write_all(b"\n").await?;
            self.input.flush().await
        };
        sent.await.or_else(|e| failed(format!("it stopped reading ({e})")))
    }

    /// Reads lines until `done` says one was the last wanted, by `deadline`.
    async fn until(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        mut done: impl FnMut(Answer) -> bool,
    ) -> Result<(), Failed> {
        loop {
            let line = match timeout_at(deadline, self.output.next_line()).await {
                Err(_) => return failed(format!("it did not answer with {waiting_for} in time")),
                Ok(Err(e)) => return failed(format!("its output could not be read ({e})")),
                Ok(Ok(None)) => {
                    let status = match self.child.try_wait() {
                        Ok(Some(status)) => format!(" ({status})"),
                        _ => String::new(),
                    };
                    return failed(format!("it exited before answering with {waiting_for}{status}"));
                }
                Ok(Ok(Some(line))) => line,
            };
            let answer = client::read(&line);
            if let Answer::Name(name) = &answer {
                self.name = name.clone();
            }
            if done(answer) {
                return Ok(());
            }
        }
    }
}
