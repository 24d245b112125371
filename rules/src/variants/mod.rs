//! The variants, one module each, and the one table that lists them.
//!
//! Every variant is chess pieces on a board moving by their movement; what a variant adds to
//! that shared game lives in its own module, in a unit type implementing `Rules`: its setup
//! and piece set, its special moves and captures, its terminal and draw rules, its notation
//! quirks. The shared code (positions, move generation, outcomes, notation) never names a
//! variant: it asks the variant's `Rules`.
//!
//! A [`Variant`] becomes its rules in one place, the `match` that `dispatch!` writes, so each
//! question is a static call and the hot paths (move generation, playing a move) see the
//! variant's answers as constants. `registry!` below is the only list of variants: adding
//! one is its module and one line there (docs/adding-a-variant.md).

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, SMALL};
use crate::movegen::Sink;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::role::{Color, Role};
use crate::square::Square;

/// Everything that sets one variant apart. The defaults are FIDE chess's; a variant overrides
/// only what its rules change.
pub(crate) trait Rules {
    /// The id used in commands and PGN tags.
    const ID: &'static str;
    const NAME: &'static str;
    const START_FEN: &'static str;
    /// Every role that can appear on the board.
    const ROLES: &'static [Role] = &[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    /// What a pawn may become on the last rank, strongest first.
    const PROMOTIONS: &'static [Role] = &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    /// The royal piece: captured (or mated), the game is lost.
    const ROYAL: Role = Role::King;
    /// Whether a move may not leave one's own royal piece attacked.
    const CHECK_RULE: bool = true;
    const CASTLING: Option<CastlingFiles> = Some(CastlingFiles::EIGHT_FILES);
    /// Whether castling may be written as the king's own move (`e1g1`); where the king could
    /// also move there by itself, only the king onto its rook (`e1h1`) is castling.
    const CASTLING_AS_KING_MOVE: bool = true;
    /// Whether a side may have lost its royal piece (the game then is over).
    const ROYAL_MAY_BE_TAKEN: bool = false;
    /// Whether a turn is a lead move and a chain of followers, written in parentheses.
    const CHAINS: bool = false;
    /// The role whose capture does more than remove it (see [`Rules::capture`]); a pawn taking
    /// it on the last rank does not promote.
    const TRANSFORMED_BY_CAPTURE: Option<Role> = None;
    /// Whether the position remembers that the last turn took a Golem-kind piece (Golem
    /// Chess's capture restriction 2).
    const GOLEM_RESTRICTIONS: bool = false;
    /// Whether a pinned piece's moves along its pin line keep it a shield. False where a
    /// capture may remove the capturer instead of the piece taken.
    const LINE_PINS_SUFFICE: bool = true;

    fn geometry() -> &'static Geometry {
        &SMALL
    }

    /// Squares from which a pawn of `color` may step two ranks on the variant's board `g`
    /// (passed in, so that move generation reads the position's own reference to it).
    #[inline]
    fn double_step_squares(g: &Geometry, color: Color) -> Bitboard {
        match color {
            Color::White => g.ranks[1],
            Color::Black => g.ranks[g.height as usize - 2],
        }
    }

    /// What happens when a `mover` takes a `taken` piece on the target square.
    fn capture(_mover: Role, _taken: Role) -> Capture {
        Capture::Plain
    }

    /// Where a pawn of the side to move on `from` may go (captures and steps).
    #[inline(always)] // a hot path: inlined into move generation as it was before variants had modules
    fn pawn_targets(pos: &Position, from: Square, occ: Bitboard) -> Bitboard {
        pos.pawn_pushes_and_captures(from, occ)
    }

    /// Enemy pieces that a piece of `role` on `from` may not take; `lift_r1` is Golem Chess's
    /// restriction 4 lifting restriction 1.
    #[inline]
    fn forbidden_targets(_pos: &Position, _role: Role, _from: Square, _lift_r1: bool) -> Bitboard {
        Bitboard::EMPTY
    }

    /// Every legal move of a position not yet decided.
    #[inline(always)] // into both copies of the generator (movegen.rs)
    fn generate<S: Sink>(pos: &Position, sink: &mut S) {
        pos.generate_checked::<Self, S>(sink, false);
    }

    /// Whether `m` is legal in a position not yet decided, judged directly.
    fn is_legal(pos: &Position, m: &Move) -> bool {
        pos.is_legal_by_movement::<Self>(m, false)
    }

    /// The win that the position shows before any move (a royal piece taken, a turn that lost).
    fn decided(_pos: &Position) -> Option<Outcome> {
        None
    }

    /// Whether neither side can win (see [`Position::is_insufficient_material`]).
    fn is_insufficient_material(pos: &Position) -> bool {
        !pos.has_mating_material(Color::White) && !pos.has_mating_material(Color::Black)
    }

    /// Whether `color` could still win a game not yet decided (see [`Position::can_win`]).
    fn can_win(pos: &Position, color: Color) -> bool {
        pos.has_mating_material(color)
    }
}

