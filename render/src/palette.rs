//! Colours. Every picture is indexed colour over one palette per theme, so compositing never
//! leaves the palette and the PNG encoder gets one byte a pixel:
//!
//! - the named [`Ink`]s first (their index is their discriminant),
//! - then the tones that piece sprites are quantised to, the same in every theme so a sprite
//!   rasterised once serves them all,
//! - then the blends of ink over background that antialiased edges need most.
//!
//! A mixing table, built once per theme, answers "this ink over that pixel at this coverage"
//! with the nearest palette index: drawing is table lookups, never colour arithmetic.

use std::fmt;
use std::str::FromStr;

/// Coverage levels of a drawn pixel: 0 is untouched, `COVER` is the ink itself. Two levels
/// between keep edges smooth at chat sizes; each more costs a tenth more PNG bytes.
pub(crate) const COVER: u8 = 3;

/// Writes [`Ink`] and its list in palette order from one list of names.
macro_rules! inks {
    ($($ink:ident,)*) => {
        /// Colours pictures paint with by name.
        #[derive(Copy, Clone, PartialEq, Eq, Debug)]
        #[repr(u8)]
        pub(crate) enum Ink {
            $($ink,)*
        }

        impl Ink {
            /// Every ink, each at the index of its discriminant.
            const ALL: [Ink; INKS] = [$(Ink::$ink,)*];
        }

        pub(crate) const INKS: usize = [$(Ink::$ink,)*].len();
    };
}

inks! {
    Light,
    Dark,
    LastLight,
    LastDark,
    Check,
    Move,
    Capture,
    Jump,
    Hop,
    Frame,
    FrameText,
    Muted,
    Accent,
    Arrow,
    RookArrow,
    Outline,
    WhiteBody,
    BlackBody,
    BlackDetail,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// Piece colours: the same in every theme (sprites are shared), and in the art sources.
const OUTLINE: [u8; 3] = [0x1c, 0x1a, 0x17];
const WHITE_BODY: [u8; 3] = [0xf6, 0xf1, 0xe4];
const BLACK_BODY: [u8; 3] = [0x3d, 0x39, 0x34];
const BLACK_DETAIL: [u8; 3] = [0xe8, 0xe1, 0xcf];

/// A colour scheme for boards, GIFs, diagrams, graphs and standings. Pieces look the same in
/// every theme (their sprites are shared); a theme paints the squares, the last move's tint,
/// the check glow and the frame.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Theme {
    /// Cream and sage green.
    #[default]
    Green,
    /// Pale grey and slate blue.
    Blue,
    /// Light and dark wood, as on a club board.
    Brown,
    /// For players who see poorly: white and a strong blue, a saturated yellow and amber for
    /// the last move, a vivid red glow and a black frame. Its squares differ more than any
    /// other theme's, and its dark square sits halfway (by contrast ratio) between the bodies
    /// of the white and the black pieces, so both stand out from it as much as they can.
    Contrast,
}

/// The colours of a theme that a viewer can point at, as RGB.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ThemeColors {
    pub light: [u8; 3],
    pub dark: [u8; 3],
    /// Light and dark squares of the last move.
    pub last_light: [u8; 3],
    pub last_dark: [u8; 3],
    /// The heart of the glow under an attacked royal piece.
    pub check: [u8; 3],
    /// Border and caption strip.
    pub frame: [u8; 3],
}

impl Theme {
    /// Every theme, each at the index of its discriminant (the renderer keeps one palette
    /// per theme in this order).
    pub const ALL: [Theme; 4] = [Theme::Green, Theme::Blue, Theme::Brown, Theme::Contrast];

