//! Lettering: names and labels as people write them. Text is set in Noto Sans (Latin with
//! accents, Greek and Cyrillic, in the case it was typed), with Noto Sans Symbols 2 and Noto
//! Sans Symbols behind it for common symbols (chess pieces, stars, hearts, arrows). The fonts are
//! subsets embedded in the binary; `render/fonts/README.md` says how they were made.
//!
//! What this guarantees, for any string:
//! - a character one of the fonts has is drawn with that font's glyph, never a stand-in;
//! - invisible format characters (joiners, variation selectors, emoji modifiers) and emoji no
//!   font has are left out, and text left with nothing visible shows one placeholder (`◌`);
//! - any other character no font has (a Chinese or Arabic letter) shows as a `◌`, one per
//!   character: text never turns into a row of `?`;
//! - [`GlyphSet::fit`] cuts text with an ellipsis so that it never draws wider than asked.
//!
//! Glyphs are rasterised once per size into coverage sprites (printable ASCII when the size is
//! first used, anything else on first sight) and stamped like the piece sprites.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use ab_glyph::{point, Font, FontRef, GlyphId, PxScale, ScaleFont};

use crate::canvas::Canvas;
use crate::palette::{Ink, COVER};
use crate::sprite::Sprite;

/// The fonts in the order they are asked for a character.
static FACES: LazyLock<[FontRef<'static>; 3]> = LazyLock::new(|| {
    [
        include_bytes!("../fonts/NotoSans-Regular.subset.ttf").as_slice(),
        include_bytes!("../fonts/NotoSansSymbols2-Regular.subset.ttf").as_slice(),
        include_bytes!("../fonts/NotoSansSymbols-Regular.subset.ttf").as_slice(),
    ]
    .map(|bytes| FontRef::try_from_slice(bytes).expect("the shipped fonts parse"))
});

/// Height of a capital of the main font, as a fraction of its em.
static CAP_HEIGHT: LazyLock<f32> = LazyLock::new(|| {
    let sans = &FACES[0];
    let bounds = sans.outline(sans.glyph_id('H')).expect("the main font has `H`").bounds;
    let em = sans.units_per_em().expect("the main font has an em");
    (bounds.max.y - bounds.min.y).abs() / em
});

/// Shown for a character no font has.
pub(crate) const PLACEHOLDER: char = '\u{25CC}';
/// Ends text cut to fit.
const ELLIPSIS: char = '\u{2026}';
/// Characters of one line that are ever looked at.
const MAX_CHARS: usize = 400;

/// One glyph of one font.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct GlyphKey {
    face: u8,
    id: GlyphId,
}

/// What a character of some text becomes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Source {
    /// A glyph of one of the fonts.
    Glyph(GlyphKey),
    /// No font has it: drawn as [`PLACEHOLDER`].
    Placeholder,
    /// Drawn as nothing: a format character, or an emoji no font has.
    Dropped,
}

/// Characters that only steer how others are shown, and control characters.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c as u32,
            0x00AD | 0x034F | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F | 0x20E3 | 0xFE00..=0xFE0F
                | 0xFEFF | 0xE0000..=0xE007F | 0xE0100..=0xE01EF
        )
}

/// Pictographs and symbols: in a name they decorate rather than spell.
fn is_emoji(c: char) -> bool {
    matches!(c as u32, 0x2190..=0x2BFF | 0x3030 | 0x303D | 0x3297 | 0x3299 | 0x1F000..=0x1FAFF)
}

/// Where `c` is drawn from.
pub(crate) fn source(c: char) -> Source {
    if is_invisible(c) {
        return Source::Dropped;
    }
    for (face, font) in FACES.iter().enumerate() {
        let id = font.glyph_id(c);
        if id.0 != 0 {
            return Source::Glyph(GlyphKey { face: face as u8, id });
        }
    }
    if is_emoji(c) {
        Source::Dropped
    } else {
        Source::Placeholder
    }
}

fn placeholder_key() -> GlyphKey {
    match source(PLACEHOLDER) {
        Source::Glyph(key) => key,
        _ => unreachable!("the main font has the placeholder"),
    }
}

