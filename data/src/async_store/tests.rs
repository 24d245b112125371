use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use crate::testing::{new_game, nth_move, on_both_backends_async, two_players, TestDb};
use crate::{Appended, AsyncStore, Error};

async fn store_with_games(db: &TestDb, n: usize) -> (AsyncStore, Vec<i64>) {
    let store = AsyncStore::open(db.location()).await.unwrap();
    let games = store
        .write(move |tx| {
            let (white, black) = two_players(tx);
            (0..n).map(|i| Ok(tx.create_game(&new_game(&format!("c{i}"), white, black), 0)?.id)).collect()
        })
        .await
        .unwrap();
    (store, games)
}

async fn concurrent_writes_each_get_their_own_outcome_and_all_that_succeed_are_stored(db: &TestDb) {
    let (store, games) = store_with_games(db, 40).await;
    // For every game at once: the right move, a stale rival, and a retry of the right one.
    // However the writer batches them, each is judged alone.
    let mut tasks = Vec::new();
    for &game in &games {
        for (ply, request) in [(0, "request 1"), (5, "stale"), (0, "request 1")] {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let mut mv = nth_move(ply, None);
                mv.request_id = request.into();
                store.write(move |tx| tx.append_move(game, &mv, 1)).await
            }));
        }
    }
    let mut applied = 0;
    let mut repeated = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(Appended::Applied(_)) => applied += 1,
            Ok(Appended::AlreadyApplied(_)) => repeated += 1,
            Err(Error::PlyConflict { expected: 5, actual: 0 | 1, .. }) => {}
            Err(other) => panic!("unexpected {other}"),
        }
    }
    assert_eq!((applied, repeated), (games.len(), games.len()));
    for &game in &games {
        let moves = store.read(move |tx| tx.moves(game)).await.unwrap();
        assert_eq!(moves.len(), 1);
    }
}

async fn a_write_that_panics_panics_its_caller_and_leaves_the_writer_working(db: &TestDb) {
    let (store, games) = store_with_games(db, 1).await;
    let game = games[0];
    let panicking = store.clone();
    let crashed = tokio::spawn(async move {
        panicking
            .write(move |tx| {
                tx.append_move(game, &nth_move(0, None), 1)?;
                panic!("a bug in the caller");
                #[allow(unreachable_code)]
                Ok(())
            })
            .await
    })
    .await;
    assert!(crashed.unwrap_err().is_panic());
    // Its move was rolled back with its savepoint; the writer takes the next write.
    assert_eq!(store.read(move |tx| tx.ply_count(game)).await.unwrap(), 0);
    store.write(move |tx| tx.append_move(game, &nth_move(0, None), 2)).await.unwrap();
    assert_eq!(store.read(move |tx| tx.ply_count(game)).await.unwrap(), 1);
}

async fn a_failing_write_changes_nothing_and_a_read_sees_every_acknowledged_write(db: &TestDb) {
    let (store, games) = store_with_games(db, 2).await;
    let (a, b) = (games[0], games[1]);
    let err = store
        .write(move |tx| {
            tx.append_move(a, &nth_move(0, None), 1)?;
            tx.append_move(b, &nth_move(3, None), 1)
        })
        .await
        .unwrap_err();
    assert!(matches!(err, Error::PlyConflict { .. }));
    assert_eq!(store.read(move |tx| tx.ply_count(a)).await.unwrap(), 0);

    for ply in 0..10 {
        store.write(move |tx| tx.append_move(b, &nth_move(ply, None), 1)).await.unwrap();
        assert_eq!(store.read(move |tx| tx.ply_count(b)).await.unwrap(), ply + 1);
    }
}

#[tokio::test]
async fn a_database_that_cannot_open_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let result = AsyncStore::open(dir.path().join("missing/dir/x.db")).await;
    assert!(matches!(result, Err(Error::Sqlite(_))));
    // Nothing listens on port 1.
    let result =
        AsyncStore::open(crate::Location::parse("postgres://postgres@127.0.0.1:1/test?connect_timeout=2").unwrap())
            .await;
    assert!(matches!(&result, Err(Error::Postgres(e)) if e.to_string().contains("connect")), "{:?}", result.err());
}

on_both_backends_async!(
    concurrent_writes_each_get_their_own_outcome_and_all_that_succeed_are_stored,
    a_write_that_panics_panics_its_caller_and_leaves_the_writer_working,
    a_failing_write_changes_nothing_and_a_read_sees_every_acknowledged_write,
);

/// Two stores on one database: as two processes of one deployment share it.
async fn two_processes(db: &TestDb) -> (AsyncStore, AsyncStore) {
    (AsyncStore::open(db.location()).await.unwrap(), AsyncStore::open(db.location()).await.unwrap())
}

