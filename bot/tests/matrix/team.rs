//! A room's members play Chimera together, each move decided by their votes; the team is named
//! by the room's name, not its id.

use crate::games::notice;
use crate::harness::{table, Bot, Person};

#[tokio::test]
async fn a_room_plays_chimera_together_by_vote() {
    let bot = Bot::start(&[]).await;
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    let room = table(&bot, &alice, &[&bob], false).await;
    alice.room(&room).set_name("Chess Club".into()).await.expect("a room name");

    alice.say(&room, "!play variant:chess level:1 color:white team:yes window:20s").await;
    let team = "#Chess Club (team)";
    notice(&alice, &bot, &room, &format!("begins: {team} (White) against Chimera (level 1) (Black)")).await;
    alice.say(&room, "!move e4").await;
    notice(&alice, &bot, &room, &format!("{} votes e4 for {team}. Votes for 1.: e4 1 vote.", alice.name)).await;
    bob.say(&room, "!move d2d4").await;
    notice(&bob, &bot, &room, "Votes for 1.: e4 1 vote, d4 1 vote. Leading: e4.").await;
    // The window closes by itself: the vote cast first wins the tie, and Chimera answers.
    notice(&alice, &bot, &room, &format!("{team} (White) plays 1. e4 by vote (e4 1 vote, d4 1 vote).")).await;
    notice(&alice, &bot, &room, "Chimera (level 1) (Black) played 1...").await;
    // The room votes on its next move.
    bob.say(&room, "!move Nf3").await;
    notice(&bob, &bot, &room, "Votes for 2.: Nf3 1 vote.").await;
}
