//! Kicked from a room by one of its members: what lived there is stopped (the running game
//! aborted, with no result and no rating change, the room's tournament paused) rather than left
//! for clocks to run out and announcements to be refused.

use std::time::Duration;

use crate::games::notice;
use crate::harness::{table, Bot, Person};

#[tokio::test]
async fn a_bot_kicked_from_a_room_stops_its_game_and_pauses_its_tournament() {
    let bot = Bot::start(&[]).await;
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    let room = table(&bot, &alice, &[&bob], false).await;
    alice.say(&room, "!tournament create name:Cup variant:chess format:swiss").await;
    notice(&alice, &bot, &room, "Cup").await;
    alice.say_with_pill(&room, "!challenge ", &bob, " variant:chess color:white").await;
    notice(&bob, &bot, &room, "challenges").await;
    bob.say(&room, "!accept").await;
    notice(&alice, &bot, &room, "Game 1 begins").await;

    alice.room(&room).kick_user(&bot.id, Some("enough chess")).await.expect("alice may kick");
    let store = data::Store::open(bot.dir().join("chimera.db")).expect("the bot's database");
    let mut stopped = None;
    for _ in 0..200 {
        let (game, pause) = store.read(|tx| Ok((tx.game(1)?, tx.tournament_pause(1)?))).expect("readable");
        if game.state == data::GameState::Aborted {
            stopped = Some(pause);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let pause = stopped.expect("the game in the room the bot was kicked from is stopped");
    assert_eq!(pause.map(|p| p.reason), Some(data::PauseReason::Lost), "the room's tournament is paused");
}
