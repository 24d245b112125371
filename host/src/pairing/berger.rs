//! Round robin by the FIDE Berger tables (Handbook C.05, Annex 1).
//!
//! For `m` = n/2 (n even, a dummy added when odd), round `r` puts start number
//! `p = (r-1)·m mod (n-1) + 1` against `n` (p has white in odd rounds, n in even ones), and
//! pairs `p+k` (white) with `p-k` (black), counted round the circle 1..n-1, for k = 1..m-1. This
//! is the rotation the published tables are written from; the tests hold it to them.

use data::{NewPairing, PairingResult};

use super::{check_field, game, start_order, PairingError, Player};

/// The published FIDE Berger table: pairs of start numbers (1-based), white first, for `round`
/// (1-based) of a round robin of `n` players, the game against `n` (or the dummy) first as the
/// tables print it. Odd `n` adds a dummy `n+1` whose opponent has the bye. Empty when the round
/// does not exist.
pub fn berger_table(n: usize, round: u32) -> Vec<(usize, usize)> {
    let n = n + n % 2;
    let round = round as usize;
    if n < 2 || round == 0 || round > n - 1 {
        return Vec::new();
    }
    let (m, circle) = (n / 2, n - 1);
    // Start number at 0-based circle position `i`.
    let at = |i: usize| i % circle + 1;
    let p = (round - 1) * m % circle;
    let mut pairs = Vec::with_capacity(m);
    pairs.push(if !round.is_multiple_of(2) { (at(p), n) } else { (n, at(p)) });
    for k in 1..m {
        pairs.push((at(p + k), at(p + circle - k)));
    }
    pairs
}

/// Rounds of a round robin of `n` players: each meets every other once (twice when `double`).
pub fn round_robin_rounds(n: usize, double: bool) -> u32 {
    if n < 2 {
        return 0;
    }
    let single = (n + n % 2 - 1) as u32;
    if double {
        2 * single
    } else {
        single
    }
}

/// The pairings of round `round` (1-based) for the field, numbered by [`start_order`] (withdrawn
/// players keep their numbers: the table is fixed at the start).
///
/// A double round robin plays the table twice, the second cycle with colours swapped; as C.05
/// recommends, the first cycle plays its last two rounds in swapped order, which is what keeps
/// anyone from three same colours in a row across the turn.
///
/// Byes (odd field): the player drawn against the dummy sits out, as
/// `NewPairing { white: p, black: None, result: Some(BlackWins) }`: a bye worth **0 points**, the
/// FIDE practice for round robins (everyone sits out once, so it is no result at all).
/// [`standings`](crate::tiebreak::standings) ignores such a bye entirely.
///
/// Withdrawn players: their games are decided at once, a forfeit win for an active opponent
/// (`WhiteWinsByForfeit` / `BlackWinsByForfeit`) or `DoubleForfeit` when both are withdrawn.
pub fn round_robin_round(field: &[Player], round: u32, double: bool) -> Result<Vec<NewPairing>, PairingError> {
    check_field(field)?;
    let n = field.len();
    if n < 2 {
        return Err(PairingError::TooFewPlayers { active: n, needed: 2 });
    }
    let rounds = round_robin_rounds(n, double);
    if round == 0 || round > rounds {
        return Err(PairingError::RoundOutOfRange { round, rounds });
    }
    let single = if double { rounds / 2 } else { rounds };
    let (table_round, swap) = match round {
        r if r > single => (r - single, true),
        r if double && single >= 3 && r == single - 1 => (single, false),
        r if double && single >= 3 && r == single => (single - 1, false),
        r => (r, false),
    };
    let order = start_order(field);
    let player = |number: usize| order.get(number - 1);
    let pairings = berger_table(n, table_round)
        .into_iter()
        .filter_map(|(w, b)| {
            let (w, b) = if swap { (b, w) } else { (w, b) };
            // A table pair names at most one dummy, so (None, None) never happens.
            match (player(w), player(b)) {
                (Some(w), Some(b)) => Some(game(w, b)),
                (Some(p), None) | (None, Some(p)) => {
                    Some(NewPairing { white: p.id, black: None, result: Some(PairingResult::BlackWins) })
                }
                (None, None) => None,
            }
        })
        .collect();
    Ok(pairings)
}

#[cfg(test)]
mod tests {
    use super::super::testing::field;
    use super::*;

