//! How many puzzles the puzzle job finds per 100 games, and what a game costs it, per variant.
//!
//! ```text
//! cargo run --release -p chimera-host --example puzzle_yield -- [GAMES] [LEVEL] [NODES] [VARIANT..]
//!   GAMES   games per variant (default 20)
//!   LEVEL   the level both sides play at, 1-8 (default 3: a casual player who slips now and then)
//!   NODES   the nodes each move may search (default 20000): the games are the same on any
//!           machine and under any load
//!   VARIANT the variants to measure (default all)
//! ```
//!
//! The games are Chimera against itself at LEVEL, each from its own seed (the level's noise
//! makes its mistakes), a side resigning when its search sees itself lost as Chimera does, and
//! a game stopped as drawn after 200 plies or at a claimable draw. Each finished game is then
//! scanned as the job scans it ([`host::puzzles::Scan`] with the finder's default settings),
//! and its CPU time is what the scan's steps measured on their own thread.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::{should_resign, Level, Searcher};
use host::puzzles::Scan;
use rules::{Game, Position, Variant};

const MAX_PLIES: usize = 200;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).map_or(default, |a| a.parse().expect("a number"));
    let games = number(0, 20) as usize;
    let level = Level::new(number(1, 3) as i64).expect("a level from 1 to 8");
    let nodes = number(2, 20_000);
    let variants: Vec<Variant> = if args.len() > 3 {
        args[3..].iter().map(|v| v.parse().expect("a variant id")).collect()
    } else {
        Variant::ALL.to_vec()
    };
    println!("{games} games a variant, level {level} against itself, {nodes} nodes a move");
    println!("| variant | games | plies a game | puzzles | per 100 games | CPU a game (mean) | CPU a game (max) |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for variant in variants {
        let started = Instant::now();
        let (mut plies, mut found, mut cpu, mut worst) = (0, 0, Duration::ZERO, Duration::ZERO);
        for n in 0..games {
            let game = play(variant, level, nodes, 1 + n as u64);
            plies += game.moves().len();
            let (puzzles, spent) =
                Scan::new(variant, game.positions().to_vec(), engine::puzzle::Settings::default()).run();
            found += puzzles.len();
            cpu += spent;
            worst = worst.max(spent);
        }
        println!(
            "| {} | {games} | {:.0} | {found} | {:.0} | {:.2} s | {:.2} s |",
            variant.id(),
            plies as f64 / games as f64,
            100.0 * found as f64 / games as f64,
            cpu.as_secs_f64() / games as f64,
            worst.as_secs_f64(),
        );
        eprintln!("{}: {:.0} s in all", variant.id(), started.elapsed().as_secs_f64());
    }
}

/// One game of Chimera against itself at `level`, its noise seeded from `seed`.
fn play(variant: Variant, level: Level, nodes: u64, seed: u64) -> Game {
    let mut game = Game::new(Position::start(variant));
    let mut searchers = [Searcher::new(variant, 8), Searcher::new(variant, 8)];
    let stop = AtomicBool::new(false);
    while game.outcome().is_none() && game.claimable_draw().is_none() && game.moves().len() < MAX_PLIES {
        let ply = game.moves().len();
        let mut limits = level.limits(Duration::from_secs(1), seed * 1_000 + ply as u64);
        (limits.nodes, limits.movetime, limits.soft_time) = (Some(nodes), None, None);
        let result = searchers[ply % 2].search(game.positions(), &limits, &stop, &mut |_| {});
        let Some(best) = result.best else { break };
        if should_resign(result.score) {
            break;
        }
        game.play(best).expect("the engine plays legal moves");
    }
    game
}
