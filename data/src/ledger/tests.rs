use crate::testing::{on_both_backends, TestDb};
use crate::ReactionButton;

fn handled_events_are_kept_once_and_forgotten_by_age(db: &TestDb) {
    let mut store = db.store();
    assert!(!store.read(|tx| tx.is_handled("matrix", "$a")).unwrap());
    store.write(|tx| tx.mark_handled("matrix", "$a", 1)).unwrap();
    // Marked again (a second process answered it too): the first time stays.
    store.write(|tx| tx.mark_handled("matrix", "$a", 2)).unwrap();
    assert!(store.read(|tx| tx.is_handled("matrix", "$a")).unwrap());
    assert!(!store.read(|tx| tx.is_handled("matrix", "$b")).unwrap());
    assert!(!store.read(|tx| tx.is_handled("discord", "$a")).unwrap(), "each platform its own");
    // A second connection (another process) sees it.
    assert!(db.store().read(|tx| tx.is_handled("matrix", "$a")).unwrap());
    assert_eq!(store.write(|tx| tx.forget_handled_before("matrix", 1)).unwrap(), 0);
    assert!(store.read(|tx| tx.is_handled("matrix", "$a")).unwrap());
    assert_eq!(store.write(|tx| tx.forget_handled_before("matrix", 2)).unwrap(), 1);
    assert!(!store.read(|tx| tx.is_handled("matrix", "$a")).unwrap());
}

fn reaction_buttons_are_used_once_per_message(db: &TestDb) {
    let mut store = db.store();
    let accept = ReactionButton {
        command: "/accept challenge:3".into(),
        channel: "!r:x".into(),
        callers: vec!["@bob:x".into(), "@ann:x".into()],
        private: true,
        used: false,
    };
    let decline = ReactionButton { command: "/decline challenge:3".into(), ..accept.clone() };
    let (a, d) = (accept.clone(), decline.clone());
    store
        .write(move |tx| {
            tx.add_reaction_button("matrix", "$m", "✅", &a)?;
            tx.add_reaction_button("matrix", "$m", "❌", &d)?;
            tx.add_reaction_button("matrix", "$n", "✅", &a)
        })
        .unwrap();
    assert_eq!(store.read(|tx| tx.reaction_button("matrix", "$m", "✅")).unwrap(), Some(accept.clone()));
    store.write(|tx| tx.use_reaction_buttons("matrix", "$m")).unwrap();
    let after = db.store().read(|tx| tx.reaction_button("matrix", "$m", "❌")).unwrap();
    assert_eq!(after, Some(ReactionButton { used: true, ..decline }));
    assert!(!store.read(|tx| tx.reaction_button("matrix", "$n", "✅")).unwrap().unwrap().used, "its message's only");
    assert_eq!(store.read(|tx| tx.reaction_button("matrix", "$m", "🎉")).unwrap(), None);
    assert_eq!(store.read(|tx| tx.reaction_button("discord", "$m", "✅")).unwrap(), None);
}

fn a_sync_position_is_kept_per_account(db: &TestDb) {
    let mut store = db.store();
    assert_eq!(store.read(|tx| tx.sync_position("matrix", "@bot:x")).unwrap(), None);
    store.write(|tx| tx.save_sync_position("matrix", "@bot:x", "s1")).unwrap();
    store.write(|tx| tx.save_sync_position("matrix", "@bot:x", "s2")).unwrap();
    store.write(|tx| tx.save_sync_position("matrix", "@other:x", "t1")).unwrap();
    assert_eq!(db.store().read(|tx| tx.sync_position("matrix", "@bot:x")).unwrap().as_deref(), Some("s2"));
    assert_eq!(store.read(|tx| tx.sync_position("matrix", "@other:x")).unwrap().as_deref(), Some("t1"));
}

on_both_backends!(
    handled_events_are_kept_once_and_forgotten_by_age,
    reaction_buttons_are_used_once_per_message,
    a_sync_position_is_kept_per_account,
);
