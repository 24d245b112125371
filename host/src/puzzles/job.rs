//! The puzzle job: finished games not yet scanned are searched for puzzles, the earliest
//! finished first, one game at a time, one step at a time on the engine's threads.
//!
//! # Guarantees
//!
//! - A game is scanned once: its scan row and its puzzles commit together, and the store keeps
//!   a second scan of the same game (after a restart in the middle of one, or by another
//!   process of the deployment) from writing anything.
//! - A game is scanned by one process of the deployment at a time: the job claims it first
//!   ([`data::WriteTx::claim_game_to_scan`]), for [`CLAIM_MS`], and renews the claim once half
//!   of it has passed. Another process's job passes over a claimed game, and takes it only once
//!   the claim has expired (its process died, or stalled that long); a job whose claim was taken
//!   over so stops scanning that game.
//! - A game against Chimera waits for at most one step of the job: the job sends its next step
//!   to the engine's queue only once the last is done (see `scan.rs` for what a step is).
//! - The job's CPU stays within its budget ([`crate::Settings::puzzle_cpu`], a share of one
//!   core): after a step that took `c` of CPU it sleeps `c × (100 − p) / p`. With a budget of 0,
//!   or without engine threads, it does not run.
//! - A game whose stored moves cannot be replayed is recorded as scanned with no puzzle (and
//!   logged), so that it does not hold up the games behind it; a database failure is retried
//!   later.

use std::time::Duration;

use data::{GameId, NewPuzzle};
use engine::puzzle::{Puzzle, Settings as FinderSettings};

use super::scan::Scan;
use crate::rating::Rating;
use crate::table::Table;
use crate::Host;

/// How long the job waits when no game is left to scan, or after a failure.
const IDLE: Duration = Duration::from_secs(15);

/// How long a claim on a game keeps other processes off it: far longer than a step, so that
/// a live job always renews in time, and short enough that a dead one's game soon goes on.
const CLAIM_MS: i64 = 10 * 60 * 1000;

/// What one game's scan did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scanned {
    pub game: GameId,
    /// Puzzles found in it.
    pub puzzles: usize,
    /// The CPU its steps took, in milliseconds.
    pub cpu_ms: i64,
    /// Whether this scan was the one recorded (`false`: another scan of it came first, or
    /// another process took the game over and this scan stopped).
    pub recorded: bool,
}

/// Why a scan did not happen: the database, or the engine's threads.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ScanError(String);

impl From<data::Error> for ScanError {
    fn from(e: data::Error) -> ScanError {
        ScanError(e.to_string())
    }
}

impl Host {
    /// Scans the next finished game not yet scanned, at full speed; `None` when no game waits.
    /// For tests and tools; the running bot paces itself with [`Host::run_puzzle_job`].
    pub async fn scan_next_game(&self) -> Result<Option<Scanned>, ScanError> {
        self.scan_next(None).await
    }

    /// Runs the puzzle job until the host is dropped, within the CPU budget of the settings.
    /// Returns at once when the budget is 0 or this process has no engine threads.
    pub async fn run_puzzle_job(&self) {
        let percent = self.settings().puzzle_cpu.min(100);
        if percent == 0 || !self.inner.pool.thinks() {
            return;
        }
        tracing::info!(percent, "the puzzle job runs");
        loop {
            match self.scan_next(Some(percent)).await {
                Ok(Some(scanned)) => {
                    tracing::debug!(game = scanned.game, puzzles = scanned.puzzles, cpu_ms = scanned.cpu_ms, "scanned")
                }
                Ok(None) => tokio::time::sleep(IDLE).await,
                Err(e) => {
                    tracing::warn!("the puzzle job failed, and tries again later: {e}");
                    tokio::time::sleep(IDLE).await;
                }
            }
        }
    }

