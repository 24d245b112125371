//! Whole tournaments, from sign-up to the prize table, in console lines (`common::chat`): a 9-player Swiss with a withdrawal and a time-out, a
//! knockout with a decider, a round robin, a restart mid-round, and every refusal.

mod common;

use common::event::{byes, expected_standings, read_standings, Board, Driver, Finish, Played};
use common::{HOUR, MINUTE};

/// The result each game of the Swiss gets, in turn: mates both ways, draws and resignations.
const FINISHES: [Finish; 5] =
    [Finish::WhiteMates, Finish::BlackMates, Finish::Draw, Finish::BlackResigns, Finish::WhiteMates];

fn played(b: &Board, scores: (f64, f64)) -> Played {
    Played {
        round: b.round,
        white: b.white.clone(),
        black: Some(b.black.clone()),
        white_score: scores.0,
        black_score: scores.1,
        over_board: true,
    }
}

#[tokio::test]
async fn a_nine_player_swiss_runs_from_sign_up_to_the_prize_table() {
    let mut d = Driver::new().await;
    let field = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"];
    let created = d
        .ok("orga: /tournament create name:\"Autumn Swiss\" variant:chess format:swiss rounds:4 time:5+0 starts:in 1h")
        .await;
    assert!(
        common::text(&created).contains("orga creates tournament 1 \"Autumn Swiss\": Swiss, 4 rounds, Chess, 5+0"),
        "{}",
        common::text(&created)
    );
    for p in field {
        d.ok(&format!("{p}: /tournament join")).await;
    }
    assert_eq!(d.err("p1: /tournament join").await, "You have already joined tournament 1 \"Autumn Swiss\".");
    assert!(d.tick().await.is_empty(), "not due yet");
    d.h.advance(HOUR);
    let started = d.tick().await;
    assert!(started.iter().any(|m| m.text.starts_with("Tournament 1 \"Autumn Swiss\" begins")), "the tick starts it");
    let announced =
        started.iter().find(|m| m.text.starts_with("Tournament 1 \"Autumn Swiss\": round 1 of 4.")).unwrap();
    assert_eq!(announced.channel.as_deref(), Some("general"));
    assert_eq!(announced.text.matches(" in #general-").count(), 4, "each game's place: {}", announced.text);
    assert_eq!(announced.mentions.len(), 9);

    let mut results: Vec<Played> = Vec::new();
    let mut withdrawn = None;
    let mut timed_out = None;
    let mut k = 0;
    for round in 1..=4u32 {
        let boards = d.new_boards();
        // Nine players make four games and a bye; eight (after the withdrawal) four games.
        assert_eq!(boards.len(), 4, "round {round}: {boards:?}");
        assert!(boards.iter().all(|b| b.round == round));
        // The games of a round are each in a place of their own, both players called.
        let channels: std::collections::HashSet<&str> = boards.iter().map(|b| b.channel.as_str()).collect();
        assert_eq!(channels.len(), boards.len());
        let mut boards = boards.into_iter();
        if round == 2 {
            // The organiser withdraws board 1's Black while the game runs: forfeited.
            let b = boards.next().unwrap();
            d.ok(&format!("{}@{}: /move e4", b.white, b.channel)).await;
            let said = d.ok(&format!("orga: /tournament withdraw player:@{}", b.black)).await;
            let said = common::text(&said);
            assert!(said.contains(&format!("{} wins by forfeit", b.white)), "{said}");
            assert!(said.contains(&format!("Game {} is stopped", b.game)), "{said}");
            assert!(d.err(&format!("{}@{}: /move e5", b.black, b.channel)).await.starts_with("There is no game"));
            results.push(Played { over_board: false, ..played(&b, (1.0, 0.0)) });
            withdrawn = Some(b.black.clone());
        }
        let boards: Vec<Board> = boards.collect();
        for (i, b) in boards.iter().enumerate() {
            if round == 3 && i == boards.len() - 1 {
                // The last game of round 3: White moves, Black never does.
                d.ok(&format!("{}@{}: /move e4", b.white, b.channel)).await;
                d.h.advance(5 * MINUTE);
                let flagged = d.tick().await;
                assert!(
                    flagged.iter().any(|m| m.text.contains(&format!("{} (Black) ran out of time", b.black))),
                    "{flagged:?}"
                );
                results.push(played(b, (1.0, 0.0)));
                timed_out = Some(b.black.clone());
                continue;
            }
            let finish = FINISHES[k % FINISHES.len()];
            k += 1;
            let scores = d.finish(b, finish).await;
            results.push(played(b, scores));
        }
    }
    let (withdrawn, timed_out) = (withdrawn.unwrap(), timed_out.unwrap());
    assert!(d.new_boards().is_empty(), "no fifth round");

    // Byes: one a round while nine play (a full point, never twice to one player), none after
    // the withdrawal leaves eight.
    let byes = byes(&d.log);
    assert_eq!(byes.iter().map(|b| b.0).collect::<Vec<_>>(), [1, 2], "{byes:?}");
    assert_ne!(byes[0].1, byes[1].1);
    for (round, player, points) in &byes {
        assert_eq!(*points, 1.0);
        results.push(Played {
            round: *round,
            white: player.clone(),
            black: None,
            white_score: 1.0,
            black_score: 0.0,
            over_board: false,
        });
    }
    // No rematches.
    let mut met = std::collections::HashSet::new();
    for r in results.iter().filter(|r| r.black.is_some()) {
        let mut pair = [r.white.clone(), r.black.clone().unwrap()];
        pair.sort();
        assert!(met.insert(pair.clone()), "{pair:?} met twice");
    }

    let finals = d.said("is over. ");
    let final_text = finals.iter().find(|t| t.contains("Final standings")).expect("final standings announced");
    let shown = read_standings(final_text);
    let expected = expected_standings(&field, 4, &results);
    assert_eq!(shown.len(), 9);
    for p in field {
        assert_eq!(shown[p], expected[p], "{p}: shown vs worked out\n{final_text}");
    }
    let winner = expected.iter().find(|(_, l)| l.rank == 1).map(|(p, _)| p.clone()).unwrap();
    assert!(final_text.contains(&format!("{winner} wins!")) || expected.values().filter(|l| l.rank == 1).count() > 1);
    assert!(final_text.contains(&format!("{withdrawn} (withdrawn)")), "{final_text}");
    assert_eq!(shown[&withdrawn].games, 2, "one game and the forfeit; not paired after");
    assert!(shown[&timed_out].losses >= 1);
    let picture = d.log.iter().flat_map(|m| &m.images).find(|i| i.file_name == "tournament-1-standings-4.png");
    let picture = picture.expect("a standings picture");
    assert!(picture.bytes.starts_with(b"\x89PNG"));
    // Anyone may look afterwards.
    let again = d.ok("p5: /tournament standings").await;
    assert_eq!(read_standings(&common::text(&again)), shown);
    let r2 = common::text(&d.ok("p5: /tournament pairings round:2").await);
    assert!(r2.contains(&format!("{withdrawn} (Black)")) && r2.contains("wins by forfeit"), "{r2}");
}

