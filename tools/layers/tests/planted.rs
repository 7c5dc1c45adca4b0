//! The checker on planted violations: the workspace's sources are copied into a scratch
//! folder, one violation is planted, and the check must fail with the expected line; the
//! clean copy must pass. `LAYERS_COMMAND` (a shell command run in the copy, such as
//! `python3 scripts/layers`) checks another checker on the same plants instead.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The workspace this tool checks (two folders up from its own).
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            if entry.file_name() != "target" {
                copy_tree(&entry.path(), &target);
            }
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A scratch copy of what the check reads: the manifests, the lock, every crate's
/// sources, and the files the root manifest names (empty: nothing is compiled). The
/// benches, examples and fuzz targets are not copied: the tests plant their own.
struct Copy(PathBuf);

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

impl Copy {
    fn new() -> Copy {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("layers-planted-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let repo = repository();
        for file in ["Cargo.toml", "Cargo.lock"] {
            fs::create_dir_all(&dir).unwrap();
            fs::copy(repo.join(file), dir.join(file)).unwrap();
        }
        copy_tree(&repo.join("crates"), &dir.join("crates"));
        copy_tree(&repo.join("src"), &dir.join("src"));
        if repo.join("scripts").is_dir() {
            copy_tree(&repo.join("scripts"), &dir.join("scripts"));
        }
        for empty in ["tests/suite/main.rs", "benches/fire.rs"] {
            fs::create_dir_all(dir.join(empty).parent().unwrap()).unwrap();
            fs::write(dir.join(empty), "").unwrap();
        }
        Copy(dir)
    }

    /// Appends `text` to `file` (created if missing); the line it starts on.
    fn append(&self, file: &str, text: &str) -> usize {
        // Planting into a file the workspace no longer has would test nothing: the
        // checker never reads an orphan module (the CLI's `command_dice.rs` became
        // `answers.rs` and its test passed unseen until CI).
        let path = self.0.join(file);
        let mut old = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file} to plant into: {e}"));
        if !old.is_empty() && !old.ends_with('\n') {
            old.push('\n');
        }
        let line = old.lines().count() + 1;
        fs::write(&path, old + text + "\n").unwrap();
        line
    }

    /// A new file, for the cases about files the checker must find by itself.
    fn create(&self, file: &str, text: &str) {
        let path = self.0.join(file);
        assert!(!path.exists(), "{file} exists already: plant into it with `append`");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, format!("{text}\n")).unwrap();
    }

    fn replace(&self, file: &str, from: &str, to: &str) {
        let path = self.0.join(file);
        let old = fs::read_to_string(&path).unwrap();
        assert!(old.contains(from), "{file} has no `{from}`");
        fs::write(&path, old.replacen(from, to, 1)).unwrap();
    }

    /// Runs the check: whether it passed, and what it printed.
    fn check(&self, cargo: bool) -> (bool, String) {
        let out = match std::env::var("LAYERS_COMMAND") {
            Ok(command) => Command::new("sh").args(["-c", &command]).current_dir(&self.0).output(),
            Err(_) => {
                let mut command = Command::new(env!("CARGO_BIN_EXE_layers"));
                if !cargo {
                    command.arg("--no-cargo");
                }
                command.arg(&self.0).output()
            }
        }
        .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    }

    fn fails_with(&self, expected: &str) {
        self.fails_with_cargo(false, expected);
    }

    fn fails_with_cargo(&self, cargo: bool, expected: &str) {
        let (passed, text) = self.check(cargo);
        assert!(!passed, "the check passed, expected `{expected}`:\n{text}");
        let found = text.lines().any(|l| l.trim_start().starts_with(expected));
        assert!(found, "no line starting `{expected}`:\n{text}");
    }
}

#[test]
fn the_clean_workspace_passes_and_prints_its_import_graph() {
    let copy = Copy::new();
    let (passed, text) = copy.check(true);
    assert!(passed, "{text}");
    assert!(text.contains("combat-odds-rules (crates/rules/src), lowest first:"), "{text}");
    assert!(text.contains("  registry           -> crate::builtin, ruleset"), "{text}");
    assert!(text.contains("  benches/fire.rs (the bench)"), "{text}");
    assert!(
        text.contains("combat-odds-web depends on: combat-odds-core, combat-odds-rules, combat-odds-report"),
        "{text}"
    );
}

