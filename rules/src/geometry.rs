//! Board shapes as data: the squares of a board and every attack table its pieces need,
//! computed once per shape.
//!
//! Sliding attacks use the classical ray method: a ray's first blocker is its lowest or highest
//! set bit (every ray steps by a constant index delta), so one table of rays serves rook, bishop,
//! nightrider and the short-range sliders on both board sizes.

use std::sync::LazyLock;

use crate::bitboard::Bitboard;
use crate::role::Color;
use crate::square::{Square, FRAME};

/// The 8 queen directions as (file, rank) steps; the first four have positive index deltas.
pub(crate) const QUEEN_DIRS: [(i8, i8); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];
/// Orthogonal directions are even indices of [`QUEEN_DIRS`] below 8: N, E, S, W.
pub(crate) const ROOK_DIRS: [usize; 4] = [0, 1, 4, 5];
pub(crate) const BISHOP_DIRS: [usize; 4] = [2, 3, 6, 7];
/// Knight (and nightrider) steps; the first four have positive index deltas.
pub(crate) const KNIGHT_DIRS: [(i8, i8); 8] = [(1, 2), (-1, 2), (2, 1), (-2, 1), (-1, -2), (1, -2), (-2, -1), (2, -1)];

/// Lion: one step diagonally, or a leap of two or three squares orthogonally.
const LION_LEAPS: [(i8, i8); 12] =
    [(1, 1), (-1, 1), (1, -1), (-1, -1), (2, 0), (-2, 0), (0, 2), (0, -2), (3, 0), (-3, 0), (0, 3), (0, -3)];

pub struct Geometry {
    pub width: u8,
    pub height: u8,
    /// Every square of the board.
    pub all: Bitboard,
    /// Squares of each rank (index 0 = rank 1); ranks past the height are empty.
    pub ranks: [Bitboard; 10],
    pub files: [Bitboard; 10],
    /// Squares of the light colour.
    pub light: Bitboard,
    queen_rays: [[Bitboard; 8]; FRAME],
    knight_rays: [[Bitboard; 8]; FRAME],
    king: [Bitboard; FRAME],
    knight: [Bitboard; FRAME],
    lion: [Bitboard; FRAME],
    /// The square two steps away in each queen direction (Werewolf's always-attacked ring).
    ring2: [Bitboard; FRAME],
    /// The first three squares in each queen direction (short-range sliders).
    steps: [[[Bitboard; 3]; 8]; FRAME],
    pawn: [[Bitboard; FRAME]; 2],
    /// Squares strictly between two squares on a common queen or nightrider line.
    between: Box<[[Bitboard; FRAME]; FRAME]>,
    /// The whole queen or nightrider line through two squares (empty when they share none).
    line: Box<[[Bitboard; FRAME]; FRAME]>,
}

pub static SMALL: LazyLock<Geometry> = LazyLock::new(|| Geometry::new(8, 8));
pub static LARGE: LazyLock<Geometry> = LazyLock::new(|| Geometry::new(10, 10));