/// The glyphs that draw `text`, in order.
pub(crate) fn glyph_keys(text: &str) -> Vec<GlyphKey> {
    let mut keys = Vec::with_capacity(text.len());
    let mut dropped = false;
    for c in text.chars() {
        match source(c) {
            Source::Glyph(key) => keys.push(key),
            Source::Placeholder => keys.push(placeholder_key()),
            Source::Dropped => dropped = true,
        }
    }
    // Emoji around a name leave spaces behind; a name of emoji only leaves nothing at all.
    if dropped {
        let space = FACES[0].glyph_id(' ');
        let blank = |k: &GlyphKey| k.face == 0 && k.id == space;
        let start = keys.iter().position(|k| !blank(k)).unwrap_or(keys.len());
        let end = keys.iter().rposition(|k| !blank(k)).map_or(start, |i| i + 1);
        keys = keys[start..end].to_vec();
        if keys.is_empty() {
            keys.push(placeholder_key());
        }
    }
    keys
}

/// A glyph rasterised at one size.
struct Glyph {
    /// Coverage, in whatever ink the text is drawn.
    sprite: Sprite,
    /// Offset of the sprite's top-left corner from the pen on the baseline.
    left: i32,
    top: i32,
    /// Pixels from this pen position to the next.
    advance: f32,
}

fn rasterise(key: GlyphKey, px_per_em: f32) -> Glyph {
    let font = &FACES[key.face as usize];
    let em = font.units_per_em().expect("the shipped fonts have an em");
    let scale = PxScale::from(px_per_em * font.height_unscaled() / em);
    let advance = font.as_scaled(scale).h_advance(key.id);
    let blank = Glyph { sprite: Sprite::coverage(0, 0, Vec::new(), Ink::FrameText), left: 0, top: 0, advance };
    let Some(outlined) = font.outline_glyph(key.id.with_scale_and_position(scale, point(0.0, 0.0))) else {
        return blank;
    };
    let bounds = outlined.px_bounds();
    let (width, height) = (bounds.width() as u32, bounds.height() as u32);
    let mut levels = vec![0; (width * height) as usize];
    outlined.draw(|x, y, c| {
        if let Some(level) = levels.get_mut((y * width + x) as usize) {
            *level = (c.clamp(0.0, 1.0) * f32::from(COVER)).round() as u8;
        }
    });
    Glyph {
        sprite: Sprite::coverage(width, height, levels, Ink::FrameText),
        left: bounds.min.x as i32,
        top: bounds.min.y as i32,
        advance,
    }
}

/// The fonts rasterised at one size: capitals `size` pixels tall.
pub(crate) struct GlyphSet {
    size: u32,
    px_per_em: f32,
    /// Printable ASCII, rasterised up front: coordinates, digits and most names.
    common: HashMap<GlyphKey, Glyph>,
    /// Everything else, rasterised on first use.
    rest: Mutex<HashMap<GlyphKey, Glyph>>,
}

impl GlyphSet {
    pub(crate) fn new(size: u32) -> GlyphSet {
        let size = size.max(1);
        let px_per_em = size as f32 / *CAP_HEIGHT;
        let common = (' '..='~')
            .filter_map(|c| match source(c) {
                Source::Glyph(key) => Some((key, rasterise(key, px_per_em))),
                _ => None,
            })
            .collect();
        GlyphSet { size, px_per_em, common, rest: Mutex::new(HashMap::new()) }
    }

    /// Height of a capital, in pixels.
    pub(crate) fn size(&self) -> u32 {
        self.size
    }

    /// Calls `f` with each glyph of `keys`, rasterising the ones not seen before.
    fn with_glyphs(&self, keys: &[GlyphKey], mut f: impl FnMut(GlyphKey, &Glyph)) {
        let mut rest = None;
        for &key in keys {
            if let Some(glyph) = self.common.get(&key) {
                f(key, glyph);
                continue;
            }
            let rest = rest.get_or_insert_with(|| self.rest.lock().unwrap_or_else(|e| e.into_inner()));
            let glyph = rest.entry(key).or_insert_with(|| rasterise(key, self.px_per_em));
            f(key, glyph);
        }
    }

    /// The width `keys` cover from the pen's start: to the pen's end or the last ink,
    /// whichever is further right.
    fn measure(&self, keys: &[GlyphKey]) -> u32 {
        let mut pen = 0.0f32;
        let mut right = 0.0f32;
        self.with_glyphs(keys, |_, glyph| {
            if glyph.sprite.width > 0 {
                right = right.max(pen.round() + (glyph.left + glyph.sprite.width as i32) as f32);
            }
            pen += glyph.advance;
        });
        right.max(pen).ceil() as u32
    }

    /// The width of `text`, in pixels.
    pub(crate) fn width(&self, text: &str) -> u32 {
        self.measure(&glyph_keys(text))
    }

