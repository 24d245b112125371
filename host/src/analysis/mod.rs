//! `/analyse game:N`: the engine's look at a finished game. Every position is searched within
//! a fixed budget on the engine's threads (one position a job, so games against Chimera keep
//! their turns between them); then each move is judged by what it cost its player in winning
//! chances, as lichess does, and four things are said: an evaluation graph with the mistakes
//! marked, the inaccuracies, mistakes and blunders (`?!`, `?`, `??`) with the better move, each
//! player's accuracy, and the score as PGN with those marks and `[%eval]` comments.
//!
//! # Guarantees
//!
//! - One analysis of a game runs at a time in a process; asking again while it runs joins it.
//! - Whoever runs or joins it is shown its [`Progress`] through their own [`crate::Places`]:
//!   the positions searched of the game's, reported as each is done, never going back, and
//!   complete before the reply when the analysis succeeds. Reporting never waits: a joiner
//!   sees the newest step, not necessarily each.
//! - A user has at most [`crate::Limits::analyses`] analyses running at once.
//! - A move the engine would have played itself is never marked, so a forced recapture is not.
//! - Where the operator named an outside engine for the game's variant ([`OutsideEngine`]), it
//!   judges; if it fails at any point, Chimera's own engine judges the whole game instead (one
//!   engine's scale throughout), and the answer says which engine judged and why. The kept
//!   analysis names the same judge, so the game's page says it too.

mod outside;

pub use outside::OutsideEngine;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use data::GameId;
use render::{Eval, EvalGraph, Judgement, Mark};
use rules::pgn::{self, Annotation};
use rules::{Color, Outcome, Position};
use tokio::sync::watch;

use super::table::Table;
use super::view::move_number;
use super::{told, Ctx, Handled, Host, Image, Message, Progress, Refusal, Reply, Task, Typed};

/// The deepest an analysis looks at a position, whatever its time.
const DEPTH: u32 = 12;

/// Drops in winning chances (from -1 to 1) that make a move an inaccuracy, a mistake, a blunder:
/// lichess's thresholds.
const THRESHOLDS: [(f64, Judgement); 3] =
    [(0.3, Judgement::Blunder), (0.2, Judgement::Mistake), (0.1, Judgement::Inaccuracy)];

/// The marked moves listed in chat at most; the PGN has them all.
const LISTED: usize = 12;

/// What an analysis found.
#[derive(Clone, Debug)]
pub(crate) struct Analysis {
    /// `evals[i]`: the position after `i` plies, from White's point of view.
    pub evals: Vec<Eval>,
    /// One per move: its judgement, if it was bad, and the engine's move where it differs.
    pub moves: Vec<Judged>,
    /// White's and Black's accuracy, in percent (`None` for a side that never moved).
    pub accuracy: [Option<f64>; 2],
    pub judge: Judge,
}

/// The engine that judged a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Judge {
    /// Chimera's own engine, the only one set for the variant.
    Chimera,
    /// The outside engine set for the variant, by the name it gave.
    Outside(String),
    /// Chimera's own engine, because the outside one set for the variant failed.
    Instead { outside: String, failed: outside::Failed },
}

