//! Team games decided by vote: `/challenge team:#channel` (this channel's members against that
//! channel's) and `/play team:yes` (this channel's members against Chimera).
//!
//! A team game is an ordinary game whose sides are *teams*: a player per channel
//! ([`User::team`], its id `team:` and the channel's, shown as `#general (team)`), so that
//! `/board`, `/game`, `/pgn` (whose `White` and `Black` name the teams), replays and the web pages
//! need nothing new. Its clock is the vote window ([`VoteWindow`], stored with the game): each
//! move, a team's or Chimera's, has the window's time from the move before, as in
//! correspondence. The game lives in the channel it was started from; the other team's channel
//! finds it through its team (`Host::load_active`), so either channel is busy while it runs.
//!
//! **Who is on a side.** A team is the members of its channel, and on every network that is
//! whoever speaks there: a `/move` typed in a team's channel while its side is to move is a vote
//! for that side's move (never refused as "not your game"), and a `/move` typed anywhere else is
//! no vote for it.
//!
//! What it guarantees:
//!
//! - **A vote is stored before anyone is told of it**, and counts only in the window it was cast
//!   in: it names the plies its voter saw, and a window that closed meanwhile refuses it
//!   ([`data::WriteTx::cast_vote`]). A vote after the window's end is refused, even before the
//!   scheduler has closed it.
//! - **One vote per member per window**: voting again replaces the vote, and the new one counts
//!   from the moment it is cast.
//! - **A window is resolved exactly once.** Its end is the game's deadline, so the scheduler
//!   claims it as any overdue game (one process claims it: see `schedule`) and, in the claiming
//!   transaction, plays the most-voted move ([`close_window`]): of moves with as many votes, the
//!   one whose earliest standing vote was cast first. The move names the ply it follows, so no
//!   second resolution can land, and its announcement is queued in the same commit. A side with
//!   no vote when its window ends loses on time, as a player whose clock ran out.
//! - **A restart keeps everything**: votes are in the database, and a window's end is moved on
//!   past the host's downtime like any clock.
//! - **Never rated.** Team games count for no rating.

use std::fmt;
use std::str::FromStr;

use data::{Acceptance, Challenge, GameId, NewChallenge, NewGame, Tally, Vote, WriteTx};
use rules::{Color, Position, Variant};

use super::clock::format_duration;
use super::command::{ColorChoice, TeamOpponent};
use super::end;
use super::outbox::{Outbox, Picture};
use super::stored::Terms;
use super::table::Table;
use super::view::{move_number, to_move_line, to_move_line_in};
use super::{
    play, told, ButtonStyle, ChannelMention, Command, Ctx, FoundChannel, Handled, Message, Refusal, Reply, Typed, User,
};

const MINUTE: u64 = 60;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;

/// How long a team has to vote for each move: `30s`, `5m`, `12h`, `2d` (5 seconds to 30 days).
///
/// ```
/// use host::VoteWindow;
///
/// let window: VoteWindow = "90m".parse().unwrap();
/// assert_eq!(window.ms(), 90 * 60_000);
/// assert_eq!(window.to_string(), "90m");
/// assert_eq!("120s".parse::<VoteWindow>().unwrap().to_string(), "2m");
/// assert_eq!(VoteWindow::default().to_string(), "12h");
/// for wrong in ["", "4s", "31d", "30", "s", "1.5h", "-5m", "soon"] {
///     assert!(wrong.parse::<VoteWindow>().is_err(), "{wrong}");
/// }
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct VoteWindow {
    seconds: u64,
}

impl VoteWindow {
    const MIN_SECONDS: u64 = 5;
    const MAX_SECONDS: u64 = 30 * DAY;

    /// A window of `seconds`, if it is one Chimera gives.
    pub fn from_seconds(seconds: u64) -> Option<VoteWindow> {
        (Self::MIN_SECONDS..=Self::MAX_SECONDS).contains(&seconds).then_some(VoteWindow { seconds })
    }

