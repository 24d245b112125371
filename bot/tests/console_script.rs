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

/// `chimera console` with `CHIMERA_WEB_URL` in its environment prints each game message's link
/// to the game's page (`Watch: URL`) under it; a bad address stops it before anything runs,
/// naming the setting.
#[test]
fn the_console_prints_the_watch_link_when_the_pages_have_an_address() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("session.txt");
    std::fs::write(&script, "alice: /challenge @bob variant:chess color:white\nbob: /accept\nalice: /move e4\n")
        .unwrap();
    let run = |url: &str| {
        Command::new(env!("CARGO_BIN_EXE_chimera"))
            .args(["console", "--strict", "--script"])
            .arg(&script)
            .arg("--db")
            .arg(dir.path().join("chimera.db"))
            .arg("--boards")
            .arg(dir.path().join("boards"))
            .env("CHIMERA_WEB_URL", url)
            .env_remove("CHIMERA_WEB_ADDR")
            .output()
            .expect("chimera runs")
    };
    let out = run("https://chess.example.org/");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let key = data::Store::open(dir.path().join("chimera.db")).unwrap().read(|tx| Ok(tx.game(1)?.web_key)).unwrap();
    let watch = format!("    Watch: https://chess.example.org/g/{key}\n");
    // The game's announcement and the board after e4.
    assert_eq!(stdout.matches(&watch).count(), 2, "{stdout}");

    let out = run("chess.example.org");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("CHIMERA_WEB_URL=\"chess.example.org\": needs an absolute http:// or https:// address"),
        "{stderr}"
    );
}
