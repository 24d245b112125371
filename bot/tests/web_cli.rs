//! `chimera web` refuses an address it cannot bind with one clear line.

use std::net::TcpListener;
use std::process::Command;

fn chimera() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chimera"));
    command.env_clear();
    command
}

#[test]
fn an_address_in_use_is_an_error_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let out = chimera()
        .arg("web")
        .env("CHIMERA_DB", dir.path().join("chimera.db"))
        .env("CHIMERA_WEB_ADDR", addr.to_string())
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&format!("CHIMERA_WEB_ADDR={addr}: cannot listen there")), "{said}");
}
