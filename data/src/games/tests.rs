use crate::testing::{new_game, nth_move, on_both_backends, store_with_game, two_players, TestDb};
use crate::{
    ClockKind, Color, Error, Finish, GameResult, GameState, Glicko, NewGame, OfferKind, Proposal, RatingUpdate,
    TimeControl, TimeOdds,
};

fn glicko(rating: f64) -> Glicko {
    Glicko { rating, deviation: 200.0, volatility: 0.06 }
}

fn rated_finish(white: i64, black: i64, games_before: i64) -> Finish {
    Finish {
        result: GameResult::WhiteWins,
        reason: "checkmate".into(),
        ratings: vec![
            RatingUpdate { player: white, variant: "chess".into(), games_before, glicko: glicko(1600.0) },
            RatingUpdate { player: black, variant: "chess".into(), games_before, glicko: glicko(1400.0) },
        ],
    }
}

fn a_created_game_is_the_active_game_of_its_channel_as_it_was_given(db: &TestDb) {
    let (store, game, white, black) = store_with_game(db);
    store
        .read(|tx| {
            let record = tx.active_game("test", "c1")?.unwrap();
            let g = &record.game;
            assert_eq!(g.id, game);
            assert_eq!((g.white, g.black), (white, black));
            assert_eq!(g.state, GameState::Active);
            assert_eq!(g.result, None);
            assert_eq!(g.deadline, Some(600_000));
            assert_eq!(
                g.time_control,
                Some(TimeControl { kind: ClockKind::Live, base_ms: 600_000, increment_ms: 5_000 })
            );
            assert!(g.rated);
            assert_eq!(g.color_of(black), Some(Color::Black));
            assert_eq!(g.player(Color::White), white);
            assert_eq!(record.fen(), g.start_fen);
            assert_eq!(record.ply(), 0);
            assert!(tx.active_game("test", "c2")?.is_none());
            assert!(tx.active_game("other platform", "c1")?.is_none());
            assert!(matches!(tx.game(game + 1), Err(Error::NotFound { what: "game", .. })));
            Ok(())
        })
        .unwrap();
}

fn a_busy_channel_refuses_a_second_game_until_the_first_ends(db: &TestDb) {
    let (mut store, game, white, black) = store_with_game(db);
    let second = new_game("c1", white, black);
    let err = store.write(|tx| tx.create_game(&second, 1)).unwrap_err();
    assert!(
        matches!(&err, Error::ChannelBusy { channel, game_id, .. } if channel == "c1" && *game_id == game),
        "{err}"
    );
    store.write(|tx| tx.create_game(&new_game("c2", white, black), 1)).unwrap();

    store.write(|tx| tx.abort_game(game, "no first move", 2)).unwrap();
    let next = store.write(|tx| tx.create_game(&second, 3)).unwrap();
    assert_eq!(store.read(|tx| tx.active_game("test", "c1")).unwrap().unwrap().game.id, next.id);
}

fn finishing_records_result_and_both_ratings_in_one_commit(db: &TestDb) {
    let (mut store, game, white, black) = store_with_game(db);
    let finished = store.write(|tx| tx.finish_game(game, &rated_finish(white, black, 0), 50)).unwrap();
    assert_eq!(finished.state, GameState::Finished);
    assert_eq!(finished.result, Some(GameResult::WhiteWins));
    assert_eq!(finished.reason.as_deref(), Some("checkmate"));
    assert_eq!((finished.finished_at, finished.deadline), (Some(50), None));
    store
        .read(|tx| {
            let w = tx.rating(white, "chess")?.unwrap();
            assert_eq!((w.glicko, w.games, w.updated_at), (glicko(1600.0), 1, 50));
            assert_eq!(tx.rating(black, "chess")?.unwrap().glicko, glicko(1400.0));
            assert!(tx.active_game("test", "c1")?.is_none());
            Ok(())
        })
        .unwrap();

    let again = store.write(|tx| tx.finish_game(game, &rated_finish(white, black, 1), 60));
    assert!(matches!(again, Err(Error::GameNotActive { state: GameState::Finished, .. })));
}