    /// A window of `ms`, as stored: whole seconds in the range, or none.
    pub fn from_ms(ms: i64) -> Option<VoteWindow> {
        u64::try_from(ms).ok().filter(|ms| ms % 1000 == 0).and_then(|ms| VoteWindow::from_seconds(ms / 1000))
    }

    pub fn ms(self) -> i64 {
        self.seconds as i64 * 1000
    }

    /// In words: `30 seconds`, `12 hours`, `90 minutes`.
    pub fn describe(self) -> String {
        let (n, unit) = self.unit();
        let unit = match unit {
            'd' => "day",
            'h' => "hour",
            'm' => "minute",
            _ => "second",
        };
        format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
    }

    /// The largest unit that measures it exactly, and how many of it.
    fn unit(self) -> (u64, char) {
        [(DAY, 'd'), (HOUR, 'h'), (MINUTE, 'm')]
            .into_iter()
            .find(|(size, _)| self.seconds.is_multiple_of(*size))
            .map_or((self.seconds, 's'), |(size, unit)| (self.seconds / size, unit))
    }
}

impl Default for VoteWindow {
    /// Twelve hours: a correspondence pace, which a channel's members can keep up with.
    fn default() -> VoteWindow {
        VoteWindow { seconds: 12 * HOUR }
    }
}

impl fmt::Display for VoteWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, unit) = self.unit();
        write!(f, "{n}{unit}")
    }
}

/// Text that is not a vote window.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a vote window: a number and a unit, like `30s`, `5m`, `12h` or `2d` (5 seconds to 30 days)")]
pub struct VoteWindowError(pub String);

impl FromStr for VoteWindow {
    type Err = VoteWindowError;

    fn from_str(text: &str) -> Result<VoteWindow, VoteWindowError> {
        let wrong = || VoteWindowError(text.to_string());
        let t = text.trim().to_ascii_lowercase();
        let digits = t.find(|c: char| !c.is_ascii_digit()).ok_or_else(wrong)?;
        let (n, unit) = t.split_at(digits);
        let n: u64 = n.parse().map_err(|_| wrong())?;
        let size = match unit.trim() {
            "s" | "sec" | "second" | "seconds" => 1,
            "m" | "min" | "minute" | "minutes" => MINUTE,
            "h" | "hour" | "hours" => HOUR,
            "d" | "day" | "days" => DAY,
            _ => return Err(wrong()),
        };
        n.checked_mul(size).and_then(VoteWindow::from_seconds).ok_or_else(wrong)
    }
}

/// `/challenge team:#channel` and `/play team:yes`: a team game of this channel's members
/// against `against`, this channel's side taking `color`. Against Chimera it starts at once;
/// another channel's team is challenged, and the game starts when one of its members accepts.
pub(crate) async fn start(
    cx: &Ctx<'_>,
    against: &TeamOpponent,
    variant: Variant,
    color: ColorChoice,
    window: VoteWindow,
) -> Handled {
    let here = cx.channel().to_string();
    let us = User::team(&here, &channel_name(cx, &here).await);
    if cx.active_table().await?.is_some() {
        return told(format!(
            "{} has a game on: a team plays in its own channel, one game at a time. Finish it first.",
            Typed(&us.name)
        ));
    }
    match against {
        TeamOpponent::Chimera(level) => play_chimera(cx, us, User::engine(*level), variant, color, window).await,
        TeamOpponent::Channel(named) => challenge(cx, us, named, variant, color, window).await,
    }
}

