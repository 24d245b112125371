use crate::testing::{new_game, on_both_backends, TestDb};
use crate::{
    Error, Finish, Format, GameResult, NewPairing, NewTournament, PairingResult, PlayerId, Store, TournamentState,
};

fn swiss(organiser: PlayerId, server: &str, starts_at: i64) -> NewTournament {
    NewTournament {
        platform: "test".into(),
        server: server.into(),
        channel: "lobby".into(),
        organiser,
        name: "Spring Swiss".into(),
        variant: "werewolf".into(),
        format: Format::Swiss,
        rounds: Some(3),
        time_control: None,
        rated: true,
        starts_at,
        double: false,
    }
}

fn players(store: &mut Store, n: usize) -> Vec<PlayerId> {
    store
        .write(|tx| (0..n).map(|i| Ok(tx.upsert_player("test", &format!("p{i}"), &format!("P{i}"), 0)?.id)).collect())
        .unwrap()
}

fn tournaments_are_listed_by_server_and_due_when_open_and_started(db: &TestDb) {
    let mut store = db.store();
    let p = players(&mut store, 1);
    let (early, late, _other) = store
        .write(|tx| {
            Ok((
                tx.create_tournament(&swiss(p[0], "s1", 100), 1)?,
                tx.create_tournament(&swiss(p[0], "s1", 200), 1)?,
                tx.create_tournament(&swiss(p[0], "s2", 50), 1)?,
            ))
        })
        .unwrap();
    assert_eq!(early.state, TournamentState::Open);
    assert_eq!((early.format, early.rounds, early.variant.as_str()), (Format::Swiss, Some(3), "werewolf"));
    store
        .read(|tx| {
            let listed: Vec<i64> = tx.server_tournaments("test", "s1")?.iter().map(|t| t.id).collect();
            assert_eq!(listed, [late.id, early.id]);
            assert_eq!(tx.due_tournaments(150)?.len(), 2, "early here and the one on s2");
            assert_eq!(tx.tournament(late.id)?, late);
            Ok(())
        })
        .unwrap();
}

fn entrants_join_and_leave_while_open_and_withdraw_while_running(db: &TestDb) {
    let mut store = db.store();
    let p = players(&mut store, 3);
    let t = store.write(|tx| tx.create_tournament(&swiss(p[0], "s", 100), 1)).unwrap().id;
    store
        .write(|tx| {
            tx.join_tournament(t, p[1], 2)?;
            tx.join_tournament(t, p[2], 3)?;
            tx.join_tournament(t, p[0], 4)?;
            Ok(())
        })
        .unwrap();
    let twice = store.write(|tx| tx.join_tournament(t, p[1], 5)).unwrap_err();
    assert!(matches!(twice, Error::AlreadyEntered { .. }), "{twice}");
    store.write(|tx| tx.leave_tournament(t, p[0])).unwrap();
    let gone = store.write(|tx| tx.leave_tournament(t, p[0])).unwrap_err();
    assert!(matches!(gone, Error::NotEntrant { .. }));

    let running = store.write(|tx| tx.set_tournament_state(t, TournamentState::Running, None, 6)).unwrap();
    assert_eq!((running.state, running.rounds), (TournamentState::Running, Some(3)));
    let closed = store.write(|tx| tx.join_tournament(t, p[0], 7)).unwrap_err();
    assert!(
        matches!(closed, Error::TournamentState { state: TournamentState::Running, needed: TournamentState::Open, .. }),
        "{closed}"
    );
    let withdrawn = store.write(|tx| tx.withdraw_entrant(t, p[2], 8)).unwrap();
    assert_eq!(withdrawn.withdrawn_at, Some(8));

    let entrants = store.read(|tx| tx.entrants(t)).unwrap();
    let seen: Vec<(PlayerId, Option<i64>)> = entrants.iter().map(|e| (e.player, e.withdrawn_at)).collect();
    assert_eq!(seen, [(p[1], None), (p[2], Some(8))]);
}

