use data::{NewPairing, PairingResult, PlayerId};

use super::super::pairing::testing::{field, round};
use super::super::pairing::{round_robin_round, Player};
use super::{standings, Standing};

fn game(white: PlayerId, black: PlayerId, result: PairingResult) -> NewPairing {
    NewPairing { white, black: Some(black), result: Some(result) }
}

fn bye(player: PlayerId) -> NewPairing {
    NewPairing { white: player, black: None, result: Some(PairingResult::WhiteWins) }
}

fn line(s: &[Standing], player: PlayerId) -> &Standing {
    s.iter().find(|l| l.player == player).unwrap()
}

/// A three-round Swiss of five, worked by hand from C.07 (2023):
///
/// ```text
///        R1          R2              R3
/// 1   W 3  1-0    B 5  ½-½       W 2  0-1
/// 2   B 4  ½-½    W 3  +/- (3 absent)  B 1  1-0
/// 3   B 1  0-1    B 2  -/+ forfeit loss  (withdrawn: not paired)
/// 4   W 2  ½-½    bye (1 point)  W 5  0-1
/// 5   bye (1)     W 1  ½-½       B 4  1-0
/// ```
///
/// Points: 1: 1 + ½ + 0 = 1½; 2: ½ + 1 + 1 = 2½; 3: 0; 4: ½ + 1 + 0 = 1½; 5: 1 + ½ + 1 = 2½.
///
/// Adjusted scores (opponents' points for tie-breaks): 3's last two rounds, the forfeit loss and
/// the unpaired round, are voluntarily unplayed rounds at the end, so they count ½ each:
/// 0 + ½ + ½ = 1. Everyone else: their points.
///
/// Buchholz (unplayed rounds: a dummy opponent with the player's own points):
/// - 1: adj(3) 1 + adj(5) 2½ + adj(2) 2½ = 6
/// - 2: adj(4) 1½ + dummy 2½ (the forfeit win is unplayed) + adj(1) 1½ = 5½
/// - 3: adj(1) 1½ + dummy 0 + dummy 0 = 1½
/// - 4: adj(2) 2½ + dummy 1½ (bye) + adj(5) 2½ = 6½
/// - 5: dummy 2½ (bye) + adj(1) 1½ + adj(4) 1½ = 5½
///
/// Sonneborn-Berger (round score × that opponent's value above):
/// - 1: 1×1 + ½×2½ + 0×2½ = 2¼
/// - 2: ½×1½ + 1×2½ + 1×1½ = 4¾
/// - 3: 0
/// - 4: ½×2½ + 1×1½ + 0×2½ = 2¾
/// - 5: 1×2½ + ½×1½ + 1×1½ = 4¾
///
/// 2 and 5 tie on points, Buchholz and Sonneborn-Berger and never met: direct encounter does not
/// apply, they share first place. 4 is ahead of 1 on Buchholz.
#[test]
fn worked_swiss_with_bye_forfeit_and_withdrawal() {
    use PairingResult::*;
    let mut f = field(5);
    f[2].active = false;
    let played = [
        round(1, &[game(1, 3, WhiteWins), game(4, 2, Draw), bye(5)]),
        round(2, &[game(5, 1, Draw), game(2, 3, WhiteWinsByForfeit), bye(4)]),
        round(3, &[game(1, 2, BlackWins), game(4, 5, BlackWins)]),
    ];
    let s = standings(&f, &played);
    let order: Vec<(PlayerId, u32)> = s.iter().map(|l| (l.player, l.rank)).collect();
    assert_eq!(order, [(2, 1), (5, 1), (4, 3), (1, 4), (3, 5)]);
    let numbers = |p| {
        let l = line(&s, p);
        (l.points, l.buchholz, l.sonneborn_berger, l.direct_encounter)
    };
    assert_eq!(numbers(1), (1.5, 6.0, 2.25, 0.0));
    assert_eq!(numbers(2), (2.5, 5.5, 4.75, 0.0));
    assert_eq!(numbers(3), (0.0, 1.5, 0.0, 0.0));
    assert_eq!(numbers(4), (1.5, 6.5, 2.75, 0.0));
    assert_eq!(numbers(5), (2.5, 5.5, 4.75, 0.0));
    // Games: the forfeit counts as a game (won by 2, lost by 3); byes do not.
    let record = |p| {
        let l = line(&s, p);
        (l.games, l.wins, l.draws, l.losses)
    };
    assert_eq!(record(2), (3, 2, 1, 0));
    assert_eq!(record(3), (2, 0, 0, 2));
    assert_eq!(record(5), (2, 1, 1, 0));
}

