use std::sync::atomic::AtomicBool;

use combat_odds_rules::defaults;

use super::*;

/// The context a test's requests are answered in: the rules' own tables, nothing
/// shipped, nothing kept.
fn answer(endpoint: Endpoint, body: serde_json::Value, limits: Limits) -> Result<String, Refused> {
    let rules = Rules::builtin();
    let context = Context { rules: &rules, limits, shipped: &|_| None, downloads: None };
    let stop = AtomicBool::new(false);
    let job = prepare(endpoint, &body.to_string(), &context, &Run::new(&stop, None))?;
    limits.admit(&job)?;
    job.run(&Run::new(&stop, Some(Duration::from_secs(10))), &|_, _| {})
}

fn duel() -> String {
    defaults::FIRE.1.to_string()
}

#[test]
fn every_endpoint_has_a_path_of_its_own_and_is_found_by_it_and_its_aliases() {
    let mut paths: Vec<&str> =
        Endpoint::ALL.iter().flat_map(|e| std::iter::once(e.path()).chain(e.aliases().iter().copied())).collect();
    let all = paths.len();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), all, "no path is answered twice");
    for e in Endpoint::ALL {
        assert_eq!(Endpoint::at(e.path()), Some(e));
    }
    assert_eq!(Endpoint::at("/api/command-dice"), Some(Endpoint::Answers), "the old name still answers");
    assert_eq!(Endpoint::at("/api/nothing"), None);
}

#[test]
fn too_many_trials_are_refused_before_the_file_is_read_in_the_front_door_s_words() {
    // A file that is not TOML at all: the trials are refused first, nothing set up.
    let body = serde_json::json!({ "scenario": "not = [toml", "trials": 99_999_999_999u64 });
    let server = answer(Endpoint::Fire, body.clone(), Limits::SERVER).unwrap_err();
    assert_eq!(server.kind, Kind::TooMuch);
    assert_eq!(server.message, "trials 99999999999: at most 10000000 per request");
    let tab = answer(Endpoint::Fire, body, Limits::tab(crate::cost::NATIVE)).unwrap_err();
    assert_eq!(tab, server, "a tab refuses them in the same words");
}

#[test]
fn a_comparison_s_runs_count_together_against_the_trials_one_request_may_ask() {
    let limits = Limits { max_trials: 10_000, ..Limits::SERVER };
    let body = serde_json::json!({ "scenario": defaults::COMPARISON.1, "trials": 5000 });
    let refused = answer(Endpoint::Compare, body, limits).unwrap_err();
    // Each run takes 5000, within the limit; the comparison's many runs together do not.
    assert!(refused.message.starts_with("trials 5000: "), "{}", refused.message);
    assert!(refused.message.contains(" runs of them are "), "{}", refused.message);
    assert!(
        refused
            .message
            .contains("and this server takes at most 10000 per request; ask for fewer trials, ranges or weapons"),
        "{}",
        refused.message
    );
}

#[test]
fn an_exact_budget_of_any_size_is_held_to_the_front_door_s_and_a_bad_one_is_named() {
    let limits = Limits::SERVER;
    let huge = Sampling { exact_seconds: Some(1.9e19), ..Sampling::default() };
    assert_eq!(huge.exact_budget(&limits).unwrap(), limits.exact_budget);
    let small = Sampling { exact_seconds: Some(0.25), ..Sampling::default() };
    assert_eq!(small.exact_budget(&limits).unwrap(), Duration::from_millis(250));
    for bad in [-1.0, f64::NAN] {
        let e = Sampling { exact_seconds: Some(bad), ..Sampling::default() }.exact_budget(&limits).unwrap_err();
        assert!(e.message.starts_with(&format!("exact_seconds {bad}: give the most seconds")), "{}", e.message);
    }
}