#[tokio::test]
async fn a_knockout_settles_a_drawn_game_with_an_armageddon_decider() {
    let mut d = Driver::new().await;
    d.ok("kate: /tournament create name:Cup variant:chess format:knockout time:10+0").await;
    for p in ["k1", "k2", "k3", "k4"] {
        d.ok(&format!("{p}: /tournament join")).await;
    }
    let started = common::text(&d.ok("kate: /tournament start").await);
    assert!(started.contains("knockout, 2 rounds"), "{started}");
    let semis = d.new_boards();
    assert_eq!(semis.len(), 2);
    // Equal ratings: seeds in joining order, 1 v 4 and 2 v 3, the higher seed White.
    assert_eq!((semis[0].white.as_str(), semis[0].black.as_str()), ("k1", "k4"));
    assert_eq!((semis[1].white.as_str(), semis[1].black.as_str()), ("k2", "k3"));
    assert!(d.err(&format!("k1@{}: /abort", semis[0].channel)).await.starts_with("Tournament games cannot be aborted"));

    d.finish(&semis[0], Finish::Draw).await;
    let decider = d.new_boards();
    assert_eq!(decider.len(), 1, "{decider:?}");
    let decider = &decider[0];
    assert!(decider.decider && decider.round == 1 && decider.board == 1);
    assert_eq!((decider.white.as_str(), decider.black.as_str()), ("k4", "k1"), "colours reversed");
    assert_ne!(decider.channel, semis[0].channel, "a new thread");
    // Armageddon: Black has draw odds, White more time. The tournament is 10+0, so White has
    // the full 10 minutes and Black four fifths of them, 8.
    let note = d.said("play a decider in #");
    assert_eq!(note.len(), 1, "{note:?}");
    assert!(
        note[0]
            .contains("White (k4) has more time (10 minutes against 8 minutes), and a draw sends Black (k1) through"),
        "{}",
        note[0]
    );
    let opened = d.said("This is the decider after a drawn game");
    assert!(
        opened[0].contains("10+0 with time odds: White 10 minutes and Black 8 minutes")
            && opened[0].contains(
                "colours are reversed, White has more time (10 minutes against 8 minutes), and a draw sends Black through (Armageddon)."
            ),
        "{}",
        opened[0]
    );
    let clocks = common::text(&d.ok(&format!("k1@{}: /game", decider.channel)).await);
    assert!(clocks.contains("White: k4, 10:00 left (running)"), "{clocks}");
    assert!(clocks.contains("Black: k1, 8:00 left"), "{clocks}");
    // Each side's clock runs from its own base: White's first move takes a minute, and Black's
    // clock starts at 8 minutes.
    d.h.advance(MINUTE);
    d.ok(&format!("k4@{}: /move Nf3", decider.channel)).await;
    let clocks = common::text(&d.ok(&format!("k1@{}: /game", decider.channel)).await);
    assert!(clocks.contains("White: k4, 9:00 left"), "{clocks}");
    assert!(clocks.contains("Black: k1, 8:00 left (running)"), "{clocks}");
    // The first game had no odds: both sides had the tournament's 10 minutes.
    let first = d.said(", round 1, board 1: game");
    assert!(first[0].contains("10+0 (10 minutes each)") && !first[0].contains("decider"), "{}", first[0]);
    // The decider is drawn too: Armageddon sends its Black, k1, through.
    d.ok(&format!("k1@{}: /move Nf6", decider.channel)).await;
    d.ok(&format!("k4@{}: /draw offer", decider.channel)).await;
    d.ok(&format!("k1@{}: /draw accept", decider.channel)).await;
    assert!(d.new_boards().is_empty(), "the other semi-final is still on");
    d.finish(&semis[1], Finish::BlackMates).await;
    let pairings = common::text(&d.ok("k2: /tournament pairings round:1").await);
    assert!(pairings.contains("Board 1: k1 (White) vs k4 (Black): 1-0 after a decider"), "{pairings}");
    assert!(pairings.contains("Board 2: k2 (White) vs k3 (Black): 0-1"), "{pairings}");

    let final_ = d.new_boards();
    assert_eq!(final_.len(), 1);
    let mut players = [final_[0].white.as_str(), final_[0].black.as_str()];
    players.sort();
    assert_eq!(players, ["k1", "k3"]);
    let white = final_[0].white.clone();
    d.finish(&final_[0], Finish::WhiteMates).await;
    let over = d.said("Final standings");
    assert_eq!(over.len(), 1);
    assert!(over[0].contains(&format!("{white} wins!")), "{}", over[0]);
    assert!(d.ok("k1: /tournament list").await.messages[0].text.contains("finished"));
}