    /// Parses a published table: one line per round, pairs `w-b` separated by spaces.
    fn published(text: &str) -> Vec<Vec<(usize, usize)>> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|line| {
                line.split_whitespace()
                    .map(|pair| {
                        let (w, b) = pair.split_once('-').unwrap();
                        (w.parse().unwrap(), b.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    // The FIDE Handbook C.05 Annex 1 tables, typed in from the published text.
    const FOUR: &str = "
        1-4 2-3
        4-3 1-2
        2-4 3-1";
    const SIX: &str = "
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1";
    const EIGHT: &str = "
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1";
    const TEN: &str = "
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1";

    #[test]
    fn tables_equal_the_published_ones() {
        for (n, text) in [(4, FOUR), (6, SIX), (8, EIGHT), (10, TEN)] {
            let table = published(text);
            assert_eq!(table.len(), n - 1, "published table for {n}");
            assert_eq!(round_robin_rounds(n, false) as usize, n - 1);
            for (r, expected) in table.iter().enumerate() {
                assert_eq!(&berger_table(n, r as u32 + 1), expected, "n = {n}, round {}", r + 1);
                // The odd field one smaller uses the same table.
                assert_eq!(&berger_table(n - 1, r as u32 + 1), expected, "n = {}, round {}", n - 1, r + 1);
            }
            assert!(berger_table(n, 0).is_empty() && berger_table(n, n as u32).is_empty());
        }
    }

    #[test]
    fn everyone_meets_once_with_balanced_colours() {
        for n in 2..=16usize {
            let rounds = round_robin_rounds(n, false);
            let mut met = vec![vec![0; n + 2]; n + 2];
            let mut whites = vec![0i32; n + 2];
            let mut games = vec![0i32; n + 2];
            for r in 1..=rounds {
                let pairs = berger_table(n, r);
                let mut seen = vec![false; n + 2];
                for (w, b) in pairs {
                    assert!(!seen[w] && !seen[b], "n = {n}: someone twice in round {r}");
                    seen[w] = true;
                    seen[b] = true;
                    met[w][b] += 1;
                    met[b][w] += 1;
                    if w <= n && b <= n {
                        whites[w] += 1;
                        games[w] += 1;
                        games[b] += 1;
                    }
                }
            }
            let size = n + n % 2;
            for (a, row) in met.iter().enumerate().take(size + 1).skip(1) {
                for (b, &count) in row.iter().enumerate().take(size + 1).skip(1) {
                    assert_eq!(count, i32::from(a != b), "n = {n}: {a} and {b}");
                }
            }
            for p in 1..=n {
                let blacks = games[p] - whites[p];
                assert!(
                    (whites[p] - blacks).abs() <= 1,
                    "n = {n}: player {p} has {} whites, {blacks} blacks",
                    whites[p]
                );
            }
        }
    }

    #[test]
    fn rounds_map_to_players_and_byes() {
        let f = field(5);
        assert_eq!(round_robin_rounds(5, false), 5);
        // Round 1 of the six-table: 1-6 2-5 3-4, with 6 the dummy: player 1 sits out.
        let r1 = round_robin_round(&f, 1, false).unwrap();
        assert_eq!(
            r1,
            vec![
                NewPairing { white: 1, black: None, result: Some(PairingResult::BlackWins) },
                NewPairing { white: 2, black: Some(5), result: None },
                NewPairing { white: 3, black: Some(4), result: None },
            ]
        );
        // Everyone sits out exactly once.
        let mut byes = [0; 6];
        for r in 1..=5 {
            for p in round_robin_round(&f, r, false).unwrap() {
                if p.black.is_none() {
                    byes[p.white as usize] += 1;
                }
            }
        }
        assert_eq!(&byes[1..], [1, 1, 1, 1, 1]);
    }

    #[test]
    fn field_is_numbered_by_start_order() {
        let f = vec![
            Player { id: 10, rating: 1200.0, active: true },
            Player { id: 11, rating: 1900.0, active: true },
            Player { id: 12, rating: 1500.0, active: true },
            Player { id: 13, rating: 1500.0, active: true },
        ];
        // Start numbers: 1 = 11, 2 = 12, 3 = 13, 4 = 10. Round 1: 1-4 2-3.
        let r1 = round_robin_round(&f, 1, false).unwrap();
        let ids: Vec<_> = r1.iter().map(|p| (p.white, p.black.unwrap())).collect();
        assert_eq!(ids, [(11, 10), (12, 13)]);
    }

    #[test]
    fn withdrawn_players_forfeit() {
        let mut f = field(4);
        f[1].active = false; // start number 2
        f[3].active = false; // start number 4
                             // Round 2 of the four-table: 4-3 1-2.
        let r2 = round_robin_round(&f, 2, false).unwrap();
        assert_eq!(r2[0], NewPairing { white: 4, black: Some(3), result: Some(PairingResult::BlackWinsByForfeit) });
        assert_eq!(r2[1], NewPairing { white: 1, black: Some(2), result: Some(PairingResult::WhiteWinsByForfeit) });
        // Round 1: 1-4 2-3, round 3: 2-4 3-1.
        assert_eq!(round_robin_round(&f, 1, false).unwrap()[0].result, Some(PairingResult::WhiteWinsByForfeit));
        assert_eq!(round_robin_round(&f, 3, false).unwrap()[0].result, Some(PairingResult::DoubleForfeit));
    }

    #[test]
    fn double_round_robin_swaps_colours_and_avoids_three_in_a_row() {
        for n in 3..=12usize {
            let f = field(n);
            let rounds = round_robin_rounds(n, true);
            assert_eq!(rounds, 2 * round_robin_rounds(n, false));
            let mut colours: Vec<Vec<bool>> = vec![Vec::new(); n + 1];
            let mut games = std::collections::HashMap::new();
            for r in 1..=rounds {
                for p in round_robin_round(&f, r, true).unwrap() {
                    if let Some(b) = p.black {
                        colours[p.white as usize].push(true);
                        colours[b as usize].push(false);
                        *games.entry((p.white, b)).or_insert(0) += 1;
                    }
                }
            }
            for a in 1..=n as i64 {
                for b in 1..=n as i64 {
                    if a != b {
                        assert_eq!(games.get(&(a, b)), Some(&1), "n = {n}: {a} white against {b} once");
                    }
                }
                let c = &colours[a as usize];
                assert!(c.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])), "n = {n}: player {a}: {c:?}");
            }
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(round_robin_round(&field(1), 1, false), Err(PairingError::TooFewPlayers { active: 1, needed: 2 }));
        assert_eq!(round_robin_round(&field(4), 4, false), Err(PairingError::RoundOutOfRange { round: 4, rounds: 3 }));
        assert_eq!(round_robin_round(&field(4), 0, true), Err(PairingError::RoundOutOfRange { round: 0, rounds: 6 }));
        assert_eq!(round_robin_rounds(1, true), 0);
    }
}
