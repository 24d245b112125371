//! A player's own settings on the console, as a user types them: shown to them alone, kept
//! between sessions, and the boards drawn for them as they set them.

#[path = "support/session.rs"]
mod session;

use session::run;

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