#[test]
fn an_upward_import_by_a_crate_path_in_an_expression_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/core/src/dice.rs", "fn planted() { let _ = crate::engine::run; }");
    copy.fails_with(&format!("crates/core/src/dice.rs:{line}: dice names engine (crate::engine::run)"));
}

#[test]
fn an_upward_import_through_super_super_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/rules/src/engagement/scenario.rs", "use super::super::registry::Registered;");
    copy.fails_with(&format!("crates/rules/src/engagement/scenario.rs:{line}: engagement names registry"));
}

#[test]
fn an_upward_import_in_an_inline_module_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/core/src/dice.rs", "mod planted {\n    use super::super::engine::Mode;\n}");
    copy.fails_with(&format!("crates/core/src/dice.rs:{}: dice names engine", line + 1));
}

#[test]
fn an_upward_import_in_a_module_found_by_its_path_attribute_fails() {
    let copy = Copy::new();
    copy.append("crates/core/src/dice.rs", "#[path = \"planted/deep.rs\"]\nmod deep;");
    copy.create("crates/core/src/planted/deep.rs", "use crate::exact::Planted;");
    copy.fails_with("crates/core/src/planted/deep.rs:1: dice names exact");
}

#[test]
fn an_upward_import_through_a_root_re_export_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/rules/src/setup.rs", "use crate::Rules;");
    copy.fails_with(&format!("crates/rules/src/setup.rs:{line}: setup names registry (crate::Rules)"));
}

#[test]
fn an_upward_import_by_a_macro_path_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/rules/src/setup.rs", "fn planted() { crate::scenario::planted!(); }");
    copy.fails_with(&format!("crates/rules/src/setup.rs:{line}: setup names scenario"));
}

#[test]
fn an_upward_import_through_dollar_crate_in_a_macro_body_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/core/src/dice.rs", "macro_rules! planted { () => { $crate::engine::run }; }");
    copy.fails_with(&format!("crates/core/src/dice.rs:{line}: dice names engine"));
}

#[test]
fn a_module_naming_an_item_of_the_crate_root_fails() {
    let copy = Copy::new();
    copy.append("crates/core/src/lib.rs", "/// Planted.\npub const PLANTED: u8 = 1;");
    let line = copy.append("crates/core/src/dice.rs", "const P: u8 = crate::PLANTED;");
    copy.fails_with(&format!("crates/core/src/dice.rs:{line}: dice names the crate root's PLANTED"));
}

#[test]
fn a_glob_import_of_the_crate_root_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/core/src/dice.rs", "use super::*;");
    copy.fails_with(&format!("crates/core/src/dice.rs:{line}: dice names the crate root's *"));
}

#[test]
fn a_root_macro_called_by_its_bare_name_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/rules/src/setup.rs", "rulesets! {}");
    copy.fails_with(&format!("crates/rules/src/setup.rs:{line}: setup names the crate root's rulesets!"));
}

#[test]
fn the_registry_list_read_from_elsewhere_than_the_registry_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/rules/src/scenario.rs", "fn planted() { let _ = crate::builtin(); }");
    copy.fails_with(&format!("crates/rules/src/scenario.rs:{line}: scenario names the crate root's builtin"));
}

#[test]
fn a_ruleset_named_by_a_module_of_its_crate_outside_the_registry_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/rules/src/defaults.rs", "use crate::mission_command::MissionCommand;");
    copy.fails_with(&format!("crates/rules/src/defaults.rs:{line}: defaults names ruleset mission_command"));
}

#[test]
fn one_ruleset_naming_another_fails() {
    let copy = Copy::new();
    let line =
        copy.append("crates/rules/src/mission_command/fire.rs", "use super::super::command_decision::CommandDecision;");
    copy.fails_with(&format!(
        "crates/rules/src/mission_command/fire.rs:{line}: ruleset mission_command names ruleset command_decision"
    ));
}

#[test]
fn a_ruleset_named_by_a_full_path_in_another_crate_fails() {
    let copy = Copy::new();
    let line = copy.append(
        "crates/web/src/api.rs",
        "fn planted() { let _ = combat_odds_rules::mission_command::MissionCommand::load; }",
    );
    copy.fails_with(&format!("crates/web/src/api.rs:{line}: api names ruleset mission_command"));
}