    /// `text` cut (and ended with `…`) to fit in `max` pixels; empty if not even `…` fits.
    pub(crate) fn fit(&self, text: &str, max: u32) -> String {
        // No picture is wide enough for more characters than this.
        let chars: Vec<char> = text.chars().take(MAX_CHARS).collect();
        let whole: String = chars.iter().collect();
        if chars.len() == text.chars().count() && self.width(&whole) <= max {
            return whole;
        }
        let cut = |n: usize| -> String {
            let kept: String = chars[..n].iter().collect();
            format!("{}{ELLIPSIS}", kept.trim_end())
        };
        // Widths grow with the prefix (advances are never negative): the longest prefix that
        // fits is found by bisection.
        let (mut lo, mut hi) = (0, chars.len());
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if self.width(&cut(mid)) <= max {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let fitted = cut(lo);
        if self.width(&fitted) <= max {
            fitted
        } else {
            String::new()
        }
    }

    /// Draws `text` in `ink` with its left end at `x` and its baseline at `baseline`.
    pub(crate) fn draw(&self, canvas: &mut Canvas, text: &str, x: i32, baseline: i32, ink: Ink) {
        let mut pen = 0.0f32;
        self.with_glyphs(&glyph_keys(text), |_, glyph| {
            canvas.draw_ink(&glyph.sprite, x + pen.round() as i32 + glyph.left, baseline + glyph.top, ink);
            pen += glyph.advance;
        });
    }

    /// Draws `text` centred on (`cx`, `cy`): capitals sit centred on that point.
    pub(crate) fn draw_centred(&self, canvas: &mut Canvas, text: &str, cx: i32, cy: i32, ink: Ink) {
        let x = cx - self.width(text) as i32 / 2;
        let baseline = cy + self.size as i32 / 2;
        self.draw(canvas, text, x, baseline, ink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_typed_come_from_the_fonts() {
        for name in ["élodie", "Жора", "Ωmega", "x_X_slayer_X_x_2009", "Nguyễn Thị Ánh", "ᴍᴀɢɴᴜs"] {
            for c in name.chars() {
                assert!(matches!(source(c), Source::Glyph(_)), "{name}: {c:?} has a glyph");
            }
            assert!(!glyph_keys(name).contains(&placeholder_key()), "{name} draws no placeholder");
        }
        // Lower and upper case are different glyphs: nothing is set in capitals.
        assert_ne!(glyph_keys("жора"), glyph_keys("ЖОРА"));
    }

    #[test]
    fn symbols_fall_back_and_emoji_drop_out() {
        for c in ['♔', '★', '♥', '✓', '←', '☺'] {
            assert!(matches!(source(c), Source::Glyph(GlyphKey { face: 1.., .. })), "{c} from a symbol font");
        }
        assert_eq!(glyph_keys("🔥 Magnus 🔥"), glyph_keys("Magnus"));
        assert_eq!(glyph_keys("Ann\u{200D}\u{FE0F}"), glyph_keys("Ann"));
        assert_eq!(glyph_keys("🐉🐉"), vec![placeholder_key()]);
        assert_eq!(glyph_keys("李明"), vec![placeholder_key(); 2]);
        assert_eq!(glyph_keys("Жора李"), [glyph_keys("Жора"), vec![placeholder_key()]].concat());
    }

    #[test]
    fn fitting_cuts_with_an_ellipsis_and_never_overflows() {
        let glyphs = GlyphSet::new(16);
        let long = "Wolfeschlegelsteinhausenbergerdorff élodie Жора";
        for max in [0, 5, 12, 40, 100, 200] {
            let fitted = glyphs.fit(long, max);
            assert!(glyphs.width(&fitted) <= max, "{fitted:?} in {max}");
            if !fitted.is_empty() {
                assert!(fitted.ends_with('…'), "{fitted:?}");
            }
        }
        assert_eq!(glyphs.fit("élodie", 400), "élodie");
        assert!(glyphs.width("élodie") > glyphs.width("elo"));
    }

    #[test]
    fn glyphs_are_as_tall_as_asked() {
        let glyphs = GlyphSet::new(20);
        let mut h = None;
        glyphs.with_glyphs(&glyph_keys("H"), |_, g| h = Some((g.sprite.height, g.top)));
        let (height, top) = h.unwrap();
        assert!((19..=21).contains(&height), "capital H is {height} px");
        assert!((-21..=-19).contains(&top), "and stands on the baseline: top {top}");
    }
}
