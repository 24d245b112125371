//! Painting one board: squares, highlights, markers, pieces, arrows and (when its layout has
//! them) coordinates. Boards of games and the panels of rule diagrams are both scenes.

use rules::{Bitboard, Board, Square};

use crate::art::{Marker, SquareKit};
use crate::canvas::Canvas;
use crate::font::GlyphSet;
use crate::layout::Layout;
use crate::palette::Ink;
use crate::sprite::{parse_svg, rasterise, Sprite};

/// An arrow from square centre to square centre, optionally numbered.
#[derive(Clone, Debug)]
pub(crate) struct Arrow {
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) ink: Ink,
    pub(crate) label: Option<u8>,
}

pub(crate) struct Scene<'a> {
    pub(crate) board: &'a Board,
    /// Squares tinted as the last move.
    pub(crate) highlights: Bitboard,
    /// Squares of attacked royal pieces.
    pub(crate) attacked: Bitboard,
    pub(crate) marks: Vec<(Square, Marker)>,
    pub(crate) arrows: Vec<Arrow>,
}

pub(crate) fn paint(canvas: &mut Canvas, layout: &Layout, kit: &SquareKit, coords: &GlyphSet, scene: &Scene) {
    let all: Bitboard = layout.squares().collect();
    paint_squares(canvas, layout, kit, scene, all);
    paint_arrows(canvas, layout, coords, &scene.arrows);
    if layout.coordinates {
        paint_coordinates(canvas, layout, coords);
    }
}

/// Paints `squares` of the scene (arrows and coordinates aside). Everything drawn on a square
/// stays inside it, so painting some squares again gives what painting all of them would.
pub(crate) fn paint_squares(canvas: &mut Canvas, layout: &Layout, kit: &SquareKit, scene: &Scene, squares: Bitboard) {
    let q = layout.square;
    for sq in squares {
        let light = (sq.file() + sq.rank()) % 2 == 1;
        let ink = match (scene.highlights.contains(sq), light) {
            (false, true) => Ink::Light,
            (false, false) => Ink::Dark,
            (true, true) => Ink::LastLight,
            (true, false) => Ink::LastDark,
        };
        let (x, y) = layout.square_origin(sq);
        canvas.fill(x as i32, y as i32, q, q, ink);
    }
    for sq in scene.attacked & squares {
        let (x, y) = layout.square_origin(sq);
        canvas.draw(&kit.glow, x as i32, y as i32);
    }
    for &(sq, marker) in scene.marks.iter().filter(|(sq, _)| squares.contains(*sq)) {
        let (x, y) = layout.square_origin(sq);
        canvas.draw(kit.marker(marker), x as i32, y as i32);
    }
    for (sq, piece) in scene.board.pieces() {
        if squares.contains(sq) && sq.file() < layout.files && sq.rank() < layout.ranks {
            let (x, y) = layout.square_origin(sq);
            canvas.draw(kit.piece(piece), x as i32, y as i32);
        }
    }
}

/// Rank numbers down the left border, file letters along the bottom one.
fn paint_coordinates(canvas: &mut Canvas, layout: &Layout, glyphs: &GlyphSet) {
    let q = layout.square as i32;
    let board_bottom = (layout.top + layout.square * u32::from(layout.ranks)) as i32;
    for sq in layout.squares() {
        let (x, y) = layout.square_origin(sq);
        let (x, y) = (x as i32, y as i32);
        if sq.file() == 0 {
            let cx = layout.left as i32 - layout.border as i32 / 2;
            let text = (sq.rank() + 1).to_string();
            glyphs.draw_centred(canvas, &text, cx, y + q / 2, Ink::FrameText);
        }
        if sq.rank() == 0 {
            let cy = board_bottom + layout.border as i32 / 2;
            let text = sq.file_char().to_string();
            // Lower-case letters are shorter than capitals: centre on their x-height.
            let cy = cy - glyphs.size() as i32 * 3 / 20;
            glyphs.draw_centred(canvas, &text, x + q / 2, cy, Ink::FrameText);
        }
    }
}

/// Arrows of one ink are rasterised together into one mask, then stamped in that ink;
/// numbered badges sit on each arrow's middle.
fn paint_arrows(canvas: &mut Canvas, layout: &Layout, glyphs: &GlyphSet, arrows: &[Arrow]) {
    if arrows.is_empty() {
        return;
    }
    let q = layout.square as f32;
    let centre = |sq: Square| {
        let (x, y) = layout.square_centre(sq);
        (x as f32, y as f32)
    };
    let mut inks: Vec<Ink> = arrows.iter().map(|a| a.ink).collect();
    inks.dedup();
    for ink in inks {
        let mut body = String::new();
        for arrow in arrows.iter().filter(|a| a.ink == ink) {
            body.push_str(&arrow_path(centre(arrow.from), centre(arrow.to), q));
            if arrow.label.is_some() {
                let (mx, my) = midpoint(centre(arrow.from), centre(arrow.to));
                body.push_str(&format!(r#"<circle cx="{mx}" cy="{my}" r="{}"/>"#, q * 0.21));
            }
        }
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">{body}</svg>"#,
            w = canvas.width,
            h = canvas.height
        );
        let pixmap = rasterise(&parse_svg(&svg), canvas.width, canvas.height, 1.0, 0.0, 0.0);
        canvas.draw(&Sprite::mask(&pixmap, ink), 0, 0);
    }
    for arrow in arrows {
        if let Some(label) = arrow.label {
            let (mx, my) = midpoint(centre(arrow.from), centre(arrow.to));
            glyphs.draw_centred(canvas, &label.to_string(), mx as i32, my as i32, Ink::WhiteBody);
        }
    }
}

fn midpoint(a: (f32, f32), b: (f32, f32)) -> (f32, f32) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// An arrow as one closed path: a shaft from near `a` to a head whose tip reaches into `b`.
fn arrow_path(a: (f32, f32), b: (f32, f32), q: f32) -> String {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (nx, ny) = (-uy, ux);
    let start = q * 0.22;
    let tip = len - q * 0.12;
    let head = q * 0.42;
    let shaft = q * 0.085;
    let wing = q * 0.25;
    let at = |along: f32, across: f32| (a.0 + ux * along + nx * across, a.1 + uy * along + ny * across);
    let points = [
        at(start, shaft),
        at(tip - head, shaft),
        at(tip - head, wing),
        at(tip, 0.0),
        at(tip - head, -wing),
        at(tip - head, -shaft),
        at(start, -shaft),
    ];
    let mut d = String::from("<path d=\"M");
    for (i, (x, y)) in points.iter().enumerate() {
        if i > 0 {
            d.push_str(" L");
        }
        d.push_str(&format!("{x:.1} {y:.1}"));
    }
    d.push_str(" Z\" stroke-linejoin=\"round\"/>");
    d
}
