//! `testkit::properties::fence_lines` on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::properties::fence_lines(data));
