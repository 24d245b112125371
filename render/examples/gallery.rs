//! Writes every picture worth looking at into a folder: the start and a middle-game board of
//! each variant, every rule diagram, and a sheet of all the pieces.
//!
//! `cargo run --release -p chimera-render --example gallery -- OUT_DIR [SIZE]`

use std::path::PathBuf;

use render::{BoardView, Diagram, Markers, Renderer, Theme};
use rules::{Color, Move, Piece, Position, Role, Setup, Variant};

/// Middle games: real openings where the rules allow them, and for Grolman Chess (whose
/// chains move more than one piece) a game of its own.
fn midgame_moves(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess | Variant::GhostKing => {
            "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 b1d2 c8g4 h2h3 g4h5 d1b3"
        }
        Variant::Golem => "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 b1d2 c8g4 d1e2 d8d7",
        Variant::Werewolf => "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 d1b3 d8d7",
        Variant::Grolman => "d2d4 d7d5 c2c4 e7e6 g1f3 e7f5 c4d5 e6d5 e2e4",
        Variant::UnicornGreat => "e3e5 f8f6 d2d4 g9g7 c1d3 h10g8 i2i4 c9c7 h1g3 c10d8 i1i3 d8e6",
    }
}

fn play(variant: Variant, moves: &str) -> (Position, Option<Move>) {
    let mut pos = Position::start(variant);
    let mut last = None;
    for text in moves.split_whitespace() {
        let m = pos.parse_coord(text).unwrap_or_else(|e| panic!("{variant} {text}: {e}"));
        pos.play_unchecked(&m);
        last = Some(m);
    }
    (pos, last)
}

/// Every piece in both colours on a 10x10 board (with the two kings it needs).
fn sheet() -> Position {
    let mut setup = Setup::from_fen(Variant::UnicornGreat, "10/10/10/10/10/10/10/10/10/10 w - - 0 1").unwrap();
    for (i, role) in Role::ALL.iter().enumerate() {
        let (file, rank) = ((i % 7) as u8 + 1, 7 - (i / 7) as u8 * 2);
        let white = rules::Square::new(file, rank).unwrap();
        let black = rules::Square::new(file, rank - 4).unwrap();
        setup.board.set(white, Piece::new(Color::White, *role));
        setup.board.set(black, Piece::new(Color::Black, *role));
    }
    Position::from_setup(Variant::UnicornGreat, setup).expect("sheet position")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "gallery".into()));
    let size: u32 = args.next().map_or(640, |s| s.parse().expect("size"));
    std::fs::create_dir_all(&dir).expect("output folder");
    let renderer = Renderer::new();
    let write = |name: &str, png: Vec<u8>| {
        println!("{name}: {} bytes", png.len());
        std::fs::write(dir.join(name), png).expect("write");
    };
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        let theme = Theme::ALL[i % 2];
        let start = Position::start(variant);
        let view = BoardView::new(&start).theme(theme).size(size);
        write(&format!("{variant}-start.png"), renderer.board_png(&view));
        let (pos, last) = play(variant, midgame_moves(variant));
        let mut view = BoardView::new(&pos)
            .theme(theme)
            .size(size)
            .players("Alekhine", "Capablanca")
            .flipped(variant == Variant::Golem);
        view.last_move = last;
        let royal = pos.royal_square(pos.turn());
        if let Some(wolf) = pos.board().by_piece(Piece::new(pos.turn(), Role::Werewolf)).first() {
            view.markers = Markers::From(wolf);
        } else if variant == Variant::GhostKing {
            view.markers = Markers::From(royal.unwrap());
        }
        write(&format!("{variant}-midgame.png"), renderer.board_png(&view));
    }
    let sheet = sheet();
    write("pieces.png", renderer.board_png(&BoardView::new(&sheet).size(size).players("White", "Black")));
    for diagram in Diagram::ALL {
        write(&format!("diagram-{diagram}.png"), renderer.diagram_png(diagram, Theme::Green, size));
    }
}
