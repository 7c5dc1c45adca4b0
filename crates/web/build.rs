//! Embeds the shipped scenarios and comparisons of `experiments/`, each with its
//! `kind`, so the page can open any of them with no file at hand.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("experiments/ beside the workspace")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a readable scenario");
        let kind = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("kind = \"")?.strip_suffix('"').map(str::to_string))
            .expect("every shipped file names its kind");
        let name = path.file_name().expect("a file name").to_string_lossy();
        let full = path.canonicalize().expect("an existing file");
        writeln!(out, "    ({name:?}, {kind:?}, include_str!({:?})),", full.display()).expect("writing to a string");
    }
    out.push(']');
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("shipped.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