impl Geometry {
    fn new(width: u8, height: u8) -> Geometry {
        let on_board = |sq: Square| sq.file() < width && sq.rank() < height;
        let step = |sq: Square, (df, dr): (i8, i8)| sq.offset(df, dr).filter(|&s| on_board(s));
        let leaps =
            |sq: Square, steps: &[(i8, i8)]| -> Bitboard { steps.iter().filter_map(|&d| step(sq, d)).collect() };
        let ray = |sq: Square, d: (i8, i8)| -> Bitboard {
            let mut out = Bitboard::EMPTY;
            let mut cur = sq;
            while let Some(next) = step(cur, d) {
                out = out.with(next);
                cur = next;
            }
            out
        };

        let all: Bitboard = Square::all().filter(|&s| on_board(s)).collect();
        let mut g = Geometry {
            width,
            height,
            all,
            ranks: [Bitboard::EMPTY; 10],
            files: [Bitboard::EMPTY; 10],
            light: all.filter(|s| (s.file() + s.rank()) % 2 == 1).collect(),
            queen_rays: [[Bitboard::EMPTY; 8]; FRAME],
            knight_rays: [[Bitboard::EMPTY; 8]; FRAME],
            king: [Bitboard::EMPTY; FRAME],
            knight: [Bitboard::EMPTY; FRAME],
            lion: [Bitboard::EMPTY; FRAME],
            ring2: [Bitboard::EMPTY; FRAME],
            steps: [[[Bitboard::EMPTY; 3]; 8]; FRAME],
            pawn: [[Bitboard::EMPTY; FRAME]; 2],
            between: Box::new([[Bitboard::EMPTY; FRAME]; FRAME]),
            line: Box::new([[Bitboard::EMPTY; FRAME]; FRAME]),
        };
        for i in 0..10 {
            g.ranks[i] = all.filter(|s| s.rank() as usize == i).collect();
            g.files[i] = all.filter(|s| s.file() as usize == i).collect();
        }
        for sq in all {
            let i = sq.index();
            for (d, &(df, dr)) in QUEEN_DIRS.iter().enumerate() {
                g.queen_rays[i][d] = ray(sq, (df, dr));
                for k in 0..3 {
                    let n = k as i8 + 1;
                    g.steps[i][d][k] = step(sq, (n * df, n * dr)).map_or(Bitboard::EMPTY, Bitboard::from);
                }
            }
            for (d, &dir) in KNIGHT_DIRS.iter().enumerate() {
                g.knight_rays[i][d] = ray(sq, dir);
            }
            g.king[i] = leaps(sq, &QUEEN_DIRS);
            g.knight[i] = leaps(sq, &KNIGHT_DIRS);
            g.lion[i] = leaps(sq, &LION_LEAPS);
            let twice: Vec<(i8, i8)> = QUEEN_DIRS.iter().map(|&(f, r)| (2 * f, 2 * r)).collect();
            g.ring2[i] = leaps(sq, &twice);
            g.pawn[Color::White.index()][i] = leaps(sq, &[(1, 1), (-1, 1)]);
            g.pawn[Color::Black.index()][i] = leaps(sq, &[(1, -1), (-1, -1)]);
        }
        for a in all {
            for dirs in [&QUEEN_DIRS, &KNIGHT_DIRS] {
                for &d in dirs.iter() {
                    let mut between = Bitboard::EMPTY;
                    let mut cur = a;
                    while let Some(b) = step(cur, d) {
                        g.between[a.index()][b.index()] = between;
                        g.line[a.index()][b.index()] = ray(a, d) | ray(a, (-d.0, -d.1)) | Bitboard::from(a);
                        between = between.with(b);
                        cur = b;
                    }
                }
            }
        }
        g
    }

    pub fn contains(&self, sq: Square) -> bool {
        self.all.contains(sq)
    }

