//! The layers of the workspace, checked on the real module tree (run as `scripts/layers`).
//!
//! Each crate is read from its `lib.rs` or `main.rs`, following `mod` declarations
//! (inline `mod x { }`, `#[path]`, and the modules the rules crate's `rulesets!` line
//! declares), and every path in it (use trees, expression, type and pattern paths, macro
//! paths, and the paths inside macro bodies and calls, `$crate` included) is resolved,
//! through re-exports and glob imports, to the modules it reaches. So is every Rust file
//! under `benches/`, `examples/` and `fuzz/` (not in a `target/` folder), each a root of
//! its own (see "Benches, examples and fuzz targets" below). It prints, for each crate,
//! its top-level modules in their declared order (lowest first, as the crate root lists
//! them) with the modules each one names, then the benches, examples and fuzz targets
//! read, and fails (exit 1), one line per violation (file:line: what: why), on:
//!   - an upward import: a module naming one declared after it in its crate;
//!   - a module naming an item defined in its crate root (see "The crate root" below);
//!   - a cycle between modules of one folder (top-level or inside a module's folder);
//!   - one ruleset naming another (the rulesets are peers), or anything outside the
//!     registry naming a ruleset's module: any module or crate root, in any crate, and
//!     any bench, example or fuzz target (see "Rulesets" below);
//!   - a crate depending on a crate above it, core or rules depending on polars,
//!     plotters, clap or tokio, or report or web depending on clap (from `cargo tree`);
//!   - a flag name (`--word` in a string) or an exit code in a crate other than the
//!     binary (src/); the benches, examples and fuzz targets are programs of their own
//!     and may take flags and exit with codes.
//!
//! # The crate root
//! The crate root declares the modules, so it is above all of them: a module that names
//! an item defined in the root (not one re-exported there, which resolves to its module)
//! imports upward, and the fix is to move the item into a module of its own, declared
//! below its users. One root item is allowed, deliberately: the rules crate's `builtin`,
//! the list of shipped rulesets which the `rulesets!` line generates beside the `mod`
//! declarations it writes, and which only the `registry` module reads. It has to be generated where the modules are declared
//! for "one folder and one registry line" to hold, and it is the registry's own list.
//!
//! # Rulesets
//! The registry is the `rulesets!` line in `crates/rules/src/lib.rs`: the only place
//! that names a ruleset's module. Everything else asks the registry through the
//! `Ruleset` trait, with no exception: a ruleset's own answers and views are offered
//! through the trait (issue 34).
//!
//! The crate roots are held to it too (issue 42): a root is above its modules, so it is
//! not checked for upward imports or for naming its own items, but it is not the registry,
//! and a `use combat_odds_rules::chain_of_command::...` in `crates/web/src/lib.rs` or
//! `src/main.rs` leaks a ruleset as surely as one in a module. The rules crate's root is
//! held to it outside the registry line itself (which the walker leaves unread).
//!
//! # Benches, examples and fuzz targets
//! They are compiled against the crates like any user of them, and a bench that names a
//! ruleset's module to reach what the trait does not offer leaks it past the registry
//! as much as the binary would (issue 42). Each Rust file under `benches/`, `examples/`
//! and `fuzz/` is read as a root of its own, following its `mod` declarations (a file
//! that a root declares as a module is read there, not as a root), and `target/` folders
//! (build output) are left out. Only the ruleset rule applies to them: they are apart
//! from the layers (no crate here imports them, so none is above or below them), and,
//! being programs, they may take flags and exit with codes.
//!
//! Usage: `layers [--no-cargo] [ROOT]` (ROOT: the workspace, the current directory
//! unless told; `--no-cargo` skips the `cargo tree` checks).
//!
//! Its modules: [`tree`] reads the crates and programs, [`walker`] collects the paths
//! written in them, [`resolve`] resolves each to what it reaches, and [`check`] holds the
//! rules above.

mod check;
mod resolve;
mod tree;
mod walker;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

use check::Check;
use tree::Workspace;

/// The crates, lowest first: package name, source folder and root file.
const CRATES: &[(&str, &str, &str)] = &[
    ("combat-odds-core", "crates/core/src", "lib.rs"),
    ("combat-odds-rules", "crates/rules/src", "lib.rs"),
    ("combat-odds-report", "crates/report/src", "lib.rs"),
    // The engine in the browser: over report, beside the server (neither imports the other).
    ("combat-odds-wasm", "crates/wasm/src", "lib.rs"),
    ("combat-odds-web", "crates/web/src", "lib.rs"),
    ("combat-odds", "src", "main.rs"),
];
/// The programs beside the crates, each of their Rust files read as a root of its own
/// (folder, what a root there is called): see "Benches, examples and fuzz targets" above.
const PROGRAMS: &[(&str, &str)] = &[("benches", "the bench"), ("examples", "the example"), ("fuzz", "the fuzz target")];
/// The crate holding the rulesets and the macro whose line registers them.
const RULES: &str = "combat-odds-rules";
const REGISTRY_MACRO: &str = "rulesets";
/// What the engine, the rules and the browser's engine must build without.
const HEAVY: &[&str] = &["polars", "plotters", "clap", "tokio"];

/// Root items a module may name: (crate, item, the module that may name it). Why: see
/// "The crate root" above.
const ROOT_ITEMS_ALLOWED: &[(&str, &str, &str)] = &[(RULES, "builtin", "registry")];

fn main() -> ExitCode {
    let mut cargo = true;
    let mut root = std::env::current_dir().expect("the current directory");
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--no-cargo" => cargo = false,
            _ => root = PathBuf::from(arg),
        }
    }
    let mut check = Check { root, failures: Vec::new(), seen: BTreeSet::new() };
    let workspace = match Workspace::load(&check.root) {
        Ok(w) => w,
        Err(e) => {
            println!("the layers could not be read: {e}");
            return ExitCode::FAILURE;
        }
    };
    check.modules(&workspace);
    if cargo {
        check.dependencies();
    }
    if check.failures.is_empty() {
        println!(
            "\nno cycle, no upward import, no ruleset named past the registry, no flag name or exit code outside the binary"
        );
        ExitCode::SUCCESS
    } else {
        println!("\nthe layers are broken:");
        for f in &check.failures {
            println!("  {f}");
        }
        ExitCode::FAILURE
    }
}
