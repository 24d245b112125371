//! `/tournament ...`: each subcommand checks, changes storage in one commit, then answers.

use data::{Format, NewTournament, Player, TournamentId, TournamentState};
use rules::Variant;

use super::super::clock::TimeControl;
use super::super::command::{Starts, TournamentCommand};
use super::super::stored;
use super::super::{told, Command, Ctx, Handled, Message, Refusal, Reply, Typed, User};
use super::event::Event;
use super::pause;
use super::results::forfeit;
use super::rounds::{self, NotStarted, Starter};
use super::show;

pub(crate) async fn handle(cx: &Ctx<'_>, command: &TournamentCommand) -> Handled {
    // Text was checked as it was read; a command built from typed options is checked here.
    command.check().or_else(|e| told(e.to_string()))?;
    match command {
        TournamentCommand::Create { name, variant, format, rounds, time, rated, starts, double } => {
            create(cx, name.trim(), *variant, *format, *rounds, *time, *rated, *starts, *double).await
        }
        TournamentCommand::Join { id } => join(cx, *id).await,
        TournamentCommand::Leave { id } => leave(cx, *id).await,
        TournamentCommand::Start { id } => start(cx, *id).await,
        TournamentCommand::Standings { id } => standings(cx, *id).await,
        TournamentCommand::Pairings { round, id } => pairings(cx, *round, *id).await,
        TournamentCommand::Withdraw { player, id } => withdraw(cx, player, *id).await,
        TournamentCommand::Cancel { id } => cancel(cx, *id).await,
        TournamentCommand::List { page } => list(cx, page.unwrap_or(1).max(1)).await,
        TournamentCommand::Help => Ok(Reply::one(Message::text(include_str!("help.md").trim_end()))),
    }
}

/// The server a request's tournaments belong to (the console has none: one shared space).
fn server(cx: &Ctx<'_>) -> String {
    cx.request.server.clone().unwrap_or_default()
}

/// How many tournaments `/tournament list` shows a page.
pub(crate) const LIST_PAGE: u32 = 10;

/// Which tournament a command found (see [`resolve`]): only that one is then loaded whole.
enum Found {
    One(TournamentId),
    Missing(String),
}

/// The tournament a command is about: the one named, or the server's one open or running
/// tournament (for `recent`, the latest one when none is). Only the server's live tournaments
/// (as many as [`Limits::tournaments_per_server`](super::super::Limits) allows) are looked
/// through, and only the one found is loaded with its entrants, rounds and games.
async fn resolve(cx: &Ctx<'_>, id: Option<TournamentId>, recent: bool) -> Result<Event, Refusal> {
    let (platform, server) = (cx.platform().to_string(), server(cx));
    let found = cx
        .store()
        .read(move |tx| {
            let found = match id {
                Some(id) => match tx.server_tournament(&platform, &server, id)? {
                    Some(t) => Found::One(t.id),
                    None => Found::Missing(format!(
                        "There is no tournament {id} here; `/tournament list` shows this server's."
                    )),
                },
                None => {
                    let live = tx.live_server_tournaments(&platform, &server)?;
                    match live.as_slice() {
                        [one] => Found::One(one.id),
                        [] => match tx.latest_server_tournament(&platform, &server)?.filter(|_| recent) {
                            Some(latest) => Found::One(latest.id),
                            None => Found::Missing(
                                "There is no open or running tournament here. `/tournament create name:... variant:chess format:swiss` makes one; `/tournament list` shows past ones.".into(),
                            ),
                        },
                        several => {
                            let names: Vec<String> =
                                several.iter().map(|t| format!("tournament {} \"{}\"", t.id, Typed(&t.name))).collect();
                            Found::Missing(format!(
                                "Several tournaments are on here: {}. Say which with `id:`.",
                                names.join(", ")
                            ))
                        }
                    }
                }
            };
            Ok(match found {
                Found::One(id) => Ok(Event::load(tx, id)?),
                Found::Missing(why) => Err(why),
            })
        })
        .await?;
    found.or_else(told)
}

