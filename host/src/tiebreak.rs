//! Standings with FIDE's tie-breaks (Handbook C.07, Tie-Break Regulations, 2023 edition):
//! points, then Buchholz, then Sonneborn-Berger, then direct encounter.
//!
//! How each round counts, per player:
//! - a game played over the board: the result, against that opponent;
//! - an *unplayed round*: a forfeit (won or lost, double forfeits too), a bye, or a round the
//!   player was not paired in (withdrawn, knocked out). It scores what was awarded;
//! - a bye scoring nothing (the round-robin bye against the Berger dummy, see
//!   [`round_robin_round`](super::pairing::round_robin_round)) is no round at all: everyone sits
//!   out once, so it is left out of every sum, as FIDE does not count a round-robin bye;
//! - a pairing without a result yet (a game in progress) is left out until it has one.
//!
//! The 2023 rules for unplayed rounds (Article 16), as implemented here:
//! - **Dummy opponent**: each of a player's own unplayed rounds counts, for their Buchholz and
//!   Sonneborn-Berger, as a game against an opponent with the player's own final points.
//! - **Opponents' points** are their actual points, except that the *voluntarily unplayed
//!   rounds* (VUR: forfeit losses, unpaired rounds, byes of half a point) at the very end of
//!   their event, as after a withdrawal, count half a point each ("adjusted score").
//!
//! Definitions:
//! - Buchholz: the sum of the opponents' adjusted scores, one per round (dummy as above).
//! - Sonneborn-Berger: the sum, one per round, of the points the player scored that round times
//!   that round's opponent's adjusted score (dummy for unplayed rounds).
//! - Direct encounter (C.07 Article 6): among players still tied on points, Buchholz and
//!   Sonneborn-Berger, the points each scored in the games among exactly those players (forfeits
//!   included, as recorded), applied only when every two of them have met; otherwise it is 0 for
//!   all of them and they stay tied, sharing a rank.

use std::collections::{HashMap, HashSet};

use data::{PlayerId, Round};

use super::pairing::{played_over_board, score_of, start_order, Player};

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub player: PlayerId,
    /// 1 for the leader; players tied on everything share a rank (1, 1, 3, …).
    pub rank: u32,
    pub points: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    /// Points among the tied group when direct encounter applies, else 0.
    pub direct_encounter: f64,
    /// Pairings against an opponent with a result, forfeits included; byes are not games.
    pub games: u32,
    /// Of those games; forfeits count as the win or loss they were scored as.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A player's round as tie-breaks see it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    score: f64,
    opponent: Option<PlayerId>,
    played: bool,
    /// Voluntarily unplayed: a forfeit loss, an unpaired round, a half-point bye.
    vur: bool,
}