/// Runs `f` on both stores at once, many times; the outcomes of each round, in store order.
async fn race<R, F, Fut>(stores: &(AsyncStore, AsyncStore), rounds: usize, f: F) -> Vec<(R, R)>
where
    F: Fn(AsyncStore, usize, usize) -> Fut,
    Fut: std::future::Future<Output = R> + Send + 'static,
    R: Send + 'static,
{
    let mut outcomes = Vec::new();
    for round in 0..rounds {
        let a = tokio::spawn(f(stores.0.clone(), round, 0));
        let b = tokio::spawn(f(stores.1.clone(), round, 1));
        outcomes.push((a.await.unwrap(), b.await.unwrap()));
    }
    outcomes
}

async fn racing_rival_moves_one_lands_the_other_is_stale(db: &TestDb) {
    let stores = two_processes(db).await;
    let (_, games) = store_with_games(db, 1).await;
    let game = games[0];
    for ply in (0..50u32).step_by(2) {
        // Both answer the position at `ply` with their own requests.
        let rivals = race(&stores, 1, |store, _, who| async move {
            let mut mv = nth_move(ply, None);
            mv.request_id = format!("ply {ply} by {who}");
            store.write(move |tx| tx.append_move(game, &mv, 1)).await
        })
        .await;
        let (a, b) = &rivals[0];
        let applied = [a, b].iter().filter(|r| matches!(r, Ok(Appended::Applied(_)))).count();
        let stale = [a, b].iter().filter(|r| matches!(r, Err(Error::PlyConflict { .. }))).count();
        assert_eq!((applied, stale), (1, 1), "ply {ply}: {a:?} / {b:?}");

        // Both send the same request (one interaction retried through two processes).
        let retried = race(&stores, 1, |store, _, _| async move {
            let mut mv = nth_move(ply + 1, None);
            mv.request_id = format!("retry {ply}");
            store.write(move |tx| tx.append_move(game, &mv, 1)).await
        })
        .await;
        let (a, b) = &retried[0];
        let kinds = [a, b].map(|r| match r {
            Ok(Appended::Applied(_)) => "applied",
            Ok(Appended::AlreadyApplied(_)) => "repeated",
            Err(_) => "error",
        });
        assert!(kinds == ["applied", "repeated"] || kinds == ["repeated", "applied"], "ply {ply}: {a:?} / {b:?}");
    }
    let record = stores.1.read(move |tx| tx.game_record(game)).await.unwrap();
    assert_eq!(record.ply(), 50);
}

async fn racing_games_for_one_channel_start_one(db: &TestDb) {
    let stores = two_processes(db).await;
    let (players, _) = store_with_games(db, 0).await;
    let (white, black) = players.write(|tx| Ok(two_players(tx))).await.unwrap();
    let outcomes = race(&stores, 20, |store, round, _| async move {
        store.write(move |tx| tx.create_game(&new_game(&format!("busy {round}"), white, black), 1)).await
    })
    .await;
    for (round, (a, b)) in outcomes.iter().enumerate() {
        let started = [a, b].iter().filter(|r| r.is_ok()).count();
        let busy = [a, b].iter().filter(|r| matches!(r, Err(Error::ChannelBusy { .. }))).count();
        assert_eq!((started, busy), (1, 1), "round {round}: {a:?} / {b:?}");
    }
}

async fn racing_rated_finishes_of_one_player_apply_one_update_per_rating_state(db: &TestDb) {
    let stores = two_processes(db).await;
    let (_, games) = store_with_games(db, 2).await;
    let (white, black) = stores.0.write(|tx| Ok(two_players(tx))).await.unwrap();
    // Both games rate the same two players from the same (empty) state: one must be refused.
    let outcomes = race(&stores, 1, |store, _, who| {
        let game = games[who];
        async move {
            let finish = crate::Finish {
                result: crate::GameResult::Draw,
                reason: "agreement".into(),
                ratings: [white, black]
                    .map(|player| crate::RatingUpdate {
                        player,
                        variant: "chess".into(),
                        games_before: 0,
                        glicko: crate::Glicko { rating: 1500.0, deviation: 300.0, volatility: 0.06 },
                    })
                    .to_vec(),
            };
            store.write(move |tx| tx.finish_game(game, &finish, 5)).await
        }
    })
    .await;
    let (a, b) = &outcomes[0];
    let finished = [a, b].iter().filter(|r| r.is_ok()).count();
    let refused = [a, b].iter().filter(|r| matches!(r, Err(Error::RatingConflict { .. }))).count();
    assert_eq!((finished, refused), (1, 1), "{a:?} / {b:?}");
    let rating = stores.1.read(move |tx| tx.rating(white, "chess")).await.unwrap().unwrap();
    assert_eq!(rating.games, 1, "one update, not two");
    let active = stores.1.read(move |tx| tx.active_games_of(white)).await.unwrap();
    assert_eq!(active.len(), 1, "the refused finish left its game on, ratings and all");
}

