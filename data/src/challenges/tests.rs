use crate::testing::{new_game, on_both_backends, TestDb, START};
use crate::{Acceptance, Challenge, ColorChoice, Error, NewChallenge, PlayerId, Store};

struct Fixture {
    store: Store,
    ann: PlayerId,
    bob: PlayerId,
    cat: PlayerId,
}

fn fixture(db: &TestDb) -> Fixture {
    let mut store = db.store();
    let (ann, bob, cat) = store
        .write(|tx| {
            Ok((
                tx.upsert_player("test", "ann", "Ann", 0)?.id,
                tx.upsert_player("test", "bob", "Bob", 0)?.id,
                tx.upsert_player("test", "cat", "Cat", 0)?.id,
            ))
        })
        .unwrap();
    Fixture { store, ann, bob, cat }
}

fn challenge(by: PlayerId, to: Option<PlayerId>, color: ColorChoice, expires_at: i64) -> NewChallenge {
    NewChallenge {
        platform: "test".into(),
        server: Some("server".into()),
        channel: "c1".into(),
        challenger: by,
        challenged: to,
        variant: "golem".into(),
        color,
        time_control: None,
        rated: false,
        expires_at,
    }
}

fn acceptance(by: PlayerId) -> Acceptance {
    Acceptance {
        acceptor: by,
        toss: crate::Color::Black,
        start_fen: START.into(),
        channel: None,
        deadline: Some(1_000),
    }
}

fn create(store: &mut Store, new: NewChallenge) -> Challenge {
    store.write(|tx| tx.create_challenge(&new, 10)).unwrap()
}

fn accepting_a_challenge_starts_its_game_and_removes_it(db: &TestDb) {
    let Fixture { mut store, ann, bob, .. } = fixture(db);
    let c = create(&mut store, challenge(ann, Some(bob), ColorChoice::Black, 100));
    assert_eq!(c.challenged, Some(bob));
    let game = store.write(|tx| tx.accept_challenge(c.id, &acceptance(bob), 20)).unwrap();
    assert_eq!((game.white, game.black), (bob, ann), "ann asked for black");
    assert_eq!((game.variant.as_str(), game.rated, game.deadline), ("golem", false, Some(1_000)));
    assert_eq!((game.channel.as_str(), game.server.as_deref()), ("c1", Some("server")));
    assert!(matches!(store.read(|tx| tx.challenge(c.id)), Err(Error::NotFound { what: "challenge", .. })));
}

fn the_toss_decides_a_random_colour_and_an_open_challenge_is_for_anyone_else(db: &TestDb) {
    let Fixture { mut store, ann, cat, .. } = fixture(db);
    let c = create(&mut store, challenge(ann, None, ColorChoice::Random, 100));
    let own = store.write(|tx| tx.accept_challenge(c.id, &acceptance(ann), 20)).unwrap_err();
    assert!(matches!(own, Error::OwnChallenge { .. }), "{own}");
    let mut elsewhere = acceptance(cat);
    elsewhere.channel = Some("thread-9".into());
    let game = store.write(|tx| tx.accept_challenge(c.id, &elsewhere, 20)).unwrap();
    assert_eq!((game.white, game.black), (cat, ann), "the toss gave ann black");
    assert_eq!(game.channel, "thread-9");
}

fn a_challenge_is_refused_to_a_stranger_after_expiry_and_in_a_busy_channel(db: &TestDb) {
    let Fixture { mut store, ann, bob, cat, .. } = fixture(db);
    let c = create(&mut store, challenge(ann, Some(bob), ColorChoice::White, 100));

    let stranger = store.write(|tx| tx.accept_challenge(c.id, &acceptance(cat), 20)).unwrap_err();
    assert!(matches!(stranger, Error::NotChallenged { challenged, player, .. } if challenged == bob && player == cat));

    let late = store.write(|tx| tx.accept_challenge(c.id, &acceptance(bob), 100)).unwrap_err();
    assert!(matches!(late, Error::ChallengeExpired { expires_at: 100, .. }), "{late}");

    let running = store.write(|tx| tx.create_game(&new_game("c1", cat, ann), 30)).unwrap();
    let busy = store.write(|tx| tx.accept_challenge(c.id, &acceptance(bob), 40)).unwrap_err();
    assert!(matches!(busy, Error::ChannelBusy { game_id, .. } if game_id == running.id), "{busy}");
    assert_eq!(store.read(|tx| tx.challenge(c.id)).unwrap(), c, "the challenge waits");

    store.write(|tx| tx.abort_game(running.id, "test", 50)).unwrap();
    store.write(|tx| tx.accept_challenge(c.id, &acceptance(bob), 60)).unwrap();
}

fn a_challenge_is_declined_by_its_player_or_withdrawn_by_its_maker_only(db: &TestDb) {
    let Fixture { mut store, ann, bob, cat, .. } = fixture(db);
    let directed = create(&mut store, challenge(ann, Some(bob), ColorChoice::White, 100));
    let open = create(&mut store, challenge(ann, None, ColorChoice::White, 100));

    let err = store.write(|tx| tx.decline_challenge(directed.id, cat)).unwrap_err();
    assert!(matches!(err, Error::NotParty { .. }));
    let err = store.write(|tx| tx.decline_challenge(open.id, bob)).unwrap_err();
    assert!(matches!(err, Error::NotParty { .. }), "nobody declines an open challenge for all");

    assert_eq!(store.write(|tx| tx.decline_challenge(directed.id, bob)).unwrap(), directed);
    assert_eq!(store.write(|tx| tx.decline_challenge(open.id, ann)).unwrap(), open);
    assert!(store.read(|tx| tx.channel_challenges("test", "c1", 0)).unwrap().is_empty());
}

fn challenges_are_listed_until_they_expire_and_then_expired_once(db: &TestDb) {
    let Fixture { mut store, ann, bob, cat, .. } = fixture(db);
    let soon = create(&mut store, challenge(ann, Some(bob), ColorChoice::White, 50));
    let later = create(&mut store, challenge(cat, None, ColorChoice::White, 90));
    let mut elsewhere = challenge(bob, Some(cat), ColorChoice::White, 90);
    elsewhere.channel = "c2".into();
    let elsewhere = create(&mut store, elsewhere);

    store
        .read(|tx| {
            let ids = |list: Vec<Challenge>| list.into_iter().map(|c| c.id).collect::<Vec<_>>();
            assert_eq!(ids(tx.channel_challenges("test", "c1", 20)?), [soon.id, later.id]);
            assert_eq!(ids(tx.channel_challenges("test", "c1", 50)?), [later.id]);
            assert_eq!(ids(tx.challenges_of(bob, 20)?), [soon.id, elsewhere.id]);
            assert_eq!(ids(tx.challenges_of(cat, 20)?), [later.id, elsewhere.id]);
            Ok(())
        })
        .unwrap();

    assert_eq!(store.write(|tx| tx.expire_challenges(60)).unwrap(), [soon]);
    assert!(store.write(|tx| tx.expire_challenges(60)).unwrap().is_empty());
    assert_eq!(store.write(|tx| tx.expire_challenges(90)).unwrap(), [later, elsewhere]);
}

on_both_backends!(
    accepting_a_challenge_starts_its_game_and_removes_it,
    the_toss_decides_a_random_colour_and_an_open_challenge_is_for_anyone_else,
    a_challenge_is_refused_to_a_stranger_after_expiry_and_in_a_busy_channel,
    a_challenge_is_declined_by_its_player_or_withdrawn_by_its_maker_only,
    challenges_are_listed_until_they_expire_and_then_expired_once,
);