/// `/play team:yes`: this channel's team against Chimera, from now.
async fn play_chimera(
    cx: &Ctx<'_>,
    us: User,
    chimera: User,
    variant: Variant,
    color: ColorChoice,
    window: VoteWindow,
) -> Handled {
    let ours = match color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random if fastrand::bool() => Color::White,
        ColorChoice::Random => Color::Black,
    };
    let (platform, server, now, window_ms) =
        (cx.platform().to_string(), cx.request.server.clone(), cx.now, window.ms());
    let made = cx
        .store()
        .write(move |tx| {
            // The team may not be playing already: looked at before, and again here, where nothing
            // can slip in before the commit.
            if let Some(busy) = team_busy(tx, &platform, &us)? {
                return Ok(Err(busy));
            }
            let a = tx.upsert_player(&platform, &us.id, &us.name, now)?.id;
            let b = tx.upsert_player(&platform, &chimera.id, &chimera.name, now)?.id;
            let (white, black) = if ours == Color::White { (a, b) } else { (b, a) };
            let new = NewGame {
                platform: platform.clone(),
                server: server.clone(),
                channel: us.team_channel().unwrap_or_default().to_string(),
                variant: variant.id().to_string(),
                white,
                black,
                start_fen: Position::start(variant).fen(),
                time_control: None,
                time_odds: None,
                deadline: Some(now + window_ms),
                rated: false,
            };
            let game = tx.create_game(&new, now)?;
            tx.make_team_game(game.id, window_ms)?;
            let record = tx.game_record(game.id)?;
            Ok(Ok((record, tx.player(game.white)?, tx.player(game.black)?)))
        })
        .await;
    let (record, white, black) = match made {
        Ok(Ok(made)) => made,
        Ok(Err(busy)) => return told(busy),
        Err(data::Error::ChannelBusy { .. }) => {
            return told("This channel started a game just now: it plays one game at a time.")
        }
        Err(e) => return Err(e.into()),
    };
    let table = Table::new(record, white, black)?;
    super::opponent::wake(cx.host, &table);
    Ok(begins(cx, &table).await)
}

/// Why `team` cannot start a game now (its channel has a game on, or it plays one elsewhere),
/// if it cannot; nothing for anyone who is not a team.
fn team_busy(tx: &data::ReadTx<'_>, platform: &str, team: &User) -> data::Result<Option<String>> {
    let Some(channel) = team.team_channel() else { return Ok(None) };
    let playing = match tx.find_player(platform, &team.id)? {
        Some(player) => !tx.active_games_of(player.id)?.is_empty(),
        None => false,
    };
    Ok((playing || tx.active_game(platform, channel)?.is_some())
        .then(|| format!("{} has a game on: a channel plays one game at a time.", Typed(&team.name))))
}

