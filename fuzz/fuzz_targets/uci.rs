//! The `uci` target: see `checks::uci` for what it feeds and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::uci::check(data));
