//! The `host` target: see `checks::host` for what it feeds and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::host::check(data));
