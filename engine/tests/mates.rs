//! Mate-in-one and mate-in-two finding in every variant. Each position's forced win is first
//! proved by the rules alone (tests/common), shortest distance included; the engine must find
//! a winning first move and report the mate's distance.

mod common;

use common::{forces_win, search_depth, wins_with};
use engine::Score;
use rules::Variant;

fn check(variant: Variant, fen: &str, n: u32) {
    let (pos, result) = search_depth(variant, fen, 2 * n + 1);
    assert!(forces_win(&pos, n), "{variant} {fen}: no forced win in {n}");
    if n > 1 {
        assert!(!forces_win(&pos, n - 1), "{variant} {fen}: already a win in {}", n - 1);
    }
    let best = result.best.expect("a move");
    assert!(wins_with(&pos, &best, pos.turn(), n), "{variant} {fen}: {} does not win in {n}", pos.san(&best));
    assert_eq!(Score::from_raw(result.score), Score::Mate(n as i32), "{variant} {fen}: score");
}

#[test]
fn chess() {
    check(Variant::Chess, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 1);
    check(Variant::Chess, "1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 2);
}

#[test]
fn golem() {
    check(Variant::Golem, "7k/5Gpp/8/8/8/8/8/6K1 w - - 0 1", 1);
    check(Variant::Golem, "1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 2);
}

#[test]
fn grolman() {
    check(Variant::Grolman, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 1);
    check(Variant::Grolman, "1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 2);
}

#[test]
fn ghost_king() {
    check(Variant::GhostKing, "7k/8/8/8/8/8/8/4K3 w - - 0 1", 1);
    check(Variant::GhostKing, "7k/5n2/8/3Q4/8/8/8/5RRK w - - 0 1", 2);
}

#[test]
fn werewolf() {
    check(Variant::Werewolf, "7k/6pp/8/5W2/8/8/8/6K1 w - - 0 1", 1);
    check(Variant::Werewolf, "1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 2);
}

#[test]
fn unicorn_great() {
    check(Variant::UnicornGreat, "9k/7ppp/10/10/10/10/10/10/7PPP/R8K w - - 0 1", 1);
    check(Variant::UnicornGreat, "1r7k/7ppp/10/10/10/10/10/10/3R4PP/3R5K w - - 0 1", 2);
}
