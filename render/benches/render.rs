//! The budget: a 640 px board rendered and encoded in at most 3 ms (8x8) or 4 ms
//! (10x10), each PNG at most 20 KB. The PNG sizes are printed beside the timings.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use render::{BoardView, Renderer};
use rules::{Position, Variant};

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

criterion_group!(benches, boards);
criterion_main!(benches);
