//! Any bytes as a FEN, in every variant: an error or a position, never a panic; a position that
//! reads writes a FEN that reads back the same, and its moves are counted consistently.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::{Position, Setup, Variant};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in Variant::ALL {
        let _ = Setup::from_fen(variant, &text);
        if let Ok(pos) = Position::from_fen(variant, &text) {
            let fen = pos.fen();
            let back = Position::from_fen(variant, &fen).expect("a position's own FEN reads back");
            assert_eq!(back, pos);
            assert_eq!(pos.count_legal(), pos.legal_moves().len() as u64);
            let _ = pos.outcome();
        }
    }
});
