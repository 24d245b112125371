//! Whole games as animated GIFs, made the way lila-gif makes them: one global palette fixed in
//! advance (the theme's, so nothing is quantised while encoding), the first frame whole and
//! every later frame only the rectangle that changed, its unchanged pixels transparent, the
//! last move tinted, the players and the result in the caption, and a longer pause on the last
//! frame.
//!
//! What this guarantees: a GIF of a game of `n` plies has exactly `n + 1` frames, and frame `i`
//! composited over the ones before it is pixel for pixel the PNG of [`GameGif::board_view`]`(i)`.

use std::time::Duration;

use gif::{DisposalMethod, Encoder, Frame, Repeat};
use rules::{Bitboard, Game, Piece, Square};

use crate::board::{attacked_royals, move_squares, paint_caption, BoardView, Caption};
use crate::layout::{Layout, MAX_SIZE, MIN_SIZE};
use crate::lzw::LzwEncoder;
use crate::palette::{Ink, Theme};
use crate::renderer::Renderer;
use crate::scene::{self, Scene};
use crate::setters::picture_setters;

/// A game to animate: built with [`GameGif::new`] and adjusted with the builder methods.
#[derive(Clone, Debug)]
pub struct GameGif<'a> {
    pub game: &'a Game,
    /// Names of White and Black, as the players wrote them.
    pub players: [&'a str; 2],
    /// The caption's result; [`GameGif::new`] takes the game's (`1-0`, `0-1`, `1/2-1/2`).
    pub result: Option<&'a str>,
    pub theme: Theme,
    /// Width in pixels, clamped to `MIN_SIZE..=MAX_SIZE`.
    pub size: u32,
    /// Black at the bottom.
    pub flipped: bool,
    /// File letters and rank numbers in the border; without them the squares are larger.
    pub coordinates: bool,
    /// How long each position shows, and the last one.
    pub delay: Duration,
    pub last_delay: Duration,
}

/// A GIF and what went into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GifOutput {
    pub bytes: Vec<u8>,
    /// The width it was drawn at: the one asked for, or less if it had to fit a byte limit.
    pub size_used: u32,
    /// Positions shown: the game's plies and the start.
    pub frames: usize,
}

/// The GIF does not fit the byte limit even at the smallest size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the game's GIF takes {bytes} bytes even at {size} px, over the limit of {limit} bytes")]
pub struct GifTooLarge {
    pub bytes: usize,
    pub size: u32,
    pub limit: usize,
}

impl<'a> GameGif<'a> {
    pub const DEFAULT_DELAY: Duration = Duration::from_millis(800);
    pub const DEFAULT_LAST_DELAY: Duration = Duration::from_secs(4);

    pub fn new(game: &'a Game) -> GameGif<'a> {
        GameGif {
            game,
            players: ["White", "Black"],
            result: game.outcome().map(|o| o.result()),
            theme: Theme::default(),
            size: BoardView::DEFAULT_SIZE,
            flipped: false,
            coordinates: true,
            delay: GameGif::DEFAULT_DELAY,
            last_delay: GameGif::DEFAULT_LAST_DELAY,
        }
    }

    picture_setters!('a; players, result, theme, size, flipped, coordinates);

    pub fn delays(mut self, each: Duration, last: Duration) -> Self {
        self.delay = each;
        self.last_delay = last;
        self
    }

    /// Frames in the GIF: every position of the game, the start first.
    pub fn frames(&self) -> usize {
        self.game.positions().len()
    }

    /// The board that frame `ply` shows (the position after `ply` plies, its last move
    /// tinted), or `None` past the game's end.
    pub fn board_view(&self, ply: usize) -> Option<BoardView<'a>> {
        let position = self.game.positions().get(ply)?;
        let mut view = BoardView::new(position)
            .players(self.players[0], self.players[1])
            .theme(self.theme)
            .size(self.size)
            .flipped(self.flipped)
            .coordinates(self.coordinates);
        view.result = self.result;
        view.last_move = ply.checked_sub(1).map(|i| self.game.moves()[i]);
        Some(view)
    }
}

/// GIF delays count hundredths of a second.
fn centiseconds(d: Duration) -> u16 {
    (d.as_millis() / 10).min(u128::from(u16::MAX)) as u16
}

/// What one square shows; a square is drawn again when this changes.
#[derive(Copy, Clone, PartialEq, Eq)]
struct SquareLook {
    piece: Option<Piece>,
    tinted: bool,
    glowing: bool,
}

fn looks(view: &BoardView, layout: &Layout) -> Vec<(Square, SquareLook)> {
    let tinted = view.last_move.as_ref().map_or(Bitboard::EMPTY, move_squares);
    let glowing = attacked_royals(view.position);
    let board = view.position.board();
    layout
        .squares()
        .map(|sq| {
            (sq, SquareLook { piece: board.piece_at(sq), tinted: tinted.contains(sq), glowing: glowing.contains(sq) })
        })
        .collect()
}

/// A rectangle of the picture, in pixels.
#[derive(Copy, Clone, Debug)]
struct Rect {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

impl Rect {
    /// The rows of `pixels` (a picture `width` wide) inside the rectangle.
    fn rows(self, pixels: &[u8], width: u32) -> impl Iterator<Item = &[u8]> {
        (self.y..self.y + self.h).map(move |row| {
            let start = (row * width + self.x) as usize;
            &pixels[start..start + self.w as usize]
        })
    }

