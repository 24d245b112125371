//! Standard algebraic notation (SAN) for every variant. The project's conventions:
//!
//! - Piece letters as in docs/rules.md ("Pieces and letters": `G` Golem, `H` Half-Golem, `W` Werewolf, `U` Unicorn,
//!   `C` Chancellor, `L` Lion; the Ghost King is `K`), none for pawns. A move names the file of
//!   its start square, else the rank, else both, only when another legal move of the same kind
//!   of piece to the same square would otherwise read the same.
//! - `=X` names what stands on the target square afterwards whenever that is not simply the
//!   moving piece: a promotion (`e8=Q`), or a capture that changes a piece. Golem Chess:
//!   `Nxg3=H` (the knight is removed; the Golem it hit is now a Half-Golem), `Gxg3=H` (the
//!   capturing Golem became a Half-Golem), `exd8=H` (a pawn taking a Golem on the last rank is
//!   removed and does not promote). Werewolf Chess: `Bxd5=W`, `exd8=W` (contagion).
//! - A Werewolf jump that also takes the piece it jumps names the jumped square first:
//!   `Wxe5-f6` (landing on an empty square), `Wxe5xf6` (taking there too). Plain jumps and
//!   slides are ordinary SAN (`Wf6`, `Wxf6`).
//! - Castling is `O-O` or `O-O-O`, in Ghost King Chess too, where `Kg1` is the Ghost King's
//!   teleport to g1, a different move.
//! - `+` check, `#` checkmate. Ghost King Chess: `+` when the enemy Ghost King can be taken
//!   (what the host warns of), `#` when the move takes it.
//! - Grolman Chess: the lead move, its chain in parentheses, then the suffix of the whole turn:
//!   `Rf3 (Kf4, e5, Nce4, c3, Bc2)#`. A step names its piece (none for pawns), its start file or
//!   rank only when another unmoved piece of that kind could have stepped to the same square at
//!   that point of the chain, its destination, and `=Q` for a promotion.

use crate::bitboard::Bitboard;
use crate::moves::{Chain, Move, MoveKind, Step};
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::reading::CastlingSide;
use crate::role::{Color, Piece, Role};
use crate::square::Square;

impl Position {
    /// The SAN of `m`, a move legal here.
    ///
    /// ```
    /// use rules::{Position, Variant};
    ///
    /// // A pawn taking a Werewolf becomes one (contagion), even on the last rank.
    /// let pos = Position::from_fen(Variant::Werewolf, "3w3k/4P3/8/8/8/8/8/4K3 w - - 0 1")?;
    /// let mut sans: Vec<String> = pos.legal_moves().iter().filter(|m| m.role == rules::Role::Pawn).map(|m| pos.san(m)).collect();
    /// sans.sort();
    /// assert_eq!(sans, ["e8=B", "e8=N", "e8=R+", "exd8=W"]);
    /// # Ok::<(), rules::PositionError>(())
    /// ```
    pub fn san(&self, m: &Move) -> String {
        let after = self.after(m);
        let mut san = self.san_lead(m, &after);
        if !m.chain.is_empty() {
            san.push_str(" (");
            san.push_str(&self.chain_san(m).join(", "));
            san.push(')');
        }
        san.push_str(self.suffix(&after));
        san
    }

    /// The SAN of a Grolman turn's lead move alone, without check marks.
    pub(crate) fn lead_san(&self, m: &Move) -> String {
        self.san_lead(m, &self.after(m))
    }

    /// The SAN of the lead move alone, without check marks.
    fn san_lead(&self, m: &Move, after: &Position) -> String {
        if let MoveKind::Castle { rook } = m.kind {
            return match self.castling_side(rook) {
                CastlingSide::KingSide => "O-O".to_string(),
                CastlingSide::QueenSide => "O-O-O".to_string(),
            };
        }
        let mut out = String::new();
        if m.role == Role::Pawn {
            // A pawn that leaves its file names the file it left.
            if m.from.file() != m.to.file() {
                out.push(m.from.file_char());
            }
            if m.is_capture() {
                out.push('x');
            }
        } else {
            out.push(m.role.upper_char());
            out.push_str(&self.disambiguation(m));
            if let Some(over) = m.hop_over() {
                out.push_str(&format!("x{over}"));
                out.push(if m.capture.is_some() { 'x' } else { '-' });
            } else if m.is_capture() {
                out.push('x');
            }
        }
        out.push_str(&m.to.to_string());
        if let Some(role) = self.landing_change(m, after) {
            out.push('=');
            out.push(role.upper_char());
        }
        out
    }

    /// The side of castling with the rook on `rook`.
    pub(crate) fn castling_side(&self, rook: Square) -> CastlingSide {
        match self.variant.castling_files() {
            Some(files) if rook.file() == files.rook[1] => CastlingSide::QueenSide,
            _ => CastlingSide::KingSide,
        }
    }

