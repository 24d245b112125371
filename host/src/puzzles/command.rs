//! `/puzzle [variant]`, and the moves that answer it.
//!
//! # Guarantees
//!
//! - A player has at most one open puzzle per channel: `/puzzle` with one open shows it again.
//!   `/puzzle` is refused in a channel where the player plays the channel's game.
//! - A puzzle is served only where its source game may be seen (the store's `puzzle_for`: its
//!   server, or for a game outside any server its very channel), and never twice to a player.
//! - Precedence of a move (`/move` without a game named): a player who plays the channel's game
//!   moves in it; otherwise, a player with an open puzzle in the channel answers it; otherwise,
//!   in a channel with a daily puzzle (see `daily`), a player who has not tried that puzzle
//!   answers it, their attempt opened and answered in one commit (a move that cannot be read or
//!   is illegal there opens nothing), and a player who has is told so; otherwise it is an
//!   ordinary move, refused as one. A plain message (Matrix's bare moves) opens no attempt.
//! - An answer is judged against the position the player was shown (the attempt's progress as
//!   read), and counts only if the attempt is still there when it commits: of two answers at
//!   once, one counts and the other is told it came too late.
//! - A move that cannot be read, or is illegal there, changes nothing. A legal move that is not
//!   the solution's ends the attempt (failed) and shows the solution; the solution's move, or
//!   any move that mates at once, is right. The last right move solves it.
//! - An attempt's end and both rating updates (the player's puzzle rating in the variant and
//!   the puzzle's, by Glicko-2, the puzzle as the opponent) commit together, computed in the
//!   same transaction from the ratings as they stand there; only then is the player told.

use data::{Attempt, AttemptEnd, AttemptState, PuzzleId, PuzzlePlace, PuzzleRatingUpdate, WriteTx};
use render::{move_squares, BoardView, Markers};
use rules::{Color, Move, Outcome, Position, Variant};

use super::daily;
use crate::personal::Look;
use crate::rating::{rate_puzzle, Rating};
use crate::stored::{unreadable, variant};
use crate::view::move_number;
use crate::{board_text, told, Ctx, Handled, Host, Image, Message, Refusal, Reply, ShownBoard, Typed, User};

/// What `/puzzle` found for the player.
enum Opened {
    New(data::Puzzle),
    Again(Attempt, data::Puzzle),
    Nothing,
}

pub(crate) async fn puzzle(cx: &Ctx<'_>, wanted: Option<Variant>) -> Handled {
    if let Some(table) = cx.active_table().await? {
        if table.color_of(&cx.user().id).is_some() {
            return told(format!(
                "You play game {} in this channel, and your moves here go to it: ask for a puzzle in another \
                 channel, or once the game is over.",
                table.id()
            ));
        }
    }
    let request = cx.request;
    let (platform, server, channel) = (request.platform.clone(), request.server.clone(), request.channel.clone());
    let (user, now) = (request.user.clone(), cx.now);
    let opened = cx
        .store()
        .write(move |tx| {
            let player = tx.upsert_player(&platform, &user.id, &user.name, now)?;
            if let Some(open) = tx.open_attempt(&platform, &channel, player.id)? {
                let puzzle = tx.puzzle(open.puzzle)?;
                return Ok(Opened::Again(open, puzzle));
            }
            // Served near the player's own level: their rating in the variant, or their mean.
            let rated: Vec<f64> = match wanted {
                Some(v) => tx.puzzle_rating(player.id, v.id())?.into_iter().map(|r| r.glicko.rating).collect(),
                None => Variant::ALL
                    .iter()
                    .filter_map(|v| tx.puzzle_rating(player.id, v.id()).transpose())
                    .map(|r| r.map(|r| r.glicko.rating))
                    .collect::<data::Result<_>>()?,
            };
            let near = if rated.is_empty() {
                Rating::default().rating
            } else {
                rated.iter().sum::<f64>() / rated.len() as f64
            };
            let place = PuzzlePlace { platform: &platform, server: server.as_deref(), channel: &channel };
            let Some(puzzle) = tx.puzzle_for(place, wanted.map(Variant::id), player.id, near)? else {
                return Ok(Opened::Nothing);
            };
            tx.start_attempt(puzzle.id, player.id, &platform, &channel, now)?;
            Ok(Opened::New(puzzle))
        })
        .await?;
    match opened {
        Opened::New(puzzle) => {
            let line = Line::of(&puzzle)?;
            let rating = Rating::of(puzzle.glicko, puzzle.attempts).display();
            let text = format!(
                "Puzzle {} ({}, rated {rating}), from game {}. {} Answer with `/move`.",
                puzzle.id,
                line.variant.name(),
                puzzle.game,
                find_line(line.solver(), "winning")
            );
            Ok(Reply::one(cx.host.puzzle_board(&line, &puzzle, 0, text, &cx.look().await).mentioning(cx.user())))
        }
        Opened::Again(attempt, puzzle) => {
            let line = Line::of(&puzzle)?;
            let progress = line.progress(&attempt)?;
            let next = if progress == 0 { "winning" } else { "next" };
            let text = format!(
                "Your puzzle {} is still open here; one at a time. {}",
                puzzle.id,
                find_line(line.solver(), next)
            );
            Ok(Reply::one(cx.host.puzzle_board(&line, &puzzle, progress, text, &cx.look().await)))
        }
        Opened::Nothing => {
            let what = wanted.map_or_else(|| "puzzle".to_string(), |v| format!("{} puzzle", v.name()));
            told(format!(
                "There is no {what} here for you yet: puzzles come from the games played here, once they are \
                 over, and you get each one once."
            ))
        }
    }
}

