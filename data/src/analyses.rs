//! A game's analysis as `/analyse` left it: the evaluation of every position, each move's
//! judgement with the engine's better move, and both players' accuracy. Kept so that a game's
//! page shows the graph and the marks without searching again.
//!
//! Saving replaces the game's earlier analysis whole, in the caller's transaction: a reader sees
//! the old one or the new one, never a mix. An analysis keeps the engine that judged it
//! ([`Judge`]); one kept before the judge was (schema version 18) reads as Chimera's.

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

/// The engine that judged an analysis. An outside engine is named as it gave its name (UCI's
/// `id name`): text from outside, to be shown as such.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judge {
    /// Chimera's own engine, the only one set for the game's variant.
    Chimera,
    /// The outside engine set for the game's variant.
    Outside { name: String },
    /// Chimera's own engine, because the outside one set for the variant (`outside`) failed.
    ChimeraInstead { outside: String },
}

impl Judge {
    /// The kind of judge, as the `judge` column holds it.
    fn kind(&self) -> &'static str {
        match self {
            Judge::Chimera => "chimera",
            Judge::Outside { .. } => "outside",
            Judge::ChimeraInstead { .. } => "chimera-instead",
        }
    }

    /// The outside engine's name, for the `judge_engine` column.
    fn engine(&self) -> Option<&str> {
        match self {
            Judge::Chimera => None,
            Judge::Outside { name } | Judge::ChimeraInstead { outside: name } => Some(name),
        }
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
    pub judge: Judge,
    pub analysed_at: Millis,
}

impl ReadTx<'_> {
    /// The game's analysis, if `/analyse` has run for it.
    pub fn analysis(&self, game: GameId) -> Result<Option<Analysis>> {
        let head = self.conn().query_opt(
            sql!(
                "SELECT white_accuracy, black_accuracy, analysed_at, judge, judge_engine FROM analyses
                 WHERE game_id = $1"
            ),
            params![game],
            |row| {
                let judge = match (row.get::<String>(3)?.as_str(), row.get::<Option<String>>(4)?) {
                    ("chimera", None) => Judge::Chimera,
                    ("outside", Some(name)) => Judge::Outside { name },
                    ("chimera-instead", Some(outside)) => Judge::ChimeraInstead { outside },
                    // The table's checks allow nothing else.
                    _ => {
                        return Err(Error::Column {
                            column: 3,
                            problem: ColumnError::Type {
                                expected: "a judge, with an engine's name for an outside one alone",
                                found: "another judge, or a name that does not fit it",
                            },
                        })
                    }
                };
                Ok(([row.get::<Option<f64>>(0)?, row.get::<Option<f64>>(1)?], row.get::<Millis>(2)?, judge))
            },
        )?;
        let Some((accuracy, analysed_at, judge)) = head else { return Ok(None) };
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
        Ok(Some(Analysis { game, plies, accuracy, judge, analysed_at }))
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
                "INSERT INTO analyses (game_id, white_accuracy, black_accuracy, analysed_at, judge, judge_engine)
                 VALUES ($1, $2, $3, $4, $5, $6)"
            ),
            params![
                game,
                analysis.accuracy[0],
                analysis.accuracy[1],
                analysis.analysed_at,
                analysis.judge.kind(),
                analysis.judge.engine()
            ],
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
    use super::{AnalysedPly, Analysis, Eval, Judge, Judgement};
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
            judge: Judge::Chimera,
            analysed_at: 7,
        };
        store.write(|tx| tx.save_analysis(&first)).unwrap();
        assert_eq!(store.read(|tx| tx.analysis(game)).unwrap().as_ref(), Some(&first));

        let second = Analysis {
            plies: first.plies[..2].to_vec(),
            accuracy: [Some(90.0), Some(88.25)],
            judge: Judge::Outside { name: "Stockfish 16".into() },
            analysed_at: 9,
            ..first
        };
        store.write(|tx| tx.save_analysis(&second)).unwrap();
        assert_eq!(store.read(|tx| tx.analysis(game)).unwrap(), Some(second), "replaced whole, no ply left over");
    }

    fn an_analysis_of_no_game_is_refused_and_nothing_is_kept(db: &TestDb) {
        let (mut store, game, _, _) = store_with_game(db);
        let orphan = Analysis {
            game: game + 1000,
            plies: vec![ply(Eval::Centipawns(0), None, None)],
            accuracy: [None, None],
            judge: Judge::Chimera,
            analysed_at: 1,
        };
        assert!(store.write(|tx| tx.save_analysis(&orphan)).is_err());
        assert_eq!(store.read(|tx| tx.analysis(game + 1000)).unwrap(), None);
    }

    fn every_judge_reads_back_as_saved_whatever_its_engine_s_name(db: &TestDb) {
        let (mut store, game, _, _) = store_with_game(db);
        let judges = [
            Judge::Chimera,
            Judge::Outside { name: "Stockfish 16".into() },
            Judge::ChimeraInstead { outside: "Fake Engine".into() },
            // A name is the engine's own text: kept as given, quotes, marks and all.
            Judge::Outside { name: "x'); DROP TABLE analyses; --\u{E000}**".into() },
            Judge::ChimeraInstead { outside: String::new() },
        ];
        for judge in judges {
            let analysis = Analysis {
                game,
                plies: vec![ply(Eval::Centipawns(0), None, None)],
                accuracy: [None, None],
                judge: judge.clone(),
                analysed_at: 3,
            };
            store.write(|tx| tx.save_analysis(&analysis)).unwrap();
            assert_eq!(store.read(|tx| tx.analysis(game)).unwrap().map(|a| a.judge), Some(judge));
        }
    }

    /// The table's checks: a name with Chimera's engine alone, or no name with an outside one,
    /// is refused by the schema itself.
    fn a_judge_and_its_engine_s_name_must_agree_in_the_table(db: &TestDb) {
        let (mut store, game, _, _) = store_with_game(db);
        let mut insert = |judge: &str, engine: Option<&str>| {
            store.write(|tx| {
                tx.conn().execute(
                    crate::sql::sql!(
                        "INSERT INTO analyses (game_id, white_accuracy, black_accuracy, analysed_at, judge, judge_engine)
                         VALUES ($1, NULL, NULL, 1, $2, $3)"
                    ),
                    crate::sql::params![game, judge, engine],
                )
            })
        };
        for (judge, engine) in
            [("chimera", Some("Stockfish")), ("outside", None), ("chimera-instead", None), ("nobody", None)]
        {
            assert!(insert(judge, engine).is_err(), "{judge} with {engine:?}");
        }
        // The same statement with a judge and name that agree is taken.
        insert("chimera-instead", Some("Stockfish")).unwrap();
        let kept = store.read(|tx| tx.analysis(game)).unwrap().map(|a| a.judge);
        assert_eq!(kept, Some(Judge::ChimeraInstead { outside: "Stockfish".into() }));
    }

    on_both_backends!(
        an_analysis_reads_back_as_saved_and_a_second_replaces_it,
        an_analysis_of_no_game_is_refused_and_nothing_is_kept,
        every_judge_reads_back_as_saved_whatever_its_engine_s_name,
        a_judge_and_its_engine_s_name_must_agree_in_the_table
    );
}
