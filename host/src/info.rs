//! Looking, not touching: `/board`, `/moves`, `/game`, `/pgn`, `/rules`, `/rating`,
//! `/leaderboard`, `/history`, `/help`. Anyone may ask; nothing changes.

use data::{GameId, Player};
use render::{Diagram, Markers};
use rules::{pgn, Color, Role, Square, Variant};

use super::clock::format_duration;
use super::command::COMMANDS;
use super::end::stored_outcome;
use super::rating::Rating;
use super::stored::{self, Terms};
use super::table::{Table, Viewer};
use super::view::{move_number, score, squares, to_move_line};
use super::{board_text, told, Command, Ctx, Handled, Image, Message, Refusal, Reply, Typed, User};

/// Width of rule diagrams in pixels.
const DIAGRAM_SIZE: u32 = 480;

/// How many players `/leaderboard` shows, and how many games `/history`.
const LIST_LENGTH: u32 = 10;

/// How many pages of a player's games `/history` looks through for those the requester may see.
const HISTORY_PAGES: usize = 5;

pub(crate) async fn board(cx: &Ctx<'_>, in_words: bool) -> Handled {
    let table = cx.table(None).await?;
    let mut text = format!(
        "Game {}: {} (White) against {} (Black), {}. {}",
        table.id(),
        table.name(Color::White),
        table.name(Color::Black),
        table.variant().name(),
        to_move_line(&table)
    );
    if let Some(votes) = super::team::standing(cx, &table).await? {
        text.push_str(&votes);
    }
    if !in_words {
        let look = cx.host.look_for(Some(&cx.user().id)).await;
        return Ok(Reply::one(cx.host.board_message(&table, text, &look)));
    }
    match table.record.moves.last() {
        Some(last) => text.push_str(&format!(" Last move: {} {}.", move_number(table.ply()), last.san)),
        None => text.push_str(" No move yet."),
    }
    text.push('\n');
    text.push_str(&board_text::pieces(table.position()));
    Ok(Reply::one(Message::text(text)))
}

/// The legal moves (of one piece, or all), listed and marked on the board, for the asker.
pub(crate) async fn moves(cx: &Ctx<'_>, square: Option<Square>) -> Handled {
    let table = cx.table(None).await?;
    let position = table.position();
    let legal = position.legal_moves();
    let chosen: Vec<_> = legal.iter().filter(|m| square.is_none_or(|sq| m.from == sq)).collect();
    if chosen.is_empty() {
        let movers: Vec<Square> = {
            let mut from: Vec<Square> = legal.iter().map(|m| m.from).collect();
            from.sort();
            from.dedup();
            from
        };
        let what = match square.and_then(|sq| position.board().piece_at(sq).map(|p| (sq, p))) {
            Some((sq, piece)) if piece.color != position.turn() => {
                format!("The {} on {sq} is {}'s, and it is {}'s move.", piece.role.name(), piece.color, position.turn())
            }
            Some((sq, piece)) => format!("The {} on {sq} has no legal move.", piece.role.name()),
            None => match square {
                Some(sq) => format!("{sq} is empty."),
                None => "There are no legal moves: the game is decided.".to_string(),
            },
        };
        return told(format!("{what} Pieces that can move: {}.", squares(movers)));
    }
    let sans: Vec<String> = chosen.iter().map(|m| position.san(m)).collect();
    let (markers, name) = match square {
        Some(sq) => (Markers::From(sq), format!("moves-{sq}")),
        None => {
            let mut from: Vec<Square> = chosen.iter().map(|m| m.from).collect();
            from.dedup();
            let list = from.into_iter().flat_map(|sq| render::legal_markers(position, sq)).collect();
            (Markers::List(list), "moves".to_string())
        }
    };
    let whose = match square {
        Some(sq) => format!("The {} on {sq}", position.board().role_at(sq).map_or("piece", Role::name)),
        None => format!("{} ({})", table.name(position.turn()), position.turn()),
    };
    let text = format!("{whose} can play {}: {}.", count(sans.len(), "move"), sans.join(", "));
    let look = cx.host.look_for(Some(&cx.user().id)).await;
    let mut message = Message::text(text).with_image(cx.host.board_image(&table, markers, &name, &look));
    message.private = true;
    Ok(Reply::one(message))
}

fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Players, clocks, offers and the moves so far.
pub(crate) async fn game(cx: &Ctx<'_>) -> Handled {
    let table = cx.table(None).await?;
    let g = &table.record.game;
    let mut lines = vec![format!(
        "Game {}, {}, {}, {}.",
        g.id,
        table.variant().name(),
        table.describe_time(),
        if g.rated { "rated" } else { "unrated" }
    )];
    for color in Color::ALL {
        let mut line = format!("{color}: {}", table.name(color));
        if let Some(left) = time_left(cx, &table, color) {
            line.push_str(&format!(", {} left", format_duration(left)));
            if color == table.to_move() {
                line.push_str(" (running)");
            }
        }
        lines.push(line);
    }
    let sans: Vec<String> = table.record.moves.iter().map(|m| m.san.clone()).collect();
    lines.push(if sans.is_empty() { "No moves yet.".to_string() } else { format!("Moves: {}", score(&sans)) });
    for offer in &table.record.offers {
        let by = table.name(stored::color(offer.by));
        lines.push(match offer.proposal {
            data::Proposal::Draw => format!("{by} offers a draw."),
            data::Proposal::Takeback { .. } => format!("{by} asks for a takeback."),
        });
    }
    lines.push(to_move_line(&table));
    Ok(Reply::one(Message::text(lines.join("\n")).with_link(cx.host.game_link(&g.web_key))))
}

/// The time `color` has left: the running clock counts down to the deadline.
fn time_left(cx: &Ctx<'_>, table: &Table, color: Color) -> Option<i64> {
    if color == table.to_move() {
        table.record.game.deadline.map(|d| d - cx.now)
    } else {
        table.allowance(color)
    }
}

/// This channel's game, or any game by its number, as PGN.
pub(crate) async fn pgn(cx: &Ctx<'_>, game: Option<GameId>) -> Handled {
    let table = match game {
        None => cx.table(None).await?,
        Some(id) => cx.numbered(id).await?,
    };
    // Marked as typed, so that a name cannot close the code block the PGN is shown in.
    let text = pgn_text(&table, |color| table.name(color).to_string());
    Ok(Reply::one(Message::text(format!("```\n{text}```"))))
}

/// `table`'s game as PGN, its players called what `name` says.
pub(crate) fn pgn_text(table: &Table, name: impl Fn(Color) -> String) -> String {
    let g = &table.record.game;
    let game = table.ended_game();
    let mut tags = pgn::Tags::new();
    tags.set("Event", &format!("Chimera game {}", g.id));
    // The platform only: a channel, room or server id would tell where a private game was.
    tags.set("Site", &site(&g.platform));
    tags.set("Date", &super::clock::pgn_date(g.created_at));
    tags.set("White", &name(Color::White));
    tags.set("Black", &name(Color::Black));
    if let Some(tc) = table.time_control() {
        tags.set("TimeControl", &tc.pgn());
    }
    if let Some(reason) = &g.reason {
        tags.set("Termination", reason);
    }
    pgn::write(&game, &tags)
}

/// The PGN `Site` of a game played on `platform`: Chimera and the network, nothing private.
fn site(platform: &str) -> String {
    let network = match platform {
        "discord" => "Discord",
        "matrix" => "Matrix",
        other => other,
    };
    format!("Chimera, {network}")
}

/// The rules of a variant in the project's words, with its diagrams; or the list of variants.
pub(crate) async fn rules(cx: &Ctx<'_>, variant: Option<Variant>) -> Handled {
    let Some(variant) = variant else {
        let list: Vec<String> = Variant::ALL.iter().map(|v| format!("`{}`: {}", v.id(), v.name())).collect();
        return Ok(Reply::one(Message::text(format!(
            "Chimera plays {}. `/rules <variant>` explains one.",
            list.join(", ")
        ))));
    };
    let theme = cx.look().await.theme;
    let mut message = Message::text(help_text(variant));
    for diagram in diagrams(variant) {
        message = message.with_image(Image::png(
            format!("rules-{}-{}.png", variant.id(), diagram.name()),
            cx.host.inner.renderer.diagram_png(diagram, theme, DIAGRAM_SIZE),
            format!("{} rules diagram: {}", variant.name(), diagram.name()),
        ));
    }
    Ok(Reply::one(message))
}

