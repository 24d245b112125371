//! Each player's own settings: `/settings theme:… coordinates:… bottom:… text:… dm:… quiet:…
//! zone:…`, kept per player and shown to them alone; the boards drawn as their viewer set them;
//! and the direct message on one's turn in a correspondence game, held through quiet hours, sent
//! once, never about a turn that is over.

mod common;

use common::{text, Club, Place, HOUR, MINUTE, T0};
use host::{Message, Reply, Theme};
use render::{BoardView, GameGif, Renderer};
use rules::{Game, Position, Variant};

/// The picture of the reply's first message.
fn picture(reply: &Reply) -> &host::Image {
    reply.messages.iter().find_map(|m| m.images.first()).expect("a picture")
}

/// The direct messages posted so far to `name`.
fn dms_to(club: &Club, name: &str) -> Vec<Message> {
    club.rooms.posted().into_iter().filter(|m| m.to.as_ref().is_some_and(|u| u.id == name)).collect()
}

#[tokio::test]
async fn a_players_settings_are_their_own_shown_to_them_alone_and_kept() {
    let club = Club::open().await;
    let reply = club.say("ann", "general", "/settings theme:blue coordinates:off bottom:own text:on").await;
    assert!(!reply.is_error() && reply.messages.iter().all(|m| m.private), "{}", text(&reply));
    let said = text(&reply);
    for words in ["blue theme", "coordinates: off", "your own side", "written out by square"] {
        assert!(said.contains(words), "{words}: {said}");
    }
    let shown = club.say("ann", "general", "/settings").await;
    assert!(shown.messages.iter().all(|m| m.private), "shown to the asker only");
    let shown = text(&shown);
    for line in ["theme: blue", "coordinates: off", "bottom: own", "text: on", "notify: off", "quiet: off", "zone: UTC"]
    {
        assert!(shown.contains(line), "{line}: {shown}");
    }
    let theirs = club.ok("bob", "general", "/settings").await;
    for line in ["theme: default (green)", "coordinates: on", "bottom: to-move", "text: off"] {
        assert!(theirs.contains(line), "bob keeps the defaults: {line}: {theirs}");
    }
    // A later change keeps the rest.
    club.ok("ann", "general", "/settings notify:on quiet:22:00-07:00 zone:Europe/Berlin").await;
    let club = club.restart().await;
    let shown = club.ok("ann", "elsewhere", "/settings").await;
    for line in ["theme: blue", "coordinates: off", "notify: on", "quiet: 22:00-07:00", "zone: Europe/Berlin"] {
        assert!(shown.contains(line), "kept over a restart, everywhere: {line}: {shown}");
    }
}

#[tokio::test]
async fn a_refused_change_writes_none_of_it_and_a_wrong_value_is_named() {
    let club = Club::open().await;
    let general = Place::new("discord", Some("guild-1"), "general");
    let reply = club.at(&general, "eve", "/settings theme:blue web:on").await;
    assert!(reply.is_error() && text(&reply).contains("Only a manager"), "{}", text(&reply));
    let shown = text(&club.at(&general, "eve", "/settings").await);
    assert!(shown.contains("theme: default") && shown.contains("web: off"), "nothing written: {shown}");
    for (line, named) in [
        ("/settings theme:plaid", "plaid"),
        ("/settings zone:Mars/Olympus", "Mars/Olympus"),
        ("/settings quiet:late", "late"),
        ("/settings bottom:left", "left"),
    ] {
        let why = club.refused("eve", "general", line).await;
        assert!(why.contains(named), "{line}: {why}");
    }
    // A manager's change of both is both.
    let said = text(&club.as_manager(&general, "admin", "/settings web:on theme:blue").await);
    assert!(said.contains("blue theme") && said.contains("web listing on"), "{said}");
}