    /// What stands on the target square after `m` when that is not simply the mover: a
    /// promotion, or what a capture turned the mover or its victim into.
    pub(crate) fn landing_change(&self, m: &Move, after: &Position) -> Option<Role> {
        let landed = after.board.piece_at(m.to)?;
        (m.promotion.is_some() || landed != Piece::new(self.turn, m.role)).then_some(landed.role)
    }

    /// The start file, rank or square that tells `m` apart from moves that would read the same.
    fn disambiguation(&self, m: &Move) -> String {
        let rivals: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|o| {
                o.role == m.role && o.to == m.to && o.from != m.from && !o.is_castle() && o.hop_over() == m.hop_over()
            })
            .map(|o| o.from)
            .collect();
        disambiguate(m.from, &rivals)
    }

    /// The steps of `m`'s chain in SAN, each disambiguated in the position the chain has
    /// reached when it is taken.
    fn chain_san(&self, m: &Move) -> Vec<String> {
        let us = self.turn;
        let mut pos = self.after(&Move { chain: Chain::EMPTY, ..*m });
        let mut moved = Bitboard::from(m.to);
        let mut out = Vec::with_capacity(m.chain.len());
        for step in m.chain.steps() {
            let rivals: Vec<Square> = pos.could_step(us, step.role, step.to, moved).without(step.from).collect();
            let mut text = String::new();
            if step.role != Role::Pawn {
                text.push(step.role.upper_char());
            }
            text.push_str(&disambiguate(step.from, &rivals));
            text.push_str(&step.to.to_string());
            if let Some(p) = step.promotion {
                text.push('=');
                text.push(p.upper_char());
            }
            out.push(text);
            apply_step(&mut pos, us, step);
            moved = moved.with(step.to);
        }
        out
    }

    /// `color`'s pieces of `role`, not in `moved`, that could step to the empty square `to` by
    /// their ordinary movement (a Grolman chain's candidates).
    fn could_step(&self, color: Color, role: Role, to: Square, moved: Bitboard) -> Bitboard {
        let ours = self.board.by_piece(Piece::new(color, role)) - moved;
        if role != Role::Pawn {
            return self.attackers(to, color, self.board.occupied()) & ours;
        }
        let back = -color.forward();
        let one = to.offset(0, back).filter(|&s| self.geo.contains(s));
        let two = to.offset(0, 2 * back).filter(|&s| self.geo.contains(s));
        let mut out = Bitboard::EMPTY;
        if let Some(one) = one {
            if ours.contains(one) {
                out = out.with(one);
            } else if let Some(two) = two.filter(|&t| !self.board.occupied().contains(one) && ours.contains(t)) {
                if self.variant.double_step_squares(color).contains(two) {
                    out = out.with(two);
                }
            }
        }
        out
    }

    /// `+`, `#` or nothing, judged in the position after the move.
    fn suffix(&self, after: &Position) -> &'static str {
        let us = self.turn;
        match after.outcome() {
            Some(Outcome::Decisive { winner, reason: WinReason::Checkmate | WinReason::RoyalCaptured })
                if winner == us =>
            {
                "#"
            }
            _ if after.is_check() => "+",
            _ => "",
        }
    }
}

/// Plays one chain step on a board in the middle of a Grolman turn.
fn apply_step(pos: &mut Position, us: Color, step: &Step) {
    pos.board.discard(step.from);
    pos.board.set(step.to, Piece::new(us, step.promotion.unwrap_or(step.role)));
}

