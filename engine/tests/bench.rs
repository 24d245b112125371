//! The fixed benchmark is a signature of the search: the same count on every run, from
//! positions that cover every variant and where the game goes on.

use engine::bench;
use rules::Variant;

#[test]
fn node_count_is_the_same_on_every_run() {
    let first = bench::run(4);
    let second = bench::run(4);
    assert!(first.nodes > 0);
    assert_eq!(first.nodes, second.nodes);
    assert_eq!(first.positions, bench::positions().len());
}

#[test]
fn a_deeper_bench_counts_more_nodes() {
    assert!(bench::run(3).nodes < bench::run(4).nodes);
}

#[test]
fn positions_cover_every_variant_with_games_going_on() {
    let positions = bench::positions();
    for variant in Variant::ALL {
        let count = positions.iter().filter(|p| p.variant() == variant).count();
        assert!(count >= 3, "{variant:?} has {count} bench positions");
    }
    for pos in &positions {
        assert!(!pos.is_decided() && !pos.legal_moves().is_empty(), "{} is over", pos.fen());
    }
}
