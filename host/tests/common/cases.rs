//! A short game of each variant, found by the engine: to a decisive end, to a repetition, and an
//! ordinary first move for each side. Played by alice (White) and bob.

/// A variant with short games the engine found for it.
pub struct Case {
    pub variant: &'static str,
    /// A game to a decisive end, White first.
    pub decisive: &'static [&'static str],
    /// What the end says.
    pub verdict: &'static str,
    /// Moves before a four-ply cycle that brings a position back.
    pub prefix: &'static [&'static str],
    pub cycle: [&'static str; 4],
    /// An ordinary first move for each side.
    pub opening: [&'static str; 2],
}

pub const CASES: [Case; 6] = [
    Case {
        variant: "chess",
        decisive: &["f3", "e5", "g4", "Qh4#"],
        verdict: "Black wins by checkmate (bob beats alice), 0-1",
        prefix: &[],
        cycle: ["Na3", "Na6", "Nb1", "Nb8"],
        opening: ["e4", "e5"],
    },
    Case {
        variant: "golem",
        decisive: &["e3", "f5", "Be2", "g5", "Bh5#"],
        verdict: "White wins by checkmate (alice beats bob), 1-0",
        prefix: &[],
        cycle: ["b1a3", "b8a6", "a3b1", "a6b8"],
        opening: ["e2e4", "e7e5"],
    },
    Case {
        variant: "grolman",
        // White's last turn leaves its own king attacked by the queen on c7 (asked to confirm).
        decisive: &["f2f3 (e1f2 d1e1)", "c7c5 (d8c7 e8d8)", "f2g3 (e1f2) confirm:yes"],
        verdict: "Black wins as the loser's turn left their own king attacked (bob beats alice), 0-1",
        prefix: &["a2a3", "a7a5"],
        cycle: ["a2a1", "a7a8", "a1a2", "a8a7"],
        opening: ["a2a3", "a7a6"],
    },
    Case {
        variant: "ghost-king",
        // The Ghost King teleports where a pawn takes it.
        decisive: &["Ke6", "dxe6"],
        verdict: "Black wins by capturing the Ghost King (bob beats alice), 0-1",
        prefix: &[],
        cycle: ["b1a3", "b8a6", "a3b1", "a6b8"],
        opening: ["e2e4", "e7e5"],
    },
    Case {
        variant: "werewolf",
        decisive: &["f2f3", "d8d6", "h2h3", "d6g3"],
        verdict: "Black wins by checkmate (bob beats alice), 0-1",
        prefix: &[],
        cycle: ["b1a3", "b8a6", "a3b1", "a6b8"],
        opening: ["e2e4", "e7e5"],
    },
    Case {
        variant: "unicorn-great",
        decisive: &["f2g3", "e10b4", "e1f2", "b4d2"],
        verdict: "Black wins by checkmate (bob beats alice), 0-1",
        prefix: &[],
        cycle: ["a1b3", "e9e6", "b3a1", "e6e9"],
        opening: ["a2a3", "a9a8"],
    },
];
