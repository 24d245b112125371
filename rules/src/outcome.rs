//! How games end: what a position decides by itself, and what a game's history adds.

use std::fmt;

use crate::position::Position;
use crate::role::{Color, Role};
use crate::variants::dispatch;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Decisive { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    Checkmate,
    /// Ghost King Chess: the loser's Ghost King was taken.
    RoyalCaptured,
    /// Grolman Chess: the loser ended a turn with their own king attacked.
    KingLeftAttacked,
    Resignation,
    Timeout,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DrawReason {
    Stalemate,
    InsufficientMaterial,
    /// The same position for the third time (claimed) or the fifth (automatic).
    Repetition,
    /// Fifty moves by each side without a capture or pawn move (claimed; automatic at 75).
    FiftyMoves,
    Agreement,
    /// A player ran out of time, but their opponent could not possibly have won.
    TimeoutVsInsufficientMaterial,
}

impl Outcome {
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(*winner),
            Outcome::Draw(_) => None,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Decisive { winner, reason } => {
                let how = match reason {
                    WinReason::Checkmate => "by checkmate",
                    WinReason::RoyalCaptured => "by capturing the Ghost King",
                    WinReason::KingLeftAttacked => "as the loser's turn left their own king attacked",
                    WinReason::Resignation => "by resignation",
                    WinReason::Timeout => "on time",
                };
                write!(f, "{winner} wins {how}")
            }
            Outcome::Draw(reason) => {
                let how = match reason {
                    DrawReason::Stalemate => "by stalemate",
                    DrawReason::InsufficientMaterial => "as neither side can mate",
                    DrawReason::Repetition => "by repetition",
                    DrawReason::FiftyMoves => "by the fifty-move rule",
                    DrawReason::Agreement => "by agreement",
                    DrawReason::TimeoutVsInsufficientMaterial => {
                        "as time ran out for a player whose opponent could not have won"
                    }
                };
                write!(f, "Draw {how}")
            }
        }
    }
}