fn a_refused_rating_update_leaves_the_game_unfinished_and_no_rating_changed(db: &TestDb) {
    let (mut store, game, white, black) = store_with_game(db);
    // The black rating was computed before another game was rated: stale.
    let mut stale = rated_finish(white, black, 0);
    stale.ratings[1].games_before = 3;
    let err = store.write(|tx| tx.finish_game(game, &stale, 50)).unwrap_err();
    assert!(matches!(err, Error::RatingConflict { player, expected: 3, actual: 0, .. } if player == black), "{err}");

    let mut outsider = rated_finish(white, black, 0);
    outsider.ratings[1].variant = "golem".into();
    let err = store.write(|tx| tx.finish_game(game, &outsider, 50)).unwrap_err();
    assert!(matches!(err, Error::RatingOutsideGame { .. }), "{err}");

    let mut casual = new_game("c2", white, black);
    casual.rated = false;
    let casual = store.write(|tx| tx.create_game(&casual, 1)).unwrap().id;
    let err = store.write(|tx| tx.finish_game(casual, &rated_finish(white, black, 0), 50)).unwrap_err();
    assert!(matches!(err, Error::RatingOutsideGame { .. }), "an unrated game rates nobody");

    store
        .read(|tx| {
            assert_eq!(tx.game(game)?.state, GameState::Active);
            assert_eq!(tx.game(casual)?.state, GameState::Active);
            assert_eq!(tx.rating(white, "chess")?, None, "white's update was rolled back");
            Ok(())
        })
        .unwrap();
}

fn overdue_games_are_those_past_their_deadline_earliest_first(db: &TestDb) {
    let mut store = db.store();
    let ids = store
        .write(|tx| {
            let (white, black) = two_players(tx);
            let mut ids = Vec::new();
            for (channel, deadline) in [("a", Some(300)), ("b", Some(100)), ("c", None), ("d", Some(200))] {
                let mut game = new_game(channel, white, black);
                game.deadline = deadline;
                ids.push(tx.create_game(&game, 0)?.id);
            }
            tx.abort_game(ids[3], "moderator", 0)?;
            Ok(ids)
        })
        .unwrap();
    store
        .read(|tx| {
            let overdue =
                |now| -> crate::Result<Vec<i64>> { Ok(tx.overdue_games(now)?.into_iter().map(|g| g.id).collect()) };
            assert_eq!(overdue(99)?, Vec::<i64>::new());
            assert_eq!(overdue(100)?, vec![ids[1]]);
            assert_eq!(overdue(1_000)?, vec![ids[1], ids[0]]);
            assert_eq!(tx.next_deadline()?, Some(100));
            Ok(())
        })
        .unwrap();
    store.write(|tx| tx.set_deadline(ids[1], Some(500), 1)).unwrap();
    assert_eq!(store.read(|tx| tx.next_deadline()).unwrap(), Some(300));
}

fn a_players_games_active_and_finished_latest_first_by_pages(db: &TestDb) {
    let mut store = db.store();
    let (me, finished) = store
        .write(|tx| {
            let (me, other) = two_players(tx);
            let stranger = tx.upsert_player("test", "stranger", "S", 0)?.id;
            let mut finished = Vec::new();
            // Five finished games, two of them at the same moment, alternating colours.
            for (i, at) in [10, 20, 20, 30, 40].into_iter().enumerate() {
                let (w, b) = if i % 2 == 0 { (me, other) } else { (other, me) };
                let game = tx.create_game(&new_game(&format!("f{i}"), w, b), 0)?;
                let draw = Finish { result: GameResult::Draw, reason: "agreement".into(), ratings: vec![] };
                finished.push(tx.finish_game(game.id, &draw, at)?.id);
            }
            tx.create_game(&new_game("live", other, me), 0)?;
            tx.create_game(&new_game("theirs", other, stranger), 0)?;
            Ok((me, finished))
        })
        .unwrap();
    store
        .read(|tx| {
            assert_eq!(tx.active_games_of(me)?.len(), 1);
            let first = tx.finished_games_of(me, None, 2)?;
            let last = first.last().unwrap();
            let second = tx.finished_games_of(me, Some((last.finished_at.unwrap(), last.id)), 2)?;
            let last = second.last().unwrap();
            let third = tx.finished_games_of(me, Some((last.finished_at.unwrap(), last.id)), 2)?;
            let pages: Vec<i64> = [first, second, third].concat().iter().map(|g| g.id).collect();
            let mut expected = finished.clone();
            expected.reverse();
            assert_eq!(pages, expected);
            Ok(())
        })
        .unwrap();
}

