use std::collections::{HashMap, HashSet};

use data::{NewPairing, PairingResult, PlayerId, Round};
use proptest::prelude::*;

use super::super::testing::{field, round};
use super::super::{start_order, PairingError, Player};
use super::swiss_round;

fn pairs(pairings: &[NewPairing]) -> Vec<(PlayerId, Option<PlayerId>)> {
    pairings.iter().map(|p| (p.white, p.black)).collect()
}

fn finish(pairings: &[NewPairing], results: &[PairingResult]) -> Vec<NewPairing> {
    let mut results = results.iter();
    pairings.iter().map(|p| NewPairing { result: p.result.or_else(|| results.next().copied()), ..p.clone() }).collect()
}

#[test]
fn round_one_is_top_half_against_bottom_half_with_alternating_colours() {
    // Boards 1..4: 1 v 5, 2 v 6, 3 v 7, 4 v 8; the higher-ranked player has white on odd boards.
    let r1 = swiss_round(&field(8), &[]).unwrap();
    assert_eq!(pairs(&r1), [(1, Some(5)), (6, Some(2)), (3, Some(7)), (8, Some(4))]);
    assert!(r1.iter().all(|p| p.result.is_none()));
}

#[test]
fn round_one_odd_field_gives_the_last_player_the_bye() {
    let r1 = swiss_round(&field(5), &[]).unwrap();
    assert_eq!(pairs(&r1), [(1, Some(3)), (4, Some(2)), (5, None)]);
    assert_eq!(r1[2].result, Some(PairingResult::WhiteWins));
}

#[test]
fn round_two_transposes_to_give_colours() {
    use PairingResult::*;
    let f = field(8);
    let r1 = swiss_round(&f, &[]).unwrap();
    // The higher-ranked player wins every game: 1, 2, 3, 4 on one point.
    let played = [round(1, &finish(&r1, &[WhiteWins, BlackWins, WhiteWins, BlackWins]))];
    let r2 = swiss_round(&f, &played).unwrap();
    // Group 1: S1 = 1 2, S2 = 3 4. 1 v 3 would give two players due black one colour each, the
    // transposition 1 v 4, 2 v 3 gives everyone their due colour (1 and 3 had white).
    // Group 0: 5 v 7 clashes the same way (both had black): 5 v 8, 6 v 7.
    assert_eq!(pairs(&r2), [(4, Some(1)), (2, Some(3)), (5, Some(8)), (7, Some(6))]);
}

#[test]
fn odd_groups_float_down_and_byes_go_lowest_once() {
    use PairingResult::*;
    let f = field(5);
    let r1 = swiss_round(&f, &[]).unwrap(); // 1-3 4-2 5 bye
    let played = vec![round(1, &finish(&r1, &[WhiteWins, Draw]))];
    // Points: 1 and 5 (bye) on 1, 2 and 4 on ½, 3 on 0. 3 is lowest and eligible: bye.
    // Group 1 alone would pair 1 v 5, but that leaves 2 v 4, a rematch: so 1 meets the top of
    // the ½ group instead, 2 (due white, 1 due black), and 5 (no colours yet) takes 4's due
    // black: 2-1, 5-4.
    let r2 = swiss_round(&f, &played).unwrap();
    assert_eq!(pairs(&r2), [(2, Some(1)), (5, Some(4)), (3, None)]);
    // Round 3: 3 had the bye, so it goes to the lowest eligible above: not 3 again.
    let played = [played, vec![round(2, &finish(&r2, &[WhiteWins, WhiteWins]))]].concat();
    let r3 = swiss_round(&f, &played).unwrap();
    let bye = r3.iter().find(|p| p.black.is_none()).unwrap();
    // Points: 1: 1, 2: 1½, 3: 1 (bye), 4: ½, 5: 2. Lowest eligible: 4 on ½.
    assert_eq!(bye.white, 4);
}

#[test]
fn withdrawn_players_are_not_paired() {
    let mut f = field(6);
    f[0].active = false;
    f[5].active = false;
    let r1 = swiss_round(&f, &[]).unwrap();
    assert_eq!(pairs(&r1), [(2, Some(4)), (5, Some(3))]);
}

