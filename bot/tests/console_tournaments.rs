//! A tournament through the console: created, joined and, at its start time, cancelled by the
//! scheduler for want of players, announced in the console's channel. Whole tournaments are
//! tested in the host (`host/tests/tournaments.rs`).

mod common;

use common::{Harness, MINUTE};

#[tokio::test]
async fn a_tournament_due_with_too_few_players_is_cancelled_on_the_console() {
    let h = Harness::new().await;
    h.ok("ida: /tournament create name:Lonely variant:werewolf format:round-robin starts:30m").await;
    h.ok("joe: /tournament join").await;
    h.advance(29 * MINUTE);
    assert!(h.tick().await.is_empty());
    h.advance(MINUTE);
    let cancelled = h.tick().await;
    assert_eq!(cancelled.len(), 1, "{cancelled:?}");
    assert_eq!(
        host::typed::plain(&cancelled[0].text),
        "Tournament 1 \"Lonely\" needs at least 2 players to start and has 1. Its start time has come, so it is cancelled."
    );
    assert_eq!(cancelled[0].channel.as_deref(), Some("general"));
    assert!(h.tick().await.is_empty(), "cancelled once");
    assert!(h.ok("joe: /tournament list").await.contains("cancelled"));
}
