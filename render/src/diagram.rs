//! Rule diagrams: each piece with every square it reaches marked by kind, and the special
//! rules that need a picture. Every mark and every "after" board comes from the rules crate,
//! so a diagram cannot disagree with the game.

use std::fmt;
use std::str::FromStr;

use rules::{Bitboard, Board, Move, MoveKind, Piece, Position, Role, Setup, Square, Variant};

use crate::art::Marker;
use crate::board::{attacked_royals, marks_of, move_squares};
use crate::canvas::Canvas;
use crate::layout::{Layout, MIN_SIZE};
use crate::palette::{Ink, Theme};
use crate::renderer::{Kit, Renderer};
use crate::scene::{self, Arrow, Scene};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Diagram {
    /// One piece (in a small scene) with every square it reaches marked.
    Piece(Role),
    /// A knight takes a Golem: the knight is lost, the Golem survives as a Half-Golem.
    GolemCapture,
    /// A pawn takes a Werewolf and becomes one.
    WerewolfContagion,
    /// A Grolman turn: the lead move and its forced chain as numbered arrows.
    GrolmanChain,
    /// Unicorn Great Chess castling on both sides.
    UnicornCastling,
}

impl Diagram {
    pub const ALL: [Diagram; 17] = [
        Diagram::Piece(Role::King),
        Diagram::Piece(Role::Queen),
        Diagram::Piece(Role::Rook),
        Diagram::Piece(Role::Bishop),
        Diagram::Piece(Role::Knight),
        Diagram::Piece(Role::Pawn),
        Diagram::Piece(Role::Golem),
        Diagram::Piece(Role::HalfGolem),
        Diagram::Piece(Role::Werewolf),
        Diagram::Piece(Role::GhostKing),
        Diagram::Piece(Role::Unicorn),
        Diagram::Piece(Role::Chancellor),
        Diagram::Piece(Role::Lion),
        Diagram::GolemCapture,
        Diagram::WerewolfContagion,
        Diagram::GrolmanChain,
        Diagram::UnicornCastling,
    ];

    /// The name commands use: `ghost-king`, `golem-capture`.
    pub fn name(self) -> String {
        match self {
            Diagram::Piece(role) => role.name().replace(' ', "-"),
            Diagram::GolemCapture => "golem-capture".into(),
            Diagram::WerewolfContagion => "werewolf-contagion".into(),
            Diagram::GrolmanChain => "grolman-chain".into(),
            Diagram::UnicornCastling => "unicorn-castling".into(),
        }
    }

    fn title(self) -> String {
        match self {
            Diagram::Piece(role) => role.name().to_uppercase(),
            Diagram::GolemCapture => "GOLEM CAPTURE: THE KNIGHT IS LOST".into(),
            Diagram::WerewolfContagion => "WEREWOLF CONTAGION".into(),
            Diagram::GrolmanChain => "GROLMAN CHAIN: E4 (NE2, RG1)".into(),
            Diagram::UnicornCastling => "UNICORN GREAT CHESS CASTLING".into(),
        }
    }

    /// The boards the diagram shows, side by side.
    fn panels(self) -> Vec<Panel> {
        match self {
            Diagram::Piece(role) => vec![piece_panel(role)],
            Diagram::GolemCapture => before_after(Variant::Golem, "4k3/8/8/3g4/8/2N5/8/4K3 w - - 0 1", "c3d5"),
            Diagram::WerewolfContagion => before_after(Variant::Werewolf, "4k3/8/8/4w3/3P4/8/8/4K3 w - - 0 1", "d4e5"),
            Diagram::GrolmanChain => vec![grolman_chain()],
            Diagram::UnicornCastling => vec![unicorn_castling()],
        }
    }
}

impl fmt::Display for Diagram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown diagram `{0}`; the diagrams are {names}", names = Diagram::ALL.map(|d| d.name()).join(", "))]
pub struct UnknownDiagram(pub String);

impl FromStr for Diagram {
    type Err = UnknownDiagram;