/// Final (or current) standings of the field, best first; within a shared rank, start order.
/// See the module doc for exactly how each tie-break is computed. Players in `played` who are
/// not in the field count as opponents but get no line.
pub fn standings(field: &[Player], played: &[Round]) -> Vec<Standing> {
    let order = start_order(field);
    let entries = entries(&order, played);
    let points = |id: PlayerId| entries.get(&id).map_or(0.0, |e| e.iter().map(|e| e.score).sum());
    let adjusted = |id: PlayerId| {
        let Some(rounds) = entries.get(&id) else { return 0.0 };
        let trailing = rounds.iter().rev().take_while(|e| e.vur).count();
        let counted: f64 = rounds[..rounds.len() - trailing].iter().map(|e| e.score).sum();
        counted + 0.5 * trailing as f64
    };

    let mut lines: Vec<Standing> = order
        .iter()
        .map(|p| {
            let own = points(p.id);
            let rounds = entries.get(&p.id).map(Vec::as_slice).unwrap_or_default();
            let opponent_value = |e: &Entry| match e.opponent {
                Some(o) if e.played => adjusted(o),
                _ => own,
            };
            let games: Vec<&Entry> = rounds.iter().filter(|e| e.opponent.is_some()).collect();
            let count = |score: f64| games.iter().filter(|e| e.score == score).count() as u32;
            Standing {
                player: p.id,
                rank: 0,
                points: own,
                buchholz: rounds.iter().map(opponent_value).sum(),
                sonneborn_berger: rounds.iter().map(|e| e.score * opponent_value(e)).sum(),
                direct_encounter: 0.0,
                games: games.len() as u32,
                wins: count(1.0),
                draws: count(0.5),
                losses: count(0.0),
            }
        })
        .collect();

    // Stable sort: equal lines stay in start order.
    let key = |s: &Standing| [s.points, s.buchholz, s.sonneborn_berger];
    lines.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb.iter().zip(&ka).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut start = 0;
    while start < lines.len() {
        let end = start + lines[start..].iter().take_while(|s| key(s) == key(&lines[start])).count();
        if end - start > 1 {
            direct_encounter(&mut lines[start..end], &entries);
        }
        start = end;
    }
    for i in 0..lines.len() {
        let tied = i > 0 && {
            let (a, b) = (&lines[i - 1], &lines[i]);
            key(a) == key(b) && a.direct_encounter == b.direct_encounter
        };
        lines[i].rank = if tied { lines[i - 1].rank } else { i as u32 + 1 };
    }
    lines
}

/// Scores and reorders a group tied on everything before direct encounter.
fn direct_encounter(group: &mut [Standing], entries: &HashMap<PlayerId, Vec<Entry>>) {
    let ids: HashSet<PlayerId> = group.iter().map(|s| s.player).collect();
    let among = |id: PlayerId| -> Vec<Entry> {
        let rounds = entries.get(&id).map(Vec::as_slice).unwrap_or_default();
        rounds.iter().filter(|e| e.opponent.is_some_and(|o| ids.contains(&o))).copied().collect()
    };
    let all_met = group.iter().all(|s| {
        let met: HashSet<PlayerId> = among(s.player).iter().filter_map(|e| e.opponent).collect();
        met.len() == ids.len() - 1
    });
    if !all_met {
        return;
    }
    for s in group.iter_mut() {
        s.direct_encounter = among(s.player).iter().map(|e| e.score).sum();
    }
    group.sort_by(|a, b| b.direct_encounter.total_cmp(&a.direct_encounter));
}

/// Every player's rounds, in order, from the stored ones (see the module doc).
fn entries(order: &[Player], played: &[Round]) -> HashMap<PlayerId, Vec<Entry>> {
    let mut entries: HashMap<PlayerId, Vec<Entry>> = order.iter().map(|p| (p.id, Vec::new())).collect();
    for round in played {
        let mut present: HashSet<PlayerId> = HashSet::new();
        for p in &round.pairings {
            present.insert(p.white);
            present.extend(p.black);
            let Some(result) = p.result else { continue };
            let over_board = played_over_board(Some(result));
            match p.black {
                None => {
                    let score = score_of(result, true);
                    if score > 0.0 {
                        let entry = Entry { score, opponent: None, played: false, vur: score < 1.0 };
                        entries.entry(p.white).or_default().push(entry);
                    }
                }
                Some(black) => {
                    for (me, other, white) in [(p.white, black, true), (black, p.white, false)] {
                        let score = score_of(result, white);
                        let vur = !over_board && score == 0.0;
                        let entry = Entry { score, opponent: Some(other), played: over_board, vur };
                        entries.entry(me).or_default().push(entry);
                    }
                }
            }
        }
        // In the field but not in this round at all: unpaired, a voluntarily unplayed round.
        for p in order {
            if !present.contains(&p.id) {
                let unpaired = Entry { score: 0.0, opponent: None, played: false, vur: true };
                entries.entry(p.id).or_default().push(unpaired);
            }
        }
    }
    entries
}

#[cfg(test)]
mod tests;
