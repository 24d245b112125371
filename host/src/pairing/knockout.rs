//! Knockout brackets seeded by start rank.
//!
//! The bracket has `2^rounds` slots filled in the standard order (1 v 16, 8 v 9, 4 v 13, …), so
//! seeds 1 and 2 can meet only in the final. Empty slots are byes, which therefore go to the top
//! seeds. The bracket position of every later pairing comes from where its players started in
//! round 1, so an empty branch (a double forfeit) never shifts the others.

use data::{NewPairing, Pairing, PairingResult, PlayerId, Round};

use super::{check_field, game, start_order, PairingError, Player};

/// Number of rounds for `n` entrants: ceil(log2 n) (0 for fewer than two).
pub fn knockout_rounds(n: usize) -> u32 {
    if n < 2 {
        0
    } else {
        n.next_power_of_two().trailing_zeros()
    }
}

/// Seeds (1-based) in bracket order for a bracket of `size` (a power of two) slots.
fn bracket(size: usize) -> Vec<usize> {
    let mut slots = vec![1];
    while slots.len() < size {
        let len = 2 * slots.len();
        slots = slots.iter().flat_map(|&s| [s, len + 1 - s]).collect();
    }
    slots
}

/// The next round of a knockout.
///
/// Round 1 (`played` empty): the active players seeded by start rank into the bracket, higher
/// seed white, byes (`result: Some(WhiteWins)`) to the top seeds when the field is not a power of
/// two. Later rounds: the winners of the previous round (see [`knockout_winner`]) in bracket
/// order; whoever has had fewer whites gets white, the better seed on a tie.
///
/// - A pairing without a result is [`PairingError::Unfinished`], a drawn one
///   [`PairingError::Drawn`]: the host plays its decider and records the decisive result first.
/// - `DoubleForfeit`: nobody advances; the neighbouring winner gets a bye.
/// - A withdrawn winner: the pairing is created already decided, a forfeit win for the opponent
///   (`DoubleForfeit` if both withdrew; a withdrawn player drawn a bye gets a bye scored
///   `DoubleForfeit`, so nobody advances from it).
/// - After the final: [`PairingError::RoundOutOfRange`].
///
/// The host must keep the boards in the order returned: round 1's board order is the bracket.
pub fn knockout_round(field: &[Player], played: &[Round]) -> Result<Vec<NewPairing>, PairingError> {
    check_field(field)?;
    let order = start_order(field);
    let Some(first) = played.first() else { return first_round(&order) };
    let seed_of = |id: PlayerId| order.iter().position(|p| p.id == id).ok_or(PairingError::UnknownPlayer(id));

    // Where everyone started: the index of their round-1 pairing.
    let mut first_pairings: Vec<&Pairing> = first.pairings.iter().collect();
    first_pairings.sort_by_key(|p| p.board);
    let size = 2 * first_pairings.len();
    let rounds = size.trailing_zeros();
    let next = played.len() as u32 + 1;
    if !size.is_power_of_two() || size < 2 {
        return Err(PairingError::Inconsistent("round 1 of a knockout has a power-of-two number of slots"));
    }
    if next > rounds {
        return Err(PairingError::RoundOutOfRange { round: next, rounds });
    }
    let mut start_match = std::collections::HashMap::new();
    for (i, p) in first_pairings.iter().enumerate() {
        start_match.insert(p.white, i);
        if let Some(b) = p.black {
            start_match.insert(b, i);
        }
    }

    // Slots of the previous round: its winners by bracket position.
    let previous = played.len();
    let mut slots: Vec<Option<PlayerId>> = vec![None; size >> previous];
    let mut filled = vec![false; slots.len()];
    for p in &played[previous - 1].pairings {
        let round = previous as u32;
        match p.result {
            None => return Err(PairingError::Unfinished { round, board: p.board }),
            Some(PairingResult::Draw) => return Err(PairingError::Drawn { round, board: p.board }),
            Some(_) => {}
        }
        let start = *start_match.get(&p.white).ok_or(PairingError::UnknownPlayer(p.white))?;
        let position = start >> (previous - 1);
        match filled.get_mut(position) {
            None => return Err(PairingError::Inconsistent("a pairing outside the bracket")),
            Some(true) => return Err(PairingError::Inconsistent("two pairings in one bracket position")),
            Some(seen) => *seen = true,
        }
        slots[position] = knockout_winner(p);
    }

    let whites =
        |id: PlayerId| played.iter().flat_map(|r| &r.pairings).filter(|p| p.white == id && p.black.is_some()).count();
    let mut pairings = Vec::new();
    for pair in slots.chunks(2) {
        let player = |slot: Option<&Option<PlayerId>>| match slot.copied().flatten() {
            Some(id) => seed_of(id).map(|s| Some((s, &order[s]))),
            None => Ok(None),
        };
        match (player(pair.first())?, player(pair.get(1))?) {
            (None, None) => {}
            (Some((_, p)), None) | (None, Some((_, p))) => pairings.push(bye(p)),
            (Some((sa, a)), Some((sb, b))) => {
                let a_white = (whites(a.id), sa) < (whites(b.id), sb);
                pairings.push(if a_white { game(a, b) } else { game(b, a) });
            }
        }
    }
    Ok(pairings)
}