    fn from_str(s: &str) -> Result<Diagram, UnknownDiagram> {
        let key = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        Diagram::ALL.into_iter().find(|d| d.name() == key).ok_or_else(|| UnknownDiagram(s.to_string()))
    }
}

/// One board of a diagram.
struct Panel {
    variant: Variant,
    board: Board,
    highlights: Bitboard,
    attacked: Bitboard,
    marks: Vec<(Square, Marker)>,
    arrows: Vec<Arrow>,
}

fn sq(name: &str) -> Square {
    name.parse().expect("diagram square")
}

fn position(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).expect("diagram position is legal")
}

fn legal(pos: &Position, coord: &str) -> Move {
    pos.parse_coord(coord).expect("diagram move is legal")
}

/// The subject on its square, with the few other pieces that show how it captures, jumps or
/// is blocked: `placements` are FEN letters on squares.
fn piece_panel(role: Role) -> Panel {
    let (variant, subject, placements): (Variant, &str, &[(&str, char)]) = match role {
        Role::Pawn => (Variant::Chess, "e2", &[("d3", 'n'), ("f4", 'p')]),
        Role::Knight | Role::Bishop | Role::Rook | Role::Queen | Role::King => (Variant::Chess, "d4", &[]),
        Role::Golem | Role::HalfGolem => (Variant::Golem, "d4", &[("e5", 'P'), ("b2", 'n')]),
        Role::Werewolf => (Variant::Werewolf, "d4", &[("d5", 'P'), ("e5", 'p'), ("b2", 'n')]),
        Role::GhostKing => {
            (Variant::GhostKing, "e1", &[("e8", 'k'), ("a8", 'r'), ("d7", 'p'), ("f7", 'p'), ("c6", 'n')])
        }
        Role::Unicorn => (Variant::UnicornGreat, "e5", &[("g6", 'p')]),
        Role::Chancellor => (Variant::UnicornGreat, "e5", &[]),
        Role::Lion => (Variant::UnicornGreat, "e5", &[("e6", 'P')]),
    };
    let empty = match variant.geometry().width {
        10 => "10/10/10/10/10/10/10/10/10/10 w - - 0 1",
        _ => "8/8/8/8/8/8/8/8 w - - 0 1",
    };
    let mut setup = Setup::from_fen(variant, empty).expect("empty board");
    let from = sq(subject);
    setup.board.set(from, Piece::new(rules::Color::White, role));
    for &(name, letter) in placements {
        let role = variant.role_for_char(letter).expect("piece of the variant");
        let color = if letter.is_ascii_uppercase() { rules::Color::White } else { rules::Color::Black };
        setup.board.set(sq(name), Piece::new(color, role));
    }
    let moves = setup.piece_moves(variant, from);
    Panel {
        variant,
        marks: marks_of(&moves, &setup.board, variant.geometry()),
        highlights: Bitboard::from(from),
        attacked: Bitboard::EMPTY,
        arrows: Vec::new(),
        board: setup.board,
    }
}

/// The position with the move drawn as an arrow, then the position the rules make of it.
fn before_after(variant: Variant, fen: &str, coord: &str) -> Vec<Panel> {
    let before = position(variant, fen);
    let m = legal(&before, coord);
    let after = before.after(&m);
    vec![
        Panel {
            variant,
            board: before.board().clone(),
            highlights: Bitboard::EMPTY,
            attacked: attacked_royals(&before),
            marks: vec![(m.to, Marker::Capture)],
            arrows: vec![arrow(m.from, m.to, Ink::Arrow, None)],
        },
        Panel {
            variant,
            board: after.board().clone(),
            highlights: move_squares(&m),
            attacked: attacked_royals(&after),
            marks: Vec::new(),
            arrows: Vec::new(),
        },
    ]
}

fn arrow(from: Square, to: Square, ink: Ink, label: Option<u8>) -> Arrow {
    Arrow { from, to, ink, label }
}