/// `White to move: find the winning move.`
pub(super) fn find_line(solver: Color, which: &str) -> String {
    format!("{solver} to move: find the {which} move.")
}

/// The attempt a move answers.
#[derive(Clone)]
enum Attempting {
    /// The player's open attempt in the channel.
    Open(Attempt),
    /// The channel's daily puzzle, which the player has not tried: the attempt is opened by the
    /// answer, in the answer's transaction.
    Daily { puzzle: PuzzleId, user: User, platform: String, channel: String },
}

impl Attempting {
    /// The attempt in `tx`: the open one as read, or the daily puzzle's, opened now; `None`
    /// when the player tried the daily puzzle (or opened another attempt here) meanwhile.
    fn in_tx(&self, tx: &WriteTx<'_>, now: i64) -> data::Result<Option<Attempt>> {
        match self {
            Attempting::Open(attempt) => Ok(Some(attempt.clone())),
            Attempting::Daily { puzzle, user, platform, channel } => {
                let player = tx.upsert_player(platform, &user.id, &user.name, now)?;
                if tx.attempt_at(*puzzle, player.id)?.is_some()
                    || tx.open_attempt(platform, channel, player.id)?.is_some()
                {
                    return Ok(None);
                }
                tx.start_attempt(*puzzle, player.id, platform, channel, now).map(Some)
            }
        }
    }

    /// Where the answer stands in `line`.
    fn progress(&self, line: &Line) -> Result<usize, Refusal> {
        match self {
            Attempting::Open(attempt) => line.progress(attempt),
            Attempting::Daily { .. } => Ok(0),
        }
    }
}

/// What a move in a channel answers, if it answers a puzzle.
enum Answering {
    Puzzle(Attempting, data::Puzzle),
    /// The channel's daily puzzle, which the player has tried already: `attempt` says how.
    Played(Attempt, data::Puzzle),
}

