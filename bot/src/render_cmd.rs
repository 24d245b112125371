//! `chimera render`: a board or a rule diagram written to a PNG file.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use render::{BoardView, Diagram, Markers, Renderer, Theme, MAX_SIZE, MIN_SIZE};
use rules::{Square, Variant};

#[derive(clap::Args)]
pub struct RenderArgs {
    /// The variant of the board (not needed with --diagram).
    variant: Option<Variant>,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    fen: Option<String>,
    /// Coordinate moves to play first, separated by spaces; the last one is highlighted.
    #[arg(long)]
    moves: Option<String>,
    /// Draw the board from Black's side.
    #[arg(long)]
    flip: bool,
    /// Width of the picture in pixels.
    #[arg(long, default_value_t = 640)]
    size: u32,
    /// Colour theme: green, blue, brown or contrast.
    #[arg(long, default_value_t = Theme::Green)]
    theme: Theme,
    /// Mark the legal moves of the piece on this square.
    #[arg(long, value_name = "SQUARE")]
    show: Option<Square>,
    /// Names for the caption.
    #[arg(long, default_value = "White")]
    white: String,
    #[arg(long, default_value = "Black")]
    black: String,
    /// Draw this rule diagram instead of a board: a piece (king .. lion, half-golem,
    /// ghost-king) or golem-capture, werewolf-contagion, grolman-chain, unicorn-castling.
    #[arg(long)]
    diagram: Option<Diagram>,
    /// Where to write the PNG.
    #[arg(short = 'o', long = "output", value_name = "FILE.png")]
    output: PathBuf,
}

pub fn run(args: RenderArgs) -> Result<()> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&args.size) {
        bail!("--size {} is out of range: pictures are {MIN_SIZE} to {MAX_SIZE} pixels wide", args.size);
    }
    let renderer = Renderer::new();
    let png = match (args.diagram, args.variant) {
        (Some(_), Some(variant)) => {
            bail!("give a variant ({variant}) or --diagram, not both")
        }
        (Some(diagram), None) => renderer.diagram_png(diagram, args.theme, args.size),
        (None, None) => {
            bail!("say which variant to draw (chimera variants lists them), or give --diagram")
        }
        (None, Some(variant)) => {
            let (position, last) = crate::cli::position(variant, args.fen.as_deref(), args.moves.as_deref())?;
            let mut view = BoardView::new(&position)
                .flipped(args.flip)
                .size(args.size)
                .theme(args.theme)
                .players(&args.white, &args.black);
            view.last_move = last;
            if let Some(square) = args.show {
                if !position.geometry().contains(square) {
                    bail!("--show {square} is not a square of the {variant} board");
                }
                view.markers = Markers::From(square);
            }
            renderer.board_png(&view)
        }
    };
    std::fs::write(&args.output, png).with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(())
}
