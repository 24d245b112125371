//! A server or room Chimera was removed from: a Discord server that kicked or banned it (or was
//! deleted), a Matrix room it was kicked or banned from.
//!
//! What lived there can no longer be reached, so the host stops it rather than ask the network
//! for it again and again:
//!
//! - **Tournaments** there are paused (`arbiter::pause`, reason "lost"): nothing is opened or
//!   paired for them. Invited back, the organiser or a manager resumes one with
//!   `/tournament start`.
//! - **Waiting challenges** there are withdrawn: nobody there can answer them.
//! - **Running games** there are aborted: no result and no rating change. Nobody can move in
//!   them any more, and a clock left running would hand one player a loss on time for
//!   Chimera's absence; a game that stayed on with its clock stopped would hold both players
//!   (and a tournament pairing) for ever.
//! - **The daily puzzle** there is stopped: its post would only be refused. Invited back, a
//!   manager sets it again.
//!
//! Nothing is announced: the place is gone, and the network would refuse the announcement.

use data::{PauseReason, TournamentState};

use super::{Host, HostError};

/// What the loss of a server or room stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lost {
    pub tournaments_paused: usize,
    pub challenges_withdrawn: u64,
    pub games_aborted: usize,
    /// Whether it had a daily puzzle, now stopped.
    pub daily_puzzle_stopped: bool,
}

/// Why the games of a lost place ended, as stored and shown in their history.
const REASON: &str = "Chimera was removed from the server or room";

impl Host {
    /// Chimera was removed from `server` (a Discord guild id; a Matrix room id) of this host's
    /// platform: stops what lived there, in one commit (see the module's docs).
    pub async fn server_lost(&self, server: &str) -> Result<Lost, HostError> {
        let (now, platform, server) = (self.now(), self.settings().platform.clone(), server.to_string());
        let lost = self
            .store()
            .write(move |tx| {
                let mut lost = Lost::default();
                for t in tx.server_tournaments(&platform, &server)? {
                    let live = matches!(t.state, TournamentState::Open | TournamentState::Running);
                    if live && tx.pause_tournament(t.id, PauseReason::Lost, now)? {
                        lost.tournaments_paused += 1;
                    }
                }
                lost.challenges_withdrawn = tx.drop_challenges_in(&platform, &server)?;
                for game in tx.active_games_in(&platform, &server)? {
                    tx.abort_game(game, REASON, now)?;
                    lost.games_aborted += 1;
                }
                lost.daily_puzzle_stopped = tx.stop_daily_puzzle(&platform, &server)?;
                Ok(lost)
            })
            .await
            .map_err(|e| HostError::Broken(format!("cannot stop what lived in a lost server or room: {e}")))?;
        tracing::warn!(
            "Chimera lost a server or room: {} tournament(s) paused, {} challenge(s) withdrawn, {} game(s) aborted{}",
            lost.tournaments_paused,
            lost.challenges_withdrawn,
            lost.games_aborted,
            if lost.daily_puzzle_stopped { ", its daily puzzle stopped" } else { "" }
        );
        Ok(lost)
    }
}