/// Answers the requester's open puzzle in this channel with `text`, or else the channel's daily
/// puzzle if they have not tried it; `None` when neither is there for them (the move is then an
/// ordinary one). The caller has checked that they do not play the channel's game.
pub(crate) async fn answer(cx: &Ctx<'_>, text: &str) -> Result<Option<Reply>, Refusal> {
    let (platform, channel, user) = (cx.platform().to_string(), cx.channel().to_string(), cx.user().clone());
    let since = cx.now - daily::ANSWERABLE_MS;
    let found = cx
        .store()
        .read(move |tx| {
            let player = tx.find_player(&platform, &user.id)?;
            if let Some(player) = &player {
                if let Some(attempt) = tx.open_attempt(&platform, &channel, player.id)? {
                    let puzzle = tx.puzzle(attempt.puzzle)?;
                    return Ok(Some(Answering::Puzzle(Attempting::Open(attempt), puzzle)));
                }
            }
            let Some(id) = tx.daily_post_in(&platform, &channel, since)?.and_then(|post| post.puzzle) else {
                return Ok(None);
            };
            let puzzle = tx.puzzle(id)?;
            if let Some(player) = &player {
                if let Some(tried) = tx.attempt_at(id, player.id)? {
                    return Ok(Some(Answering::Played(tried, puzzle)));
                }
            }
            let daily = Attempting::Daily { puzzle: id, user, platform, channel };
            Ok(Some(Answering::Puzzle(daily, puzzle)))
        })
        .await?;
    let (attempting, puzzle) = match found {
        None => return Ok(None),
        Some(Answering::Played(tried, puzzle)) => return played(cx, &tried, &puzzle).map(Some),
        Some(Answering::Puzzle(attempting, puzzle)) => (attempting, puzzle),
    };
    let line = Line::of(&puzzle)?;
    let progress = attempting.progress(&line)?;
    let here = &line.positions[progress];
    let m = match here.parse_move(text) {
        Ok(m) => m,
        Err(e) => {
            let (quoted, marked) = (format!("`{}`", e.text), format!("`{}`", Typed(&e.text)));
            let whose = match attempting {
                Attempting::Open(_) => "your puzzle",
                Attempting::Daily { .. } => "the daily puzzle",
            };
            return told(format!(
                "{}. That was not played in {whose} {}: {}",
                e.to_string().replacen(&quoted, &marked, 1),
                puzzle.id,
                find_line(here.turn(), if progress == 0 { "winning" } else { "next" })
            ));
        }
    };
    let san = here.san(&m);
    let mates = matches!(here.after(&m).outcome(), Some(Outcome::Decisive { winner, .. }) if winner == here.turn());
    let right = m == line.moves[progress] || mates;
    if right && !mates && progress + 1 < line.moves.len() {
        return advance(cx, &line, &puzzle, &attempting, progress, &san).await.map(Some);
    }
    finish(cx, &line, &puzzle, &attempting, progress, right, &san).await.map(Some)
}

/// The answer to a move on a daily puzzle the player has tried already.
fn played(cx: &Ctx<'_>, tried: &Attempt, puzzle: &data::Puzzle) -> Handled {
    let how = match tried.state {
        AttemptState::Solved => "and solved it".to_string(),
        AttemptState::Failed => "and it is over".to_string(),
        // Opened by `/puzzle` elsewhere, before it was this channel's daily puzzle.
        AttemptState::Open => format!("and it is open in #{}: answer it there", tried.channel),
    };
    told(format!(
        "{}, you have played puzzle {}, the daily puzzle here, {how}. Everyone plays it once; `/puzzle` gives you \
         another.",
        Typed(&cx.user().name),
        puzzle.id
    ))
}

/// A right move with more to find: the opponent's reply is played, and the next move asked for.
async fn advance(
    cx: &Ctx<'_>,
    line: &Line,
    puzzle: &data::Puzzle,
    attempting: &Attempting,
    progress: usize,
    san: &str,
) -> Handled {
    let (attempting, now, from, to) = (attempting.clone(), cx.now, progress as u32, progress as u32 + 2);
    let advanced = cx
        .store()
        .write(move |tx| match attempting.in_tx(tx, now)? {
            Some(attempt) => tx.advance_attempt(attempt.id, from, to),
            None => Ok(false),
        })
        .await?;
    if !advanced {
        return too_late(puzzle);
    }
    let reply = line.positions[progress + 1].san(&line.moves[progress + 1]);
    let text = format!("Right: {san}! {} replies {reply}. {}", !line.solver(), find_line(line.solver(), "next"));
    Ok(Reply::one(cx.host.puzzle_board(line, puzzle, progress + 2, text, &cx.look().await).mentioning(cx.user())))
}

