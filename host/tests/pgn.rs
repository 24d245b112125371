//! `/pgn` as other programs read it: tags by the PGN standard (a `TimeControl` in seconds, a
//! `Site` that names no private place), read back by Chimera's own reader with its clock intact.

mod common;

use common::{text, Club, Place};
use host::TimeControl;
use rules::{pgn, Variant};

/// The PGN in a `/pgn` reply (inside its code block).
fn score(reply: &str) -> &str {
    reply.trim().strip_prefix("```\n").and_then(|r| r.strip_suffix("```")).unwrap_or_else(|| panic!("{reply}"))
}

#[tokio::test]
async fn the_pgn_follows_the_standard_and_reads_back_with_its_clock() {
    let club = Club::open().await;
    let cases = [("time:5+3", "300+3", 1), ("time:3d", "1/259200", 2), ("time:10+0", "600", 3)];
    for (terms, tag, id) in cases {
        let place = Place::new("discord", Some("guild-829301"), &format!("channel-551234-{id}"));
        for (who, line) in [
            ("alice", format!("/challenge @bob variant:chess color:white rated:no {terms}")),
            ("bob", "/accept".to_string()),
            ("alice", "/move e4".to_string()),
            ("bob", "/move e5".to_string()),
        ] {
            let reply = club.at(&place, who, &line).await;
            assert!(!reply.is_error(), "{line}: {}", text(&reply));
        }
        let reply = club.at(&place, "alice", &format!("/pgn game:{id}")).await;
        assert!(!reply.is_error(), "{}", text(&reply));
        let reply = text(&reply);
        let score = score(&reply);
        assert!(score.contains(&format!("[TimeControl \"{tag}\"]\n")), "{score}");
        assert!(score.contains("[Site \"Chimera, Discord\"]\n"), "{score}");
        assert!(!score.contains("829301") && !score.contains("551234"), "{score}");
        let back = pgn::read(Variant::Chess, score).unwrap();
        assert_eq!(back.game.moves().len(), 2);
        let read: TimeControl = terms.strip_prefix("time:").unwrap().parse().unwrap();
        assert_eq!(back.tags.get("TimeControl").and_then(TimeControl::from_pgn), Some(read), "{score}");
    }
}
