//! Playing: `/move`, `/resign`, `/abort`.
//!
//! A move is checked against the game rebuilt from storage, then appended naming the ply it
//! follows and the request that made it: of two moves sent for one turn, the database takes the
//! first and refuses the second (`PlyConflict`), and a retried request lands once. A move that
//! ends the game finishes it, ratings included, in the same commit. Only after the commit does
//! the reply say the move was played. The same commit queues the next player's turn notice
//! (`turn_notice`) when they asked for one.

use data::{Appended, GameId, NewMove, WriteTx};
use rules::{Color, Game, Move, Outcome, Problem, WinReason};

use super::end::{self, Ended, Flagged};
use super::table::Table;
use super::turn_notice::NextTurn;
use super::{told, ButtonStyle, Command, Ctx, DrawAction, Handled, Host, Message, Refusal, Reply, Typed};

pub(crate) async fn play(cx: &Ctx<'_>, text: &str, confirm: bool, game: Option<GameId>) -> Handled {
    let active = cx.active_table().await?;
    // In a team's channel, a move is a vote for the team's move (see `team`).
    if let Some(side) = active.as_ref().and_then(|t| t.team_in(cx.channel())) {
        let table = cx.table_of(active, game)?;
        return super::team::vote(cx, table, side, text, confirm).await;
    }
    // A move goes to the player's own game here first; failing that, to their open puzzle here
    // (see `puzzles::command`). A move that names its game (a button) is always the game's.
    let plays_here = active.as_ref().is_some_and(|t| t.color_of(&cx.user().id).is_some());
    if game.is_none() && !plays_here {
        if let Some(reply) = super::puzzles::command::answer(cx, text).await? {
            return Ok(reply);
        }
    }
    let table = cx.table_of(active, game)?;
    let color = cx.seat(&table)?;
    if let Some(reply) = flag(cx, &table).await? {
        return Ok(reply);
    }
    if table.to_move() != color {
        let other = !color;
        return told(format!("It is {}'s move ({other}); wait for it, then move.", table.name(other)));
    }
    let m = match read_move(&table, text)? {
        Ok(m) => m,
        Err(answer) => return Ok(answer),
    };
    if loses_at_once(&table, &m) && !confirm {
        return Ok(confirm_loss(&table, &m));
    }
    append(cx, table, m).await
}

/// The move `text` names in `table`'s position; otherwise the answer to give instead (the moves
/// it could mean, to choose from), or why it names none.
pub(crate) fn read_move(table: &Table, text: &str) -> Result<Result<Move, Reply>, Refusal> {
    match table.position().parse_move(text) {
        Ok(m) => Ok(Ok(m)),
        Err(e) => match &e.problem {
            Problem::Ambiguous(alternatives) => Ok(Err(choices(table, text, alternatives))),
            _ => {
                // The text as typed is marked, so that no backtick in it ends the code it shows in.
                let (quoted, marked) = (format!("`{}`", e.text), format!("`{}`", Typed(&e.text)));
                told(format!("{}.", e.to_string().replacen(&quoted, &marked, 1)))
            }
        },
    }
}

/// Whether `m` is a Grolman turn that ends with the mover's own king attacked, losing at once.
pub(crate) fn loses_at_once(table: &Table, m: &Move) -> bool {
    matches!(
        table.position().after(m).outcome(),
        Some(Outcome::Decisive { reason: WinReason::KingLeftAttacked, winner }) if winner != table.to_move()
    )
}

/// The moves a text could mean (given as SAN), as buttons: a Grolman lead move whose chain
/// leaves a choice, or a move written too briefly. Each button names the whole turn.
fn choices(table: &Table, text: &str, alternatives: &[String]) -> Reply {
    let position = table.position();
    let options = position.legal_moves().into_iter().filter(|m| alternatives.contains(&position.san(m)));
    let mut message = Message::text(format!("`{}` can be played more than one way; choose one:", Typed(text.trim())));
    message.private = true;
    for m in options {
        let san = position.san(&m);
        let loses = loses_at_once(table, &m);
        let label = if loses { format!("{san} (loses at once)") } else { san };
        let command = Command::Move { text: position.coord(&m), confirm: loses, game: Some(table.id()) };
        message = message.with_button(&label, command, ButtonStyle::Secondary);
    }
    Reply::one(message)
}

pub(crate) fn confirm_loss(table: &Table, m: &Move) -> Reply {
    let position = table.position();
    let san = position.san(m);
    let mut message = Message::text(format!(
        "{san} ends your turn with your own king attacked: in Grolman Chess that loses the game at once. Play it anyway?"
    ))
    .with_button(
        &format!("Play {san} and lose"),
        Command::Move { text: position.coord(m), confirm: true, game: Some(table.id()) },
        ButtonStyle::Danger,
    );
    message.private = true;
    Reply::one(message)
}

