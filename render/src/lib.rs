//! Chimera's pictures: a position of any variant, 8x8 or 10x10, as a small PNG in memory, and
//! rule diagrams for every piece and the special rules, and tournament standings tables.
//!
//! Build one [`Renderer`] and share it. It parses the project's own piece art once and keeps
//! the sprites of each picture size it has drawn, quantised to a fixed palette per [`Theme`];
//! a board is then square fills, sprite stamps by table lookup and one indexed-colour PNG
//! encode. Everything drawn (pieces, markers, lettering) ships inside the binary.
//!
//! ```
//! use render::{BoardView, Renderer};
//! use rules::{Position, Variant};
//!
//! let renderer = Renderer::new();
//! let position = Position::start(Variant::Werewolf);
//! let png = renderer.board_png(&BoardView::new(&position).players("Ann", "Bo").size(400));
//! assert_eq!(&png[1..4], b"PNG");
//! ```

mod art;
mod board;
mod canvas;
mod diagram;
mod font;
mod layout;
mod palette;
mod renderer;
mod scene;
mod sprite;
mod standings;

pub use art::Marker;
pub use board::{attacked_royals, legal_markers, move_squares, BoardView, Markers};
pub use diagram::{Diagram, UnknownDiagram};
pub use layout::{Layout, MAX_SIZE, MIN_SIZE};
pub use palette::{Theme, ThemeColors, UnknownTheme};
pub use renderer::Renderer;
pub use standings::StandingsTable;