async fn two_schedulers_claim_each_overdue_game_and_expired_challenge_once(db: &TestDb) {
    let stores = two_processes(db).await;
    let (_, games) = store_with_games(db, 120).await;
    let challenges: Vec<i64> = stores
        .0
        .write(|tx| {
            let (white, _) = two_players(tx);
            (0..60)
                .map(|i| {
                    let new = crate::NewChallenge {
                        platform: "test".into(),
                        server: None,
                        channel: format!("c{i}"),
                        challenger: white,
                        challenged: None,
                        variant: "chess".into(),
                        color: crate::ColorChoice::Random,
                        time_control: None,
                        rated: false,
                        expires_at: 500,
                    };
                    Ok(tx.create_challenge(&new, 0)?.id)
                })
                .collect()
        })
        .await
        .unwrap();
    // Every game is due at 600_000 (see `new_game`). Each scheduler claims a few at a time in
    // a loop until nothing is left, ending what it claimed in the same transaction.
    let schedulers = [stores.0.clone(), stores.1.clone()].map(|store| {
        tokio::spawn(async move {
            let (mut ended, mut expired) = (Vec::new(), Vec::new());
            loop {
                let (e, x) = store
                    .write(|tx| {
                        let mut e = Vec::new();
                        for game in tx.claim_overdue_games("test", 600_000, 7)? {
                            e.push(tx.abort_game(game.id, "time", 600_000)?.id);
                        }
                        let x: Vec<i64> =
                            tx.claim_expired_challenges("test", 600_000, 5)?.into_iter().map(|c| c.id).collect();
                        Ok((e, x))
                    })
                    .await
                    .unwrap();
                if e.is_empty() && x.is_empty() {
                    break;
                }
                ended.extend(e);
                expired.extend(x);
            }
            (ended, expired)
        })
    });
    let mut ended = Vec::new();
    let mut expired = Vec::new();
    for scheduler in schedulers {
        let (e, x) = scheduler.await.unwrap();
        ended.extend(e);
        expired.extend(x);
    }
    ended.sort();
    expired.sort();
    assert_eq!(ended, games, "every overdue game ended by exactly one scheduler");
    assert_eq!(expired, challenges, "every expired challenge expired by exactly one scheduler");
}

async fn a_lease_has_one_holder_until_it_expires_and_a_reminder_is_claimed_once(db: &TestDb) {
    let stores = two_processes(db).await;
    let (_, games) = store_with_games(db, 1).await;
    let game = games[0];
    let taken = race(&stores, 10, |store, round, who| async move {
        let name = format!("tournament:{round}");
        store.write(move |tx| tx.acquire_lease(&name, &format!("process {who}"), 100, 200)).await.unwrap()
    })
    .await;
    for (round, (a, b)) in taken.iter().enumerate() {
        assert_eq!(a.is_some() as u8 + b.is_some() as u8, 1, "round {round}: {a:?} / {b:?}");
    }
    // Process `holder` has tournament:0 until 200; the other may take it only from then on.
    let holder = if taken[0].0.is_some() { "process 0" } else { "process 1" };
    let other = if holder == "process 0" { "process 1" } else { "process 0" };
    let acquire = |store: &AsyncStore, who: &'static str, now: i64, until: i64| {
        let store = store.clone();
        async move { store.write(move |tx| tx.acquire_lease("tournament:0", who, now, until)).await.unwrap() }
    };
    assert_eq!(acquire(&stores.0, other, 199, 299).await, None, "held until it expires");
    let renewed = acquire(&stores.1, holder, 150, 300).await;
    assert_eq!(renewed.map(|l| l.expires_at), Some(300), "the holder renews");
    assert_eq!(acquire(&stores.0, other, 299, 399).await, None, "held until the renewal expires");
    let taken_over = acquire(&stores.0, other, 300, 400).await.expect("expired: taken over");
    assert_eq!(taken_over.holder, other);
    let released = stores.0.write(move |tx| tx.release_lease("tournament:0", holder)).await.unwrap();
    assert!(!released, "the old holder cannot give up a lease it lost");
    assert!(stores.1.write(move |tx| tx.release_lease("tournament:0", other)).await.unwrap());
    assert_eq!(stores.1.read(|tx| tx.lease("tournament:0")).await.unwrap(), None);

    let reminded = race(&stores, 5, |store, round, _| async move {
        let deadline = 1_000 * (round as i64 + 1);
        store.write(move |tx| tx.claim_reminder(game, deadline)).await.unwrap()
    })
    .await;
    for (round, (a, b)) in reminded.iter().enumerate() {
        assert!(a ^ b, "round {round}: one reminder per deadline ({a} / {b})");
    }
    assert!(!stores.0.write(move |tx| tx.claim_reminder(game, 5_000)).await.unwrap(), "already reminded");
}

