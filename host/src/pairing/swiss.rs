//! Swiss pairing by the principles of the Dutch system (FIDE C.04.3).
//!
//! Absolute rules, never broken (if they cannot all hold, the round is
//! [`PairingError::NoLegalPairing`]):
//! - no two players meet twice (any earlier pairing of the two counts, forfeits included);
//! - nobody's colour difference (whites − blacks) leaves −2..=2, nobody gets one colour three
//!   games running (colours count games played over the board only);
//! - at most one bye per player, and none for someone who already scored a forfeit win (C.04.1).
//!
//! Within those, the Dutch preferences: players ranked by score, then start rank; score groups
//! paired top down, the top half against the bottom half (1 v 5, 2 v 6, … in a group of eight),
//! then exchanges within the group, the odd one out floating down to the next group; colour
//! clashes avoided where an alternative partner in the same half exists. Every choice is checked
//! with a perfect-matching test of the players still unpaired (see `matching`), so the greedy
//! order never paints itself into a corner: a round fails only when no legal pairing exists.
//!
//! Not implemented from C.04.3: the full optimisation of floats across rounds and the topscorer
//! relaxations of the last round; the bye goes to the lowest-ranked eligible player of the
//! lowest score group for whom the rest can still be paired.

mod matching;
#[cfg(test)]
mod tests;

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use data::{NewPairing, PairingResult, PlayerId, Round};

use super::{check_field, played_over_board, score_of, start_order, PairingError, Player};
use matching::has_perfect_matching;

/// One player's record as Swiss pairing needs it.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub id: PlayerId,
    /// Index in start order.
    pub rank: usize,
    pub active: bool,
    pub points: f64,
    pub opponents: HashSet<PlayerId>,
    /// Colours of the games played over the board, in order; `true` is white.
    pub colours: Vec<bool>,
    /// Had a bye or a forfeit win: no bye again.
    pub had_bye: bool,
}

impl Record {
    fn diff(&self) -> i32 {
        self.colours.iter().map(|&w| if w { 1 } else { -1 }).sum()
    }

    /// Whether the player may have this colour next game.
    pub(crate) fn may_have(&self, white: bool) -> bool {
        let after = self.diff() + if white { 1 } else { -1 };
        let n = self.colours.len();
        let third = n >= 2 && self.colours[n - 1] == white && self.colours[n - 2] == white;
        after.abs() <= 2 && !third
    }

