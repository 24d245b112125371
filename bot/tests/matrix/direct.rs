//! Messages to one user alone (a player's turn in a correspondence game, for those who asked
//! for it): the bot opens a direct room with them (invited, marked direct, encrypted as
//! matrix-sdk opens one), posts there, and posts there again next time.

use matrix_sdk::ruma::{OwnedRoomId, UserId};

use crate::games::{board, notice, played};
use crate::harness::{table, Bot, Person, PATIENCE};

/// Waits until `from` invites `person` to a room, and returns it with whether the invitation
/// marks it a direct chat.
async fn invitation(person: &Person, from: &UserId) -> (OwnedRoomId, bool) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        for room in person.client.invited_rooms() {
            let Ok(invite) = room.invite_details().await else { continue };
            if invite.inviter_id == from {
                let direct = invite.invitee.event().as_stripped().and_then(|e| e.content.is_direct);
                return (room.room_id().to_owned(), direct == Some(true));
            }
        }
        assert!(tokio::time::Instant::now() < deadline, "{} was never invited by {from}", person.name);
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_players_turn_is_told_in_a_direct_room_the_bot_opens_once() {
    let bot = Bot::start(&[]).await;
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    let room = table(&bot, &alice, &[&bob], false).await;
    alice.say_with_pill(&room, "!challenge ", &bob, " variant:chess color:white").await;
    notice(&bob, &bot, &room, "challenges").await;
    bob.say(&room, "!accept").await;
    notice(&alice, &bot, &room, "(White)").await;
    bob.say(&room, "!settings notify:on").await;
    notice(&bob, &bot, &room, "writes to you directly when it is your move").await;

    alice.say(&room, "e4").await;
    notice(&bob, &bot, &room, &played(1, "e4")).await;
    let (dm, direct) = invitation(&bob, &bot.id).await;
    assert!(direct, "the invitation is to a direct chat");
    assert_ne!(dm, room);
    bob.join(&dm).await;
    let told = notice(&bob, &bot, &dm, "it is your move in game 1 (Chess)").await;
    assert!(told.body().contains(&bob.name) && told.body().contains(&alice.name), "{}", told.body());
    assert!(told.encrypted, "the direct room is encrypted, and bob's devices were given its key");
    board(&bob, &bot, &dm, true).await;
    assert_eq!(alice.count(&dm, &bot.id, |_| true), 0, "alice is not in it");

    // Bob's next turn is told in the same room.
    bob.say(&room, "e5").await;
    notice(&alice, &bot, &room, &played(2, "e5")).await;
    alice.say(&room, "Nf3").await;
    let again = notice(&bob, &bot, &dm, "it is your move in game 1 (Chess)").await;
    assert_ne!(again.id, told.id);
    board(&bob, &bot, &dm, true).await;
    assert!(bob.client.invited_rooms().is_empty(), "no second room");
}
