//! The `chimera console --script` command as a user runs it: the README's session, and
//! `--strict` stopping at the first error.

use std::path::Path;
use std::process::{Command, Output};

/// The session the README shows a new user (kept in step with it by this test).
const SESSION: &str = "\
alice: /challenge @bob variant:chess color:white
bob: /accept
alice: /move e4
bob: /move e5
alice: /move Bc4
bob: /move Nc6
alice: /move Qh5
bob: /move Nf6
alice: /move Qxf7#
";

fn console(dir: &Path, script: &str, strict: bool) -> Output {
    let path = dir.join("session.txt");
    std::fs::write(&path, script).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_chimera"));
    command.arg("console").arg("--script").arg(&path).arg("--db").arg(dir.join("chimera.db"));
    command.arg("--boards").arg(dir.join("boards"));
    if strict {
        command.arg("--strict");
    }
    command.output().expect("chimera runs")
}

#[test]
fn the_readme_session_plays_a_game_to_mate_and_writes_its_boards() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    assert!(readme.contains(SESSION), "the README shows this session");
    let dir = tempfile::tempdir().unwrap();
    let out = console(dir.path(), SESSION, true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("> bob: /accept\n[#general] Game 1 begins: alice (White) against bob (Black)"), "{stdout}");
    assert!(
        stdout.contains("alice (White) played 4. Qxf7#. White wins by checkmate (alice beats bob), 1-0."),
        "{stdout}"
    );
    assert!(stdout.contains("   8 ♜ · ♝ ♛ ♚ ♝ · ♜ \n"), "boards are drawn as text: {stdout}");
    let last = dir.path().join("boards/game-1-ply-7.png");
    assert!(stdout.contains(&format!("picture: {}", last.display())), "{stdout}");
    assert!(std::fs::read(&last).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn strict_scripts_stop_at_the_first_error_and_others_go_on() {
    let script = "alice: /challenge @bob variant:chess\nbob: /move e5\nbob: /accept\n";
    let dir = tempfile::tempdir().unwrap();
    let out = console(dir.path(), script, true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(
        stdout.contains("There is no game in #general.") && stdout.contains("stopping at the first error (--strict)")
    );
    assert!(!stdout.contains("Game 1 begins"), "{stdout}");

    let dir = tempfile::tempdir().unwrap();
    let out = console(dir.path(), script, false);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Game 1 begins"));
}

#[test]
fn a_script_is_not_held_to_the_rate_of_people_typing() {
    // Thirty commands from one person, read in well under the ten seconds in which a person
    // typing may send twenty: a script (a long game replayed from a file) must play through.
    let script = "alice: /help\n".repeat(30);
    let dir = tempfile::tempdir().unwrap();
    let out = console(dir.path(), &script, true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "--strict stops at a refusal: {stdout}");
    assert_eq!(stdout.matches("> alice: /help").count(), 30, "{stdout}");
    assert!(!stdout.contains("faster than Chimera"), "{stdout}");
}
