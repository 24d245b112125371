//! Offers between the players: `/draw offer|accept|decline|claim` and
//! `/takeback offer|accept|decline`.
//!
//! A draw offer stands until its receiver moves (as over the board, moving declines it). A
//! takeback offer is for the position it was made in: once anyone moves, it lapses.

use data::{GameId, Offer, OfferKind, Proposal};
use rules::{Color, DrawReason, Outcome};

use super::command::{DrawAction, OfferAction};
use super::opponent;
use super::play::{end_game, ended_message};
use super::stored;
use super::table::Table;
use super::view::to_move_line;
use super::{told, ButtonStyle, Command, Ctx, Handled, Message, Reply};

pub(crate) async fn draw(cx: &Ctx<'_>, action: DrawAction, game: Option<GameId>) -> Handled {
    let table = cx.table(game).await?;
    let color = cx.seat(&table)?;
    let theirs = standing(&table, !color, OfferKind::Draw);
    match action {
        // Offering a draw the opponent already offers is agreeing to it.
        DrawAction::Offer | DrawAction::Accept if theirs.is_some() => {
            let ended = end_game(cx, &table, Outcome::Draw(DrawReason::Agreement)).await?;
            let why = format!("{} accepts {}'s draw offer.", table.name(color), table.name(!color));
            Ok(Reply::one(ended_message(cx, table, &ended, why).await))
        }
        DrawAction::Offer if opponent::seat(&table).is_some() => engine_answers_draw(cx, table, color).await,
        DrawAction::Offer => {
            make_offer(cx, &table, color, Proposal::Draw).await?;
            let id = table.id();
            let text = format!("{} offers a draw. {}, accept or decline?", table.name(color), table.name(!color));
            Ok(Reply::one(
                Message::text(text)
                    .mentioning(&table.user(!color))
                    .with_button("Accept draw", draw_answer(DrawAction::Accept, id), ButtonStyle::Primary)
                    .with_button("Decline draw", draw_answer(DrawAction::Decline, id), ButtonStyle::Secondary),
            ))
        }
        DrawAction::Accept => told(format!(
            "{} has not offered a draw, so there is none to accept; `{}` makes one.",
            table.name(!color),
            Command::Draw { action: DrawAction::Offer, game: None }
        )),
        DrawAction::Decline => {
            if theirs.is_none() {
                return told(format!("{} has not offered a draw, so there is none to decline.", table.name(!color)));
            }
            clear(cx, &table, OfferKind::Draw).await?;
            Ok(Reply::one(
                Message::text(format!("{} declines the draw. {}", table.name(color), to_move_line(&table)))
                    .mentioning(&table.user(!color)),
            ))
        }
        DrawAction::Claim => claim(cx, &table, color).await,
    }
}

/// A draw by threefold repetition or the fifty-move rule, claimed by either player.
async fn claim(cx: &Ctx<'_>, table: &Table, color: Color) -> Handled {
    let Some(reason) = table.game.claimable_draw() else {
        let times = table.game.repetitions();
        let quiet = table.position().halfmoves();
        return told(format!(
            "There is no draw to claim: this position has stood {times} time{} (a claim needs 3), and {} \
             move{} passed without a capture or a pawn move (a claim needs 50 each). `{}` asks {} instead.",
            if times == 1 { "" } else { "s" },
            quiet / 2,
            if quiet / 2 == 1 { " has" } else { "s have" },
            Command::Draw { action: DrawAction::Offer, game: None },
            table.name(!color)
        ));
    };
    let ended = end_game(cx, table, Outcome::Draw(reason)).await?;
    let why = format!("{} claims a draw.", table.name(color));
    Ok(Reply::one(ended_message(cx, table.clone(), &ended, why).await))
}

pub(crate) async fn takeback(cx: &Ctx<'_>, action: OfferAction, game: Option<GameId>) -> Handled {
    let table = cx.table(game).await?;
    let color = cx.seat(&table)?;
    let theirs = standing(&table, !color, OfferKind::Takeback);
    match action {
        OfferAction::Offer => {
            // The asker's last move, and the opponent's reply if it came since.
            let plies = if table.to_move() == color { 2 } else { 1 };
            if table.ply() < plies {
                return told("You have not moved yet, so there is no move of yours to take back.");
            }
            if opponent::seat(&table).is_some() {
                // Games against Chimera are unrated, and it grants every takeback in them.
                if engine::allows_takeback(table.record.game.rated) {
                    return take_back(cx, table, plies, !color).await;
                }
                return told("Chimera grants takebacks in unrated games only.");
            }
            make_offer(cx, &table, color, Proposal::Takeback { plies }).await?;
            let id = table.id();
            let text = format!(
                "{} asks to take back their last move. {}, accept or decline?",
                table.name(color),
                table.name(!color)
            );
            Ok(Reply::one(
                Message::text(text)
                    .mentioning(&table.user(!color))
                    .with_button("Accept takeback", takeback_answer(OfferAction::Accept, id), ButtonStyle::Primary)
                    .with_button("Decline takeback", takeback_answer(OfferAction::Decline, id), ButtonStyle::Secondary),
            ))
        }
        OfferAction::Accept => {
            let Some(Offer { proposal: Proposal::Takeback { plies }, .. }) = theirs else {
                return told(format!("{} has not asked for a takeback in this position.", table.name(!color)));
            };
            take_back(cx, table, plies, color).await
        }
        OfferAction::Decline => {
            if theirs.is_none() {
                return told(format!("{} has not asked for a takeback in this position.", table.name(!color)));
            }
            clear(cx, &table, OfferKind::Takeback).await?;
            Ok(Reply::one(
                Message::text(format!("{} declines the takeback.", table.name(color))).mentioning(&table.user(!color)),
            ))
        }
    }
}

