//! `seeds TARGET DIR`: writes the seeds of the property TARGET into DIR, one
//! file each, named by their position (what `scripts/fuzz` hands libFuzzer).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [target, dir] = args.as_slice() else {
        eprintln!("usage: seeds TARGET DIR");
        std::process::exit(2);
    };
    std::fs::create_dir_all(dir).expect("the seed folder can be made");
    for (i, seed) in testkit::seeds::seeds(target).iter().enumerate() {
        std::fs::write(format!("{dir}/seed-{i:04}"), seed).expect("a seed is written");
    }
}