/// What a capture on the target square does to the two pieces.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Capture {
    /// The piece taken leaves the board; the capturer lands.
    Plain,
    /// The piece taken leaves the board; the capturer lands changed into this role.
    Becomes(Role),
    /// The capturer leaves the board; the piece taken stays, changed into this role.
    Repelled(Role),
}

/// Where the king and rooks of one side stand before castling and where they go.
#[derive(Copy, Clone, Debug)]
pub struct CastlingFiles {
    pub king: u8,
    /// Rook files, king side then queen side.
    pub rook: [u8; 2],
    pub king_to: [u8; 2],
    pub rook_to: [u8; 2],
}

impl CastlingFiles {
    /// FIDE castling on eight files: the king on e, the rooks on h and a.
    pub const EIGHT_FILES: CastlingFiles = CastlingFiles { king: 4, rook: [7, 0], king_to: [6, 2], rook_to: [5, 3] };
}

/// Writes [`Variant`], its list and the `dispatch!` macro from one list of
/// `Variant => module::Rules` lines. `$d` is a `$`, so that the macro written here can have
/// metavariables of its own.
macro_rules! registry {
    ($d:tt $($(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $variant:ident => $module:ident::$rules:ident,)*) => {
        $($(#[cfg($cfg)])? pub(crate) mod $module;)*

        /// A variant Chimera hosts.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        pub enum Variant {
            $($(#[doc = $doc])* $(#[cfg($cfg)])? $variant,)*
        }

        impl Variant {
            const COUNT: usize = [$($(#[cfg($cfg)])? Variant::$variant,)*].len();

            pub const ALL: [Variant; Variant::COUNT] = [$($(#[cfg($cfg)])? Variant::$variant,)*];
        }

        /// `dispatch!(variant, R => expression)`: the expression with `R` naming the
        /// variant's [`Rules`] type.
        macro_rules! dispatch {
            ($d v:expr, $d r:ident => $d body:expr) => {
                match $d v {
                    $($(#[cfg($cfg)])? $crate::variants::Variant::$variant => {
                        // The body may call the rules' methods; not every body does.
                        #[allow(unused_imports)]
                        use $crate::variants::Rules as _;
                        type $d r = $crate::variants::$module::$rules;
                        $d body
                    })*
                }
            };
        }
        pub(crate) use dispatch;
    };
}

registry! { $
    /// FIDE chess.
    Chess => chess::Chess,
    /// Golem Chess: a Golem survives its first hit as a Half-Golem.
    Golem => golem::Golem,
    /// Grolman Chess: every vacated square pulls in a friendly piece.
    Grolman => grolman::Grolman,
    /// Ghost King Chess: the royal piece goes anywhere and may be taken.
    GhostKing => ghost_king::GhostKing,
    /// Werewolf Chess: taking a Werewolf makes the taker one.
    Werewolf => werewolf::Werewolf,
    /// Unicorn Great Chess, on ten by ten squares.
    UnicornGreat => unicorn_great::UnicornGreat,
    /// Chess whose pawns may also step sideways: the proof, in tests, that a variant is its
    /// module and this line.
    #[cfg(test)]
    Sidestep => sidestep::Sidestep,
}

impl Variant {
    /// The id used in commands and PGN tags.
    pub const fn id(self) -> &'static str {
        dispatch!(self, R => R::ID)
    }

    pub const fn name(self) -> &'static str {
        dispatch!(self, R => R::NAME)
    }

    pub const fn start_fen(self) -> &'static str {
        dispatch!(self, R => R::START_FEN)
    }

    pub fn geometry(self) -> &'static Geometry {
        dispatch!(self, R => R::geometry())
    }

    /// The royal piece: captured (or mated), the game is lost.
    pub const fn royal(self) -> Role {
        dispatch!(self, R => R::ROYAL)
    }

    /// Whether a move may leave one's own royal piece attacked (Ghost King: no check rule;
    /// Grolman: legal, but the turn loses).
    pub const fn has_check_rule(self) -> bool {
        dispatch!(self, R => R::CHECK_RULE)
    }

    /// The roles a piece letter may name in this variant's FEN and SAN.
    pub fn role_for_char(self, c: char) -> Option<Role> {
        let role = match c.to_ascii_uppercase() {
            'K' => self.royal(),
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'G' => Role::Golem,
            'H' => Role::HalfGolem,
            'W' => Role::Werewolf,
            'U' => Role::Unicorn,
            'C' => Role::Chancellor,
            'L' => Role::Lion,
            _ => return None,
        };
        self.roles().contains(&role).then_some(role)
    }

    /// Every role that can appear on this variant's board.
    pub fn roles(self) -> &'static [Role] {
        dispatch!(self, R => R::ROLES)
    }

    /// What a pawn may become on the last rank, strongest first.
    pub fn promotions(self) -> &'static [Role] {
        dispatch!(self, R => R::PROMOTIONS)
    }

    pub fn castling_files(self) -> Option<CastlingFiles> {
        dispatch!(self, R => R::CASTLING)
    }

    /// Squares from which a pawn of `color` may step two ranks.
    pub fn double_step_squares(self, color: Color) -> Bitboard {
        dispatch!(self, R => R::double_step_squares(R::geometry(), color))
    }

    /// What happens when a `mover` takes a `taken` piece on its target square: the capturer
    /// lands as it is or changed, or it is lost and the piece taken stays changed.
    ///
    /// ```
    /// use rules::{Capture, Role, Variant};
    ///
    /// assert_eq!(Variant::Golem.capture(Role::Knight, Role::Golem), Capture::Repelled(Role::HalfGolem));
    /// assert_eq!(Variant::Werewolf.capture(Role::Bishop, Role::Werewolf), Capture::Becomes(Role::Werewolf));
    /// assert_eq!(Variant::Chess.capture(Role::Bishop, Role::Queen), Capture::Plain);
    /// ```
    pub fn capture(self, mover: Role, taken: Role) -> Capture {
        dispatch!(self, R => R::capture(mover, taken))
    }

    /// Whether castling may be written as the king's own move (not where the king could also
    /// move there by itself: Ghost King Chess).
    pub(crate) const fn castling_as_king_move(self) -> bool {
        dispatch!(self, R => R::CASTLING_AS_KING_MOVE)
    }

    /// Whether a decided game may lack a royal piece (Ghost King Chess).
    pub(crate) const fn royal_may_be_taken(self) -> bool {
        dispatch!(self, R => R::ROYAL_MAY_BE_TAKEN)
    }

    /// Whether turns carry chains of followers (Grolman Chess).
    pub(crate) const fn has_chains(self) -> bool {
        dispatch!(self, R => R::CHAINS)
    }

    /// Whether positions track Golem Chess's restriction 2.
    pub(crate) const fn golem_restrictions(self) -> bool {
        dispatch!(self, R => R::GOLEM_RESTRICTIONS)
    }

    /// The role whose capture changes the capturer or the piece taken.
    pub(crate) const fn transformed_by_capture(self) -> Option<Role> {
        dispatch!(self, R => R::TRANSFORMED_BY_CAPTURE)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}`; the variants are {ids}", ids = Variant::ALL.map(Variant::id).join(", "))]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads a variant id, or its name as PGN tags write it (`Golem Chess`, `unicorngreat`).
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let key: String = s.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
        let key = key.strip_suffix("chess").filter(|k| !k.is_empty()).unwrap_or(&key);
        Variant::ALL
            .into_iter()
            .find(|v| v.id().replace('-', "") == key || (key == "standard" && *v == Variant::Chess))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_parse() {
        for v in Variant::ALL {
            assert_eq!(v.id().parse::<Variant>(), Ok(v));
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
        }
        assert_eq!("Standard".parse::<Variant>(), Ok(Variant::Chess));
        assert_eq!("unicorngreat".parse::<Variant>(), Ok(Variant::UnicornGreat));
        let err = "shogi".parse::<Variant>().unwrap_err();
        assert!(err
            .to_string()
            .starts_with("unknown variant `shogi`; the variants are chess, golem, grolman, ghost-king"));
    }

    #[test]
    fn a_capture_that_transforms_names_its_role() {
        for v in Variant::ALL {
            for &taken in v.roles() {
                let plain = v.capture(Role::Pawn, taken) == Capture::Plain;
                assert_eq!(plain, v.transformed_by_capture() != Some(taken), "{v} taking a {taken}");
            }
        }
    }
}
