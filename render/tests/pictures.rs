//! Pictures decoded and checked pixel by pixel: sizes, highlight colours on the right
//! squares, flipping, markers, and the byte budget.

use render::{BoardView, Diagram, Layout, Markers, Renderer, Theme};
use rules::{Move, Position, Square, Variant};

struct Picture {
    width: u32,
    height: u32,
    palette: Vec<[u8; 3]>,
    pixels: Vec<u8>,
}

impl Picture {
    fn decode(png: &[u8]) -> Picture {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
        let frame = reader.next_frame(&mut pixels).expect("one frame");
        assert_eq!(frame.color_type, png::ColorType::Indexed);
        assert_eq!(frame.bit_depth, png::BitDepth::Eight);
        let palette = reader.info().palette.as_ref().expect("a palette");
        Picture {
            width: frame.width,
            height: frame.height,
            palette: palette.chunks(3).map(|c| [c[0], c[1], c[2]]).collect(),
            pixels,
        }
    }

    fn rgb(&self, x: u32, y: u32) -> [u8; 3] {
        self.palette[self.pixels[(y * self.width + x) as usize] as usize]
    }

    /// The pixels of a square, row by row.
    fn tile(&self, layout: &Layout, sq: Square) -> Vec<[u8; 3]> {
        let (x0, y0) = layout.square_origin(sq);
        (0..layout.square)
            .flat_map(|y| (0..layout.square).map(move |x| (x0 + x, y0 + y)))
            .map(|(x, y)| self.rgb(x, y))
            .collect()
    }
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Plays coordinate moves from the start, returning the position and the last move.
fn play(variant: Variant, moves: &str) -> (Position, Option<Move>) {
    let mut pos = Position::start(variant);
    let mut last = None;
    for text in moves.split_whitespace() {
        let m = pos.parse_coord(text).expect("legal move");
        pos.play_unchecked(&m);
        last = Some(m);
    }
    (pos, last)
}

fn midgame(variant: Variant) -> (Position, Option<Move>) {
    let moves = match variant {
        Variant::Grolman => "d2d4 d7d5 c2c4 e7e6 g1f3 e7f5 c4d5 e6d5 e2e4",
        Variant::UnicornGreat => "e3e5 f8f6 d2d4 g9g7 c1d3 h10g8 i2i4 c9c7 h1g3 c10d8 i1i3 d8e6",
        _ => "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 b1d2 c8g4 h2h3 g4h5",
    };
    play(variant, moves)
}

#[test]
fn pictures_have_the_asked_width_and_the_layout_height() {
    let renderer = Renderer::new();
    for variant in [Variant::Chess, Variant::UnicornGreat] {
        let pos = Position::start(variant);
        for size in [160, 400, 640, 1000] {
            let view = BoardView::new(&pos).size(size);
            let pic = Picture::decode(&renderer.board_png(&view));
            assert_eq!((pic.width, pic.height), (size, view.layout().height));
            assert!(pic.height >= size, "room for the caption and coordinates");
        }
    }
    let start = Position::start(Variant::Chess);
    let view = BoardView::new(&start).size(5000);
    assert_eq!(Picture::decode(&renderer.board_png(&view)).width, render::MAX_SIZE);
}

#[test]
fn the_last_move_tints_its_squares_and_only_those() {
    let renderer = Renderer::new();
    for theme in Theme::ALL {
        let colors = theme.colors();
        let (pos, last) = play(Variant::Chess, "e2e4 d7d5");
        let view = BoardView::new(&pos).last_move(last.unwrap()).theme(theme);
        let pic = Picture::decode(&renderer.board_png(&view));
        let layout = view.layout();
        // A square's corner pixel is background: no piece reaches it.
        let corner = |name: &str| {
            let (x, y) = layout.square_origin(sq(name));
            pic.rgb(x + 2, y + 2)
        };
        assert_eq!(corner("d7"), colors.last_light);
        assert_eq!(corner("d5"), colors.last_light);
        assert_eq!(corner("e4"), colors.light);
        assert_eq!(corner("e2"), colors.light);
        assert_eq!(corner("c8"), colors.light);
        assert_eq!(corner("d6"), colors.dark);
    }
}

#[test]
fn a_werewolf_hop_tints_the_square_it_took_on() {
    let renderer = Renderer::new();
    let pos = Position::from_fen(Variant::Werewolf, "4k3/8/8/8/4p3/3W4/8/4K3 w - - 0 1").unwrap();
    let hop = pos.legal_moves().into_iter().find(|m| m.hop_over() == Some(sq("e4"))).unwrap();
    let after = pos.after(&hop);
    let view = BoardView::new(&after).last_move(hop);
    let pic = Picture::decode(&renderer.board_png(&view));
    let (x, y) = view.layout().square_origin(sq("e4"));
    assert_eq!(pic.rgb(x + 2, y + 2), Theme::Green.colors().last_light);
}

#[test]
fn an_attacked_royal_piece_glows_red() {
    let renderer = Renderer::new();
    let glow_at = |variant: Variant, fen: &str, square: &str| {
        let pos = Position::from_fen(variant, fen).unwrap();
        let view = BoardView::new(&pos);
        let pic = Picture::decode(&renderer.board_png(&view));
        let layout = view.layout();
        let (x, y) = layout.square_origin(sq(square));
        let q = layout.square;
        pic.rgb(x + q / 5, y + q / 5)
    };
    let light = Theme::Green.colors().light;
    let check = glow_at(Variant::Chess, "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", "e8");
    assert_ne!(check, light);
    assert!(check[0] > check[1] + 30, "reddened: {check:?}");
    assert_eq!(glow_at(Variant::Chess, "4k3/8/8/8/8/8/8/3R2K1 b - - 0 1", "e8"), light);
    // A Ghost King the enemy Ghost King could take: exposed, though nothing is "in check".
    let exposed = glow_at(Variant::GhostKing, "4k3/8/8/8/8/8/8/6K1 w - - 0 1", "g1");
    assert!(exposed[0] > exposed[1] + 30, "exposed Ghost King glows: {exposed:?}");
}

#[test]
fn flipping_puts_every_square_where_the_other_side_sees_it() {
    let renderer = Renderer::new();
    for variant in [Variant::Chess, Variant::UnicornGreat] {
        let (pos, last) = midgame(variant);
        let view = BoardView::new(&pos).last_move(last.unwrap());
        let flipped = view.clone().flipped(true);
        let (a, b) = (Picture::decode(&renderer.board_png(&view)), Picture::decode(&renderer.board_png(&flipped)));
        let (la, lb) = (view.layout(), flipped.layout());
        for square in la.squares() {
            assert_eq!(a.tile(&la, square), b.tile(&lb, square), "{square}");
        }
        let a1 = sq("a1");
        assert_ne!(la.square_origin(a1), lb.square_origin(a1));
        assert_ne!(a.pixels, b.pixels);
    }
}

#[test]
fn move_markers_mark_the_legal_targets() {
    let renderer = Renderer::new();
    let pos = Position::start(Variant::Chess);
    let view = BoardView::new(&pos).markers(Markers::From(sq("e2")));
    let pic = Picture::decode(&renderer.board_png(&view));
    let centre = |name: &str| {
        let (x, y) = view.layout().square_centre(sq(name));
        pic.rgb(x, y)
    };
    let colors = Theme::Green.colors();
    assert_ne!(centre("e3"), colors.dark);
    assert_ne!(centre("e4"), colors.light);
    assert_eq!(centre("e5"), colors.dark);
    assert_eq!(centre("d3"), colors.light);
}

#[test]
fn boards_of_every_variant_stay_under_twenty_kilobytes() {
    let renderer = Renderer::new();
    for variant in Variant::ALL {
        let start = Position::start(variant);
        let (mid, last) = midgame(variant);
        for theme in Theme::ALL {
            let views = [
                BoardView::new(&start).theme(theme),
                BoardView::new(&mid).last_move(last.unwrap()).players("Alekhine", "Capablanca").theme(theme),
            ];
            for view in views {
                let bytes = renderer.board_png(&view).len();
                assert!(bytes <= 20 * 1024, "{variant} {theme}: {bytes} bytes");
            }
        }
    }
}

#[test]
fn every_diagram_draws_and_names_itself() {
    let renderer = Renderer::new();
    for diagram in Diagram::ALL {
        assert_eq!(diagram.name().parse::<Diagram>(), Ok(diagram));
        let pic = Picture::decode(&renderer.diagram_png(diagram, Theme::Blue, 640));
        assert_eq!(pic.width, 640);
        assert!(pic.height > 300);
    }
    assert_eq!("Ghost King".parse::<Diagram>(), Ok(Diagram::Piece(rules::Role::GhostKing)));
    assert!("dragon".parse::<Diagram>().is_err());
}

#[test]
fn piece_diagrams_mark_what_the_rules_allow() {
    use render::Marker;
    // The Werewolf on d4 beside its own pawn on d5 and an enemy pawn on e5.
    let renderer = Renderer::new();
    let png = renderer.diagram_png(Diagram::Piece(rules::Role::Werewolf), Theme::Green, 640);
    let pic = Picture::decode(&png);
    let layout = Diagram::Piece(rules::Role::Werewolf).layouts(640)[0];
    let centre = |name: &str| {
        let (x, y) = layout.square_centre(sq(name));
        pic.rgb(x, y)
    };
    let colors = Theme::Green.colors();
    // Jumps over both pawns land on diamonds: their centres stay the square colour.
    assert_eq!(centre("d6"), colors.dark);
    assert_ne!(centre("d3"), colors.light, "a quiet move's dot");
    assert_eq!(centre("h8"), colors.dark, "out of reach");
    let marks = render::legal_markers(
        &Position::from_fen(Variant::Werewolf, "4k3/8/8/3Pp3/3W4/8/8/4K3 w - - 0 1").unwrap(),
        sq("d4"),
    );
    assert!(marks.contains(&(sq("d6"), Marker::Jump)));
    assert!(marks.contains(&(sq("f6"), Marker::Jump)));
    assert!(marks.contains(&(sq("e5"), Marker::HopCapture)));
    assert!(marks.contains(&(sq("e5"), Marker::Capture)));
    assert!(marks.contains(&(sq("d3"), Marker::Move)));
}

fn standings(rows: usize) -> render::StandingsTable {
    render::StandingsTable {
        title: "Friday Swiss".into(),
        subtitle: "Final standings after round 4 of 4".into(),
        columns: ["#", "Player", "Pts", "Buchholz"].map(String::from).to_vec(),
        rows: (0..rows)
            .map(|i| vec![(i + 1).to_string(), format!("player {i}"), format!("{}", 9 - i), "7.5".into()])
            .collect(),
    }
}

#[test]
fn standings_pictures_decode_with_the_frame_colours_and_the_winner_in_the_accent() {
    let renderer = Renderer::new();
    for theme in Theme::ALL {
        let colors = theme.colors();
        let png = renderer.standings_png(&standings(4), theme);
        let picture = Picture::decode(&png);
        assert!(picture.width >= 320 && picture.height > 100, "{}x{}", picture.width, picture.height);
        assert_eq!(picture.rgb(0, 0), colors.frame, "the background is the frame's");
        let count = |c: [u8; 3]| picture.pixels.iter().filter(|&&i| picture.palette[i as usize] == c).count();
        assert!(count([0xe8, 0xb9, 0x3c]) > 50, "the winner's row is drawn in the accent colour");
        assert!(count([0xd8, 0xdb, 0xcf]) > 200, "the other rows in the frame's text colour");
        let taller = Picture::decode(&renderer.standings_png(&standings(9), theme));
        assert!(taller.height > picture.height, "each row adds height");
    }
    let empty = Picture::decode(&renderer.standings_png(&render::StandingsTable::default(), Theme::Green));
    assert!(empty.width >= 320, "an empty table still makes a picture");
}

/// A bare position of each size: two kings, away from the border's coordinates.
fn kings_only(variant: Variant) -> Position {
    let fen = match variant {
        Variant::UnicornGreat => "10/10/10/5k4/10/10/5K4/10/10/10 w - - 0 1",
        _ => "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    };
    Position::from_fen(variant, fen).unwrap()
}

#[test]
fn every_theme_paints_its_own_squares_and_frame() {
    let renderer = Renderer::new();
    let pos = Position::start(Variant::Chess);
    let mut seen: Vec<([u8; 3], [u8; 3])> = Vec::new();
    for theme in Theme::ALL {
        let colors = theme.colors();
        let view = BoardView::new(&pos).theme(theme);
        let pic = Picture::decode(&renderer.board_png(&view));
        let layout = view.layout();
        let corner = |name: &str| {
            let (x, y) = layout.square_origin(sq(name));
            pic.rgb(x + 2, y + 2)
        };
        let squares = (corner("e4"), corner("d4"));
        assert_eq!(squares, (colors.light, colors.dark), "{theme}");
        assert_eq!(pic.rgb(0, pic.height - 1), colors.frame, "{theme}");
        for (other, earlier) in Theme::ALL.iter().zip(&seen) {
            assert!(squares.0 != earlier.0 && squares.1 != earlier.1, "{theme} paints {other}'s squares");
        }
        seen.push(squares);
    }
}

#[test]
fn every_theme_draws_diagrams_and_graphs_on_its_frame() {
    let renderer = Renderer::new();
    let evals: Vec<render::Eval> = (0..40).map(|i| render::Eval::Centipawns(i * 10 - 150)).collect();
    for theme in Theme::ALL {
        let frame = theme.colors().frame;
        let diagram = Picture::decode(&renderer.diagram_png(Diagram::UnicornCastling, theme, 640));
        assert_eq!(diagram.rgb(0, 0), frame, "{theme}");
        let layout = Diagram::UnicornCastling.layouts(640)[0];
        let (x, y) = layout.square_origin(sq("a10"));
        assert_eq!(diagram.rgb(x + 2, y + 2), theme.colors().light, "{theme}");
        let graph = renderer.eval_graph_png(&render::EvalGraph::new(&evals).theme(theme)).expect("draws");
        assert_eq!(Picture::decode(&graph).rgb(0, 0), frame, "{theme}");
    }
}

/// Pixels in the border (below the caption, outside the squares) that are not the frame's.
fn lettering(pic: &Picture, layout: &Layout, frame: [u8; 3]) -> Vec<(u32, u32)> {
    let board_w = layout.square * u32::from(layout.files);
    let board_h = layout.square * u32::from(layout.ranks);
    let on_board = |x: u32, y: u32| {
        (layout.left..layout.left + board_w).contains(&x) && (layout.top..layout.top + board_h).contains(&y)
    };
    (layout.top..pic.height)
        .flat_map(|y| (0..pic.width).map(move |x| (x, y)))
        .filter(|&(x, y)| !on_board(x, y) && pic.rgb(x, y) != frame)
        .collect()
}

#[test]
fn coordinates_off_leave_the_border_bare_and_the_squares_larger() {
    let renderer = Renderer::new();
    for variant in [Variant::Chess, Variant::UnicornGreat] {
        let pos = kings_only(variant);
        for theme in Theme::ALL {
            let colors = theme.colors();
            let on = BoardView::new(&pos).theme(theme).size(480);
            let off = on.clone().coordinates(false);
            let (lon, loff) = (on.layout(), off.layout());
            let (pon, poff) = (Picture::decode(&renderer.board_png(&on)), Picture::decode(&renderer.board_png(&off)));
            assert_eq!((pon.width, poff.width), (480, 480), "the asked width either way");
            assert!(loff.square > lon.square, "{variant}: squares grow into the freed border");

            // With coordinates, the border holds a digit beside every rank and a letter under
            // every file; without them, not one pixel of it is anything but the frame.
            let glyphs = lettering(&pon, &lon, colors.frame);
            for rank in 0..lon.ranks {
                let y0 = lon.top + u32::from(lon.ranks - 1 - rank) * lon.square;
                let beside = glyphs.iter().filter(|&&(x, y)| x < lon.left && (y0..y0 + lon.square).contains(&y));
                assert!(beside.count() > 5, "{variant} {theme}: rank {} has its number", rank + 1);
            }
            let under = glyphs.iter().filter(|&&(_, y)| y >= lon.top + lon.square * u32::from(lon.ranks)).count();
            assert!(under > 5 * usize::from(lon.files), "{variant} {theme}: the files have their letters");
            assert_eq!(lettering(&poff, &loff, colors.frame), [], "{variant} {theme}");

            // Where a digit or letter was, the bare picture shows the frame or a plain square.
            for &(x, y) in &glyphs {
                let now = poff.rgb(x, y);
                assert_ne!(now, pon.rgb(x, y), "{variant} {theme}: ({x}, {y})");
                assert!([colors.frame, colors.light, colors.dark].contains(&now), "{variant} {theme}: {now:?}");
            }
        }
    }
}

#[test]
fn coordinates_are_drawn_unless_turned_off() {
    let renderer = Renderer::new();
    let pos = Position::start(Variant::Chess);
    let view = BoardView::new(&pos);
    assert!(view.coordinates);
    assert_eq!(view.layout(), view.clone().coordinates(true).layout());
    assert_eq!(renderer.board_png(&view), renderer.board_png(&view.clone().coordinates(true)));
    assert_ne!(view.layout(), view.clone().coordinates(false).layout());
}

#[test]
fn a_board_without_coordinates_keeps_its_squares_in_their_places() {
    let renderer = Renderer::new();
    let (pos, last) = midgame(Variant::UnicornGreat);
    for flipped in [false, true] {
        let view =
            BoardView::new(&pos).last_move(last.unwrap()).flipped(flipped).coordinates(false).theme(Theme::Contrast);
        let pic = Picture::decode(&renderer.board_png(&view));
        let layout = view.layout();
        assert_eq!(pic.height, layout.height);
        let colors = Theme::Contrast.colors();
        let corner = |name: &str| {
            let (x, y) = layout.square_origin(sq(name));
            pic.rgb(x + 2, y + 2)
        };
        // The last move d8e6 tints both its squares.
        assert_eq!(corner("d8"), colors.last_dark, "flipped {flipped}");
        assert_eq!(corner("e6"), colors.last_light, "flipped {flipped}");
        assert_eq!(corner("a10"), colors.light, "flipped {flipped}");
        assert_eq!(corner("a9"), colors.dark, "flipped {flipped}");
    }
}
