//! `chimera check`'s refusals that need no network: each problem on a line of its own, the other
//! checks still made, and a non-zero exit status.

use std::process::Output;

fn check(dir: &std::path::Path, args: &[&str], settings: &[(&str, &str)]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("check")
        .args(args)
        .env_clear()
        .envs(settings.iter().copied())
        .current_dir(dir)
        .output()
        .expect("chimera check runs")
}

fn lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect()
}

#[test]
fn no_network_set_up_is_a_problem() {
    let dir = tempfile::tempdir().unwrap();
    let out = check(dir.path(), &[], &[]);
    assert_eq!(out.status.code(), Some(1));
    let lines = lines(&out);
    assert!(lines[0].starts_with("ok       settings:"), "{lines:?}");
    assert!(lines[1].starts_with("ok       database: chimera.db opens at schema version"), "{lines:?}");
    assert_eq!(lines[2], "problem  network: none is set up: set DISCORD_TOKEN, or MATRIX_HOMESERVER and its account");
    assert_eq!(lines.len(), 3);
}

#[test]
fn a_setting_that_does_not_read_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let settings = [("CHIMERA_BOARD_SIZE", "5"), ("DISCORD_TOKEN", "t"), ("DISCORD_PROXY_URL", "http://127.0.0.1:9")];
    let out = check(dir.path(), &["discord"], &settings);
    assert_eq!(out.status.code(), Some(1));
    let lines = lines(&out);
    assert_eq!(lines[0], r#"problem  settings: CHIMERA_BOARD_SIZE="5": needs a width in pixels from 160 to 1600"#);
    // Said once: the network's check goes on without the shared setting, and finds its own.
    assert!(lines[1].starts_with("problem  discord: cannot reach Discord"), "{lines:?}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(!dir.path().join("chimera.db").exists(), "no database is made from unreadable settings");
}

#[test]
fn a_database_that_cannot_be_opened_is_a_problem() {
    let dir = tempfile::tempdir().unwrap();
    let out = check(dir.path(), &["matrix"], &[("CHIMERA_DB", "/nonexistent/dir/chimera.db")]);
    assert_eq!(out.status.code(), Some(1));
    let lines = lines(&out);
    assert!(lines[1].starts_with("problem  database: /nonexistent/dir/chimera.db: "), "{lines:?}");
    assert!(lines[2].starts_with("problem  matrix: "), "a missing account is its own problem: {lines:?}");
    assert!(lines[2].contains("MATRIX_HOMESERVER"), "{lines:?}");
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chimera.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("PRAGMA user_version = 9999;").unwrap();
    drop(conn);
    let out = check(dir.path(), &[], &[("DISCORD_TOKEN", "t"), ("DISCORD_PROXY_URL", "http://127.0.0.1:9")]);
    assert_eq!(out.status.code(), Some(1));
    let lines = lines(&out);
    assert!(lines[1].contains("schema version 9999, newer than"), "{lines:?}");
    assert!(lines[2].starts_with("problem  discord: cannot reach Discord"), "{lines:?}");
}
