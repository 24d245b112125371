//! The time-out rule in every variant: a player who runs out of time loses, unless the opponent
//! could not possibly win ([`Position::can_win`]), which draws. Each "cannot win" of the material
//! test is backed by an exhaustive search for a mate with that material; each "can win" that is
//! not obvious, by a position where that material has won.

mod common;

use common::pos;
use rules::{Bitboard, Board, Color, DrawReason, Game, Outcome, Piece, Position, Role, Setup, Variant, WinReason};

const WHITE: Color = Color::White;
const BLACK: Color = Color::Black;

/// What `can_win` says for White and for Black.
fn can_win(variant: Variant, fen: &str) -> [bool; 2] {
    let p = pos(variant, fen);
    [p.can_win(WHITE), p.can_win(BLACK)]
}

fn lost_on_time(winner: Color) -> Outcome {
    Outcome::Decisive { winner, reason: WinReason::Timeout }
}

const DRAWN_ON_TIME: Outcome = Outcome::Draw(DrawReason::TimeoutVsInsufficientMaterial);

/// The position must be a win for `winner` (the material really can win).
fn assert_won(variant: Variant, fen: &str, winner: Color, reason: WinReason) {
    assert_eq!(pos(variant, fen).outcome(), Some(Outcome::Decisive { winner, reason }), "{variant} {fen}");
}

#[test]
fn chess() {
    let v = Variant::Chess;
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"), [false, false], "bare kings");
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"), [false, false], "a lone knight");
    assert_eq!(can_win(v, "3qk3/8/8/8/8/8/8/4K1N1 w - - 0 1"), [false, true], "a knight against a queen");
    assert_eq!(can_win(v, "3rk3/8/8/8/8/8/8/4KB2 w - - 0 1"), [false, true], "a bishop against a rook");
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"), [true, false], "bishops of both colours");
    assert_eq!(can_win(v, "3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1"), [false, false], "bishops all on dark squares");
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/8/4K1NN w - - 0 1"), [true, false], "two knights, with help");
    assert_eq!(can_win(v, "4k3/7p/8/8/8/8/8/4K3 w - - 0 1"), [false, true], "a pawn promotes");
    // A knight mates with the help of a rook in the corner; a bishop with the help of a
    // knight, or of a bishop of the other colour.
    assert_eq!(can_win(v, "3rk3/8/8/8/8/8/8/4K1N1 w - - 0 1"), [true, true]);
    assert_won(v, "6rk/5N2/7K/8/8/8/8/8 b - - 0 1", WHITE, WinReason::Checkmate);
    assert_eq!(can_win(v, "1n2k3/8/8/8/8/8/8/4KB2 w - - 0 1"), [true, true]);
    assert_won(v, "kn6/1B6/1K6/8/8/8/8/8 b - - 0 1", WHITE, WinReason::Checkmate);
    assert_won(v, "K1k5/B1n5/8/8/8/8/8/8 w - - 0 1", BLACK, WinReason::Checkmate);
    assert_won(v, "kb6/1B6/1K6/8/8/8/8/8 b - - 0 1", WHITE, WinReason::Checkmate);
}