/// Stores `m` as the next ply of `table` (and the game's end, if it ends it), then answers.
async fn append(cx: &Ctx<'_>, table: Table, m: Move) -> Handled {
    let game_id = table.id();
    let prepared = prepare(&table, &m, cx.request.request_id.clone(), cx.now)?;
    let next = prepared.next.clone();
    match store(cx.host, &table, prepared, cx.now, |_, _| Ok(())).await {
        Ok((Appended::Applied(stored), ended)) => {
            if let Some(ended) = &ended {
                cx.note_end(ended);
            }
            let table = table.with_move(stored, next);
            if ended.is_none() {
                super::opponent::wake(cx.host, &table);
            }
            let look = cx.host.look_at(&table).await;
            let message = cx.host.move_message(&table, ended.as_ref(), &look);
            Ok(Reply::one(match ended {
                Some(ended) => cx.host.with_replay(&table.with_end(ended.game), message).await,
                None => message,
            }))
        }
        // The same request again (a retried interaction): answer as the first time.
        Ok((Appended::AlreadyApplied(_), _)) => moved_on(cx, game_id, "That move was already played.").await,
        Err(data::Error::PlyConflict { .. }) => {
            moved_on(
                cx,
                game_id,
                "The position moved on before your move arrived, so it was not played; here is the board now.",
            )
            .await
        }
        Err(data::Error::GameNotActive { .. }) => told(format!("Game {game_id} is over; your move was not played.")),
        Err(e) => Err(e.into()),
    }
}

/// A move ready to be stored: its record, the game after it, and how that game ended, if it did.
pub(crate) struct Prepared {
    pub new: NewMove,
    pub next: Game,
    pub outcome: Option<Outcome>,
}

/// The record of `m` as the next ply of `table`, made by `request_id` at `now`.
pub(crate) fn prepare(table: &Table, m: &Move, request_id: String, now: i64) -> Result<Prepared, Refusal> {
    let position = table.position();
    let mover = position.turn();
    let mut next = table.game.clone();
    next.play(*m).map_err(|e| Refusal::Broken(format!("a parsed move was refused: {e}")))?;
    let outcome = next.outcome();
    // The clock: the mover used what the turn took off their deadline.
    let used = match (table.allowance(mover), table.record.game.deadline) {
        (Some(allowance), Some(deadline)) => (allowance - (deadline - now)).clamp(0, allowance),
        _ => 0,
    };
    // The opponent's allowance does not depend on this move, which is the mover's.
    let deadline = table.allowance(!mover).map(|allowance| now + allowance);
    let new = NewMove {
        expected_ply: table.ply(),
        coord: position.coord(m),
        san: position.san(m),
        fen_after: next.position().fen(),
        time_used_ms: used,
        request_id,
        deadline,
        finish: None,
    };
    Ok(Prepared { new, next, outcome })
}

