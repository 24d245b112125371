//! Rooms as people make them: a direct chat that the client encrypts by default, an invitation
//! from a server the bot does not take, a member named by display name, and what was said
//! before the bot came, which it never acts on.

use crate::games::{notice, reply};
use crate::harness::{Bot, Person, What};

#[tokio::test]
async fn a_direct_chat_encrypted_by_default_is_answered_in_kind() {
    let bot = Bot::start(&[]).await;
    let alice = Person::new("alice").await;
    // As clients start a direct chat: `is_direct`, a trusted private chat, encrypted from its
    // first event, so the bot is invited to a room that is encrypted already.
    let room = alice.client.create_dm(&bot.id).await.expect("a direct chat").room_id().to_owned();
    alice.sees_joined(&room, &bot.id).await;
    alice.say(&room, "!rules golem").await;
    let rules = notice(&alice, &bot, &room, "Golem").await;
    assert!(rules.encrypted, "the answer is encrypted");
    let diagram = alice.expect(&room, &bot.id, "a diagram", |s| matches!(s.what, What::Image { .. })).await;
    let What::Image { encrypted_file, .. } = &diagram.what else { unreachable!() };
    assert!(diagram.encrypted && *encrypted_file, "the picture's event and file are encrypted");
}

#[tokio::test]
async fn an_invitation_from_a_server_not_allowed_is_declined() {
    let bot = Bot::start(&[("MATRIX_ALLOWED_SERVERS", "example.org")]).await;
    let alice = Person::new("alice").await;
    let room = alice.create_room(false, &[&bot.id]).await.room_id().to_owned();
    let declined = bot.id.clone();
    alice
        .expect(
            &room,
            &bot.id,
            "the bot to decline",
            move |s| matches!(&s.what, What::Left { user } if *user == declined),
        )
        .await;
    assert_eq!(alice.count(&room, &bot.id, |s| matches!(s.what, What::Joined { .. })), 0, "it never joined");
}

#[tokio::test]
async fn a_member_is_named_by_display_name_and_what_came_before_the_bot_is_not_read() {
    let bot = Bot::start(&[]).await;
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    let robert = format!("Robert-{}", bob.name);
    bob.set_display_name(&robert).await;
    let room = alice.create_room(false, &[&bob.id]).await.room_id().to_owned();
    bob.join(&room).await;
    alice.sees_joined(&room, &bob.id).await;
    // Said before the bot was in the room: the room's history, never a command to it.
    let before = alice.say(&room, "!fly").await;
    alice.room(&room).invite_user_by_id(&bot.id).await.expect("the bot invited");
    alice.sees_joined(&room, &bot.id).await;

    // Typed as text, without a pill: `@` and the name the room shows.
    alice.say(&room, &format!("!challenge @{robert} variant:chess")).await;
    let challenge = notice(&bob, &bot, &room, "challenges").await;
    let What::Notice { mentions, .. } = &challenge.what else { unreachable!() };
    assert_eq!(mentions, std::slice::from_ref(&bob.id), "{}", challenge.body());
    assert!(challenge.body().contains(&robert), "named as the room shows them: {}", challenge.body());
    let sent = alice.say(&room, "!challenge @nobody-here variant:chess").await;
    let refused = reply(&alice, &bot, &room, &sent).await;
    assert!(refused.body().contains("nobody in this room is called `nobody-here`"), "{}", refused.body());
    let answered_before =
        alice.count(&room, &bot.id, |s| matches!(&s.what, What::Notice { reply_to: Some(r), .. } if *r == before));
    assert_eq!(answered_before, 0, "what was said before the bot joined is not answered");
}

/// A room's managers list it on the web with `!settings web:on`; once the room becomes
/// encrypted its listing is turned off, and it cannot be turned on again.
#[tokio::test]
async fn a_listed_room_that_becomes_encrypted_is_unlisted() {
    let bot = Bot::start(&[]).await;
    let alice = Person::new("alice").await;
    let room = alice.create_room(false, &[&bot.id]).await.room_id().to_owned();
    alice.sees_joined(&room, &bot.id).await;
    // Alice made the room, so she may kick: a manager.
    alice.say(&room, "!settings web:on").await;
    notice(&alice, &bot, &room, "turns this server's web listing on").await;
    let listed = || {
        let store = data::Store::open(bot.dir().join("chimera.db")).expect("the bot's database");
        store.read(|tx| tx.web_listing("matrix", room.as_str())).expect("the listing reads")
    };
    assert!(listed());

    alice.room(&room).enable_encryption().await.expect("the room is encrypted");
    alice.say(&room, "!settings").await;
    let shown = notice(&alice, &bot, &room, "Settings of this server").await;
    assert!(shown.body().contains("web: off (never on here: this room is encrypted)"), "{}", shown.body());
    assert!(!listed());
    let sent = alice.say(&room, "!settings web:on").await;
    let refused = reply(&alice, &bot, &room, &sent).await;
    assert!(refused.body().contains("never get a listing, and this room is encrypted"), "{}", refused.body());
    assert!(!listed());
}
