//! Whole games in Matrix rooms: challenges, answers by reaction and by text, moves with and
//! without the prefix, refusals, boards as `m.image`.

use matrix_sdk::ruma::{OwnedEventId, OwnedRoomId, RoomId};

use crate::harness::{table, Bot, Person, Seen, What};

/// The bot's answer to a command: a notice whose body contains `needle`.
pub async fn notice(person: &Person, bot: &Bot, room: &RoomId, needle: &str) -> Seen {
    let needle = needle.to_string();
    person
        .expect(room, &bot.id, &format!("a notice with {needle:?}"), move |s| {
            s.is_notice() && s.body().contains(&needle)
        })
        .await
}

/// The bot's reply to the message `to`.
pub async fn reply(person: &Person, bot: &Bot, room: &RoomId, to: &OwnedEventId) -> Seen {
    let to = to.clone();
    person
        .expect(
            room,
            &bot.id,
            &format!("a reply to {to}"),
            move |s| matches!(&s.what, What::Notice { reply_to: Some(r), .. } if *r == to),
        )
        .await
}

/// How a move's notice names it: `played 3... Nf6`.
pub fn played(ply: u32, san: &str) -> String {
    let number = if ply % 2 == 1 { format!("{}.", ply.div_ceil(2)) } else { format!("{}...", ply / 2) };
    format!("played {number} {san}")
}

/// A board picture as `m.image`: a PNG with its size in pixels and bytes, and alt text.
pub async fn board(person: &Person, bot: &Bot, room: &RoomId, encrypted: bool) -> Seen {
    let image = person.expect(room, &bot.id, "a board picture", |s| matches!(s.what, What::Image { .. })).await;
    let What::Image { mimetype, width, height, size, encrypted_file, body, .. } = &image.what else { unreachable!() };
    assert_eq!(mimetype.as_deref(), Some("image/png"));
    assert!(width.is_some_and(|w| w >= 160) && height.is_some_and(|h| h >= 160), "{width:?}x{height:?}");
    assert!(size.is_some_and(|s| s > 100), "{size:?}");
    assert!(!body.is_empty(), "alt text as the body");
    assert_eq!(*encrypted_file, encrypted, "attachments are encrypted exactly in encrypted rooms");
    assert_eq!(image.encrypted, encrypted);
    image
}

/// Who plays White and Black, from a game's opening notice.
pub fn colours<'a>(opening: &Seen, a: &'a Person, b: &'a Person) -> (&'a Person, &'a Person) {
    let body = opening.body();
    let white_name = body.split(" (White)").next().and_then(|s| s.rsplit([' ', ':']).next()).unwrap_or_default();
    if white_name == a.name {
        (a, b)
    } else {
        assert!(white_name == b.name, "who plays White? {body}");
        (b, a)
    }
}

