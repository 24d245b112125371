//! Texel-style tuning of the evaluation for one variant (docs/engine.md, "Texel tuning"): plays
//! self-play games, keeps their quiet positions with the game's result, fits the scale K of the
//! expected score `1 / (1 + 10^(-eval / K))` to the results, then moves each evaluation term of
//! the variant's pieces (material, mobility, centre; the pawn stays at 100 as the anchor) a
//! step at a time (within bounds: a value within -40%..+50% of the engine's, a positional term
//! within 0..=8) while the mean squared error on the training games falls. Every fifth game
//! is held out to show whether the fit carries over to positions it did not see.
//!
//! ```text
//! cargo run --release -p chimera-engine --example tune -- VARIANT GAMES NODES [SEED] [OUT]
//!   GAMES: self-play games to play; NODES: nodes a move for both sides (the search of level 8
//!   with a node limit and no clock, the same on any machine); SEED: the openings (4 random
//!   sane plies, `engine::opening::sane`), default 1; OUT: a file to write the tuned terms to,
//!   in the format `match` reads with `level8:params=OUT`
//! ```
//!
//! Quiet positions: once six plies have followed the opening, the side to move not in check and
//! the move the search chose neither a capture nor a promotion (so the position's static value
//! is not about to be overturned by an exchange the search saw). Deterministic: the same
//! arguments give the same games and the same values.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use engine::rng::Rng;
use engine::texel::{self, Knob, Sample};
use engine::{Evaluator, Limits, Params, Searcher};
use rules::{Color, Game, Position, Role, Variant};

const OPENING_PLIES: usize = 4;
/// Plies after the opening before positions are kept: the engine's first moves out of a random
/// start say little about who wins.
const SKIP_PLIES: usize = 6;
const MAX_PLIES: usize = 400;

/// A kept position and its game's result for White.
struct Record {
    pos: Position,
    result: f64,
}

/// Plays one game at `nodes` a move from a random opening; returns its quiet positions.
fn play(variant: Variant, nodes: u64, rng: &mut Rng) -> Vec<Record> {
    let opening = engine::opening::sane(variant, OPENING_PLIES, rng);
    let mut game = Game::new(Position::start(variant));
    for m in opening {
        game.play(m).expect("opening moves are legal");
    }
    let mut searcher = Searcher::new(variant, 4);
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let mut kept = Vec::new();
    while game.outcome().is_none() && game.claimable_draw().is_none() && game.moves().len() < MAX_PLIES {
        let result = searcher.search(game.positions(), &limits, &AtomicBool::new(false), &mut |_| {});
        let Some(m) = result.best else { break };
        let pos = game.position();
        if game.moves().len() >= OPENING_PLIES + SKIP_PLIES
            && !pos.is_check()
            && !m.is_capture()
            && m.promotion.is_none()
        {
            kept.push(pos.clone());
        }
        game.play(m).expect("the search plays legal moves");
    }
    let result = match game.outcome().and_then(|o| o.winner()) {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    };
    kept.into_iter().map(|pos| Record { pos, result }).collect()
}

/// The records' evaluations from White's side under `params`.
fn samples(variant: Variant, params: &Params, records: &[Record]) -> Vec<Sample> {
    let eval = Evaluator::with_params(variant, params.clone());
    records
        .iter()
        .map(|r| {
            let e = f64::from(eval.evaluate(&r.pos));
            Sample { eval: if r.pos.turn() == Color::White { e } else { -e }, result: r.result }
        })
        .collect()
}

/// What a knob changes.
#[derive(Copy, Clone)]
enum Term {
    Value(Role),
    Mobility(Role),
    Centre(Role),
}

impl Term {
    fn slot(self, params: &mut Params) -> &mut i32 {
        match self {
            Term::Value(r) => &mut params.values[r.index()],
            Term::Mobility(r) => &mut params.mobility[r.index()],
            Term::Centre(r) => &mut params.centre[r.index()],
        }
    }
}

