//! Results as games end: what a finished game means for its pairing, and forfeits.

use data::{Format, Game, GameResult, GameState, Pairing, PairingResult, PlayerId, TournamentId, WriteTx};

/// Settles the pairing of a game that just finished, in the transaction that finished it.
///
/// Storage has already copied the game's result to the pairing (turned round for a decider).
/// Only a knockout needs more: a drawn first game leaves the pairing undecided, so that a
/// decider follows; a drawn decider sends its Black through (Armageddon), and Black of the
/// decider is the pairing's White.
pub(crate) fn settle(tx: &WriteTx<'_>, game: &Game) -> data::Result<()> {
    let Some(pairing) = game.pairing else { return Ok(()) };
    if game.result != Some(GameResult::Draw) {
        return Ok(());
    }
    let paired = tx.pairing(pairing)?;
    let tournament = tx.tournament(tx.round(paired.round)?.tournament)?;
    if tournament.format != Format::Knockout {
        return Ok(());
    }
    let decider = is_decider(&paired, game);
    let result = decider.then_some(PairingResult::WhiteWins);
    tx.set_pairing_result(pairing, result)?;
    Ok(())
}

/// Whether `game` is the decider of `pairing`: played in its colours reversed.
pub(crate) fn is_decider(pairing: &Pairing, game: &Game) -> bool {
    pairing.white != game.white
}

/// What a withdrawal did to the withdrawn player's unfinished pairing.
pub(crate) struct Forfeit {
    pub pairing: Pairing,
    /// The game that was stopped, if one was running.
    pub game: Option<Game>,
}

/// Forfeits `player`'s unfinished pairing in the tournament's current round to the opponent:
/// a running game is stopped (aborted, so it is neither rated nor scored as a game) and the
/// pairing scores a forfeit win for the other player.
pub(crate) fn forfeit(
    tx: &WriteTx<'_>,
    tournament: TournamentId,
    player: PlayerId,
    reason: &str,
    now: i64,
) -> data::Result<Option<Forfeit>> {
    let rounds = tx.rounds(tournament)?;
    let Some(round) = rounds.last() else { return Ok(None) };
    let open = round.pairings.iter().find(|p| p.result.is_none() && (p.white == player || p.black == Some(player)));
    let Some(pairing) = open else { return Ok(None) };
    let Some(_) = pairing.black else { return Ok(None) };
    let mut stopped = None;
    if let Some(id) = pairing.game {
        let game = tx.game(id)?;
        if game.state == GameState::Active {
            stopped = Some(tx.abort_game(id, reason, now)?);
        }
    }
    let result =
        if pairing.white == player { PairingResult::BlackWinsByForfeit } else { PairingResult::WhiteWinsByForfeit };
    let pairing = tx.set_pairing_result(pairing.id, Some(result))?;
    Ok(Some(Forfeit { pairing, game: stopped }))
}
