//! A user following only the README gets the worked example's numbers.

use std::process::Command;

#[test]
fn readme_worked_example_matches_the_binary_output() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("<!-- worked-example-output -->\n```text\n").expect("README has the worked example block");
    let body = &readme[start..];
    let body = &body[body.find("```text\n").unwrap() + "```text\n".len()..];
    let shown = &body[..body.find("```\n<!-- end-worked-example-output -->").expect("block ends")];
    // The README's main command: `combat-odds fire` with no arguments.
    let out = Command::new(env!("CARGO_BIN_EXE_combat-odds")).arg("fire").output().unwrap();
    assert!(out.status.success());
    let actual = String::from_utf8(out.stdout).unwrap();
    assert_eq!(shown, actual, "README worked example is stale: paste the output of `cargo run --release -- fire`");
}
