//! `testkit::properties::a2ui` on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::properties::a2ui(data));