/// Ends the attempt, solved or failed, with both ratings.
async fn finish(
    cx: &Ctx<'_>,
    line: &Line,
    puzzle: &data::Puzzle,
    attempting: &Attempting,
    progress: usize,
    solved: bool,
    san: &str,
) -> Handled {
    let (attempting, puzzle_id, variant_id, now) = (attempting.clone(), puzzle.id, puzzle.variant.clone(), cx.now);
    let from = progress as u32;
    let to = if solved { from + 1 } else { from };
    let rated = cx
        .store()
        .write(move |tx| {
            let Some(stored) = attempting.in_tx(tx, now)? else { return Ok(None) };
            // Both ratings as they stand in this transaction: another player's attempt at the
            // same puzzle may have ended since this one was read.
            let puzzle = tx.puzzle(puzzle_id)?;
            let mine = tx.puzzle_rating(stored.player, &variant_id)?;
            let before = mine.map_or_else(Rating::default, |r| Rating::of(r.glicko, r.attempts));
            let puzzle_before = Rating::of(puzzle.glicko, puzzle.attempts);
            let (after, puzzle_after) = rate_puzzle(&before, &puzzle_before, solved);
            let end = AttemptEnd {
                from,
                to,
                solved,
                player: PuzzleRatingUpdate { attempts_before: i64::from(before.games), glicko: after.stored() },
                puzzle: PuzzleRatingUpdate {
                    attempts_before: i64::from(puzzle_before.games),
                    glicko: puzzle_after.stored(),
                },
            };
            Ok(tx.finish_attempt(&stored, &end, now)?.then_some((before, after)))
        })
        .await?;
    let Some((before, after)) = rated else { return too_late(puzzle) };
    let change = after.rating.round() - before.rating.round();
    let rating = format!(
        "Your {} puzzle rating: {} → {} ({change:+.0}).",
        line.variant.name(),
        before.display(),
        after.display()
    );
    let (text, shown) = if solved {
        (format!("Solved: {san}! Puzzle {} is done. {rating}", puzzle.id), progress + 1)
    } else {
        let solution = line.solution(puzzle.ply);
        (
            format!("Wrong: {san} is not it, and puzzle {} is over. The solution: {solution}. {rating}", puzzle.id),
            line.moves.len(),
        )
    };
    Ok(Reply::one(cx.host.puzzle_board(line, puzzle, shown, text, &cx.look().await).mentioning(cx.user())))
}

/// The answer to an answer that another one beat to the attempt.
fn too_late(puzzle: &data::Puzzle) -> Handled {
    told(format!(
        "Another answer to puzzle {} came first, so this one was not counted; `/puzzle` shows where it stands.",
        puzzle.id
    ))
}

/// A stored puzzle's line, replayed: its positions and moves.
pub(super) struct Line {
    pub(super) variant: Variant,
    /// `positions[0]` is the puzzle's; `positions[i + 1]` follows `positions[i]` by `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Line {
    pub(super) fn of(puzzle: &data::Puzzle) -> Result<Line, Refusal> {
        let record = format!("puzzle {}", puzzle.id);
        let variant = variant(&puzzle.variant, &record)?;
        let start = Position::from_fen(variant, &puzzle.fen).map_err(|e| unreadable(&record, e))?;
        let mut positions = vec![start];
        let mut moves = Vec::with_capacity(puzzle.solution.len());
        for coord in &puzzle.solution {
            let last = positions.last().expect("the start is there");
            let m = last.parse_coord(coord).map_err(|e| unreadable(&record, e))?;
            positions.push(last.after(&m));
            moves.push(m);
        }
        // A solution ends with the solver's move: an odd number of moves.
        if moves.len() % 2 == 0 {
            return Err(unreadable(&record, format!("a solution of {} moves", moves.len())));
        }
        Ok(Line { variant, positions, moves })
    }

    pub(super) fn solver(&self) -> Color {
        self.positions[0].turn()
    }

    /// Where an open attempt stands: a solver's turn inside the line.
    fn progress(&self, attempt: &Attempt) -> Result<usize, Refusal> {
        let progress = attempt.progress as usize;
        if progress % 2 == 1 || progress >= self.moves.len() {
            return Err(unreadable(format!("attempt {}", attempt.id), format!("progress {progress}")));
        }
        Ok(progress)
    }

    /// The solution in SAN, numbered as in its game (`ply` moves were played before it):
    /// `23... Rd8+ 24. Rxd8 Rxd8#`.
    fn solution(&self, ply: u32) -> String {
        let mut words = Vec::new();
        for (i, m) in self.moves.iter().enumerate() {
            let san = self.positions[i].san(m);
            if i == 0 || self.positions[i].turn() == Color::White {
                words.push(format!("{} {san}", move_number(ply + 1 + i as u32)));
            } else {
                words.push(san);
            }
        }
        words.join(" ")
    }
}

