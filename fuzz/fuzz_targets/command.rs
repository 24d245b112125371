//! The `command` target: see `checks::command` for what it feeds and what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::command::check(data));