    /// The name players type to choose it, in lower case (parsing ignores case).
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Green => "green",
            Theme::Blue => "blue",
            Theme::Brown => "brown",
            Theme::Contrast => "contrast",
        }
    }

    pub const fn colors(self) -> ThemeColors {
        match self {
            Theme::Green => ThemeColors {
                light: [0xed, 0xee, 0xd1],
                dark: [0x7d, 0x9a, 0x5d],
                last_light: [0xf4, 0xf0, 0x8a],
                last_dark: [0xbb, 0xc5, 0x4d],
                check: [0xe0, 0x28, 0x1c],
                frame: [0x27, 0x2b, 0x25],
            },
            Theme::Blue => ThemeColors {
                light: [0xdf, 0xe4, 0xe8],
                dark: [0x86, 0x9c, 0xb0],
                last_light: [0xc9, 0xdc, 0x9a],
                last_dark: [0x93, 0xb0, 0x72],
                check: [0xe0, 0x28, 0x1c],
                frame: [0x23, 0x27, 0x2d],
            },
            Theme::Brown => ThemeColors {
                light: [0xec, 0xd6, 0xb0],
                dark: [0xa9, 0x7a, 0x55],
                last_light: [0xf2, 0xdc, 0x7c],
                last_dark: [0xc9, 0xa0, 0x40],
                check: [0xe0, 0x28, 0x1c],
                frame: [0x2b, 0x22, 0x19],
            },
            Theme::Contrast => ThemeColors {
                light: [0xff, 0xff, 0xff],
                dark: [0x4b, 0x8b, 0xca],
                last_light: [0xff, 0xd0, 0x2a],
                last_dark: [0xd0, 0x9e, 0x00],
                check: [0xff, 0x2a, 0x00],
                frame: [0x00, 0x00, 0x00],
            },
        }
    }

    fn ink(self, ink: Ink) -> [u8; 3] {
        let c = self.colors();
        match ink {
            Ink::Light => c.light,
            Ink::Dark => c.dark,
            Ink::LastLight => c.last_light,
            Ink::LastDark => c.last_dark,
            Ink::Check => c.check,
            Ink::Move => [0x17, 0x4f, 0x24],
            Ink::Capture => [0x17, 0x4f, 0x24],
            Ink::Jump => [0x5b, 0x2c, 0x8f],
            Ink::Hop => [0xc4, 0x2e, 0x12],
            Ink::Frame => c.frame,
            Ink::FrameText => [0xd8, 0xdb, 0xcf],
            Ink::Muted => [0x8c, 0x90, 0x86],
            Ink::Accent => [0xe8, 0xb9, 0x3c],
            Ink::Arrow => [0x1f, 0x7a, 0x3a],
            Ink::RookArrow => [0x1d, 0x4f, 0x9c],
            Ink::Outline => OUTLINE,
            Ink::WhiteBody => WHITE_BODY,
            Ink::BlackBody => BLACK_BODY,
            Ink::BlackDetail => BLACK_DETAIL,
            // The colours lichess marks its graphs with.
            Ink::Inaccuracy => [0x56, 0xb4, 0xe9],
            Ink::Mistake => [0xe6, 0x9f, 0x00],
            Ink::Blunder => [0xdb, 0x30, 0x31],
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A theme name that is none of [`Theme::ALL`]'s; its message lists them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown theme `{0}`; the themes are {names}", names = Theme::ALL.map(Theme::name).join(", "))]
pub struct UnknownTheme(pub String);

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(s: &str) -> Result<Theme, UnknownTheme> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownTheme(s.to_string()))
    }
}

