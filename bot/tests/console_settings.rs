//! A player's own settings on the console, as a user types them: shown to them alone, kept
//! between sessions, and the boards drawn for them as they set them.

use std::path::Path;
use std::process::Command;

/// Runs `script` on the console against the database `db`; its output.
fn run(dir: &Path, db: &Path, script: &str) -> String {
    let path = dir.join("session.txt");
    std::fs::write(&path, script).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("console")
        .arg("--script")
        .arg(&path)
        .arg("--db")
        .arg(db)
        .arg("--boards")
        .arg(dir.join("boards"))
        .output()
        .expect("chimera runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn settings_are_kept_between_sessions_and_boards_follow_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chimera.db");
    let first = run(
        dir.path(),
        &db,
        "alice: /settings text:on bottom:own theme:blue\nalice: /settings theme:plaid\n\
         alice: /challenge @bob variant:chess color:white\nbob: /accept\nalice: /move e4\nalice: /board\nbob: /board\n",
    );
    assert!(first.contains("Your boards use the blue theme."), "{first}");
    assert!(first.contains("there is no board theme `plaid`"), "{first}");
    // Alice's board comes with the pieces in words; Bob's, with his defaults, does not.
    let (_, alices) = first.split_once("> alice: /board\n").expect("alice's /board");
    let (alices, bobs) = alices.split_once("> bob: /board\n").expect("bob's /board");
    assert!(alices.contains("White: king e1"), "{first}");
    assert!(!bobs.contains("White: king e1"), "{first}");

    let second = run(dir.path(), &db, "alice: /settings\nbob: /settings\n");
    assert!(
        second.contains("theme: blue") && second.contains("bottom: own") && second.contains("text: on"),
        "{second}"
    );
    assert!(second.contains("theme: default (green)"), "bob's defaults: {second}");
    assert!(second.contains("No server settings here"), "{second}");
}