/// A four-player round robin (Berger table: R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1):
///
/// ```text
///      1    2    3    4    points
/// 1    ·    1    ½    0    1½
/// 2    0    ·    1    ½    1½
/// 3    ½    0    ·    0    ½
/// 4    1    ½    1    ·    2½
/// ```
///
/// Buchholz, everyone else's points: 1: 1½ + ½ + 2½ = 4½; 2: 1½ + ½ + 2½ = 4½.
/// Sonneborn-Berger: 1: 1×1½ + ½×½ + 0×2½ = 1¾; 2: 0×1½ + 1×½ + ½×2½ = 1¾.
/// Still tied, and they met: direct encounter 1 v 2 was 1-0, so 1 is second, 2 third.
#[test]
fn direct_encounter_separates_players_who_met() {
    use PairingResult::*;
    let f = field(4);
    let results = [[BlackWins, WhiteWins], [WhiteWins, WhiteWins], [Draw, Draw]];
    let played: Vec<_> = (1..=3u32)
        .map(|r| {
            let mut pairings = round_robin_round(&f, r, false).unwrap();
            for (p, result) in pairings.iter_mut().zip(results[r as usize - 1]) {
                p.result = Some(result);
            }
            round(r, &pairings)
        })
        .collect();
    let s = standings(&f, &played);
    let order: Vec<(PlayerId, u32)> = s.iter().map(|l| (l.player, l.rank)).collect();
    assert_eq!(order, [(4, 1), (1, 2), (2, 3), (3, 4)]);
    assert_eq!((line(&s, 1).buchholz, line(&s, 1).sonneborn_berger, line(&s, 1).direct_encounter), (4.5, 1.75, 1.0));
    assert_eq!((line(&s, 2).buchholz, line(&s, 2).sonneborn_berger, line(&s, 2).direct_encounter), (4.5, 1.75, 0.0));
    // Alone on their points: no direct encounter.
    assert_eq!(line(&s, 4).direct_encounter, 0.0);
}

#[test]
fn round_robin_byes_are_no_round() {
    use PairingResult::*;
    // Three players: the Berger dummy gives each a bye worth nothing, left out of every sum.
    let f = field(3);
    let played: Vec<_> = (1..=3u32)
        .map(|r| {
            let pairings: Vec<NewPairing> = round_robin_round(&f, r, false)
                .unwrap()
                .into_iter()
                .map(|p| NewPairing { result: p.result.or(Some(Draw)), ..p })
                .collect();
            round(r, &pairings)
        })
        .collect();
    let s = standings(&f, &played);
    for l in &s {
        // Two draws each; Buchholz is the other two's points (1 + 1), no dummy for the bye.
        assert_eq!((l.rank, l.points, l.buchholz, l.sonneborn_berger, l.games), (1, 1.0, 2.0, 1.0, 2));
    }
    // All met, all scored 1 among them: still tied.
    assert!(s.iter().all(|l| l.direct_encounter == 1.0));
}

#[test]
fn games_in_progress_do_not_count_yet() {
    let f: Vec<Player> = field(2);
    let pending = NewPairing { white: 1, black: Some(2), result: None };
    let s = standings(&f, &[round(1, &[pending])]);
    assert!(s.iter().all(|l| l.points == 0.0 && l.games == 0 && l.buchholz == 0.0 && l.rank == 1));
}