#[test]
fn deterministic() {
    use PairingResult::*;
    let f: Vec<Player> = (1..=11).map(|id| Player { id, rating: (id % 4) as f64, active: true }).collect();
    let r1 = swiss_round(&f, &[]).unwrap();
    let played = vec![round(1, &finish(&r1, &[Draw, WhiteWins, BlackWins, Draw, WhiteWins]))];
    let r2 = swiss_round(&f, &played).unwrap();
    for _ in 0..5 {
        assert_eq!(swiss_round(&f, &played).unwrap(), r2);
    }
}

#[test]
fn errors() {
    use PairingResult::*;
    let mut one = field(2);
    one[1].active = false;
    assert_eq!(swiss_round(&one, &[]), Err(PairingError::TooFewPlayers { active: 1, needed: 2 }));

    // Four players who have all met: round 4 cannot be paired.
    let f = field(4);
    let played: Vec<Round> = (1..=3)
        .map(|r| {
            let games = super::super::round_robin_round(&f, r, false).unwrap();
            round(r, &finish(&games, &[Draw, Draw]))
        })
        .collect();
    assert_eq!(swiss_round(&f, &played), Err(PairingError::NoLegalPairing { round: 4 }));

    let unfinished = vec![round(1, &swiss_round(&f, &[]).unwrap())];
    assert_eq!(swiss_round(&f, &unfinished), Err(PairingError::Unfinished { round: 1, board: 1 }));
    let stranger = vec![round(1, &[NewPairing { white: 7, black: Some(1), result: Some(WhiteWins) }])];
    assert_eq!(swiss_round(&f, &stranger), Err(PairingError::UnknownPlayer(7)));
}

/// The test's own account of a player, kept apart from the engine's.
#[derive(Clone, Default)]
struct Seen {
    points: f64,
    opponents: HashSet<PlayerId>,
    colours: Vec<bool>,
    byes: u32,
    /// A bye or a forfeit win: no bye again (C.04.1).
    unplayed_win: bool,
}

fn legal_colour(colours: &[bool], white: bool) -> bool {
    let diff: i32 = colours.iter().map(|&w| if w { 1 } else { -1 }).sum::<i32>() + if white { 1 } else { -1 };
    let n = colours.len();
    diff.abs() <= 2 && !(n >= 2 && colours[n - 1] == white && colours[n - 2] == white)
}

fn may_meet(seen: &HashMap<PlayerId, Seen>, a: PlayerId, b: PlayerId) -> bool {
    let (sa, sb) = (&seen[&a], &seen[&b]);
    !sa.opponents.contains(&b)
        && ((legal_colour(&sa.colours, true) && legal_colour(&sb.colours, false))
            || (legal_colour(&sa.colours, false) && legal_colour(&sb.colours, true)))
}

/// Exhaustive: can `players` all be paired legally?
fn pairable(seen: &HashMap<PlayerId, Seen>, players: &[PlayerId]) -> bool {
    match players {
        [] => true,
        [first, rest @ ..] => (0..rest.len()).any(|i| {
            let mut others = rest.to_vec();
            let partner = others.remove(i);
            may_meet(seen, *first, partner) && pairable(seen, &others)
        }),
    }
}

/// Exhaustive, for small fields: with `bye` sitting out, can the rest be paired?
fn pairable_without(seen: &HashMap<PlayerId, Seen>, active: &[PlayerId], bye: PlayerId) -> bool {
    let rest: Vec<PlayerId> = active.iter().copied().filter(|&p| p != bye).collect();
    pairable(seen, &rest)
}

const SMALL: usize = 11;

