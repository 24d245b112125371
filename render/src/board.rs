//! Boards of games: [`BoardView`] says what to show, [`Renderer::board_png`] draws it.

use rules::{Bitboard, Board, Color, Geometry, Move, MoveKind, Position, Role, Square};

use crate::art::Marker;
use crate::canvas::Canvas;
use crate::font::GlyphSet;
use crate::layout::Layout;
use crate::palette::{Ink, Theme};
use crate::renderer::{Kit, Renderer};
use crate::scene::{self, Scene};
use crate::setters::picture_setters;

/// Which squares carry move markers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Markers {
    #[default]
    None,
    /// Every legal move of the piece on this square.
    From(Square),
    List(Vec<(Square, Marker)>),
}

/// A position as a player sees it: built with [`BoardView::new`] and adjusted with the
/// builder methods.
#[derive(Clone, Debug)]
pub struct BoardView<'a> {
    pub position: &'a Position,
    /// The move that led here (played in the position before): its squares are tinted.
    pub last_move: Option<Move>,
    /// Black at the bottom.
    pub flipped: bool,
    /// File letters and rank numbers in the border; without them the squares are larger.
    pub coordinates: bool,
    pub markers: Markers,
    pub theme: Theme,
    /// Width in pixels, clamped to `MIN_SIZE..=MAX_SIZE`.
    pub size: u32,
    /// Names of White and Black for the caption, as the players wrote them.
    pub players: [&'a str; 2],
    /// How the game ended (`1-0`, `½-½`, `Жора wins on time`), shown between the names; the
    /// caption of a finished game underlines no one.
    pub result: Option<&'a str>,
}

impl<'a> BoardView<'a> {
    pub const DEFAULT_SIZE: u32 = 640;