/// The first move e4 in Grolman Chess: the knight refills the pawn's square, the rook the
/// knight's.
fn grolman_chain() -> Panel {
    let pos = Position::start(Variant::Grolman);
    let m = legal(&pos, "e2e4");
    let mut arrows = vec![arrow(m.from, m.to, Ink::Arrow, Some(1))];
    for (i, step) in m.chain.steps().iter().enumerate() {
        arrows.push(arrow(step.from, step.to, Ink::RookArrow, Some(i as u8 + 2)));
    }
    Panel {
        variant: Variant::Grolman,
        board: pos.board().clone(),
        highlights: move_squares(&m),
        attacked: Bitboard::EMPTY,
        marks: Vec::new(),
        arrows,
    }
}

/// Both castlings of White, as the rules generate them: king arrows green, rook arrows blue.
fn unicorn_castling() -> Panel {
    let pos = position(Variant::UnicornGreat, "5k4/10/10/10/10/10/10/4PP4/PPPPLLPPPP/1R3K2R1 w KQ - 0 1");
    let files = Variant::UnicornGreat.castling_files().expect("Unicorn Great Chess castles");
    let mut arrows = Vec::new();
    let mut marks = Vec::new();
    for m in pos.legal_moves() {
        if let MoveKind::Castle { rook } = m.kind {
            let side = usize::from(rook.file() != files.rook[0]);
            let rook_to = Square::new(files.rook_to[side], rook.rank()).expect("on the board");
            arrows.push(arrow(m.from, m.to, Ink::Arrow, None));
            arrows.push(arrow(rook, rook_to, Ink::RookArrow, None));
            marks.push((m.to, Marker::Move));
        }
    }
    Panel {
        variant: Variant::UnicornGreat,
        board: pos.board().clone(),
        highlights: Bitboard::EMPTY,
        attacked: Bitboard::EMPTY,
        marks,
        arrows,
    }
}

impl Diagram {
    /// Where the boards of the diagram sit in its picture, `size` pixels wide (at least
    /// `MIN_SIZE` a board), below the title strip.
    pub fn layouts(self, size: u32) -> Vec<Layout> {
        layouts(&self.panels(), size).1
    }
}

/// The title strip's layout and each panel's.
fn layouts(panels: &[Panel], size: u32) -> (Layout, Vec<Layout>) {
    let size = size.max(MIN_SIZE * panels.len() as u32);
    let frame = Layout::new(size, 8, 8, false, true);
    let panel_width = frame.width / panels.len() as u32;
    let boards = panels
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let geo = p.variant.geometry();
            Layout::new(panel_width, geo.width, geo.height, false, false).shifted(i as u32 * panel_width, frame.caption)
        })
        .collect();
    (frame, boards)
}

impl Renderer {
    /// A rule diagram as a PNG, `size` pixels wide (clamped like a board's).
    pub fn diagram_png(&self, diagram: Diagram, theme: Theme, size: u32) -> Vec<u8> {
        let panels = diagram.panels();
        let (frame, boards) = layouts(&panels, size);
        let width = boards.iter().map(|l| l.left - l.border + l.width).max().unwrap_or(0);
        let height = boards.iter().map(|l| l.top + l.height - l.top_margin()).max().unwrap_or(0);
        let mut canvas = Canvas::new(width, height, Ink::Frame, self.palette(theme));
        for (panel, layout) in panels.iter().zip(&boards) {
            let kit = self.kit(layout);
            let scene = Scene {
                board: &panel.board,
                highlights: panel.highlights,
                attacked: panel.attacked,
                marks: panel.marks.clone(),
                arrows: panel.arrows.clone(),
            };
            scene::paint(&mut canvas, layout, &kit.squares, &kit.coords, &scene);
        }
        let title = self.glyphs(Kit::caption_size(frame.caption));
        let baseline = (frame.caption + title.size()) as i32 / 2;
        let text = title.fit(&diagram.title(), canvas.width - 2 * frame.left);
        title.draw(&mut canvas, &text, frame.left as i32, baseline, Ink::FrameText);
        canvas.png()
    }
}
