//! [`Renderer`]: everything drawing needs, prepared once and shared.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rules::Color;

use crate::art::{Art, SquareKit};
use crate::font::GlyphSet;
use crate::layout::Layout;
use crate::palette::{Palette, Theme};
use crate::sprite::Sprite;

/// Sprites for one layout: pieces and markers at its square size, lettering for its border
/// and caption.
pub(crate) struct Kit {
    pub(crate) squares: SquareKit,
    pub(crate) coords: Arc<GlyphSet>,
    pub(crate) caption: Arc<GlyphSet>,
    pub(crate) discs: [Sprite; 2],
}

impl Kit {
    pub(crate) fn caption_size(caption: u32) -> u32 {
        (caption * 2 / 5).max(6)
    }
}

/// Layouts whose sprites stay cached; a host uses one or two sizes, so this only bounds
/// what a stream of odd sizes could pile up.
const CACHED_LAYOUTS: usize = 16;

/// Draws boards and rule diagrams. Build one and share it: the art is parsed here, and the
/// sprites for each picture size are rasterised on first use and kept.
pub struct Renderer {
    art: Art,
    palettes: Vec<Palette>,
    kits: Mutex<HashMap<(u32, u32, u32), Arc<Kit>>>,
    glyphs: Mutex<HashMap<u32, Arc<GlyphSet>>>,
}

impl Default for Renderer {
    fn default() -> Renderer {
        Renderer::new()
    }
}

impl Renderer {
    pub fn new() -> Renderer {
        Renderer {
            art: Art::new(),
            palettes: Theme::ALL.iter().map(|&t| Palette::new(t)).collect(),
            kits: Mutex::new(HashMap::new()),
            glyphs: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn palette(&self, theme: Theme) -> &Palette {
        &self.palettes[theme as usize]
    }

    pub(crate) fn kit(&self, layout: &Layout) -> Arc<Kit> {
        let key = (layout.square, layout.border, layout.caption);
        let mut kits = self.kits.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kit) = kits.get(&key) {
            return kit.clone();
        }
        if kits.len() >= CACHED_LAYOUTS {
            kits.clear();
        }
        let caption = Kit::caption_size(layout.caption.max(layout.border));
        let disc = caption * 5 / 4;
        let kit = Arc::new(Kit {
            squares: self.art.kit(layout.square),
            coords: self.glyphs((layout.border * 2 / 5).max(6)),
            caption: self.glyphs(caption),
            discs: Color::ALL.map(|c| self.art.disc(c, disc)),
        });
        kits.insert(key, kit.clone());
        kit
    }

    /// The lettering at one size (capitals `size` pixels tall), rasterised on first use.
    pub(crate) fn glyphs(&self, size: u32) -> Arc<GlyphSet> {
        let mut sets = self.glyphs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(set) = sets.get(&size) {
            return set.clone();
        }
        if sets.len() >= CACHED_LAYOUTS * 2 {
            sets.clear();
        }
        let set = Arc::new(GlyphSet::new(size));
        sets.insert(size, set.clone());
        set
    }
}
