//! Chimera's pictures: a position of any variant, 8x8 or 10x10, as a small PNG in memory, rule
//! diagrams for every piece and the special rules, tournament standings tables, whole games as
//! animated GIFs ([`GameGif`]) and evaluation graphs ([`EvalGraph`]).
//!
//! Build one [`Renderer`] and share it. It parses the project's own piece art once and keeps
//! the sprites of each picture size it has drawn, quantised to a fixed palette per [`Theme`];
//! a board is then square fills, sprite stamps by table lookup and one indexed-colour PNG
//! encode, and a GIF frame the squares that changed. Everything drawn (pieces, markers, and
//! the Noto fonts that set names as people write them) ships inside the binary.
//!
//! ```
//! use render::{BoardView, Renderer};
//! use rules::{Position, Variant};
//!
//! let renderer = Renderer::new();
//! let position = Position::start(Variant::Werewolf);
//! let png = renderer.board_png(&BoardView::new(&position).players("Ann", "Bo").size(400));
//! assert_eq!(&png[1..4], b"PNG");
//!
//! // A game as a GIF: one frame per position, the last one held longer.
//! let mut game = rules::Game::new(Position::start(Variant::Chess));
//! for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
//!     let m = game.position().parse_move(san).unwrap();
//!     game.play(m).unwrap();
//! }
//! let gif = renderer.game_gif(&render::GameGif::new(&game).players("élodie", "Жора").size(320));
//! assert_eq!((gif.frames, gif.size_used), (8, 320));
//! assert_eq!(&gif.bytes[..6], b"GIF89a");
//! ```

mod art;
mod board;
mod canvas;
mod diagram;
mod font;
mod game_gif;
mod graph;
mod layout;
mod lzw;
mod palette;
mod renderer;
mod scene;
mod setters;
mod sprite;
mod standings;

pub use art::{piece_svg, Marker};
pub use board::{attacked_royals, legal_markers, move_squares, BoardView, Markers};
pub use diagram::{Diagram, UnknownDiagram};
pub use game_gif::{GameGif, GifOutput, GifTooLarge};
pub use graph::{Eval, EvalGraph, GraphError, Judgement, Mark};
pub use layout::{Layout, MAX_SIZE, MIN_SIZE};
pub use palette::{Theme, ThemeColors, UnknownTheme};
pub use renderer::Renderer;
pub use standings::StandingsTable;
