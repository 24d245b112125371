//! Differential legality: on every position of a fuzzed game (from the variant's start or a
//! fuzzed FEN), the generator ([`Position::legal_moves`]) and the direct judge
//! ([`Position::is_legal`]) agree on every candidate move — the generator's own moves, each
//! piece's moves by its movement alone, castling and en passant as written by hand, and
//! mutations of legal moves (another promotion, capture, kind or chain). Every legal move
//! played leaves a position whose FEN reads back as the same position.
//!
//! Input: the first byte picks the variant; when its seventh bit is set, a FEN follows up to a
//! newline. Every following byte picks the next move, as an index into the legal moves.

use std::collections::HashSet;

use rules::{Chain, Move, MoveKind, Position, Role, Square, Variant};

use crate::notation::position_round_trips;

/// Bounds the work of one input.
const MAX_PLIES: usize = 40;
/// Legal moves per position that get mutated (spread over the list).
const MUTATED: usize = 8;

pub fn check(data: &[u8]) {
    let Some((&first, mut rest)) = data.split_first() else { return };
    let variant = crate::variant(first);
    let mut pos = Position::start(variant);
    if first & 0x40 != 0 {
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        if let Ok(fuzzed) = Position::from_fen(variant, &String::from_utf8_lossy(&rest[..end])) {
            position_round_trips(&fuzzed);
            pos = fuzzed;
        }
        rest = rest.get(end + 1..).unwrap_or_default();
    }
    agree(&pos);
    for &pick in rest.iter().take(MAX_PLIES) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos = pos.after(&legal[usize::from(pick) % legal.len()]);
        agree(&pos);
    }
}

/// The generator and the judge agree at `pos`, and every legal move leaves a position that
/// survives its FEN.
pub fn agree(pos: &Position) {
    let legal = pos.legal_moves();
    let set: HashSet<Move> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "the generator repeats a move at {pos:?}");
    assert_eq!(pos.count_legal(), legal.len() as u64, "count_legal at {pos:?}");
    for m in &legal {
        assert!(pos.is_legal(m), "generated but judged illegal: {} ({m:?}) at {pos:?}", pos.san(m));
        position_round_trips(&pos.after(m));
    }
    for m in pos.noisy_moves() {
        assert!(set.contains(&m), "a noisy move that is not legal: {m:?} at {pos:?}");
    }
    for candidate in candidates(pos, &legal) {
        assert_eq!(
            pos.is_legal(&candidate),
            set.contains(&candidate),
            "is_legal and legal_moves disagree on {candidate:?} at {pos:?}"
        );
    }
    if pos.variant() == Variant::Grolman {
        chains_agree(pos, &legal);
    }
}

/// Grolman Chess: the turns a lead move starts are exactly the legal turns with that lead.
fn chains_agree(pos: &Position, legal: &[Move]) {
    let leads: HashSet<Move> = legal.iter().map(|m| Move { chain: Chain::EMPTY, ..*m }).collect();
    for lead in leads {
        let mut turns = pos.turns_from_lead(&lead);
        let mut expected: Vec<Move> =
            legal.iter().filter(|m| Move { chain: Chain::EMPTY, ..**m } == lead).copied().collect();
        let key = |m: &Move| format!("{m:?}");
        turns.sort_by_key(key);
        expected.sort_by_key(key);
        assert_eq!(turns, expected, "turns_from_lead({lead:?}) at {pos:?}");
    }
}

/// Moves to put to both: each piece's moves by its movement, castling and en passant written out,
/// and mutations of some legal moves.
fn candidates(pos: &Position, legal: &[Move]) -> Vec<Move> {
    let variant = pos.variant();
    let us = pos.turn();
    let setup = pos.to_setup();
    let mut out = Vec::new();
    for from in pos.board().by_color(us) {
        out.extend(setup.piece_moves(variant, from));
    }
    let royal = variant.royal();
    if let (Some(files), Some(king)) = (variant.castling_files(), pos.royal_square(us)) {
        let rank = pos.geometry().back_rank(us);
        for side in 0..2 {
            let (Some(rook), Some(to)) = (Square::new(files.rook[side], rank), Square::new(files.king_to[side], rank))
            else {
                continue;
            };
            out.push(Move {
                role: royal,
                from: king,
                to,
                capture: None,
                promotion: None,
                kind: MoveKind::Castle { rook },
                chain: Chain::EMPTY,
            });
        }
    }
    if let Some(ep) = pos.ep_square() {
        for from in pos.board().by_role(Role::Pawn) & pos.board().by_color(us) {
            out.push(Move {
                role: Role::Pawn,
                from,
                to: ep,
                capture: Some(Role::Pawn),
                promotion: None,
                kind: MoveKind::EnPassant,
                chain: Chain::EMPTY,
            });
        }
    }
    let stride = legal.len().div_ceil(MUTATED).max(1);
    for m in legal.iter().step_by(stride) {
        out.extend(mutations(variant, m));
    }
    out
}

/// Moves that differ from `m` in one respect.
fn mutations(variant: Variant, m: &Move) -> Vec<Move> {
    let mut out = Vec::new();
    let roles = variant.roles();
    out.extend(std::iter::once(None).chain(roles.iter().copied().map(Some)).map(|p| Move { promotion: p, ..*m }));
    out.extend(std::iter::once(None).chain(roles.iter().copied().map(Some)).map(|c| Move { capture: c, ..*m }));
    out.extend(roles.iter().map(|&role| Move { role, ..*m }));
    out.push(Move { kind: MoveKind::Normal, ..*m });
    out.push(Move { kind: MoveKind::EnPassant, ..*m });
    out.push(Move { kind: MoveKind::Castle { rook: m.to }, ..*m });
    out.push(Move { kind: MoveKind::Hop { over: m.to, taken: Role::Pawn }, ..*m });
    out.push(Move { from: m.to, to: m.from, ..*m });
    let steps = m.chain.steps();
    if !steps.is_empty() {
        let mut shorter = Chain::EMPTY;
        steps[..steps.len() - 1].iter().for_each(|s| shorter.push(*s));
        out.push(Move { chain: shorter, ..*m });
        let mut reversed = Chain::EMPTY;
        steps.iter().rev().for_each(|s| reversed.push(*s));
        out.push(Move { chain: reversed, ..*m });
        let mut promoted = *m;
        promoted.chain = Chain::EMPTY;
        for s in steps {
            promoted.chain.push(rules::Step { promotion: Some(Role::Queen), ..*s });
        }
        out.push(promoted);
    }
    out
}
