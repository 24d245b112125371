//! Writes every picture worth looking at into a folder: the start and a middle-game board of
//! each variant, every rule diagram, a sheet of all the pieces, a GIF of a game of each variant,
//! an evaluation graph and a standings table, with names as people write them.
//!
//! `cargo run --release -p chimera-render --example gallery -- OUT_DIR [SIZE]`
//!
//! `-- --script` prints the six games of the GIFs instead, as a `chimera console --script` that
//! plays each in a channel of its own and analyses it: docs/engine.md compares the marks two
//! engines give them.

use std::path::PathBuf;

use render::{BoardView, Diagram, Eval, EvalGraph, GameGif, Judgement, Mark, Markers, Renderer, StandingsTable, Theme};
use rules::{Color, Game, Move, Piece, Position, Role, Setup, Variant};

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

/// Kasparov-Topalov, Wijk aan Zee 1999: the chess GIF and the graph show a real game.
const KASPAROV_TOPALOV: &str = "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 O-O-O Qe7
    Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 Rhe1 d4 Nd5 Nbxd5 exd5 Qd6
    Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 Rxb7 Qc4 Qxf6 Kxa3 Qxa6+ Kxb4 c3+ Kxc3 Qa1+ Kd2
    Qb2+ Kd1 Bf1 Rd2 Rd7 Rxd7 Bxc4 bxc4 Qxh8 Rd3 Qa8 c3 Qa4+ Ke1 f4 f5 Kc1 Rd2 Qa7";

fn score(variant: Variant, sans: &str) -> Game {
    let mut game = Game::new(Position::start(variant));
    for san in sans.split_whitespace() {
        let m = game.position().parse_move(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        game.play(m).expect("legal");
    }
    game
}

/// A rough value of each piece, in centipawns, for the made-up games and evaluations below.
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop | Role::HalfGolem => 300,
        Role::Werewolf | Role::Unicorn => 400,
        Role::Rook | Role::Golem => 500,
        Role::Chancellor | Role::Lion => 800,
        Role::Queen => 900,
        Role::King | Role::GhostKing => 0,
    }
}

/// White's material minus Black's.
fn material(position: &Position) -> i32 {
    position.board().pieces().map(|(_, p)| if p.color == Color::White { value(p.role) } else { -value(p.role) }).sum()
}

/// A game played by a simple rule: after the opening, mate when it can; take the most valuable
/// piece on offer; else a move picked by a fixed pseudo-random sequence. Legal and quick.
fn play_out(variant: Variant, seed: u64, max_plies: usize) -> Game {
    let mut game = Game::new(Position::start(variant));
    let mut state = seed;
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let position = game.position();
        let moves = position.legal_moves();
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let random = moves[(state >> 33) as usize % moves.len()];
        let opening = game.moves().len() < 30;
        let mating =
            moves.iter().find(|m| !opening && position.after(m).outcome().is_some_and(|o| o.winner().is_some()));
        let taking =
            moves.iter().filter_map(|m| Some((value(position.board().role_at(m.to)?), m))).max_by_key(|(v, _)| *v);
        let chosen = match (mating, taking) {
            (Some(m), _) => *m,
            (None, Some((v, m))) if v > 100 || state.is_multiple_of(3) => *m,
            _ => random,
        };
        game.play(chosen).expect("a legal move");
    }
    game
}

/// The first of the seeded games of `variant` that ends within `max_plies`.
fn decisive_game(variant: Variant, max_plies: usize) -> Game {
    (0..500)
        .map(|seed| play_out(variant, seed, max_plies))
        .find(|game| game.outcome().is_some_and(|o| o.winner().is_some()))
        .unwrap_or_else(|| play_out(variant, 0, max_plies))
}

/// Made-up analysis for the graph until the engine's: the material once the reply is played
/// (so an exchange is not a swing), and a mark wherever a move and its reply cost the mover a
/// pawn (inaccuracy), a minor piece (mistake) or a rook (blunder).
fn material_analysis(game: &Game) -> (Vec<Eval>, Vec<Mark>) {
    let positions = game.positions();
    let settled = |i: usize| material(&positions[(i + 1).min(positions.len() - 1)]);
    let mut evals: Vec<Eval> = (0..positions.len()).map(|i| Eval::Centipawns(settled(i))).collect();
    if let Some(winner) = game.outcome().and_then(|o| o.winner()) {
        *evals.last_mut().expect("positions") = Eval::Mate { winner, moves: 0 };
    }
    let marks = (1..positions.len())
        .filter_map(|ply| {
            let mover = if positions[ply - 1].turn() == Color::White { 1 } else { -1 };
            let lost = (material(&positions[ply - 1]) - settled(ply)) * mover;
            let judgement = match lost {
                500.. => Judgement::Blunder,
                300.. => Judgement::Mistake,
                100.. => Judgement::Inaccuracy,
                _ => return None,
            };
            Some(Mark { ply, judgement })
        })
        .collect();
    (evals, marks)
}