    /// The rank index (0-based) of a colour's back rank.
    pub fn back_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => 0,
            Color::Black => self.height - 1,
        }
    }

    /// The rank a pawn of `color` promotes on.
    pub fn last_rank(&self, color: Color) -> Bitboard {
        self.ranks[self.back_rank(!color) as usize]
    }

    #[inline]
    pub fn king_attacks(&self, sq: Square) -> Bitboard {
        self.king[sq.index()]
    }

    #[inline]
    pub fn knight_attacks(&self, sq: Square) -> Bitboard {
        self.knight[sq.index()]
    }

    #[inline]
    pub fn lion_attacks(&self, sq: Square) -> Bitboard {
        self.lion[sq.index()]
    }

    /// Squares a pawn of `color` on `sq` captures on.
    #[inline]
    pub fn pawn_attacks(&self, color: Color, sq: Square) -> Bitboard {
        self.pawn[color.index()][sq.index()]
    }

    /// Every square on a diagonal through `sq` (bishop moves on an empty board).
    #[inline]
    pub fn bishop_lines(&self, sq: Square) -> Bitboard {
        let r = &self.queen_rays[sq.index()];
        r[2] | r[3] | r[6] | r[7]
    }

    /// Every square on the rank and file of `sq` (rook moves on an empty board).
    #[inline]
    pub fn rook_lines(&self, sq: Square) -> Bitboard {
        let r = &self.queen_rays[sq.index()];
        r[0] | r[1] | r[4] | r[5]
    }

    /// The squares two steps away along a queen line.
    #[inline]
    pub fn ring2(&self, sq: Square) -> Bitboard {
        self.ring2[sq.index()]
    }

    #[inline]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        self.between[a.index()][b.index()]
    }

    #[inline]
    pub fn line(&self, a: Square, b: Square) -> Bitboard {
        self.line[a.index()][b.index()]
    }

    #[inline]
    fn slide(rays: &[Bitboard; 8], d: usize, occupied: Bitboard, table: &[[Bitboard; 8]; FRAME]) -> Bitboard {
        let ray = rays[d];
        let blockers = ray & occupied;
        // Directions 0..4 step towards higher indices, so their first blocker is the lowest bit.
        let first = if d < 4 { blockers.first() } else { blockers.last() };
        match first {
            Some(b) => ray ^ table[b.index()][d],
            None => ray,
        }
    }

    /// The first occupied square from `sq` in queen direction `d` (empty if none).
    #[inline]
    pub fn first_hit(&self, sq: Square, d: usize, occupied: Bitboard) -> Bitboard {
        let blockers = self.queen_rays[sq.index()][d] & occupied;
        let first = if d < 4 { blockers.first() } else { blockers.last() };
        first.map_or(Bitboard::EMPTY, Bitboard::from)
    }

    /// The squares of the ray from `sq` in queen direction `d`.
    #[inline]
    pub fn ray(&self, sq: Square, d: usize) -> Bitboard {
        self.queen_rays[sq.index()][d]
    }

    #[inline]
    pub fn rook_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rays = &self.queen_rays[sq.index()];
        ROOK_DIRS.iter().fold(Bitboard::EMPTY, |acc, &d| acc | Self::slide(rays, d, occupied, &self.queen_rays))
    }

    #[inline]
    pub fn bishop_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rays = &self.queen_rays[sq.index()];
        BISHOP_DIRS.iter().fold(Bitboard::EMPTY, |acc, &d| acc | Self::slide(rays, d, occupied, &self.queen_rays))
    }

    #[inline]
    pub fn queen_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.rook_attacks(sq, occupied) | self.bishop_attacks(sq, occupied)
    }

    /// Repeated knight leaps in one direction; only landing squares block.
    #[inline]
    pub fn nightrider_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rays = &self.knight_rays[sq.index()];
        (0..8).fold(Bitboard::EMPTY, |acc, d| acc | Self::slide(rays, d, occupied, &self.knight_rays))
    }

    /// One or two steps in any queen direction, the second needing the first empty
    /// (Golem and Half-Golem).
    #[inline]
    pub fn golem_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let steps = &self.steps[sq.index()];
        let mut out = self.king[sq.index()];
        for step in steps {
            if (step[0] & occupied).is_empty() {
                out |= step[1];
            }
        }
        out
    }

    /// Werewolf: every square one or two steps away in a queen direction (the second by a slide
    /// or, over an occupied first square, by a jump), and the third when the first two are empty.
    #[inline]
    pub fn werewolf_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let i = sq.index();
        let mut out = self.king[i] | self.ring2[i];
        for step in &self.steps[i] {
            if ((step[0] | step[1]) & occupied).is_empty() {
                out |= step[2];
            }
        }
        out
    }

    /// The first, second and third square from `sq` in queen direction `d` (each empty when off
    /// the board).
    #[inline]
    pub(crate) fn steps(&self, sq: Square, d: usize) -> &[Bitboard; 3] {
        &self.steps[sq.index()][d]
    }
}
