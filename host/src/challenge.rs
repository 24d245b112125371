//! Challenges: `/challenge`, `/accept`, `/decline`. Accepting starts the game in the same
//! commit; a channel that already has a game gets the new one a place of its own.

use data::{Acceptance, Challenge, ChallengeId, NewChallenge, Player};
use rules::{Color, Position, Variant};

use super::clock::{format_duration, TimeControl};
use super::command::ColorChoice;
use super::stored::{self, Terms};
use super::table::Table;
use super::turn_notice::NextTurn;
use super::user::team_channel;
use super::view::to_move_line;
use super::{told, ButtonStyle, Command, Ctx, Handled, Message, Refusal, Reply, Typed, User};

/// How many fresh places the host asks for before it gives up on finding a free one.
const PLACE_TRIES: usize = 8;

pub(crate) async fn challenge(
    cx: &Ctx<'_>,
    opponent: Option<&User>,
    variant: Variant,
    color: ColorChoice,
    time: TimeControl,
    rated: bool,
) -> Handled {
    let me = cx.user().clone();
    if opponent.is_some_and(|o| o.id == me.id) {
        return told("You cannot challenge yourself. Name an opponent, or leave the opponent out for an open challenge anyone here may accept.");
    }
    let new = NewChallenge {
        platform: cx.platform().to_string(),
        server: cx.request.server.clone(),
        channel: cx.channel().to_string(),
        challenger: 0,
        challenged: None,
        variant: variant.id().to_string(),
        color,
        time_control: Some(stored::to_time_control(time)),
        rated,
        expires_at: cx.now + cx.host.settings().challenge_expiry_ms,
    };
    let (platform, now, opponent) = (cx.platform().to_string(), cx.now, opponent.cloned());
    let limits = cx.host.settings().limits;
    let made = cx
        .store()
        .write(move |tx| {
            if let Some(known) = tx.find_player(&platform, &me.id)? {
                let open = tx.challenges_of(known.id, now)?.iter().filter(|c| c.challenger == known.id).count();
                if open >= limits.open_challenges {
                    return Ok(Err(format!(
                        "You have {open} challenge{} open, as many as one player may: wait for answers, or \
                         `{}` one of them first.",
                        if open == 1 { "" } else { "s" },
                        Command::<User>::Decline { challenger: None, challenge: None }
                    )));
                }
                if let Err(why) = game_room(tx, &known, limits.games, "You are")? {
                    return Ok(Err(why));
                }
            }
            let challenger = tx.upsert_player(&platform, &me.id, &me.name, now)?;
            // The adapter resolved the opponent's name just now: the freshest there is.
            let challenged = opponent.as_ref().map(|o| tx.upsert_player(&platform, &o.id, &o.name, now)).transpose()?;
            let new = NewChallenge {
                challenger: challenger.id,
                challenged: challenged.as_ref().map(|p| p.id),
                ..new.clone()
            };
            Ok(Ok((tx.create_challenge(&new, now)?, challenger, challenged)))
        })
        .await?;
    let (challenge, challenger, challenged) = made.map_err(Refusal::Told)?;
    let busy = cx.active_table().await?.is_some();
    Ok(Reply::one(challenge_message(&challenge, &challenger, challenged.as_ref(), busy)?))
}

fn challenge_message(
    c: &Challenge,
    challenger: &Player,
    challenged: Option<&Player>,
    busy: bool,
) -> Result<Message, Refusal> {
    let terms = terms(c)?;
    let accept = Command::Accept { challenger: None, challenge: Some(c.id) };
    let decline = Command::Decline { challenger: None, challenge: Some(c.id) };
    let expiry = format_duration(c.expires_at - c.created_at);
    let mut text = match challenged {
        Some(p) => format!(
            "{} challenges {} to {terms}. {}, `{}` or `{}` within {expiry}.",
            Typed(&challenger.display_name),
            Typed(&p.display_name),
            Typed(&p.display_name),
            Command::<User>::Accept { challenger: None, challenge: None },
            Command::<User>::Decline { challenger: None, challenge: None },
        ),
        None => format!(
            "{} challenges anyone here to {terms}. `{}` within {expiry} to play.",
            Typed(&challenger.display_name),
            Command::<User>::Accept { challenger: None, challenge: None },
        ),
    };
    if busy {
        text.push_str(" This channel has a game on, so the new game will get a place of its own.");
    }
    let message = Message::text(text).with_button("Accept", accept, ButtonStyle::Primary).with_button(
        "Decline",
        decline,
        ButtonStyle::Secondary,
    );
    Ok(match challenged {
        Some(p) => message.mentioning(&stored::user(p)),
        None => message,
    })
}

