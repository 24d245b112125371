use crate::testing::{nth_move, on_both_backends, store_with_game, TestDb};
use crate::{Appended, Color, Error, Finish, GameResult, GameState, Proposal};

fn moves_append_in_order_and_load_with_the_game(db: &TestDb) {
    let (mut store, game, _, _) = store_with_game(db);
    for ply in 0..5 {
        let appended = store
            .write(|tx| tx.append_move(game, &nth_move(ply, Some(1_000 + i64::from(ply))), 10 + i64::from(ply)))
            .unwrap();
        assert!(matches!(&appended, Appended::Applied(mv) if mv.ply == ply + 1));
    }
    let record = store.read(|tx| tx.active_game("test", "c1")).unwrap().unwrap();
    assert_eq!(record.ply(), 5);
    let sans: Vec<&str> = record.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["M1", "M2", "M3", "M4", "M5"]);
    let last = &record.moves[4];
    assert_eq!((last.coord.as_str(), last.fen_after.as_str()), ("m5", "fen after 5"));
    assert_eq!((last.time_used_ms, last.request_id.as_str(), last.played_at), (1_005, "request 5", 14));
    assert_eq!(record.fen(), "fen after 5");
    assert_eq!(record.game.deadline, Some(1_004));
    assert_eq!(record.game.updated_at, 14);
}

fn a_move_made_for_another_ply_conflicts_and_changes_nothing(db: &TestDb) {
    let (mut store, game, _, _) = store_with_game(db);
    store.write(|tx| tx.append_move(game, &nth_move(0, Some(7)), 1)).unwrap();
    // Two players answered the same position: the second is stale.
    let mut rival = nth_move(0, Some(99));
    rival.request_id = "rival".into();
    let err = store.write(|tx| tx.append_move(game, &rival, 2)).unwrap_err();
    assert!(matches!(err, Error::PlyConflict { expected: 0, actual: 1, .. }), "{err}");
    assert_eq!(err.to_string(), format!("game {game} has 1 plies played, not the 0 this change was made for"));

    let ahead = store.write(|tx| tx.append_move(game, &nth_move(3, None), 2)).unwrap_err();
    assert!(matches!(ahead, Error::PlyConflict { expected: 3, actual: 1, .. }));

    let record = store.read(|tx| tx.game_record(game)).unwrap();
    assert_eq!(record.ply(), 1);
    assert_eq!(record.game.deadline, Some(7));
}

fn the_same_request_applied_twice_lands_once(db: &TestDb) {
    let (mut store, game, _, _) = store_with_game(db);
    let first = store.write(|tx| tx.append_move(game, &nth_move(0, Some(5)), 1)).unwrap();
    let retry = store.write(|tx| tx.append_move(game, &nth_move(0, Some(6)), 2)).unwrap();
    assert_eq!(retry, Appended::AlreadyApplied(first.mv().clone()));

    // Still recognised after the game moved on, even though its ply is now stale.
    store.write(|tx| tx.append_move(game, &nth_move(1, None), 3)).unwrap();
    let late = store.write(|tx| tx.append_move(game, &nth_move(0, None), 4)).unwrap();
    assert!(matches!(late, Appended::AlreadyApplied(mv) if mv.ply == 1));

    let record = store.read(|tx| tx.game_record(game)).unwrap();
    assert_eq!(record.ply(), 2);
    assert_eq!(record.game.updated_at, 3, "a repeated request writes nothing");
}

fn request_ids_are_per_game(db: &TestDb) {
    let (mut store, game, white, black) = store_with_game(db);
    let other = store.write(|tx| tx.create_game(&crate::testing::new_game("c2", white, black), 0)).unwrap().id;
    store.write(|tx| tx.append_move(game, &nth_move(0, None), 1)).unwrap();
    let there = store.write(|tx| tx.append_move(other, &nth_move(0, None), 1)).unwrap();
    assert!(matches!(there, Appended::Applied(_)));
}

