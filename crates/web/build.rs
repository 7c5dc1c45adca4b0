//! Embeds the shipped scenarios and comparisons of `experiments/`, each with its
//! `kind`, so the page can open any of them with no file at hand; and the page's own
//! files (`src/page/`: its scripts, style and icon), each served under `/page/`, so
//! that a new module needs no route of its own.

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
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("shipped.rs"), out).expect("OUT_DIR is writable");
    page_files(Path::new(&out_dir));
}

/// `page.rs`: every file of `src/page/` the page loads (not its markup, served at `/`,
/// nor the `package.json` that tells Node its modules are modules), by name.
fn page_files(out_dir: &Path) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/page");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("src/page/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "js" || x == "css" || x == "svg"))
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for path in files {
        let name = path.file_name().expect("a file name").to_string_lossy();
        let full = path.canonicalize().expect("an existing file");
        writeln!(out, "    ({name:?}, include_str!({:?})),", full.display()).expect("writing to a string");
    }
    out.push(']');
    std::fs::write(out_dir.join("page.rs"), out).expect("OUT_DIR is writable");
}
