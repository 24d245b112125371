//! A game's analysis as `/analyse` left it: the evaluation of every position, each move's
//! judgement with the engine's better move, and both players' accuracy. Kept so that a game's
//! page shows the graph and the marks without searching again.
//!
//! Saving replaces the game's earlier analysis whole, in the caller's transaction: a reader sees
//! the old one or the new one, never a mix.

use crate::db::{ReadTx, WriteTx};
use crate::error::{ColumnError, Error, Result};
use crate::games::Color;
use crate::sql::{params, sql};
use crate::text::text_enum;
use crate::{GameId, Millis};

text_enum! {
    /// How bad a move was, by the winning chances it gave away.
    pub enum Judgement ("judgement") {
        Inaccuracy => "inaccuracy",
        Mistake => "mistake",
        Blunder => "blunder",
    }
}

/// A position's evaluation from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Hundredths of a pawn, positive when White is better.
    Centipawns(i32),
    /// `winner` mates in `moves` moves; 0 when the position is checkmate.
    Mate { winner: Color, moves: u32 },
}

/// One position of an analysed game: its evaluation, and the move that led to it (none for the
/// start) as the analysis judged it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysedPly {
    pub eval: Eval,
    pub judgement: Option<Judgement>,
    /// The engine's move where it differs from the one played (in the variant's notation).
    pub better: Option<String>,
}

/// A game's analysis: `plies[i]` is the position after `i` plies.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub game: GameId,
    pub plies: Vec<AnalysedPly>,
    /// White's and Black's accuracy in percent (`None` for a side that never moved).
    pub accuracy: [Option<f64>; 2],
    pub analysed_at: Millis,
}

impl ReadTx<'_> {
    /// The game's analysis, if `/analyse` has run for it.
    pub fn analysis(&self, game: GameId) -> Result<Option<Analysis>> {
        let head = self.conn().query_opt(
            sql!("SELECT white_accuracy, black_accuracy, analysed_at FROM analyses WHERE game_id = $1"),
            params![game],
            |row| Ok(([row.get::<Option<f64>>(0)?, row.get::<Option<f64>>(1)?], row.get::<Millis>(2)?)),
        )?;
        let Some((accuracy, analysed_at)) = head else { return Ok(None) };
        let plies = self.conn().query(
            sql!(
                "SELECT centipawns, mate_winner, mate_moves, judgement, better FROM analysis_plies
                 WHERE game_id = $1 ORDER BY ply"
            ),
            params![game],
            |row| {
                let eval = match (row.get::<Option<i64>>(0)?, row.get::<Option<Color>>(1)?, row.get::<Option<u32>>(2)?)
                {
                    (Some(cp), None, None) => Eval::Centipawns(i32::try_from(cp).map_err(|_| Error::Column {
                        column: 0,
                        problem: ColumnError::OutOfRange { value: cp, target: "i32" },
                    })?),
                    (None, Some(winner), Some(moves)) => Eval::Mate { winner, moves },
                    // The table's checks allow nothing else.
                    _ => {
                        return Err(Error::Column {
                            column: 0,
                            problem: ColumnError::Type { expected: "centipawns or a mate", found: "both or neither" },
                        })
                    }
                };
                Ok(AnalysedPly { eval, judgement: row.get(3)?, better: row.get(4)? })
            },
        )?;
        Ok(Some(Analysis { game, plies, accuracy, analysed_at }))
    }
}

impl WriteTx<'_> {
    /// Keeps `analysis`, in place of the game's earlier one.
    pub fn save_analysis(&self, analysis: &Analysis) -> Result<()> {
        let game = analysis.game;
        // The plies go with their row (ON DELETE CASCADE).
        self.conn().execute(sql!("DELETE FROM analyses WHERE game_id = $1"), params![game])?;
        self.conn().execute(
            sql!(
                "INSERT INTO analyses (game_id, white_accuracy, black_accuracy, analysed_at)
                 VALUES ($1, $2, $3, $4)"
            ),
            params![game, analysis.accuracy[0], analysis.accuracy[1], analysis.analysed_at],
        )?;
        for (ply, p) in analysis.plies.iter().enumerate() {
            let (cp, winner, moves) = match p.eval {
                Eval::Centipawns(cp) => (Some(i64::from(cp)), None, None),
                Eval::Mate { winner, moves } => (None, Some(winner), Some(moves)),
            };
            self.conn().execute(
                sql!(
                    "INSERT INTO analysis_plies (game_id, ply, centipawns, mate_winner, mate_moves, judgement, better)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)"
                ),
                params![game, ply as i64, cp, winner, moves, p.judgement, p.better.as_deref()],
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{AnalysedPly, Analysis, Eval, Judgement};
    use crate::games::Color;
    use crate::testing::{on_both_backends, store_with_game, TestDb};

    fn ply(eval: Eval, judgement: Option<Judgement>, better: Option<&str>) -> AnalysedPly {
        AnalysedPly { eval, judgement, better: better.map(Into::into) }
    }

    fn an_analysis_reads_back_as_saved_and_a_second_replaces_it(db: &TestDb) {
        let (mut store, game, _, _) = store_with_game(db);
        assert_eq!(store.read(|tx| tx.analysis(game)).unwrap(), None, "none before /analyse");
        let first = Analysis {
            game,
            plies: vec![
                ply(Eval::Centipawns(20), None, None),
                ply(Eval::Centipawns(-310), Some(Judgement::Blunder), Some("Nf3")),
                ply(Eval::Mate { winner: Color::Black, moves: 2 }, Some(Judgement::Inaccuracy), None),
                ply(Eval::Mate { winner: Color::Black, moves: 0 }, None, None),
            ],
            accuracy: [Some(41.5), None],
            analysed_at: 7,
        };
        store.write(|tx| tx.save_analysis(&first)).unwrap();
        assert_eq!(store.read(|tx| tx.analysis(game)).unwrap().as_ref(), Some(&first));

        let second =
            Analysis { plies: first.plies[..2].to_vec(), accuracy: [Some(90.0), Some(88.25)], analysed_at: 9, ..first };
        store.write(|tx| tx.save_analysis(&second)).unwrap();
        assert_eq!(store.read(|tx| tx.analysis(game)).unwrap(), Some(second), "replaced whole, no ply left over");
    }

    fn an_analysis_of_no_game_is_refused_and_nothing_is_kept(db: &TestDb) {
        let (mut store, game, _, _) = store_with_game(db);
        let orphan = Analysis {
            game: game + 1000,
            plies: vec![ply(Eval::Centipawns(0), None, None)],
            accuracy: [None, None],
            analysed_at: 1,
        };
        assert!(store.write(|tx| tx.save_analysis(&orphan)).is_err());
        assert_eq!(store.read(|tx| tx.analysis(game + 1000)).unwrap(), None);
    }

    on_both_backends!(
        an_analysis_reads_back_as_saved_and_a_second_replaces_it,
        an_analysis_of_no_game_is_refused_and_nothing_is_kept
    );
}