impl Judge {
    /// The engine's name as the answer and the PGN's `Annotator` give it.
    fn name(&self) -> String {
        match self {
            Judge::Outside(name) => format!("{}", Typed(name)),
            Judge::Chimera | Judge::Instead { .. } => "Chimera's engine".into(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Judged {
    pub judgement: Option<Judgement>,
    pub better: Option<String>,
}

/// The analyses running in this process, by game, and how many each user has going.
#[derive(Default)]
pub(crate) struct Running {
    games: Mutex<HashMap<GameId, watch::Receiver<Stage>>>,
    users: Mutex<HashMap<(String, String), usize>>,
}

type Shared = Arc<Result<Analysis, String>>;

/// Where a running analysis is, as its joiners see it.
#[derive(Clone)]
enum Stage {
    Searching(Progress),
    Done(Shared),
}

pub(crate) async fn analyse(cx: &Ctx<'_>, game: GameId) -> Handled {
    let table = cx.numbered(game).await?;
    if table.record.game.state != data::GameState::Finished {
        return told(format!("Game {game} is not finished; it can be analysed once it is over."));
    }
    let mine = table.color_of(&cx.user().id).is_some();
    if !mine && table.record.game.pairing.is_none() {
        return told(format!(
            "Only {} and {} may have game {game} analysed (tournament games: anyone).",
            table.name(Color::White),
            table.name(Color::Black)
        ));
    }
    let outside = cx.host.settings().analysis_engines.contains_key(&table.game.start().variant());
    if !cx.host.inner.pool.thinks() && !outside {
        return told("This Chimera runs without the engine (CHIMERA_ENGINE_THREADS=0), so it cannot analyse.");
    }
    let analysis = run_or_join(cx, &table).await?;
    match analysis.as_ref() {
        Ok(analysis) => Ok(reply(cx.host, &table, analysis, cx.look().await.theme)),
        Err(why) => Err(Refusal::Broken(why.clone())),
    }
}

/// Runs the analysis of `table`'s game, or joins the one already running; either way shows
/// its progress to this request's places.
async fn run_or_join(cx: &Ctx<'_>, table: &Table) -> Result<Shared, Refusal> {
    let running = &cx.host.inner.analyses;
    let id = table.id();
    let positions = u32::try_from(table.game.positions().len()).unwrap_or(u32::MAX);
    let started = Progress::new(Task::Analysis { game: id }, 0, positions);
    let who = (cx.platform().to_string(), cx.user().id.clone());
    let sender = match running.register(id, &who, cx.host.settings().limits.analyses, started)? {
        Registered::Running(receiver) => return join(cx, receiver, started).await,
        Registered::New(sender) => sender,
    };
    // Whatever happens below (this future may even be dropped), the game and the user are
    // released: joiners then see the sender gone.
    let _release = Release { running, game: id, user: who };
    let report = |progress: Progress| {
        sender.send_replace(Stage::Searching(progress));
        cx.places.progress(progress);
    };
    report(started);
    let result: Shared = Arc::new(compute(cx.host, table, report).await.map_err(|r| r.text().to_string()));
    if let Ok(analysis) = result.as_ref() {
        // For the game's web page. The analysis itself stands without it: a failure to keep it
        // costs the page its graph, not the player their answer.
        let kept = stored(id, analysis, cx.host.now());
        if let Err(e) = cx.host.store().write(move |tx| tx.save_analysis(&kept)).await {
            tracing::warn!(game = id, "cannot keep the analysis for the web page: {e}");
        }
    }
    sender.send_replace(Stage::Done(Arc::clone(&result)));
    Ok(result)
}

/// What [`Running::register`] found.
enum Registered {
    /// The game's analysis runs already: follow it.
    Running(watch::Receiver<Stage>),
    /// This request runs it, and tells its joiners how it goes.
    New(watch::Sender<Stage>),
}

impl Running {
    /// Finds the game's running analysis, or registers a new one for `user` if they have fewer
    /// than `limit` going. One lock covers both, so two requests never both run it.
    fn register(
        &self,
        game: GameId,
        user: &(String, String),
        limit: usize,
        started: Progress,
    ) -> Result<Registered, Refusal> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(receiver) = games.get(&game) {
            return Ok(Registered::Running(receiver.clone()));
        }
        let mut users = self.users.lock().unwrap_or_else(|e| e.into_inner());
        let going = users.get(user).copied().unwrap_or(0);
        if going >= limit {
            return told(format!(
                "You have {going} analys{} running, as many as one player may: wait for {}.",
                if going == 1 { "is" } else { "es" },
                if going == 1 { "it" } else { "one" }
            ));
        }
        *users.entry(user.clone()).or_default() += 1;
        let (sender, receiver) = watch::channel(Stage::Searching(started));
        games.insert(game, receiver);
        Ok(Registered::New(sender))
    }
}

/// Waits for the analysis `receiver` follows (which `started` at none done), showing its
/// progress as it goes.
async fn join(cx: &Ctx<'_>, mut receiver: watch::Receiver<Stage>, started: Progress) -> Result<Shared, Refusal> {
    let mut shown: Option<Progress> = None;
    loop {
        let stage = receiver.borrow_and_update().clone();
        match stage {
            Stage::Searching(progress) => {
                if shown != Some(progress) {
                    cx.places.progress(progress);
                    shown = Some(progress);
                }
            }
            Stage::Done(result) => {
                // The last steps may have gone by unseen: a joiner too hears that it is complete.
                if result.is_ok() && !shown.is_some_and(|p| p.is_complete()) {
                    cx.places.progress(Progress::new(started.task(), started.total(), started.total()));
                }
                return Ok(result);
            }
        }
        if receiver.changed().await.is_err() {
            return told("The analysis of that game stopped before it finished; ask again.");
        }
    }
}

struct Release<'a> {
    running: &'a Running,
    game: GameId,
    user: (String, String),
}

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.running.games.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.game);
        let mut users = self.running.users.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = users.get_mut(&self.user) {
            *n -= 1;
            if *n == 0 {
                users.remove(&self.user);
            }
        }
    }
}