fn first_round(order: &[Player]) -> Result<Vec<NewPairing>, PairingError> {
    let seeds: Vec<&Player> = order.iter().filter(|p| p.active).collect();
    if seeds.len() < 2 {
        return Err(PairingError::TooFewPlayers { active: seeds.len(), needed: 2 });
    }
    let size = seeds.len().next_power_of_two();
    let slots = bracket(size);
    Ok(slots
        .chunks(2)
        .map(|pair| {
            // The first of each pair is the better seed; only the second can be missing.
            let top = seeds[pair[0] - 1];
            match seeds.get(pair[1] - 1) {
                Some(other) => game(top, other),
                None => bye(top),
            }
        })
        .collect())
}

fn bye(p: &Player) -> NewPairing {
    let result = if p.active { PairingResult::WhiteWins } else { PairingResult::DoubleForfeit };
    NewPairing { white: p.id, black: None, result: Some(result) }
}

/// Who went through from a finished knockout pairing: the winner of a decisive result (over the
/// board or by forfeit), white for a bye scored `WhiteWins`; nobody for a double forfeit, a
/// draw, a bye that scored nothing, or a pairing without a result.
pub fn knockout_winner(pairing: &Pairing) -> Option<PlayerId> {
    use PairingResult::*;
    match (pairing.result?, pairing.black) {
        (WhiteWins | WhiteWinsByForfeit, _) => Some(pairing.white),
        (BlackWins | BlackWinsByForfeit, Some(black)) => Some(black),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{field, round};
    use super::*;

    fn decided(pairings: &[NewPairing], winner: impl Fn(PlayerId, PlayerId) -> PlayerId) -> Vec<NewPairing> {
        pairings
            .iter()
            .map(|p| {
                let mut p = p.clone();
                if p.result.is_none() {
                    let b = p.black.unwrap();
                    let w = winner(p.white, b);
                    p.result = Some(if w == p.white { PairingResult::WhiteWins } else { PairingResult::BlackWins });
                }
                p
            })
            .collect()
    }

    fn pairs(pairings: &[NewPairing]) -> Vec<(PlayerId, Option<PlayerId>)> {
        pairings.iter().map(|p| (p.white, p.black)).collect()
    }

    /// Plays a whole knockout, favourites (lower id) winning; returns every round's pairs.
    fn favourites_win(n: usize) -> Vec<Vec<(PlayerId, Option<PlayerId>)>> {
        let f = field(n);
        let mut played = Vec::new();
        let mut all = Vec::new();
        loop {
            match knockout_round(&f, &played) {
                Ok(next) => {
                    all.push(pairs(&next));
                    let done = decided(&next, |a, b| a.min(b));
                    played.push(round(played.len() as u32 + 1, &done));
                }
                Err(PairingError::RoundOutOfRange { round, rounds }) => {
                    assert_eq!((round, rounds), (knockout_rounds(n) + 1, knockout_rounds(n)));
                    return all;
                }
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn round_counts() {
        let expected = [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5)];
        for (n, rounds) in expected {
            assert_eq!(knockout_rounds(n), rounds, "{n} entrants");
        }
    }

    #[test]
    fn four_players() {
        let all = favourites_win(4);
        assert_eq!(all, vec![vec![(1, Some(4)), (2, Some(3))], vec![(1, Some(2))]]);
    }

    #[test]
    fn five_players_top_seeds_get_byes() {
        let all = favourites_win(5);
        // Bracket of 8: 1-8 4-5 2-7 3-6; seeds 6, 7, 8 are missing, so 1, 2 and 3 have byes.
        assert_eq!(all[0], vec![(1, None), (4, Some(5)), (2, None), (3, None)]);
        // 1 (bye) v 4, and 2 v 3; 1 had no white yet, neither had 4: the better seed takes white.
        assert_eq!(all[1], vec![(1, Some(4)), (2, Some(3))]);
        assert_eq!(all[2], vec![(1, Some(2))]);
    }

    #[test]
    fn eight_players_seeds_one_and_two_meet_in_the_final() {
        let all = favourites_win(8);
        assert_eq!(all[0], vec![(1, Some(8)), (4, Some(5)), (2, Some(7)), (3, Some(6))]);
        // Everyone who won had white: better seed white.
        assert_eq!(all[1], vec![(1, Some(4)), (2, Some(3))]);
        assert_eq!(all[2], vec![(1, Some(2))]);
        for n in 2..=33 {
            let all = favourites_win(n);
            let met = |a, b| all.iter().position(|r| r.contains(&(a, Some(b))) || r.contains(&(b, Some(a))));
            assert_eq!(met(1, 2), Some(all.len() - 1), "{n} entrants");
            assert_eq!(all.last().unwrap().len(), 1);
        }
    }

    #[test]
    fn upsets_colours_and_byes_after_double_forfeit() {
        let f = field(8);
        let r1 = knockout_round(&f, &[]).unwrap();
        // 8 beats 1; 4-5 is a double forfeit; 7 beats 2; 3 beats 6.
        let mut done = decided(&r1, |a, b| a.max(b));
        done[1].result = Some(PairingResult::DoubleForfeit);
        done[3].result = Some(PairingResult::WhiteWins);
        let played = vec![round(1, &done)];
        let r2 = knockout_round(&f, &played).unwrap();
        // 8 had black, so white now; 3 had white, 7 black: 7 white.
        assert_eq!(pairs(&r2), vec![(8, None), (7, Some(3))]);
        assert_eq!(r2[0].result, Some(PairingResult::WhiteWins));
    }

    #[test]
    fn withdrawn_winner_forfeits_next_game() {
        let mut f = field(4);
        let r1 = knockout_round(&f, &[]).unwrap();
        let played = vec![round(1, &decided(&r1, |a, b| a.min(b)))];
        f[0].active = false;
        let r2 = knockout_round(&f, &played).unwrap();
        assert_eq!(r2, vec![NewPairing { white: 1, black: Some(2), result: Some(PairingResult::BlackWinsByForfeit) }]);
    }

    #[test]
    fn undecided_rounds_are_errors() {
        let f = field(4);
        let r1 = knockout_round(&f, &[]).unwrap();
        let mut done = decided(&r1, |a, b| a.min(b));
        done[1].result = Some(PairingResult::Draw);
        assert_eq!(knockout_round(&f, &[round(1, &done)]), Err(PairingError::Drawn { round: 1, board: 2 }));
        done[1].result = None;
        assert_eq!(knockout_round(&f, &[round(1, &done)]), Err(PairingError::Unfinished { round: 1, board: 2 }));
        assert_eq!(knockout_round(&field(1), &[]), Err(PairingError::TooFewPlayers { active: 1, needed: 2 }));
        let stranger = vec![
            NewPairing { white: 99, black: Some(2), result: Some(PairingResult::WhiteWins) },
            NewPairing { white: 3, black: Some(4), result: Some(PairingResult::WhiteWins) },
        ];
        assert_eq!(knockout_round(&f, &[round(1, &stranger)]), Err(PairingError::UnknownPlayer(99)));
    }
}