pub(crate) fn help_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => include_str!("help/chess.md"),
        Variant::Golem => include_str!("help/golem.md"),
        Variant::Grolman => include_str!("help/grolman.md"),
        Variant::GhostKing => include_str!("help/ghost-king.md"),
        Variant::Werewolf => include_str!("help/werewolf.md"),
        Variant::UnicornGreat => include_str!("help/unicorn-great.md"),
    }
}

/// The diagrams that show what sets a variant apart.
pub(crate) fn diagrams(variant: Variant) -> Vec<Diagram> {
    use Diagram::*;
    match variant {
        Variant::Chess => vec![Piece(Role::Knight), Piece(Role::Pawn)],
        Variant::Golem => vec![Piece(Role::Golem), GolemCapture],
        Variant::Grolman => vec![GrolmanChain],
        Variant::GhostKing => vec![Piece(Role::GhostKing)],
        Variant::Werewolf => vec![Piece(Role::Werewolf), WerewolfContagion],
        Variant::UnicornGreat => {
            vec![Piece(Role::Unicorn), Piece(Role::Chancellor), Piece(Role::Lion), UnicornCastling]
        }
    }
}

/// The player a command names, or the requester; `None` if Chimera has never seen them.
async fn player(cx: &Ctx<'_>, user: &User) -> Result<Option<Player>, Refusal> {
    let (platform, id) = (cx.platform().to_string(), user.id.clone());
    Ok(cx.store().read(move |tx| tx.find_player(&platform, &id)).await?)
}

pub(crate) async fn rating(cx: &Ctx<'_>, user: Option<&User>, variant: Option<Variant>) -> Handled {
    let user = user.unwrap_or(cx.user());
    let Some(player) = player(cx, user).await? else {
        return told(format!("{} has not played on Chimera yet.", Typed(&user.name)));
    };
    let id = player.id;
    let ratings = cx.store().read(move |tx| tx.ratings_of(id)).await?;
    let mut shown = Vec::new();
    for r in &ratings {
        let v = stored::variant(&r.variant, format!("the rating of player {}", r.player))?;
        if variant.is_none_or(|want| want == v) {
            let rating = Rating::from_stored(Some(r)).display();
            shown.push(format!("{} {rating} ({})", v.name(), count(r.games as usize, "game")));
        }
    }
    let text = if shown.is_empty() {
        let what = variant.map_or(String::new(), |v| format!(" in {}", v.name()));
        format!(
            "{} has no rating{what} yet: ratings start at {} after the first rated game.",
            Typed(&player.display_name),
            Rating::default().display()
        )
    } else {
        format!("{}: {}. (A `?` marks a rating still settling.)", Typed(&player.display_name), shown.join(", "))
    };
    Ok(Reply::one(Message::text(text)))
}

pub(crate) async fn leaderboard(cx: &Ctx<'_>, variant: Variant) -> Handled {
    let platform = cx.platform().to_string();
    let rows = cx.store().read(move |tx| tx.leaderboard(&platform, variant.id(), 1, LIST_LENGTH)).await?;
    if rows.is_empty() {
        return Ok(Reply::one(Message::text(format!("Nobody has played a rated game of {} yet.", variant.name()))));
    }
    let mut lines = vec![format!("{}, best rated:", variant.name())];
    for (i, (player, rating)) in rows.iter().enumerate() {
        lines.push(format!(
            "{}. {} {} ({})",
            i + 1,
            Typed(&player.display_name),
            Rating::from_stored(Some(rating)).display(),
            count(rating.games as usize, "game")
        ));
    }
    Ok(Reply::one(Message::text(lines.join("\n"))))
}

