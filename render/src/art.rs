//! The drawings: the project's own piece art (SVG sources in `render/art/`, drawn white; black
//! pieces swap the body and detail colours) and the square markers, and their rasterisation
//! into sprites for one square size.

use resvg::usvg;
use rules::{Color, Piece, Role};

use crate::palette::Ink;
use crate::sprite::{parse_svg, rasterise, Sprite};

/// Body and detail colours of the sources, and what black pieces use instead.
const WHITE_BODY: &str = "#f6f1e4";
const WHITE_DETAIL: &str = "#2b2724";
const BLACK_BODY: &str = "#3d3934";
const BLACK_DETAIL: &str = "#e8e1cf";

fn source(role: Role) -> &'static str {
    match role {
        Role::Pawn => include_str!("../art/pawn.svg"),
        Role::Knight => include_str!("../art/knight.svg"),
        Role::Bishop => include_str!("../art/bishop.svg"),
        Role::Rook => include_str!("../art/rook.svg"),
        Role::Queen => include_str!("../art/queen.svg"),
        Role::King => include_str!("../art/king.svg"),
        Role::Golem => include_str!("../art/golem.svg"),
        Role::HalfGolem => include_str!("../art/half-golem.svg"),
        Role::Werewolf => include_str!("../art/werewolf.svg"),
        Role::Unicorn => include_str!("../art/unicorn.svg"),
        Role::Chancellor => include_str!("../art/chancellor.svg"),
        Role::Lion => include_str!("../art/lion.svg"),
        Role::GhostKing => include_str!("../art/ghost-king.svg"),
    }
}

/// A piece's SVG source in its colours: the project's piece art, for anything that draws
/// boards as vector graphics (the web pages) rather than as pictures.
pub fn piece_svg(piece: Piece) -> String {
    piece_source(piece)
}

/// A piece's SVG source in its colours.
fn piece_source(piece: Piece) -> String {
    let white = source(piece.role);
    match piece.color {
        Color::White => white.to_string(),
        Color::Black => white.replace(WHITE_BODY, BLACK_BODY).replace(WHITE_DETAIL, BLACK_DETAIL),
    }
}

/// Where a piece's sprite sits in [`Art::pieces`] and [`SquareKit::pieces`].
pub(crate) fn piece_slot(piece: Piece) -> usize {
    piece.color.index() * Role::COUNT + piece.role.index()
}

/// What the squares of a board can be marked with.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Marker {
    /// A quiet move lands here: a dot.
    Move,
    /// A Werewolf jumps over the piece beside it to land here: a diamond.
    Jump,
    /// A capture lands here: a ring.
    Capture,
    /// A Werewolf's jump takes the piece here on its way: red corners.
    HopCapture,
}

impl Marker {
    pub const ALL: [Marker; 4] = [Marker::Move, Marker::Jump, Marker::Capture, Marker::HopCapture];

    fn svg(self) -> &'static str {
        match self {
            Marker::Move => r#"<circle cx="50" cy="50" r="15" fill-opacity="0.55"/>"#,
            Marker::Jump => {
                r#"<path d="M50 27 L73 50 L50 73 L27 50 Z" fill="none" stroke="black" stroke-width="8" stroke-linejoin="round" stroke-opacity="0.8"/>"#
            }
            Marker::Capture => {
                r#"<circle cx="50" cy="50" r="45" fill="none" stroke="black" stroke-width="8" stroke-opacity="0.6"/>"#
            }
            Marker::HopCapture => {
                r#"<path d="M0 0 H26 L0 26 Z M100 0 V26 L74 0 Z M100 100 H74 L100 74 Z M0 100 V74 L26 100 Z" fill-opacity="0.85"/>"#
            }
        }
    }

    pub(crate) fn ink(self) -> Ink {
        match self {
            Marker::Move => Ink::Move,
            Marker::Jump => Ink::Jump,
            Marker::Capture => Ink::Capture,
            Marker::HopCapture => Ink::Hop,
        }
    }
}