async fn take_back(cx: &Ctx<'_>, mut table: Table, plies: u32, by: Color) -> Handled {
    let kept = (table.ply() - plies) as usize;
    table.record.moves.truncate(kept);
    table.game.take_back(plies as usize);
    // The player to move again gets the time they had for that move.
    let deadline = table.allowance(table.to_move()).map(|allowance| cx.now + allowance);
    let (id, expected, now) = (table.id(), kept as u32 + plies, cx.now);
    match cx.store().write(move |tx| tx.take_back(id, expected, plies, deadline, now)).await {
        Ok(_) => {}
        Err(data::Error::PlyConflict { .. }) => return told("The position changed before the takeback; ask again."),
        Err(data::Error::GameNotActive { .. }) => return told(format!("Game {id} is already over.")),
        Err(e) => return Err(e.into()),
    }
    let text = format!(
        "{} accepts the takeback: {} move{} taken back. {}",
        table.name(by),
        plies,
        if plies == 1 { "" } else { "s" },
        to_move_line(&table)
    );
    // Chimera may be to move again.
    opponent::wake(cx.host, &table);
    let look = cx.host.look_at(&table).await;
    Ok(Reply::one(cx.host.board_message(&table, text, &look).mentioning(&table.user(table.to_move()))))
}

/// A draw offered to Chimera: it looks at the position and answers at once, drawing a
/// position it stands worse in and playing on in any other.
async fn engine_answers_draw(cx: &Ctx<'_>, table: Table, color: Color) -> Handled {
    if opponent::accepts_draw(cx.host, &table, !color).await {
        let ended = end_game(cx, &table, Outcome::Draw(DrawReason::Agreement)).await?;
        let why = format!("{} offers a draw, and {} accepts.", table.name(color), table.name(!color));
        return Ok(Reply::one(ended_message(cx, table, &ended, why).await));
    }
    Ok(Reply::one(Message::text(format!(
        "{} offers a draw; {} declines and plays on. {}",
        table.name(color),
        table.name(!color),
        to_move_line(&table)
    ))))
}

/// `by`'s offer of `kind` that still stands in the game's present position.
fn standing(table: &Table, by: Color, kind: OfferKind) -> Option<Offer> {
    let ply = table.ply();
    table.record.offers.iter().copied().find(|offer| {
        let fresh = match offer.proposal {
            Proposal::Draw => {
                // Lapsed once its receiver has moved: the offerer may have moved once since.
                offer.at_ply == ply || (offer.at_ply + 1 == ply && table.to_move() != by)
            }
            Proposal::Takeback { .. } => offer.at_ply == ply,
        };
        stored::color(offer.by) == by && offer.proposal.kind() == kind && fresh
    })
}

async fn make_offer(cx: &Ctx<'_>, table: &Table, by: Color, proposal: Proposal) -> Result<(), super::Refusal> {
    let (id, now) = (table.id(), cx.now);
    match cx.store().write(move |tx| tx.make_offer(id, stored::to_color(by), proposal, now)).await {
        Ok(_) => Ok(()),
        Err(data::Error::GameNotActive { .. }) => told(format!("Game {id} is already over.")),
        Err(e) => Err(e.into()),
    }
}

async fn clear(cx: &Ctx<'_>, table: &Table, kind: OfferKind) -> Result<(), super::Refusal> {
    let id = table.id();
    cx.store().write(move |tx| tx.clear_offers(id, Some(kind))).await?;
    Ok(())
}

/// A button's answer to a draw offer in game `id`.
fn draw_answer(action: DrawAction, id: GameId) -> Command {
    Command::Draw { action, game: Some(id) }
}

/// A button's answer to a takeback request in game `id`.
fn takeback_answer(action: OfferAction, id: GameId) -> Command {
    Command::Takeback { action, game: Some(id) }
}