    pub fn new(position: &'a Position) -> BoardView<'a> {
        BoardView {
            position,
            last_move: None,
            flipped: false,
            coordinates: true,
            markers: Markers::None,
            theme: Theme::default(),
            size: BoardView::DEFAULT_SIZE,
            players: ["White", "Black"],
            result: None,
        }
    }

    pub fn last_move(mut self, m: Move) -> Self {
        self.last_move = Some(m);
        self
    }

    picture_setters!('a; theme, size, flipped, coordinates, players, result);

    pub fn markers(mut self, markers: Markers) -> Self {
        self.markers = markers;
        self
    }

    /// The picture's layout: where each square lands.
    pub fn layout(&self) -> Layout {
        let geo = self.position.geometry();
        let layout = Layout::new(self.size, geo.width, geo.height, self.flipped, true);
        if self.coordinates {
            layout
        } else {
            layout.without_coordinates()
        }
    }
}

/// Every square a move touches: both ends, the castling rook, the piece a Werewolf jumped
/// and took, and each step of a Grolman chain.
pub fn move_squares(m: &Move) -> Bitboard {
    let mut squares = Bitboard::from(m.from) | Bitboard::from(m.to);
    match m.kind {
        MoveKind::Castle { rook } => squares |= Bitboard::from(rook),
        MoveKind::Hop { over, .. } => squares |= Bitboard::from(over),
        MoveKind::Normal | MoveKind::EnPassant => {}
    }
    for step in m.chain.steps() {
        squares |= Bitboard::from(step.from) | Bitboard::from(step.to);
    }
    squares
}

/// How each legal move of the piece on `from` marks the board.
pub fn legal_markers(position: &Position, from: Square) -> Vec<(Square, Marker)> {
    let moves: Vec<Move> = position.legal_moves().into_iter().filter(|m| m.from == from).collect();
    marks_of(&moves, position.board(), position.geometry())
}

/// The marks of some moves on `board`: a ring where one captures, a dot where one lands
/// quietly, a diamond where a Werewolf lands by jumping over its neighbour, and corners on a
/// neighbour that such a jump takes.
pub(crate) fn marks_of(moves: &[Move], board: &Board, geo: &Geometry) -> Vec<(Square, Marker)> {
    let occupied = board.occupied();
    let mut marks = Vec::new();
    for m in moves {
        if let Some(over) = m.hop_over() {
            marks.push((over, Marker::HopCapture));
        }
        let jump = m.role == Role::Werewolf && (geo.between(m.from, m.to) & occupied).any();
        let marker = if m.capture.is_some() {
            Marker::Capture
        } else if jump {
            Marker::Jump
        } else {
            Marker::Move
        };
        marks.push((m.to, marker));
    }
    marks.sort();
    marks.dedup();
    marks
}

/// Squares of royal pieces the other side could take now: check, or an exposed Ghost King.
pub fn attacked_royals(position: &Position) -> Bitboard {
    Color::ALL.into_iter().filter(|&c| position.royal_attacked(c)).filter_map(|c| position.royal_square(c)).collect()
}

impl Renderer {
    /// The board as a PNG.
    pub fn board_png(&self, view: &BoardView) -> Vec<u8> {
        self.board_canvas(view).png()
    }

    /// The board painted, before encoding.
    pub(crate) fn board_canvas(&self, view: &BoardView) -> Canvas<'_> {
        let layout = view.layout();
        let kit = self.kit(&layout);
        let mut canvas = Canvas::new(layout.width, layout.height, Ink::Frame, self.palette(view.theme));
        let marks = match &view.markers {
            Markers::None => Vec::new(),
            Markers::From(sq) => legal_markers(view.position, *sq),
            Markers::List(list) => list.clone(),
        };
        let scene = Scene {
            board: view.position.board(),
            highlights: view.last_move.as_ref().map_or(Bitboard::EMPTY, move_squares),
            attacked: attacked_royals(view.position),
            marks,
            arrows: Vec::new(),
        };
        scene::paint(&mut canvas, &layout, &kit.squares, &kit.coords, &scene);
        let caption = Caption::of_game(view.players, view.position.turn(), view.result);
        paint_caption(&mut canvas, &layout, &kit, &caption);
        canvas
    }
}

/// What the strip above a board (or a graph) says.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Caption<'a> {
    pub(crate) names: [&'a str; 2],
    /// The side to move, underlined; the other name is dimmed.
    pub(crate) underline: Option<Color>,
    /// Text between the names, in the accent colour.
    pub(crate) middle: Option<&'a str>,
}

impl<'a> Caption<'a> {
    /// A game going on underlines the side to move; a finished one shows its result instead.
    pub(crate) fn of_game(names: [&'a str; 2], turn: Color, result: Option<&'a str>) -> Caption<'a> {
        Caption { names, underline: if result.is_some() { None } else { Some(turn) }, middle: result }
    }
}

/// The caption: White's disc and name on the left, Black's on the right, and what
/// [`Caption`] asks for between and under them. Each name gets what is left of its half and
/// is cut with an ellipsis to fit.
pub(crate) fn paint_caption(canvas: &mut Canvas, layout: &Layout, kit: &Kit, caption: &Caption) {
    let font: &GlyphSet = &kit.caption;
    let c = layout.caption as i32;
    let px = font.size() as i32;
    let disc = kit.discs[0].width as i32;
    let gap = px * 2 / 3;
    let margin = layout.left as i32;
    let baseline = c / 2 + px / 2;
    let disc_y = c / 2 - disc / 2;
    let middle = layout.width as i32 / 2;
    let middle_text = caption.middle.map(|r| font.fit(r, layout.width / 3));
    let half_gap = match &middle_text {
        Some(text) => {
            let w = font.width(text) as i32;
            font.draw(canvas, text, middle - w / 2, baseline, Ink::Accent);
            w / 2 + w % 2 + gap
        }
        None => gap,
    };
    let room = (middle - half_gap - margin - disc - gap).max(0) as u32;
    for color in Color::ALL {
        let name = font.fit(caption.names[color.index()], room);
        let text_w = font.width(&name) as i32;
        let (start, disc_x, text_x) = match color {
            Color::White => (margin, margin, margin + disc + gap),
            Color::Black => {
                let disc_x = layout.width as i32 - margin - disc;
                let text_x = disc_x - gap - text_w;
                (text_x, disc_x, text_x)
            }
        };
        canvas.draw(&kit.discs[color.index()], disc_x, disc_y);
        let to_move = caption.underline == Some(color);
        let ink = if to_move || caption.underline.is_none() { Ink::FrameText } else { Ink::Muted };
        font.draw(canvas, &name, text_x, baseline, ink);
        if to_move {
            let bar = (px / 6).max(2);
            let width = (disc + gap + text_w) as u32;
            canvas.fill(start, baseline + px / 2, width, bar as u32, Ink::Accent);
        }
    }
}