/// Stores a prepared move, and the game's end with it when the move ends the game, in one
/// transaction. `announce` runs in that transaction when the move is applied now (not when the
/// same request was applied before), so what it queues is said exactly once.
pub(crate) async fn store<F>(
    host: &Host,
    table: &Table,
    prepared: Prepared,
    now: i64,
    announce: F,
) -> data::Result<(Appended, Option<Ended>)>
where
    F: Fn(&WriteTx<'_>, Option<&Ended>) -> data::Result<()> + Send + Sync + 'static,
{
    let (game_id, game) = (table.id(), table.record.game.clone());
    let Prepared { new, outcome, .. } = prepared;
    let next_turn = NextTurn::after(table, table.ply() + 1);
    host.store()
        .write(move |tx| {
            let mut new = new.clone();
            let mut ended = None;
            if let Some(outcome) = outcome {
                let (finish, e) = end::finish(tx, &game, outcome)?;
                new.finish = Some(finish);
                ended = Some(e);
            }
            let appended = tx.append_move(game_id, &new, now)?;
            if let Appended::Applied(_) = &appended {
                if let Some(ended) = &mut ended {
                    ended.game = tx.game(game_id)?;
                    super::arbiter::settle(tx, &ended.game)?;
                }
                announce(tx, ended.as_ref())?;
                if let (None, Some(next)) = (&ended, &next_turn) {
                    next.queue(tx, now)?;
                }
            }
            Ok((appended, ended))
        })
        .await
}

/// The board as it is now, privately, after a move that was not played this time.
async fn moved_on(cx: &Ctx<'_>, game_id: GameId, why: &str) -> Handled {
    let message = match cx.active_table().await? {
        Some(table) if table.id() == game_id => {
            let look = cx.host.look_for(Some(&cx.user().id)).await;
            cx.host.board_message(&table, format!("{why} {}", super::view::to_move_line(&table)), &look)
        }
        _ => Message::text(format!("{why} Game {game_id} is over.")),
    };
    Ok(Reply::one(Message { private: true, ..message }))
}

/// Ends the game on time if the player to move has run out of it, though the scheduler has not
/// yet noticed: a move that comes too late is not played.
pub(crate) async fn flag(cx: &Ctx<'_>, table: &Table) -> Result<Option<Reply>, Refusal> {
    if table.record.game.deadline.is_none_or(|d| d > cx.now) {
        return Ok(None);
    }
    let (id, now) = (table.id(), cx.now);
    let ended = cx.store().write(move |tx| end::end_on_time(tx, id, now)).await?;
    Ok(Some(match ended {
        Some(flagged) => {
            cx.note_end(&flagged.ended);
            let message = time_up_message(&flagged);
            match cx.host.load_table(id).await {
                Ok(table) => Reply::one(cx.host.with_replay(&table, message).await),
                Err(refusal) => {
                    tracing::error!(game = id, "no replay: {}", refusal.text());
                    Reply::one(message)
                }
            }
        }
        None => Reply::error(format!("Game {id} changed meanwhile; try again.")),
    }))
}

/// The announcement of a game lost (or drawn) on time; its picture is the game's replay.
pub(crate) fn time_up_message(flagged: &Flagged) -> Message {
    let (ended, loser) = (&flagged.ended, flagged.flagged);
    let name = Typed(&ended.user(loser).name);
    Message::text(format!(
        "Time is up in game {}: {name} ({loser}) ran out of time. {}",
        ended.game.id,
        ended.announcement()
    ))
    .mentioning(&ended.user(Color::White))
    .mentioning(&ended.user(Color::Black))
    .in_channel(&ended.game.channel)
}

pub(crate) async fn resign(cx: &Ctx<'_>, confirm: bool, game: Option<GameId>) -> Handled {
    let table = cx.table(game).await?;
    let color = cx.seat(&table)?;
    if !confirm {
        let mut message =
            Message::text(format!("Resign game {} against {}? This cannot be undone.", table.id(), table.name(!color)))
                .with_button("Resign", Command::Resign { confirm: true, game: Some(table.id()) }, ButtonStyle::Danger);
        message.private = true;
        return Ok(Reply::one(message));
    }
    let outcome = Outcome::Decisive { winner: !color, reason: WinReason::Resignation };
    let ended = end_game(cx, &table, outcome).await?;
    let why = format!("{} resigns.", table.name(color));
    Ok(Reply::one(ended_message(cx, table, &ended, why).await))
}

pub(crate) async fn abort(cx: &Ctx<'_>) -> Handled {
    let table = cx.table(None).await?;
    let color = cx.seat(&table)?;
    if table.record.game.pairing.is_some() {
        return told(format!(
            "Tournament games cannot be aborted: every pairing needs a result. {}",
            instead_of_abort()
        ));
    }
    if table.ply() >= 2 {
        return told(format!("Both players have moved, so the game can no longer be aborted: {}", instead_of_abort()));
    }
    let (id, now, reason) = (table.id(), cx.now, format!("aborted by {}", table.name(color)));
    match cx.store().write(move |tx| tx.abort_game(id, &reason, now)).await {
        Ok(_) => {}
        Err(data::Error::GameNotActive { .. }) => return told(format!("Game {id} is already over.")),
        Err(e) => return Err(e.into()),
    }
    let text = format!("{} aborts game {}; it counts for nothing.", table.name(color), table.id());
    Ok(Reply::one(Message::text(text).mentioning(&table.user(!color))))
}

/// What a player who may not abort can do instead: `/resign`, or `/draw offer`.
fn instead_of_abort() -> String {
    let resign = Command::Resign { confirm: false, game: None };
    let draw = Command::Draw { action: DrawAction::Offer, game: None };
    format!("`{resign}`, or `{draw}`.")
}

/// Ends `table`'s game with `outcome` (resignation, agreement, a claim).
pub(crate) async fn end_game(cx: &Ctx<'_>, table: &Table, outcome: Outcome) -> Result<Ended, Refusal> {
    let (id, now) = (table.id(), cx.now);
    match cx.store().write(move |tx| end::end(tx, id, outcome, now)).await {
        Ok(ended) => {
            cx.note_end(&ended);
            Ok(ended)
        }
        Err(data::Error::GameNotActive { .. }) => told(format!("Game {id} is already over.")),
        Err(e) => Err(e.into()),
    }
}

/// The announcement of a game's end that was not a move: `why`, then the result, and the
/// game's replay.
pub(crate) async fn ended_message(cx: &Ctx<'_>, table: Table, ended: &Ended, why: String) -> Message {
    let message = Message::text(format!("{why} {}", ended.announcement()))
        .mentioning(&table.user(Color::White))
        .mentioning(&table.user(Color::Black));
    cx.host.with_replay(&table.with_end(ended.game.clone()), message).await
}