/// A whole chess game in one room, encrypted or not: a challenge by pill accepted by reaction,
/// every refusal as a reply, bare moves, chat left unanswered, and mate.
async fn a_game_with_every_refusal(encrypted: bool) -> (Bot, OwnedRoomId) {
    let bot = Bot::start(&[]).await;
    let (alice, bob, carol) = (Person::new("alice").await, Person::new("bob").await, Person::new("carol").await);
    let room = table(&bot, &alice, &[&bob, &carol], encrypted).await;

    alice.say_with_pill(&room, "!challenge ", &bob, " variant:chess").await;
    let challenge = notice(&bob, &bot, &room, "challenges").await;
    let What::Notice { mentions, html, .. } = &challenge.what else { unreachable!() };
    assert_eq!(mentions, std::slice::from_ref(&bob.id), "the challenged player is mentioned");
    assert!(html.as_deref().is_some_and(|h| h.contains(&format!("https://matrix.to/#/{}", bob.id))), "{html:?}");
    assert!(challenge.body().contains("!accept"), "commands are shown with the prefix: {}", challenge.body());
    assert_eq!(challenge.encrypted, encrypted);
    for key in ["✅", "❌"] {
        bob.expect(
            &room,
            &bot.id,
            key,
            |s| matches!(&s.what, What::Reaction { key: k, on } if k == key && *on == challenge.id),
        )
        .await;
    }
    // Someone else's reaction is ignored; the challenged player's starts the game.
    carol.react(&room, &challenge.id, "✅").await;
    bob.react(&room, &challenge.id, "✅").await;
    let opening = notice(&alice, &bot, &room, "(White)").await;
    assert!(!opening.body().contains(&carol.name), "carol's reaction did nothing: {}", opening.body());
    board(&alice, &bot, &room, encrypted).await;
    let (white, black) = colours(&opening, &alice, &bob);
    let What::Notice { mentions, .. } = &opening.what else { unreachable!() };
    assert!(mentions.contains(&white.id), "the player to move is mentioned: {mentions:?}");

    // Refusals, each a short reply to the refused message.
    for (who, said, why) in [
        (black, "!move e5", format!("It is {}'s move", white.name)),
        (&carol, "!move e4", "play in this game".to_string()),
        (white, "!move e5", "e5".to_string()),
        (white, "!fly", "unknown command `!fly`".to_string()),
    ] {
        let sent = who.say(&room, said).await;
        let refusal = reply(who, &bot, &room, &sent).await;
        assert!(refusal.body().contains(why.as_str()), "{said}: {}", refusal.body());
    }

    // A bare move from the player to move is played; chat, and a bare move from the other
    // player, get no answer: the next thing the bot says answers `!board`.
    white.say(&room, "e4").await;
    notice(black, &bot, &room, &played(1, "e4")).await;
    board(black, &bot, &room, encrypted).await;
    let mark = white.mark();
    white.say(&room, "nice weather").await;
    white.say(&room, "d4").await;
    black.say(&room, "good luck!").await;
    carol.say(&room, "!board").await;
    let next = white.next_from(&room, &bot.id, mark).await;
    assert!(
        matches!(next.what, What::Image { .. }) || next.body().contains("Black"),
        "only !board is answered: {}",
        next.body()
    );

    for (i, mv) in ["e5", "Bc4", "Nc6", "Qh5", "Nf6"].iter().enumerate() {
        let who = if i % 2 == 0 { black } else { white };
        let said = if i == 2 { format!("!move {mv}") } else { mv.to_string() };
        who.say(&room, &said).await;
        notice(white, &bot, &room, &played(i as u32 + 2, mv)).await;
    }
    // A resignation to confirm is the asker's alone: the opponent's 🏳️ on it does nothing (had
    // it run, White would have resigned and the mate below been refused).
    let sent = black.say(&room, "!resign").await;
    let question = reply(black, &bot, &room, &sent).await;
    assert!(question.body().contains("This cannot be undone") && question.body().contains("🏳️"), "{}", question.body());
    white.react(&room, &question.id, "🏳️").await;
    white.say(&room, "Qxf7#").await;
    let end = notice(black, &bot, &room, "wins by checkmate").await;
    assert!(end.body().contains(&format!("{} beats {}", white.name, black.name)), "{}", end.body());

    // The score as a file, never as a wall of text in the room.
    let game = opening.body().split_whitespace().nth(1).expect("Game N begins");
    white.say(&room, &format!("!pgn game:{game}")).await;
    let said = notice(white, &bot, &room, "as PGN").await;
    let file = white.expect(&room, &bot.id, "the PGN file", |s| matches!(s.what, What::File { .. })).await;
    let What::File { name, mimetype, size, encrypted_file, content } = &file.what else { unreachable!() };
    assert!(name.ends_with(".pgn") && said.body().contains("PGN"), "{name}: {}", said.body());
    assert_eq!(mimetype.as_deref(), Some("application/vnd.chess-pgn"));
    assert_eq!(*encrypted_file, encrypted);
    let pgn = String::from_utf8(white.download(content).await).expect("text");
    assert_eq!(Some(pgn.len() as u64), *size);
    assert!(pgn.contains("[Variant \"chess\"]") || pgn.contains("[Event \"Chimera game"), "{pgn}");
    assert!(pgn.contains("4. Qxf7#") && pgn.contains("1-0"), "{pgn}");
    (bot, room)
}

#[tokio::test]
async fn a_game_in_an_unencrypted_room() {
    a_game_with_every_refusal(false).await;
}

