//! The project's own lettering: a monoline stroke font drawn as SVG path data (capitals,
//! digits, the files a-j and a little punctuation), rasterised per size into glyph sprites.
//!
//! Glyphs are drawn on a grid where capitals stand 10 units tall, the baseline at y = 10 and
//! descenders reaching y = 13.5. Captions set names in capitals (they read well small); a
//! character the font lacks shows as `?`.

use crate::canvas::Canvas;
use crate::palette::Ink;
use crate::sprite::{parse_svg, rasterise, Sprite};

/// Stroke width in grid units.
const STROKE: f32 = 1.55;
/// Space after each glyph, in grid units.
const TRACKING: f32 = 2.3;
const TOP: f32 = -1.5;
const BOTTOM: f32 = 14.5;

/// (character, width, path data).
const GLYPHS: &[(char, f32, &str)] = &[
    (' ', 2.0, ""),
    ('A', 6.4, "M0 10 L3.2 0 L6.4 10 M1.1 6.6 H5.3"),
    ('B', 5.6, "M0 10 V0 H3.2 C5.4 0 5.4 4.8 3.2 4.8 H0 M3.2 4.8 C6.2 4.8 6.2 10 3.2 10 H0"),
    ('C', 5.8, "M5.8 1.8 C4.5 -0.6 0 -0.5 0 5 C0 10.5 4.5 10.6 5.8 8.2"),
    ('D', 5.8, "M0 0 V10 H2.4 C6.4 10 6.4 0 2.4 0 Z"),
    ('E', 5.2, "M5.2 0 H0 V10 H5.2 M0 4.9 H4.2"),
    ('F', 5.0, "M5 0 H0 V10 M0 4.9 H4.2"),
    ('G', 6.0, "M6 1.8 C4.6 -0.6 0 -0.5 0 5 C0 10.5 5 10.6 6 8 V5.6 H3.4"),
    ('H', 6.0, "M0 0 V10 M6 0 V10 M0 4.9 H6"),
    ('I', 0.0, "M0 0 V10"),
    ('J', 4.8, "M4.8 0 V7 C4.8 10.6 0.4 10.6 0 7.6"),
    ('K', 5.8, "M0 0 V10 M5.6 0 L0 6.2 M1.9 4.1 L5.8 10"),
    ('L', 5.0, "M0 0 V10 H5"),
    ('M', 7.2, "M0 10 V0 L3.6 6.4 L7.2 0 V10"),
    ('N', 6.0, "M0 10 V0 L6 10 V0"),
    ('O', 6.6, "M3.3 0 C5.1 0 6.6 2.2 6.6 5 C6.6 7.8 5.1 10 3.3 10 C1.5 10 0 7.8 0 5 C0 2.2 1.5 0 3.3 0 Z"),
    ('P', 5.6, "M0 10 V0 H3.2 C6.2 0 6.2 5.4 3.2 5.4 H0"),
    (
        'Q',
        6.6,
        "M3.3 0 C5.1 0 6.6 2.2 6.6 5 C6.6 7.8 5.1 10 3.3 10 C1.5 10 0 7.8 0 5 C0 2.2 1.5 0 3.3 0 Z M4.2 7.4 L6.6 10.4",
    ),
    ('R', 5.8, "M0 10 V0 H3.2 C6.2 0 6.2 5.4 3.2 5.4 H0 M3 5.4 L5.8 10"),
    ('S', 5.6, "M5.4 1.6 C4.5 -0.4 0.3 -0.5 0.3 2.6 C0.3 5.4 5.6 4.4 5.6 7.4 C5.6 10.6 1 10.5 0 8.3"),
    ('T', 6.0, "M0 0 H6 M3 0 V10"),
    ('U', 6.0, "M0 0 V6.6 C0 10.7 6 10.7 6 6.6 V0"),
    ('V', 6.4, "M0 0 L3.2 10 L6.4 0"),
    ('W', 8.6, "M0 0 L2.1 10 L4.3 2.6 L6.5 10 L8.6 0"),
    ('X', 6.0, "M0 0 L6 10 M6 0 L0 10"),
    ('Y', 6.2, "M0 0 L3.1 5.2 L6.2 0 M3.1 5.2 V10"),
    ('Z', 5.8, "M0 0 H5.8 L0 10 H5.8"),
    ('0', 5.6, "M2.8 0 C4.4 0 5.6 2.2 5.6 5 C5.6 7.8 4.4 10 2.8 10 C1.2 10 0 7.8 0 5 C0 2.2 1.2 0 2.8 0 Z"),
    ('1', 3.0, "M0 2 L2.6 0 V10"),
    ('2', 5.6, "M0.3 2.4 C1 -0.6 5.6 -0.7 5.6 2.8 C5.6 5.3 0.6 7.4 0 10 H5.6"),
    (
        '3',
        5.6,
        "M0.4 1.1 C1.5 -0.5 5.4 -0.4 5.4 2.6 C5.4 4.5 3.8 5 2.4 5 C4 5 5.6 5.8 5.6 7.5 C5.6 10.6 1.2 10.6 0 8.8",
    ),
    ('4', 5.8, "M4.3 10 V0 L0 7 H5.8"),
    ('5', 5.6, "M5.2 0 H0.8 L0.3 4.6 C2.2 3.3 5.6 3.8 5.6 7 C5.6 10.5 1.2 10.6 0 8.8"),
    ('6', 5.6, "M5 0.8 C2.6 -0.8 0 1.4 0 6 C0 10.6 5.6 10.8 5.6 7 C5.6 3.5 1 3.5 0.1 6.4"),
    ('7', 5.6, "M0 0 H5.6 L2 10"),
    ('8', 5.6, "M2.8 4.8 C-0.1 4.8 0.1 0 2.8 0 C5.5 0 5.7 4.8 2.8 4.8 C-0.4 4.8 -0.4 10 2.8 10 C6 10 6 4.8 2.8 4.8 Z"),
    ('9', 5.6, "M5.5 4 C4.6 6.5 0 6.5 0 3.2 C0 -0.9 5.6 -0.9 5.6 4 C5.6 8.5 3 10.8 0.4 9.4"),
    ('a', 5.0, "M5 3 V10 M5 6.5 C5 2 0 2 0 6.5 C0 11 5 11 5 6.5"),
    ('b', 5.0, "M0 0 V10 M0 6.5 C0 2 5 2 5 6.5 C5 11 0 11 0 6.5"),
    ('c', 4.8, "M4.8 4.3 C3.8 2.4 0 2.5 0 6.5 C0 10.5 3.8 10.6 4.8 8.7"),
    ('d', 5.0, "M5 0 V10 M5 6.5 C5 2 0 2 0 6.5 C0 11 5 11 5 6.5"),
    ('e', 5.0, "M0.1 6.4 H5 C5 2.1 0 2.1 0 6.5 C0 10.6 3.8 10.7 4.9 9"),
    ('f', 3.8, "M3.8 0.5 C2.7 -0.4 1.3 0 1.3 2 V10 M0 3.6 H3.4"),
    ('g', 5.0, "M5 3 V10.6 C5 13.7 1 13.9 0.2 12.1 M5 6.5 C5 2 0 2 0 6.5 C0 11 5 11 5 6.5"),
    ('h', 5.0, "M0 0 V10 M0 6 C0.4 2.3 5 2.2 5 5.8 V10"),
    ('i', 0.0, "M0 3.4 V10 M0 0.4 V0.9"),
    ('j', 1.6, "M1.6 3.4 V11 C1.6 13.5 0 13.6 -0.8 12.9 M1.6 0.4 V0.9"),
    ('.', 0.0, "M0 9.6 V10"),
    (',', 0.6, "M0.6 9.4 L0 11.6"),
    ('-', 3.6, "M0 6 H3.6"),
    ('\'', 0.0, "M0 0 V3.2"),
    (':', 0.0, "M0 3.2 V3.7 M0 9.5 V10"),
    ('+', 5.0, "M0 6 H5 M2.5 3.5 V8.5"),
    ('/', 4.0, "M4 0 L0 10"),
    ('(', 2.2, "M2.2 -0.6 C-0.7 2.6 -0.7 7.4 2.2 10.6"),
    (')', 2.2, "M0 -0.6 C2.9 2.6 2.9 7.4 0 10.6"),
    ('!', 0.0, "M0 0 V6.8 M0 9.5 V10"),
    ('?', 5.2, "M0.2 2.3 C0.9 -0.7 5.2 -0.6 5.2 2.4 C5.2 4.9 2.6 4.9 2.6 7.1 M2.6 9.5 V10"),
    ('_', 5.0, "M0 10 H5"),
];

