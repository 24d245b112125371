//! Any bytes as a line of coordinate moves, played from each variant's start position while they
//! are legal: reading a move returns an error or a legal move, and playing it never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in Variant::ALL {
        let Ok(mut pos) = Position::from_fen(variant, variant.start_fen()) else { continue };
        for word in text.split_whitespace() {
            let Ok(m) = pos.parse_coord(word) else { break };
            assert!(pos.is_legal(&m), "{variant}: parse_coord returned an illegal move {word}");
            pos.play_unchecked(&m);
        }
        let _ = pos.outcome();
    }
});
