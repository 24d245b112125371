//! Static evaluation, per variant: material (the fairy pieces included), piece-square terms,
//! mobility and passed pawns, from the side to move's point of view, in centipawns.
//!
//! What each variant's rules make special is left to the search where the search sees it
//! exactly, and priced here where it does not:
//! - Golem Chess: a Golem is worth more than its moves because its first hit costs the
//!   capturer and leaves a Half-Golem; the material difference after such a capture is what
//!   the search reads, and the move ordering ([`crate::order`]) prices the capture the same way.
//! - Werewolf Chess: taking a Werewolf turns the taker into one, so the capture gains a
//!   Werewolf and loses the taker's own value; the search sees it in the material.
//! - Ghost King Chess: a Ghost King the side to move can take is a won position
//!   ([`crate::search`] scores it as a mate), and there is no king safety to price: the Ghost
//!   King goes anywhere.
//! - Grolman Chess: a turn that left its own king attacked has lost ([`crate::search`]).
//!
//! The terms are [`Params`], so that a tuning run can try others through
//! [`Evaluator::with_params`]. They start from estimates ([`Params::estimates`]: chess's usual
//! scale, the fairy pieces' from their moves, the Golem's checked by a probe); a Texel tuning
//! run per variant (`engine/examples/tune.rs`, docs/engine.md "Texel tuning") fitted material,
//! mobility and centre terms to self-play results, and [`Params::for_variant`] plays with a
//! variant's fitted terms where a match at a fixed node budget found them not worse (half the
//! points or more): Golem, Werewolf and Unicorn Great Chess.

use rules::{Bitboard, Color, Position, Role, Square, Variant};

/// The terms of the evaluation that a tuning run may change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Material by role, in centipawns (royal pieces 0).
    pub values: [i32; Role::COUNT],
    /// Centipawns per square a piece of the role attacks that is not its own side's.
    pub mobility: [i32; Role::COUNT],
    /// Centipawns per step towards the centre (half-squares), by role.
    pub centre: [i32; Role::COUNT],
}

impl Params {
    /// The terms the engine plays with: [`Params::estimates`], with those of the variant's
    /// Texel tuning run put in where a match found them not worse (docs/engine.md, "Texel
    /// tuning").
    pub fn for_variant(variant: Variant) -> Params {
        let mut params = Params::estimates(variant);
        for &(term, role, value) in tuned(variant) {
            *params.slot(term, role) = value;
        }
        params
    }

    /// The terms before tuning. Chess's from the usual scale; the fairy pieces' estimated from
    /// their moves (a Golem as a two-step queen that survives its first hit, a Werewolf as a
    /// three-step queen with jumps that converts its taker), the Golem's raised from 700 to 850
    /// by a self-play probe (docs/engine.md).
    pub fn estimates(variant: Variant) -> Params {
        use Role::*;
        let mut values = [0; Role::COUNT];
        values[Pawn.index()] = 100;
        values[Knight.index()] = 320;
        values[Bishop.index()] = 330;
        values[Rook.index()] = 500;
        values[Queen.index()] = 950;
        values[Golem.index()] = 850;
        values[HalfGolem.index()] = 420;
        values[Werewolf.index()] = 850;
        values[Unicorn.index()] = 800;
        values[Chancellor.index()] = 900;
        values[Lion.index()] = 420;
        if variant.geometry().width > 8 {
            // Short-range pieces lose value on the larger board (Unicorn Great Chess's).
            values[Knight.index()] = 290;
            values[Bishop.index()] = 360;
            values[Rook.index()] = 540;
            values[Queen.index()] = 1000;
        }
        let mut mobility = [0; Role::COUNT];
        mobility[Knight.index()] = 4;
        mobility[Bishop.index()] = 4;
        mobility[Rook.index()] = 3;
        mobility[Queen.index()] = 2;
        mobility[Golem.index()] = 3;
        mobility[HalfGolem.index()] = 3;
        mobility[Werewolf.index()] = 3;
        mobility[Unicorn.index()] = 2;
        mobility[Chancellor.index()] = 2;
        mobility[Lion.index()] = 3;
        let mut centre = [0; Role::COUNT];
        centre[Knight.index()] = 4;
        centre[Bishop.index()] = 2;
        centre[Queen.index()] = 1;
        centre[Golem.index()] = 3;
        centre[HalfGolem.index()] = 3;
        centre[Werewolf.index()] = 3;
        centre[Lion.index()] = 3;
        centre[Unicorn.index()] = 2;
        centre[Chancellor.index()] = 2;
        Params { values, mobility, centre }
    }