#[test]
fn a_field_of_the_wrong_type_or_an_unknown_one_is_named_by_its_path() {
    let wrong = answer(Endpoint::Fire, serde_json::json!({ "scenario": duel(), "trials": "many" }), Limits::SERVER);
    let wrong = wrong.unwrap_err();
    assert_eq!(wrong.kind, Kind::Invalid);
    assert!(wrong.message.starts_with("trials: invalid type: string \"many\", expected u64"), "{}", wrong.message);
    let unknown =
        answer(Endpoint::Fire, serde_json::json!({ "scenario": duel(), "path": "/etc/passwd" }), Limits::SERVER);
    assert!(unknown.unwrap_err().message.starts_with("the request: unknown field `path`"));
    let stop = AtomicBool::new(false);
    let context = Context { rules: &Rules::builtin(), limits: Limits::SERVER, shipped: &|_| None, downloads: None };
    let cut = prepare(Endpoint::Fire, "{\"scenario\": ", &context, &Run::new(&stop, None));
    assert!(cut.err().unwrap().message.starts_with("the request: EOF while parsing"));
}

#[test]
fn a_fire_answers_the_very_text_fire_prints_and_its_csv_the_csv() {
    let body = serde_json::json!({ "scenario": duel(), "name": defaults::FIRE.0, "trials": 2000, "seed": 7 });
    let fired = answer(Endpoint::Fire, body.clone(), Limits::SERVER).unwrap();
    let monte_carlo = MonteCarlo { trials: 2000, seed: 7, threads: None, mode: Mode::Compiled };
    let doc = Document::new(defaults::FIRE.0, defaults::FIRE.0, duel());
    let report =
        crate::export::Report::of(combat_odds_rules::Scenario::new(&doc, &Rules::builtin(), monte_carlo).unwrap())
            .unwrap();
    use crate::export::Rendered;
    assert_eq!(fired, report.to_json());
    let csv: String = serde_json::from_str(&answer(Endpoint::FireCsv, body, Limits::SERVER).unwrap()).unwrap();
    assert_eq!(csv, report.csv());
}

#[test]
fn a_refusal_is_one_json_line_with_its_error() {
    let refused = Refused::new(Kind::Invalid, "page.toml:1:1: \"quoted\"");
    assert_eq!(refused.to_json(), r#"{"error":"page.toml:1:1: \"quoted\""}"#);
}

#[test]
fn work_past_a_tab_s_two_minutes_is_refused_with_its_price_and_what_else_to_do() {
    // A million trials of the duel at a pace a thousand times slow is far past 120 s.
    let slow = Pace { clock: combat_odds_core::run::monotonic, slowdown: 1000.0 };
    let limits = Limits { max_cost: Duration::from_millis(1), ..Limits::tab(slow) };
    let e = answer(Endpoint::Fire, serde_json::json!({ "scenario": duel(), "trials": 1_000_000 }), limits).unwrap_err();
    assert_eq!(e.kind, Kind::TooMuch);
    assert!(e.message.starts_with("this is about "), "{}", e.message);
    assert!(
        e.message.contains("and a browser tab takes at most 1.0 ms per request; ask for fewer trials"),
        "{}",
        e.message
    );
}

#[test]
fn work_past_a_limit_is_never_priced_at_the_limit() {
    // 2.4 minutes past a tab's 2 is said as such, not rounded to "about 2 minutes"; 2
    // minutes and a second, which rounds to the limit, as over it.
    assert_eq!(super::price(144.0, 120.0), "about 2.4 minutes");
    assert_eq!(super::price(121.0, 120.0), "over 2 minutes");
    assert_eq!(super::price(7200.0, 3600.0), "about 2.0 hours");
}

#[test]
fn nesting_a_hundred_thousand_deep_is_refused_in_one_line_not_a_stack_overflow() {
    let deep = 100_000;
    // A JSON body where it takes any value (a balance's listed values): the reader
    // stops at its recursion limit.
    let body =
        format!("{{\"scenario\": \"\", \"vary\": \"range\", \"values\": {}{}}}", "[".repeat(deep), "]".repeat(deep));
    let stop = AtomicBool::new(false);
    let context = Context { rules: &Rules::builtin(), limits: Limits::SERVER, shipped: &|_| None, downloads: None };
    let refused = prepare(Endpoint::Balance, &body, &context, &Run::new(&stop, None)).err().expect("refused");
    assert!(refused.message.contains("recursion limit exceeded"), "{}", refused.message);
    // A scenario file of arrays or inline tables nested as deep, on every endpoint that
    // reads one.
    let arrays = format!("a = {}{}", "[".repeat(deep), "]".repeat(deep));
    let tables = format!("a = {}1{}", "{ b = ".repeat(deep), " }".repeat(deep));
    for text in [arrays, tables] {
        for (endpoint, body) in [
            (Endpoint::Fire, serde_json::json!({ "scenario": text })),
            (Endpoint::Form, serde_json::json!({ "scenario": text })),
            (Endpoint::Sweep, serde_json::json!({ "sweep": text })),
            (Endpoint::Balance, serde_json::json!({ "scenario": text, "vary": "a", "values": [1] })),
        ] {
            match answer(endpoint, body, Limits::SERVER) {
                Err(refused) => assert!(!refused.message.contains('\n'), "{endpoint:?}: {}", refused.message),
                // The form answers a file it cannot read with the reason inside.
                Ok(form) => assert!(form.contains("\"error\":"), "{endpoint:?}: {}", &form[..200.min(form.len())]),
            }
        }
    }
}

/// The catalogue editor's answer to `body`, as JSON.
fn catalogue(body: serde_json::Value) -> serde_json::Value {
    serde_json::from_str(&answer(Endpoint::Catalogue, body, Limits::SERVER).unwrap()).unwrap()
}

/// Entry `id` of a catalogue editor's answer.
fn entry<'a>(form: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    form["entries"].as_array().unwrap().iter().find(|e| e["id"] == id).unwrap_or_else(|| panic!("no entry {id}"))
}