/// `a rated game of Golem Chess, 5+3 (...), colours by lot`.
fn terms(c: &Challenge) -> Result<String, Refusal> {
    let variant = c.variant()?.name();
    let time = c.time_control()?.map_or("no clock".to_string(), TimeControl::describe);
    let colour = match c.color {
        data::ColorChoice::White => "challenger playing White",
        data::ColorChoice::Black => "challenger playing Black",
        data::ColorChoice::Random => "colours by lot",
    };
    let rated = if c.rated { "a rated" } else { "an unrated" };
    Ok(format!("{rated} game of {variant}, {time}, {colour}"))
}

/// What `c` offers, for a list or an answer: [`terms`], or for a team challenge (to the team
/// `challenged`), its game by vote, whose clock is a vote window the challenge row does not hold.
fn offered(c: &Challenge, challenged: Option<&Player>) -> Result<String, Refusal> {
    match challenged {
        Some(team) if team_channel(&team.user_id).is_some() => {
            Ok(format!("an unrated team game of {}, by vote", c.variant()?.name()))
        }
        _ => terms(c),
    }
}

/// The channel's challenges with their makers, as one snapshot.
async fn open_challenges(cx: &Ctx<'_>) -> Result<Vec<(Challenge, Player, Option<Player>)>, Refusal> {
    let (platform, channel, now) = (cx.platform().to_string(), cx.channel().to_string(), cx.now);
    Ok(cx
        .store()
        .read(move |tx| {
            tx.channel_challenges(&platform, &channel, now)?
                .into_iter()
                .map(|c| {
                    let challenger = tx.player(c.challenger)?;
                    let challenged = c.challenged.map(|id| tx.player(id)).transpose()?;
                    Ok((c, challenger, challenged))
                })
                .collect()
        })
        .await?)
}

pub(crate) async fn accept(cx: &Ctx<'_>, from: Option<&User>, id: Option<ChallengeId>) -> Handled {
    let me = cx.user().clone();
    let all = open_challenges(cx).await?;
    let named: Vec<_> = all
        .iter()
        .filter(|(c, maker, _)| id.is_none_or(|id| c.id == id) && from.is_none_or(|m| maker.user_id == m.id))
        .collect();
    if named.is_empty() {
        return match (id, from) {
            (Some(_), _) => {
                told("That challenge is no longer open: it was accepted, declined, withdrawn or it expired.")
            }
            (None, Some(m)) => told(format!("{} has no open challenge in #{}.", Typed(&m.name), cx.channel())),
            (None, None) => told(format!(
                "There is no challenge to accept in #{}. Make one with `/challenge @someone variant:chess`.",
                cx.channel()
            )),
        };
    }
    let mine: Vec<_> = named
        .iter()
        .filter(|(c, maker, challenged)| {
            maker.user_id != me.id && challenged.as_ref().is_none_or(|p| answers_for(cx, p)) && c.expires_at > cx.now
        })
        .collect();
    let (challenge, _, challenged) = match mine.as_slice() {
        [one] => **one,
        [] => {
            let (_, maker, challenged) = named[0];
            return match challenged {
                _ if maker.user_id == me.id => told(format!(
                    "You cannot accept your own challenge: your opponent must `{}` it (or `{}` withdraws it).",
                    Command::<User>::Accept { challenger: None, challenge: None },
                    Command::<User>::Decline { challenger: None, challenge: None },
                )),
                Some(p) => told(format!("That challenge is for {}, not for you.", Typed(&p.display_name))),
                None => told("That challenge is not open to you."),
            };
        }
        several => {
            let makers = several
                .iter()
                .map(|(c, maker, to)| Ok(format!("{} ({})", Typed(&maker.display_name), offered(c, to.as_ref())?)))
                .collect::<Result<Vec<String>, Refusal>>()?;
            return told(format!(
                "Several challenges are open to you: {}. Say which with `/accept challenger:@name`.",
                makers.join("; ")
            ));
        }
    };
    if challenged.as_ref().is_some_and(|p| team_channel(&p.user_id).is_some()) {
        return super::team::accept(cx, challenge).await;
    }
    start_game(cx, challenge).await
}

