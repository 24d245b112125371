use crate::testing::{new_game, nth_move, two_players};
use crate::{Appended, AsyncStore, Error};

async fn store_with_games(n: usize) -> (tempfile::TempDir, AsyncStore, Vec<i64>) {
    let dir = tempfile::tempdir().unwrap();
    let store = AsyncStore::open(dir.path().join("async.db")).await.unwrap();
    let games = store
        .write(move |tx| {
            let (white, black) = two_players(tx);
            (0..n).map(|i| Ok(tx.create_game(&new_game(&format!("c{i}"), white, black), 0)?.id)).collect()
        })
        .await
        .unwrap();
    (dir, store, games)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writes_each_get_their_own_outcome_and_all_that_succeed_are_stored() {
    let (_dir, store, games) = store_with_games(40).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_that_panics_panics_its_caller_and_leaves_the_writer_working() {
    let (_dir, store, games) = store_with_games(1).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_write_changes_nothing_and_a_read_sees_every_acknowledged_write() {
    let (_dir, store, games) = store_with_games(2).await;
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
}