#[tokio::test]
async fn a_round_robin_of_four_plays_everyone_once() {
    let mut d = Driver::new().await;
    d.ok("rita: /tournament create name:\"Club RR\" variant:golem format:round-robin time:3d rated:no").await;
    let field = ["r1", "r2", "r3", "r4"];
    for p in field {
        d.ok(&format!("{p}: /tournament join")).await;
    }
    d.ok("rita: /tournament start").await;
    let mut results = Vec::new();
    for round in 1..=3 {
        let boards = d.new_boards();
        assert_eq!(boards.len(), 2, "round {round}");
        for b in boards {
            // Golem Chess: White resigns on board 1, Black on board 2.
            let finish = if b.board == 1 { Finish::WhiteResigns } else { Finish::BlackResigns };
            let scores = d.finish(&b, finish).await;
            results.push(played(&b, scores));
        }
    }
    assert!(d.new_boards().is_empty());
    let final_text = d.said("Final standings").pop().expect("final standings");
    let shown = read_standings(&final_text);
    let expected = expected_standings(&field, 3, &results);
    for p in field {
        assert_eq!(shown[p].games, 3, "{p} met everyone");
        assert_eq!(shown[p], expected[p], "{p}\n{final_text}");
    }
}

#[tokio::test]
async fn a_restart_mid_round_loses_nothing_and_the_tournament_goes_on() {
    let mut d = Driver::new().await;
    d.ok("olga: /tournament create name:Resilient variant:chess format:swiss rounds:2 time:10+0").await;
    for p in ["a1", "a2", "a3", "a4"] {
        d.ok(&format!("{p}: /tournament join")).await;
    }
    d.ok("olga: /tournament start").await;
    let round1 = d.new_boards();
    assert_eq!(round1.len(), 2);
    d.finish(&round1[0], Finish::WhiteMates).await;
    // Half the second game before the host goes down.
    let b = &round1[1];
    d.ok(&format!("{}@{}: /move f3", b.white, b.channel)).await;
    d.h.restart_after(10 * MINUTE).await;
    assert!(d.tick().await.is_empty(), "nothing to redo after the restart");
    let standings = common::text(&d.ok("a1: /tournament standings").await);
    assert!(standings.contains("standings so far"), "{standings}");
    assert_eq!(read_standings(&standings)[&round1[0].white].points, 1.0, "the result before the restart stands");
    // The game goes on where it stood.
    d.ok(&format!("{}@{}: /move e5", b.black, b.channel)).await;
    d.ok(&format!("{}@{}: /move g4", b.white, b.channel)).await;
    d.ok(&format!("{}@{}: /move Qh4#", b.black, b.channel)).await;
    let round2 = d.new_boards();
    assert_eq!(round2.len(), 2, "round 2 is paired and opened by itself after the restart");
    let channels: std::collections::HashSet<&str> = round2.iter().map(|b| b.channel.as_str()).collect();
    assert_eq!(channels.len(), 2);
    for b in &round2 {
        d.finish(b, Finish::Draw).await;
    }
    assert_eq!(d.said("Final standings").len(), 1);
}