/// Whether the requester answers a challenge made to `challenged`: they are that player, or
/// `challenged` is the team of the channel they speak in.
fn answers_for(cx: &Ctx<'_>, challenged: &Player) -> bool {
    challenged.user_id == cx.user().id || team_channel(&challenged.user_id) == Some(cx.channel())
}

/// Accepts `challenge` for the requester: in its channel, or, while that has a game, in a new
/// place the adapter opens.
async fn start_game(cx: &Ctx<'_>, challenge: &Challenge) -> Handled {
    let variant = challenge.variant()?;
    let time = challenge.time_control()?;
    let me = cx.user().clone();
    let mut place = None;
    if cx.active_table().await?.is_some() {
        place = Some(open_place(cx, challenge, variant).await?);
    }
    for _ in 0..PLACE_TRIES {
        let acceptance_channel = place.clone();
        let (platform, now, id) = (cx.platform().to_string(), cx.now, challenge.id);
        let deadline = time.map(|tc| now + tc.initial_ms());
        let me = me.clone();
        let games_limit = cx.host.settings().limits.games;
        // Tossed here, on the command's thread, not in the write (which may run again on a
        // conflict): one toss per attempt, and a caller that seeds its thread's generator (the
        // fuzz checks) gets the same colours every run.
        let toss = if fastrand::bool() { data::Color::White } else { data::Color::Black };
        let accepted = cx
            .store()
            .write(move |tx| {
                let maker = tx.player(tx.challenge(id)?.challenger)?;
                let known = tx.find_player(&platform, &me.id)?;
                for (who, player) in [("You are", known.as_ref()), (maker.display_name.as_str(), Some(&maker))] {
                    if let Some(player) = player {
                        if let Err(why) = game_room(tx, player, games_limit, who)? {
                            return Ok(Err(why));
                        }
                    }
                }
                let acceptor = tx.upsert_player(&platform, &me.id, &me.name, now)?;
                let acceptance = Acceptance {
                    acceptor: acceptor.id,
                    toss,
                    start_fen: Position::start(variant).fen(),
                    channel: acceptance_channel.clone(),
                    deadline,
                };
                let game = tx.accept_challenge(id, &acceptance, now)?;
                let record = tx.game_record(game.id)?;
                let (white, black) = (tx.player(game.white)?, tx.player(game.black)?);
                if let Some(first) = NextTurn::first(&game, &white) {
                    first.queue(tx, now)?;
                }
                Ok(Ok((record, white, black)))
            })
            .await;
        match accepted {
            Ok(Err(why)) => return told(why),
            Ok(Ok((record, white, black))) => {
                let table = Table::new(record, white, black)?;
                return Ok(started(cx, &table, &challenge.channel).await);
            }
            // Someone started a game where this one was to go: it goes somewhere new.
            Err(data::Error::ChannelBusy { .. }) => place = Some(open_place(cx, challenge, variant).await?),
            Err(data::Error::ChallengeExpired { .. }) => return told("That challenge has expired; ask for a new one."),
            Err(data::Error::NotFound { .. }) => {
                return told("That challenge is no longer open: it was accepted, declined or withdrawn.")
            }
            Err(e) => return Err(e.into()),
        }
    }
    Err(Refusal::Broken(format!("no free place for the game after {PLACE_TRIES} tries")))
}

/// Whether `player` may start another game: `Err` says they have as many going as one player
/// may (tournament games are not counted). `who` starts the sentence: "You are", "alice".
pub(crate) fn game_room(
    tx: &data::ReadTx<'_>,
    player: &Player,
    limit: usize,
    who: &str,
) -> data::Result<Result<(), String>> {
    let going = tx.active_games_of(player.id)?.iter().filter(|g| g.pairing.is_none()).count();
    if going < limit {
        return Ok(Ok(()));
    }
    let is = if who == "You are" { who.to_string() } else { format!("{who} is") };
    let games = if going == 1 { "1 game" } else { &format!("{going} games") };
    Ok(Err(format!("{is} playing {games}, as many as one player may at once: finish one first.")))
}

/// Opens a place for the game of `challenge`, titled with the variant and both players (a thread
/// named `Grolman Chess: carol vs dave` says what it holds wherever it is listed).
async fn open_place(cx: &Ctx<'_>, challenge: &Challenge, variant: Variant) -> Result<String, Refusal> {
    let maker = challenge.challenger;
    let maker = cx.store().read(move |tx| tx.player(maker)).await?;
    open_place_titled(cx, &format!("{}: {} vs {}", variant.name(), maker.display_name, cx.user().name)).await
}

