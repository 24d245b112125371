//! Puzzles on the console: a game played there, scanned by the host's puzzle job (which a
//! script leaves to the chat bots, so the test runs one scan itself), then `/puzzle` and the
//! moves that answer it, as a user types them.

#[path = "support/session.rs"]
mod session;

use session::run;

#[tokio::test]
async fn a_puzzle_from_a_console_game_is_served_and_a_wrong_answer_shows_the_solution() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chimera.db");
    let game = "alice: /challenge @bob variant:chess color:white\nbob: /accept\n\
                alice: /move e4\nbob: /move e5\nalice: /move Qh5\nbob: /move Nc6\n\
                alice: /move Bc4\nbob: /move Nf6\nalice: /move Qxf7#\n";
    let played = run(dir.path(), &db, game);
    assert!(played.contains("White wins by checkmate"), "{played}");

    let host = host::Host::open(host::Settings::new(db.clone(), "console")).await.unwrap();
    let scanned = host.scan_next_game().await.unwrap().expect("the game waits to be scanned");
    assert!(scanned.puzzles >= 1, "{scanned:?}");
    drop(host);

    let session =
        run(dir.path(), &db, "carol: /puzzle chess\ncarol: /move Nf3\ncarol: /move Qxf7#\ncarol: /puzzle chess\n");
    assert!(session.contains("White to move: find the winning move."), "{session}");
    // The board is drawn as text, from the solver's side.
    assert!(session.contains("Wrong: Nf3 is not it"), "{session}");
    assert!(session.contains("The solution: 4. Qxf7#."), "{session}");
    assert!(session.contains("Your Chess puzzle rating: 1500? →"), "{session}");
    // The puzzle is over: the next move is no answer, and it is not served again.
    assert!(session.contains("There is no game in #general"), "{session}");
    assert!(session.contains("There is no Chess puzzle here for you yet"), "{session}");
}

#[test]
fn the_console_has_no_daily_puzzle_and_help_says_how_a_server_sets_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chimera.db");
    let session = run(
        dir.path(),
        &db,
        "admin: /settings daily-puzzle:#general time:18:00\nadmin: /settings daily-puzzle:#general\nanyone: /help\n",
    );
    // The console is no server: the setting is refused, saying why, and nothing is kept.
    assert!(session.contains("the console and direct messages have only your own settings"), "{session}");
    let store = data::Store::open(&db).unwrap();
    let year_2100 = 4_102_444_800_000;
    assert_eq!(store.read(|tx| tx.daily_puzzles_due("console", year_2100)).unwrap(), vec![]);
    // A setting that does not read is answered in the reader's words.
    assert!(session.contains("`/settings` needs the time of the daily puzzle, in UTC"), "{session}");
    assert!(session.contains("[web:on|off] [daily-puzzle:#channel time:HH:MM|daily-puzzle:off]"), "{session}");
}