fn offers_stand_per_kind_and_side_until_cleared_or_the_game_ends(db: &TestDb) {
    let (mut store, game, _, _) = store_with_game(db);
    store
        .write(|tx| {
            tx.append_move(game, &nth_move(0, None), 1)?;
            tx.make_offer(game, Color::White, Proposal::Draw, 2)?;
            tx.make_offer(game, Color::Black, Proposal::Takeback { plies: 1 }, 3)?;
            // A second takeback offer by black replaces the first.
            tx.make_offer(game, Color::Black, Proposal::Takeback { plies: 2 }, 4)?;
            Ok(())
        })
        .unwrap();
    let offers = store.read(|tx| tx.game_record(game)).unwrap().offers;
    assert_eq!(offers.len(), 2);
    assert_eq!((offers[0].proposal, offers[0].by, offers[0].at_ply), (Proposal::Draw, Color::White, 1));
    assert_eq!(offers[1].proposal, Proposal::Takeback { plies: 2 });

    assert_eq!(store.write(|tx| tx.clear_offers(game, Some(OfferKind::Draw))).unwrap(), 1);
    assert_eq!(store.read(|tx| tx.offers(game)).unwrap().len(), 1);

    let draw = Finish { result: GameResult::Draw, reason: "agreement".into(), ratings: vec![] };
    store.write(|tx| tx.finish_game(game, &draw, 5)).unwrap();
    assert!(store.read(|tx| tx.offers(game)).unwrap().is_empty());
    let late = store.write(|tx| tx.make_offer(game, Color::White, Proposal::Draw, 6));
    assert!(matches!(late, Err(Error::GameNotActive { .. })));
}

fn ratings_update_only_from_the_state_they_were_computed_from_and_rank_by_rating(db: &TestDb) {
    let mut store = db.store();
    let players = store
        .write(|tx| {
            let mut ids = Vec::new();
            for (name, rating, games) in [("a", 1500.0, 1), ("b", 1700.0, 3), ("c", 1600.0, 2)] {
                let id = tx.upsert_player("test", name, name, 0)?.id;
                for n in 0..games {
                    let update =
                        RatingUpdate { player: id, variant: "chess".into(), games_before: n, glicko: glicko(rating) };
                    tx.update_rating(&update, 1)?;
                }
                ids.push(id);
            }
            let elsewhere = tx.upsert_player("other", "d", "d", 0)?.id;
            let update =
                RatingUpdate { player: elsewhere, variant: "chess".into(), games_before: 0, glicko: glicko(2000.0) };
            tx.update_rating(&update, 1)?;
            Ok(ids)
        })
        .unwrap();
    store
        .read(|tx| {
            let board = tx.leaderboard("test", "chess", 0, 10)?;
            let names: Vec<&str> = board.iter().map(|(p, _)| p.display_name.as_str()).collect();
            assert_eq!(names, ["b", "c", "a"]);
            assert_eq!(board[0].1.games, 3);
            let seasoned = tx.leaderboard("test", "chess", 2, 1)?;
            assert_eq!(seasoned.len(), 1);
            assert_eq!(seasoned[0].0.id, players[1]);
            assert!(tx.leaderboard("test", "golem", 0, 10)?.is_empty());
            assert_eq!(tx.ratings_of(players[0])?.len(), 1);
            Ok(())
        })
        .unwrap();
}

fn time_odds_are_stored_with_the_game_and_read_back(db: &TestDb) {
    let (mut store, plain, white, black) = store_with_game(db);
    let odds = TimeOdds { white_base_ms: 600_000, black_base_ms: 480_000 };
    let new = NewGame { time_odds: Some(odds), ..new_game("c2", white, black) };
    let created = store.write(|tx| tx.create_game(&new, 1)).unwrap();
    assert_eq!(created.time_odds, Some(odds));
    assert_eq!((odds.base_ms(Color::White), odds.base_ms(Color::Black)), (600_000, 480_000));
    store
        .read(|tx| {
            assert_eq!(tx.active_game("test", "c2")?.unwrap().game.time_odds, Some(odds));
            assert_eq!(tx.game(plain)?.time_odds, None, "a game without odds has none");
            Ok(())
        })
        .unwrap();
}

on_both_backends!(
    time_odds_are_stored_with_the_game_and_read_back,
    a_created_game_is_the_active_game_of_its_channel_as_it_was_given,
    a_busy_channel_refuses_a_second_game_until_the_first_ends,
    finishing_records_result_and_both_ratings_in_one_commit,
    a_refused_rating_update_leaves_the_game_unfinished_and_no_rating_changed,
    overdue_games_are_those_past_their_deadline_earliest_first,
    a_players_games_active_and_finished_latest_first_by_pages,
    offers_stand_per_kind_and_side_until_cleared_or_the_game_ends,
    ratings_update_only_from_the_state_they_were_computed_from_and_rank_by_rating,
);
