//! A wrong line on the console gets a specific private error: the console's own (a line
//! without a speaker) and the host's, passed through. Every wrong command is tested in the
//! host (`host/tests/errors.rs`).

mod common;

use common::Harness;

#[tokio::test]
async fn malformed_lines_and_unknown_commands_say_what_would_work() {
    let h = Harness::new().await;
    assert!(h.err("just words").await.contains("who says this?"));
    assert_eq!(h.err("alice: move e4").await, "commands start with `/`, like `/help`");
    assert_eq!(h.err("alice: /castle").await, "unknown command `/castle`; `/help` lists them");
}