    /// The colour the player is due, and how strongly (C.04.3 A.6): absolute beyond a difference
    /// of one or after two games of one colour, strong at a difference of one, mild otherwise.
    fn preference(&self) -> Option<(bool, Strength)> {
        let last = *self.colours.last()?;
        let n = self.colours.len();
        let repeated = n >= 2 && self.colours[n - 2] == last;
        Some(match self.diff() {
            d if d >= 2 => (false, Strength::Absolute),
            d if d <= -2 => (true, Strength::Absolute),
            _ if repeated => (!last, Strength::Absolute),
            1 => (false, Strength::Strong),
            -1 => (true, Strength::Strong),
            _ => (!last, Strength::Mild),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    Mild,
    Strong,
    Absolute,
}

/// Everyone's record from the rounds played. Unknown players and unfinished pairings are errors.
pub(crate) fn records(field: &[Player], played: &[Round]) -> Result<Vec<Record>, PairingError> {
    check_field(field)?;
    let order = start_order(field);
    let mut records: Vec<Record> = order
        .iter()
        .enumerate()
        .map(|(rank, p)| Record {
            id: p.id,
            rank,
            active: p.active,
            points: 0.0,
            opponents: HashSet::new(),
            colours: Vec::new(),
            had_bye: false,
        })
        .collect();
    let index: HashMap<PlayerId, usize> = records.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let at = |id: PlayerId| index.get(&id).copied().ok_or(PairingError::UnknownPlayer(id));
    for (number, round) in played.iter().enumerate() {
        for p in &round.pairings {
            let result = p.result.ok_or(PairingError::Unfinished { round: number as u32 + 1, board: p.board })?;
            let w = at(p.white)?;
            records[w].points += score_of(result, true);
            let Some(black) = p.black else {
                records[w].had_bye = true;
                continue;
            };
            let b = at(black)?;
            records[b].points += score_of(result, false);
            records[w].opponents.insert(black);
            records[b].opponents.insert(p.white);
            if played_over_board(Some(result)) {
                records[w].colours.push(true);
                records[b].colours.push(false);
            }
            match result {
                PairingResult::WhiteWinsByForfeit => records[w].had_bye = true,
                PairingResult::BlackWinsByForfeit => records[b].had_bye = true,
                _ => {}
            }
        }
    }
    Ok(records)
}

/// Two players may meet: they have not, and one colour assignment suits both.
pub(crate) fn compatible(a: &Record, b: &Record) -> bool {
    a.id != b.id
        && !a.opponents.contains(&b.id)
        && ((a.may_have(true) && b.may_have(false)) || (a.may_have(false) && b.may_have(true)))
}

/// Ranking for pairing: score, highest first, then start rank.
fn ranking(a: &Record, b: &Record) -> Ordering {
    b.points.total_cmp(&a.points).then(a.rank.cmp(&b.rank))
}

/// The next round by the Dutch system's principles (see the module doc). Only active players are
/// paired; `played` is every earlier round, in order, all finished. Deterministic. The bye is
/// `NewPairing { white, black: None, result: Some(WhiteWins) }`: a full point (FIDE's
/// pairing-allocated bye), on the last board. Boards go by the pair's higher score, then their
/// total, then the better ranking. Round 1 (or whenever neither player has a colour history)
/// gives the higher-ranked player white on odd boards and black on even ones.
pub fn swiss_round(field: &[Player], played: &[Round]) -> Result<Vec<NewPairing>, PairingError> {
    let round = played.len() as u32 + 1;
    let mut records = records(field, played)?;
    records.retain(|r| r.active);
    records.sort_by(ranking);
    if records.len() < 2 {
        return Err(PairingError::TooFewPlayers { active: records.len(), needed: 2 });
    }
    let ok = |a: usize, b: usize| compatible(&records[a], &records[b]);
    let all: Vec<usize> = (0..records.len()).collect();

    let bye = if !all.len().is_multiple_of(2) {
        let mut eligible: Vec<usize> = all.iter().copied().filter(|&i| !records[i].had_bye).collect();
        // Lowest score group first, lowest ranked first within it: the reverse of the ranking.
        eligible.reverse();
        let chosen = eligible.into_iter().find(|&i| {
            let rest: Vec<usize> = all.iter().copied().filter(|&j| j != i).collect();
            has_perfect_matching(&rest, ok)
        });
        Some(chosen.ok_or(PairingError::NoLegalPairing { round })?)
    } else {
        None
    };
    let mut unpaired: Vec<usize> = all.iter().copied().filter(|&i| Some(i) != bye).collect();
    if !has_perfect_matching(&unpaired, ok) {
        return Err(PairingError::NoLegalPairing { round });
    }

    let mut pairs = Vec::new();
    while let Some(&top) = unpaired.first() {
        let partner = candidates(&records, &unpaired)
            .into_iter()
            .find(|&c| {
                ok(top, c) && {
                    let rest: Vec<usize> = unpaired.iter().copied().filter(|&j| j != top && j != c).collect();
                    has_perfect_matching(&rest, ok)
                }
            })
            // The unpaired players have a perfect matching, so the top one has a partner in it.
            .ok_or(PairingError::NoLegalPairing { round })?;
        unpaired.retain(|&j| j != top && j != partner);
        pairs.push((top, partner));
    }

    // Boards: the higher score, then the total, then the better ranking (indices are rankings).
    let points = |i: usize| records[i].points;
    pairs.sort_by(|&(a, b), &(c, d)| {
        let (high1, high2) = (points(a).max(points(b)), points(c).max(points(d)));
        high2.total_cmp(&high1).then((points(c) + points(d)).total_cmp(&(points(a) + points(b)))).then(a.cmp(&c))
    });
    let mut pairings: Vec<NewPairing> = pairs
        .iter()
        .enumerate()
        .map(|(board, &(a, b))| {
            let (white, black) = if a_is_white(&records[a], &records[b], board) { (a, b) } else { (b, a) };
            NewPairing { white: records[white].id, black: Some(records[black].id), result: None }
        })
        .collect();
    if let Some(i) = bye {
        pairings.push(NewPairing { white: records[i].id, black: None, result: Some(PairingResult::WhiteWins) });
    }
    Ok(pairings)
}

/// Partners for the top unpaired player in the order the Dutch system prefers them: the bottom
/// half of its score group from the top (S2), then the rest of the top half from the bottom
/// (exchanges), then the lower groups in ranking order; within each, partners without a colour
/// clash first.
fn candidates(records: &[Record], unpaired: &[usize]) -> Vec<usize> {
    let top = unpaired[0];
    let score = records[top].points;
    let group_len = unpaired.iter().take_while(|&&i| records[i].points == score).count();
    let half = (group_len / 2).max(1);
    let s2 = &unpaired[half..group_len];
    let s1: Vec<usize> = unpaired[1..half].iter().rev().copied().collect();
    let clash = |i: usize| match (records[top].preference(), records[i].preference()) {
        (Some((a, _)), Some((b, _))) => a == b,
        _ => false,
    };
    let mut order = Vec::with_capacity(unpaired.len());
    let mut tier = |players: &[usize]| {
        order.extend(players.iter().filter(|&&i| !clash(i)));
        order.extend(players.iter().filter(|&&i| clash(i)));
    };
    tier(s2);
    tier(&s1);
    for group in unpaired[group_len..].chunk_by(|&a, &b| records[a].points == records[b].points) {
        tier(group);
    }
    order
}

/// Whether `a` (the higher-ranked of the two) gets white (C.04.3 A.6/A.7, simplified): the only
/// legal way if just one is; both preferences when they differ; else the stronger preference,
/// the wider colour difference, the alternation from the last game in which their colours
/// differed, and finally the higher-ranked player's preference. Without any history, the board
/// decides: white on odd boards (`board` counts from 0).
fn a_is_white(a: &Record, b: &Record, board: usize) -> bool {
    let a_white = a.may_have(true) && b.may_have(false);
    let b_white = b.may_have(true) && a.may_have(false);
    if a_white != b_white {
        return a_white;
    }
    match (a.preference(), b.preference()) {
        (None, None) => board.is_multiple_of(2),
        (Some((colour, _)), None) => colour,
        (None, Some((colour, _))) => !colour,
        (Some((ca, _)), Some((cb, _))) if ca != cb => ca,
        (Some((ca, sa)), Some((_, sb))) => {
            if sa != sb {
                return if sa > sb { ca } else { !ca };
            }
            let (da, db) = (a.diff().abs(), b.diff().abs());
            if da != db {
                return if da > db { ca } else { !ca };
            }
            let differed = a.colours.iter().rev().zip(b.colours.iter().rev()).find(|(x, y)| x != y);
            match differed {
                Some((&a_had_white, _)) => !a_had_white,
                None => ca,
            }
        }
    }
}