impl Position {
    /// What this position decides by itself: a win (checkmate, a captured Ghost King, a Grolman
    /// turn that left its own king attacked), stalemate, or too little material to mate.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(won) = self.decided_outcome() {
            return Some(won);
        }
        if self.count_legal() == 0 {
            return if self.is_check() {
                Some(Outcome::Decisive { winner: !self.turn, reason: WinReason::Checkmate })
            } else {
                Some(Outcome::Draw(DrawReason::Stalemate))
            };
        }
        self.is_insufficient_material().then_some(Outcome::Draw(DrawReason::InsufficientMaterial))
    }

    /// Whether the game is drawn for want of material. Chess, Golem, Werewolf and Unicorn Great
    /// Chess: neither side [can win](Position::can_win) with what it has. Grolman Chess: bare
    /// kings, where only a player walking their own king into the other's could lose (a king
    /// and a knight can already force that: a turn with no safe move must still be played).
    /// Never in Ghost King Chess, where a Ghost King can always take the other.
    pub fn is_insufficient_material(&self) -> bool {
        dispatch!(self.variant, R => R::is_insufficient_material(self))
    }

    /// The win that the variant's rules read off the position before any move: a captured
    /// Ghost King, a Grolman turn that left its own king attacked. What [`Position::outcome`]
    /// answers first, without counting moves.
    pub fn decided_outcome(&self) -> Option<Outcome> {
        dispatch!(self.variant, R => R::decided(self))
    }

    /// Whether `color` could still win by some series of legal moves, its opponent's help
    /// included: FIDE's test for a player who runs out of time (article 6.9), which
    /// [`Position::outcome_on_time`] applies. In a game already over, only its winner can win.
    ///
    /// The answer is judged from the material on the board and is conservative: `false` only
    /// where no series of moves can end in a win for `color`, `true` whenever one might.
    ///
    /// - Chess, Golem, Werewolf and Unicorn Great Chess: a bare king cannot win; neither can a
    ///   lone knight against a bare king or a lone queen, a lone bishop against a lone queen or
    ///   rook, nor bishops all on squares of one colour against nothing but bishops of that
    ///   colour. Anything else may win: a pawn promotes, every piece stronger than a minor (a
    ///   Golem or Half-Golem, a Werewolf, a Lion, a Unicorn, a Chancellor) mates with its king,
    ///   and the opponent's other pieces may fill its own king's flight squares. In Werewolf
    ///   Chess the piece that takes a Werewolf becomes one.
    /// - Grolman Chess: always. A turn that ends with the mover's own king attacked loses, so
    ///   even a bare king wins when the opponent's king walks up to it.
    /// - Ghost King Chess: always, as long as the side's Ghost King stands: it can take anything
    ///   anywhere, so there it is never a draw.
    ///
    /// ```
    /// use rules::{Color, Position, Variant};
    ///
    /// // A king and a knight against a bare king: White could win only with a second piece.
    /// let pos = Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1")?;
    /// assert!(!pos.can_win(Color::White) && !pos.can_win(Color::Black));
    ///
    /// // In Werewolf Chess the knight may take the Werewolf and become one.
    /// let pos = Position::from_fen(Variant::Werewolf, "4k3/8/8/3w4/8/8/8/4K1N1 w - - 0 1")?;
    /// assert!(pos.can_win(Color::White));
    ///
    /// // A bare Ghost King still takes whatever stands unguarded.
    /// let pos = Position::from_fen(Variant::GhostKing, "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")?;
    /// assert!(pos.can_win(Color::Black));
    /// # Ok::<(), rules::PositionError>(())
    /// ```
    pub fn can_win(&self, color: Color) -> bool {
        match self.outcome() {
            Some(outcome) => outcome.winner() == Some(color),
            None => dispatch!(self.variant, R => R::can_win(self, color)),
        }
    }

    /// How the game ends when `loser` runs out of time here: a loss on time, or a draw when the
    /// opponent [cannot possibly win](Position::can_win).
    ///
    /// ```
    /// use rules::{Color, DrawReason, Outcome, Position, Variant, WinReason};
    ///
    /// // White (a bare king) flags against a rook: Black wins.
    /// let pos = Position::from_fen(Variant::Chess, "r3k3/8/8/8/8/8/8/4K3 w - - 0 1")?;
    /// let lost = Outcome::Decisive { winner: Color::Black, reason: WinReason::Timeout };
    /// assert_eq!(pos.outcome_on_time(Color::White), lost);
    /// // Black flags: a bare king cannot mate, so it is a draw.
    /// assert_eq!(pos.outcome_on_time(Color::Black), Outcome::Draw(DrawReason::TimeoutVsInsufficientMaterial));
    /// # Ok::<(), rules::PositionError>(())
    /// ```
    pub fn outcome_on_time(&self, loser: Color) -> Outcome {
        if self.can_win(!loser) {
            Outcome::Decisive { winner: !loser, reason: WinReason::Timeout }
        } else {
            Outcome::Draw(DrawReason::TimeoutVsInsufficientMaterial)
        }
    }

    /// The material test of the variants whose minor pieces are FIDE's knights and bishops
    /// (see [`Position::can_win`]): whether `color` has material that could give mate.
    pub(crate) fn has_mating_material(&self, color: Color) -> bool {
        let b = &self.board;
        let royals = b.by_role(self.variant.royal());
        let ours = b.by_color(color) - royals;
        let theirs = b.by_color(!color) - royals;
        let knights = b.by_role(Role::Knight);
        let bishops = b.by_role(Role::Bishop);
        if ours.is_empty() {
            return false;
        }
        if (ours - knights - bishops).any() {
            return true;
        }
        // Bishops all on one colour never attack the squares orthogonally next to a king, and
        // our king cannot cover all of them: mate needs an enemy piece to fill one.
        let light = bishops & self.geo.light;
        let one_colour = light.is_empty() || light == bishops;
        if (ours - bishops).is_empty() && one_colour && (theirs - bishops).is_empty() {
            return false;
        }
        // A lone minor piece against a lone queen (or, against a bishop, a lone rook): that
        // piece always takes or blocks the check. tests/timeout.rs searches every placement.
        if !ours.more_than_one() && !theirs.more_than_one() {
            let queens = b.by_role(Role::Queen);
            let inert = if (ours & knights).any() { queens } else { queens | b.by_role(Role::Rook) };
            return (theirs - inert).any();
        }
        true
    }
}
