//! When Chimera itself fails (its database, its network), the user is told that it did and given
//! a reference to quote, never the error's own text: that may name tables, hosts or ids. The
//! log has the error under the same reference.

mod common;

use common::{text, Club};

/// The reference in a reply's "reference abcd1234", if there is one.
fn reference(reply: &str) -> Option<&str> {
    let at = reply.find("(reference ")? + "(reference ".len();
    let id = reply.get(at..at + 8)?;
    (id.chars().all(|c| c.is_ascii_hexdigit()) && reply[at + 8..].starts_with(')')).then_some(id)
}

#[tokio::test]
async fn a_failing_database_is_reported_by_reference_not_by_its_error() {
    let club = Club::open().await;
    club.game("general", "alice", "bob", "chess", "").await;
    // The database loses a table under the running host.
    let db = rusqlite::Connection::open(club.dir.path().join("chimera.db")).unwrap();
    db.execute_batch("ALTER TABLE games RENAME TO games_gone").unwrap();
    drop(db);
    let first = club.say("alice", "general", "/board").await;
    assert!(first.is_error());
    let first = text(&first);
    assert!(first.starts_with("Something went wrong on our side (reference "), "{first}");
    assert!(!first.contains("table") && !first.contains("games"), "{first}");
    let second = text(&club.say("bob", "general", "/move e5").await);
    let (a, b) = (reference(&first).expect("a reference"), reference(&second).expect("a reference"));
    assert_ne!(a, b, "each failure has its own reference");
}
