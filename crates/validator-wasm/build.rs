//! Minifies the JSON documents the crate embeds (the built-in catalog and the
//! surface schema, kept readable in the repository) into `OUT_DIR`: white
//! space is a third of their bytes in the WebAssembly module. Key order is
//! kept (`preserve_order`): the catalog's order is its components' order.

use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for (from, name) in [
        ("catalog/blog@1.json", "blog@1.json"),
        ("../../npm/schema/surface.json", "surface.json"),
    ] {
        println!("cargo:rerun-if-changed={from}");
        let text = std::fs::read_to_string(from).unwrap_or_else(|e| panic!("{from}: {e}"));
        let value: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{from} is not JSON: {e}"));
        std::fs::write(Path::new(&out).join(name), value.to_string())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
