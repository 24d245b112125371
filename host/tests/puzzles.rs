//! Puzzles: the job that finds them in finished games, `/puzzle` serving them where their game
//! may be seen, the moves that answer them, and the Glicko-2 ratings of players and puzzles.

mod common;

use common::{text, Club, Place};
use data::{AttemptState, Glicko, NewPuzzle, PuzzleId};
use host::Reply;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// Rd8+ Rxd8 Rxd8#: White is a rook up whatever it plays, but only this mates.
const BACK_RANK: &str = "1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1";
const BACK_RANK_LINE: [&str; 3] = ["d2d8", "b8d8", "d1d8"];

fn fresh() -> Glicko {
    let g = Glicko2Rating::new();
    Glicko { rating: g.rating, deviation: g.deviation, volatility: g.volatility }
}

fn glicko2_of(g: Glicko) -> Glicko2Rating {
    Glicko2Rating { rating: g.rating, deviation: g.deviation, volatility: g.volatility }
}

fn same(a: Glicko, b: Glicko2Rating) -> bool {
    (a.rating - b.rating).abs() < 1e-9
        && (a.deviation - b.deviation).abs() < 1e-9
        && (a.volatility - b.volatility).abs() < 1e-12
}

/// A short game between alice and bob at `place`, ended by alice's resignation: its number.
async fn finished_game(club: &Club, place: &Place) -> i64 {
    let said = |user: &'static str, line: &'static str| club.at(place, user, line);
    for (user, line) in [
        ("alice", "/challenge @bob variant:chess color:white rated:no"),
        ("bob", "/accept"),
        ("alice", "/move e4"),
        ("alice", "/resign confirm:yes"),
    ] {
        let reply = said(user, line).await;
        assert!(!reply.is_error(), "{user}: {line}: {}", text(&reply));
    }
    let (platform, channel) = (place.platform.clone(), place.channel.clone());
    club.host
        .store()
        .read(move |tx| {
            let games = tx.games_to_scan(100)?;
            let mut ours = None;
            for id in games {
                let game = tx.game(id)?;
                if game.platform == platform && game.channel == channel {
                    ours = Some(id);
                }
            }
            Ok(ours.expect("the finished game waits to be scanned"))
        })
        .await
        .unwrap()
}

/// Records `game` as scanned, with the back-rank puzzle found in it: the puzzle's number.
async fn plant(club: &Club, game: i64) -> PuzzleId {
    let puzzle = NewPuzzle {
        ply: 10,
        fen: BACK_RANK.into(),
        solution: BACK_RANK_LINE.map(String::from).to_vec(),
        glicko: fresh(),
    };
    let now = club.host.now();
    club.host
        .store()
        .write(move |tx| {
            assert!(tx.record_scan(game, std::slice::from_ref(&puzzle), 5, now)?);
            let g = tx.game(game)?;
            let place = data::PuzzlePlace { platform: &g.platform, server: g.server.as_deref(), channel: &g.channel };
            // Nobody has tried it: the player asked for is one that does not exist.
            let found = tx.puzzle_for(place, None, i64::MAX, 1500.0)?;
            Ok(found.expect("the planted puzzle").id)
        })
        .await
        .unwrap()
}

/// A finished game at `place` with the back-rank puzzle planted in it.
async fn planted(club: &Club, place: &Place) -> PuzzleId {
    let game = finished_game(club, place).await;
    plant(club, game).await
}

async fn puzzle(club: &Club, id: PuzzleId) -> data::Puzzle {
    club.host.store().read(move |tx| tx.puzzle(id)).await.unwrap()
}

async fn attempts(club: &Club, id: PuzzleId) -> Vec<(String, AttemptState, u32)> {
    club.host
        .store()
        .read(move |tx| {
            let mut found = Vec::new();
            for name in ["alice", "bob", "carol", "dave"] {
                let Some(player) = tx.find_player("console", name)? else { continue };
                for channel in ["club", "other"] {
                    if let Some(a) = tx.open_attempt("console", channel, player.id)? {
                        if a.puzzle == id {
                            found.push((name.to_string(), a.state, a.progress));
                        }
                    }
                }
            }
            Ok(found)
        })
        .await
        .unwrap()
}

fn board_fen(reply: &Reply) -> (String, bool) {
    let image = reply.messages[0].images.first().expect("a board picture");
    let board = image.board.as_ref().expect("the board as data");
    (board.fen.clone(), board.flipped)
}