/// Searches every position of the game, telling `report` of each as it is done, then judges
/// its moves: with the outside engine set for the variant, if any and while it works, else
/// with Chimera's own.
async fn compute(host: &Host, table: &Table, report: impl Fn(Progress)) -> Result<Analysis, Refusal> {
    // A fallback searches the game again from its start: the count shown stays where the
    // failed engine left it until the second search passes it, so progress never goes back.
    let shown = AtomicU32::new(0);
    let report = |progress: Progress| {
        if progress.done() > shown.load(Ordering::Relaxed) {
            shown.store(progress.done(), Ordering::Relaxed);
            report(progress);
        }
    };
    let variant = table.game.start().variant();
    let mut judge = Judge::Chimera;
    if let Some(engine) = host.settings().analysis_engines.get(&variant) {
        match search_outside(host, table, engine, &report).await {
            Ok((name, searched)) => {
                return Ok(judged(table, &searched, Judge::Outside(name)));
            }
            Err((outside, failed)) => {
                tracing::warn!(game = table.id(), engine = %engine.path.display(), "the outside analysis engine failed: {failed}");
                if !host.inner.pool.thinks() {
                    return Err(Refusal::Broken(format!(
                        "the analysis engine {outside} failed ({failed}), and this Chimera runs without its own"
                    )));
                }
                judge = Judge::Instead { outside, failed };
            }
        }
    }
    let searched = search_own(host, table, &report).await?;
    Ok(judged(table, &searched, judge))
}

fn judged(table: &Table, searched: &[(Eval, Option<rules::Move>)], judge: Judge) -> Analysis {
    judge_moves(table.game.positions(), table.game.moves(), searched, judge)
}

/// Every position searched by Chimera's engine on its threads, one position a job.
async fn search_own(
    host: &Host,
    table: &Table,
    report: &impl Fn(Progress),
) -> Result<Vec<(Eval, Option<rules::Move>)>, Refusal> {
    let positions = table.game.positions();
    let budget = host.settings().analysis_budget;
    let total = u32::try_from(positions.len()).unwrap_or(u32::MAX);
    let task = Task::Analysis { game: table.id() };
    let mut searched = Vec::with_capacity(positions.len());
    for i in 0..positions.len() {
        let position = &positions[i];
        if let Some(outcome) = position.outcome() {
            searched.push((terminal(outcome), None));
            report(Progress::new(task, searched.len() as u32, total));
            continue;
        }
        let limits = engine::Limits {
            depth: Some(DEPTH),
            movetime: Some(budget),
            soft_time: Some(budget / 2),
            ..engine::Limits::default()
        };
        let result = host
            .inner
            .pool
            .think(positions[..=i].to_vec(), limits)
            .await
            .ok_or_else(|| Refusal::Broken("the engine's threads are gone".into()))?;
        searched.push((eval_of(engine::Score::from_raw(result.score), position.turn()), result.best));
        report(Progress::new(task, searched.len() as u32, total));
    }
    Ok(searched)
}

/// Every position searched by the outside `engine`, and the name it gave; or what it is called
/// and how it failed.
async fn search_outside(
    host: &Host,
    table: &Table,
    engine: &OutsideEngine,
    report: &impl Fn(Progress),
) -> Result<(String, Vec<(Eval, Option<rules::Move>)>), (String, outside::Failed)> {
    let (start, moves, positions) = (table.game.start(), table.game.moves(), table.game.positions());
    let budget = host.settings().analysis_budget;
    let total = u32::try_from(positions.len()).unwrap_or(u32::MAX);
    let task = Task::Analysis { game: table.id() };
    let mut running = outside::Running::start(engine, start.variant()).await.map_err(|f| (engine.file_name(), f))?;
    let mut searched = Vec::with_capacity(positions.len());
    for (i, position) in positions.iter().enumerate() {
        let eval = match position.outcome() {
            Some(outcome) => (terminal(outcome), None),
            None => match running.search(start, &moves[..i], position, budget).await {
                Ok((score, best)) => (eval_of(score, position.turn()), Some(best)),
                Err(failed) => return Err((running.name.clone(), failed)),
            },
        };
        searched.push(eval);
        report(Progress::new(task, searched.len() as u32, total));
    }
    let name = running.name.clone();
    running.quit().await;
    Ok((name, searched))
}