fn a_move_can_end_the_game_in_the_same_commit(db: &TestDb) {
    let (mut store, game, _, _) = store_with_game(db);
    let mut mate = nth_move(0, Some(9));
    mate.finish = Some(Finish { result: GameResult::WhiteWins, reason: "checkmate".into(), ratings: vec![] });
    store.write(|tx| tx.append_move(game, &mate, 3)).unwrap();
    let g = store.read(|tx| tx.game(game)).unwrap();
    assert_eq!(
        (g.state, g.result, g.finished_at, g.deadline),
        (GameState::Finished, Some(GameResult::WhiteWins), Some(3), None)
    );

    let after = store.write(|tx| tx.append_move(game, &nth_move(1, None), 4)).unwrap_err();
    assert!(matches!(after, Error::GameNotActive { state: GameState::Finished, .. }));
    // Its retry is still recognised.
    assert!(matches!(store.write(|tx| tx.append_move(game, &mate, 5)).unwrap(), Appended::AlreadyApplied(_)));
}

fn a_failed_finish_takes_its_move_back_with_it(db: &TestDb) {
    let (mut store, game, white, _) = store_with_game(db);
    let mut mate = nth_move(0, None);
    mate.finish = Some(Finish {
        result: GameResult::WhiteWins,
        reason: "checkmate".into(),
        ratings: vec![crate::RatingUpdate {
            player: white,
            variant: "chess".into(),
            games_before: 4,
            glicko: crate::Glicko { rating: 1500.0, deviation: 350.0, volatility: 0.06 },
        }],
    });
    let err = store.write(|tx| tx.append_move(game, &mate, 3)).unwrap_err();
    assert!(matches!(err, Error::RatingConflict { .. }));
    assert_eq!(store.read(|tx| tx.ply_count(game)).unwrap(), 0);
}

fn a_takeback_removes_the_last_plies_and_the_offers(db: &TestDb) {
    let (mut store, game, _, _) = store_with_game(db);
    store
        .write(|tx| {
            for ply in 0..4 {
                tx.append_move(game, &nth_move(ply, None), 1)?;
            }
            tx.make_offer(game, Color::Black, Proposal::Takeback { plies: 2 }, 2)?;
            Ok(())
        })
        .unwrap();

    let stale = store.write(|tx| tx.take_back(game, 3, 2, None, 3)).unwrap_err();
    assert!(matches!(stale, Error::PlyConflict { expected: 3, actual: 4, .. }));
    let too_far = store.write(|tx| tx.take_back(game, 4, 5, None, 3)).unwrap_err();
    assert!(matches!(too_far, Error::TakebackTooFar { requested: 5, played: 4, .. }));

    let taken = store.write(|tx| tx.take_back(game, 4, 2, Some(77), 3)).unwrap();
    let plies: Vec<u32> = taken.iter().map(|m| m.ply).collect();
    assert_eq!(plies, [3, 4]);
    let record = store.read(|tx| tx.game_record(game)).unwrap();
    assert_eq!((record.ply(), record.fen()), (2, "fen after 2"));
    assert_eq!(record.game.deadline, Some(77));
    assert!(record.offers.is_empty());

    // The game goes on from ply 2; the taken-back request id is free again.
    let replay = store.write(|tx| tx.append_move(game, &nth_move(2, None), 4)).unwrap();
    assert!(matches!(replay, Appended::Applied(mv) if mv.ply == 3));
}

on_both_backends!(
    moves_append_in_order_and_load_with_the_game,
    a_move_made_for_another_ply_conflicts_and_changes_nothing,
    the_same_request_applied_twice_lands_once,
    request_ids_are_per_game,
    a_move_can_end_the_game_in_the_same_commit,
    a_failed_finish_takes_its_move_back_with_it,
    a_takeback_removes_the_last_plies_and_the_offers,
);
