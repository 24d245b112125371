//! Game GIFs decoded with the `gif` crate, composited frame by frame, and compared with the PNG
//! of the same board pixel for pixel; their frame counts, pauses and sizes.

use render::{BoardView, GameGif, GifTooLarge, Renderer, Theme};
use rules::{Game, Position, Variant};

/// A game of up to `plies` legal moves chosen by a fixed pseudo-random sequence, so every run
/// plays the same game.
fn random_game(variant: Variant, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(Position::start(variant));
    let mut state = seed;
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let m = moves[(state >> 33) as usize % moves.len()];
        game.play(m).expect("a legal move");
    }
    game
}

/// An RGB picture.
#[derive(PartialEq, Eq)]
struct Rgb {
    width: u32,
    height: u32,
    pixels: Vec<[u8; 3]>,
}

impl std::fmt::Debug for Rgb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{} picture", self.width, self.height)
    }
}

fn decode_png(png: &[u8]) -> Rgb {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let frame = reader.next_frame(&mut pixels).expect("one frame");
    let palette = reader.info().palette.as_ref().expect("a palette");
    let rgb = |i: u8| {
        let i = usize::from(i) * 3;
        [palette[i], palette[i + 1], palette[i + 2]]
    };
    Rgb { width: frame.width, height: frame.height, pixels: pixels.iter().map(|&i| rgb(i)).collect() }
}

/// A decoded GIF: every frame composited over the ones before, and each frame's delay.
struct Animation {
    frames: Vec<Rgb>,
    delays: Vec<u16>,
}

fn decode_gif(bytes: &[u8]) -> Animation {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let global = decoder.global_palette().expect("one global palette").to_vec();
    let mut screen = vec![[0u8; 3]; (width * height) as usize];
    let mut animation = Animation { frames: Vec::new(), delays: Vec::new() };
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        assert!(frame.palette.is_none(), "no frame has a palette of its own");
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        for row in 0..u32::from(frame.height) {
            for col in 0..u32::from(frame.width) {
                let index = frame.buffer[(row * u32::from(frame.width) + col) as usize];
                if Some(index) == frame.transparent {
                    continue;
                }
                let (x, y) = (u32::from(frame.left) + col, u32::from(frame.top) + row);
                assert!(x < width && y < height, "frame inside the screen");
                let i = usize::from(index) * 3;
                screen[(y * width + x) as usize] = [global[i], global[i + 1], global[i + 2]];
            }
        }
        animation.frames.push(Rgb { width, height, pixels: screen.clone() });
        animation.delays.push(frame.delay);
    }
    animation
}

#[test]
fn every_frame_composited_is_the_board_of_its_position() {
    let renderer = Renderer::new();
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        let game = random_game(variant, 30, 7 + i as u64);
        let gif = GameGif::new(&game)
            .players("élodie", "Жора")
            .theme(Theme::ALL[i % Theme::ALL.len()])
            .size(400)
            .flipped(i == 2)
            .coordinates(i % 2 == 0);
        let out = renderer.game_gif(&gif);
        let animation = decode_gif(&out.bytes);
        let plies = game.moves().len();
        assert_eq!(animation.frames.len(), plies + 1, "{variant}");
        assert_eq!(out.frames, plies + 1);
        assert_eq!(out.size_used, 400);
        for (ply, frame) in animation.frames.iter().enumerate() {
            let view = gif.board_view(ply).expect("a position per frame");
            assert_eq!(*frame, decode_png(&renderer.board_png(&view)), "{variant} ply {ply}");
        }
    }
}

#[test]
fn the_last_frame_is_the_final_board_with_the_result() {
    let renderer = Renderer::new();
    for variant in [Variant::Chess, Variant::UnicornGreat] {
        let mut game = random_game(variant, 21, 3);
        game.resign(rules::Color::White);
        let gif = GameGif::new(&game).players("Ωmega", "x_X_slayer_X_x_2009");
        assert_eq!(gif.result, Some("0-1"), "the result comes from the game");
        let animation = decode_gif(&renderer.game_gif(&gif).bytes);
        let last = *game.moves().last().expect("some moves");
        let view =
            BoardView::new(game.position()).last_move(last).players("Ωmega", "x_X_slayer_X_x_2009").result("0-1");
        let final_board = decode_png(&renderer.board_png(&view));
        assert_eq!(animation.frames.last(), Some(&final_board), "{variant}");
        // The last position stays up longer than the others.
        let (last_delay, others) = animation.delays.split_last().expect("frames");
        assert_eq!(*last_delay, 400);
        assert!(others.iter().all(|&d| d == 80), "{others:?}");
    }
}

