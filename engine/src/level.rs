//! Levels 1 to 8: how deep and how long Chimera thinks, and the mistakes the weak levels make
//! on purpose. Also the engine's answers to resignation, draw offers and takebacks, so that
//! every front end (chat, UCI) behaves alike.

use std::fmt;
use std::time::Duration;

use crate::search::{Limits, Noise, MATE, MAX_PLY};

/// A playing level, 1 (beginner, blunders on purpose) to 8 (its best in its time budget).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Level(u8);

/// A player's clock when the engine is to move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
}

/// A level outside 1..=8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLevel(pub i64);

impl fmt::Display for BadLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {} does not exist; the levels are 1 (gentlest) to 8 (strongest)", self.0)
    }
}

impl std::error::Error for BadLevel {}

struct Profile {
    depth: Option<u32>,
    amplitude: i32,
    blunder_percent: u32,
    /// Thinking time with no clock.
    think: Duration,
    /// The share of a move's time budget the level uses (percent).
    share: u32,
    /// The nodes a move may cost once [`floor`](Profile::floor) is done: what separates levels
    /// 6, 7 and 8 at any speed (a time share does not: at 50-100 ms a move they all stop near
    /// depth 6 and play alike). `None`: the level's time alone bounds it.
    nodes: Option<u64>,
    /// The depth the level completes within the whole budget even when its share or its nodes
    /// have run out, so that a small budget on a slow board (10x10, Ghost King Chess) never
    /// leaves a level as shallow as the one it must beat: level 6 completes depth 4 (level 5's
    /// depth cap), level 7 depth 5 (in Ghost King Chess depth 5 costs more than level 7's
    /// nodes, and with a floor of 4 levels 6 and 7 both stopped at depth 4 and played alike).
    floor: u32,
}

const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

const PROFILES: [Profile; 8] = [
    Profile { depth: Some(1), amplitude: 300, blunder_percent: 30, think: ms(200), share: 100, nodes: None, floor: 0 },
    Profile { depth: Some(1), amplitude: 150, blunder_percent: 12, think: ms(200), share: 100, nodes: None, floor: 0 },
    Profile { depth: Some(2), amplitude: 80, blunder_percent: 5, think: ms(300), share: 100, nodes: None, floor: 0 },
    Profile { depth: Some(3), amplitude: 40, blunder_percent: 2, think: ms(400), share: 100, nodes: None, floor: 0 },
    Profile { depth: Some(4), amplitude: 20, blunder_percent: 0, think: ms(500), share: 100, nodes: None, floor: 0 },
    Profile {
        depth: None,
        amplitude: 0,
        blunder_percent: 0,
        think: ms(700),
        share: 100,
        nodes: Some(LEVEL6_NODES),
        floor: 4,
    },
    Profile {
        depth: None,
        amplitude: 0,
        blunder_percent: 0,
        think: ms(1000),
        share: 100,
        nodes: Some(LEVEL7_NODES),
        floor: 5,
    },
    Profile { depth: None, amplitude: 0, blunder_percent: 0, think: ms(2000), share: 100, nodes: None, floor: 8 },
];

/// Level 6's nodes a move, once depth 4 is done.
pub const LEVEL6_NODES: u64 = 12_000;
/// Level 7's nodes a move, once depth 5 is done.
pub const LEVEL7_NODES: u64 = 40_000;

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);

    pub fn new(n: i64) -> Result<Level, BadLevel> {
        if (1..=8).contains(&n) {
            Ok(Level(n as u8))
        } else {
            Err(BadLevel(n))
        }
    }

    pub fn get(self) -> u8 {
        self.0
    }

    fn profile(self) -> &'static Profile {
        &PROFILES[self.0 as usize - 1]
    }

    /// How long to think for one move: with no clock a fixed time by level; with a clock a
    /// share of the time left plus most of the increment, never more than a fifth of what is
    /// left, and at levels below 8 never more than the level's own time.
    pub fn think_time(self, clock: Option<Clock>) -> Duration {
        let own = self.profile().think;
        let Some(clock) = clock else { return own };
        let share = clock.remaining / 30 + clock.increment * 3 / 4;
        let cap = clock.remaining / 5;
        let budget = share.min(cap);
        let budget = if self.0 < 8 { budget.min(own) } else { budget.min(own * 5) };
        budget.max(ms(10))
    }

    /// The nodes a move may cost at this level (after its floor depth), if it has such a
    /// budget: levels 6 and 7.
    pub fn nodes(self) -> Option<u64> {
        self.profile().nodes
    }

    /// The search limits for a move with `budget` to think; `seed` makes the weak levels'
    /// mistakes reproducible. Levels 6 and 7 also stop at their node budget, once they have
    /// completed depth 4 (level 6) or 5 (level 7).
    pub fn limits(self, budget: Duration, seed: u64) -> Limits {
        let p = self.profile();
        let noise = (p.amplitude > 0 || p.blunder_percent > 0).then_some(Noise {
            amplitude: p.amplitude,
            blunder_percent: p.blunder_percent,
            seed,
        });
        let share = budget / 100 * p.share;
        // The share bounds when a new iteration may start; the floor may use the whole budget.
        let movetime = if p.floor > 0 { budget } else { share };
        Limits {
            depth: p.depth,
            nodes: p.nodes,
            movetime: Some(movetime),
            soft_time: Some(share / 2),
            min_depth: p.floor,
            nodes_min_depth: if p.nodes.is_some() { p.floor } else { 0 },
            noise,
            excluded: Vec::new(),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Resign when the search sees a forced loss, or a deficit of a rook and more (the human side
/// gains nothing from playing it out).
pub fn should_resign(score: i32) -> bool {
    score <= -1000 || score <= -MATE + MAX_PLY as i32
}

/// Accept a draw offer when the engine stands worse by a pawn or more; a level or better
/// position is played on. Not less: a deep enough search gives White a few tenths of a pawn at
/// the start, which is no reason for Black to end a game before it begins.
///
/// ```
/// assert!(!engine::accepts_draw(-40), "the first move's initiative");
/// assert!(engine::accepts_draw(-100) && engine::accepts_draw(-900));
/// assert!(!engine::accepts_draw(0) && !engine::accepts_draw(250));
/// ```
pub fn accepts_draw(score: i32) -> bool {
    score <= -100
}

/// A takeback is granted in unrated games only.
pub fn allows_takeback(rated: bool) -> bool {
    !rated
}