fn random_tournament(n: usize, seed: u64) {
    use PairingResult::*;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut f: Vec<Player> =
        (1..=n as PlayerId).map(|id| Player { id, rating: rng.u32(1000..1100) as f64, active: true }).collect();
    let rank: HashMap<PlayerId, usize> = start_order(&f).iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let mut seen: HashMap<PlayerId, Seen> = f.iter().map(|p| (p.id, Seen::default())).collect();
    let rounds = if n <= SMALL { n } else { (usize::BITS - n.leading_zeros()) as usize + 3 };
    let mut played: Vec<Round> = Vec::new();
    for number in 1..=rounds as u32 {
        if rng.f64() < 0.15 {
            let i = rng.usize(..n);
            f[i].active = false;
        }
        let active: Vec<PlayerId> = f.iter().filter(|p| p.active).map(|p| p.id).collect();
        let eligible = |seen: &HashMap<PlayerId, Seen>| {
            let mut e: Vec<PlayerId> = active.iter().copied().filter(|p| !seen[p].unplayed_win).collect();
            // Lowest score first, then lowest start rank.
            e.sort_by(|a, b| seen[a].points.total_cmp(&seen[b].points).then(rank[b].cmp(&rank[a])));
            e
        };
        let next = match swiss_round(&f, &played) {
            Ok(next) => next,
            Err(PairingError::TooFewPlayers { active: a, .. }) => {
                assert!(a < 2 && active.len() == a);
                return;
            }
            Err(PairingError::NoLegalPairing { round }) => {
                assert_eq!(round, number);
                assert!(active.len() <= SMALL, "round {number}: no pairing for {} players", active.len());
                let possible = if active.len().is_multiple_of(2) {
                    pairable(&seen, &active)
                } else {
                    eligible(&seen).iter().any(|&b| pairable_without(&seen, &active, b))
                };
                assert!(!possible, "round {number}: a legal pairing exists but the engine found none");
                return;
            }
            Err(e) => panic!("round {number}: {e}"),
        };

        // Every active player exactly once, nobody else.
        let mut in_round: Vec<PlayerId> = next.iter().flat_map(|p| [Some(p.white), p.black]).flatten().collect();
        in_round.sort_unstable();
        assert_eq!(in_round, active, "round {number}: everyone active once");

        let byes: Vec<&NewPairing> = next.iter().filter(|p| p.black.is_none()).collect();
        assert_eq!(byes.len(), active.len() % 2, "round {number}: a bye only when odd");
        if let Some(bye) = byes.first() {
            let b = bye.white;
            assert_eq!(bye.result, Some(WhiteWins));
            assert!(!seen[&b].unplayed_win, "round {number}: {b} had a bye or forfeit win already");
            // The lowest eligible for whom the rest can be paired; with many players the
            // lowest one always works in these events.
            let expected = eligible(&seen)
                .into_iter()
                .find(|&c| active.len() > SMALL || pairable_without(&seen, &active, c))
                .unwrap();
            assert_eq!(b, expected, "round {number}: bye");
        }

        for p in &next {
            let Some(black) = p.black else { continue };
            assert!(p.result.is_none());
            assert!(!seen[&p.white].opponents.contains(&black), "round {number}: rematch {} v {black}", p.white);
            for (id, white) in [(p.white, true), (black, false)] {
                let colours = &seen[&id].colours;
                assert!(legal_colour(colours, white), "round {number}: {id} with {colours:?} gets white = {white}");
            }
        }

        // Results: mostly played, some draws, a few forfeits.
        let finished: Vec<NewPairing> = next
            .iter()
            .map(|p| {
                let result = p.result.unwrap_or_else(|| match rng.u32(0..20) {
                    0 => WhiteWinsByForfeit,
                    1 => BlackWinsByForfeit,
                    2..=7 => Draw,
                    8..=13 => WhiteWins,
                    _ => BlackWins,
                });
                NewPairing { result: Some(result), ..p.clone() }
            })
            .collect();
        for p in &finished {
            let result = p.result.unwrap();
            let w = seen.get_mut(&p.white).unwrap();
            w.points += super::super::score_of(result, true);
            match p.black {
                None => {
                    w.byes += 1;
                    w.unplayed_win = true;
                    assert!(w.byes <= 1);
                }
                Some(black) => {
                    let forfeit = matches!(result, WhiteWinsByForfeit | BlackWinsByForfeit);
                    w.opponents.insert(black);
                    w.unplayed_win |= result == WhiteWinsByForfeit;
                    if !forfeit {
                        w.colours.push(true);
                    }
                    let b = seen.get_mut(&black).unwrap();
                    b.points += super::super::score_of(result, false);
                    b.opponents.insert(p.white);
                    b.unplayed_win |= result == BlackWinsByForfeit;
                    if !forfeit {
                        b.colours.push(false);
                    }
                }
            }
        }
        played.push(round(number, &finished));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_tournaments_keep_every_rule(n in 3usize..=64, seed in any::<u64>()) {
        random_tournament(n, seed);
    }
}

#[test]
fn small_fields_play_to_exhaustion() {
    // Many seeds on the fields where running out of legal pairings is likeliest.
    for seed in 0..400 {
        random_tournament(3 + (seed as usize % 9), seed);
    }
}