#[test]
fn an_ongoing_game_moves_the_underline_with_the_turn() {
    let renderer = Renderer::new();
    let game = random_game(Variant::Werewolf, 6, 11);
    assert!(game.outcome().is_none());
    let gif = GameGif::new(&game).players("Ann", "Bo").size(320);
    assert_eq!(gif.result, None);
    let animation = decode_gif(&renderer.game_gif(&gif).bytes);
    for (ply, frame) in animation.frames.iter().enumerate() {
        assert_eq!(*frame, decode_png(&renderer.board_png(&gif.board_view(ply).unwrap())), "ply {ply}");
    }
    assert_ne!(animation.frames[1].pixels[..320 * 20], animation.frames[2].pixels[..320 * 20], "the caption changed");
}

#[test]
fn a_gif_without_coordinates_shows_boards_without_them() {
    let renderer = Renderer::new();
    let game = random_game(Variant::UnicornGreat, 4, 9);
    let gif = GameGif::new(&game).theme(Theme::Brown).size(480).coordinates(false);
    let view = gif.board_view(0).expect("the start");
    assert!(!view.coordinates);
    let start = decode_png(&renderer.board_png(
        &BoardView::new(&Position::start(Variant::UnicornGreat)).theme(Theme::Brown).size(480).coordinates(false),
    ));
    let animation = decode_gif(&renderer.game_gif(&gif).bytes);
    assert_eq!(animation.frames[0], start);
    let with = decode_gif(&renderer.game_gif(&gif.clone().coordinates(true)).bytes);
    assert_ne!(with.frames[0].height, start.height, "squares of another size");
}

#[test]
fn a_game_without_moves_is_one_frame() {
    let renderer = Renderer::new();
    let game = Game::new(Position::start(Variant::Golem));
    let gif = GameGif::new(&game);
    let out = renderer.game_gif(&gif);
    let animation = decode_gif(&out.bytes);
    assert_eq!((out.frames, animation.frames.len()), (1, 1));
    assert_eq!(animation.frames[0], decode_png(&renderer.board_png(&gif.board_view(0).unwrap())));
    assert!(gif.board_view(1).is_none());
}

/// Forty moves each at Discord's usual width: well under the 10 MB upload limit, and at the
/// sizes lila-gif's GIFs have (a few kilobytes a frame).
#[test]
fn forty_move_games_stay_small() {
    let renderer = Renderer::new();
    for (variant, budget) in [(Variant::Chess, 360 * 1024), (Variant::UnicornGreat, 340 * 1024)] {
        let game = random_game(variant, 80, 5);
        assert_eq!(game.moves().len(), 80, "{variant}: forty moves each");
        let out = renderer.game_gif(&GameGif::new(&game).players("élodie", "Жора"));
        let bytes = out.bytes.len();
        eprintln!("{variant}: 80 plies at 640 px, {bytes} bytes");
        assert!(bytes <= budget, "{variant}: {bytes} bytes");
    }
}

#[test]
fn a_byte_limit_lowers_the_frame_size_and_says_so() {
    let renderer = Renderer::new();
    let game = random_game(Variant::Chess, 80, 5);
    let gif = GameGif::new(&game).size(640);
    let full = renderer.game_gif(&gif);
    let fits = renderer.game_gif_within(&gif, full.bytes.len()).expect("fits as it is");
    assert_eq!((fits.size_used, fits.bytes.len()), (640, full.bytes.len()));

    let limit = full.bytes.len() / 3;
    let smaller = renderer.game_gif_within(&gif, limit).expect("fits when smaller");
    assert!(smaller.bytes.len() <= limit);
    assert!(smaller.size_used < 640 && smaller.size_used >= render::MIN_SIZE, "{}", smaller.size_used);
    let animation = decode_gif(&smaller.bytes);
    assert_eq!(animation.frames[0].width, smaller.size_used);
    assert_eq!(animation.frames.len(), 81);

    match renderer.game_gif_within(&gif, 1000) {
        Err(GifTooLarge { size, limit, bytes }) => {
            assert_eq!((size, limit), (render::MIN_SIZE, 1000));
            assert!(bytes > 1000);
        }
        Ok(out) => panic!("{} bytes cannot fit in 1000", out.bytes.len()),
    }
}
