//! Direct messages on one's turn: a player who asked for them (`/settings notify:on`) is written to
//! directly when it becomes their move in a correspondence game; during their quiet hours, when
//! those end. Live games need none: their players are at the board.
//!
//! What it guarantees:
//!
//! - **None lost.** A notice is queued in the transaction of the move (or the start) that makes
//!   it the player's turn, due at once or at the end of their quiet hours as they stand then.
//! - **At most one per turn.** One notice per game and ply is kept, and a due one is claimed by
//!   one process ([`data::WriteTx::claim_turn_notices`]), which queues the message in the
//!   outbox in the same transaction: the outbox then posts it once (its key is the network's
//!   idempotency key).
//! - **Never about a turn that is over.** When a notice comes due it is dropped, unsent, if the
//!   game has ended or moved on since, or the player has turned the messages off meanwhile.

use data::{GameId, Millis, Player, PlayerId, TurnNotice, WriteTx};

use super::outbox::Picture;
use super::stored::{self, Terms};
use super::table::Table;
use super::{personal, Host, Message, Refusal, Typed};

/// Notices claimed and sent per tick at most; the rest wait for the next.
const BATCH: u32 = 32;

/// The turn a move makes, when its player may want a notice: a person's, in a correspondence
/// game. Worked out before the move's transaction, which then only [`NextTurn::queue`]s it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NextTurn {
    game: GameId,
    player: PlayerId,
    ply: u32,
}

impl NextTurn {
    /// The turn after the move that brings `table` to `ply` plies.
    pub fn after(table: &Table, ply: u32) -> Option<NextTurn> {
        // The first mover's turn on even plies.
        let to_move = if ply.is_multiple_of(2) { table.first() } else { !table.first() };
        let correspondence = table.time_control().is_some_and(|time| !time.is_live());
        let player = table.player(to_move);
        (correspondence && stored::user(player).engine_level().is_none()).then_some(NextTurn {
            game: table.id(),
            player: player.id,
            ply,
        })
    }

    /// The first turn of `game`, just started (White moves first).
    pub fn first(game: &data::Game, first: &Player) -> Option<NextTurn> {
        let correspondence = game.time_control().ok().flatten().is_some_and(|time| !time.is_live());
        (correspondence && stored::user(first).engine_level().is_none()).then_some(NextTurn {
            game: game.id,
            player: first.id,
            ply: 0,
        })
    }

    /// Queues its notice in the caller's transaction, if the player asked for them: due now, or
    /// when their quiet hours end.
    pub fn queue(&self, tx: &WriteTx<'_>, now: Millis) -> data::Result<()> {
        let settings = tx.user_settings(self.player)?;
        if !settings.turn_dm {
            return Ok(());
        }
        let due_at = personal::quiet_until(&settings, now).unwrap_or(now);
        tx.queue_turn_notice(&TurnNotice { game: self.game, ply: self.ply, player: self.player, due_at })
    }
}

/// Sends the notices due now: each still about the current turn becomes a direct message in
/// the outbox, in the transaction that claims it.
pub(super) async fn send_due(host: &Host) -> Result<(), Refusal> {
    let (now, platform) = (host.now(), host.settings().platform.clone());
    let due = {
        let platform = platform.clone();
        host.store().read(move |tx| tx.has_turn_notices(&platform, now)).await?
    };
    if !due {
        return Ok(());
    }
    let (outbox, link) = (host.outbox(), host.settings().channel_link);
    host.store()
        .write(move |tx| {
            for notice in tx.claim_turn_notices(&platform, now, BATCH)? {
                let game = tx.game(notice.game)?;
                let current = game.state == data::GameState::Active
                    && tx.ply_count(game.id)? == notice.ply
                    && game.color_of(notice.player).is_some();
                if !current || !tx.user_settings(notice.player)?.turn_dm {
                    continue;
                }
                let (player, opponent) = (tx.player(notice.player)?, tx.player(other(&game, notice.player))?);
                let variant = game.variant().map_or("an unreadable variant", |v| v.name());
                let mut text = format!(
                    "{}, it is your move in game {} ({}) against {}.",
                    Typed(&player.display_name),
                    game.id,
                    variant,
                    Typed(&opponent.display_name)
                );
                if let Some(at) = link(game.server.as_deref(), &game.channel) {
                    text.push_str(&format!(" The game: {at}"));
                }
                let message = Message::text(text).to_user(&stored::user(&player)).in_channel(&game.channel);
                outbox.queue(tx, now, &message, Some(Picture::Board(game.id)))?;
            }
            Ok(())
        })
        .await?;
    Ok(())
}

/// The player of `game` who is not `player`.
fn other(game: &data::Game, player: data::PlayerId) -> data::PlayerId {
    if game.white == player {
        game.black
    } else {
        game.white
    }
}
