//! `/analyse` through the host: a planted blunder marked `??` in every variant, a forced
//! recapture left alone, the annotated PGN read back by the project's own reader, who may ask,
//! the per-user limit, and the progress shown to whoever runs or joins an analysis.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{text, Club, Rooms};
use host::{Progress, Reply, Task};
use rules::{Position, Variant};

/// A host whose analyses search each position for 60 ms.
async fn open() -> Club {
    Club::open_with(|settings| settings.analysis_budget = Duration::from_millis(60)).await
}

/// A game between alice (White) and bob in `channel`, played from `moves` (coordinates),
/// then resigned by the side to move.
async fn finished_game(club: &Club, channel: &str, variant: Variant, moves: &[String]) {
    let challenge = format!("/challenge @bob variant:{} color:white rated:no", variant.id());
    assert!(!club.say("alice", channel, &challenge).await.is_error());
    assert!(!club.say("bob", channel, "/accept").await.is_error());
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        let reply = club.say(who, channel, &format!("/move {m} confirm:yes")).await;
        assert!(!reply.is_error(), "{m}: {}", text(&reply));
    }
    let who = if moves.len().is_multiple_of(2) { "alice" } else { "bob" };
    let over = club.say(who, channel, "/resign confirm:yes").await;
    let over_text = text(&over);
    // A game the moves ended has nothing left to resign.
    assert!(over_text.contains("resigns") || over_text.contains("There is no game in"), "{over_text}");
}

