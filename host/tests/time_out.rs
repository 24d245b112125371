//! The clock through the host: a player who runs out of time loses, unless the other side could
//! not possibly win with what it has left (FIDE's rule, decided per variant by the rules
//! crate); then the game is drawn. The games are written into the database as a long game
//! would have left them, and the host's scheduler ends them.

mod common;

use common::{Club, MINUTE, T0};

/// Writes an active game of `variant` from `fen` whose player to move has 5 minutes left, lets
/// 6 pass, and returns what the scheduler announces and the stored reason.
async fn flag(variant: &str, fen: &str) -> (String, String) {
    let seed = |tx: &data::WriteTx<'_>| {
        let white = tx.upsert_player("console", "ann", "ann", T0)?.id;
        let black = tx.upsert_player("console", "bo", "bo", T0)?.id;
        let time = data::TimeControl { kind: data::ClockKind::Live, base_ms: 5 * MINUTE, increment_ms: 0 };
        let new = data::NewGame {
            platform: "console".into(),
            server: None,
            channel: "general".into(),
            variant: variant.into(),
            white,
            black,
            start_fen: fen.into(),
            time_control: Some(time),
            time_odds: None,
            deadline: Some(T0 + 5 * MINUTE),
            rated: true,
        };
        tx.create_game(&new, T0).map(drop)
    };
    let club = Club::open_seeded(seed, |_| {}).await;
    let said = club.pass(6 * MINUTE).await;
    assert_eq!(said.len(), 1, "{said:?}");
    let store = data::Store::open(club.dir.path().join("chimera.db")).unwrap();
    let game = store.read(|tx| tx.game(1)).unwrap();
    (host::typed::plain(&said[0].text), game.reason.unwrap_or_default())
}

#[tokio::test]
async fn time_out_against_a_bare_king_is_a_draw() {
    let (said, reason) = flag("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").await;
    assert!(said.starts_with("Time is up in game 1: ann (White) ran out of time."), "{said}");
    assert!(said.contains("1/2-1/2"), "{said}");
    assert_eq!(reason, "time, against insufficient material");
}

#[tokio::test]
async fn time_out_against_mating_material_loses() {
    let (said, reason) = flag("chess", "3qk3/8/8/8/8/8/8/4K3 w - - 0 1").await;
    assert!(said.contains("(bo beats ann), 0-1."), "{said}");
    assert_eq!(reason, "time");
}

#[tokio::test]
async fn a_ghost_king_can_always_capture_so_time_out_there_always_loses() {
    let (said, reason) = flag("ghost-king", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").await;
    assert!(said.contains("(bo beats ann), 0-1."), "{said}");
    assert_eq!(reason, "time");
}
