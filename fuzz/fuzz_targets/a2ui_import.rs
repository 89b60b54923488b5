//! `testkit::properties::a2ui_import` on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::properties::a2ui_import(data));
