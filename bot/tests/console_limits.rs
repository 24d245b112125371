//! The host's limits against abuse reach the console: its settings are the host's, and a
//! refusal is shown as the host says it. The limits themselves are tested in the host
//! (`host/tests/limits.rs`).

mod common;

use common::Harness;

#[tokio::test]
async fn the_command_limit_holds_on_the_console() {
    let h = Harness::with_settings(|s| s.limits.commands = 1).await;
    h.ok("alice: /help").await;
    assert!(h.err("alice: /help").await.starts_with("You are sending commands faster than Chimera takes them"));
}