fn rounds_keep_pairings_byes_games_and_results_for_the_standings(db: &TestDb) {
    let mut store = db.store();
    let p = players(&mut store, 5);
    let t = store
        .write(|tx| {
            let t = tx.create_tournament(&swiss(p[0], "s", 100), 1)?.id;
            for &player in &p {
                tx.join_tournament(t, player, 2)?;
            }
            tx.set_tournament_state(t, TournamentState::Running, None, 3)?;
            Ok(t)
        })
        .unwrap();
    let pairings = [
        NewPairing { white: p[0], black: Some(p[1]), result: None },
        NewPairing { white: p[2], black: Some(p[3]), result: Some(PairingResult::WhiteWinsByForfeit) },
        NewPairing { white: p[4], black: None, result: Some(PairingResult::WhiteWins) },
    ];
    let skipped = store.write(|tx| tx.add_round(t, 2, &pairings, 4)).unwrap_err();
    assert!(matches!(skipped, Error::RoundOutOfOrder { expected: 1, number: 2, .. }), "{skipped}");
    let round = store.write(|tx| tx.add_round(t, 1, &pairings, 4)).unwrap();
    assert_eq!(round.pairings.len(), 3);
    let board1 = round.pairings[0].id;
    let bye = &round.pairings[2];
    assert_eq!((bye.board, bye.black, bye.result), (3, None, Some(PairingResult::WhiteWins)));

    let wrong = store.write(|tx| tx.create_pairing_game(board1, &new_game("b1", p[1], p[2]), 5)).unwrap_err();
    assert!(matches!(wrong, Error::PairingMismatch { .. }), "{wrong}");
    // The first game is aborted and replayed; the pairing follows the replay, whose finish
    // records the pairing's result in the same commit.
    let first = store.write(|tx| tx.create_pairing_game(board1, &new_game("b1", p[0], p[1]), 5)).unwrap();
    assert_eq!(first.pairing, Some(board1));
    store.write(|tx| tx.abort_game(first.id, "disconnect", 6)).unwrap();
    let replay = store.write(|tx| tx.create_pairing_game(board1, &new_game("b1", p[0], p[1]), 7)).unwrap();
    let draw = Finish { result: GameResult::Draw, reason: "repetition".into(), ratings: vec![] };
    store.write(|tx| tx.finish_game(replay.id, &draw, 8)).unwrap();

    let paired = store.read(|tx| tx.pairing(board1)).unwrap();
    assert_eq!((paired.game, paired.result), (Some(replay.id), Some(PairingResult::Draw)));

    let corrected = store.write(|tx| tx.set_pairing_result(board1, Some(PairingResult::DoubleForfeit))).unwrap();
    assert_eq!(corrected.result, Some(PairingResult::DoubleForfeit));
    let finished = store.write(|tx| tx.finish_round(round.id, 9)).unwrap();
    assert_eq!(finished.finished_at, Some(9));
    store.write(|tx| tx.add_round(t, 2, &pairings[..1], 10)).unwrap();

    let rounds = store.read(|tx| tx.rounds(t)).unwrap();
    assert_eq!(rounds.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(rounds[0], finished);
    assert_eq!(rounds[1].pairings[0].game, None);
}

fn a_decider_plays_the_pairing_reversed_and_its_result_is_turned_round(db: &TestDb) {
    let mut store = db.store();
    let p = players(&mut store, 2);
    let (t, pairing) = store
        .write(|tx| {
            let t = tx.create_tournament(&NewTournament { double: true, ..swiss(p[0], "s", 100) }, 1)?;
            assert!(t.double);
            for &player in &p {
                tx.join_tournament(t.id, player, 2)?;
            }
            tx.set_start_rating(t.id, p[1], 1612)?;
            tx.set_tournament_state(t.id, TournamentState::Running, None, 3)?;
            let round = tx.add_round(t.id, 1, &[NewPairing { white: p[0], black: Some(p[1]), result: None }], 4)?;
            Ok((t.id, round.pairings[0].id))
        })
        .unwrap();
    let ratings: Vec<Option<i64>> = store.read(|tx| tx.entrants(t)).unwrap().iter().map(|e| e.start_rating).collect();
    assert_eq!(ratings, [None, Some(1612)]);
    let decider = store.write(|tx| tx.create_pairing_game(pairing, &new_game("b1", p[1], p[0]), 5)).unwrap();
    let won = Finish { result: GameResult::WhiteWins, reason: "checkmate".into(), ratings: vec![] };
    store.write(|tx| tx.finish_game(decider.id, &won, 6)).unwrap();
    let paired = store.read(|tx| tx.pairing(pairing)).unwrap();
    assert_eq!(paired.result, Some(PairingResult::BlackWins), "the pairing's black won the decider with White");
}

#[test]
fn text_values_round_trip_and_unknown_text_is_named() {
    for format in Format::ALL {
        assert_eq!(format.as_str().parse::<Format>().unwrap(), *format);
    }
    for result in PairingResult::ALL {
        assert_eq!(result.to_string().parse::<PairingResult>().unwrap(), *result);
    }
    let err = "arena".parse::<Format>().unwrap_err();
    assert_eq!(err.to_string(), "\"arena\" is not a tournament format");
}

on_both_backends!(
    tournaments_are_listed_by_server_and_due_when_open_and_started,
    entrants_join_and_leave_while_open_and_withdraw_while_running,
    rounds_keep_pairings_byes_games_and_results_for_the_standings,
    a_decider_plays_the_pairing_reversed_and_its_result_is_turned_round,
);
