//! The fixed benchmark (`chimera bench`): a set of positions from every variant, each searched
//! to one depth by a fresh searcher. The total node count is the search's signature: it is the
//! same on every run and every machine, and any change to what the search visits changes it. The
//! time taken gives nodes per second.
//!
//! ```
//! let report = engine::bench::run(2);
//! assert_eq!(report.nodes, engine::bench::run(2).nodes);
//! ```

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rules::{Position, Variant};

use crate::{Limits, Searcher};

/// The depth `chimera bench` searches to when none is given: a few seconds in all.
pub const DEFAULT_DEPTH: u32 = 6;

/// The table each position's searcher gets: fixed, since its size changes what the search
/// remembers and so the node count.
const HASH_MB: usize = 16;

/// Positions besides the start positions: openings, middlegames and endings reached by the
/// engine's own play from a few random first moves, so that every variant's pieces and rules
/// (Golem hits, Werewolf conversions, Grolman chains, Ghost King jumps) are exercised.
const FENS: &[(Variant, &str)] = &[
    (Variant::Chess, "rnbqkbnr/pp3p2/2p1p2p/3p2p1/3PP3/P4P1N/1PP3PP/RNBQKB1R w KQkq - 0 6"),
    (Variant::Chess, "r1bq1rk1/pnpp2pp/1p5n/1N1P1p2/QP2PB2/7N/Pb3PPP/2R1KB1R w K - 5 13"),
    (Variant::Chess, "r6r/ppp3kp/5p1p/8/3Q1P2/2P3P1/q1PK3P/7R w - - 2 21"),
    (Variant::Golem, "r1bgk2r/pppppp2/2n2n1b/5Gpp/3P4/1P3P2/P1P1P1PP/RNB1KBNR w KQkq - 5 6"),
    (Variant::Golem, "2b1kb1r/Hppgppp1/3p4/3P3P/4n3/7P/PPP2P2/R1B1KBNR w KQk - 0 13 g"),
    (Variant::Golem, "r3r1k1/p2pHppp/1p6/2pN3P/3p4/8/PPP1bPP1/R3K3 w Q - 0 21"),
    (Variant::Grolman, "1rnk1r2/1bnpbppp/p1p1p3/qp6/3N1P2/1PP1P3/PB1PBNPP/2RQ1RK1 w - - 0 6"),
    (Variant::Grolman, "r4n2/1bp1pkrp/5b2/2B3p1/pP1Pp3/5NPP/2P1PN2/RK3R2 w - - 0 13"),
    (Variant::Grolman, "8/1b2rk2/p4n1p/1p1p4/1P1B1R2/2N1r3/PK1p2PP/3B4 w - - 0 21"),
    (Variant::GhostKing, "r1bqkb1r/p2n2p1/5p2/3p1n1p/R2Pp3/4P3/1P1N1PPP/1NBQKB1R w kq - 0 13"),
    (Variant::GhostKing, "7r/3n2p1/2p2n2/1p2p1B1/3bP2p/5PkP/2r3PK/1R3B1R w - - 3 21"),
    (Variant::Werewolf, "rnb1kbnr/pp3ppp/2p5/3wN3/8/8/PPPPP1PP/RNBWKB1R w KQkq - 1 6"),
    (Variant::Werewolf, "r1b1kb1r/ppp3p1/2n2n2/3ppp1p/3Pw3/1WP1PN2/P2N1PPP/1RB1KB1R w Kkq - 0 13"),
    (Variant::Werewolf, "rn2k2r/p6p/2p2p2/2P5/Pp2w2P/3n1b2/1P2W2R/RNB1KB2 w Qkq - 0 21"),
    (
        Variant::UnicornGreat,
        "cr1b1kbnrq/pppp1lpp1p/3n1p2p1/4l5/2u1p5/4L5/3P1L2P1/P3PP4/1PP3PP1P/CRNBUKBNRQ w KQkq - 1 6",
    ),
    (
        Variant::UnicornGreat,
        "1r1b1k1nrq/pp2l1p1pp/1cpppp1p2/5u4/5n4/10/1Q2LP2P1/3PP2P2/PPP3P2P/CRN1UKBNR1 w KQkq - 1 13",
    ),
    (
        Variant::UnicornGreat,
        "cr3kb1r1/p1pp2pp1p/3n4q1/1p2npb1p1/3C1p4/2N2P4/4P1N3/5BB3/PPPP2PPPP/1R3K2RQ w KQkq - 2 21",
    ),
];

/// A middlegame-ish game of `variant`, start first: the start after eight plies of the engine's
/// own choice at depth 2, the same on every run. For speed measurements that search one game
/// per variant (`benches/search.rs`, `examples/search_speed.rs`).
pub fn middlegame(variant: Variant) -> Vec<Position> {
    let mut positions = vec![Position::start(variant)];
    let mut searcher = Searcher::new(variant, 1);
    for _ in 0..8 {
        let limits = Limits { depth: Some(2), ..Limits::default() };
        let result = searcher.search(&positions, &limits, &AtomicBool::new(false), &mut |_| {});
        let Some(m) = result.best else { break };
        let next = positions.last().expect("the start at least").after(&m);
        positions.push(next);
    }
    positions
}

/// The benchmark's positions: every variant's start, then [`FENS`].
pub fn positions() -> Vec<Position> {
    let starts = Variant::ALL.into_iter().map(Position::start);
    let others = FENS.iter().map(|&(variant, fen)| {
        Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("bench position {fen}: {e}"))
    });
    starts.chain(others).collect()
}

/// What one run of the benchmark counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub depth: u32,
    pub positions: usize,
    /// Nodes over all positions: the search's signature.
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The report as `chimera bench` prints it, one figure a line.
impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "positions: {}", self.positions)?;
        writeln!(f, "depth: {}", self.depth)?;
        writeln!(f, "nodes: {}", self.nodes)?;
        writeln!(f, "time: {:.3} s", self.elapsed.as_secs_f64())?;
        write!(f, "nodes/s: {}", self.nodes_per_second())
    }
}

impl Report {
    pub fn nodes_per_second(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Searches every benchmark position to `depth`, each with a searcher of its own (so that no
/// position's count depends on the one before), and adds up the nodes.
pub fn run(depth: u32) -> Report {
    let positions = positions();
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let nodes = positions
        .iter()
        .map(|pos| {
            let mut searcher = Searcher::new(pos.variant(), HASH_MB);
            searcher.search(std::slice::from_ref(pos), &limits, &stop, &mut |_| {}).nodes
        })
        .sum();
    Report { depth, positions: positions.len(), nodes, elapsed: start.elapsed() }
}
