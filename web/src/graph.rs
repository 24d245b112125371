//! The evaluation graph of an analysed game, drawn by the server as inline SVG: White's winning
//! chances after each ply (as the chat's graph draws them), the marked moves as dots, and the
//! shown position as a line. Every point is a link to its position, so the graph steps through
//! the game without the script.

use data::Judge;
use host::export::KeptAnalysis;
use maud::{html, Markup};

/// The drawing's size in its own units (the page scales it to the column's width).
const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 120.0;

fn x(ply: usize, plies: usize) -> f64 {
    if plies <= 1 {
        0.0
    } else {
        WIDTH * ply as f64 / (plies - 1) as f64
    }
}

/// Room above and below the line, so that a dot at a won position is drawn whole.
const MARGIN: f64 = 5.0;

/// White's chances from -1 to 1, drawn from the bottom (Black wins) to the top (White wins).
fn y(chances: f64) -> f64 {
    MARGIN + (HEIGHT / 2.0 - MARGIN) * (1.0 - chances.clamp(-1.0, 1.0))
}

/// Which engine judged, as the `/analyse` answer said it. An outside engine's name is its own
/// text: maud escapes it like anything interpolated.
fn judged_by(judge: &Judge) -> Markup {
    match judge {
        Judge::Chimera => html! { "Judged by Chimera's engine." },
        Judge::Outside { name } => html! { "Judged by " (name) "." },
        Judge::ChimeraInstead { outside } => {
            html! { "Judged by Chimera's engine (the engine set for this variant, " (outside) ", could not be used)." }
        }
    }
}

/// The graph, with `shown` (the ply on the board) marked; links keep `flip`.
pub fn graph(analysis: &KeptAnalysis, shown: usize, flip: bool) -> Markup {
    let plies = analysis.evals.len();
    let points: Vec<(f64, f64)> =
        analysis.evals.iter().enumerate().map(|(i, e)| (x(i, plies), y(e.white_chances()))).collect();
    let line: String = points.iter().map(|(px, py)| format!("{px:.1},{py:.1}")).collect::<Vec<_>>().join(" ");
    // White's share: the area under the line, closed along the bottom.
    let area = format!("0,{HEIGHT} {line} {WIDTH},{HEIGHT}");
    let href = |ply: usize| if flip { format!("?ply={ply}&flip=1") } else { format!("?ply={ply}") };
    let accuracy = |a: Option<f64>| a.map_or("-".to_string(), |a| format!("{a:.0}%"));
    html! {
        figure.graph {
            svg viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) role="img"
                aria-label=(format!("Evaluation graph of {plies} positions; marked moves: {}", analysis.marks.len())) {
                rect.black-side x="0" y="0" width=(WIDTH) height=(HEIGHT) {}
                polygon.white-side points=(area) {}
                line.middle x1="0" y1=(HEIGHT / 2.0) x2=(WIDTH) y2=(HEIGHT / 2.0) {}
                @if let Some(&(px, _)) = points.get(shown) {
                    line.shown x1=(px) y1="0" x2=(px) y2=(HEIGHT) {}
                }
                @for (mark, better) in &analysis.marks {
                    @if let Some(&(px, py)) = points.get(mark.ply) {
                        a href=(href(mark.ply)) {
                            circle.(mark.judgement.name()) cx=(format!("{px:.1}")) cy=(format!("{py:.1}")) r="4" {
                                title {
                                    (mark.judgement.name())
                                    @if let Some(better) = better { " (better: " (better) ")" }
                                }
                            }
                        }
                    }
                }
            }
            figcaption {
                (judged_by(&analysis.judge)) " "
                "Accuracy: White " (accuracy(analysis.accuracy[0])) ", Black " (accuracy(analysis.accuracy[1]))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use render::{Eval, Judgement, Mark};
    use rules::Color;

    #[test]
    fn the_line_runs_from_the_start_to_the_last_ply_and_marks_link_to_their_positions() {
        let analysis = KeptAnalysis {
            evals: vec![Eval::Centipawns(0), Eval::Centipawns(-400), Eval::Mate { winner: Color::White, moves: 0 }],
            marks: vec![(Mark { ply: 1, judgement: Judgement::Blunder }, Some("<b>Nf3</b>".into()))],
            accuracy: [Some(50.4), None],
            judge: data::Judge::Chimera,
        };
        let svg = graph(&analysis, 2, true).into_string();
        assert!(svg.contains("points=\"0,120 0.0,60.0 300.0,94.5 "), "{svg}");
        // White mated: the line ends at the top.
        assert!(svg.contains("600.0,5.0 600,120"), "{svg}");
        assert!(svg.contains("cx=\"300.0\" cy=\"94.5\""), "{svg}");
        assert!(svg.contains("href=\"?ply=1&amp;flip=1\""), "{svg}");
        assert!(svg.contains("<circle class=\"blunder\""), "{svg}");
        assert!(svg.contains("blunder (better: &lt;b&gt;Nf3&lt;/b&gt;)"), "escaped: {svg}");
        assert!(svg.contains("Accuracy: White 50%, Black -"), "{svg}");
        assert!(svg.contains("x1=\"600\""), "the shown ply's line: {svg}");
        assert!(svg.contains("<figcaption>Judged by Chimera's engine. Accuracy: White 50%"), "{svg}");
    }

    #[test]
    fn the_caption_names_the_judge_and_escapes_an_outside_engine_s_name() {
        let with = |judge| {
            let analysis =
                KeptAnalysis { evals: vec![Eval::Centipawns(0)], marks: vec![], accuracy: [None, None], judge };
            graph(&analysis, 0, false).into_string()
        };
        let outside = with(Judge::Outside { name: "<i>Stockfish</i> 16".into() });
        assert!(outside.contains("Judged by &lt;i&gt;Stockfish&lt;/i&gt; 16. Accuracy"), "{outside}");
        let instead = with(Judge::ChimeraInstead { outside: "Fake & Co".into() });
        assert!(
            instead.contains(
                "Judged by Chimera's engine (the engine set for this variant, Fake &amp; Co, could not be used)."
            ),
            "{instead}"
        );
    }
}
