//! Static exchange evaluation: whole exchanges on one square, priced by each variant's
//! capture rules.

use engine::order::{exchange_guess, see};
use engine::Params;
use rules::{Position, Role, Variant};

fn see_of(variant: Variant, fen: &str, san: &str) -> (i32, i32) {
    let pos = Position::from_fen(variant, fen).expect("a position");
    let m = pos.parse_move(san).expect("a legal move");
    let params = Params::for_variant(variant);
    (see(&pos, &params, &m), exchange_guess(&pos, &params, &m))
}

#[test]
fn an_undefended_pawn_is_won() {
    assert_eq!(see_of(Variant::Chess, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5").0, 100);
}

#[test]
fn a_rook_taking_a_pawn_defended_by_a_pawn_loses_the_difference() {
    assert_eq!(see_of(Variant::Chess, "4k3/2p5/3p4/8/8/8/8/3RK3 w - - 0 1", "Rxd6").0, -400);
}

#[test]
fn a_rook_behind_the_taker_joins_the_exchange() {
    let (see, guess) = see_of(Variant::Chess, "3rk3/8/3p4/8/8/8/3R4/3RK3 w - - 0 1", "Rxd6");
    assert_eq!(see, 100, "Rxd6 Rxd6 Rxd6 wins the pawn");
    assert_eq!(guess, -400, "the one-recapture guess sees the rook lost");
}

#[test]
fn the_defender_stops_where_recapturing_loses() {
    // Nxd5 Qxd5 exd5 would cost Black the queen for a knight, so Black keeps the queen.
    assert_eq!(see_of(Variant::Chess, "3qk3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1", "Nxd5").0, 100);
    assert_eq!(see_of(Variant::Chess, "3qk3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "Nxd5").0, -220);
}

#[test]
fn the_king_takes_only_where_nothing_takes_back() {
    assert_eq!(see_of(Variant::Chess, "8/8/4k3/3p4/8/8/6B1/3RK3 w - - 0 1", "Rxd5").0, 100);
    assert_eq!(see_of(Variant::Chess, "8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5").0, -400);
}

#[test]
fn taking_a_defended_werewolf_hands_the_defender_a_werewolf() {
    // Nxd5 makes the knight a Werewolf; exd5 makes the pawn one: White is down the knight for
    // Black's pawn, where the one-recapture guess counts the knight's conversion as a gain.
    let (see, guess) = see_of(Variant::Werewolf, "4k3/8/4p3/3w4/8/2N5/8/4K3 w - - 0 1", "Nxd5");
    let params = Params::for_variant(Variant::Werewolf);
    assert_eq!(see, params.value(Role::Pawn) - params.value(Role::Knight));
    assert!(guess > 0);
}