/// `/challenge team:#channel`: this channel's team challenges that channel's, in that channel,
/// where any of its members may accept (the game starts) or decline. Nothing is forced on a
/// channel that did not ask for it.
async fn challenge(
    cx: &Ctx<'_>,
    us: User,
    named: &ChannelMention,
    variant: Variant,
    color: ColorChoice,
    window: VoteWindow,
) -> Handled {
    let here = cx.channel().to_string();
    let there = team_channel(cx, named).await?;
    if there == here {
        return told(
            "A team game is between two channels: name another channel than this one, or play Chimera together \
             with `/play team:yes`.",
        );
    }
    let them = User::team(&there, &channel_name(cx, &there).await);
    let new = NewChallenge {
        platform: cx.platform().to_string(),
        server: cx.request.server.clone(),
        channel: there.clone(),
        challenger: 0,
        challenged: None,
        variant: variant.id().to_string(),
        color,
        time_control: None,
        rated: false,
        expires_at: cx.now + cx.host.settings().challenge_expiry_ms,
    };
    let (platform, now, window_ms) = (cx.platform().to_string(), cx.now, window.ms());
    let (team_us, team_them) = (us.clone(), them.clone());
    let made = cx
        .store()
        .write(move |tx| {
            for team in [&team_us, &team_them] {
                if let Some(busy) = team_busy(tx, &platform, team)? {
                    return Ok(Err(busy));
                }
            }
            let a = tx.upsert_player(&platform, &team_us.id, &team_us.name, now)?;
            // One team challenge at a time: a new one replaces the last (the challenging channel
            // cannot answer in the other one, so this is how it withdraws it).
            let mut replaced = None;
            for open in tx.challenges_of(a.id, now)?.into_iter().filter(|c| c.challenger == a.id) {
                let to = open.challenged.map(|p| tx.player(p)).transpose()?;
                replaced = to.map(|p| p.display_name);
                tx.decline_challenge(open.id, a.id)?;
            }
            let b = tx.upsert_player(&platform, &team_them.id, &team_them.name, now)?;
            let challenge =
                tx.create_challenge(&NewChallenge { challenger: a.id, challenged: Some(b.id), ..new.clone() }, now)?;
            tx.make_team_challenge(challenge.id, window_ms)?;
            Ok(Ok((challenge, replaced)))
        })
        .await?;
    let (challenge, replaced) = made.map_err(Refusal::Told)?;
    let colour = match color {
        ColorChoice::White => format!("{} playing White", Typed(&us.name)),
        ColorChoice::Black => format!("{} playing Black", Typed(&us.name)),
        ColorChoice::Random => "colours by lot".to_string(),
    };
    let terms = format!("a team game of {}, {} per move by vote, {colour}, unrated", variant.name(), window.describe());
    let expiry = format_duration(challenge.expires_at - challenge.created_at);
    let (accept, decline) = (
        Command::Accept { challenger: None, challenge: Some(challenge.id) },
        Command::Decline { challenger: None, challenge: Some(challenge.id) },
    );
    let offer = Message::text(format!(
        "{} challenges {} to {terms}. Anyone here may `{}` it (or `{}`) within {expiry}; then everyone in each \
         channel votes its side's moves with `/move`.",
        Typed(&us.name),
        Typed(&them.name),
        Command::<User>::Accept { challenger: None, challenge: None },
        Command::<User>::Decline { challenger: None, challenge: None },
    ))
    .with_button("Accept", accept, ButtonStyle::Primary)
    .with_button("Decline", decline, ButtonStyle::Secondary)
    .in_channel(&there);
    let mut sent = format!(
        "{} challenges {} to {terms}. The game begins when someone there accepts (within {expiry}).",
        Typed(&us.name),
        Typed(&them.name)
    );
    if let Some(replaced) = replaced {
        sent.push_str(&format!(" This replaces the challenge to {}.", Typed(&replaced)));
    }
    let sent = Message::text(sent);
    Ok(Reply::one(sent).push(offer))
}

/// `/accept` of a team challenge, by a member of the challenged team (someone in its channel):
/// the game starts in the challenging team's channel, and both channels are told.
pub(crate) async fn accept(cx: &Ctx<'_>, challenge: &Challenge) -> Handled {
    let variant = challenge.variant()?;
    let (platform, now, id) = (cx.platform().to_string(), cx.now, challenge.id);
    // Tossed on the command's thread, once, as `challenge::start_game` does.
    let toss = if fastrand::bool() { data::Color::White } else { data::Color::Black };
    let accepted = cx
        .store()
        .write(move |tx| {
            let challenge = tx.challenge(id)?;
            let (Some(window), Some(challenged)) = (tx.team_challenge_window(id)?, challenge.challenged) else {
                return Err(data::Error::NotFound { what: "team challenge", id });
            };
            let (maker, team) = (tx.player(challenge.challenger)?, tx.player(challenged)?);
            for player in [&maker, &team] {
                if let Some(busy) = team_busy(tx, &platform, &super::stored::user(player))? {
                    return Ok(Err(busy));
                }
            }
            let acceptance = Acceptance {
                acceptor: team.id,
                toss,
                start_fen: Position::start(variant).fen(),
                channel: super::user::team_channel(&maker.user_id).map(str::to_string),
                deadline: Some(now + window),
            };
            let game = tx.accept_challenge(id, &acceptance, now)?;
            tx.make_team_game(game.id, window)?;
            let record = tx.game_record(game.id)?;
            Ok(Ok((record, tx.player(game.white)?, tx.player(game.black)?)))
        })
        .await;
    let (record, white, black) = match accepted {
        Ok(Ok(made)) => made,
        Ok(Err(busy)) => return told(format!("{busy} Accept again once it is over.")),
        Err(data::Error::ChannelBusy { .. }) => {
            return told("That channel started a game just now: a channel plays one game at a time.")
        }
        Err(data::Error::ChallengeExpired { .. }) => return told("That challenge has expired; ask for a new one."),
        Err(data::Error::NotFound { .. }) => {
            return told("That challenge is no longer open: it was accepted, declined or withdrawn.")
        }
        Err(e) => return Err(e.into()),
    };
    let table = Table::new(record, white, black)?;
    Ok(begins(cx, &table).await)
}

