//! TEMPORARY stand-in until branch `pairing` brings the real tie-break engine: points and game
//! counts only, no tie-breaks. Replaced on merge.

use data::{PlayerId, Round};

use super::pairing::{score_of, Player};

#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub player: PlayerId,
    pub rank: u32,
    pub points: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    pub direct_encounter: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

pub fn standings(field: &[Player], played: &[Round]) -> Vec<Standing> {
    let mut rows: Vec<Standing> = field
        .iter()
        .map(|p| Standing {
            player: p.id,
            rank: 0,
            points: 0.0,
            buchholz: 0.0,
            sonneborn_berger: 0.0,
            direct_encounter: 0.0,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        })
        .collect();
    for pairing in played.iter().flat_map(|r| &r.pairings) {
        let Some(result) = pairing.result else { continue };
        for (id, white) in [(Some(pairing.white), true), (pairing.black, false)] {
            let Some(row) = rows.iter_mut().find(|r| Some(r.player) == id) else { continue };
            row.points += score_of(result, white);
        }
    }
    rows.sort_by(|a, b| b.points.total_cmp(&a.points));
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i as u32 + 1;
    }
    rows
}