/// A fresh place for a game, under the channel of the command, named `title`.
pub(crate) async fn open_place_titled(cx: &Ctx<'_>, title: &str) -> Result<String, Refusal> {
    cx.places
        .open_place(cx.channel(), title)
        .await
        .map_err(|e| Refusal::Broken(format!("cannot open a place for the game: {e}")))
}

/// The announcement of a new game, where it is played, and a pointer to it from `asked_in`
/// (the channel of the challenge) when that is elsewhere.
pub(crate) async fn started(cx: &Ctx<'_>, table: &Table, asked_in: &str) -> Reply {
    let g = &table.record.game;
    let time = table.describe_time();
    let rated = if g.rated { "rated" } else { "unrated" };
    let text = format!(
        "Game {} begins: {} (White) against {} (Black), {}, {time}, {rated}. {} Moves: `/move e4`, `/moves` lists them.",
        g.id,
        table.name(Color::White),
        table.name(Color::Black),
        table.variant().name(),
        to_move_line(table),
    );
    let look = cx.host.look_at(table).await;
    let start = cx.host.board_message(table, text, &look).mentioning(&table.user(table.to_move()));
    if g.channel == asked_in {
        return Reply::one(start);
    }
    let pointer = Message::text(format!(
        "#{} has a game on, so {} and {} play game {} in #{}.",
        asked_in,
        table.name(Color::White),
        table.name(Color::Black),
        g.id,
        g.channel
    ))
    .mentioning(&table.user(Color::White))
    .mentioning(&table.user(Color::Black));
    // Both are called in the new place: on Discord a mention is what adds them to the thread.
    let start = start.mentioning(&table.user(Color::White)).mentioning(&table.user(Color::Black));
    Reply::one(pointer).push(start.in_channel(&g.channel))
}

pub(crate) async fn decline(cx: &Ctx<'_>, from: Option<&User>, id: Option<ChallengeId>) -> Handled {
    let me = cx.user().clone();
    let all = open_challenges(cx).await?;
    let concerned: Vec<_> = all
        .iter()
        .filter(|(c, maker, _)| id.is_none_or(|id| c.id == id) && from.is_none_or(|m| maker.user_id == m.id))
        .filter(|(_, maker, challenged)| {
            maker.user_id == me.id || challenged.as_ref().is_some_and(|p| answers_for(cx, p))
        })
        .collect();
    let (challenge, maker, challenged) = match concerned.as_slice() {
        [one] => *one,
        [] if id.is_some() && all.iter().any(|(c, ..)| Some(c.id) == id) => {
            return told("Only the challenger can withdraw that challenge, and only the one challenged can decline it.")
        }
        [] => return told(format!("There is no challenge of yours, or to you, in #{}.", cx.channel())),
        several => {
            let list: Vec<String> = several
                .iter()
                .map(|(c, maker, _)| format!("challenge {} by {}", c.id, Typed(&maker.display_name)))
                .collect();
            return told(format!(
                "Several challenges concern you: {}. Say which with `/decline challenger:@name`.",
                list.join(", ")
            ));
        }
    };
    // A member declines for their team.
    let player = match challenged {
        Some(team) if maker.user_id != me.id && team_channel(&team.user_id).is_some() => team.user_id.clone(),
        _ => me.id.clone(),
    };
    let challenge_id = challenge.id;
    let platform = cx.platform().to_string();
    let declined = cx
        .store()
        .write(move |tx| {
            let by = tx.find_player(&platform, &player)?.ok_or(data::Error::NotFound { what: "player", id: 0 })?;
            tx.decline_challenge(challenge_id, by.id)
        })
        .await;
    match declined {
        Ok(_) => {}
        Err(data::Error::NotFound { .. }) => return told("That challenge is no longer open."),
        Err(e) => return Err(e.into()),
    }
    let text = if maker.user_id == me.id {
        format!(
            "{} withdraws their challenge ({}).",
            Typed(&maker.display_name),
            offered(challenge, challenged.as_ref())?
        )
    } else {
        let offered = offered(challenge, challenged.as_ref())?;
        format!("{} declines {}'s challenge ({offered}).", Typed(&me.name), Typed(&maker.display_name))
    };
    Ok(Reply::one(Message::text(text).mentioning(&stored::user(maker))))
}