/// The terms that matter in the variant: every non-royal piece's other than the pawn's (the
/// anchor), with the step and bounds each moves by.
fn knobs(variant: Variant, params: &Params) -> (Vec<Term>, Vec<Knob>) {
    let mut terms = Vec::new();
    for &role in variant.roles().iter().filter(|r| !r.is_royal() && **r != Role::Pawn) {
        terms.extend([Term::Value(role), Term::Mobility(role), Term::Centre(role)]);
    }
    let mut base = params.clone();
    let knobs = terms
        .iter()
        .map(|t| {
            let value = *t.slot(&mut base);
            // Bounds keep a few hundred games from fitting noise with absurd values: a
            // value within -40%..+50% of the engine's, a positional term within 0..=8.
            match t {
                Term::Value(_) => Knob { value, step: 10, min: value * 6 / 10, max: value * 3 / 2 },
                Term::Mobility(_) | Term::Centre(_) => Knob { value, step: 1, min: 0, max: 8 },
            }
        })
        .collect();
    (terms, knobs)
}

fn apply(base: &Params, terms: &[Term], knobs: &[Knob]) -> Params {
    let mut params = base.clone();
    for (t, k) in terms.iter().zip(knobs) {
        *t.slot(&mut params) = k.value;
    }
    params
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: tune VARIANT GAMES NODES [SEED] [OUT]");
        std::process::exit(2);
    }
    let variant: Variant = args[0].parse().unwrap_or_else(|_| panic!("`{}` is not a variant id", args[0]));
    let games: usize = args[1].parse().unwrap_or_else(|_| panic!("GAMES `{}` is not a number", args[1]));
    let nodes: u64 = args[2].parse().unwrap_or_else(|_| panic!("NODES `{}` is not a number", args[2]));
    let seed: u64 = args.get(3).map_or(1, |s| s.parse().unwrap_or_else(|_| panic!("SEED `{s}` is not a number")));
    let out = args.get(4);

    let started = Instant::now();
    let mut rng = Rng::new(seed);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let (mut white, mut draws) = (0, 0);
    for g in 0..games {
        let records = play(variant, nodes, &mut rng);
        match records.first().map(|r| r.result) {
            Some(r) if r > 0.75 => white += 1,
            Some(r) if r > 0.25 => draws += 1,
            _ => {}
        }
        if g % 5 == 4 {
            held.extend(records);
        } else {
            train.extend(records);
        }
        if (g + 1) % 10 == 0 {
            eprintln!(
                "{} games, {} positions, {:.0} s",
                g + 1,
                train.len() + held.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    let played = started.elapsed();
    println!(
        "{variant}: {games} games at {nodes} nodes a move, seed {seed} (White won {white}, {draws} drawn, with kept positions); {} training and {} held-out positions; {:.0} s",
        train.len(),
        held.len(),
        played.as_secs_f64()
    );

    let before = Params::for_variant(variant);
    let k = texel::fit_k(&samples(variant, &before, &train), 20.0, 2000.0);
    let (terms, mut knobs) = knobs(variant, &before);
    let (train_after, passes) = texel::descend(&mut knobs, 100, |knobs| {
        texel::mse(&samples(variant, &apply(&before, &terms, knobs), &train), k)
    });
    let after = apply(&before, &terms, &knobs);
    let mse = |params: &Params, records: &[Record]| texel::mse(&samples(variant, params, records), k);
    println!("K = {k:.1}; {passes} passes; {:.0} s tuning", (started.elapsed() - played).as_secs_f64());
    println!("before: {}", before.to_text(variant));
    println!("after:  {}", after.to_text(variant));
    println!("MSE training: {:.6} -> {train_after:.6}", mse(&before, &train));
    println!("MSE held out: {:.6} -> {:.6}", mse(&before, &held), mse(&after, &held));
    if let Some(path) = out {
        let text = format!("# {variant}: tune {games} games, {nodes} nodes, seed {seed}\n{}\n", after.to_text(variant));
        std::fs::write(path, text).unwrap_or_else(|e| panic!("writing {path}: {e}"));
    }
}
