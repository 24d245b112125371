//! The `notation` target: see `checks::notation` for what it feeds and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::notation::check(data));