    pub fn value(&self, role: Role) -> i32 {
        self.values[role.index()]
    }

    fn slot(&mut self, term: Term, role: Role) -> &mut i32 {
        let table = match term {
            Term::Value => &mut self.values,
            Term::Mobility => &mut self.mobility,
            Term::Centre => &mut self.centre,
        };
        &mut table[role.index()]
    }

    /// `base` with the terms that `text` names replaced. The text is `KEY=VALUE` tokens separated
    /// by white space (`#` starts a comment to the end of its line): `Q=950` a material value,
    /// `mob.N=4` a mobility and `ctr.N=4` a centre term, each by the piece's letter in the
    /// variant (pawns have no mobility term, royal pieces no terms at all).
    pub fn parse(variant: Variant, base: Params, text: &str) -> Result<Params, ParamsError> {
        let mut params = base;
        let tokens = text.lines().flat_map(|line| line.split('#').next().unwrap_or("").split_whitespace());
        for token in tokens {
            let (key, value) = token.split_once('=').ok_or_else(|| ParamsError::NotKeyValue(token.to_owned()))?;
            let (term, letter) = match key.split_once('.') {
                Some(("mob", letter)) => (Term::Mobility, letter),
                Some(("ctr", letter)) => (Term::Centre, letter),
                Some(_) => return Err(ParamsError::UnknownTerm(key.to_owned())),
                None => (Term::Value, key),
            };
            let mut chars = letter.chars();
            let role = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => variant.role_for_char(c),
                _ => None,
            }
            .ok_or_else(|| ParamsError::UnknownPiece { key: key.to_owned(), variant })?;
            if role.is_royal() || (role == Role::Pawn && term == Term::Mobility) {
                return Err(ParamsError::NoSuchTerm(key.to_owned()));
            }
            let value: i32 = value
                .parse()
                .ok()
                .filter(|v: &i32| (-10_000..=10_000).contains(v))
                .ok_or_else(|| ParamsError::BadValue { key: key.to_owned(), value: value.to_owned() })?;
            *params.slot(term, role) = value;
        }
        Ok(params)
    }

    /// Every term the variant's pieces use, in the format [`Params::parse`] reads.
    pub fn to_text(&self, variant: Variant) -> String {
        let roles: Vec<Role> = variant.roles().iter().copied().filter(|r| !r.is_royal()).collect();
        let mut tokens: Vec<String> = roles.iter().map(|r| format!("{}={}", r.upper_char(), self.value(*r))).collect();
        tokens.extend(
            roles
                .iter()
                .filter(|r| **r != Role::Pawn)
                .map(|r| format!("mob.{}={}", r.upper_char(), self.mobility[r.index()])),
        );
        tokens.extend(roles.iter().map(|r| format!("ctr.{}={}", r.upper_char(), self.centre[r.index()])));
        tokens.join(" ")
    }
}