/// The font rasterised at one size: capitals `size` pixels tall.
pub(crate) struct GlyphSet {
    size: u32,
    /// Parallel to [`GLYPHS`].
    glyphs: Vec<Glyph>,
}

struct Glyph {
    sprite: Sprite,
    /// Pixels from the pen position to the next glyph's.
    advance: f32,
}

impl GlyphSet {
    pub(crate) fn new(size: u32) -> GlyphSet {
        let scale = size as f32 / 10.0;
        let pad = STROKE / 2.0 + 0.8;
        let glyphs = GLYPHS
            .iter()
            .map(|&(_, width, path)| {
                let svg = format!(
                    r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="{path}" fill="none" stroke="black" stroke-width="{STROKE}" stroke-linecap="round" stroke-linejoin="round"/></svg>"#
                );
                let w = ((width + 2.0 * pad) * scale).ceil() as u32 + 1;
                let h = ((BOTTOM - TOP) * scale).ceil() as u32;
                let pixmap = rasterise(&parse_svg(&svg), w, h, scale, pad * scale, -TOP * scale);
                Glyph {
                    sprite: Sprite::mask(&pixmap, Ink::FrameText),
                    advance: (width + STROKE + TRACKING) * scale,
                }
            })
            .collect();
        GlyphSet { size, glyphs }
    }