#[tokio::test]
async fn refusals_are_specific_and_change_nothing() {
    let mut d = Driver::new().await;
    assert!(d
        .err("amy: /tournament create name:X variant:chess format:knockout rounds:3")
        .await
        .contains("Swiss only"));
    assert!(d
        .err("amy: /tournament create name:X variant:chess format:ladder")
        .await
        .contains("`swiss`, `round-robin` or `knockout`"));
    assert!(d.err("amy: /tournament create name:X variant:nope format:swiss").await.contains("nope"));
    assert!(d
        .err("amy: /tournament create name:X variant:chess format:swiss starts:2001-01-01T00:00")
        .await
        .contains("has passed"));
    assert!(d.err("amy: /tournament join").await.starts_with("There is no open or running tournament here."));
    assert_eq!(
        d.ok("amy: /tournament list").await.messages[0].text,
        "No tournaments here yet. `/tournament create name:... variant:chess format:swiss` makes one."
    );

    d.ok("amy: /tournament create name:Mine variant:chess format:swiss rounds:3").await;
    d.ok("bea: /tournament join").await;
    assert!(d.err("bea: /tournament join").await.starts_with("You have already joined"));
    assert!(d.err("cat: /tournament leave").await.starts_with("You have not joined"));
    let not_yet = d.err("amy: /tournament start").await;
    assert_eq!(not_yet, "Tournament 1 \"Mine\" needs at least 4 players to start and has 1.");
    for p in ["cat", "dan", "eve"] {
        d.ok(&format!("{p}: /tournament join")).await;
    }
    let organiser_only = "Only amy (the organiser) or a server manager may";
    assert!(d.err("bea: /tournament start").await.starts_with(&format!("{organiser_only} start")));
    assert!(d.err("bea: /tournament cancel").await.starts_with(&format!("{organiser_only} cancel")));
    assert!(d.err("bea: /tournament withdraw player:@cat").await.starts_with(&format!("{organiser_only} withdraw")));
    assert!(d.err("amy: /tournament withdraw player:@zed").await.starts_with("zed is not in tournament 1"));
    assert!(d.err("amy: /tournament start id:9").await.starts_with("There is no tournament 9 here"));
    let before = d.ok("bea: /tournament list").await.messages[0].text.clone();
    assert!(before.contains("open, starts when its organiser says; 4 players"), "{before}");

    // A server manager may start someone else's tournament.
    d.ok("admin: /tournament start").await;
    assert_eq!(d.new_boards().len(), 2);
    assert!(d.err("bea: /tournament leave").await.contains("has started, so you can no longer leave it"));
    assert!(d.err("fay: /tournament join").await.contains("entries are closed"));
    assert!(d.err("amy: /tournament start").await.contains("only an open tournament can start"));
    assert!(d.err("amy: /tournament pairings round:5").await.contains("has no round 5"));
    let after = d.ok("bea: /tournament list").await.messages[0].text.clone();
    assert!(after.contains("running, round 1 of 3; 4 players"), "{after}");

    // A second tournament makes the id necessary.
    d.ok("gus: /tournament create name:Other variant:golem format:knockout").await;
    let which = d.err("bea: /tournament standings").await;
    assert!(
        which.starts_with("Several tournaments are on here: tournament 1 \"Mine\", tournament 2 \"Other\"")
            || which.starts_with("Several tournaments are on here: tournament 2 \"Other\", tournament 1 \"Mine\""),
        "{which}"
    );

    let cancelled = common::text(&d.ok("amy: /tournament cancel id:1").await);
    assert!(cancelled.contains("amy cancels tournament 1 \"Mine\"; 2 game(s) in progress are stopped"), "{cancelled}");
    assert!(d.err("amy: /tournament cancel id:1").await.contains("is already cancelled"));
}