/// Only the organiser or a server manager may run a tournament.
fn may_direct(cx: &Ctx<'_>, event: &Event, what: &str) -> Result<(), Refusal> {
    let organiser = event.players.get(&event.t.organiser).map(|p| p.user_id.as_str());
    if cx.request.manager || organiser == Some(cx.user().id.as_str()) {
        return Ok(());
    }
    told(format!(
        "Only {} (the organiser) or a server manager may {what} {}.",
        event.name(event.t.organiser),
        event.title()
    ))
}

#[allow(clippy::too_many_arguments)]
async fn create(
    cx: &Ctx<'_>,
    name: &str,
    variant: Variant,
    format: Format,
    rounds: Option<u32>,
    time: TimeControl,
    rated: bool,
    starts: Option<Starts>,
    double: bool,
) -> Handled {
    let now = cx.now;
    let starts_at = match starts {
        None => i64::MAX,
        Some(Starts::Now) => now,
        Some(Starts::In(ms)) => now + ms,
        Some(Starts::At(at)) if at < now => {
            return told("That start time has passed; give a later one, or `starts:now`.");
        }
        Some(Starts::At(at)) => at,
    };
    let me = cx.user().clone();
    let new = NewTournament {
        platform: cx.platform().to_string(),
        server: server(cx),
        channel: cx.channel().to_string(),
        organiser: 0,
        name: name.to_string(),
        variant: variant.id().to_string(),
        format,
        rounds,
        time_control: Some(stored::to_time_control(time)),
        rated,
        starts_at,
        double,
    };
    let platform = cx.platform().to_string();
    let limits = cx.host.settings().limits;
    let (per_user, per_server) = (limits.tournaments_per_user, limits.tournaments_per_server);
    // Counted in the transaction that adds one, so that two at once cannot both slip under.
    let event = cx
        .store()
        .write(move |tx| {
            let on_server = tx.live_server_tournaments(&new.platform, &new.server)?.len();
            if on_server >= per_server {
                return Ok(Err(format!(
                    "This server has {on_server} tournaments open or running, as many as it may at once: finish or cancel one first (`/tournament list`)."
                )));
            }
            let organiser = tx.upsert_player(&platform, &me.id, &me.name, now)?;
            let mine = tx.count_live_tournaments_of(organiser.id)?;
            if mine >= per_user as u64 {
                return Ok(Err(format!(
                    "You organise {mine} tournaments open or running, as many as one user may at once: finish or cancel one first."
                )));
            }
            let t = tx.create_tournament(&NewTournament { organiser: organiser.id, ..new.clone() }, now)?;
            Ok(Ok(Event::load(tx, t.id)?))
        })
        .await?
        .or_else(told)?;
    let id = event.t.id;
    Ok(Reply::one(
        Message::text(format!(
            "{} creates {}: {}. It starts {}. Join with `{}`.",
            Typed(&cx.user().name),
            event.title(),
            event.terms()?,
            show::starts_in_words(starts_at, now),
            Command::<User>::Tournament(TournamentCommand::Join { id: Some(id) })
        ))
        .with_link(cx.host.tournament_link(&event.t.web_key)),
    ))
}

