//! Threads and restarts: a second game in a busy room goes to a thread, a Grolman choice is
//! made by reaction, a restart mid-game replays nothing, and a knockout plays in threads with
//! its rounds announced in the room.

use std::collections::HashMap;

use matrix_sdk::ruma::{OwnedEventId, RoomId};

use crate::games::{colours, notice, played, reply};
use crate::harness::{table, Bot, Person, Seen, What};

/// The bot's notice in the thread `root` with `needle` in it.
async fn in_thread(person: &Person, bot: &Bot, room: &RoomId, root: &OwnedEventId, needle: &str) -> Seen {
    let (root, needle) = (root.clone(), needle.to_string());
    person
        .expect(room, &bot.id, &format!("{needle:?} in a thread"), move |s| {
            s.is_notice() && s.thread() == Some(&root) && s.body().contains(&needle)
        })
        .await
}

#[tokio::test]
async fn a_second_game_goes_to_a_thread_where_a_grolman_choice_is_made_by_reaction() {
    let bot = Bot::start(&[]).await;
    let (alice, bob, carol, dave) =
        (Person::new("alice").await, Person::new("bob").await, Person::new("carol").await, Person::new("dave").await);
    let room = table(&bot, &alice, &[&bob, &carol, &dave], true).await;
    alice.say(&room, &format!("!challenge {} variant:chess", bob.id)).await;
    notice(&bob, &bot, &room, "challenges").await;
    bob.say(&room, "!accept").await;
    notice(&alice, &bot, &room, "(White)").await;

    carol.say_with_pill(&room, "!challenge ", &dave, " variant:grolman color:white").await;
    let asked = notice(&dave, &bot, &room, "a place of its own").await;
    dave.react(&room, &asked.id, "✅").await;
    // The game's thread: a root notice in the room, the opening inside it.
    let root = dave
        .expect(&room, &bot.id, "a thread's root", |s| {
            s.is_notice() && s.body().starts_with("🧵") && s.thread().is_none()
        })
        .await;
    assert!(root.body().contains(&carol.name) && root.body().contains(&dave.name), "{}", root.body());
    let opening = in_thread(&carol, &bot, &room, &root.id, "(White)").await;
    assert!(opening.body().contains(&format!("{} (White)", carol.name)), "{}", opening.body());

    carol.say_in_thread(&room, &root.id, "Nc3").await;
    in_thread(&dave, &bot, &room, &root.id, &played(1, "Nc3")).await;
    dave.say_in_thread(&room, &root.id, "a5").await;
    in_thread(&carol, &bot, &room, &root.id, &played(2, "a5")).await;
    let sent = carol.say_in_thread(&room, &root.id, "e3").await;
    let choice = reply(&carol, &bot, &room, &sent).await;
    assert_eq!(choice.thread(), Some(&root.id), "the question stays in the thread");
    assert!(choice.body().contains("more than one way") && choice.body().contains("2️⃣"), "{}", choice.body());
    carol
        .expect(
            &room,
            &bot.id,
            "2️⃣",
            |s| matches!(&s.what, What::Reaction { key, on } if key == "2️⃣" && *on == choice.id),
        )
        .await;
    // The opponent's reaction is not theirs to give; the mover's plays the turn.
    dave.react(&room, &choice.id, "1️⃣").await;
    carol.react(&room, &choice.id, "2️⃣").await;
    let turn = in_thread(&dave, &bot, &room, &root.id, "played 2. e3").await;
    assert!(turn.body().contains("e3 (Nce2, c3, Qc2, Kd1)"), "{}", turn.body());
    // A used question is refused to the person it was for.
    carol.react(&room, &choice.id, "1️⃣").await;
    let refused = in_thread(&carol, &bot, &room, &root.id, "answered already").await;
    assert!(matches!(&refused.what, What::Notice { reply_to: Some(r), .. } if *r == choice.id));

    // The room's own game went on untouched.
    alice.say(&room, "!board").await;
    notice(&alice, &bot, &room, "to move").await;
}

