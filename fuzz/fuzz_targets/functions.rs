//! `testkit::properties::functions` on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::properties::functions(data));