pub(crate) async fn history(cx: &Ctx<'_>, user: Option<&User>) -> Handled {
    let user = user.unwrap_or(cx.user());
    let Some(player) = player(cx, user).await? else {
        return told(format!("{} has not played on Chimera yet.", Typed(&user.name)));
    };
    let id = player.id;
    let (viewer, subject) = (Viewer::of(cx.request), player.clone());
    let games = cx
        .store()
        .read(move |tx| {
            // Only the games the requester may see are listed (see `Viewer`), the latest first;
            // a few pages are looked through for them, no more.
            let mut shown = Vec::new();
            let mut after = None;
            for _ in 0..HISTORY_PAGES {
                let page = tx.finished_games_of(id, after, LIST_LENGTH)?;
                let full = page.len() == LIST_LENGTH as usize;
                for g in page {
                    after = Some((g.finished_at.unwrap_or_default(), g.id));
                    let opponent = tx.player(if g.white == id { g.black } else { g.white })?;
                    if shown.len() < LIST_LENGTH as usize && viewer.sees_stored(tx, &g, [&subject, &opponent])? {
                        shown.push((g, opponent));
                    }
                }
                if !full || shown.len() >= LIST_LENGTH as usize {
                    break;
                }
            }
            Ok(shown)
        })
        .await?;
    if games.is_empty() {
        return Ok(Reply::one(Message::text(format!("{} has no finished games yet.", Typed(&player.display_name)))));
    }
    let mut lines = vec![format!(
        "{}'s latest games (`{}` shows one):",
        Typed(&player.display_name),
        Command::<User>::Pgn { game: games.first().map(|(g, _)| g.id) }
    )];
    for (g, opponent) in &games {
        let color = if g.white == id { Color::White } else { Color::Black };
        let result = g.result.map_or("*", |r| r.as_str());
        let verdict = match stored_outcome(g).and_then(|o| o.winner()) {
            Some(w) if w == color => "won",
            Some(_) => "lost",
            None => "drew",
        };
        let variant = g.variant()?.name();
        lines.push(format!(
            "game {}: {variant}, {color} against {}: {verdict} by {} ({result})",
            g.id,
            Typed(&opponent.display_name),
            g.reason.as_deref().unwrap_or("?")
        ));
    }
    Ok(Reply::one(Message::text(lines.join("\n"))))
}

/// `/games`: the asker's running games in every place, with a link to each where the platform
/// has one and whose move it is. Shown to the asker only: a game in a direct chat is theirs to
/// see, not the channel's.
pub(crate) async fn games(cx: &Ctx<'_>) -> Handled {
    let user = cx.user();
    let none = || {
        let mut message = Message::text("You have no running games: `/challenge` someone, or `/play` Chimera.");
        message.private = true;
        Ok(Reply::one(message))
    };
    let Some(player) = player(cx, user).await? else { return none() };
    let id = player.id;
    let games = cx
        .store()
        .read(move |tx| {
            let mut listed = Vec::new();
            for game in tx.active_games_of(id)? {
                let opponent = tx.player(if game.white == id { game.black } else { game.white })?;
                let record = tx.game_record(game.id)?;
                // The side to move is the FEN's second field.
                let black_to_move = record.fen().split(' ').nth(1) == Some("b");
                listed.push((record.game, opponent, black_to_move));
            }
            Ok(listed)
        })
        .await?;
    if games.is_empty() {
        return none();
    }
    let link = cx.host.settings().channel_link;
    let mut lines = vec![format!("Your running games ({}):", games.len())];
    for (game, opponent, black_to_move) in &games {
        let color = if game.white == id { Color::White } else { Color::Black };
        let to_move = if *black_to_move { Color::Black } else { Color::White };
        let turn = if to_move == color { "your move" } else { "their move" };
        let variant = game.variant()?.name();
        let place = match link(game.server.as_deref(), &game.channel) {
            Some(url) => format!(" in {url}"),
            None => format!(" in {}", Typed(&game.channel)),
        };
        lines.push(format!(
            "game {}: {variant}, {color} against {}{place}: {turn}",
            game.id,
            Typed(&opponent.display_name)
        ));
    }
    let mut message = Message::text(lines.join("\n"));
    message.private = true;
    Ok(Reply::one(message))
}

pub(crate) fn help() -> Reply {
    let mut lines = vec!["Chimera's commands:".to_string()];
    lines.extend(COMMANDS.iter().map(|c| format!("{}: {}", c.usage, c.about)));
    lines.push(format!("Variants: {}.", Variant::ALL.map(|v| v.id()).join(", ")));
    lines.push(
        "A game named by its number (`/pgn`, `/gif`, `/analyse`, `/history`) is shown where it was played (the same server, room or direct chat), in its tournament's server, and to its own players anywhere on the same network; to no one else.".into(),
    );
    Reply::one(Message::text(lines.join("\n")))
}