#[tokio::test]
async fn a_tournament_due_with_too_few_players_is_cancelled_and_help_explains_the_rules() {
    let mut d = Driver::new().await;
    d.ok("ida: /tournament create name:Lonely variant:werewolf format:round-robin starts:30m").await;
    d.ok("joe: /tournament join").await;
    d.h.advance(29 * MINUTE);
    assert!(d.tick().await.is_empty());
    d.h.advance(MINUTE);
    let cancelled = d.tick().await;
    assert_eq!(cancelled.len(), 1, "{cancelled:?}");
    assert_eq!(
        cancelled[0].text,
        "Tournament 1 \"Lonely\" needs at least 2 players to start and has 1. Its start time has come, so it is cancelled."
    );
    assert_eq!(cancelled[0].channel.as_deref(), Some("general"));
    assert!(d.tick().await.is_empty(), "cancelled once");
    assert!(d.ok("joe: /tournament list").await.messages[0].text.contains("cancelled"));

    let help = common::text(&d.ok("joe: /help tournament").await);
    for needle in ["Buchholz", "Sonneborn-Berger", "direct encounter", "Armageddon", "Byes", "withdraw", "Berger"] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
    assert_eq!(common::text(&d.ok("joe: /tournament help").await), help);
    assert!(common::text(&d.ok("joe: /help").await).contains("/tournament create|join|leave"));
}