#[tokio::test]
async fn boards_are_drawn_as_their_viewer_set_them() {
    let club = Club::open().await;
    club.game("g", "ann", "bob", "chess", "").await;
    club.moves("g", "ann", "bob", &["e4"]).await;
    let mut game = Game::new(Position::start(Variant::Chess));
    let e4 = game.position().parse_move("e4").unwrap();
    game.play(e4).unwrap();
    let expected = |flipped: bool, theme: Theme, coordinates: bool| {
        let mut view = BoardView::new(game.position())
            .flipped(flipped)
            .theme(theme)
            .coordinates(coordinates)
            .size(club.host.settings().board_size)
            .players("ann", "bob");
        view.last_move = Some(e4);
        Renderer::new().board_png(&view)
    };

    // Bob moves and set nothing: his side, the side to move, at the bottom, in green.
    let board = club.say("bob", "g", "/board").await;
    let image = picture(&board);
    assert!(image.board.as_ref().unwrap().flipped);
    assert!(image.alt.contains("Black at the bottom"), "{}", image.alt);
    assert_eq!(image.bytes, expected(true, Theme::Green, true));

    // Ann, White, wants her own side, blue, no coordinates: though Black moves.
    club.ok("ann", "g", "/settings bottom:own theme:blue coordinates:off").await;
    let board = club.say("ann", "g", "/board").await;
    let image = picture(&board);
    assert!(!image.board.as_ref().unwrap().flipped);
    assert!(image.alt.contains("White at the bottom") && image.alt.contains("White: king e1"), "{}", image.alt);
    assert_eq!(image.bytes, expected(false, Theme::Blue, false));
    assert!(!text(&board).contains("king e1"), "no pieces in words: text is off");

    // A spectator with `bottom:own` plays no side here: the side to move is at the bottom.
    club.ok("cy", "g", "/settings bottom:own").await;
    assert!(picture(&club.say("cy", "g", "/board").await).board.as_ref().unwrap().flipped);

    // What everyone sees after a move is drawn for the player to move: ann, once bob moves.
    club.ok("ann", "g", "/settings text:on").await;
    let moved = club.say("bob", "g", "/move e5").await;
    let said = text(&moved);
    assert!(said.contains("White: king e1") && said.contains("Black: king e8"), "ann's text:on: {said}");
    assert!(!picture(&moved).board.as_ref().unwrap().flipped);
    // And for bob, to move after ann's: his defaults, no pieces in words.
    let moved = club.say("ann", "g", "/move Nf3").await;
    assert!(!text(&moved).contains("king e1"), "{}", text(&moved));
    assert!(picture(&moved).board.as_ref().unwrap().flipped);
}

#[tokio::test]
async fn a_replay_asked_for_is_drawn_as_its_asker_set_their_boards() {
    let club = Club::open().await;
    club.game("g", "ann", "bob", "chess", "").await;
    let moves = ["f3", "e5", "g4", "Qh4#"];
    club.moves("g", "ann", "bob", &moves).await;
    let mut game = Game::new(Position::start(Variant::Chess));
    for san in moves {
        let m = game.position().parse_move(san).unwrap();
        game.play(m).unwrap();
    }
    let expected = |theme: Theme, coordinates: bool, flipped: bool| {
        let gif = GameGif::new(&game)
            .players("ann", "bob")
            .theme(theme)
            .coordinates(coordinates)
            .flipped(flipped)
            .size(club.host.settings().board_size);
        Renderer::new().game_gif(&gif).bytes
    };
    let gif = |reply: &Reply| picture(reply).bytes.clone();

    // Nothing set: everyone's replay, White at the bottom, as the one sent with the result.
    assert_eq!(gif(&club.say("ann", "g", "/gif 1").await), expected(Theme::Green, true, false));
    // Bob, Black, wants his own side at the bottom, brown, no coordinates.
    club.ok("bob", "g", "/settings theme:brown coordinates:off bottom:own").await;
    assert_eq!(gif(&club.say("bob", "g", "/gif 1").await), expected(Theme::Brown, false, true));
    // A spectator with `bottom:own` played no side: White stays at the bottom.
    club.ok("cy", "g", "/settings bottom:own theme:contrast").await;
    assert_eq!(gif(&club.say("cy", "g", "/gif 1").await), expected(Theme::Contrast, true, false));
    // Each look is drawn once and kept: asking again draws nothing.
    let drawn = club.host.replays_drawn();
    assert_eq!(gif(&club.say("bob", "g", "/gif 1").await), expected(Theme::Brown, false, true));
    assert_eq!(gif(&club.say("ann", "g", "/gif 1").await), expected(Theme::Green, true, false));
    assert_eq!(club.host.replays_drawn(), drawn);
}

#[tokio::test]
async fn rules_diagrams_are_drawn_in_the_askers_theme() {
    let club = Club::open().await;
    club.ok("ann", "g", "/settings theme:contrast").await;
    let (ann, bob) = (club.say("ann", "g", "/rules golem").await, club.say("bob", "g", "/rules golem").await);
    let images = |reply: &Reply| reply.messages.iter().flat_map(|m| m.images.clone()).collect::<Vec<_>>();
    let (ann, bob) = (images(&ann), images(&bob));
    let diagrams = host::export::rule_diagrams(Variant::Golem);
    assert!(!diagrams.is_empty());
    assert_eq!((ann.len(), bob.len()), (diagrams.len(), diagrams.len()));
    let renderer = Renderer::new();
    for ((diagram, ann), bob) in diagrams.into_iter().zip(&ann).zip(&bob) {
        assert_eq!(ann.bytes, renderer.diagram_png(diagram, Theme::Contrast, 480));
        assert_eq!(bob.bytes, renderer.diagram_png(diagram, Theme::Green, 480));
    }
}

