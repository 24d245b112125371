//! One game's search for puzzles, cut into steps: the cheap pass over its positions (one
//! position a step), then the finder's judgement of each candidate (one candidate a step). The
//! job runs one step at a time on the engine's threads, so that a game against Chimera never
//! waits behind more than one step.
//!
//! What a scan finds is what [`engine::puzzle::Finder::find_in_game`] would find with the same
//! rules: a candidate is a move that lost at least [`Settings::mistake`] and left the opponent
//! at least [`Settings::win`] by the pass's scores, at least four plies after the last puzzle
//! kept, and the finder's [`Finder::judge`] decides. The pass has a searcher of its own, so the
//! answer depends on the game and the settings alone (depth limits, no clock): the same game
//! always gives the same puzzles.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::puzzle::{Finder, Puzzle, Settings};
use engine::{Limits, Searcher, MATE};
use rules::{Position, Variant};

/// The pass's transposition table, in MiB: its searches are shallow.
const PASS_HASH_MB: usize = 4;

/// Mates and centipawns on one scale, as the finder orders them (see `engine::puzzle`).
const MATE_BOUND: i32 = MATE - engine::search::MAX_PLY as i32;

/// A game being scanned: where it is, and what it has found.
pub struct Scan {
    positions: Vec<Position>,
    settings: Settings,
    finder: Finder,
    pass: Searcher,
    /// The pass's score of each position scanned so far, for its side to move (`None`: the game
    /// is over there).
    scores: Vec<Option<i32>>,
    /// The next ply to consider as a candidate, once the pass is done.
    next_candidate: usize,
    found: Vec<Puzzle>,
    /// The CPU time the steps took, as each measured it on its own thread.
    cpu: Duration,
}

impl Scan {
    /// A scan of the game whose positions are `positions` (the start first; `positions[i + 1]`
    /// follows `positions[i]` by the game's move `i`).
    pub fn new(variant: Variant, positions: Vec<Position>, settings: Settings) -> Scan {
        Scan {
            positions,
            finder: Finder::new(variant, settings.clone()),
            pass: Searcher::new(variant, PASS_HASH_MB),
            settings,
            scores: Vec::new(),
            next_candidate: 1,
            found: Vec::new(),
            cpu: Duration::ZERO,
        }
    }

    /// Whether every step is done.
    pub fn is_done(&self) -> bool {
        self.scores.len() == self.positions.len() && self.next_candidate >= self.positions.len()
    }

    /// Does the next step: one position of the pass, or one candidate's judgement. Returns the
    /// CPU time it took on the calling thread.
    pub fn step(&mut self) -> Duration {
        let started = thread_cpu();
        if self.scores.len() < self.positions.len() {
            let i = self.scores.len();
            let score = self.pass_score(i);
            self.scores.push(score);
        } else {
            self.judge_next();
        }
        let spent = thread_cpu().saturating_sub(started);
        self.cpu += spent;
        spent
    }

    /// Runs every step on the calling thread: for tools and measurements.
    pub fn run(mut self) -> (Vec<Puzzle>, Duration) {
        while !self.is_done() {
            self.step();
        }
        self.finish()
    }

    /// What the scan found, and the CPU time its steps took.
    pub fn finish(self) -> (Vec<Puzzle>, Duration) {
        (self.found, self.cpu)
    }

    /// The pass's score of position `i` for its side to move, as the finder's pass scores it.
    fn pass_score(&mut self, i: usize) -> Option<i32> {
        let history = &self.positions[..=i];
        if history.last()?.outcome().is_some() {
            return None;
        }
        let limits = Limits { depth: Some(self.settings.scan_depth), ..Limits::default() };
        let result = self.pass.search(history, &limits, &AtomicBool::new(false), &mut |_| {});
        result.best.map(|_| clamp_mate(result.score))
    }

    /// Judges the next candidate, passing over the plies that are none.
    fn judge_next(&mut self) {
        while self.next_candidate < self.positions.len() {
            let ply = self.next_candidate;
            self.next_candidate += 1;
            let (Some(before), Some(after)) = (self.scores[ply - 1], self.scores[ply]) else { continue };
            // `before` is the mover's view, `after` the opponent's: the mover lost their sum.
            let lost = before.saturating_add(after);
            if lost < self.settings.mistake || after < self.settings.win {
                continue;
            }
            // The same tactic seen again a move later is not a second puzzle.
            if self.found.last().is_some_and(|p| ply < p.ply + 4) {
                continue;
            }
            if let Ok(puzzle) = self.finder.judge(&self.positions[..=ply]) {
                self.found.push(Puzzle { ply, ..puzzle });
            }
            return;
        }
    }
}

fn clamp_mate(score: i32) -> i32 {
    if score.abs() >= MATE_BOUND {
        score.signum() * MATE_BOUND
    } else {
        score
    }
}

/// The CPU time the calling thread has used: what a step costs the machine, whatever else
/// runs beside it.
#[cfg(target_os = "linux")]
fn thread_cpu() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for the call to fill.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Elsewhere, the time since the process started: an upper bound of the thread's CPU time.
#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settings shallow enough for a unit test.
    fn fast() -> Settings {
        Settings { scan_depth: 3, depth: 4, confirm_depth: 5, ..Settings::default() }
    }

    fn game(variant: Variant, fen: &str, moves: &[&str]) -> Vec<Position> {
        let mut positions = vec![Position::from_fen(variant, fen).unwrap()];
        for m in moves {
            let last = positions.last().unwrap();
            let m = last.parse_move(m).unwrap();
            positions.push(last.after(&m));
        }
        positions
    }

    #[test]
    fn the_steps_find_what_the_finder_finds_in_the_whole_game() {
        // The queen steps onto the rook's file (the engine's own planted chess tactic), then
        // a quiet game goes on.
        let positions = game(Variant::Chess, "6k1/5ppp/8/8/q7/8/5PPP/3R2K1 b - - 0 1", &["a4d4"]);
        let whole = Finder::new(Variant::Chess, fast()).find_in_game(&positions);
        let mut scan = Scan::new(Variant::Chess, positions.clone(), fast());
        let mut steps = 0;
        while !scan.is_done() {
            scan.step();
            steps += 1;
        }
        let (found, _) = scan.finish();
        assert_eq!(found, whole);
        assert_eq!(found.len(), 1);
        // Two positions of the pass, one candidate judged.
        assert_eq!(steps, 3);
    }

    #[test]
    fn a_game_without_mistakes_gives_nothing() {
        let positions = game(Variant::Chess, &Position::start(Variant::Chess).fen(), &["e2e4", "e7e5", "g1f3"]);
        let (found, _) = Scan::new(Variant::Chess, positions, fast()).run();
        assert_eq!(found, vec![]);
    }
}