/// The terms of the Texel tuning runs (docs/engine.md, "Texel tuning": 200 self-play games at
/// 2,000 nodes a move, seed 24) that replace [`Params::estimates`], by variant; each variant's
/// set is kept only as a whole, and only where its held-out error fell and it scored at least
/// half against the estimates in a match at 4,000 nodes a move.
fn tuned(variant: Variant) -> &'static [(Term, Role, i32)] {
    use Role::*;
    use Term::*;
    match variant {
        Variant::Golem => &[
            (Value, Knight, 240),
            (Value, Bishop, 370),
            (Value, Rook, 350),
            (Value, Queen, 910),
            (Value, Golem, 1090),
            (Value, HalfGolem, 370),
            (Mobility, Knight, 0),
            (Mobility, Bishop, 3),
            (Mobility, Rook, 5),
            (Mobility, Queen, 8),
            (Mobility, Golem, 7),
            (Mobility, HalfGolem, 8),
            (Centre, Knight, 1),
            (Centre, Bishop, 0),
            (Centre, Rook, 8),
            (Centre, Queen, 8),
            (Centre, Golem, 7),
            (Centre, HalfGolem, 8),
        ],
        Variant::Werewolf => &[
            (Value, Knight, 250),
            (Value, Bishop, 310),
            (Value, Rook, 440),
            (Value, Werewolf, 1190),
            (Mobility, Knight, 6),
            (Mobility, Bishop, 8),
            (Mobility, Rook, 8),
            (Mobility, Werewolf, 1),
            (Centre, Knight, 8),
            (Centre, Bishop, 8),
            (Centre, Rook, 8),
            (Centre, Werewolf, 5),
        ],
        Variant::UnicornGreat => &[
            (Value, Knight, 180),
            (Value, Bishop, 390),
            (Value, Queen, 1390),
            (Value, Unicorn, 1130),
            (Value, Chancellor, 1120),
            (Value, Lion, 600),
            (Mobility, Knight, 8),
            (Mobility, Bishop, 8),
            (Mobility, Unicorn, 4),
            (Mobility, Chancellor, 3),
            (Mobility, Lion, 6),
            (Centre, Knight, 6),
            (Centre, Bishop, 1),
            (Centre, Rook, 7),
            (Centre, Queen, 0),
            (Centre, Unicorn, 4),
            (Centre, Chancellor, 0),
            (Centre, Lion, 0),
        ],
        _ => &[],
    }
}

/// Which table of [`Params`] a term is in.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Term {
    Value,
    Mobility,
    Centre,
}

/// What is wrong with a [`Params::parse`] text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamsError {
    /// A token without `=`.
    NotKeyValue(String),
    /// A key `X.Y` whose `X` is neither `mob` nor `ctr`.
    UnknownTerm(String),
    /// A key whose letter is not one of the variant's pieces.
    UnknownPiece { key: String, variant: Variant },
    /// A term the evaluation does not have (a royal piece's, a pawn's mobility).
    NoSuchTerm(String),
    /// A value that is not a whole number of centipawns within ±10,000.
    BadValue { key: String, value: String },
}

impl std::fmt::Display for ParamsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamsError::NotKeyValue(token) => write!(f, "`{token}` is not KEY=VALUE"),
            ParamsError::UnknownTerm(key) => write!(f, "`{key}`: a term is `mob.` or `ctr.` and a piece letter"),
            ParamsError::UnknownPiece { key, variant } => {
                write!(f, "`{key}`: not a piece letter of {} (upper case, one letter)", variant.id())
            }
            ParamsError::NoSuchTerm(key) => write!(f, "`{key}`: the evaluation has no such term"),
            ParamsError::BadValue { key, value } => {
                write!(f, "`{key}={value}`: the value is not whole centipawns within ±10000")
            }
        }
    }
}

impl std::error::Error for ParamsError {}

/// Non-royal, non-pawn material of both sides at the start (for the game phase).
fn start_material(params: &Params, variant: Variant) -> i32 {
    let pos = Position::start(variant);
    pos.board()
        .pieces()
        .filter(|(_, p)| p.role != Role::Pawn && !p.role.is_royal())
        .map(|(_, p)| params.value(p.role))
        .sum::<i32>()
        .max(1)
}

/// The evaluator of one variant (its parameters and the game-phase scale).
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub params: Params,
    variant: Variant,
    start_material: i32,
}

impl Evaluator {
    pub fn new(variant: Variant) -> Evaluator {
        Evaluator::with_params(variant, Params::for_variant(variant))
    }

