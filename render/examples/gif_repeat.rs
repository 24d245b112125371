//! Encodes the benchmark's game GIF (100 pseudo-random plies at 640 px) `N` times, for timing
//! with the CPU clock where the wall clock is shared with other work:
//!
//! `cargo build --release -p chimera-render --example gif_repeat`, then
//! `/usr/bin/time -f %U target/release/examples/gif_repeat 31` minus the same with `1`, over 30.
//! Set `TEN=1` for the 10x10 game.

use render::{GameGif, Renderer};
use rules::{Game, Position, Variant};

fn main() {
    let variant = if std::env::var_os("TEN").is_some() { Variant::UnicornGreat } else { Variant::Chess };
    let runs: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut game = Game::new(Position::start(variant));
    let mut state = 5u64;
    while game.moves().len() < 100 && game.outcome().is_none() {
        let moves = game.position().legal_moves();
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        game.play(moves[(state >> 33) as usize % moves.len()]).expect("a legal move");
    }
    let renderer = Renderer::new();
    let gif = GameGif::new(&game).players("élodie", "Жора").result("½-½").size(640);
    let mut bytes = 0;
    for _ in 0..runs {
        bytes = std::hint::black_box(renderer.game_gif(&gif)).bytes.len();
    }
    eprintln!("{variant}: {} plies, {bytes} bytes, {runs} runs", game.moves().len());
}