/// The announcement of a team game that begins: in the channel of the command, and in each
/// other team's channel.
async fn begins(cx: &Ctx<'_>, table: &Table) -> Reply {
    let mut text = format!(
        "Team game {} begins: {} (White) against {} (Black), {}, {}, unrated. Everyone in a team's channel \
         votes for its moves with `/move`; when the window closes the most-voted move is played (a tie goes to \
         the move voted first), and a side with no vote loses on time. {}",
        table.id(),
        table.name(Color::White),
        table.name(Color::Black),
        table.variant().name(),
        table.describe_time(),
        to_move_line(table)
    );
    if let Some(window) = table.record.vote_window.and_then(VoteWindow::from_ms) {
        if table.user(table.to_move()).team_channel().is_some() {
            text.push_str(&format!(" Votes close in {}.", window.describe()));
        }
    }
    let look = cx.host.look_at(table).await;
    let start = cx.host.board_message(table, text, &look);
    let mut reply = Reply::one(start.clone());
    for channel in channels(&table.record.game, [&table.white, &table.black]) {
        if channel != cx.channel() {
            reply = reply.push(start.clone().in_channel(&channel));
        }
    }
    reply
}

/// The channel a team challenge names, as the host stores channels: on a server, one of its
/// channels that Chimera can see and post in; on the console (which has no servers), the
/// channel of that name.
async fn team_channel(cx: &Ctx<'_>, named: &ChannelMention) -> Result<String, Refusal> {
    let Some(server) = cx.request.server.as_deref() else {
        if cx.platform() == "console" {
            return Ok(named.as_str().trim_start_matches('#').to_string());
        }
        return told("Team games are played between the channels of a server, not in a direct chat.");
    };
    let found = cx
        .places
        .find_channel(server, named)
        .await
        .map_err(|e| Refusal::Broken(format!("cannot look up a channel: {e}")))?;
    let shown = Typed(named.as_str());
    match found {
        FoundChannel::Here(channel) => Ok(channel),
        FoundChannel::Unknown => {
            told(format!("I cannot find the channel {shown} here: name one I can read and post in."))
        }
        FoundChannel::Elsewhere => told(format!(
            "{shown} is not a channel of this server: a team game is between two channels of one server. (On \
             Matrix each room is a place of its own, so a room's members play Chimera together with `/play \
             team:yes`.)"
        )),
        FoundChannel::NotForMessages => told(format!("{shown} holds no messages: name a text channel or a thread.")),
    }
}

/// The name to show for `channel`: the adapter's, else the channel as stored (on the console,
/// its name).
async fn channel_name(cx: &Ctx<'_>, channel: &str) -> String {
    cx.places.channel_name(channel).await.unwrap_or_else(|| channel.to_string())
}

/// A `/move` typed in the channel of `side`'s team in `table`'s game: a vote for its move.
pub(crate) async fn vote(cx: &Ctx<'_>, table: Table, side: Color, text: &str, confirm: bool) -> Handled {
    if table.to_move() != side {
        return told(format!(
            "It is {}'s move ({}); {} votes when it is {side}'s move again.",
            table.name(!side),
            !side,
            table.name(side)
        ));
    }
    let Some(deadline) = table.record.game.deadline.filter(|&d| d > cx.now) else {
        return told("The vote on this move has closed; its result is announced in a moment.");
    };
    let m = match play::read_move(&table, text)? {
        Ok(m) => m,
        Err(answer) => return Ok(answer),
    };
    if play::loses_at_once(&table, &m) && !confirm {
        return Ok(play::confirm_loss(&table, &m));
    }
    let (coord, san) = (table.position().coord(&m), table.position().san(&m));
    let (game, ply, platform, me, now) =
        (table.id(), table.ply(), cx.platform().to_string(), cx.user().clone(), cx.now);
    let cast = cx
        .store()
        .write(move |tx| {
            let voter = tx.upsert_player(&platform, &me.id, &me.name, now)?;
            let vote = tx.cast_vote(game, ply, voter.id, &coord, &san, now)?;
            Ok((vote, tx.tally(game, ply)?))
        })
        .await;
    let (vote, tally) = match cast {
        Ok(cast) => cast,
        Err(data::Error::PlyConflict { .. }) => return told(
            "The vote on that move closed before yours arrived, so it was not counted; `/board` shows the game now.",
        ),
        Err(data::Error::GameNotActive { .. }) => {
            return told(format!("Game {game} is over; your vote was not counted."))
        }
        Err(e) => return Err(e.into()),
    };
    Ok(Reply::one(tally_message(&table, side, &cx.user().name, &vote, &tally, deadline - cx.now)))
}

