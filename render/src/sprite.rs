//! Sprites: pictures rasterised once (with resvg) and kept as palette indices with a coverage
//! level per pixel, ready to be stamped onto any background by table lookups.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::palette::{nearest, tones, Ink, COVER, TONES_START};

/// A rectangle of pixels. A pixel at full coverage is its palette index; a partly covered one
/// (an antialiased edge) holds the ink that is blended over whatever lies beneath.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Sprite {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) index: Vec<u8>,
    pub(crate) level: Vec<u8>,
}

/// Parses SVG source that this crate ships (and so knows to be valid).
pub(crate) fn parse_svg(source: &str) -> usvg::Tree {
    usvg::Tree::from_str(source, &usvg::Options::default()).expect("shipped SVG parses")
}

/// Rasterises `tree` scaled by `scale` and shifted by (`dx`, `dy`) pixels into a pixmap.
pub(crate) fn rasterise(tree: &usvg::Tree, width: u32, height: u32, scale: f32, dx: f32, dy: f32) -> Pixmap {
    let mut pixmap = Pixmap::new(width.max(1), height.max(1)).expect("non-empty sprite");
    let transform = Transform::from_row(scale, 0.0, 0.0, scale, dx, dy);
    resvg::render(tree, transform, &mut pixmap.as_mut());
    pixmap
}

fn level_of(alpha: u8) -> u8 {
    ((u32::from(alpha) * u32::from(COVER) + 127) / 255) as u8
}

impl Sprite {
    /// A piece: opaque pixels become the nearest piece tone, edges a blend of the outline.
    pub(crate) fn piece(pixmap: &Pixmap) -> Sprite {
        let tones = tones();
        let mut sprite = Sprite::blank(pixmap.width(), pixmap.height());
        for (i, px) in pixmap.pixels().iter().enumerate() {
            let level = level_of(px.alpha());
            sprite.level[i] = level;
            sprite.index[i] = if level == COVER {
                let c = px.demultiply();
                (TONES_START + nearest(&tones, [c.red(), c.green(), c.blue()])) as u8
            } else {
                Ink::Outline as u8
            };
        }
        sprite
    }

    /// A shape in one ink: only the coverage of the pixmap counts.
    pub(crate) fn mask(pixmap: &Pixmap, ink: Ink) -> Sprite {
        let mut sprite = Sprite::blank(pixmap.width(), pixmap.height());
        for (i, px) in pixmap.pixels().iter().enumerate() {
            sprite.level[i] = level_of(px.alpha());
            sprite.index[i] = ink as u8;
        }
        sprite
    }

    /// A shape in one ink from its coverage levels (0..=COVER), row by row.
    pub(crate) fn coverage(width: u32, height: u32, level: Vec<u8>, ink: Ink) -> Sprite {
        debug_assert_eq!(level.len(), (width * height) as usize);
        Sprite { width, height, index: vec![ink as u8; level.len()], level }
    }

    fn blank(width: u32, height: u32) -> Sprite {
        let n = (width * height) as usize;
        Sprite { width, height, index: vec![0; n], level: vec![0; n] }
    }
}
