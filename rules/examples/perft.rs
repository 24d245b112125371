//! Perft from a variant's start position, as a small standalone program: for timing builds
//! against each other (`hyperfine`) and for running under an emulated CPU (`qemu-x86_64`).
//!
//! ```text
//! cargo run --release -p chimera-rules --example perft -- VARIANT DEPTH [--baseline]
//! ```
//!
//! Prints the count on stdout and the rate on stderr. `--baseline` runs the code compiled for
//! any x86-64 even where the CPU has the wide instructions (`rules::cpu`).

use std::process::ExitCode;
use std::time::Instant;

use rules::{perft, Position, Variant};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--baseline") {
        args.remove(i);
        rules::cpu::force_baseline();
    }
    let [variant, depth] = args.as_slice() else {
        eprintln!("usage: perft VARIANT DEPTH [--baseline]");
        return ExitCode::FAILURE;
    };
    let (Ok(variant), Ok(depth)) = (variant.parse::<Variant>(), depth.parse::<u32>()) else {
        eprintln!("perft: unknown variant or bad depth");
        return ExitCode::FAILURE;
    };
    let start = Instant::now();
    let nodes = perft(&Position::start(variant), depth);
    let seconds = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!("{:.3} s, {:.0} nodes/s", seconds, nodes as f64 / seconds);
    ExitCode::SUCCESS
}
