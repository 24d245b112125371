//! A fresh PostgreSQL schema for each test, on the server the tests are given.
//!
//! The server is `CHIMERA_TEST_POSTGRES_URL` (default [`DEFAULT_URL`]: the machines this project
//! runs on have PostgreSQL on 127.0.0.1:5432 with trust authentication and a database `test`).
//! Where none answers, the PostgreSQL tests are skipped, and say so once on the terminal; under
//! `CI=true` they fail instead, so CI cannot pass without having run them.
//!
//! Shared by the crate's unit tests, its integration tests and its benchmark (each includes
//! this file), so it uses nothing but `std` and `postgres`.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

pub const DEFAULT_URL: &str = "postgres://postgres@127.0.0.1:5432/test";

/// The server the tests use.
pub fn server_url() -> String {
    std::env::var("CHIMERA_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_URL.to_owned())
}

/// A schema that exists while this value does; `url` opens the store in it.
pub struct PgSchema {
    pub name: String,
    pub url: String,
    server: String,
}

impl PgSchema {
    /// A new, empty schema; `None` when no PostgreSQL answers (outside CI).
    pub fn fresh() -> Option<PgSchema> {
        let server = server_url();
        if let Err(why) = reachable(&server) {
            if std::env::var("CI").is_ok_and(|ci| ci == "true") {
                panic!("no PostgreSQL answers at {server} ({why}), and CI=true requires the PostgreSQL tests to run");
            }
            static SAID: OnceLock<()> = OnceLock::new();
            SAID.get_or_init(|| {
                // Straight to the terminal: libtest captures `eprintln!` of passing tests.
                let _ = writeln!(
                    std::io::stderr(),
                    "PostgreSQL tests skipped: no PostgreSQL answers at {server} ({why}); set CHIMERA_TEST_POSTGRES_URL"
                );
            });
            return None;
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "chimera_test_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos())
        );
        let mut client = connect(&server).expect("the server answered a moment ago");
        client.batch_execute(&format!("CREATE SCHEMA {name}")).expect("a test schema is created");
        let separator = if server.contains('?') { '&' } else { '?' };
        let url = format!("{server}{separator}options=-csearch_path%3D{name}");
        Some(PgSchema { name, url, server })
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        if let Ok(mut client) = connect(&self.server) {
            let _ = client.batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name));
        }
    }
}

fn connect(url: &str) -> Result<postgres::Client, postgres::Error> {
    let mut config: postgres::Config = url.parse()?;
    config.connect_timeout(Duration::from_secs(3));
    config.connect(postgres::NoTls)
}

/// Whether the server answers, asked once per process.
fn reachable(url: &str) -> Result<(), String> {
    static ANSWER: OnceLock<Result<(), String>> = OnceLock::new();
    ANSWER.get_or_init(|| connect(url).map(drop).map_err(|e| e.to_string())).clone()
}