async fn join(cx: &Ctx<'_>, id: Option<TournamentId>) -> Handled {
    let event = resolve(cx, id, false).await?;
    if event.t.state != TournamentState::Open {
        return told(format!("{} is {}: entries are closed.", show::capital(&event.title()), event.t.state));
    }
    if event.is_entrant(&cx.user().id) {
        return told(format!("You have already joined {}.", event.title()));
    }
    let (me, platform, now, tid) = (cx.user().clone(), cx.platform().to_string(), cx.now, event.t.id);
    let size = cx.host.settings().limits.tournament_size;
    let joined = cx
        .store()
        .write(move |tx| {
            let entrants = tx.entrants(tid)?.len();
            if entrants >= size {
                return Ok(Err(entrants));
            }
            let player = tx.upsert_player(&platform, &me.id, &me.name, now)?;
            tx.join_tournament(tid, player.id, now)?;
            Ok(Ok(tx.entrants(tid)?.len()))
        })
        .await;
    let count = match joined {
        Ok(Ok(count)) => count,
        Ok(Err(full)) => {
            return told(format!("{} is full: it takes {full} players at most.", show::capital(&event.title())))
        }
        Err(data::Error::AlreadyEntered { .. }) => return told(format!("You have already joined {}.", event.title())),
        Err(data::Error::TournamentState { .. }) => return told(format!("{} has started meanwhile.", event.title())),
        Err(e) => return Err(e.into()),
    };
    Ok(Reply::one(Message::text(format!(
        "{} joins {} ({count} player{}).",
        Typed(&cx.user().name),
        event.title(),
        if count == 1 { "" } else { "s" }
    ))))
}

async fn leave(cx: &Ctx<'_>, id: Option<TournamentId>) -> Handled {
    let event = resolve(cx, id, false).await?;
    let me = event.players.values().find(|p| p.user_id == cx.user().id).map(|p| p.id);
    let Some(me) = me.filter(|_| event.is_entrant(&cx.user().id)) else {
        return told(format!("You have not joined {}.", event.title()));
    };
    if event.t.state != TournamentState::Open {
        return told(format!(
            "{} has started, so you can no longer leave it; the organiser ({}) or a server manager can withdraw you with `/tournament withdraw player:@you`.",
            show::capital(&event.title()),
            event.name(event.t.organiser)
        ));
    }
    let tid = event.t.id;
    match cx.store().write(move |tx| tx.leave_tournament(tid, me)).await {
        Ok(()) => {}
        Err(data::Error::TournamentState { .. }) => return told(format!("{} has started meanwhile.", event.title())),
        Err(e) => return Err(e.into()),
    }
    Ok(Reply::one(Message::text(format!("{} leaves {}.", Typed(&cx.user().name), event.title()))))
}

async fn start(cx: &Ctx<'_>, id: Option<TournamentId>) -> Handled {
    let event = resolve(cx, id, false).await?;
    may_direct(cx, &event, "start")?;
    // A paused tournament resumes (an open one then starts, as asked).
    let resumed = event.is_live() && pause::resume(cx.host, event.t.id).await?;
    if resumed && event.t.state == TournamentState::Running {
        // Its missing games open after this answer, as after any command that moves it.
        cx.note_tournament_moved();
        return Ok(Reply::one(Message::text(format!(
            "{} resumes {}: its missing games open now.",
            Typed(&cx.user().name),
            event.title()
        ))));
    }
    if event.t.state != TournamentState::Open {
        return told(format!(
            "{} is {}; only an open tournament can start.",
            show::capital(&event.title()),
            event.t.state
        ));
    }
    match rounds::start(cx.host, cx.places, event.t.id, Starter::Command).await {
        Ok(started) => {
            // Its first round is announced with its games, after this answer.
            cx.note_announcements();
            Ok(Reply::one(show::started(&started)?.with_link(cx.host.tournament_link(&started.t.web_key))))
        }
        Err(NotStarted::Refused(why)) => told(why),
        Err(NotStarted::Failed(refusal)) => Err(refusal),
    }
}