/// The evaluation of a position the game ended in.
fn terminal(outcome: Outcome) -> Eval {
    match outcome.winner() {
        Some(winner) => Eval::Mate { winner, moves: 0 },
        None => Eval::Centipawns(0),
    }
}

/// A search's score for `turn` as White's evaluation.
fn eval_of(score: engine::Score, turn: Color) -> Eval {
    match score {
        engine::Score::Centipawns(cp) => Eval::Centipawns(if turn == Color::White { cp } else { -cp }),
        engine::Score::Mate(n) => {
            let winner = if n > 0 { turn } else { !turn };
            Eval::Mate { winner, moves: n.unsigned_abs() }
        }
    }
}

/// Judges each move by the winning chances its player lost, from the evaluation before it
/// (the best play there) to the one after.
fn judge_moves(
    positions: &[Position],
    moves: &[rules::Move],
    searched: &[(Eval, Option<rules::Move>)],
    judge: Judge,
) -> Analysis {
    let evals: Vec<Eval> = searched.iter().map(|(e, _)| *e).collect();
    let mut judged = Vec::with_capacity(moves.len());
    let mut accuracy: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (i, played) in moves.iter().enumerate() {
        let (before, best) = (&searched[i].0, searched[i].1.as_ref());
        let mover = positions[i].turn();
        let sign = if mover == Color::White { 1.0 } else { -1.0 };
        let chances = |e: &Eval| sign * e.white_chances();
        let loss = (chances(before) - chances(&evals[i + 1])).max(0.0);
        let engines_own = best.is_some_and(|b| b == played);
        let judgement = if engines_own { None } else { THRESHOLDS.iter().find(|(at, _)| loss >= *at).map(|(_, j)| *j) };
        let better = judgement.and(best).map(|b| positions[i].san(b));
        judged.push(Judged { judgement, better });
        // lichess's accuracy of a move, from the drop in winning percentage.
        let drop = 50.0 * loss;
        let move_accuracy = (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0);
        accuracy[usize::from(mover == Color::Black)].push(move_accuracy);
    }
    let mean = |v: &Vec<f64>| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    Analysis { evals, moves: judged, accuracy: [mean(&accuracy[0]), mean(&accuracy[1])], judge }
}

/// The analysis as the store keeps it.
fn stored(game: GameId, analysis: &Analysis, now: i64) -> data::Analysis {
    let plies = analysis
        .evals
        .iter()
        .enumerate()
        .map(|(i, &eval)| {
            let judged = i.checked_sub(1).and_then(|m| analysis.moves.get(m));
            data::AnalysedPly {
                eval: match eval {
                    Eval::Centipawns(cp) => data::Eval::Centipawns(cp),
                    Eval::Mate { winner, moves } => data::Eval::Mate { winner: data_color(winner), moves },
                },
                judgement: judged.and_then(|j| j.judgement).map(|j| match j {
                    Judgement::Inaccuracy => data::Judgement::Inaccuracy,
                    Judgement::Mistake => data::Judgement::Mistake,
                    Judgement::Blunder => data::Judgement::Blunder,
                }),
                better: judged.and_then(|j| j.better.clone()),
            }
        })
        .collect();
    let judge = match &analysis.judge {
        Judge::Chimera => data::Judge::Chimera,
        Judge::Outside(name) => data::Judge::Outside { name: name.clone() },
        Judge::Instead { outside, .. } => data::Judge::ChimeraInstead { outside: outside.clone() },
    };
    data::Analysis { game, plies, accuracy: analysis.accuracy, judge, analysed_at: now }
}

fn data_color(color: Color) -> data::Color {
    match color {
        Color::White => data::Color::White,
        Color::Black => data::Color::Black,
    }
}

/// The evaluation as `[%eval]` writes it: pawns with two decimals, or `#N` / `#-N`.
fn eval_tag(eval: Eval) -> String {
    match eval {
        Eval::Centipawns(cp) => format!("[%eval {:.2}]", f64::from(cp) / 100.0),
        Eval::Mate { winner, moves } => {
            let sign = if winner == Color::White { "" } else { "-" };
            format!("[%eval #{sign}{moves}]")
        }
    }
}

