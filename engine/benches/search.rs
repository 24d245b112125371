//! Search speed per variant (criterion reports nodes per second as elements per second) and the
//! memory one concurrent game's searcher keeps (printed once: the chat uses `CHAT_HASH_MB`).
//!
//! `cargo bench -p chimera-engine --bench search`

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::{Limits, Searcher};
use rules::Variant;

const NODES: u64 = 20_000;
/// The transposition table of one chat game (host's engine games).
const CHAT_HASH_MB: usize = 8;

fn bench(c: &mut Criterion) {
    let memory = Searcher::new(Variant::Chess, CHAT_HASH_MB).memory();
    eprintln!("memory per concurrent game (searcher, {CHAT_HASH_MB} MiB table): {} bytes", memory);
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(NODES));
    group.sample_size(10);
    for variant in Variant::ALL {
        let positions = engine::bench::middlegame(variant);
        group.bench_function(variant.id(), |b| {
            b.iter(|| {
                let mut searcher = Searcher::new(variant, 1);
                let limits = Limits { nodes: Some(NODES), ..Limits::default() };
                black_box(searcher.search(&positions, &limits, &AtomicBool::new(false), &mut |_| {}))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