/// The file, else the rank, else the square of `from` that no rival shares.
fn disambiguate(from: Square, rivals: &[Square]) -> String {
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|r| r.file() != from.file()) {
        from.file_char().to_string()
    } else if rivals.iter().all(|r| r.rank() != from.rank()) {
        (from.rank() + 1).to_string()
    } else {
        from.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Variant;

    fn sans(variant: Variant, fen: &str) -> Vec<String> {
        let pos = Position::from_fen(variant, fen).unwrap();
        pos.legal_moves().iter().map(|m| pos.san(m)).collect()
    }

    fn has(list: &[String], want: &[&str]) {
        for w in want {
            assert!(list.iter().any(|s| s == w), "{w} missing from {list:?}");
        }
    }

    #[test]
    fn chess_basics() {
        let start = sans(Variant::Chess, Variant::Chess.start_fen());
        has(&start, &["e4", "Nf3", "Na3"]);
        // Two knights reaching d2, rooks on one file, promotion, castling, mate.
        let list = sans(Variant::Chess, "r3k3/1P6/8/8/R7/8/8/RN1K1N2 w q - 0 1");
        has(&list, &["Nbd2", "Nfd2", "R4a2", "R1a2", "Rxa8+", "bxa8=Q+", "b8=N"]);
        let list = sans(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        has(&list, &["O-O", "O-O-O", "Rxa8+", "Kf1"]);
        has(&sans(Variant::Chess, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), &["Ra8#"]);
    }

    #[test]
    fn disambiguation_by_both() {
        let list = sans(Variant::Chess, "k7/8/8/8/8/1Q1Q4/8/1Q5K w - - 0 1");
        has(&list, &["Qb3c2", "Qdc2", "Q1c2"]);
    }

    #[test]
    fn werewolf_hops_and_contagion() {
        // The white Werewolf on d4 may jump the black pawn on e5 to f6, with or without taking it.
        // The white Werewolf on d4 may jump the pawn on c5 to take the knight on b6, taking
        // the pawn too or not; it may jump the pawn on e5 to the empty f6, likewise.
        let fen = "4k3/8/1n6/2p1p3/3W4/8/8/4K3 w - - 0 1";
        has(&sans(Variant::Werewolf, fen), &["Wxe5-f6", "Wf6", "Wxe5+", "Wxc5xb6", "Wxb6", "Wxc5"]);
        let fen = "4k3/8/8/3w4/8/5B2/8/4K3 w - - 0 1";
        has(&sans(Variant::Werewolf, fen), &["Bxd5=W"]);
        let fen = "3w3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
        let list = sans(Variant::Werewolf, fen);
        has(&list, &["exd8=W", "e8=R+", "e8=N"]);
        assert!(!list.iter().any(|s| s.starts_with("exd8=R")));
    }

    #[test]
    fn golem_captures_name_the_change() {
        let fen = "4k3/8/8/8/5g2/8/4N3/4K3 w - - 0 1";
        has(&sans(Variant::Golem, fen), &["Nxf4=H"]);
        let fen = "4k3/8/8/6g1/6G1/8/8/4K3 w - - 0 1";
        has(&sans(Variant::Golem, fen), &["Gxg5=H"]);
        let fen = "4k3/8/8/6g1/6H1/8/8/4K3 w - - 0 1";
        has(&sans(Variant::Golem, fen), &["Hxg5=H"]);
        let fen = "3g3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
        has(&sans(Variant::Golem, fen), &["exd8=H", "e8=Q+", "e8=G"]);
    }

    #[test]
    fn ghost_king_castling_teleport_and_capture() {
        // The rook on h8 guards the black Ghost King, so White's cannot take it.
        let fen = "4k2r/8/8/8/8/8/8/4K2R w K - 0 1";
        let list = sans(Variant::GhostKing, fen);
        has(&list, &["O-O", "Kg1", "Kxh8+", "Rxh8+"]);
        assert!(!list.iter().any(|s| s.starts_with("Kxe8")));
        let fen = "4k2r/8/8/8/8/8/8/R3K3 w - - 0 1";
        has(&sans(Variant::GhostKing, fen), &["Ra7", "Ra8+"]);
        has(&sans(Variant::GhostKing, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"), &["Kxe8#", "Kd2+"]);
    }

    #[test]
    fn unicorn_great_riders_lions_and_rank_ten() {
        // Two Unicorns reach d5: from b1 as a nightrider (b1-c3-d5) and from h9 along a diagonal.
        let fen = "k9/7U2/10/10/10/10/10/10/10/1U3K4 w - - 0 1";
        has(&sans(Variant::UnicornGreat, fen), &["Ubd5", "Uhd5"]);
        // Lions on c3 and e3 both reach d4 (diagonal step) and c3 reaches c6 by a leap of three.
        let fen = "5k4/10/10/10/10/10/10/2L1L5/10/5K4 w - - 0 1";
        has(&sans(Variant::UnicornGreat, fen), &["Lcd4", "Led4", "Lc6", "Le6"]);
        let fen = "r4k4/10/10/10/10/10/10/10/10/R4K4 w - - 0 1";
        has(&sans(Variant::UnicornGreat, fen), &["Rxa10+", "Ra9"]);
        let fen = "r4k4/10/10/r9/10/10/10/10/10/R4K4 b - - 0 1";
        has(&sans(Variant::UnicornGreat, fen), &["R10a9", "R7a9", "R7a8", "Rxa1+"]);
    }

    /// The generated turns whose lead goes from `from` to `to`.
    fn turns(pos: &Position, from: &str, to: &str) -> Vec<Move> {
        pos.legal_moves().into_iter().filter(|m| m.from.to_string() == from && m.to.to_string() == to).collect()
    }

    #[test]
    fn grolman_chains_read_as_lead_then_steps() {
        // After 1. e4 the chain is Ne2 (the knight fills e2), Rg1 (the rook fills g1).
        let pos = Position::start(Variant::Grolman);
        let [turn] = turns(&pos, "e2", "e4")[..] else { panic!("one turn for e4") };
        assert_eq!(pos.san(&turn), "e4 (Ne2, Rg1)");
        assert_eq!(pos.coord(&turn), "e2e4 (g1e2 h1g1)");
    }

    #[test]
    fn grolman_steps_disambiguate_mid_chain() {
        // Rooks on a1 and c1 could both fill b1 after the knight leaves it: two turns.
        let pos = Position::from_fen(Variant::Grolman, "4k3/8/8/8/8/8/8/RNR1K3 w - - 0 1").unwrap();
        let sans: Vec<String> = turns(&pos, "b1", "c3").iter().map(|m| pos.san(m)).collect();
        assert_eq!(sans, ["Nc3 (Rab1)", "Nc3 (Rcb1)"]);
    }
}
