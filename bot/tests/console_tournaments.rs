//! Whole tournaments through the console: a 9-player Swiss with a withdrawal and a time-out, a
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

    let mut results: Vec<Played> = Vec::new();
    let mut withdrawn = None;
    let mut timed_out = None;
    let mut k = 0;
    for round in 1..=4u32 {
        let boards = d.new_boards();
        let expected_games = if round <= 2 { 4 } else { 4 };
        assert_eq!(boards.len(), expected_games, "round {round}: {boards:?}");
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
    assert!(picture.expect("a standings picture").png.starts_with(b"\x89PNG"));
    // Anyone may look afterwards.
    let again = d.ok("p5: /tournament standings").await;
    assert_eq!(read_standings(&common::text(&again)), shown);
    let r2 = common::text(&d.ok("p5: /tournament pairings round:2").await);
    assert!(r2.contains(&format!("{withdrawn} (Black)")) && r2.contains("wins by forfeit"), "{r2}");
}
