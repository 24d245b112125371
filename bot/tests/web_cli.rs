//! `chimera web`: serves a game played on the console from the same database, and refuses an
//! address it cannot bind with one clear line.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};

/// A child process killed and reaped when dropped, so that a failing assertion cannot leave the
/// server running (holding the test runner's output open).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

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

#[test]
fn a_game_played_on_the_console_is_served_at_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chimera.db");
    let script = dir.path().join("game.txt");
    std::fs::write(
        &script,
        "alice: /challenge @bob variant:grolman color:white\nbob: /accept\nalice: /move e4\nbob: /move e5\n",
    )
    .unwrap();
    let played = chimera()
        .args(["console", "--strict", "--db", db.to_str().unwrap(), "--script", script.to_str().unwrap()])
        .args(["--boards", dir.path().join("boards").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stdout));
    let key: String =
        rusqlite::Connection::open(&db).unwrap().query_row("SELECT web_key FROM games", [], |row| row.get(0)).unwrap();

    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut server = Killed(
        chimera()
            .arg("web")
            .env("CHIMERA_DB", &db)
            .env("CHIMERA_WEB_ADDR", format!("127.0.0.1:{port}"))
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    // The log shares stdout: the line to wait for is the one that gives the address.
    // Kept open to the end, so that the server never writes its log to a closed pipe.
    let mut out = BufReader::new(server.0.stdout.take().unwrap()).lines();
    let said = out.by_ref().map_while(Result::ok).find(|line| line.starts_with("serving the web pages on "));
    assert_eq!(said, Some(format!("serving the web pages on http://127.0.0.1:{port}")));

    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "GET /g/{key} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).unwrap();
    drop(server);
    drop(out);
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    // A Grolman turn is one move with its chain, as the host writes it.
    for text in ["alice", "bob", "Grolman Chess", "White to move. FEN: "] {
        assert!(page.contains(text), "{text} is missing: {page}");
    }
    assert_eq!(page.matches("class=\"ply").count(), 2, "{page}");
}