/// The game each variant's GIF shows.
fn gif_game(variant: Variant) -> Game {
    match variant {
        Variant::Chess => score(variant, KASPAROV_TOPALOV),
        _ => decisive_game(variant, 110),
    }
}

/// Each GIF game played by alice (White) and bob (Black) in a channel of its own, ended as it
/// ended (Topalov resigned), then analysed: game N of a new database is the N-th variant.
fn console_script() -> String {
    let mut script = String::new();
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        let game = gif_game(variant);
        let at = if i == 0 { String::new() } else { format!("@general-{}", i + 1) };
        script += &format!("# {variant}: {} plies\n", game.moves().len());
        script += &format!("alice{at}: /challenge @bob variant:{variant} color:white\nbob{at}: /accept\n");
        let mut position = Position::start(variant);
        for m in game.moves() {
            let mover = position.turn();
            let player = if mover == Color::White { "alice" } else { "bob" };
            let text = position.coord_token(m);
            position = position.after(m);
            // A Grolman turn that leaves its own king attacked loses, and asks to be confirmed.
            let loses = position.outcome().is_some_and(|o| o.winner() == Some(!mover));
            let confirm = if loses { " confirm:yes" } else { "" };
            script += &format!("{player}{at}: /move {text}{confirm}\n");
        }
        if game.outcome().is_none() {
            let loser = if variant == Variant::Chess { "bob" } else { "alice" };
            script += &format!("{loser}{at}: /resign confirm:yes game:{}\n", i + 1);
        }
        script += &format!("alice{at}: /analyse game:{}\n", i + 1);
    }
    script
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("--script") {
        print!("{}", console_script());
        return;
    }
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "gallery".into()));
    let size: u32 = args.next().map_or(640, |s| s.parse().expect("size"));
    std::fs::create_dir_all(&dir).expect("output folder");
    let renderer = Renderer::new();
    let write = |name: &str, png: Vec<u8>| {
        println!("{name}: {} bytes", png.len());
        std::fs::write(dir.join(name), png).expect("write");
    };
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        let theme = Theme::ALL[i % Theme::ALL.len()];
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

    let names = [("élodie", "Жора"), ("Ωmega", "x_X_slayer_X_x_2009"), ("Nguyễn Thị Ánh", "🔥 Dragon 🔥")];
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        let game = gif_game(variant);
        let (white, black) = names[i % names.len()];
        let mut gif = GameGif::new(&game).players(white, black).theme(Theme::ALL[i % Theme::ALL.len()]).size(size);
        if variant == Variant::Chess {
            gif = gif.players("Kasparov", "Topalov").result("1-0");
        }
        let out = renderer.game_gif(&gif);
        println!("{variant}: {} plies, {} frames", game.moves().len(), out.frames);
        write(&format!("{variant}-game.gif"), out.bytes);
        if variant == Variant::Chess {
            let (evals, marks) = material_analysis(&game);
            let graph = EvalGraph::new(&evals).marks(&marks).players("Kasparov", "Topalov").size(size);
            write("chess-graph.png", renderer.eval_graph_png(&graph).expect("marks on the game's plies"));
        }
    }

    let players = [
        "élodie",
        "Жора",
        "Ωmega",
        "x_X_slayer_X_x_2009",
        "🐉 Nguyễn Thị Ánh 🐉",
        "Wolfeschlegelsteinhausenbergerdorff Sr.",
    ];
    let table = StandingsTable {
        title: "Vendredi suisse".into(),
        subtitle: "Standings after round 5 of 5 · Swiss, 6 players".into(),
        columns: ["#", "Player", "Pts", "Buchholz"].map(String::from).to_vec(),
        rows: players
            .iter()
            .enumerate()
            .map(|(i, name)| vec![(i + 1).to_string(), name.to_string(), format!("{}", 5 - i), format!("{}.5", 14 - i)])
            .collect(),
    };
    write("standings.png", renderer.standings_png(&table, Theme::Green));
}