#[test]
fn the_clock_decides_only_when_the_opponent_can_win() {
    let p = pos(Variant::Chess, "3qk3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    assert_eq!(p.outcome_on_time(WHITE), lost_on_time(BLACK));
    assert_eq!(p.outcome_on_time(BLACK), DRAWN_ON_TIME);
    assert_eq!(DRAWN_ON_TIME.result(), "1/2-1/2");

    let mut game = Game::new(p.clone());
    game.time_out(BLACK);
    assert_eq!(game.outcome(), Some(DRAWN_ON_TIME));
    let mut game = Game::new(p);
    game.time_out(WHITE);
    assert_eq!(game.outcome(), Some(lost_on_time(BLACK)));

    // A game already over stays as it ended.
    let mate = pos(Variant::Chess, "6rk/5N2/7K/8/8/8/8/8 b - - 0 1");
    let mut game = Game::new(mate);
    game.time_out(BLACK);
    assert_eq!(game.outcome(), Some(Outcome::Decisive { winner: WHITE, reason: WinReason::Checkmate }));
}

#[test]
fn golem() {
    let v = Variant::Golem;
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"), [false, false], "a lone knight");
    assert_eq!(
        pos(v, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
    assert_eq!(can_win(v, "3qk3/8/8/8/8/8/8/4K1N1 w - - 0 1"), [false, true], "a knight against a queen");
    // A Half-Golem mates with its king, and so does a Golem.
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/8/4K2H w - - 0 1"), [true, false]);
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/8/4K2G w - - 0 1"), [true, false]);
    assert_won(v, "8/8/8/8/8/1K6/8/k1H5 b - - 0 1", WHITE, WinReason::Checkmate);
    // A knight's side keeps its chances against a Golem, which may stand in its king's way.
    assert_eq!(can_win(v, "3gk3/8/8/8/8/8/8/4K1N1 w - - 0 1"), [true, true]);
}

#[test]
fn werewolf() {
    let v = Variant::Werewolf;
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"), [false, false], "a lone knight");
    assert_eq!(can_win(v, "3rk3/8/8/8/8/8/8/4KB2 w - - 0 1"), [false, true], "a bishop against a rook");
    // Contagion: the knight that takes the Werewolf becomes one, and a Werewolf mates.
    let fen = "4k3/8/8/3w4/8/4N3/8/4K3 w - - 0 1";
    assert_eq!(can_win(v, fen), [true, true]);
    let after = pos(v, fen).after(&pos(v, fen).parse_move("Nxd5").unwrap());
    assert_eq!(after.board().piece_at("d5".parse().unwrap()), Some(Piece::new(WHITE, Role::Werewolf)));
    assert!(after.can_win(WHITE));
    assert_won(v, "k1W5/8/1K6/8/8/8/8/8 b - - 0 1", WHITE, WinReason::Checkmate);
    // A king takes a Werewolf and stays a king: a bare king still cannot win.
    assert_eq!(can_win(v, "4k3/8/8/8/8/8/3w4/4K3 w - - 0 1"), [false, true]);
}

#[test]
fn unicorn_great() {
    let v = Variant::UnicornGreat;
    assert_eq!(can_win(v, "5k4/10/10/10/10/10/10/10/10/5K1N2 w - - 0 1"), [false, false], "a lone knight");
    assert_eq!(can_win(v, "4qk4/10/10/10/10/10/10/10/10/5KB3 w - - 0 1"), [false, true], "a bishop against a queen");
    assert_eq!(can_win(v, "5k4/10/10/10/10/10/10/10/10/5K1L2 w - - 0 1"), [true, false], "a Lion");
    assert_won(v, "10/10/10/10/10/10/L9/10/2K7/k9 b - - 0 1", WHITE, WinReason::Checkmate);
    assert_eq!(can_win(v, "5k4/10/10/10/10/10/10/10/10/5K1U2 w - - 0 1"), [true, false], "a Unicorn");
    assert_eq!(can_win(v, "5k4/10/10/10/10/10/10/10/10/5K1C2 w - - 0 1"), [true, false], "a Chancellor");
    // The pieces of the great board may fill a flight square of their own king.
    assert_eq!(can_win(v, "4ck4/10/10/10/10/10/10/10/10/5K1N2 w - - 0 1"), [true, true]);
}

#[test]
fn grolman_any_side_can_win() {
    let v = Variant::Grolman;
    // A bare king wins when the other king walks up to it: that turn ends with the mover's own
    // king attacked. Such a turn is legal, so the bare king's side can win.
    let fen = "8/8/8/3k4/8/3K4/8/R7 w - - 0 1";
    assert_eq!(can_win(v, fen), [true, true]);
    let p = pos(v, fen);
    let walked = p.after(&p.parse_move("Kd4").unwrap());
    assert_eq!(walked.outcome(), Some(Outcome::Decisive { winner: BLACK, reason: WinReason::KingLeftAttacked }));
    assert_eq!(p.outcome_on_time(WHITE), lost_on_time(BLACK));
    // A king and a knight force it: here every turn Black has leaves its king attacked.
    let p = pos(v, "k7/3N4/1K6/8/8/8/8/8 b - - 0 1");
    assert_eq!([p.can_win(WHITE), p.can_win(BLACK)], [true, true]);
    let turns = p.legal_moves();
    assert!(!turns.is_empty());
    for turn in &turns {
        let after = p.after(turn);
        assert_eq!(after.outcome(), Some(Outcome::Decisive { winner: WHITE, reason: WinReason::KingLeftAttacked }));
    }
    // Bare kings: drawn at once, so neither can win any more.
    assert_eq!(can_win(v, "8/8/8/3k4/8/3K4/8/8 w - - 0 1"), [false, false]);
}

#[test]
fn ghost_king_is_never_drawn_on_time() {
    let v = Variant::GhostKing;
    for fen in ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/Q3K2R w - - 0 1"] {
        assert_eq!(can_win(v, fen), [true, true], "{fen}");
        let p = pos(v, fen);
        assert_eq!(p.outcome_on_time(WHITE), lost_on_time(BLACK));
        assert_eq!(p.outcome_on_time(BLACK), lost_on_time(WHITE));
    }
    // Once a Ghost King is taken, only its taker has won.
    assert_eq!(can_win(v, "8/8/8/8/8/8/8/Q3K3 b - - 0 1"), [true, false]);
}

/// Every placement of a black king, White's king and pieces (the first of them giving check),
/// and at most one black piece, with Black to move: the checkmates among them (with all
/// bishops on one colour, when `one_colour`). The board's symmetries map mates to mates, so the
/// black king stays in one eighth of the board; and the black piece stands next to its king,
/// as a mate with it further away stays a mate without it.
fn mates(variant: Variant, white: &[Role], black: Option<Role>, one_colour: bool) -> Vec<String> {
    let g = variant.geometry();
    let (w, h) = (g.width, g.height);
    let eighth = g.all.filter(|s| s.file() < w.div_ceil(2) && s.rank() < h.div_ceil(2) && s.file() <= s.rank());
    let mut search = Search { variant, black, one_colour, found: Vec::new() };
    for bk in eighth {
        let checkers = match white[0] {
            Role::Knight => g.knight_attacks(bk),
            Role::Bishop => g.bishop_lines(bk),
            role => panic!("no check search for a {role}"),
        };
        let mut board = Board::empty();
        board.set(bk, Piece::new(BLACK, Role::King));
        search.place(&mut board, white, checkers, g.king_attacks(bk));
    }
    search.found
}

struct Search {
    variant: Variant,
    black: Option<Role>,
    one_colour: bool,
    found: Vec<String>,
}

impl Search {
    /// Places `white[0]` on each free square of `squares`, then the rest of White's pieces and
    /// White's king on every free square, and the black piece (or none) on `next_to_king`.
    fn place(&mut self, board: &mut Board, white: &[Role], squares: Bitboard, next_to_king: Bitboard) {
        let all = self.variant.geometry().all;
        let Some((&role, rest)) = white.split_first() else {
            for wk in all - board.occupied() {
                board.set(wk, Piece::new(WHITE, Role::King));
                self.record(board);
                if let Some(role) = self.black {
                    for sq in next_to_king - board.occupied() {
                        board.set(sq, Piece::new(BLACK, role));
                        self.record(board);
                        board.discard(sq);
                    }
                }
                board.discard(wk);
            }
            return;
        };
        for sq in squares - board.occupied() {
            board.set(sq, Piece::new(WHITE, role));
            self.place(board, rest, all, next_to_king);
            board.discard(sq);
        }
    }

    fn record(&mut self, board: &Board) {
        let light = self.variant.geometry().light;
        let bishops = board.by_role(Role::Bishop);
        if self.one_colour && !((bishops & light).is_empty() || (bishops & light) == bishops) {
            return;
        }
        let setup = Setup {
            board: board.clone(),
            turn: BLACK,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            golem_captured: false,
        };
        if let Ok(p) = Position::from_setup(self.variant, setup) {
            if p.is_check() && p.count_legal() == 0 {
                self.found.push(p.fen());
            }
        }
    }
}

/// The material that `can_win` says cannot win admits no checkmate at all: with no pawn to
/// promote and no piece to transform, material only shrinks, so no game reaches a win. The
/// same search finds the mates of material that can win, so it is not blind.
fn assert_no_mate(variant: Variant) {
    use Role::{Bishop as B, Knight as N, Queen as Q, Rook as R};
    let mut cannot: Vec<(&[Role], Option<Role>, bool)> = vec![(&[N], None, false), (&[B], Some(R), false)];
    if variant.roles().contains(&Q) {
        cannot.extend([(&[N][..], Some(Q), false), (&[B][..], Some(Q), false)]);
    }
    if variant.geometry().width == 8 {
        // Two bishops of one colour (the general case is argued in `has_mating_material`).
        cannot.push((&[B, B], Some(B), true));
    }
    let can: [(&[Role], Option<Role>, bool); 3] =
        [(&[N], Some(R), false), (&[N], Some(B), false), (&[B], Some(B), false)];
    for (white, black, one_colour) in cannot {
        let found = mates(variant, white, black, one_colour);
        assert!(found.is_empty(), "{variant}: {white:?} against {black:?} mates in {:?}", &found[..found.len().min(3)]);
    }
    for (white, black, one_colour) in can {
        assert!(
            !mates(variant, white, black, one_colour).is_empty(),
            "{variant}: {white:?} against {black:?} never mates"
        );
    }
}

#[test]
fn no_mate_with_material_that_cannot_win_8x8() {
    for variant in [Variant::Chess, Variant::Golem, Variant::Werewolf] {
        assert_no_mate(variant);
    }
}

#[test]
fn no_mate_with_material_that_cannot_win_10x10() {
    assert_no_mate(Variant::UnicornGreat);
}