#[tokio::test]
async fn a_game_in_an_encrypted_room() {
    a_game_with_every_refusal(true).await;
}

/// A short decisive game per variant, White first; `confirm` marks a Grolman turn that loses,
/// which the bot asks about first and the player confirms by reaction.
const GAMES: [(&str, &[&str], &str); 6] = [
    ("chess", &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"], "White wins by checkmate"),
    ("golem", &["e3", "f5", "Be2", "g5", "Bh5#"], "White wins by checkmate"),
    ("grolman", &["f2f3 (e1f2 d1e1)", "c7c5 (d8c7 e8d8)", "f2g3 (e1f2) confirm"], "Black wins as the loser's turn"),
    ("ghost-king", &["Ke6", "dxe6"], "Black wins by capturing the Ghost King"),
    ("werewolf", &["f2f3", "d8d6", "h2h3", "d6g3"], "Black wins by checkmate"),
    ("unicorn-great", &["f2g3", "e10b4", "e1f2", "b4d2"], "Black wins by checkmate"),
];

/// Every variant to its end in one room, one game after another: challenged by plain user id,
/// accepted by typing `!accept`, moves bare.
#[tokio::test]
async fn every_variant_is_played_to_a_decisive_end() {
    let bot = Bot::start(&[]).await;
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    let room = table(&bot, &alice, &[&bob], false).await;
    for (variant, moves, verdict) in GAMES {
        alice.say(&room, &format!("!challenge {} variant:{variant} color:white", bob.id)).await;
        notice(&bob, &bot, &room, &format!("{} challenges {}", alice.name, bob.name)).await;
        bob.say(&room, "!accept").await;
        notice(&alice, &bot, &room, &format!("{} (White)", alice.name)).await;
        let mut end = None;
        for (i, mv) in moves.iter().enumerate() {
            let who = if i % 2 == 0 { &alice } else { &bob };
            let (mv, confirm) = match mv.strip_suffix(" confirm") {
                Some(mv) => (mv, true),
                None => (*mv, false),
            };
            let sent = who.say(&room, mv).await;
            if confirm {
                let asked = reply(who, &bot, &room, &sent).await;
                assert!(asked.body().contains("Play it anyway?"), "{}", asked.body());
                who.expect(
                    &room,
                    &bot.id,
                    "the ✅ key",
                    |s| matches!(&s.what, What::Reaction { key, on } if key == "✅" && *on == asked.id),
                )
                .await;
                who.react(&room, &asked.id, "✅").await;
            }
            let needle = if i + 1 == moves.len() {
                verdict.to_string()
            } else {
                format!("played {}", if i % 2 == 0 { format!("{}.", i / 2 + 1) } else { format!("{}...", i / 2 + 1) })
            };
            let answer = notice(&alice, &bot, &room, &needle).await;
            end = Some(answer);
        }
        let end = end.expect("moves");
        assert!(end.body().contains(verdict), "{variant}: {}", end.body());
        board(&alice, &bot, &room, false).await;
    }
}

/// With `CHIMERA_WEB_URL` set, a game's notices end with its page's link: `Watch: URL` in the
/// plain body, a link in the HTML, named by the game's web key.
#[tokio::test]
async fn a_game_s_notices_link_to_its_page() {
    let bot = Bot::start(&[("CHIMERA_WEB_URL", "https://chess.example.org")]).await;
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    let room = table(&bot, &alice, &[&bob], false).await;
    alice.say_with_pill(&room, "!challenge ", &bob, " variant:chess").await;
    notice(&bob, &bot, &room, "challenges").await;
    bob.say(&room, "!accept").await;
    let opening = notice(&alice, &bot, &room, "(White)").await;
    let store = data::Store::open(bot.dir().join("chimera.db")).expect("the bot's database");
    let key = store.read(|tx| Ok(tx.game(1)?.web_key)).expect("the game's key");
    let url = format!("https://chess.example.org/g/{key}");
    assert!(opening.body().ends_with(&format!("Watch: {url}")), "{}", opening.body());
    let What::Notice { html, .. } = &opening.what else { unreachable!() };
    assert!(html.as_deref().is_some_and(|h| h.contains(&format!("<a href=\"{url}\">Watch</a>"))), "{html:?}");
}