#[test]
fn a_ruleset_named_by_a_path_from_the_extern_root_fails() {
    let copy = Copy::new();
    let line =
        copy.append("crates/report/src/bench.rs", "type Planted = ::combat_odds_rules::chain_of_command::Answers;");
    copy.fails_with(&format!("crates/report/src/bench.rs:{line}: bench names ruleset chain_of_command"));
}

#[test]
fn a_ruleset_named_inside_a_macro_call_fails() {
    let copy = Copy::new();
    let line = copy.append(
        "crates/report/src/form.rs",
        "fn planted() { println!(\"{}\", combat_odds_rules::company_commander::PLANTED); }",
    );
    copy.fails_with(&format!("crates/report/src/form.rs:{line}: form names ruleset company_commander"));
}

// The four places that named a ruleset before the Ruleset trait offered its own answers
// and peer resolution (issue 34): each fails again if it names one.

#[test]
fn the_scenario_plan_naming_a_ruleset_for_its_answers_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/rules/src/scenario.rs", "use crate::chain_of_command::Planted;");
    copy.fails_with(&format!("crates/rules/src/scenario.rs:{line}: scenario names ruleset chain_of_command"));
}

#[test]
fn the_answers_printer_naming_a_ruleset_fails() {
    let copy = Copy::new();
    let line = copy.append("src/cli/answers.rs", "use combat_odds_rules::chain_of_command::Planted;");
    copy.fails_with(&format!("src/cli/answers.rs:{line}: cli names ruleset chain_of_command"));
}

#[test]
fn bench_naming_a_ruleset_for_its_peer_resolution_fails() {
    let copy = Copy::new();
    let line = copy.append(
        "src/cli/mod.rs",
        "fn planted() { let _ = combat_odds_rules::command_decision::CommandDecision::peer_resolution; }",
    );
    copy.fails_with(&format!("src/cli/mod.rs:{line}: cli names ruleset command_decision"));
}

#[test]
fn the_request_layer_naming_a_ruleset_for_its_answers_fails() {
    let copy = Copy::new();
    let line =
        copy.append("crates/report/src/request/endpoints.rs", "use combat_odds_rules::chain_of_command::Planted;");
    copy.fails_with(&format!("crates/report/src/request/endpoints.rs:{line}: request names ruleset chain_of_command"));
}

// A crate root is checked for ruleset names like any module (issue 42): the root is
// above every module, but not above the registry.

#[test]
fn a_ruleset_named_in_the_web_crate_root_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/web/src/lib.rs", "use combat_odds_rules::chain_of_command::Planted;");
    copy.fails_with(&format!("crates/web/src/lib.rs:{line}: the crate root names ruleset chain_of_command"));
}

#[test]
fn a_ruleset_named_in_the_binary_root_fails() {
    let copy = Copy::new();
    let line = copy.append("src/main.rs", "use combat_odds_rules::mission_command::{self as planted};");
    copy.fails_with(&format!("src/main.rs:{line}: the crate root names ruleset mission_command"));
}

#[test]
fn a_ruleset_named_in_the_rules_crate_root_past_its_registry_line_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/rules/src/lib.rs", "pub use chain_of_command::ChainOfCommand;");
    copy.fails_with(&format!("crates/rules/src/lib.rs:{line}: the crate root names ruleset chain_of_command"));
}

#[test]
fn a_ruleset_named_in_the_wasm_crate_root_fails() {
    let copy = Copy::new();
    let line = copy.append(
        "crates/wasm/src/lib.rs",
        "fn planted() { let _ = combat_odds_rules::company_commander::CompanyCommander::load; }",
    );
    copy.fails_with(&format!("crates/wasm/src/lib.rs:{line}: the crate root names ruleset company_commander"));
}

// The programs beside the crates (benches/, examples/, fuzz/) are read too, each file
// a root of its own, for ruleset names only (issue 42).

#[test]
fn a_ruleset_named_in_an_example_fails() {
    let copy = Copy::new();
    copy.create(
        "examples/planted.rs",
        "use combat_odds_rules::{Rules, chain_of_command::ChainOfCommand};\nfn main() {}",
    );
    copy.fails_with("examples/planted.rs:1: the example names ruleset chain_of_command");
}

#[test]
fn a_ruleset_named_in_a_bench_fails() {
    let copy = Copy::new();
    let line = copy.append(
        "benches/fire.rs",
        "fn planted() { let _ = combat_odds_rules::command_decision::CommandDecision::peer_resolution; }",
    );
    copy.fails_with(&format!("benches/fire.rs:{line}: the bench names ruleset command_decision"));
}

