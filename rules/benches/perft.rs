//! Perft from each variant's start position, the last ply counted in bulk as `chimera perft`
//! does. Criterion reports the rate in nodes per second (`thrpt`, in elements/s).
//!
//! `cargo bench -p chimera-rules` runs it all in a couple of minutes; a filter picks variants:
//! `cargo bench -p chimera-rules -- werewolf`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rules::{perft, Position, Variant};

/// Depths that take a few tenths of a second each or less.
const CASES: [(Variant, u32); 6] = [
    (Variant::Chess, 5),
    (Variant::UnicornGreat, 4),
    (Variant::Werewolf, 4),
    (Variant::GhostKing, 3),
    (Variant::Golem, 4),
    (Variant::Grolman, 3),
];

fn perft_from_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    for (variant, depth) in CASES {
        let start = Position::start(variant);
        let nodes = perft(&start, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(variant.id(), depth), &start, |b, pos| {
            b.iter(|| perft(black_box(pos), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_from_start);
criterion_main!(benches);