    fn union(self, other: Rect) -> Rect {
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        let right = (self.x + self.w).max(other.x + other.w);
        let bottom = (self.y + self.h).max(other.y + other.h);
        Rect { x, y, w: right - x, h: bottom - y }
    }
}

impl Renderer {
    /// The game as an animated GIF at the asked size.
    pub fn game_gif(&self, gif: &GameGif) -> GifOutput {
        let first = gif.board_view(0).expect("a game has a start position");
        let layout = first.layout();
        let kit = self.kit(&layout);
        let palette = self.palette(gif.theme);
        let transparent = palette.transparent();
        let mut colours = palette.rgb().concat();
        colours.extend([0, 0, 0]); // the transparent slot

        let mut lzw = LzwEncoder::new(LzwEncoder::min_size_for(usize::from(transparent) + 1));
        let mut packed = Vec::new();
        let mut out = Vec::with_capacity(64 * 1024);
        let (width, height) = (layout.width as u16, layout.height as u16);
        let mut encoder = Encoder::new(&mut out, width, height, &colours).expect("writing to memory");
        encoder.set_repeat(Repeat::Infinite).expect("writing to memory");

        let frames = gif.frames();
        let delay_of = |ply: usize| centiseconds(if ply + 1 == frames { gif.last_delay } else { gif.delay });
        let mut canvas = self.board_canvas(&first);
        lzw.encode(&canvas.pixels, &mut packed);
        encoder
            .write_lzw_pre_encoded_frame(&Frame {
                delay: delay_of(0),
                dispose: DisposalMethod::Keep,
                width,
                height,
                buffer: packed.as_slice().into(),
                ..Frame::default()
            })
            .expect("writing to memory");

        let mut before = looks(&first, &layout);
        let caption_of = |view: &BoardView| Caption::of_game(gif.players, view.position.turn(), gif.result);
        let mut caption_before = caption_of(&first);
        let mut old = Vec::new();
        let mut buffer = Vec::new();
        for ply in 1..frames {
            let view = gif.board_view(ply).expect("ply within the game");
            let now = looks(&view, &layout);
            let changed: Bitboard = now.iter().zip(&before).filter(|(a, b)| a.1 != b.1).map(|(a, _)| a.0).collect();
            // The underline moves with the turn only while the game has no result.
            let caption_now = caption_of(&view);
            let caption_changed = caption_now != caption_before;
            let rect = changed
                .map(|sq| {
                    let (x, y) = layout.square_origin(sq);
                    Rect { x, y, w: layout.square, h: layout.square }
                })
                .chain(caption_changed.then_some(Rect { x: 0, y: 0, w: layout.width, h: layout.top }))
                .reduce(Rect::union)
                .unwrap_or(Rect { x: 0, y: 0, w: 1, h: 1 });

            old.clear();
            rect.rows(&canvas.pixels, layout.width).for_each(|row| old.extend_from_slice(row));
            let scene = Scene {
                board: view.position.board(),
                highlights: view.last_move.as_ref().map_or(Bitboard::EMPTY, move_squares),
                attacked: attacked_royals(view.position),
                marks: Vec::new(),
                arrows: Vec::new(),
            };
            scene::paint_squares(&mut canvas, &layout, &kit.squares, &scene, changed);
            if caption_changed {
                canvas.fill(0, 0, layout.width, layout.top, Ink::Frame);
                paint_caption(&mut canvas, &layout, &kit, &caption_now);
            }
            // Pixels that did not change are transparent: runs of them compress to little.
            buffer.clear();
            for (row, was) in rect.rows(&canvas.pixels, layout.width).zip(old.chunks_exact(rect.w as usize)) {
                buffer.extend(row.iter().zip(was).map(|(&new, &was)| if new == was { transparent } else { new }));
            }
            packed.clear();
            lzw.encode(&buffer, &mut packed);
            encoder
                .write_lzw_pre_encoded_frame(&Frame {
                    delay: delay_of(ply),
                    dispose: DisposalMethod::Keep,
                    transparent: Some(transparent),
                    left: rect.x as u16,
                    top: rect.y as u16,
                    width: rect.w as u16,
                    height: rect.h as u16,
                    buffer: packed.as_slice().into(),
                    ..Frame::default()
                })
                .expect("writing to memory");
            before = now;
            caption_before = caption_now;
        }
        encoder.into_inner().expect("writing to memory");
        GifOutput { bytes: out, size_used: layout.width, frames }
    }

    /// The game as a GIF of at most `limit` bytes: at the asked size if it fits, else at the
    /// largest size found that does (long games at chat sizes rarely need it). The size used
    /// is in the output, so the host can say the picture was made smaller.
    pub fn game_gif_within(&self, gif: &GameGif, limit: usize) -> Result<GifOutput, GifTooLarge> {
        let mut size = gif.size.clamp(MIN_SIZE, MAX_SIZE);
        loop {
            let out = self.game_gif(&GameGif { size, ..gif.clone() });
            if out.bytes.len() <= limit {
                return Ok(out);
            }
            if size == MIN_SIZE {
                return Err(GifTooLarge { bytes: out.bytes.len(), size, limit });
            }
            // Bytes grow about with the area: aim a little under the limit, and always shrink.
            let ratio = (limit as f64 / out.bytes.len() as f64).sqrt() * 0.95;
            let next = (f64::from(size) * ratio) as u32;
            size = next.min(size - 8).max(MIN_SIZE);
        }
    }
}
