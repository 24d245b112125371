//! Playing Chimera on the console, as a user runs it: `/play`, or a challenge to `@chimera`,
//! and Chimera's answer printed before the next line of the script.

use std::process::Command;

fn run(script: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.txt");
    std::fs::write(&path, script).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("console")
        .arg("--script")
        .arg(&path)
        .arg("--db")
        .arg(dir.path().join("chimera.db"))
        .arg("--boards")
        .arg(dir.path().join("boards"))
        .arg("--strict")
        .output()
        .expect("chimera runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn chimera_answers_each_move_before_the_next_line() {
    let stdout = run("alice: /play variant:chess level:1 color:white\nalice: /move e4\nalice: /move d4\n");
    assert!(stdout.contains("Game 1 begins: alice (White) against Chimera (level 1) (Black)"), "{stdout}");
    let first = stdout.find("Chimera (level 1) (Black) played 1...").expect("Chimera answers 1. e4");
    let second = stdout.find("> alice: /move d4").expect("the script goes on");
    assert!(first < second, "the answer comes before the next line: {stdout}");
    assert!(stdout.contains("Chimera (level 1) (Black) played 2..."), "{stdout}");
}

#[test]
fn challenging_chimera_by_name_plays_against_it() {
    let stdout = run("alice: /challenge @chimera variant:werewolf color:black\n");
    assert!(stdout.contains("Chimera (level 4) (White) against alice (Black)"), "{stdout}");
    assert!(stdout.contains("Chimera (level 4) (White) played 1."), "Chimera opens: {stdout}");
}
