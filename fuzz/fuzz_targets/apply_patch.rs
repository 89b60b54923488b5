//! `testkit::properties::apply_patch` on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::properties::apply_patch(data));
