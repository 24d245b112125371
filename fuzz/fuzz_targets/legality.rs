//! The `legality` target: see `checks::legality` for what it feeds and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::legality::check(data));
