//! Every seed of every property, and every input a fuzzer ever found
//! (`fuzz/regressions/<target>/`, kept when a crash was fixed), run through
//! the property of its target: the fuzz targets' checks, in the ordinary
//! suite.

use testkit::properties::ALL;
use testkit::seeds::{root, seeds};

/// Runs `property` on each input; the inputs that break it, by position.
fn broken(property: testkit::properties::Property, inputs: &[Vec<u8>]) -> Vec<usize> {
    (0..inputs.len())
        .filter(|&i| std::panic::catch_unwind(|| property(&inputs[i])).is_err())
        .collect()
}

#[test]
fn every_seed_keeps_its_property() {
    let mut failed = Vec::new();
    for (target, property) in ALL {
        let seeds = seeds(target);
        assert!(seeds.len() >= 10, "{target}: {} seeds", seeds.len());
        let bad = broken(property, &seeds);
        if !bad.is_empty() {
            failed.push(format!("{target}: seeds {bad:?} of {}", seeds.len()));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn every_input_a_fuzzer_found_keeps_its_property() {
    let mut replayed = 0;
    for (target, property) in ALL {
        let dir = root().join("fuzz/regressions").join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("an entry").path();
            let input = std::fs::read(&path).expect("a regression input");
            assert!(broken(property, &[input]).is_empty(), "{}", path.display());
            replayed += 1;
        }
    }
    eprintln!("{replayed} regression inputs replayed");
}