#[tokio::test]
async fn a_player_who_asked_is_written_to_once_on_each_turn_of_a_correspondence_game() {
    let club = Club::open().await;
    club.ok("bob", "g", "/settings notify:on").await;
    club.game("g", "ann", "bob", "chess", "").await;
    assert!(club.pass(0).await.iter().all(|m| m.to.is_none()), "ann moves first and asked for nothing");
    club.moves("g", "ann", "bob", &["e4"]).await;
    club.pass(0).await;
    let dms = dms_to(&club, "bob");
    assert_eq!(dms.len(), 1, "{dms:?}");
    let dm = &dms[0];
    assert!(dm.text.contains("it is your move in game 1 (Chess) against"), "{}", dm.text);
    assert_eq!(dm.images.len(), 1, "the board comes with it");
    assert!(dm.images[0].alt.contains("bob (Black) to move"), "{}", dm.images[0].alt);
    assert!(dm.key.is_some(), "posted with the network's idempotency key");
    // No second message for the same turn, and none to ann, who did not ask.
    club.pass(MINUTE).await;
    club.moves("g", "bob", "ann", &["e5"]).await;
    club.pass(MINUTE).await;
    assert_eq!(dms_to(&club, "bob").len(), 1);
    assert!(dms_to(&club, "ann").is_empty());
    // The next turn brings the next.
    club.moves("g", "ann", "bob", &["Nf3"]).await;
    club.pass(MINUTE).await;
    assert_eq!(dms_to(&club, "bob").len(), 2);
    // Turned off, none.
    club.ok("bob", "g", "/settings notify:off").await;
    club.moves("g", "bob", "ann", &["Nc6", "Bb5"]).await;
    club.pass(MINUTE).await;
    assert_eq!(dms_to(&club, "bob").len(), 2);
}

#[tokio::test]
async fn quiet_hours_hold_the_message_until_they_end_and_a_turn_that_is_over_is_never_told() {
    // T0 is 22:13 UTC.
    let club = Club::open().await;
    club.ok("bob", "g", "/settings notify:on quiet:22:00-07:00").await;
    club.game("g", "ann", "bob", "chess", "").await;
    club.moves("g", "ann", "bob", &["e4"]).await;
    club.pass(0).await;
    club.pass(8 * HOUR).await; // 06:13
    assert!(dms_to(&club, "bob").is_empty(), "quiet until 07:00");
    club.pass(HOUR).await; // 07:13
    assert_eq!(dms_to(&club, "bob").len(), 1, "sent when the quiet hours end");

    // Ann's quiet hours, in New York: 07:13 UTC is 02:13 there, quiet until 09:00 there
    // (14:00 UTC). Bob moves; ann moves before her quiet hours end: her notice is dropped.
    club.ok("ann", "g", "/settings notify:on quiet:23:00-09:00 zone:America/New_York").await;
    club.moves("g", "bob", "ann", &["e5"]).await;
    club.pass(HOUR).await; // 08:13 UTC
    club.moves("g", "ann", "bob", &["Nf3"]).await;
    club.pass(MINUTE).await;
    assert_eq!(dms_to(&club, "bob").len(), 2, "bob's next turn, outside his quiet hours");
    club.pass(7 * HOUR).await; // 15:14 UTC, past ann's quiet hours
    assert!(dms_to(&club, "ann").is_empty(), "ann's turn was over before her quiet hours ended");
    assert_eq!(T0 % (24 * HOUR) / MINUTE, 22 * 60 + 13, "the clock this test counts on");
}

#[tokio::test]
async fn a_notice_survives_a_restart_and_is_sent_once() {
    let club = Club::open().await;
    club.ok("bob", "g", "/settings notify:on quiet:22:00-07:00").await;
    club.game("g", "ann", "bob", "chess", "").await;
    club.moves("g", "ann", "bob", &["e4"]).await;
    let club = club.restart().await;
    club.pass(9 * HOUR).await;
    club.pass(MINUTE).await;
    assert_eq!(dms_to(&club, "bob").len(), 1);
}

#[tokio::test]
async fn notify_is_refused_where_the_adapter_cannot_write_to_one_person() {
    let club = Club::open_with(|settings| settings.direct_messages = false).await;
    let why = club.refused("bob", "g", "/settings theme:blue notify:on").await;
    assert!(why.contains("cannot write to anyone directly"), "{why}");
    let shown = club.ok("bob", "g", "/settings").await;
    assert!(shown.contains("notify: off") && shown.contains("theme: default"), "nothing changed: {shown}");
    club.ok("bob", "g", "/settings notify:off").await;
}

#[tokio::test]
async fn live_games_write_to_nobody() {
    let club = Club::open().await;
    club.ok("bob", "g", "/settings notify:on").await;
    club.game("g", "ann", "bob", "chess", "time:10+5").await;
    club.moves("g", "ann", "bob", &["e4", "e5", "Nf3"]).await;
    club.pass(MINUTE).await;
    assert!(dms_to(&club, "bob").is_empty(), "a live game's players are at the board");
}
