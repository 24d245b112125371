//! Zobrist keys: one 64-bit key per position, covering every piece of state the rules keep
//! (pieces, side to move, castling rights, the en passant square and Golem Chess's
//! "a Golem-kind piece was just taken" flag). Grolman Chess keeps no state beyond these. The
//! move counters are left out on purpose: positions that differ only in them repeat.
//!
//! [`hash`] computes a key from the whole position; [`update`] derives a position's key from
//! its parent's by folding in only what differs between the two, which is what the search does
//! after every move. `update` reads the difference off the two boards' piece sets rather than
//! off the move, so it needs no knowledge of what a move does in each variant (a Grolman chain,
//! a Werewolf conversion, a repelled Golem hit): it is right whenever `hash` is
//! (`engine/tests/keys.rs` checks the two agree along random games of every variant).

use rules::{Color, Piece, Position, Role, Square};

const SQUARES: usize = rules::square::FRAME;

struct Keys {
    pieces: [[[u64; SQUARES]; Role::COUNT]; 2],
    castling: [u64; SQUARES],
    ep: [u64; SQUARES],
    black: u64,
    golem_captured: u64,
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn make_keys() -> Keys {
    let mut state = 0x0C41_3E7A_5EED_u64;
    let mut keys = Keys {
        pieces: [[[0; SQUARES]; Role::COUNT]; 2],
        castling: [0; SQUARES],
        ep: [0; SQUARES],
        black: 0,
        golem_captured: 0,
    };
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < Role::COUNT {
            let mut s = 0;
            while s < SQUARES {
                keys.pieces[c][r][s] = splitmix(&mut state);
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    let mut s = 0;
    while s < SQUARES {
        keys.castling[s] = splitmix(&mut state);
        keys.ep[s] = splitmix(&mut state);
        s += 1;
    }
    keys.black = splitmix(&mut state);
    keys.golem_captured = splitmix(&mut state);
    keys
}

static KEYS: Keys = make_keys();

/// The position's key. Equal positions (as the repetition rule sees them) have equal keys.
pub fn hash(pos: &Position) -> u64 {
    let mut key = 0;
    for (sq, piece) in pos.board().pieces() {
        key ^= KEYS.pieces[piece.color.index()][piece.role.index()][sq.index()];
    }
    for rook in pos.castling_rights() {
        key ^= KEYS.castling[rook.index()];
    }
    if let Some(ep) = pos.ep_square() {
        key ^= KEYS.ep[ep.index()];
    }
    if pos.turn() == Color::Black {
        key ^= KEYS.black;
    }
    if pos.golem_captured() {
        key ^= KEYS.golem_captured;
    }
    key
}

fn piece_key(sq: Square, piece: Option<Piece>) -> u64 {
    piece.map_or(0, |p| KEYS.pieces[p.color.index()][p.role.index()][sq.index()])
}

/// The key of `after` given `key`, the key of `before`: both positions of one variant, `after`
/// usually one move (or a null move) from `before`. Costs the squares that changed, not the
/// pieces on the board.
pub fn update(mut key: u64, before: &Position, after: &Position) -> u64 {
    let (a, b) = (before.board(), after.board());
    // A square changed when its colour or its role did (a capture by a piece of the same role
    // changes only the colour).
    let mut changed =
        Color::ALL.into_iter().fold(rules::Bitboard::EMPTY, |acc, c| acc | (a.by_color(c) ^ b.by_color(c)));
    for role in Role::ALL {
        changed |= a.by_role(role) ^ b.by_role(role);
    }
    for sq in changed {
        key ^= piece_key(sq, a.piece_at(sq)) ^ piece_key(sq, b.piece_at(sq));
    }
    for rook in before.castling_rights() ^ after.castling_rights() {
        key ^= KEYS.castling[rook.index()];
    }
    if before.ep_square() != after.ep_square() {
        for ep in [before.ep_square(), after.ep_square()].into_iter().flatten() {
            key ^= KEYS.ep[ep.index()];
        }
    }
    if before.turn() != after.turn() {
        key ^= KEYS.black;
    }
    if before.golem_captured() != after.golem_captured() {
        key ^= KEYS.golem_captured;
    }
    key
}
