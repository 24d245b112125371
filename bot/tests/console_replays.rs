//! A finished game's replay reaches the console, with a result given in reply or announced
//! by the scheduler. Replays in every variant, their frames, `/gif` and the upload limit are
//! tested in the host (`host/tests/replays.rs`).

mod common;

use common::{Harness, DAY};
use host::{ImageFormat, Message};

/// The GIFs among `messages`.
fn gifs(messages: &[Message]) -> usize {
    let gifs = messages.iter().flat_map(|m| &m.images).filter(|i| i.format == ImageFormat::Gif);
    gifs.filter(|i| i.bytes.starts_with(b"GIF89a")).count()
}

#[tokio::test]
async fn a_resignation_and_a_time_out_come_with_their_replays() {
    let h = Harness::new().await;
    h.start("werewolf", "").await;
    h.play(&["e4", "e5"]).await;
    let resigned = h.say("bob: /resign confirm:yes").await;
    assert_eq!(gifs(&resigned.messages), 1, "{resigned:?}");

    h.start("chess", "time:1d").await;
    h.play(&["d4", "d5"]).await;
    h.advance(DAY + 1);
    let timed_out = h.tick().await;
    assert!(timed_out[0].text.contains("ran out of time"), "{timed_out:?}");
    assert_eq!(gifs(&timed_out), 1, "{timed_out:?}");
}