/// A short game of `variant` with a blunder in it: two sensible moves each, then White's move
/// that the engine finds worst (it hangs a piece worth three pawns or more, or worse), and
/// Black's best answer to it. Returns the moves as
/// coordinates and the blunder's ply.
fn planted_blunder(variant: Variant) -> (Vec<String>, usize) {
    let never = AtomicBool::new(false);
    let search = |positions: &[Position], depth: u32| {
        let mut searcher = engine::Searcher::new(variant, 4);
        let limits = engine::Limits { depth: Some(depth), ..engine::Limits::default() };
        searcher.search(positions, &limits, &never, &mut |_| {})
    };
    let mut positions = vec![Position::start(variant)];
    let mut moves = Vec::new();
    let mut play = |positions: &mut Vec<Position>, m: rules::Move| {
        let now = positions.last().unwrap();
        moves.push(now.coord(&m));
        let next = now.after(&m);
        positions.push(next);
    };
    for _ in 0..4 {
        let best = search(&positions, 3).best.expect("a move");
        play(&mut positions, best);
    }
    let now = positions.last().unwrap().clone();
    let best = search(&positions, 3).score;
    let worst = now
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut after = positions.clone();
            after.push(now.after(&m));
            (-search(&after, 2).score, m)
        })
        .min_by_key(|(score, _)| *score)
        .expect("White has moves");
    assert!(best - worst.0 >= 300, "{variant:?}: the worst move loses {} only", best - worst.0);
    play(&mut positions, worst.1);
    let blunder_ply = 5;
    if positions.last().unwrap().outcome().is_none() {
        let punish = search(&positions, 3).best.expect("an answer");
        play(&mut positions, punish);
    }
    (moves, blunder_ply)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planted_blunder_is_marked_in_every_variant_and_the_pgn_reads_back() {
    let club = open().await;
    for (n, variant) in Variant::ALL.into_iter().enumerate() {
        let (moves, blunder) = planted_blunder(variant);
        let channel = format!("t{n}");
        finished_game(&club, &channel, variant, &moves).await;
        let game = n as i64 + 1;
        let reply = club.say("alice", &channel, &format!("/analyse game:{game}")).await;
        assert!(!reply.is_error(), "{variant:?}: {}", text(&reply));
        let summary = &reply.messages[0];
        let mover = "3."; // ply 5 is White's third move
        assert_eq!(blunder, 5);
        let line = summary
            .text
            .lines()
            .find(|l| l.starts_with(mover))
            .unwrap_or_else(|| panic!("{variant:?}: the blunder is listed: {}", summary.text));
        assert!(line.contains("?? blunder"), "{variant:?}: {line}\n{}", summary.text);
        assert!(line.contains("(better: "), "{variant:?}: {line}");
        assert!(summary.text.contains("Accuracy: alice "), "{}", summary.text);
        assert_eq!(summary.images.len(), 1, "the graph");
        assert!(summary.images[0].bytes.starts_with(b"\x89PNG"));
        // The score, with its marks and evaluations, reads back as the same game.
        let pgn = reply.messages[1].text.trim_start_matches("```\n").trim_end_matches("```");
        assert!(pgn.contains("[%eval "), "{pgn}");
        assert!(pgn.contains("??"), "{pgn}");
        let read = rules::pgn::read(variant, pgn).unwrap_or_else(|e| panic!("{variant:?}: {e}\n{pgn}"));
        let coords: Vec<String> =
            read.game.moves().iter().zip(read.game.positions()).map(|(m, p)| p.coord(m)).collect();
        assert_eq!(coords, moves, "{variant:?}");
        // Kept for the game's page: every position, the blunder where the reply says it is.
        let kept = club.host.store().read(move |tx| tx.analysis(game)).await.unwrap().expect("the analysis is kept");
        assert_eq!(kept.plies.len(), moves.len() + 1, "{variant:?}");
        assert_eq!(kept.plies[blunder].judgement, Some(data::Judgement::Blunder), "{variant:?}");
        assert!(kept.plies[blunder].better.is_some(), "{variant:?}");
        assert_eq!(kept.plies[0].judgement, None, "no move led to the start");
        assert_eq!(kept.judge, data::Judge::Chimera, "{variant:?}: no outside engine is set");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forced_recapture_is_not_marked() {
    let club = open().await;
    let moves: Vec<String> = ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"].map(String::from).to_vec();
    finished_game(&club, "g", Variant::Chess, &moves).await;
    let reply = club.say("bob", "g", "/analyse 1").await;
    let summary = &reply.messages[0].text;
    assert!(!reply.is_error(), "{summary}");
    for recapture in ["2. exd5", "2... Qxd5"] {
        assert!(!summary.lines().any(|l| l.starts_with(recapture)), "{recapture} is marked: {summary}");
    }
    // The graph is drawn in the asker's theme: bob's the default, alice's her own.
    assert_eq!(graph_corner(&reply), render::Theme::Green.colors().frame);
    club.say("alice", "g", "/settings theme:contrast").await;
    let reply = club.say("alice", "g", "/analyse 1").await;
    assert_eq!(graph_corner(&reply), render::Theme::Contrast.colors().frame);
}

/// The colour of the top left pixel of the evaluation graph `reply` carries: its frame.
fn graph_corner(reply: &Reply) -> [u8; 3] {
    let graph = reply.messages.iter().flat_map(|m| &m.images).find(|i| i.file_name.ends_with("-analysis.png"));
    let mut decoder = png::Decoder::new(std::io::Cursor::new(&graph.expect("an evaluation graph").bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    assert!(matches!(info.color_type, png::ColorType::Rgb | png::ColorType::Rgba), "{:?}", info.color_type);
    [pixels[0], pixels[1], pixels[2]]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_players_analyse_a_finished_game() {
    let club = open().await;
    assert!(!club.say("alice", "g", "/challenge @bob variant:chess color:white").await.is_error());
    club.say("bob", "g", "/accept").await;
    let early = club.say("alice", "g", "/analyse 1").await;
    assert!(text(&early).contains("Game 1 is not finished"), "{}", text(&early));
    club.say("alice", "g", "/resign confirm:yes").await;
    let carol = club.say("carol", "g", "/analyse 1").await;
    assert!(carol.is_error());
    assert!(text(&carol).contains("Only alice and bob may have game 1 analysed"), "{}", text(&carol));
    let none = club.say("alice", "g", "/analyse 7").await;
    assert!(text(&none).contains("There is no game 7"), "{}", text(&none));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_runs_one_analysis_at_a_time_and_a_second_ask_joins_the_first() {
    let club = open().await;
    let long: Vec<String> = ["g1f3", "g8f6", "b1c3", "b8c6", "f3g1", "f6g8", "c3b1", "c6b8"]
        .iter()
        .cycle()
        .take(32)
        .map(|m| m.to_string())
        .collect();
    finished_game(&club, "a", Variant::Chess, &long).await;
    finished_game(&club, "b", Variant::Chess, &long[..8]).await;
    // Two of alice's at once: one runs, the other is refused.
    let (first, second) = tokio::join!(club.say("alice", "a", "/analyse 1"), club.say("alice", "b", "/analyse 2"));
    let refused: Vec<&Reply> = [&first, &second].into_iter().filter(|r| r.is_error()).collect();
    assert_eq!(refused.len(), 1, "{}\n{}", text(&first), text(&second));
    assert!(text(refused[0]).contains("You have 1 analysis running"), "{}", text(refused[0]));
    // alice and bob asking for the same game get one analysis between them.
    let (mine, theirs) = tokio::join!(club.say("alice", "a", "/analyse 1"), club.say("bob", "a", "/analyse 1"));
    assert!(!mine.is_error() && !theirs.is_error(), "{}\n{}", text(&mine), text(&theirs));
    assert_eq!(text(&mine), text(&theirs));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_goes_to_every_position_and_a_joiner_sees_the_same() {
    let club = open().await;
    let moves: Vec<String> =
        ["g1f3", "g8f6", "b1c3", "b8c6", "f3g1", "f6g8", "c3b1", "c6b8"].map(String::from).to_vec();
    finished_game(&club, "a", Variant::Chess, &moves).await;
    let positions = moves.len() as u32 + 1;
    let (alice, bob) = (Rooms::default(), Rooms::default());
    // bob asks once alice's analysis has reported its start, so he joins it.
    let (mine, theirs) = tokio::join!(club.through(&alice, "alice", "a", "/analyse 1"), async {
        alice.progressed().await;
        club.through(&bob, "bob", "a", "/analyse 1").await
    });
    assert!(!mine.is_error() && !theirs.is_error(), "{}\n{}", text(&mine), text(&theirs));
    assert_eq!(text(&mine), text(&theirs), "one analysis between them");
    // The one who ran it hears of every position, in order, from none to all.
    let step = |done| Progress::new(Task::Analysis { game: 1 }, done, positions);
    let ran = alice.progress();
    assert_eq!(ran, (0..=positions).map(step).collect::<Vec<_>>());
    assert!(ran.last().unwrap().is_complete() && ran.last().unwrap().percent() == 100);
    // The one who joined hears the same steps (the newest when he looks, so maybe not each),
    // never going back, up to the end.
    let joined = bob.progress();
    assert!(!joined.is_empty());
    assert!(joined.iter().all(|p| ran.contains(p)), "{joined:?}");
    assert!(joined.windows(2).all(|w| w[0].done() < w[1].done()), "{joined:?}");
    assert_eq!(joined.last(), Some(&step(positions)));
}
