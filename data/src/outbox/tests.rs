use std::collections::HashSet;

use crate::testing::{on_both_backends, TestDb};
use crate::Store;

const HOLD: i64 = 20_000;

fn queue(store: &mut Store, channel: &str, body: &str, holder: &str, now: i64) -> i64 {
    let (channel, body, holder) = (channel.to_string(), body.to_string(), holder.to_string());
    store.write(move |tx| tx.queue_post("test", &channel, &body, &holder, now, now + HOLD)).unwrap()
}

fn claim(store: &mut Store, holder: &str, now: i64) -> Vec<(String, String)> {
    let holder = holder.to_string();
    let posts = store.write(move |tx| tx.claim_posts("test", &holder, now, now + HOLD, 10)).unwrap();
    posts.into_iter().map(|p| (p.channel, p.body)).collect()
}

fn a_post_is_its_writers_until_its_hold_runs_out_then_anyones(db: &TestDb) {
    let mut store = db.store();
    queue(&mut store, "c1", "first", "alpha", 0);
    queue(&mut store, "c2", "second", "alpha", 10);
    assert!(store.read(|tx| tx.has_posts_for("test", "alpha", 100)).unwrap());
    assert!(!store.read(|tx| tx.has_posts_for("test", "beta", 100)).unwrap());
    let own = vec![("c1".to_string(), "first".to_string()), ("c2".to_string(), "second".to_string())];
    assert_eq!(claim(&mut store, "alpha", 100), own, "the writer's own, oldest first");
    assert!(claim(&mut store, "beta", 100).is_empty(), "held by its writer");
    // The writer died: once the hold has run out, the next process takes them over.
    assert_eq!(claim(&mut store, "beta", 100 + HOLD), own);
    assert!(claim(&mut store, "alpha", 101 + HOLD).is_empty(), "beta holds them now");
}

fn a_deleted_post_is_gone_for_everyone(db: &TestDb) {
    let mut store = db.store();
    let id = queue(&mut store, "c1", "once", "alpha", 0);
    assert!(store.write(move |tx| tx.delete_post(id)).unwrap());
    assert!(!store.write(move |tx| tx.delete_post(id)).unwrap(), "a second delete finds nothing");
    assert!(claim(&mut store, "alpha", 1).is_empty());
    assert!(claim(&mut store, "beta", 10 * HOLD).is_empty());
}

/// An id is a post's idempotency key: a new post never takes a deleted one's.
fn ids_are_never_reused(db: &TestDb) {
    let mut store = db.store();
    let first = queue(&mut store, "c1", "first", "alpha", 0);
    assert!(store.write(move |tx| tx.delete_post(first)).unwrap());
    let second = queue(&mut store, "c1", "second", "alpha", 1);
    assert!(second > first, "{second} after {first}");
}

fn a_failed_post_waits_for_its_retry_and_counts_its_attempts(db: &TestDb) {
    let mut store = db.store();
    let id = queue(&mut store, "c1", "flaky", "alpha", 0);
    store.write(move |tx| tx.post_failed(id, 5_000)).unwrap();
    assert!(claim(&mut store, "alpha", 4_999).is_empty(), "not even its writer's before the retry");
    let posts = store.write(|tx| tx.claim_posts("test", "beta", 5_000, 5_000 + HOLD, 10)).unwrap();
    assert_eq!(posts.len(), 1);
    assert_eq!((posts[0].id, posts[0].attempts), (id, 1));
}

fn posts_are_kept_apart_by_platform(db: &TestDb) {
    let mut store = db.store();
    store.write(|tx| tx.queue_post("matrix", "!room", "hello", "alpha", 0, HOLD)).unwrap();
    assert!(claim(&mut store, "alpha", 2 * HOLD).is_empty(), "another platform's post");
    let theirs = store.write(|tx| tx.claim_posts("matrix", "alpha", 0, HOLD, 10)).unwrap();
    assert_eq!(theirs.len(), 1);
}

/// Two processes claiming and posting at once, each with connections of its own: every post is
/// claimed by exactly one of them.
fn two_claimants_at_once_share_the_posts_out(db: &TestDb) {
    let mut store = db.store();
    for i in 0..60 {
        queue(&mut store, "c1", &format!("post {i}"), "dead", 0);
    }
    let claimants: Vec<_> = ["alpha", "beta"]
        .into_iter()
        .map(|holder| {
            let mut store = db.store();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                loop {
                    // The hold never runs out during the test: what one claims the other skips.
                    let posts = store.write(move |tx| tx.claim_posts("test", holder, HOLD, 100 * HOLD, 3)).unwrap();
                    if posts.is_empty() {
                        return got;
                    }
                    for post in posts {
                        // Posting takes a moment (a request to the network).
                        std::thread::sleep(std::time::Duration::from_millis(2));
                        let id = post.id;
                        assert!(store.write(move |tx| tx.delete_post(id)).unwrap(), "{holder} lost post {id}");
                        got.push(post.body);
                    }
                }
            })
        })
        .collect();
    let mut all = Vec::new();
    for claimant in claimants {
        all.extend(claimant.join().unwrap());
    }
    let distinct: HashSet<&String> = all.iter().collect();
    assert_eq!((all.len(), distinct.len()), (60, 60), "each post once");
}

on_both_backends!(
    a_post_is_its_writers_until_its_hold_runs_out_then_anyones,
    a_deleted_post_is_gone_for_everyone,
    ids_are_never_reused,
    a_failed_post_waits_for_its_retry_and_counts_its_attempts,
    posts_are_kept_apart_by_platform,
    two_claimants_at_once_share_the_posts_out,
);