/// The text of field `key` of `entry`.
fn field<'a>(entry: &'a serde_json::Value, key: &str) -> &'a str {
    entry["fields"].as_array().unwrap().iter().find(|f| f["key"] == key).unwrap()["text"].as_str().unwrap()
}

#[test]
fn a_changed_value_is_written_in_the_file_and_its_entry_is_no_longer_invented() {
    let set = |value: &str| {
        serde_json::json!({ "ruleset": "command-decision",
        "edit": { "set": { "entry": "weapon.us_75mm_m3", "key": "close.hit", "value": value } } })
    };
    let form = catalogue(set("5"));
    assert!(form["error"].is_null(), "{}", form["error"]);
    assert_eq!(form["yours"], true);
    let gun = entry(&form, "us_75mm_m3");
    assert_eq!(field(gun, "close.hit"), "5");
    assert_eq!(field(gun, "close.range"), "5", "the band's other values stay");
    assert_eq!(gun["label"], "75mm M3 tank gun, AP", "its label no longer says it is illustrative");
    assert_eq!((gun["invented"].as_bool(), gun["own"].as_bool()), (Some(false), Some(true)));
    let other = entry(&form, "us_75mm_m3_he");
    assert_eq!((other["invented"].as_bool(), other["own"].as_bool()), (Some(true), Some(false)));
    let text = form["text"].as_str().unwrap();
    assert!(text.contains("own = [\"weapon.us_75mm_m3\"]"), "{text}");
    // Each field in the rules' words, in the file's order (ROF before the bands).
    assert_eq!(gun["fields"][1]["words"].as_str().unwrap().split(':').next(), Some("Rate of fire (ROF)"));
    // A second change to the same entry names it once.
    let again = catalogue(serde_json::json!({ "ruleset": "command-decision", "text": text,
        "edit": { "set": { "entry": "weapon.us_75mm_m3", "key": "rof", "value": "3" } } }));
    assert_eq!(again["text"].as_str().unwrap().matches("\"weapon.us_75mm_m3\"").count(), 1);
    assert_eq!(field(entry(&again, "us_75mm_m3"), "rof"), "3");
}

#[test]
fn a_value_the_loader_refuses_is_placed_at_its_field_with_the_command_line_s_words() {
    let form = catalogue(serde_json::json!({ "ruleset": "command-decision",
        "edit": { "set": { "entry": "weapon.us_75mm_m3", "key": "close.hit", "value": "25" } } }));
    let error = &form["error"];
    assert_eq!(error["entry"], "weapon.us_75mm_m3");
    assert_eq!(error["key"], "close.hit");
    assert_eq!(
        error["words"],
        "weapon `us_75mm_m3`, close band: hit number 25 is out of range; it must be from -10 to 20"
    );
    assert!(error["message"].as_str().unwrap().starts_with("your catalogue.toml (command-decision):"));
    assert_eq!(field(entry(&form, "us_75mm_m3"), "close.hit"), "25", "the text keeps what was typed");
    // A vehicle's armour is refused at its value too, not at the file.
    let form = catalogue(serde_json::json!({ "ruleset": "command-decision",
        "edit": { "set": { "entry": "vehicle.m4_sherman", "key": "armour.front", "value": "31" } } }));
    assert_eq!(
        (form["error"]["entry"].as_str(), form["error"]["key"].as_str()),
        (Some("vehicle.m4_sherman"), Some("armour.front"))
    );
}