/// What `/board` adds in the channel of the team to move: its votes so far and when the vote
/// closes. Nothing elsewhere, so a team's plans stay in its own channel.
pub(crate) async fn standing(cx: &Ctx<'_>, table: &Table) -> Result<Option<String>, Refusal> {
    let side = table.to_move();
    let deadline = table.record.game.deadline;
    if table.team_in(cx.channel()) != Some(side) || table.record.game.state != data::GameState::Active {
        return Ok(None);
    }
    let (game, ply) = (table.id(), table.ply());
    let tally = cx.store().read(move |tx| tx.tally(game, ply)).await?;
    let mut line = match tally.as_slice() {
        [] => " No vote yet.".to_string(),
        _ => format!(" Votes for {}: {}.", move_number(ply + 1), counts(&tally)),
    };
    match deadline.map(|d| d - cx.now) {
        Some(left) if left > 0 => line.push_str(&format!(" The vote closes in {}.", format_duration(left))),
        _ => line.push_str(" The vote has closed; its result is announced in a moment."),
    }
    Ok(Some(line))
}

/// The votes as they stand after `voter`'s `vote`, with a button that votes for the leading move.
fn tally_message(table: &Table, side: Color, voter: &str, vote: &Vote, tally: &[Tally], left: i64) -> Message {
    let mut text = format!(
        "{} votes {} for {}. Votes for {}: {}.",
        Typed(voter),
        vote.san,
        table.name(side),
        move_number(table.ply() + 1),
        counts(tally)
    );
    let Some(leader) = tally.first() else { return Message::text(text) };
    text.push_str(&format!(" Leading: {}. The vote closes in {}.", leader.san, format_duration(left)));
    let command = Command::Move { text: leader.coord.clone(), confirm: false, game: Some(table.id()) };
    Message::text(text).with_button(&format!("Vote {}", leader.san), command, ButtonStyle::Primary)
}

/// `e4 2 votes, d4 1 vote`.
fn counts(tally: &[Tally]) -> String {
    let line = |t: &Tally| format!("{} {} vote{}", t.san, t.votes, if t.votes == 1 { "" } else { "s" });
    tally.iter().map(line).collect::<Vec<_>>().join(", ")
}

/// What closing a window did (see [`close_window`]).
pub(crate) enum Closed {
    /// Not a team's window that is due, with votes: the game is left to the clock's rule (a team
    /// with no vote, or Chimera, loses on time).
    NoVote,
    /// The most-voted move was played.
    Played,
    /// The game's record cannot be read: logged, and left for an operator.
    Unreadable,
}