async fn standings(cx: &Ctx<'_>, id: Option<TournamentId>) -> Handled {
    let event = resolve(cx, id, true).await?;
    if event.rounds.is_empty() {
        let names: Vec<String> = event.entrants.iter().map(|e| event.name(e.player).to_string()).collect();
        return Ok(Reply::one(Message::text(format!(
            "{} has not started; {} player{} joined{}{}.",
            show::capital(&event.title()),
            names.len(),
            if names.len() == 1 { " has" } else { "s have" },
            if names.is_empty() { "" } else { ": " },
            names.join(", ")
        ))));
    }
    let standings = show::standings(&event);
    let finished = event.t.state == TournamentState::Finished;
    let text = format!(
        "{}, {}:\n{}",
        show::capital(&event.title()),
        if finished { "final standings" } else { "standings so far" },
        show::standings_text(&standings)
    );
    let image = show::standings_image(cx.host, &event, &standings, finished)?;
    Ok(Reply::one(Message::text(text).with_image(image).with_link(cx.host.tournament_link(&event.t.web_key))))
}

async fn pairings(cx: &Ctx<'_>, round: Option<u32>, id: Option<TournamentId>) -> Handled {
    let event = resolve(cx, id, true).await?;
    let Some(current) = event.current() else {
        return told(format!("{} has not started, so nobody is paired yet.", show::capital(&event.title())));
    };
    let number = round.unwrap_or(current.number);
    let Some(shown) = event.rounds.iter().find(|r| r.number == number) else {
        return told(format!(
            "{} has no round {number} (yet): rounds 1 to {} have been paired.",
            show::capital(&event.title()),
            current.number
        ));
    };
    let text = format!(
        "{}, round {number}{}:\n{}",
        show::capital(&event.title()),
        if shown.finished_at.is_some() { " (finished)" } else { "" },
        show::pairings_lines(&event, shown).join("\n")
    );
    Ok(Reply::one(Message::text(text).with_link(cx.host.tournament_link(&event.t.web_key))))
}

async fn withdraw(cx: &Ctx<'_>, who: &User, id: Option<TournamentId>) -> Handled {
    let event = resolve(cx, id, false).await?;
    may_direct(cx, &event, "withdraw players from")?;
    let entrant: Option<&Player> =
        event.entrants.iter().filter_map(|e| event.players.get(&e.player)).find(|p| p.user_id == who.id);
    let Some(player) = entrant.cloned() else {
        return told(format!("{} is not in {}.", Typed(&who.name), event.title()));
    };
    if event.entrants.iter().any(|e| e.player == player.id && e.withdrawn_at.is_some()) {
        return told(format!("{} has already withdrawn from {}.", Typed(&player.display_name), event.title()));
    }
    let (tid, now, pid) = (event.t.id, cx.now, player.id);
    let reason = format!("{} withdrew from the tournament", Typed(&player.display_name));
    let open = event.t.state == TournamentState::Open;
    let done = cx
        .store()
        .write(move |tx| {
            if open {
                tx.leave_tournament(tid, pid)?;
                return Ok(None);
            }
            tx.withdraw_entrant(tid, pid, now)?;
            let forfeited = forfeit(tx, tid, pid, &reason, now)?;
            let event = Event::load(tx, tid)?;
            Ok(forfeited.map(|f| (f, event)))
        })
        .await;
    let forfeited = match done {
        Ok(f) => f,
        Err(data::Error::TournamentState { .. }) => {
            return told(format!("{} is over or cancelled; nobody can be withdrawn.", show::capital(&event.title())))
        }
        Err(e) => return Err(e.into()),
    };
    if open {
        return Ok(Reply::one(
            Message::text(format!(
                "{} takes {} out of {}.",
                Typed(&cx.user().name),
                Typed(&player.display_name),
                event.title()
            ))
            .mentioning(&stored::user(&player)),
        ));
    }
    let mut text = format!(
        "{} withdraws {} from {}: they will not be paired again.",
        Typed(&cx.user().name),
        Typed(&player.display_name),
        event.title()
    );
    let mut messages = Vec::new();
    if let Some((f, now_event)) = &forfeited {
        let opponent = if f.pairing.white == pid { f.pairing.black } else { Some(f.pairing.white) };
        let opponent = opponent.map_or("?".to_string(), |o| now_event.name(o).to_string());
        text.push_str(&format!(
            " Their game in round {} is forfeited: {opponent} wins by forfeit.",
            now_event.rounds.len()
        ));
        if let Some(game) = &f.game {
            messages.push(
                Message::text(format!(
                    "Game {} is stopped: {} withdrew from the tournament, so {opponent} wins by forfeit.",
                    game.id,
                    Typed(&player.display_name)
                ))
                .mentioning(&now_event.user(game.white))
                .mentioning(&now_event.user(game.black))
                .in_channel(&game.channel),
            );
        }
    }
    let mut reply = Reply::one(Message::text(text).mentioning(&stored::user(&player)));
    reply.messages.extend(messages);
    // The forfeit may complete the round: the tournament moves on after this answer.
    cx.note_tournament_moved();
    Ok(reply)
}

