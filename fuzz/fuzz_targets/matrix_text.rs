//! The `matrix_text` target: see `checks::matrix_text` for what it feeds and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::matrix_text::check(data));
