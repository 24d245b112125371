//! Every finished game comes with its replay: the result message carries an animated GIF of
//! every position, and `/gif` makes it again for any finished game.

mod common;

use common::{Chat, CASES, DAY};
use host::{Image, ImageFormat, Reply};

/// The frames of a GIF, counted by decoding it.
fn frames(gif: &[u8]) -> usize {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif).expect("a GIF");
    let mut n = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        n += 1;
    }
    n
}

/// The one replay a reply carries.
fn replay(reply: &Reply) -> &Image {
    let gifs: Vec<&Image> =
        reply.messages.iter().flat_map(|m| &m.images).filter(|i| i.format == ImageFormat::Gif).collect();
    assert_eq!(gifs.len(), 1, "one replay: {reply:?}");
    gifs[0]
}

#[tokio::test]
async fn a_game_won_on_the_board_ends_with_its_replay_in_every_variant() {
    for case in &CASES {
        let h = Chat::new().await;
        h.start(case.variant, "").await;
        let moves: Vec<&str> = case.decisive.iter().map(|m| m.trim_end_matches(" confirm:yes")).collect();
        let (last, before) = case.decisive.split_last().unwrap();
        h.play(before).await;
        let mover = if before.len() % 2 == 0 { "alice" } else { "bob" };
        let end = h.say(&format!("{mover}: /move {last}")).await;
        let gif = replay(&end);
        assert!(gif.bytes.starts_with(b"GIF89a"), "{}", case.variant);
        assert_eq!(frames(&gif.bytes), moves.len() + 1, "{}: one frame per position", case.variant);
        assert_eq!(gif.width, 320, "{}", case.variant);
        assert_eq!(gif.file_name, "game-1.gif");
        assert!(gif.alt.starts_with("Replay of game 1"), "{}", gif.alt);
        // And again on request, the same picture.
        let again = h.say("carol: /gif game:1").await;
        assert_eq!(replay(&again).bytes, gif.bytes, "{}", case.variant);
    }
}

#[tokio::test]
async fn resignation_agreement_and_time_out_come_with_replays() {
    let h = Chat::new().await;
    h.start("werewolf", "").await;
    h.play(&["e4", "e5"]).await;
    let resigned = h.say("bob: /resign confirm:yes").await;
    assert_eq!(frames(&replay(&resigned).bytes), 3);

    h.start("golem", "").await;
    h.play(&["e4"]).await;
    h.ok("alice: /draw offer").await;
    let drawn = h.say("bob: /draw accept").await;
    assert_eq!(frames(&replay(&drawn).bytes), 2);

    h.start("chess", "time:1d").await;
    h.play(&["d4", "d5"]).await;
    h.advance(DAY + 1);
    let ticked = h.tick().await;
    let timed_out = Reply { messages: ticked, quiet: false };
    assert!(timed_out.messages[0].text.contains("ran out of time"), "{timed_out:?}");
    assert_eq!(frames(&replay(&timed_out).bytes), 3);
}

#[tokio::test]
async fn a_replay_is_for_finished_games_that_exist() {
    let h = Chat::new().await;
    h.start("chess", "").await;
    assert_eq!(h.err("alice: /gif game:1").await, "Game 1 is still being played; its replay comes with its result.");
    assert_eq!(h.err("alice: /gif 7").await, "There is no game 7.");
    assert!(h.err("alice: /gif").await.contains("needs a game's number"));
}

#[tokio::test]
async fn a_replay_too_large_to_upload_is_drawn_smaller_and_says_so() {
    let h = Chat::with_settings(|s| s.network.upload_bytes = 12_000).await;
    h.start("chess", "").await;
    let end = h.play(&["f3", "e5", "g4", "Qh4#"]).await;
    assert!(end.contains("(The replay is drawn at "), "{end}");
    assert!(end.contains(" px instead of 320 to stay under the upload limit.)"), "{end}");
    let again = h.say("bob: /gif 1").await;
    let gif = replay(&again);
    assert!(gif.bytes.len() <= 12_000 && gif.width < 320, "{} bytes at {} px", gif.bytes.len(), gif.width);
}
