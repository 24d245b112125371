//! Evaluation graphs in the lichess style: White's winning chances over the game, the area
//! above the middle line filled in White's colour and the area below in Black's, the moves
//! judged inaccuracies, mistakes and blunders marked as coloured dots, the players named above.
//!
//! Evaluations are centipawns or mates from White's point of view. The curve is lichess's
//! winning-chances curve: a logistic of the centipawns clamped to ±1000, with mates just past
//! any centipawn score (a nearer mate higher), so a swing of a pawn counts for much in a level
//! game and little in a won one.

use rules::Color;

use crate::board::{paint_caption, Caption};
use crate::canvas::Canvas;
use crate::layout::{Layout, MAX_SIZE, MIN_SIZE};
use crate::palette::{Ink, Theme};
use crate::renderer::Renderer;
use crate::setters::picture_setters;
use crate::sprite::{parse_svg, rasterise, Sprite};

/// An engine's opinion of a position, from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Hundredths of a pawn, positive when White is better.
    Centipawns(i32),
    /// `winner` mates in `moves` moves; 0 when the position is checkmate.
    Mate { winner: Color, moves: u32 },
}

/// Slope of the logistic that turns centipawns into winning chances (lichess's, fitted to its
/// games).
const SLOPE: f64 = 0.003_682_08;

impl Eval {
    /// White's winning chances, from -1 (Black wins) through 0 (level) to 1 (White wins).
    pub fn white_chances(self) -> f64 {
        let cp = match self {
            Eval::Centipawns(cp) => f64::from(cp.clamp(-1000, 1000)),
            Eval::Mate { winner, moves } => {
                // Mates score 2100 down to 1100 centipawns: past every clamped score.
                let cp = 2100.0 - 100.0 * f64::from(moves.min(10));
                if winner == Color::White {
                    cp
                } else {
                    -cp
                }
            }
        };
        // The logistic 2 / (1 + e^(-SLOPE cp)) - 1, written as the tanh it equals: exactly odd,
        // so Black's advantage mirrors White's.
        (SLOPE * cp / 2.0).tanh()
    }
}

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    pub const ALL: [Judgement; 3] = [Judgement::Inaccuracy, Judgement::Mistake, Judgement::Blunder];

    /// The annotation symbol: `?!`, `?` or `??`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The name for `n` of them: `1 mistake`, `2 inaccuracies` (without the number).
    pub const fn counted(self, n: usize) -> &'static str {
        match (self, n) {
            (_, 1) => self.name(),
            (Judgement::Inaccuracy, _) => "inaccuracies",
            (Judgement::Mistake, _) => "mistakes",
            (Judgement::Blunder, _) => "blunders",
        }
    }

    fn ink(self) -> Ink {
        match self {
            Judgement::Inaccuracy => Ink::Inaccuracy,
            Judgement::Mistake => Ink::Mistake,
            Judgement::Blunder => Ink::Blunder,
        }
    }
}

/// A move judged: `ply` counts from 1 (White's first move).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub ply: usize,
    pub judgement: Judgement,
}

/// A graph to draw: built with [`EvalGraph::new`] and adjusted with the builder methods.
///
/// ```
/// use render::{Eval, EvalGraph, Judgement, Mark, Renderer};
/// use rules::Color;
///
/// let evals = [Eval::Centipawns(20), Eval::Centipawns(-310), Eval::Mate { winner: Color::Black, moves: 0 }];
/// let marks = [Mark { ply: 1, judgement: Judgement::Blunder }];
/// let graph = EvalGraph::new(&evals).marks(&marks).players("élodie", "Жора");
/// let png = Renderer::new().eval_graph_png(&graph).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
#[derive(Clone, Debug)]
pub struct EvalGraph<'a> {
    /// `evals[i]` is the position after `i` plies: the start first, then one per move.
    pub evals: &'a [Eval],
    /// Each dot sits on the evaluation after the move it marks.
    pub marks: &'a [Mark],
    /// Names of White and Black, as the players wrote them.
    pub players: [&'a str; 2],
    pub theme: Theme,
    /// Width in pixels, clamped to `MIN_SIZE..=MAX_SIZE`; the height follows.
    pub size: u32,
}