/// The four things an analysis says: graph (in the asker's `theme`), marked moves, accuracy,
/// annotated PGN.
fn reply(host: &Host, table: &Table, analysis: &Analysis, theme: render::Theme) -> Reply {
    let id = table.id();
    let (white, black) = (table.name(Color::White).0, table.name(Color::Black).0);
    let positions = table.game.positions();
    let mut marks = Vec::new();
    let mut listed = Vec::new();
    let mut annotations = Vec::new();
    for (i, (judged, m)) in analysis.moves.iter().zip(table.game.moves()).enumerate() {
        let mut comment = eval_tag(analysis.evals[i + 1]);
        if let Some(judgement) = judged.judgement {
            marks.push(Mark { ply: i + 1, judgement });
            let san = positions[i].san(m);
            let better = judged.better.as_deref().map(|b| format!(" (better: {b})")).unwrap_or_default();
            listed.push(format!(
                "{} {san}{} {}{better}",
                move_number(i as u32 + 1),
                judgement.symbol(),
                judgement.name()
            ));
            if let Some(better) = &judged.better {
                comment = format!("{comment} {}. {better} was better.", capitalised(judgement.name()));
            }
        }
        annotations.push(Annotation { suffix: judged.judgement.map(Judgement::symbol), comment: Some(comment) });
    }
    let accuracy = |a: Option<f64>| a.map_or("-".to_string(), |a| format!("{a:.0}%"));
    let mut text = format!(
        "Analysis of game {id}, {white} (White) against {black} (Black), by {}, {} ms a position.",
        analysis.judge.name(),
        host.settings().analysis_budget.as_millis(),
    );
    if let Judge::Instead { outside, failed } = &analysis.judge {
        let variant = table.game.start().variant().name();
        text.push_str(&format!(
            " (The {variant} engine set for this Chimera, {}, could not be used: {failed}.)",
            Typed(outside)
        ));
    }
    text.push_str(&format!(
        " Accuracy: {white} {}, {black} {}.",
        accuracy(analysis.accuracy[0]),
        accuracy(analysis.accuracy[1])
    ));
    for judgement in Judgement::ALL {
        let n = marks.iter().filter(|m| m.judgement == judgement).count();
        text.push_str(&format!(" {n} {}", judgement.counted(n)));
        text.push(if judgement == Judgement::Blunder { '.' } else { ',' });
    }
    if listed.is_empty() {
        text.push_str(" No move lost much.");
    } else {
        let more = listed.len().saturating_sub(LISTED);
        text.push('\n');
        text.push_str(&listed.into_iter().take(LISTED).collect::<Vec<_>>().join("\n"));
        if more > 0 {
            text.push_str(&format!("\n… and {more} more, in the PGN."));
        }
    }
    let graph = EvalGraph::new(&analysis.evals)
        .marks(&marks)
        .players(white, black)
        .theme(theme)
        .size(host.settings().board_size);
    let mut summary = Message::text(text);
    match host.inner.renderer.eval_graph_png(&graph) {
        Ok(png) => {
            summary = summary.with_image(Image::png(
                format!("game-{id}-analysis.png"),
                png,
                format!("Evaluation graph of game {id}: White's advantage over the moves, the mistakes marked"),
            ))
        }
        Err(e) => tracing::error!(game = id, "no evaluation graph: {e}"),
    }
    let mut tags = pgn::Tags::new();
    tags.set("Event", &format!("Chimera game {id}, analysed"));
    tags.set("White", &Typed(white).to_string());
    tags.set("Black", &Typed(black).to_string());
    let annotator = match &analysis.judge {
        Judge::Outside(name) => format!("{}, through Chimera", Typed(name)),
        Judge::Chimera | Judge::Instead { .. } => "Chimera".into(),
    };
    tags.set("Annotator", &annotator);
    let score = pgn::write_annotated(&table.ended_game(), &tags, &annotations);
    Reply::one(summary).push(Message::text(format!("```\n{score}```")))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use engine::MATE;

    use super::*;

    #[test]
    fn evaluations_are_written_as_pgn_eval_commands() {
        assert_eq!(eval_tag(Eval::Centipawns(35)), "[%eval 0.35]");
        assert_eq!(eval_tag(Eval::Centipawns(-250)), "[%eval -2.50]");
        assert_eq!(eval_tag(Eval::Mate { winner: Color::White, moves: 3 }), "[%eval #3]");
        assert_eq!(eval_tag(Eval::Mate { winner: Color::Black, moves: 1 }), "[%eval #-1]");
    }

    #[test]
    fn scores_turn_into_white_s_evaluations() {
        let raw = |score| engine::Score::from_raw(score);
        assert_eq!(eval_of(raw(120), Color::Black), Eval::Centipawns(-120));
        assert_eq!(eval_of(raw(MATE - 1), Color::Black), Eval::Mate { winner: Color::Black, moves: 1 });
        assert_eq!(eval_of(raw(-MATE + 2), Color::White), Eval::Mate { winner: Color::Black, moves: 1 });
    }
}
