//! Buttons carry the game they were made for, keep working across a restart, are removed once
//! used and refuse once stale; a game asked for in a busy channel gets a thread.

use fakecord::CallbackType;
use serde_json::json;

use crate::harness::{assert_board, button, World};

#[tokio::test]
async fn buttons_work_after_the_bot_restarts() {
    let mut world = World::new().await;
    let variant = world.choice("challenge", "variant", "Golem Chess");
    let args = json!({ "variant": variant, "opponent": world.bob.get().to_string() });
    let challenge = world.slash(world.alice, world.lobby, "challenge", args).await.message;
    let accept = button(&challenge, "/accept");

    world.stop_bot().await;
    world.start_bot().await;

    let accepted = world.press(world.bob, &challenge, "/accept").await.used();
    assert!(accepted.content.contains("Game 1 begins"), "{}", accepted.content);
    assert_board(&accepted);
    assert!(world.fake.click(world.bob, challenge.id, &accept).is_err(), "the used button is gone");

    let asked = world.slash(world.alice, world.lobby, "resign", json!({})).await.message;
    assert!(asked.is_ephemeral(), "resigning asks privately first: {}", asked.content);
    world.stop_bot().await;
    world.start_bot().await;
    let resigned = world.press(world.alice, &asked, "/resign confirm:yes").await.used();
    assert!(resigned.content.contains("alice resigns"), "{}", resigned.content);
}

#[tokio::test]
async fn draw_and_takeback_offers_are_answered_by_buttons() {
    let world = World::new().await;
    world.start_game(world.lobby, "chess").await;
    world.play(world.lobby, &["e4"]).await;
    let offer = world
        .slash(
            world.alice,
            world.lobby,
            "takeback",
            json!({ "action": world.choice("takeback", "action", "ask to take back your last move") }),
        )
        .await
        .message;
    let taken = world.press(world.bob, &offer, "/takeback accept").await.used();
    assert!(taken.content.contains("takeback") || taken.content.contains("takes back"), "{}", taken.content);
    assert_board(&taken);
    world.play(world.lobby, &["d4", "d5"]).await;
    let draw = world
        .slash(world.alice, world.lobby, "draw", json!({ "action": world.choice("draw", "action", "offer a draw") }))
        .await
        .message;
    let mine = world.press(world.alice, &draw, "/draw accept").await;
    assert!(mine.updated.is_none(), "a refused click leaves the buttons");
    assert!(mine.answer.is_ephemeral(), "one cannot accept one's own offer: {}", mine.answer.content);
    let agreed = world.press(world.bob, &draw, "/draw accept").await.used();
    assert!(agreed.content.contains("Draw by agreement"), "{}", agreed.content);
}

#[tokio::test]
async fn a_game_in_a_busy_channel_starts_in_a_thread() {
    let world = World::new().await;
    world.start_game(world.lobby, "chess").await;
    let variant = world.choice("challenge", "variant", "Werewolf Chess");
    let args = json!({ "variant": variant, "opponent": world.alice.get().to_string() });
    let challenge = world.slash(world.carol, world.lobby, "challenge", args).await.message;
    let answer = world.press(world.alice, &challenge, "/accept").await.used();
    let threads = world.fake.threads_of(world.lobby);
    assert_eq!(threads.len(), 1, "one thread for the second game");
    let thread = &threads[0];
    assert!(!thread.private, "anyone may watch");
    assert!(
        answer.content.contains(&format!("<#{}>", thread.id.get())),
        "the answer links the thread: {}",
        answer.content
    );
    let opening = world.fake.wait_message(thread.id, |m| !m.attachments.is_empty()).await.unwrap();
    assert_board(&opening);
    for player in [world.carol, world.alice] {
        assert!(
            opening.content.contains(&format!("<@{}>", player.get())),
            "both players are pinged: {}",
            opening.content
        );
    }
    // The thread is the new game's channel; the lobby keeps its own game.
    let white = if opening.content.contains("carol (White)") { world.carol } else { world.alice };
    let moved = world.slash(white, thread.id, "move", json!({ "move": "e2e4" })).await.message;
    assert!(!moved.is_ephemeral(), "{}", moved.content);
    let lobby = world.slash(world.alice, world.lobby, "move", json!({ "move": "e4" })).await.message;
    assert!(!lobby.is_ephemeral(), "{}", lobby.content);
}

#[tokio::test]
async fn a_slow_answer_is_deferred_then_filled_in() {
    let world = World::with(&[("CHIMERA_DEFER_MS", "0")]).await;
    let handle = world.fake.slash(world.alice, world.lobby, "rules", json!({})).unwrap();
    let answer = handle.response().await.unwrap();
    assert_eq!(answer.callback, CallbackType::DeferredChannelMessageWithSource);
    assert!(!answer.message.content.is_empty(), "the placeholder was replaced");
}

#[tokio::test]
async fn an_error_after_a_deferral_stays_private() {
    let world = World::with(&[("CHIMERA_DEFER_MS", "0")]).await;
    world.start_game(world.lobby, "chess").await;
    let handle = world.fake.slash(world.alice, world.lobby, "move", json!({ "move": "e5" })).unwrap();
    let (callback, _) = handle.callback().await.unwrap();
    assert_eq!(callback, CallbackType::DeferredChannelMessageWithSource);
    let error = &handle.followups(1).await.unwrap()[0];
    assert!(error.is_ephemeral() && error.content.contains("e5"), "{}", error.content);
    // The placeholder is removed just after the private answer: give it a moment.
    let mut placeholder_gone = false;
    for _ in 0..100 {
        let public = world.fake.messages_in(world.lobby);
        placeholder_gone = public.iter().all(|m| m.is_ephemeral() || m.interaction != Some(handle.id()));
        if placeholder_gone {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(placeholder_gone, "no public trace of the error is left");
}

#[tokio::test]
async fn a_slow_click_is_acknowledged_then_its_buttons_go() {
    let world = World::with(&[("CHIMERA_DEFER_MS", "0")]).await;
    world.start_game(world.lobby, "chess").await;
    world.play(world.lobby, &["e4"]).await;
    let action = world.choice("draw", "action", "offer a draw");
    let offer = world.slash(world.alice, world.lobby, "draw", json!({ "action": action })).await.message;
    // A refused click: acknowledged, refused privately, and the buttons stay for bob.
    let refused = world.fake.click(world.alice, offer.id, &button(&offer, "/draw accept")).unwrap();
    assert_eq!(refused.callback().await.unwrap().0, CallbackType::DeferredUpdateMessage);
    let why = &refused.followups(1).await.unwrap()[0];
    assert!(why.is_ephemeral(), "{}", why.content);
    let still = world.fake.messages_in(world.lobby).into_iter().find(|m| m.id == offer.id).unwrap();
    assert_eq!(still.components().len(), 2, "the offer keeps its buttons");
    // bob's click runs: the buttons go, and the answer follows.
    let agreed = world.press(world.bob, &offer, "/draw accept").await.used();
    assert!(agreed.content.contains("Draw by agreement"), "{}", agreed.content);
}