/// A graph that cannot be drawn as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    #[error("a mark on ply {ply}, but the evaluations cover {plies} plies (marks go on plies 1 to {plies})")]
    MarkOutOfRange { ply: usize, plies: usize },
}

/// Where the parts of a graph go, in pixels.
#[derive(Copy, Clone, Debug)]
struct Frame {
    layout: Layout,
    width: u32,
    height: u32,
    /// The plot: left, top, right and bottom edges.
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
    /// Plies along the x axis (at least 1, so a game without moves still has a width).
    plies: usize,
}

impl Frame {
    fn x(&self, ply: usize) -> f64 {
        self.left + (self.right - self.left) * ply as f64 / self.plies as f64
    }

    fn middle(&self) -> f64 {
        (self.top + self.bottom) / 2.0
    }

    fn y(&self, chances: f64) -> f64 {
        // A little headroom so a won game's curve does not run along the edge.
        self.middle() - chances * (self.bottom - self.top) / 2.0 * 0.94
    }
}

impl<'a> EvalGraph<'a> {
    pub const DEFAULT_SIZE: u32 = 640;

    pub fn new(evals: &'a [Eval]) -> EvalGraph<'a> {
        EvalGraph {
            evals,
            marks: &[],
            players: ["White", "Black"],
            theme: Theme::default(),
            size: EvalGraph::DEFAULT_SIZE,
        }
    }

    pub fn marks(mut self, marks: &'a [Mark]) -> Self {
        self.marks = marks;
        self
    }

    picture_setters!('a; players, theme, size);

    /// Plies the evaluations cover.
    pub fn plies(&self) -> usize {
        self.evals.len().saturating_sub(1)
    }

    fn frame(&self) -> Frame {
        let width = self.size.clamp(MIN_SIZE, MAX_SIZE);
        let layout = Layout::new(width, 8, 8, false, true);
        let height = (width as f64 * 0.5).round() as u32;
        let margin = f64::from(layout.left);
        // Under the plot: a row of move numbers and a row of legend.
        let text = f64::from(legend_size(&layout));
        Frame {
            layout,
            width,
            height,
            left: margin,
            top: f64::from(layout.caption) + text * 0.6,
            right: f64::from(width) - margin,
            bottom: f64::from(height) - text * 5.2,
            plies: self.plies().max(1),
        }
    }

    /// The pixel where the evaluation after `ply` plies is drawn (a mark on that ply sits
    /// there), or `None` past the evaluations.
    pub fn point(&self, ply: usize) -> Option<(u32, u32)> {
        let eval = self.evals.get(ply)?;
        let frame = self.frame();
        Some((frame.x(ply).round() as u32, frame.y(eval.white_chances()).round() as u32))
    }
}

/// Lettering under the plot.
fn legend_size(layout: &Layout) -> u32 {
    (layout.caption * 3 / 10).max(6)
}

/// A move-number step that puts at most about eight numbers on the axis.
fn move_step(moves: usize) -> usize {
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 500].into_iter().find(|&s| moves / s <= 8).unwrap_or(1000)
}

impl Renderer {
    /// The evaluation graph as an indexed-colour PNG; an error if a mark names a ply the
    /// evaluations do not reach.
    pub fn eval_graph_png(&self, graph: &EvalGraph) -> Result<Vec<u8>, GraphError> {
        let plies = graph.plies();
        if let Some(mark) = graph.marks.iter().find(|m| m.ply == 0 || m.ply > plies || m.ply >= graph.evals.len()) {
            return Err(GraphError::MarkOutOfRange { ply: mark.ply, plies });
        }
        let f = graph.frame();
        let kit = self.kit(&f.layout);
        let mut canvas = Canvas::new(f.width, f.height, Ink::Frame, self.palette(graph.theme));
        paint_caption(&mut canvas, &f.layout, &kit, &Caption { names: graph.players, underline: None, middle: None });

        let (left, top) = (f.left.round() as i32, f.top.round() as i32);
        let (w, h) = ((f.right - f.left).round() as u32, (f.bottom - f.top).round() as u32);
        canvas.fill(left, top, w, h, Ink::BlackBody);
        // Move numbers along the bottom, at a step that keeps them apart, each with a faint line
        // up the plot that the filled area covers.
        let small = self.glyphs(legend_size(&f.layout));
        let moves = plies.div_ceil(2);
        let step = move_step(moves);
        let numbers_y = (f.bottom + f64::from(small.size()) * 2.0).round() as i32;
        for n in (step..=moves).step_by(step) {
            let x = f.x(2 * n - 1).round() as i32;
            canvas.fill(x, top, 1, h, Ink::Frame);
            small.draw_centred(&mut canvas, &n.to_string(), x, numbers_y - small.size() as i32 / 2, Ink::Muted);
        }

        let points: Vec<(f64, f64)> =
            graph.evals.iter().enumerate().map(|(i, e)| (f.x(i), f.y(e.white_chances()))).collect();
        let mid = f.middle();
        if points.len() >= 2 {
            // The area between the curve and the middle line: White's colour above, Black's below.
            let mut area = format!("M{:.2} {mid:.2}", points[0].0);
            for (x, y) in &points {
                area.push_str(&format!(" L{x:.2} {y:.2}"));
            }
            area.push_str(&format!(" L{:.2} {mid:.2} Z", points[points.len() - 1].0));
            let mask = mask_of(&canvas, &format!(r#"<path d="{area}"/>"#));
            let split = mid.round() as u32;
            canvas.draw_ink(&rows(&mask, 0, split), 0, 0, Ink::WhiteBody);
            canvas.draw_ink(&rows(&mask, split, mask.height), 0, 0, Ink::Outline);
        }
        canvas.fill(left, mid.round() as i32, w, 1, Ink::Muted);
        if points.len() >= 2 {
            let line: Vec<String> = points.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
            let stroke = (f64::from(f.width) / 320.0).max(1.0);
            let svg = format!(
                r#"<polyline points="{}" fill="none" stroke="black" stroke-width="{stroke:.2}" stroke-linejoin="round"/>"#,
                line.join(" ")
            );
            canvas.draw_ink(&mask_of(&canvas, &svg), 0, 0, Ink::Accent);
        }

        // The marks: a dot in the judgement's colour inside a ring of the frame's.
        let radius = (f64::from(f.width) / 120.0).max(2.5);
        let mut rings = String::new();
        for mark in graph.marks {
            let (x, y) = points[mark.ply];
            rings.push_str(&format!(r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}"/>"#, radius * 1.45));
        }
        if !rings.is_empty() {
            canvas.draw_ink(&mask_of(&canvas, &rings), 0, 0, Ink::Frame);
        }
        for judgement in Judgement::ALL {
            let dots: String = graph
                .marks
                .iter()
                .filter(|m| m.judgement == judgement)
                .map(|m| {
                    let (x, y) = points[m.ply];
                    format!(r#"<circle cx="{x:.2}" cy="{y:.2}" r="{radius:.2}"/>"#)
                })
                .collect();
            if !dots.is_empty() {
                canvas.draw_ink(&mask_of(&canvas, &dots), 0, 0, judgement.ink());
            }
        }

        // The legend: each judgement's dot, symbol and name, centred under the numbers.
        let legend_y = (f.bottom + f64::from(small.size()) * 4.3).round() as i32;
        let entries: Vec<String> = Judgement::ALL.iter().map(|j| format!("{} {}", j.symbol(), j.name())).collect();
        let dot = (radius * 2.0).ceil() as i32;
        let gap = small.size() as i32 * 2;
        let total: i32 =
            entries.iter().map(|e| dot + small.size() as i32 / 2 + small.width(e) as i32).sum::<i32>() + gap * 2;
        let mut x = f.width as i32 / 2 - total / 2;
        let mut legend_dots = [String::new(), String::new(), String::new()];
        for (i, entry) in entries.iter().enumerate() {
            legend_dots[i] = format!(
                r#"<circle cx="{:.2}" cy="{:.2}" r="{radius:.2}"/>"#,
                f64::from(x) + radius,
                f64::from(legend_y) - f64::from(small.size()) / 2.0
            );
            x += dot + small.size() as i32 / 2;
            small.draw(&mut canvas, entry, x, legend_y, Ink::FrameText);
            x += small.width(entry) as i32 + gap;
        }
        for (judgement, svg) in Judgement::ALL.iter().zip(&legend_dots) {
            canvas.draw_ink(&mask_of(&canvas, svg), 0, 0, judgement.ink());
        }
        Ok(canvas.png())
    }
}

/// SVG shapes (in canvas pixels) rasterised into a coverage mask the size of the canvas.
fn mask_of(canvas: &Canvas, shapes: &str) -> Sprite {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">{shapes}</svg>"#,
        w = canvas.width,
        h = canvas.height
    );
    let pixmap = rasterise(&parse_svg(&svg), canvas.width, canvas.height, 1.0, 0.0, 0.0);
    Sprite::mask(&pixmap, Ink::Accent)
}

/// The rows `from..to` of a mask, the others left empty.
fn rows(mask: &Sprite, from: u32, to: u32) -> Sprite {
    let mut part = mask.clone();
    let (from, to) = ((from * mask.width) as usize, (to.min(mask.height) * mask.width) as usize);
    for (i, level) in part.level.iter_mut().enumerate() {
        if i < from || i >= to {
            *level = 0;
        }
    }
    part
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> (u32, u32, Vec<[u8; 3]>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
        let frame = reader.next_frame(&mut pixels).expect("one frame");
        let palette = reader.info().palette.as_ref().expect("a palette").to_vec();
        let rgb = pixels.iter().map(|&i| {
            let i = usize::from(i) * 3;
            [palette[i], palette[i + 1], palette[i + 2]]
        });
        (frame.width, frame.height, rgb.collect())
    }

    fn colour(theme: Theme, ink: Ink) -> [u8; 3] {
        crate::palette::Palette::new(theme).rgb()[ink as usize]
    }

    #[test]
    fn chances_follow_the_curve_and_mates_lie_beyond_it() {
        assert_eq!(Eval::Centipawns(0).white_chances(), 0.0);
        let pawn = Eval::Centipawns(100).white_chances();
        assert!((0.17..0.19).contains(&pawn), "{pawn}");
        assert_eq!(Eval::Centipawns(-100).white_chances(), -pawn);
        assert_eq!(Eval::Centipawns(5000).white_chances(), Eval::Centipawns(1000).white_chances());
        let mate = |winner, moves| Eval::Mate { winner, moves }.white_chances();
        assert!(mate(Color::White, 12) > Eval::Centipawns(1000).white_chances());
        assert!(mate(Color::White, 1) > mate(Color::White, 5));
        assert!(mate(Color::White, 0) < 1.0 && mate(Color::Black, 0) > -1.0);
        assert_eq!(mate(Color::Black, 3), -mate(Color::White, 3));
    }

    #[test]
    fn marks_are_drawn_where_asked_in_their_colours() {
        let renderer = Renderer::new();
        let evals: Vec<Eval> = [20, 35, 30, -250, -240, 180, 150, 160, -900, -850]
            .into_iter()
            .map(Eval::Centipawns)
            .chain([Eval::Mate { winner: Color::Black, moves: 2 }, Eval::Mate { winner: Color::Black, moves: 0 }])
            .collect();
        let marks = [
            Mark { ply: 3, judgement: Judgement::Blunder },
            Mark { ply: 5, judgement: Judgement::Inaccuracy },
            Mark { ply: 8, judgement: Judgement::Mistake },
        ];
        for theme in Theme::ALL {
            let graph = EvalGraph::new(&evals).marks(&marks).players("élodie", "Жора").theme(theme);
            let (width, height, pixels) = decode(&renderer.eval_graph_png(&graph).expect("draws"));
            assert_eq!(width, 640);
            let at = |(x, y): (u32, u32)| pixels[(y * width + x) as usize];
            for mark in marks {
                let p = graph.point(mark.ply).expect("a marked ply");
                assert!(p.1 < height);
                assert_eq!(at(p), colour(theme, mark.judgement.ink()), "{mark:?}");
            }
            // No dot where no mark was asked.
            for ply in [1, 2, 4, 6, 7, 9, 10, 11] {
                let p = graph.point(ply).unwrap();
                let c = at(p);
                assert!(Judgement::ALL.iter().all(|j| c != colour(theme, j.ink())), "ply {ply}: {c:?}");
            }
            // Black's mate pulls the curve to the bottom of the plot.
            let frame = graph.frame();
            let (_, y) = graph.point(11).unwrap();
            assert!(f64::from(y) > frame.bottom - (frame.bottom - frame.top) * 0.05, "mate near the bottom");
            // Between the curve and the middle line: White's colour where White is better,
            // Black's where Black is.
            let mid = frame.middle().round() as u32;
            for (ply, ink) in [(6, Ink::WhiteBody), (7, Ink::WhiteBody), (9, Ink::Outline), (10, Ink::Outline)] {
                let (x, y) = graph.point(ply).unwrap();
                assert_eq!(at((x, (y + mid) / 2)), colour(theme, ink), "ply {ply}");
            }
        }
    }

    #[test]
    fn empty_and_one_move_games_draw_and_bad_marks_are_refused() {
        let renderer = Renderer::new();
        let level = colour(Theme::Green, Ink::Muted);
        for evals in [vec![], vec![Eval::Centipawns(15)]] {
            let graph = EvalGraph::new(&evals);
            let (width, height, pixels) = decode(&renderer.eval_graph_png(&graph).expect("draws"));
            assert_eq!((width, height), (640, 320));
            let frame = graph.frame();
            let y = frame.middle().round() as u32;
            assert_eq!(pixels[(y * width + width / 2) as usize], level, "the middle line, and nothing over it");
            assert_eq!(
                renderer.eval_graph_png(&graph.clone().marks(&[Mark { ply: 1, judgement: Judgement::Mistake }])),
                Err(GraphError::MarkOutOfRange { ply: 1, plies: 0 })
            );
        }
        let one = [Eval::Centipawns(15), Eval::Mate { winner: Color::White, moves: 0 }];
        let marks = [Mark { ply: 1, judgement: Judgement::Blunder }];
        let graph = EvalGraph::new(&one).marks(&marks);
        let (width, _, pixels) = decode(&renderer.eval_graph_png(&graph).expect("draws"));
        let p = graph.point(1).unwrap();
        assert_eq!(pixels[(p.1 * width + p.0) as usize], colour(Theme::Green, Ink::Blunder));
        assert_eq!(
            renderer.eval_graph_png(&graph.clone().marks(&[Mark { ply: 0, judgement: Judgement::Mistake }])),
            Err(GraphError::MarkOutOfRange { ply: 0, plies: 1 })
        );
        assert_eq!(
            renderer.eval_graph_png(&graph.marks(&[Mark { ply: 2, judgement: Judgement::Mistake }])),
            Err(GraphError::MarkOutOfRange { ply: 2, plies: 1 })
        );
    }
}
