//! `testkit::properties::markdown_stream` on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::properties::markdown_stream(data));