async fn cancel(cx: &Ctx<'_>, id: Option<TournamentId>) -> Handled {
    let event = resolve(cx, id, false).await?;
    may_direct(cx, &event, "cancel")?;
    if !event.is_live() {
        return told(format!("{} is already {}.", show::capital(&event.title()), event.t.state));
    }
    let (tid, now) = (event.t.id, cx.now);
    let reason = format!("{} was cancelled", event.title());
    let stopped = cx
        .store()
        .write(move |tx| {
            let event = Event::load(tx, tid)?;
            if !event.is_live() {
                return Ok(None);
            }
            let mut stopped = Vec::new();
            for g in event.games.values().filter(|g| g.state == data::GameState::Active) {
                stopped.push(tx.abort_game(g.id, &reason, now)?);
            }
            tx.set_tournament_state(tid, TournamentState::Cancelled, None, now)?;
            Ok(Some(stopped))
        })
        .await?;
    let Some(stopped) = stopped else { return told(format!("{} has ended meanwhile.", event.title())) };
    let mut announcement = Message::text(format!(
        "{} cancels {}{}.",
        Typed(&cx.user().name),
        event.title(),
        if stopped.is_empty() { String::new() } else { format!("; {} game(s) in progress are stopped", stopped.len()) }
    ));
    for e in &event.entrants {
        announcement = announcement.mentioning(&event.user(e.player));
    }
    let mut reply = Reply::one(announcement);
    for g in &stopped {
        reply.messages.push(
            Message::text(format!("Game {} is stopped: {} was cancelled. It counts for nothing.", g.id, event.title()))
                .in_channel(&g.channel),
        );
    }
    Ok(reply)
}

/// One page of the server's tournaments, latest first: only that page is loaded.
async fn list(cx: &Ctx<'_>, page: u32) -> Handled {
    let (platform, server) = (cx.platform().to_string(), server(cx));
    let skip = (page - 1).saturating_mul(LIST_PAGE);
    let (total, events) = cx
        .store()
        .read(move |tx| {
            let total = tx.count_server_tournaments(&platform, &server)?;
            let page = tx.server_tournaments_page(&platform, &server, skip, LIST_PAGE)?;
            let events = page.into_iter().map(|t| Event::load(tx, t.id)).collect::<data::Result<Vec<_>>>()?;
            Ok((total, events))
        })
        .await?;
    if total == 0 {
        return Ok(Reply::one(Message::text(
            "No tournaments here yet. `/tournament create name:... variant:chess format:swiss` makes one.",
        )));
    }
    let pages = total.div_ceil(u64::from(LIST_PAGE));
    if events.is_empty() {
        return told(format!("There are {pages} page(s) of tournaments here; page {page} is past the last."));
    }
    let mut lines = vec![if pages == 1 {
        "Tournaments here, latest first:".to_string()
    } else {
        format!("Tournaments here, latest first (page {page} of {pages}):")
    }];
    for event in &events {
        lines.push(show::list_line(event)?);
    }
    if u64::from(page) < pages {
        let next = Command::<User>::Tournament(TournamentCommand::List { page: Some(page + 1) });
        lines.push(format!("More with `{next}`."));
    }
    Ok(Reply::one(Message::text(lines.join("\n"))))
}