    pub fn with_params(variant: Variant, params: Params) -> Evaluator {
        let start_material = start_material(&params, variant);
        Evaluator { params, variant, start_material }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The position's value for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if rules::cpu::wide() {
            // SAFETY: `wide()` found every feature `evaluate_wide` is compiled with.
            return unsafe { evaluate_wide(self, pos) };
        }
        self.evaluate_any(pos)
    }

    /// [`Evaluator::evaluate`], inlined into both of its copies (`rules::cpu`): its mobility
    /// term counts squares, one instruction with `popcnt` and a dozen without.
    #[inline(always)]
    fn evaluate_any(&self, pos: &Position) -> i32 {
        let board = pos.board();
        let geo = pos.geometry();
        let occupied = board.occupied();
        let (w, h) = (i32::from(geo.width), i32::from(geo.height));
        let material: i32 = board
            .pieces()
            .filter(|(_, p)| p.role != Role::Pawn && !p.role.is_royal())
            .map(|(_, p)| self.params.value(p.role))
            .sum();
        // 256 = opening, 0 = bare endgame.
        let mg = (material.min(self.start_material) * 256) / self.start_material;
        let eg = 256 - mg;
        let pawns = board.by_role(Role::Pawn);
        let mut score = [0i32; 2];
        for (sq, piece) in board.pieces() {
            let c = piece.color;
            let role = piece.role;
            let own = board.by_color(c);
            let file = i32::from(sq.file());
            let rank = i32::from(sq.rank());
            let rel_rank = if c == Color::White { rank } else { h - 1 - rank };
            let centrality = (w - 1) + (h - 1) - ((2 * file - (w - 1)).abs() + (2 * rank - (h - 1)).abs());
            let mut s = self.params.value(role) + self.params.centre[role.index()] * centrality;
            match role {
                Role::Pawn => {
                    s += rel_rank * 4 + (eg * rel_rank * rel_rank) / 256;
                    if (w - 1 - (2 * file - (w - 1)).abs()) >= w - 3 {
                        s += (mg * 8 * rel_rank.min(3)) / 256; // centre pawns forward early
                    }
                    if is_passed(pos, sq, c, pawns) {
                        s += 10 + rel_rank * rel_rank * (8 + eg / 16) / 4;
                    }
                }
                Role::King => {
                    // Sheltered on its back rank early, central late.
                    s += (eg * centrality * 4 - mg * (rel_rank * 12 + centrality * 2)) / 256;
                }
                Role::GhostKing => {}
                _ => {
                    let attacks = attacks(pos, role, sq, occupied);
                    s += self.params.mobility[role.index()] * (attacks - own).count() as i32;
                    if role == Role::Rook && (geo.files[sq.file() as usize] & pawns & own).is_empty() {
                        s += 12;
                    }
                }
            }
            score[c.index()] += s;
        }
        let us = pos.turn();
        score[us.index()] - score[(!us).index()] + 10
    }
}

rules::wide! {
    fn evaluate_wide(eval: &Evaluator, pos: &Position) -> i32 {
        eval.evaluate_any(pos)
    }
}

#[inline(always)] // into both copies of the evaluation
fn is_passed(pos: &Position, sq: Square, color: Color, pawns: Bitboard) -> bool {
    let geo = pos.geometry();
    let theirs = pawns & pos.board().by_color(!color);
    let ahead_ranks = if color == Color::White { sq.rank() + 1..geo.height } else { 0..sq.rank() };
    let ahead = ahead_ranks.fold(Bitboard::EMPTY, |ahead, r| ahead | geo.ranks[r as usize]);
    let f = sq.file() as usize;
    let mut files = geo.files[f];
    if f > 0 {
        files |= geo.files[f - 1];
    }
    if f + 1 < geo.width as usize {
        files |= geo.files[f + 1];
    }
    (theirs & ahead & files).is_empty()
}

/// The squares a piece of `role` on `sq` attacks.
#[inline(always)] // into both copies of the evaluation
pub(crate) fn attacks(pos: &Position, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    let g = pos.geometry();
    match role {
        Role::Knight => g.knight_attacks(sq),
        Role::Bishop => g.bishop_attacks(sq, occupied),
        Role::Rook => g.rook_attacks(sq, occupied),
        Role::Queen => g.queen_attacks(sq, occupied),
        Role::Golem | Role::HalfGolem => g.golem_attacks(sq, occupied),
        Role::Werewolf => g.werewolf_attacks(sq, occupied),
        Role::Unicorn => g.bishop_attacks(sq, occupied) | g.nightrider_attacks(sq, occupied),
        Role::Chancellor => g.rook_attacks(sq, occupied) | g.knight_attacks(sq),
        Role::Lion => g.lion_attacks(sq),
        Role::King => g.king_attacks(sq),
        Role::Pawn | Role::GhostKing => Bitboard::EMPTY,
    }
}