/// The tones piece sprites are quantised to: short ramps between the piece colours (few
/// tones keep the PNGs small; antialiasing inside a piece needs only a couple). They follow
/// the inks in every palette.
pub(crate) fn tones() -> Vec<[u8; 3]> {
    let mut out: Vec<[u8; 3]> = Vec::new();
    for (a, b, steps) in [(OUTLINE, WHITE_BODY, 2), (OUTLINE, BLACK_BODY, 1), (BLACK_BODY, BLACK_DETAIL, 2)] {
        for i in 0..=steps {
            let c = lerp(a, b, i as f32 / steps as f32);
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// Palette index of the first tone.
pub(crate) const TONES_START: usize = INKS;

/// Ink-over-background pairs common enough to get exact blends at every coverage level.
const BLENDS: &[(Ink, &[Ink])] = {
    use Ink::*;
    const SQUARES: &[Ink] = &[Light, Dark, LastLight, LastDark];
    &[
        (Outline, &[Light, Dark, LastLight, LastDark, Frame, BlackBody]),
        (Check, &[Light, Dark]),
        (Move, SQUARES),
        (Capture, SQUARES),
        (Jump, &[Light, Dark]),
        (Hop, &[Light, Dark]),
        (FrameText, &[Frame]),
        (Muted, &[Frame, BlackBody]),
        (Accent, &[Frame, WhiteBody, Outline, BlackBody]),
        (Arrow, &[Light, Dark]),
        (RookArrow, &[Light, Dark]),
        (WhiteBody, &[Arrow, RookArrow, BlackBody]),
        // Evaluation graphs: the marks on the frame (a ring of it surrounds each dot).
        (Inaccuracy, &[Frame]),
        (Mistake, &[Frame]),
        (Blunder, &[Frame]),
    ]
};

pub(crate) struct Palette {
    rgb: Vec<[u8; 3]>,
    /// `mix[dst * INKS + ink][level]`: the index nearest to `ink` over `dst` at that coverage.
    mix: Vec<[u8; COVER as usize + 1]>,
}

impl Palette {
    pub(crate) fn new(theme: Theme) -> Palette {
        let mut rgb: Vec<[u8; 3]> = (0..INKS as u8).map(|i| theme.ink(ink(i))).collect();
        rgb.extend(tones());
        for &(ink, under) in BLENDS {
            for &bg in under {
                for level in 1..COVER {
                    let c = lerp(theme.ink(bg), theme.ink(ink), f32::from(level) / f32::from(COVER));
                    if !rgb.contains(&c) {
                        rgb.push(c);
                    }
                }
            }
        }
        // One index stays free: GIF frames mark their unchanged pixels with it.
        assert!(rgb.len() < 256, "palette overflows: {} colours", rgb.len());
        let mix = (0..rgb.len() * INKS)
            .map(|i| {
                let (dst, ink) = (i / INKS, i % INKS);
                let mut row = [0; COVER as usize + 1];
                for (level, slot) in row.iter_mut().enumerate() {
                    let c = lerp(rgb[dst], rgb[ink], level as f32 / f32::from(COVER));
                    *slot = nearest(&rgb, c) as u8;
                }
                row
            })
            .collect();
        Palette { rgb, mix }
    }

    /// The palette index of `ink` over pixel `dst` at coverage `level` (0..=COVER).
    #[inline]
    pub(crate) fn mix(&self, dst: u8, ink: u8, level: u8) -> u8 {
        self.mix[dst as usize * INKS + ink as usize][level as usize]
    }

    pub(crate) fn rgb(&self) -> &[[u8; 3]] {
        &self.rgb
    }

    /// The first index past the colours: transparent in GIF frames.
    pub(crate) fn transparent(&self) -> u8 {
        self.rgb.len() as u8
    }
}

fn ink(i: u8) -> Ink {
    Ink::ALL[usize::from(i)]
}

pub(crate) fn lerp(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    std::array::from_fn(|i| (f32::from(a[i]) + (f32::from(b[i]) - f32::from(a[i])) * t).round() as u8)
}

/// The index of the colour of `colors` closest to `c`, by a distance weighted for the eye.
pub(crate) fn nearest(colors: &[[u8; 3]], c: [u8; 3]) -> usize {
    let dist = |p: &[u8; 3]| -> i32 {
        let d = |i: usize| i32::from(p[i]) - i32::from(c[i]);
        2 * d(0) * d(0) + 4 * d(1) * d(1) + 3 * d(2) * d(2)
    };
    (0..colors.len()).min_by_key(|&i| dist(&colors[i])).expect("palette is not empty")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inks_sit_at_their_discriminants() {
        for i in 0..INKS as u8 {
            assert_eq!(ink(i) as u8, i);
        }
    }

    #[test]
    fn palettes_fit_and_mixing_ends_at_the_ink() {
        for theme in Theme::ALL {
            let p = Palette::new(theme);
            // With the transparent index, GIF codes start at 7 bits: smaller and faster frames.
            assert!(p.rgb().len() < 128, "{} colours", p.rgb().len());
            let (light, outline) = (Ink::Light as u8, Ink::Outline as u8);
            assert_eq!(p.mix(light, outline, 0), light);
            assert_eq!(p.mix(light, outline, COVER), outline);
            let edge = p.rgb()[p.mix(light, outline, 1) as usize];
            assert_eq!(edge, lerp(theme.colors().light, OUTLINE, 1.0 / f32::from(COVER)));
        }
    }

    #[test]
    fn themes_parse_by_name() {
        for t in Theme::ALL {
            assert_eq!(t.name().parse::<Theme>(), Ok(t));
            assert_eq!(t.name().to_uppercase().parse::<Theme>(), Ok(t));
        }
        assert_eq!(" Contrast ".parse::<Theme>(), Ok(Theme::Contrast));
        let unknown = "purple".parse::<Theme>().unwrap_err();
        assert_eq!(unknown.to_string(), "unknown theme `purple`; the themes are green, blue, brown, contrast");
    }

    #[test]
    fn themes_sit_at_their_discriminants() {
        for (i, theme) in Theme::ALL.into_iter().enumerate() {
            assert_eq!(theme as usize, i, "{theme}");
        }
    }

    /// WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white).
    fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
        let luminance = |c: [u8; 3]| {
            let lin = |v: u8| {
                let v = f64::from(v) / 255.0;
                if v <= 0.04045 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
        };
        let (a, b) = (luminance(a), luminance(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// WCAG's least contrast for the parts of a graphic one must see (success criterion 1.4.11).
    const GRAPHICS: f64 = 3.0;

    /// A white piece is a pale body inside a dark outline, so the outline is what shows it on
    /// a pale square; a black piece is dark throughout, so its body (the lighter of its two
    /// dark colours) must stand apart from the square.
    #[test]
    fn every_piece_stands_out_from_every_square_of_every_theme() {
        for theme in Theme::ALL {
            let c = theme.colors();
            for (name, square) in
                [("light", c.light), ("dark", c.dark), ("last light", c.last_light), ("last dark", c.last_dark)]
            {
                let outline = contrast(OUTLINE, square);
                assert!(outline >= GRAPHICS, "{theme} {name}: white pieces' outline {outline:.2}");
                let black = contrast(BLACK_BODY, square);
                assert!(black >= GRAPHICS, "{theme} {name}: black pieces' body {black:.2}");
            }
        }
    }

    #[test]
    fn the_contrast_theme_separates_more_than_every_other() {
        let c = Theme::Contrast.colors();
        let squares = |t: Theme| contrast(t.colors().light, t.colors().dark);
        // The squares themselves reach WCAG's contrast for graphics, and differ more than any
        // other theme's.
        assert!(squares(Theme::Contrast) >= GRAPHICS, "{:.2}", squares(Theme::Contrast));
        for theme in Theme::ALL.into_iter().filter(|&t| t != Theme::Contrast) {
            assert!(squares(Theme::Contrast) > squares(theme), "{theme}");
        }
        // Both bodies stand out from the dark square: white pieces need no outline there.
        assert!(contrast(WHITE_BODY, c.dark) >= GRAPHICS);
        assert!(contrast(BLACK_BODY, c.dark) >= GRAPHICS);
        // The last move shows without colour vision: by lightness, not only by hue.
        assert!(contrast(c.last_light, c.light) >= 1.4, "{:.2}", contrast(c.last_light, c.light));
        assert!(contrast(c.last_dark, c.dark) >= 1.4, "{:.2}", contrast(c.last_dark, c.dark));
        // The frame's lettering (coordinates, names) meets WCAG's stricter level for text.
        assert!(contrast(Theme::Contrast.ink(Ink::FrameText), c.frame) >= 7.0);
    }
}