    /// Claims and scans the next game, sleeping after each step as `percent` asks (`None`: no
    /// pause).
    async fn scan_next(&self, percent: Option<u32>) -> Result<Option<Scanned>, ScanError> {
        let (holder, now) = (self.inner.holder.clone(), self.now());
        let claimed = self.store().write(move |tx| tx.claim_game_to_scan(&holder, now, now + CLAIM_MS)).await?;
        let Some(game) = claimed else { return Ok(None) };
        let found = self
            .store()
            .read(move |tx| {
                let record = tx.game_record(game)?;
                let (white, black) = (tx.player(record.game.white)?, tx.player(record.game.black)?);
                Ok((record, white, black))
            })
            .await?;
        let (found, cpu) = match Table::new(found.0, found.1, found.2) {
            Ok(table) => {
                let positions = table.game.positions().to_vec();
                let scan = Scan::new(table.variant(), positions, FinderSettings::default());
                match self.scan_steps(game, now, scan, percent).await? {
                    Steps::Done(found, cpu) => (found, cpu),
                    Steps::TakenOver(cpu) => {
                        tracing::info!(game, "another process took the game's scan over: this one stops");
                        let cpu_ms = i64::try_from(cpu.as_millis()).unwrap_or(i64::MAX);
                        return Ok(Some(Scanned { game, puzzles: 0, cpu_ms, recorded: false }));
                    }
                }
            }
            Err(refusal) => {
                tracing::warn!(game, "a game that cannot be replayed is left without puzzles: {}", refusal.text());
                (Vec::new(), Duration::ZERO)
            }
        };
        let puzzles: Vec<NewPuzzle> = found.iter().map(new_puzzle).collect();
        let cpu_ms = i64::try_from(cpu.as_millis()).unwrap_or(i64::MAX);
        let now = self.now();
        let recorded = self.store().write(move |tx| tx.record_scan(game, &puzzles, cpu_ms, now)).await?;
        Ok(Some(Scanned { game, puzzles: found.len(), cpu_ms, recorded }))
    }

    /// Runs `scan` of `game`, claimed at `claimed`, one step at a time on the engine's threads,
    /// renewing the claim whenever half of it has passed.
    async fn scan_steps(
        &self,
        game: GameId,
        mut claimed: data::Millis,
        mut scan: Scan,
        percent: Option<u32>,
    ) -> Result<Steps, ScanError> {
        let mut cpu = Duration::ZERO;
        while !scan.is_done() {
            let now = self.now();
            if now - claimed >= CLAIM_MS / 2 {
                let holder = self.inner.holder.clone();
                let renewed =
                    self.store().write(move |tx| tx.renew_scan_claim(game, &holder, now, now + CLAIM_MS)).await?;
                if !renewed {
                    return Ok(Steps::TakenOver(cpu));
                }
                claimed = now;
            }
            let (back, spent) = self
                .inner
                .pool
                .run(move || {
                    let spent = scan.step();
                    (scan, spent)
                })
                .await
                .ok_or_else(|| ScanError("the engine's threads are gone".into()))?;
            scan = back;
            cpu += spent;
            if let Some(percent) = percent {
                tokio::time::sleep(pause(spent, percent)).await;
            }
        }
        let (found, total) = scan.finish();
        Ok(Steps::Done(found, total))
    }
}

/// How a game's steps ended.
enum Steps {
    /// Every step ran: the puzzles found and the CPU they took.
    Done(Vec<Puzzle>, Duration),
    /// Another process took the game over (this one's claim had expired): the CPU spent.
    TakenOver(Duration),
}

/// The sleep after a step that took `spent` of CPU, for the job to use `percent` of one core.
fn pause(spent: Duration, percent: u32) -> Duration {
    let percent = percent.clamp(1, 100);
    spent * (100 - percent) / percent
}

/// A found puzzle as the store keeps it: its position, its line as coordinates, and a fresh
/// rating.
fn new_puzzle(puzzle: &Puzzle) -> NewPuzzle {
    let mut position = puzzle.position.clone();
    let mut solution = Vec::with_capacity(puzzle.solution.len());
    for m in &puzzle.solution {
        solution.push(position.coord(m));
        position = position.after(m);
    }
    let fresh = Rating::default();
    NewPuzzle {
        ply: u32::try_from(puzzle.ply).unwrap_or(u32::MAX),
        fen: puzzle.position.fen(),
        solution,
        glicko: data::Glicko { rating: fresh.rating, deviation: fresh.deviation, volatility: fresh.volatility },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_keeps_the_share_of_one_core() {
        let step = Duration::from_millis(30);
        assert_eq!(pause(step, 25), Duration::from_millis(90), "30 of 120 ms is 25%");
        assert_eq!(pause(step, 100), Duration::ZERO);
        assert_eq!(pause(step, 50), step);
        assert_eq!(pause(step, 250), Duration::ZERO, "more than one core is one core");
    }
}