#[tokio::test]
async fn a_planted_puzzle_is_served_and_solved_and_rated_as_glicko2_says() {
    let club = Club::open().await;
    let id = planted(&club, &Place::console("club")).await;
    let reply = club.say("carol", "club", "/puzzle").await;
    assert!(!reply.is_error(), "{}", text(&reply));
    let said = text(&reply);
    assert!(said.contains(&format!("Puzzle {id} (Chess, rated 1500?)")), "{said}");
    assert!(said.contains("White to move: find the winning move."), "{said}");
    assert_eq!(board_fen(&reply), (BACK_RANK.to_string(), false), "White's side at the bottom");
    // Asked again while it is open: the same puzzle, not a second one.
    let again = club.ok("carol", "club", "/puzzle").await;
    assert!(again.contains(&format!("Your puzzle {id} is still open here")), "{again}");

    let right = club.ok("carol", "club", "/move Rd8+").await;
    assert!(right.contains("Right: Rd8+! Black replies Rxd8. White to move: find the next move."), "{right}");
    assert_eq!(attempts(&club, id).await, vec![("carol".into(), AttemptState::Open, 2)]);
    assert_eq!(club.puzzle_rating("carol").await, None, "not rated before it ends");

    let solved = club.ok("carol", "club", "/move Rxd8#").await;
    assert!(solved.contains(&format!("Solved: Rxd8#! Puzzle {id} is done.")), "{solved}");
    assert!(attempts(&club, id).await.is_empty(), "closed");

    // Glicko-2 with the puzzle as the opponent, by skillratings itself on the same inputs.
    let (carol, beaten) = glicko2(&Glicko2Rating::new(), &glicko2_of(fresh()), &Outcomes::WIN, &Glicko2Config::new());
    let mine = club.puzzle_rating("carol").await.expect("a puzzle rating");
    assert!(same(mine.glicko, carol), "{mine:?} against {carol:?}");
    assert_eq!(mine.attempts, 1);
    let stored = puzzle(&club, id).await;
    assert!(same(stored.glicko, beaten), "{:?} against {beaten:?}", stored.glicko);
    assert_eq!(stored.attempts, 1);
    assert!(
        solved.contains(&format!(
            "Your Chess puzzle rating: 1500? → {:.0}? (+{:.0}).",
            carol.rating,
            carol.rating.round() - 1500.0
        )),
        "{solved}"
    );
}

#[tokio::test]
async fn a_wrong_answer_ends_the_attempt_and_shows_the_solution() {
    let club = Club::open().await;
    let id = planted(&club, &Place::console("club")).await;
    club.ok("carol", "club", "/puzzle").await;
    // Not a move there: nothing changes.
    let refused = club.refused("carol", "club", "/move Qd8").await;
    assert!(refused.contains(&format!("That was not played in your puzzle {id}")), "{refused}");
    assert_eq!(attempts(&club, id).await, vec![("carol".into(), AttemptState::Open, 0)]);

    let wrong = club.say("carol", "club", "/move Rd7").await;
    assert!(!wrong.is_error());
    let said = text(&wrong);
    assert!(said.contains(&format!("Wrong: Rd7 is not it, and puzzle {id} is over.")), "{said}");
    // The planted puzzle stood after ten moves of its game.
    assert!(said.contains("The solution: 6. Rd8+ Rxd8 7. Rxd8#."), "{said}");
    assert!(attempts(&club, id).await.is_empty());
    let (carol, lost_to) = glicko2(&Glicko2Rating::new(), &glicko2_of(fresh()), &Outcomes::LOSS, &Glicko2Config::new());
    let mine = club.puzzle_rating("carol").await.expect("a puzzle rating");
    assert!(same(mine.glicko, carol), "{mine:?}");
    assert!(same(puzzle(&club, id).await.glicko, lost_to));

    // Over: her next move is no answer, and the puzzle is never hers again.
    let after = club.refused("carol", "club", "/move Rd8+").await;
    assert!(after.contains("There is no game in #club"), "{after}");
    let none = club.refused("carol", "club", "/puzzle").await;
    assert!(none.contains("There is no puzzle here for you yet"), "{none}");

    // Dave meets the puzzle as carol left it: its rating moved, and moves again from there.
    club.ok("dave", "club", "/puzzle chess").await;
    club.ok("dave", "club", "/move d2d8").await;
    club.ok("dave", "club", "/move d1d8").await;
    let (_, beaten) = glicko2(&Glicko2Rating::new(), &lost_to, &Outcomes::WIN, &Glicko2Config::new());
    let stored = puzzle(&club, id).await;
    assert!(same(stored.glicko, beaten), "{:?} against {beaten:?}", stored.glicko);
    assert_eq!(stored.attempts, 2);
}

