//! The budgets: a 640 px board rendered and encoded in at most 3 ms (8x8) or 4 ms (10x10), each
//! PNG at most 20 KB, in every theme and with or without coordinates; a GIF of a 100-ply game at
//! 640 px in at most 150 ms and 2 MB. The sizes are printed beside the timings.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use render::{BoardView, Eval, EvalGraph, GameGif, Judgement, Mark, Renderer, Theme};
use rules::{Game, Position, Variant};

/// Middle-game positions: a Werewolf game and a Unicorn Great Chess game, each after a
/// dozen moves, with the last move highlighted.
fn midgame(variant: Variant, moves: &str) -> (Position, rules::Move) {
    let mut pos = Position::start(variant);
    let mut last = None;
    for text in moves.split_whitespace() {
        let m = pos.parse_coord(text).expect("legal move");
        pos.play_unchecked(&m);
        last = Some(m);
    }
    (pos, last.expect("some moves"))
}

fn boards(c: &mut Criterion) {
    let renderer = Renderer::new();
    let cases = [
        (
            "8x8 midgame 640px",
            midgame(Variant::Werewolf, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 b1d2 c8g4"),
        ),
        (
            "10x10 midgame 640px",
            midgame(Variant::UnicornGreat, "e3e5 f8f6 d2d4 g9g7 c1d3 h10g8 i2i4 c9c7 h1g3 c10d8 i1i3 d8e6"),
        ),
    ];
    for (name, (pos, last)) in &cases {
        let view = BoardView::new(pos).last_move(*last).players("Magnus", "Hikaru").size(640);
        let bytes = renderer.board_png(&view).len();
        eprintln!("{name}: {bytes} bytes");
        c.bench_function(name, |b| b.iter(|| renderer.board_png(black_box(&view))));
    }
}

/// The 8x8 board in every theme and without coordinates: a theme is only another palette for
/// the same sprites, and a bare border only fewer glyphs, so each should cost what the default
/// does.
fn themes(c: &mut Criterion) {
    let renderer = Renderer::new();
    let (pos, last) = midgame(Variant::Werewolf, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 b1d2 c8g4");
    let board = BoardView::new(&pos).last_move(last).players("Magnus", "Hikaru").size(640);
    let mut group = c.benchmark_group("8x8 midgame 640px");
    let views = Theme::ALL
        .map(|theme| (theme.name().to_string(), board.clone().theme(theme)))
        .into_iter()
        .chain([("no coordinates".to_string(), board.clone().coordinates(false))]);
    for (name, view) in views {
        eprintln!("8x8 midgame 640px {name}: {} bytes", renderer.board_png(&view).len());
        group.bench_function(name, |b| b.iter(|| renderer.board_png(black_box(&view))));
    }
    group.finish();
}

/// A game of `plies` legal moves picked by a fixed pseudo-random sequence: pieces fly across
/// the board more than in real games, so frames are larger than usual.
fn random_game(variant: Variant, plies: usize) -> Game {
    let mut game = Game::new(Position::start(variant));
    let mut state = 5u64;
    while game.moves().len() < plies && game.outcome().is_none() {
        let moves = game.position().legal_moves();
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        game.play(moves[(state >> 33) as usize % moves.len()]).expect("a legal move");
    }
    assert_eq!(game.moves().len(), plies, "the seeded game runs its length");
    game
}

fn gifs(c: &mut Criterion) {
    let renderer = Renderer::new();
    let mut group = c.benchmark_group("gif");
    group.sample_size(20);
    for (name, variant) in [("100-ply 8x8 640px", Variant::Chess), ("100-ply 10x10 640px", Variant::UnicornGreat)] {
        let game = random_game(variant, 100);
        let gif = GameGif::new(&game).players("élodie", "Жора").result("½-½").size(640);
        let out = renderer.game_gif(&gif);
        eprintln!("gif {name}: {} frames, {} bytes", out.frames, out.bytes.len());
        group.bench_function(name, |b| b.iter(|| renderer.game_gif(black_box(&gif))));
    }
    group.finish();
}

fn graphs(c: &mut Criterion) {
    let renderer = Renderer::new();
    let evals: Vec<Eval> = (0..121).map(|i| Eval::Centipawns(((i as f64 / 7.0).sin() * 300.0) as i32 - i)).collect();
    let marks: Vec<Mark> = (1..12).map(|i| Mark { ply: i * 10, judgement: Judgement::ALL[i % 3] }).collect();
    let graph = EvalGraph::new(&evals).marks(&marks).players("élodie", "Жора");
    eprintln!("graph 120 plies 640px: {} bytes", renderer.eval_graph_png(&graph).expect("draws").len());
    c.bench_function("graph 120 plies 640px", |b| b.iter(|| renderer.eval_graph_png(black_box(&graph))));
}

criterion_group!(benches, boards, themes, gifs, graphs);
criterion_main!(benches);