#[tokio::test]
async fn a_restart_mid_game_replays_nothing_and_answers_what_came_while_down() {
    let mut bot = Bot::start(&[]).await;
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    let room = table(&bot, &alice, &[&bob], true).await;
    alice.say(&room, &format!("!challenge {} variant:chess color:white", bob.id)).await;
    let challenge = notice(&bob, &bot, &room, "challenges").await;
    bob.react(&room, &challenge.id, "✅").await;
    notice(&alice, &bot, &room, "(White)").await;
    alice.say(&room, "e4").await;
    notice(&alice, &bot, &room, &played(1, "e4")).await;

    bot.stop().await;
    bob.say(&room, "e5").await;
    bot.resume();
    notice(&alice, &bot, &room, &played(2, "e5")).await;
    alice.say(&room, "Nf3").await;
    notice(&bob, &bot, &room, &played(3, "Nf3")).await;
    // Nothing before the restart was answered again: one start, one answer per move, and the
    // used challenge's reaction still refuses.
    // (The homeserver takes one reaction per key and person: the other key.)
    bob.react(&room, &challenge.id, "❌").await;
    notice(&bob, &bot, &room, "answered already").await;
    for (needle, times) in [("(White) against", 1), (played(1, "e4").as_str(), 1), (played(2, "e5").as_str(), 1)] {
        let count = alice.count(&room, &bot.id, |s| s.is_notice() && s.body().contains(needle));
        assert_eq!(count, times, "{needle:?} was said {count} times");
    }
}

/// Plays fool's mate in a thread (Black wins).
async fn fools_mate(bot: &Bot, room: &RoomId, root: &OwnedEventId, white: &Person, black: &Person) {
    for (i, mv) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
        let (who, other) = if i % 2 == 0 { (white, black) } else { (black, white) };
        who.say_in_thread(room, root, mv).await;
        let needle = if i == 3 { "wins by checkmate".to_string() } else { played(i as u32 + 1, mv) };
        in_thread(other, bot, room, root, &needle).await;
    }
}

#[tokio::test]
async fn a_knockout_plays_in_threads_with_rounds_announced_in_the_room() {
    let bot = Bot::start(&[]).await;
    let people =
        [Person::new("alice").await, Person::new("bob").await, Person::new("carol").await, Person::new("dave").await];
    let [alice, others @ ..] = &people;
    let room = table(&bot, alice, &others.iter().collect::<Vec<_>>(), false).await;
    alice.say(&room, "!tournament create name:Cup variant:chess format:knockout time:10+0").await;
    notice(alice, &bot, &room, "Cup").await;
    for person in &people {
        person.say(&room, "!tournament join").await;
        notice(alice, &bot, &room, &format!("{} joins", person.name)).await;
    }
    alice.say(&room, "!tournament start").await;
    notice(alice, &bot, &room, "begins: knockout").await;
    let by_name: HashMap<&str, &Person> = people.iter().map(|p| (p.name.as_str(), p)).collect();
    let mut winners = Vec::new();
    for round in 1..=2 {
        notice(alice, &bot, &room, &format!("round {round} of 2")).await;
        let games = if round == 1 { 2 } else { 1 };
        for _ in 0..games {
            let root = alice
                .expect(&room, &bot.id, "a game's thread", |s| {
                    s.is_notice() && s.body().starts_with("🧵") && s.thread().is_none()
                })
                .await;
            let opening = in_thread(alice, &bot, &room, &root.id, "(White)").await;
            let names: Vec<&Person> = people.iter().filter(|p| root.body().contains(&p.name)).collect();
            assert_eq!(names.len(), 2, "{}", root.body());
            let (white, black) = colours(&opening, names[0], names[1]);
            fools_mate(&bot, &room, &root.id, white, black).await;
            winners.push(black.name.clone());
        }
    }
    let standings = notice(alice, &bot, &room, "\"Cup\" is over").await;
    let champion = winners.last().expect("a final");
    assert!(standings.body().contains(&format!("{champion} wins!")), "{}", standings.body());
    assert!(by_name.contains_key(champion.as_str()));
}