#[tokio::test]
async fn a_puzzle_from_a_private_place_is_never_served_elsewhere() {
    let club = Club::open().await;
    let server = Place::new("discord", Some("s1"), "c1");
    let direct = Place::new("discord", None, "dm-alice");
    let in_server = planted(&club, &server).await;
    let in_direct = planted(&club, &direct).await;
    let asked = |place: Place| {
        let club = &club;
        async move { club.at(&place, "carol", "/puzzle").await }
    };
    for (place, why) in [
        (Place::new("discord", Some("s2"), "c1"), "another server"),
        (Place::new("discord", None, "dm-carol"), "another direct chat"),
        (Place::console("c1"), "another platform"),
        (Place::new("matrix", Some("s1"), "c1"), "another platform, the same names"),
    ] {
        let reply = asked(place).await;
        assert!(reply.is_error() && text(&reply).contains("There is no puzzle here"), "{why}: {}", text(&reply));
    }
    // In another channel of the game's server: the server's puzzle, never the direct chat's.
    let reply = asked(Place::new("discord", Some("s1"), "c2")).await;
    assert!(text(&reply).contains(&format!("Puzzle {in_server} ")), "{}", text(&reply));
    let reply = club.at(&Place::new("discord", Some("s1"), "c2"), "carol", "/move Rd7").await;
    assert!(text(&reply).contains("Wrong"), "{}", text(&reply));
    let reply = asked(Place::new("discord", Some("s1"), "c3")).await;
    assert!(reply.is_error(), "the server had one puzzle: {}", text(&reply));
    // In the direct chat it was played in: its own.
    let reply = asked(direct.clone()).await;
    assert!(text(&reply).contains(&format!("Puzzle {in_direct} ")), "{}", text(&reply));
}

#[tokio::test]
async fn two_answers_at_once_count_once() {
    let club = Club::open().await;
    let id = planted(&club, &Place::console("club")).await;
    club.ok("carol", "club", "/puzzle").await;
    // The same first move twice at once: the attempt moves on once.
    let (a, b) = tokio::join!(club.say("carol", "club", "/move Rd8+"), club.say("carol", "club", "/move Rd8+"));
    let rights = [&a, &b].iter().filter(|r| text(r).contains("Right: Rd8+!")).count();
    assert!(rights >= 1, "{} / {}", text(&a), text(&b));
    // Either the second came too late, or it came after and answered the next position (Rd8+
    // there reads as the rook's capture, which solves it); never both counted on one position.
    let state = attempts(&club, id).await;
    let solved_by_second = [&a, &b].iter().any(|r| text(r).contains("Solved"));
    if solved_by_second {
        assert!(state.is_empty());
    } else {
        // The other came too late for the first position, or was not a move in the next.
        assert_eq!(rights, 1, "{} / {}", text(&a), text(&b));
        assert!(a.is_error() != b.is_error(), "{} / {}", text(&a), text(&b));
        assert_eq!(state, vec![("carol".into(), AttemptState::Open, 2)]);
        // The last move twice at once: solved once, rated once.
        let (a, b) = tokio::join!(club.say("carol", "club", "/move Rxd8#"), club.say("carol", "club", "/move Rxd8#"));
        let solved = [&a, &b].iter().filter(|r| text(r).contains("Solved")).count();
        assert_eq!(solved, 1, "{} / {}", text(&a), text(&b));
    }
    assert_eq!(puzzle(&club, id).await.attempts, 1, "the puzzle is rated once");
    assert_eq!(club.puzzle_rating("carol").await.map(|r| r.attempts), Some(1), "and so is carol");
}

#[tokio::test]
async fn a_player_s_own_game_comes_before_their_puzzle() {
    let club = Club::open().await;
    let id = planted(&club, &Place::console("club")).await;
    club.ok("carol", "club", "/puzzle").await;
    // A new game in the channel, between alice and bob.
    club.game("club", "alice", "bob", "chess", "").await;
    let refused = club.refused("alice", "club", "/puzzle").await;
    assert!(refused.contains("You play game 2 in this channel"), "{refused}");
    // Carol does not play it: her move answers her puzzle; alice's moves are the game's.
    let answer = club.ok("carol", "club", "/move Rd8+").await;
    assert!(answer.contains("Right: Rd8+!"), "{answer}");
    let moved = club.ok("alice", "club", "/move e4").await;
    assert!(moved.contains("played 1. e4"), "{moved}");
    assert_eq!(attempts(&club, id).await, vec![("carol".into(), AttemptState::Open, 2)]);
}

#[tokio::test]
async fn help_says_how_puzzles_work() {
    let club = Club::open().await;
    let help = club.ok("carol", "club", "/help").await;
    assert!(help.contains("/puzzle [variant]"), "{help}");
    let puzzles = club.ok("carol", "club", "/help puzzle").await;
    assert!(puzzles.contains("A wrong move ends the puzzle"), "{puzzles}");
    assert!(puzzles.contains("while you play the channel's game, `/move` plays in it"), "{puzzles}");
}

