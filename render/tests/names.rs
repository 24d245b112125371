//! Names as people write them, in board captions and standings: accents, Cyrillic and Greek
//! drawn from the font (never a stand-in), emoji left out cleanly, and long names cut with an
//! ellipsis inside their share of the picture.

use render::{BoardView, EvalGraph, Renderer, StandingsTable, Theme};
use rules::{Position, Variant};

/// The names the issue asks about, and one with emoji.
const NAMES: [&str; 5] = ["élodie", "Жора", "Ωmega", "x_X_slayer_X_x_2009", "🔥 Dragon 🔥"];
const LONG: &str = "Wolfeschlegelsteinhausenbergerdorff x_X_slayer_X_x_2009 Ωmega élodie Жора";

struct Picture {
    width: u32,
    height: u32,
    rgb: Vec<[u8; 3]>,
}

impl Picture {
    fn decode(png: &[u8]) -> Picture {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
        let frame = reader.next_frame(&mut pixels).expect("one frame");
        let palette = reader.info().palette.as_ref().expect("a palette").to_vec();
        let rgb = pixels.iter().map(|&i| {
            let i = usize::from(i) * 3;
            [palette[i], palette[i + 1], palette[i + 2]]
        });
        Picture { width: frame.width, height: frame.height, rgb: rgb.collect() }
    }

    fn at(&self, x: u32, y: u32) -> [u8; 3] {
        self.rgb[(y * self.width + x) as usize]
    }

    /// Columns of rows `top..bottom` holding anything but the background colour.
    fn inked_columns(&self, top: u32, bottom: u32) -> Vec<u32> {
        let background = self.at(0, 0);
        (0..self.width).filter(|&x| (top..bottom).any(|y| self.at(x, y) != background)).collect()
    }
}

fn caption(renderer: &Renderer, white: &str, black: &str) -> (Picture, render::Layout) {
    let position = Position::start(Variant::Chess);
    let view = BoardView::new(&position).players(white, black);
    (Picture::decode(&renderer.board_png(&view)), view.layout())
}

/// The caption strip's pixels, row by row.
fn strip(picture: &Picture, layout: &render::Layout) -> Vec<[u8; 3]> {
    picture.rgb[..(picture.width * layout.caption) as usize].to_vec()
}

#[test]
fn names_are_drawn_from_the_font_in_the_case_typed() {
    let renderer = Renderer::new();
    let (accented, layout) = caption(&renderer, "élodie", "Black");
    let (plain, _) = caption(&renderer, "elodie", "Black");
    let (placeholders, _) = caption(&renderer, "◌◌◌◌◌◌", "Black");
    let (capitals, _) = caption(&renderer, "ÉLODIE", "Black");
    let (accent, plain, placeholders, capitals) =
        (strip(&accented, &layout), strip(&plain, &layout), strip(&placeholders, &layout), strip(&capitals, &layout));
    assert_ne!(accent, plain, "the accent is drawn");
    assert_ne!(accent, placeholders, "not a row of stand-ins");
    assert_ne!(accent, capitals, "not set in capitals");
    // The accent is the only difference: it sits above the lower-case letters.
    let differing: Vec<usize> = (0..accent.len()).filter(|&i| accent[i] != plain[i]).collect();
    let rows: Vec<u32> = differing.iter().map(|&i| i as u32 / accented.width).collect();
    let (top, bottom) = (rows.iter().min().unwrap(), rows.iter().max().unwrap());
    assert!(bottom - top < layout.caption / 3, "only the accent differs: rows {top}..{bottom}");

    for name in ["Жора", "Ωmega", "x_X_slayer_X_x_2009"] {
        let (drawn, _) = caption(&renderer, name, "Black");
        let stand_ins: String = name.chars().map(|_| '◌').collect();
        let (stand_in, _) = caption(&renderer, &stand_ins, "Black");
        assert_ne!(strip(&drawn, &layout), strip(&stand_in, &layout), "{name}");
    }
}

#[test]
fn emoji_drop_out_of_a_name_cleanly() {
    let renderer = Renderer::new();
    let (with, layout) = caption(&renderer, "🔥 Dragon 🔥", "Жора");
    let (without, _) = caption(&renderer, "Dragon", "Жора");
    assert_eq!(strip(&with, &layout), strip(&without, &layout));
    let (only_emoji, _) = caption(&renderer, "🐉🐉", "Жора");
    let (one_stand_in, _) = caption(&renderer, "◌", "Жора");
    assert_eq!(strip(&only_emoji, &layout), strip(&one_stand_in, &layout), "a name of emoji shows one ◌");
}

#[test]
fn long_names_stay_in_their_half_of_the_caption() {
    let renderer = Renderer::new();
    for size in [160, 400, 640, 1000] {
        for result in [None, Some("½-½")] {
            let position = Position::start(Variant::UnicornGreat);
            let mut view = BoardView::new(&position).players(LONG, LONG).size(size);
            view.result = result;
            let picture = Picture::decode(&renderer.board_png(&view));
            let layout = view.layout();
            let inked = picture.inked_columns(0, layout.caption);
            let (first, last) = (inked[0], *inked.last().unwrap());
            assert!(first >= layout.left && last < size - layout.left, "{size}: ink within the margins");
            // With no result between them, the two names leave the middle of the strip empty.
            if result.is_none() {
                let middle = size / 2;
                assert!(!inked.contains(&middle), "{size}: the names meet in the middle");
            }
        }
    }
}

fn table(names: &[&str]) -> StandingsTable {
    StandingsTable {
        title: "Vendredi suisse".into(),
        subtitle: "Round 5 of 5".into(),
        columns: ["#", "Player", "Pts"].map(String::from).to_vec(),
        rows: names.iter().enumerate().map(|(i, n)| vec![(i + 1).to_string(), n.to_string(), "3".into()]).collect(),
    }
}

#[test]
fn standings_draw_names_as_typed_and_cut_long_ones() {
    let renderer = Renderer::new();
    let short = Picture::decode(&renderer.standings_png(&table(&NAMES), Theme::Green));
    let stand_ins: Vec<String> = NAMES.iter().map(|n| n.chars().map(|_| '◌').collect()).collect();
    let stand_ins: Vec<&str> = stand_ins.iter().map(String::as_str).collect();
    let replaced = Picture::decode(&renderer.standings_png(&table(&stand_ins), Theme::Green));
    assert_ne!(short.rgb, replaced.rgb);

    let long = Picture::decode(&renderer.standings_png(&table(&[LONG, "Жора"]), Theme::Green));
    assert!(long.width < 640, "a long name is cut, not widening the table: {} px", long.width);
    let inked = long.inked_columns(0, long.height);
    let margin = 16;
    assert!(inked[0] >= margin && *inked.last().unwrap() < long.width - margin, "ink inside the margins");
}

#[test]
fn graphs_name_the_players_too() {
    let renderer = Renderer::new();
    let evals = [render::Eval::Centipawns(20), render::Eval::Centipawns(-40)];
    let named = |white, black| {
        let graph = EvalGraph::new(&evals).players(white, black).theme(Theme::Blue);
        Picture::decode(&renderer.eval_graph_png(&graph).expect("draws"))
    };
    let (a, b) = (named("élodie", LONG), named("elodie", LONG));
    assert_ne!(a.rgb, b.rgb);
    let caption = (a.width as f32 * 0.062).round() as u32;
    let inked = a.inked_columns(0, caption);
    assert!(*inked.last().unwrap() < a.width - 10, "the long name stays inside");
    assert!(a.height > caption);
}
