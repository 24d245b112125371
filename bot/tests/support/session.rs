//! The built `chimera console` running a script, as a user would: each call is a process of its
//! own on the same database, so consecutive calls are sessions with a restart between them.

use std::path::Path;
use std::process::Command;

/// Runs `script` (console lines, `alice: /move e4`) on the console against the database `db`,
/// its boards written under `dir`; what it printed. A run that fails fails the test.
pub fn run(dir: &Path, db: &Path, script: &str) -> String {
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
