//! `chimera bench` without building the bot: the fixed benchmark of `engine::bench`, for
//! profiling the engine alone (`valgrind --tool=callgrind`).
//!
//! ```text
//! cargo run --release -p chimera-engine --example bench -- [DEPTH]
//! ```

fn main() {
    let depth = match std::env::args().nth(1) {
        Some(text) => text.parse().unwrap_or_else(|_| panic!("DEPTH `{text}` is not a number")),
        None => engine::bench::DEFAULT_DEPTH,
    };
    println!("{}", engine::bench::run(depth));
}