#[test]
fn a_ruleset_named_in_a_fuzz_target_fails() {
    let copy = Copy::new();
    copy.create(
        "fuzz/fuzz_targets/planted.rs",
        "fuzz_target!(|data: &[u8]| { let _ = combat_odds_rules::mission_command::MissionCommand::load; });",
    );
    copy.fails_with("fuzz/fuzz_targets/planted.rs:1: the fuzz target names ruleset mission_command");
}

#[test]
fn a_ruleset_named_in_a_module_of_a_bench_through_its_root_fails() {
    let copy = Copy::new();
    copy.append("benches/fire.rs", "use combat_odds_rules as planted_rules;\nmod planted;");
    copy.create("benches/planted.rs", "use super::planted_rules::chain_of_command::Planted;");
    copy.fails_with("benches/planted.rs:1: the bench names ruleset chain_of_command");
}

#[test]
fn a_ruleset_named_in_a_fuzz_target_of_a_nested_fuzz_workspace_fails() {
    // fuzz/scenario is a fuzz workspace of its own, one folder down: its targets are
    // roots too.
    let copy = Copy::new();
    copy.create(
        "fuzz/scenario/fuzz_targets/planted.rs",
        "fuzz_target!(|data: &[u8]| { let _ = combat_odds_rules::company_commander::CompanyCommander::load; });",
    );
    copy.fails_with("fuzz/scenario/fuzz_targets/planted.rs:1: the fuzz target names ruleset company_commander");
}

#[test]
fn a_ruleset_named_in_a_module_of_an_example_in_a_folder_fails() {
    // An example may be a folder (examples/NAME/main.rs) with modules beside its root.
    let copy = Copy::new();
    copy.create("examples/planted/main.rs", "mod helper;\nfn main() {}");
    copy.create("examples/planted/helper.rs", "pub type Planted = combat_odds_rules::mission_command::MissionCommand;");
    copy.fails_with("examples/planted/helper.rs:1: the example names ruleset mission_command");
}

#[test]
fn a_target_folder_of_the_fuzz_targets_is_not_read() {
    let copy = Copy::new();
    copy.create("fuzz/target/planted.rs", "use combat_odds_rules::chain_of_command::Planted; not rust");
    copy.create("fuzz/fuzz_targets/planted.rs", "use combat_odds_rules::Rules;");
    let (passed, text) = copy.check(false);
    assert!(passed, "{text}");
    assert!(text.contains("  fuzz/fuzz_targets/planted.rs (the fuzz target)"), "{text}");
}

#[test]
fn a_cycle_between_modules_of_one_folder_by_crate_paths_fails() {
    let copy = Copy::new();
    copy.append("crates/rules/src/engagement/markov.rs", "use crate::engagement::target::Planted;");
    copy.append("crates/rules/src/engagement/target.rs", "use crate::engagement::markov::Planted;");
    copy.fails_with("crates/rules/src/engagement: modules markov, target import each other");
}

#[test]
fn a_cycle_between_the_phases_of_a_ruleset_s_turn_fails() {
    // Command Decision's turn is a folder of phase modules (engagement/): they import
    // one way, the Artillery Phase's batteries reading fire's compiled shot, never back.
    let copy = Copy::new();
    copy.append("crates/rules/src/command_decision/engagement/fire.rs", "use super::batteries::Planted;");
    copy.fails_with("crates/rules/src/command_decision/engagement: modules batteries, fire import each other");
}

#[test]
fn a_flag_name_outside_the_binary_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/core/src/dice.rs", "const PLANTED: &str = \"use --trials\";");
    copy.fails_with(&format!("crates/core/src/dice.rs:{line}: flag name `--trials` outside the binary"));
}

#[test]
fn an_exit_code_outside_the_binary_fails() {
    let copy = Copy::new();
    let line = copy.append("crates/report/src/bench.rs", "fn planted() { std::process::exit(2) }");
    copy.fails_with(&format!("crates/report/src/bench.rs:{line}: exit code outside the binary"));
}

#[test]
fn a_heavy_dependency_of_the_engine_fails() {
    let copy = Copy::new();
    copy.replace("crates/core/Cargo.toml", "[dependencies]\n", "[dependencies]\nclap.workspace = true\n");
    copy.fails_with_cargo(true, "crates/core/Cargo.toml: combat-odds-core pulls in clap");
}