#[test]
fn a_copy_is_added_under_a_new_id_in_tables_and_in_arrays_of_tables() {
    let form = catalogue(
        serde_json::json!({ "ruleset": "command-decision", "edit": { "copy": { "entry": "vehicle.m4_sherman" } } }),
    );
    assert!(form["error"].is_null(), "{}", form["error"]);
    let copy = entry(&form, "m4_sherman_yours");
    assert_eq!(copy["label"], "M4 Sherman, copy");
    assert_eq!((field(copy, "armour.front"), copy["own"].as_bool()), ("5", Some(true)));
    assert_eq!(entry(&form, "m4_sherman")["invented"], true, "the shipped one stays as it was");
    // A second copy takes the next free id.
    let twice = catalogue(serde_json::json!({ "ruleset": "command-decision", "text": form["text"],
        "edit": { "copy": { "entry": "vehicle.m4_sherman" } } }));
    assert_eq!(entry(&twice, "m4_sherman_yours_2")["label"], "M4 Sherman, copy");
    // Mission Command's weapons are an array of tables named by `name`.
    let form =
        catalogue(serde_json::json!({ "ruleset": "mission-command", "edit": { "copy": { "entry": "weapon.lmg" } } }));
    assert!(form["error"].is_null(), "{}", form["error"]);
    assert_eq!(field(entry(&form, "lmg_yours"), "to_hit"), "lmg");
    // Company Commander's ranges are arrays: each end is a field of its own.
    let form = catalogue(serde_json::json!({ "ruleset": "company-commander",
        "edit": { "set": { "entry": "weapon.us_75mm_m3", "key": "direct.range[1]", "value": "16" } } }));
    assert!(form["error"].is_null(), "{}", form["error"]);
    let gun = entry(&form, "us_75mm_m3");
    assert_eq!(field(gun, "direct.range[1]"), "16");
    let words =
        gun["fields"].as_array().unwrap().iter().find(|f| f["key"] == "direct.range[1]").unwrap()["words"].clone();
    assert_eq!(words, "Direct fire: longest range in hexes");
}

#[test]
fn an_entry_or_field_the_catalogue_does_not_have_is_refused_by_name() {
    let refused = answer(
        Endpoint::Catalogue,
        serde_json::json!({ "ruleset": "command-decision", "edit": { "set": { "entry": "weapon.us_75mm_m3", "key": "close.hits", "value": "5" } } }),
        Limits::SERVER,
    )
    .unwrap_err();
    assert!(refused.message.contains("entry `weapon.us_75mm_m3` has no field `close.hits`"), "{}", refused.message);
}

#[test]
fn a_new_id_typed_with_spaces_and_a_copy_of_an_unnamed_entry_are_answered_not_crashed_on() {
    // The id is written trimmed, so the entry is found again by it and marked as the
    // player's.
    let form = catalogue(serde_json::json!({ "ruleset": "mission-command",
        "edit": { "set": { "entry": "weapon.lmg", "key": "name", "value": "  my_lmg " } } }));
    assert!(form["error"].is_null(), "{}", form["error"]);
    assert_eq!(entry(&form, "my_lmg")["own"], true);
    // An entry of an array of tables with no name: copied by its place in the list, and
    // the loader says what is wrong with both.
    let shipped = crate::catalogue::shipped(&Rules::builtin(), "mission-command").unwrap().1;
    let unnamed = shipped.replacen("name = \"lmg\"\n", "", 1);
    let form = catalogue(serde_json::json!({ "ruleset": "mission-command", "text": unnamed,
        "edit": { "copy": { "entry": "weapon." } } }));
    assert!(form["error"]["words"].as_str().is_some_and(|w| !w.is_empty()), "{form}");
}