async fn racing_tournament_steps_recheck_inside_their_transaction(db: &TestDb) {
    let stores = two_processes(db).await;
    let (t, pairing, white, black) = stores
        .0
        .write(|tx| {
            let (white, black) = two_players(tx);
            let new = crate::NewTournament {
                platform: "test".into(),
                server: "s".into(),
                channel: "lobby".into(),
                organiser: white,
                name: "Race".into(),
                variant: "chess".into(),
                format: crate::Format::RoundRobin,
                rounds: None,
                time_control: None,
                rated: false,
                starts_at: 0,
                double: false,
            };
            let t = tx.create_tournament(&new, 0)?.id;
            tx.join_tournament(t, white, 0)?;
            tx.join_tournament(t, black, 0)?;
            tx.set_tournament_state(t, crate::TournamentState::Running, Some(1), 0)?;
            let round = tx.add_round(t, 1, &[crate::NewPairing { white, black: Some(black), result: None }], 0)?;
            Ok((t, round.pairings[0].id, white, black))
        })
        .await
        .unwrap();
    // Both processes pair round 2 at once: one does.
    let paired =
        race(&stores, 1, |store, _, _| async move { store.write(move |tx| tx.add_round(t, 2, &[], 1)).await }).await;
    let (a, b) = &paired[0];
    assert_eq!(a.is_ok() as u8 + b.is_ok() as u8, 1, "{a:?} / {b:?}");
    assert!([a, b].iter().any(|r| matches!(r, Err(Error::RoundOutOfOrder { .. }))));
    // Both open the pairing's game, each in a place of its own, checking inside the
    // transaction (as the host does) that the pairing has none yet: one game.
    let opened = race(&stores, 1, |store, _, who| async move {
        store
            .write(move |tx| {
                if tx.pairing(pairing)?.game.is_some() {
                    return Ok(None);
                }
                let game = tx.create_pairing_game(pairing, &new_game(&format!("thread {who}"), white, black), 2)?;
                Ok(Some(game.id))
            })
            .await
            .unwrap()
    })
    .await;
    let (a, b) = opened[0];
    assert_eq!(a.is_some() as u8 + b.is_some() as u8, 1, "{a:?} / {b:?}");
    let pairing = stores.1.read(move |tx| tx.pairing(pairing)).await.unwrap();
    assert_eq!(pairing.game, a.or(b));
}

/// Writers on one hot row (each reads the game's ply and appends the next move, as a move and
/// the clock do), many at once in two processes: PostgreSQL aborts most of them for conflicts
/// (SQLSTATE 40001), but no caller ever sees one, and no write's closure runs more often than
/// its free attempts and the one it then runs alone.
async fn writers_on_one_hot_row_never_see_a_conflict_and_run_a_bounded_number_of_times(db: &TestDb) {
    const WRITERS: usize = 8;
    const ROUNDS: usize = 20;
    let stores = two_processes(db).await;
    let (_, games) = store_with_games(db, 1).await;
    let game = games[0];
    let mut tasks = Vec::new();
    for writer in 0..WRITERS {
        let store = if writer % 2 == 0 { stores.0.clone() } else { stores.1.clone() };
        tasks.push(tokio::spawn(async move {
            let mut most = 0;
            for _ in 0..ROUNDS {
                let runs = Arc::new(AtomicU32::new(0));
                let counted = runs.clone();
                store
                    .write(move |tx| {
                        counted.fetch_add(1, Ordering::SeqCst);
                        let ply = tx.ply_count(game)?;
                        tx.append_move(game, &nth_move(ply, None), 1).map(|_| ())
                    })
                    .await
                    .unwrap_or_else(|e| panic!("a write failed: {e}"));
                most = most.max(runs.load(Ordering::SeqCst));
            }
            most
        }));
    }
    let mut most = 0;
    for task in tasks {
        most = most.max(task.await.unwrap());
    }
    let plies = stores.0.read(move |tx| tx.ply_count(game)).await.unwrap();
    assert_eq!(plies as usize, WRITERS * ROUNDS, "every write landed once");
    let bound = crate::pg::FREE_ATTEMPTS + 1;
    assert!(most <= bound, "a write ran {most} times (at most {bound})");
}

on_both_backends_async!(
    writers_on_one_hot_row_never_see_a_conflict_and_run_a_bounded_number_of_times,
    racing_rival_moves_one_lands_the_other_is_stale,
    racing_games_for_one_channel_start_one,
    racing_rated_finishes_of_one_player_apply_one_update_per_rating_state,
    two_schedulers_claim_each_overdue_game_and_expired_challenge_once,
    a_lease_has_one_holder_until_it_expires_and_a_reminder_is_claimed_once,
    racing_tournament_steps_recheck_inside_their_transaction,
);