/// Which puzzle a player's move in a channel would answer, for suggestions and bare moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answers {
    /// Their open puzzle in the channel only: a plain message (a bare move) opens nothing.
    Open,
    /// Their open puzzle, or else the channel's daily puzzle if they have not tried it: as
    /// `/move` does.
    OpenOrDaily,
}

impl Host {
    /// The position where `user_id`'s next answer in `channel` is played: their open puzzle's,
    /// or (as `answers` says) the channel's daily puzzle's start; `None` when there is none. For
    /// move suggestions and bare moves, which follow the same precedence as `/move` (the caller
    /// checks for the player's game first).
    pub(crate) async fn open_puzzle_position(
        &self,
        platform: &str,
        channel: &str,
        user_id: &str,
        answers: Answers,
    ) -> Result<Option<Position>, Refusal> {
        let (platform, channel, user) = (platform.to_string(), channel.to_string(), user_id.to_string());
        let since = self.now() - daily::ANSWERABLE_MS;
        let found = self
            .store()
            .read(move |tx| {
                let player = tx.find_player(&platform, &user)?;
                if let Some(player) = &player {
                    if let Some(attempt) = tx.open_attempt(&platform, &channel, player.id)? {
                        return Ok(Some((tx.puzzle(attempt.puzzle)?, Some(attempt))));
                    }
                }
                if answers == Answers::Open {
                    return Ok(None);
                }
                let Some(id) = tx.daily_post_in(&platform, &channel, since)?.and_then(|post| post.puzzle) else {
                    return Ok(None);
                };
                if let Some(player) = &player {
                    if tx.attempt_at(id, player.id)?.is_some() {
                        return Ok(None);
                    }
                }
                Ok(Some((tx.puzzle(id)?, None)))
            })
            .await?;
        let Some((puzzle, attempt)) = found else { return Ok(None) };
        let mut line = Line::of(&puzzle)?;
        let progress = attempt.map_or(Ok(0), |attempt| line.progress(&attempt))?;
        Ok(Some(line.positions.swap_remove(progress)))
    }

    /// The board of puzzle `id` as it is set (before any move), for its daily post: drawn as
    /// this Chimera draws boards for everyone.
    pub(crate) async fn puzzle_picture(&self, id: PuzzleId) -> Result<Image, Refusal> {
        let puzzle = self.store().read(move |tx| tx.puzzle(id)).await?;
        let line = Line::of(&puzzle)?;
        let look = Look::everyones(self.settings().theme);
        let mut board = self.puzzle_board(&line, &puzzle, 0, String::new(), &look);
        Ok(board.images.remove(0))
    }

    /// The puzzle's board after `progress` moves of its line, from the solver's side (always at
    /// the bottom), the last move tinted, with `text`, as `look` draws it.
    fn puzzle_board(&self, line: &Line, puzzle: &data::Puzzle, progress: usize, text: String, look: &Look) -> Message {
        let position = &line.positions[progress];
        let last = progress.checked_sub(1).map(|i| line.moves[i]);
        let flipped = line.solver() == Color::Black;
        let mut view = BoardView::new(position)
            .flipped(flipped)
            .theme(look.theme)
            .coordinates(look.coordinates)
            .size(self.settings().board_size);
        view.last_move = last;
        view.markers = Markers::None;
        let png = self.inner.renderer.board_png(&view);
        let alt = format!(
            "{} board of puzzle {}, {} to move, {} at the bottom. {}",
            line.variant.name(),
            puzzle.id,
            position.turn(),
            line.solver(),
            board_text::pieces(position)
        );
        let image = Image {
            board: Some(ShownBoard {
                variant: line.variant,
                fen: position.fen(),
                flipped,
                highlight: last.map_or_else(Vec::new, |m| move_squares(&m).into_iter().collect()),
                marks: Vec::new(),
            }),
            ..Image::png(format!("puzzle-{}-{progress}.png", puzzle.id), png, alt)
        };
        let text = if look.described { format!("{text}\n{}", board_text::pieces(position)) } else { text };
        Message::text(text).with_image(image)
    }
}