    /// Height of a capital, in pixels.
    pub(crate) fn size(&self) -> u32 {
        self.size
    }

    fn glyph(&self, c: char) -> &Glyph {
        let find = |c: char| GLYPHS.iter().position(|g| g.0 == c);
        let i = find(c).or_else(|| find(c.to_ascii_uppercase())).or_else(|| find('?')).expect("the font has `?`");
        &self.glyphs[i]
    }

    /// The width of `text` set in this font, in pixels.
    pub(crate) fn width(&self, text: &str) -> u32 {
        let scale = self.size as f32 / 10.0;
        let sum: f32 = text.chars().map(|c| self.glyph(c).advance).sum();
        (sum - (TRACKING * scale)).max(0.0).round() as u32
    }

    /// `text` cut (with a trailing `.`) to fit in `max` pixels.
    pub(crate) fn fit(&self, text: &str, max: u32) -> String {
        if self.width(text) <= max {
            return text.to_string();
        }
        let mut cut: String = text.to_string();
        while !cut.is_empty() && self.width(&format!("{cut}.")) > max {
            cut.pop();
        }
        format!("{}.", cut.trim_end())
    }

    /// Draws `text` in `ink` with its left end at `x` and its baseline at `baseline`.
    pub(crate) fn draw(&self, canvas: &mut Canvas, text: &str, x: i32, baseline: i32, ink: Ink) {
        let scale = self.size as f32 / 10.0;
        let pad = STROKE / 2.0 + 0.8;
        let top = baseline - (10.0 * scale - TOP * scale).round() as i32;
        let mut pen = x as f32 - pad * scale;
        for c in text.chars() {
            let glyph = self.glyph(c);
            canvas.draw_ink(&glyph.sprite, pen.round() as i32, top, ink);
            pen += glyph.advance;
        }
    }

    /// Draws `text` centred on (`cx`, `cy`): capitals sit centred on that point.
    pub(crate) fn draw_centred(&self, canvas: &mut Canvas, text: &str, cx: i32, cy: i32, ink: Ink) {
        let x = cx - self.width(text) as i32 / 2;
        let baseline = cy + self.size as i32 / 2;
        self.draw(canvas, text, x, baseline, ink);
    }
}
