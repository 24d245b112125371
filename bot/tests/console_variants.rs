//! The console plays a game over days: the scheduler's reminder reaches it, calling the player
//! to move. Whole games in every variant, clocks and reminders are tested in the host
//! (`host/tests/variants.rs`).

mod common;

use common::{Harness, HOUR};

#[tokio::test]
async fn a_correspondence_player_is_reminded_on_the_console() {
    let h = Harness::new().await;
    h.start("chess", "time:3d").await;
    h.advance(49 * HOUR);
    let reminded = h.tick().await;
    assert_eq!(reminded.len(), 1, "{reminded:?}");
    assert!(reminded[0].text.contains("it is your move in game 1 (Chess)"), "{}", reminded[0].text);
    assert_eq!(reminded[0].mentions.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(), ["alice"]);
    assert_eq!(reminded[0].channel.as_deref(), Some("general"));
}