/// The glow under an attacked royal piece.
const GLOW: &str = r#"<defs><radialGradient id="g" cx="50" cy="50" r="50" gradientUnits="userSpaceOnUse"><stop offset="0" stop-opacity="1"/><stop offset="0.35" stop-opacity="0.85"/><stop offset="1" stop-opacity="0"/></radialGradient></defs><rect width="100" height="100" fill="url(#g)"/>"#;

/// Discs standing for the two sides in captions.
const DISCS: [&str; 2] = [
    r##"<circle cx="50" cy="50" r="42" fill="#f6f1e4" stroke="#1c1a17" stroke-width="8"/>"##,
    r##"<circle cx="50" cy="50" r="44" fill="#e8e1cf"/><circle cx="50" cy="50" r="35" fill="#3d3934"/>"##,
];

fn svg_100(body: &str) -> String {
    format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>"#)
}

/// Every drawing, parsed once.
pub(crate) struct Art {
    pieces: Vec<usvg::Tree>,
    markers: Vec<usvg::Tree>,
    glow: usvg::Tree,
    discs: Vec<usvg::Tree>,
}

/// The sprites of one square size.
pub(crate) struct SquareKit {
    pub(crate) pieces: Vec<Sprite>,
    markers: Vec<Sprite>,
    pub(crate) glow: Sprite,
}

impl SquareKit {
    pub(crate) fn piece(&self, piece: Piece) -> &Sprite {
        &self.pieces[piece_slot(piece)]
    }

    pub(crate) fn marker(&self, marker: Marker) -> &Sprite {
        &self.markers[marker as usize]
    }
}

impl Art {
    pub(crate) fn new() -> Art {
        let pieces = Color::ALL
            .into_iter()
            .flat_map(|color| Role::ALL.map(|role| Piece::new(color, role)))
            .map(|piece| parse_svg(&piece_source(piece)))
            .collect();
        Art {
            pieces,
            markers: Marker::ALL.iter().map(|m| parse_svg(&svg_100(m.svg()))).collect(),
            glow: parse_svg(&svg_100(GLOW)),
            discs: DISCS.iter().map(|d| parse_svg(&svg_100(d))).collect(),
        }
    }

    /// Rasterises everything a board with squares `size` pixels wide needs.
    pub(crate) fn kit(&self, size: u32) -> SquareKit {
        let scale = size as f32 / 100.0;
        let draw = |tree: &usvg::Tree| rasterise(tree, size, size, scale, 0.0, 0.0);
        SquareKit {
            pieces: self.pieces.iter().map(|t| Sprite::piece(&draw(t))).collect(),
            markers: Marker::ALL.iter().zip(&self.markers).map(|(m, t)| Sprite::mask(&draw(t), m.ink())).collect(),
            glow: Sprite::mask(&draw(&self.glow), Ink::Check),
        }
    }

    /// The disc of a side, `size` pixels across.
    pub(crate) fn disc(&self, color: Color, size: u32) -> Sprite {
        let tree = &self.discs[color.index()];
        Sprite::piece(&rasterise(tree, size, size, size as f32 / 100.0, 0.0, 0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pixels where two sprites show something different.
    fn differing(a: &Sprite, b: &Sprite) -> usize {
        (0..a.level.len()).filter(|&i| a.level[i] != b.level[i] || (a.level[i] > 0 && a.index[i] != b.index[i])).count()
    }

    #[test]
    fn every_piece_kind_looks_different_at_48_pixels() {
        let kit = Art::new().kit(48);
        let min = 48 * 48 / 20;
        for color in Color::ALL {
            for (i, &a) in Role::ALL.iter().enumerate() {
                let sa = kit.piece(Piece::new(color, a));
                assert!(sa.level.iter().filter(|&&l| l > 0).count() > 48 * 48 / 4);
                for &b in &Role::ALL[i + 1..] {
                    let n = differing(sa, kit.piece(Piece::new(color, b)));
                    assert!(n >= min, "{color} {a} and {b} differ in only {n} pixels");
                }
            }
        }
        for role in Role::ALL {
            let n = differing(kit.piece(Piece::new(Color::White, role)), kit.piece(Piece::new(Color::Black, role)));
            assert!(n >= min, "white and black {role} differ in only {n} pixels");
        }
    }
}
