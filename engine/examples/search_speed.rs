//! Search speed as a small standalone program: searches a fixed number of nodes in a
//! middlegame of every variant, for timing builds against each other (`hyperfine`).
//!
//! ```text
//! cargo run --release -p chimera-engine --example search_speed -- [NODES] [--baseline]
//! ```
//!
//! Prints each variant's nodes per second on stderr and the total node count on stdout.
//! `--baseline` runs the code compiled for any x86-64 even where the CPU has the wide
//! instructions (`rules::cpu`).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use engine::{Limits, Searcher};
use rules::Variant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--baseline") {
        args.remove(i);
        rules::cpu::force_baseline();
    }
    let nodes = args.first().map_or(200_000, |n| n.parse().expect("NODES: a number"));
    let mut total = 0;
    for variant in Variant::ALL {
        let positions = engine::bench::middlegame(variant);
        let mut searcher = Searcher::new(variant, 16);
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let start = Instant::now();
        let result = searcher.search(&positions, &limits, &AtomicBool::new(false), &mut |_| {});
        let seconds = start.elapsed().as_secs_f64();
        eprintln!("{:<14} {:>9} nodes  {:>9.0} nodes/s", variant.id(), result.nodes, result.nodes as f64 / seconds);
        total += result.nodes;
    }
    println!("{total}");
}
