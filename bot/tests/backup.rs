//! `chimera backup` while a bot writes moves: each copy opens, passes SQLite's integrity check,
//! and holds every move committed (acknowledged to a player) before the backup started, as one
//! snapshot: whole moves, in order, none missing.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use data::{NewGame, NewMove, Store};

/// A writer that plays one long game, a move per commit, as the host does; `acked` is the
/// number of moves whose commit has returned.
fn writer(
    db: std::path::PathBuf,
    acked: Arc<AtomicU32>,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<data::Result<()>> {
    std::thread::spawn(move || {
        let mut store = Store::open(db)?;
        let game = store.write(|tx| {
            let white = tx.upsert_player("test", "white", "White", 0)?.id;
            let black = tx.upsert_player("test", "black", "Black", 0)?.id;
            let new = NewGame {
                platform: "test".into(),
                server: None,
                channel: "c".into(),
                variant: "chess".into(),
                white,
                black,
                start_fen: rules::Variant::Chess.start_fen().into(),
                time_control: None,
                time_odds: None,
                deadline: None,
                rated: false,
            };
            tx.create_game(&new, 0)
        })?;
        let mut ply = 0;
        while !stop.load(Ordering::SeqCst) {
            let mv = NewMove {
                expected_ply: ply,
                coord: format!("m{}", ply + 1),
                san: format!("M{}", ply + 1),
                fen_after: format!("after {}", ply + 1),
                time_used_ms: 0,
                request_id: format!("request {}", ply + 1),
                deadline: None,
                finish: None,
            };
            store.write(|tx| tx.append_move(game.id, &mv, i64::from(ply)))?;
            ply += 1;
            acked.store(ply, Ordering::SeqCst);
        }
        Ok(())
    })
}

#[test]
fn a_backup_taken_while_moves_are_written_holds_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chimera.db");
    Store::open(db.clone()).unwrap();
    let (acked, stop) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicBool::new(false)));
    let writing = writer(db.clone(), Arc::clone(&acked), Arc::clone(&stop));
    let mut previous = 0;
    for round in 0..3 {
        // Wait for moves written since the last copy, so each copy is taken mid-stream.
        while acked.load(Ordering::SeqCst) < previous + 20 {
            assert!(!writing.is_finished(), "the writer stopped");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let before = acked.load(Ordering::SeqCst);
        let copy = dir.path().join(format!("copy-{round}.db"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
            .args(["backup", copy.to_str().unwrap()])
            .env_clear()
            .env("CHIMERA_DB", &db)
            .current_dir(dir.path())
            .output()
            .expect("chimera backup runs");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
        assert!(said.contains("integrity check ok"), "{said}");

        let conn = rusqlite::Connection::open_with_flags(&copy, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        let integrity: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
        assert_eq!(integrity, "ok");
        let plies: Vec<u32> = conn
            .prepare("SELECT ply FROM moves ORDER BY ply")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let held = plies.len() as u32;
        assert!(held >= before, "copy {round} holds {held} moves, but {before} were acknowledged before it began");
        assert_eq!(plies, (1..=held).collect::<Vec<_>>(), "whole moves, in order, none missing");
        assert!(said.contains(&format!("{held} moves")), "the summary counts what the copy holds: {said}");
        previous = held;
    }
    stop.store(true, Ordering::SeqCst);
    writing.join().unwrap().expect("the writer never failed while the copies were taken");
    assert!(acked.load(Ordering::SeqCst) > previous, "moves went on being written during the last copy");

    // An existing file is never overwritten.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["backup", dir.path().join("copy-0.db").to_str().unwrap()])
        .env_clear()
        .env("CHIMERA_DB", &db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("exists already"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