/// Closes the window of `game` if it is a team game whose window is over and whose side to move
/// voted: plays the most-voted move and queues its announcement, in the caller's transaction
/// (the one that claimed the game as overdue, so it happens once).
pub(crate) fn close_window(tx: &WriteTx<'_>, game: GameId, now: i64, outbox: &Outbox) -> data::Result<Closed> {
    let record = tx.game_record(game)?;
    let due = record.game.state == data::GameState::Active && record.game.deadline.is_some_and(|d| d <= now);
    if record.vote_window.is_none() || !due {
        return Ok(Closed::NoVote);
    }
    let tally = tx.tally(game, record.ply())?;
    let Some(best) = tally.first() else { return Ok(Closed::NoVote) };
    let (white, black) = (tx.player(record.game.white)?, tx.player(record.game.black)?);
    // A record that does not read is logged where it fails.
    let Ok(table) = Table::new(record, white, black) else { return Ok(Closed::Unreadable) };
    let side = table.to_move();
    let m = match table.position().parse_coord(&best.coord) {
        Ok(m) => m,
        Err(e) => {
            super::stored::unreadable(format!("game {game}"), format!("the vote for {}: {e}", best.coord));
            return Ok(Closed::Unreadable);
        }
    };
    let Ok(prepared) = play::prepare(&table, &m, format!("vote:{game}:{}", table.ply()), now) else {
        return Ok(Closed::Unreadable);
    };
    let mut new = prepared.new.clone();
    let mut ended = None;
    if let Some(outcome) = prepared.outcome {
        let (finish, e) = end::finish(tx, &table.record.game, outcome)?;
        new.finish = Some(finish);
        ended = Some(e);
    }
    tx.append_move(game, &new, now)?;
    let mut text = format!(
        "Game {game}: {} ({side}) plays {} {} by vote ({}).",
        table.name(side),
        move_number(table.ply() + 1),
        best.san,
        counts(&tally)
    );
    let picture = match &mut ended {
        Some(ended) => {
            ended.game = tx.game(game)?;
            super::arbiter::settle(tx, &ended.game)?;
            text.push_str(&format!(" {}", ended.announcement()));
            Picture::Replay(game)
        }
        None => {
            let next = prepared.next.position();
            text.push_str(&format!(" {}", to_move_line_in(next, |c| table.name(c).0)));
            if table.user(!side).team_channel().is_some() {
                let window = table.record.vote_window.and_then(VoteWindow::from_ms);
                if let Some(window) = window {
                    text.push_str(&format!(" Votes close in {}.", window.describe()));
                }
            }
            Picture::Board(game)
        }
    };
    for channel in channels(&table.record.game, [&table.white, &table.black]) {
        outbox.queue(tx, now, &Message::text(text.clone()).in_channel(&channel), Some(picture))?;
    }
    Ok(Closed::Played)
}

/// Every channel that hears of `game`: its own, and each of its teams'.
pub(crate) fn channels(game: &data::Game, players: [&data::Player; 2]) -> Vec<String> {
    let mut channels = vec![game.channel.clone()];
    for player in players {
        if let Some(channel) = super::user::team_channel(&player.user_id) {
            if !channels.iter().any(|c| c == channel) {
                channels.push(channel.to_string());
            }
        }
    }
    channels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_written_in_their_largest_exact_unit_and_read_back() {
        for (text, seconds, written, words) in [
            ("30s", 30, "30s", "30 seconds"),
            ("90 s", 90, "90s", "90 seconds"),
            ("120s", 120, "2m", "2 minutes"),
            ("1h", 3_600, "1h", "1 hour"),
            ("12 hours", 43_200, "12h", "12 hours"),
            ("48h", 172_800, "2d", "2 days"),
            ("30D", 2_592_000, "30d", "30 days"),
        ] {
            let window: VoteWindow = text.parse().unwrap();
            assert_eq!(
                (window.seconds, window.to_string(), window.describe()),
                (seconds, written.into(), words.into())
            );
            assert_eq!(window.to_string().parse(), Ok(window));
            assert_eq!(VoteWindow::from_ms(window.ms()), Some(window));
        }
        assert_eq!(VoteWindow::from_ms(30_500), None, "whole seconds");
        assert_eq!(VoteWindow::from_ms(4_000), None);
        assert!("99999999999999999999d".parse::<VoteWindow>().is_err());
    }

    #[test]
    fn counts_read_as_people_say_them() {
        let line = |san: &str, votes| Tally { coord: String::new(), san: san.into(), votes, first: 1 };
        assert_eq!(counts(&[line("e4", 2), line("d4", 1)]), "e4 2 votes, d4 1 vote");
    }
}