/// Scholar's mate: 3...Nf6?? lets 4. Qxf7#.
const SCHOLARS_MATE: [&str; 7] = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"];

#[tokio::test]
async fn the_job_scans_a_finished_game_once_across_a_restart_and_its_puzzle_is_served() {
    let club = Club::open().await;
    club.game("club", "alice", "bob", "chess", "").await;
    club.moves("club", "alice", "bob", &SCHOLARS_MATE).await;
    let scanned = club.host.scan_next_game().await.unwrap().expect("the game waits to be scanned");
    assert_eq!(scanned.game, 1);
    assert!(scanned.recorded);
    assert!(scanned.puzzles >= 1, "{scanned:?}");
    assert_eq!(club.host.scan_next_game().await.unwrap(), None, "scanned once");
    let found = club
        .host
        .store()
        .read(|tx| {
            let place = data::PuzzlePlace { platform: "console", server: None, channel: "club" };
            tx.puzzle_for(place, Some("chess"), i64::MAX, 1500.0)
        })
        .await
        .unwrap()
        .expect("a puzzle of the game");
    assert_eq!((found.game, found.ply, found.solution.clone()), (1, 6, vec!["h5f7".to_string()]));

    let club = club.restart().await;
    assert_eq!(club.host.scan_next_game().await.unwrap(), None, "still scanned after a restart");
    let totals = club.host.store().read(|tx| tx.scan_totals()).await.unwrap();
    assert_eq!((totals.len(), totals[0].games, totals[0].puzzles), (1, 1, scanned.puzzles as i64));

    // Served as it was found, from Black's mistake: White to move.
    let shown = club.ok("carol", "club", "/puzzle").await;
    assert!(shown.contains("White to move: find the winning move."), "{shown}");
    let solved = club.ok("carol", "club", "/move Qxf7#").await;
    assert!(solved.contains("Solved: Qxf7#!"), "{solved}");
}

#[tokio::test]
async fn the_job_leaves_a_game_another_process_claimed_until_the_claim_expires() {
    let club = Club::open().await;
    club.game("club", "alice", "bob", "chess", "").await;
    club.moves("club", "alice", "bob", &SCHOLARS_MATE).await;
    // Another process of the deployment claimed the game, and lives: its claim runs on.
    let store = club.host.store();
    let claimed = store.write(|tx| tx.claim_game_to_scan("elsewhere:1:1", 0, i64::MAX)).await.unwrap();
    assert_eq!(claimed, Some(1));
    assert_eq!(club.host.scan_next_game().await.unwrap(), None, "the other process's to scan");
    assert!(store.read(|tx| tx.scan_totals()).await.unwrap().is_empty(), "nothing scanned here");
    // It died, and its claim ran out: this process takes the game over and scans it.
    assert!(store.write(|tx| tx.renew_scan_claim(1, "elsewhere:1:1", 0, 1)).await.unwrap());
    let scanned = club.host.scan_next_game().await.unwrap().expect("the game, its claim expired");
    assert_eq!((scanned.game, scanned.recorded), (1, true));
    assert!(scanned.puzzles >= 1, "{scanned:?}");
    // Recorded: nobody's to claim again.
    assert_eq!(store.write(|tx| tx.claim_game_to_scan("elsewhere:1:1", 5, 10)).await.unwrap(), None);
}

#[tokio::test]
async fn a_black_solver_sees_the_board_from_black_s_side() {
    let club = Club::open().await;
    let game = finished_game(&club, &Place::console("club")).await;
    // The back-rank line mirrored: Black to move.
    let puzzle = NewPuzzle {
        ply: 11,
        fen: "3r2k1/3r1ppp/8/8/8/8/5PPP/1R4K1 b - - 0 1".into(),
        solution: ["d7d1", "b1d1", "d8d1"].map(String::from).to_vec(),
        glicko: fresh(),
    };
    let now = club.host.now();
    club.host.store().write(move |tx| tx.record_scan(game, std::slice::from_ref(&puzzle), 1, now)).await.unwrap();
    let reply = club.say("carol", "club", "/puzzle").await;
    assert!(text(&reply).contains("Black to move: find the winning move."), "{}", text(&reply));
    assert!(board_fen(&reply).1, "Black at the bottom");
    let wrong = club.ok("carol", "club", "/move Rd2").await;
    assert!(wrong.contains("The solution: 6... Rd1+ 7. Rxd1 Rxd1#."), "{wrong}");
}
