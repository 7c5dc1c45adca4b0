//! The page's endpoints, called in process as the server's router sees them: the
//! numbers the CLI gives, the one-line messages of its validation, and the limits.

use crate::common::own_catalogue::own_catalogue;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::time::Duration;
use tower::ServiceExt;

use combat_odds_web::{Config, Limits, router};

use crate::common::cli::{replace_once, run as cli, stdout_of};

const DUEL: &str = include_str!("../../experiments/cd_tank_duel.toml");
const DUEL_ENGAGEMENT: &str = include_str!("../../experiments/cd_engagement_tank_duel.toml");
const FARMHOUSE: &str = include_str!("../../experiments/cd_engagement_company_at_the_farmhouse.toml");
const SHERMANS: &str = include_str!("../../experiments/cd_engagement_shermans_vs_panther.toml");

/// A fight whose exact stage is long work by its solver's own bound: five Shermans at
/// a Panther for 30 turns (up to 5,600 fields, each weighed every turn).
fn long_fight() -> String {
    replace_once(&replace_once(SHERMANS, "count = 3", "count = 5"), "turns = 8", "turns = 30")
}

/// The status and JSON body of one request to a fresh router.
pub(crate) async fn call(config: Config, request: Request<Body>) -> (StatusCode, Value) {
    answer(&router(config), request).await
}

/// The status and JSON body of one request to `app`; for long work answered as
/// server-sent events, the data of its last event (its result), after only progress.
async fn answer(app: &axum::Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = app.clone().oneshot(request).await.expect("the router answers");
    let status = response.status();
    let streamed = response.headers().get("content-type").is_some_and(|t| t == "text/event-stream");
    let bytes = to_bytes(response.into_body(), 1 << 26).await.expect("a whole body");
    if !streamed {
        return (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null));
    }
    let events = events(std::str::from_utf8(&bytes).expect("UTF-8 events"));
    let (last, data) = events.last().cloned().expect("an event");
    assert!(events[..events.len() - 1].iter().all(|(name, _)| name == "progress"), "progress until the end");
    assert_eq!(last, "result", "{data}");
    (status, data)
}

pub(crate) fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).expect("a request")
}

fn fire(body: Value) -> Request<Body> {
    Request::post("/api/fire").header("content-type", "application/json").body(Body::from(body.to_string())).unwrap()
}

fn study(body: Value) -> Request<Body> {
    Request::post("/api/run").header("content-type", "application/json").body(Body::from(body.to_string())).unwrap()
}

/// A run's server-sent events, as (event, data) pairs, read to the stream's end.
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let field = |name: &str| {
                block.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_default().to_string()
            };
            (field("event:"), serde_json::from_str(&field("data:")).expect("JSON data"))
        })
        .collect()
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime")
}

/// The body of `path` as text, with its content type.
async fn text_of(app: &axum::Router, path: &str) -> (String, String) {
    let response = app.clone().oneshot(get(path)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    let kind = response.headers()["content-type"].to_str().unwrap().to_string();
    let text = String::from_utf8(to_bytes(response.into_body(), 1 << 24).await.unwrap().to_vec()).unwrap();
    (kind, text)
}

#[test]
fn the_page_is_served_whole_from_the_binary_with_no_inline_script_or_style() {
    runtime().block_on(async {
        let app = router(Config::default());
        let (kind, html) = text_of(&app, "/").await;
        assert!(kind.starts_with("text/html") && html.starts_with("<!doctype html>"), "{}", &html[..40]);
        // The policy allows scripts and styles from this server only: the page's own are
        // files, and it sets no style attribute (the script sets styles through CSSOM).
        assert!(html.contains(r#"<script type="module" src="/page/main.js"></script>"#));
        assert!(html.contains(r#"href="/page/page.css""#));
        for inline in ["<script>", "<style", " style=", " onclick=", " onchange="] {
            assert!(!html.contains(inline), "no inline script or style: `{inline}`");
        }
        // The modules, each served with a script's type (a browser runs no module
        // served otherwise), import only one another.
        let mut scripts = String::new();
        for module in ["main.js", "fire.js", "run.js", "compare.js", "balance.js", "tables.js", "url.js", "format.js"] {
            let (kind, script) = text_of(&app, &format!("/page/{module}")).await;
            assert!(kind.starts_with("text/javascript"), "{module}: {kind}");
            for import in script.lines().filter(|l| l.starts_with("import ")) {
                assert!(import.contains(r#" from "./"#), "{module} imports only the page's own modules: {import}");
            }
            scripts.push_str(&script);
        }
        assert!(scripts.contains("/api/fire") && scripts.contains("/api/tables/"), "the page calls the endpoints");
        assert!(!scripts.contains("style:") && !scripts.contains("\"style\""), "no style attribute is set");
        let (kind, style) = text_of(&app, "/page/page.css").await;
        assert!(kind.starts_with("text/css") && style.contains("body {"), "{kind}");
        for text in [&html, &scripts, &style] {
            for elsewhere in ["src=\"http", "href=\"http", "fetch(\"http", "import(", "url(http"] {
                assert!(!text.contains(elsewhere), "nothing is fetched from elsewhere: `{elsewhere}`");
            }
        }
        let response = app.clone().oneshot(get("/page/secret.rs")).await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "only the page's files are served");
    });
}

#[test]
fn a_fire_answers_what_the_cli_prints_for_the_same_seed() {
    let cli: Value = serde_json::from_str(&stdout_of(&["fire", "--trials", "50000", "--format", "json"])).unwrap();
    let (status, page) =
        runtime().block_on(call(Config::default(), fire(json!({ "scenario": DUEL, "trials": 50000 }))));
    assert_eq!(status, StatusCode::OK, "{page}");
    // The same scenario, tables, seed (2026) and mode: the same report, counts and all.
    assert_eq!(page["p_kill"], cli["p_kill"]);
    assert_eq!(page["measures"], cli["measures"]);
    assert_eq!(page["notes"], cli["notes"]);
    assert_eq!(page["p_kill"]["exact"], json!(0.6636));
}

#[test]
fn bad_input_comes_back_as_the_cli_s_one_line_message() {
    let rt = runtime();
    let typo = DUEL.replacen("range", "rnage", 1);
    let (status, body) = rt.block_on(call(Config::default(), fire(json!({ "scenario": typo }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let message = body["error"].as_str().expect("an error line");
    assert!(message.starts_with("page.toml:") && message.contains("unknown scenario key `rnage`"), "{message}");
    assert!(!message.contains('\n'), "one line: {message}");

    let (status, body) = rt.block_on(call(Config::default(), fire(json!({ "scenario": DUEL, "trials": 0 }))));
    assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("trials must be at least 1")));

    let (status, body) = rt.block_on(call(Config::default(), fire(json!({ "scenario": DUEL, "mode": "fast" }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "mode `fast`: give `compiled` or `literal`");

    let (status, body) = rt.block_on(call(Config::default(), fire(json!({ "scenario": DUEL, "path": "/etc/passwd" }))));
    assert_eq!(status, StatusCode::BAD_REQUEST, "no field but the listed ones, and no path, is taken");
    assert!(body["error"].as_str().unwrap().starts_with("the request: unknown field `path`"), "{body}");
}

#[test]
fn the_server_s_limits_are_said_not_exceeded() {
    let limits = Limits { max_trials: 1000, max_runs: 1, ..Limits::default() };
    let config = Config { limits, ..Config::default() };
    let (status, body) = runtime().block_on(call(config, fire(json!({ "scenario": DUEL, "trials": 1001 }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "trials 1001: at most 1000 per request");
}

#[test]
fn long_work_is_told_by_its_cost_not_its_trials_whatever_the_endpoint() {
    let rt = runtime();
    // No long work may start: a request for some is refused at once, with the reason.
    let config =
        || Config { limits: Limits { max_trials: 10_000_000, max_runs: 0, ..Limits::default() }, ..Config::default() };
    // A long fight's exact stage is priced long by its solver: long work, however few
    // trials (40 turns of five Shermans: a solve priced at 2.2 s).
    let fight = replace_once(&long_fight(), "turns = 30", "turns = 40");
    for request in [
        fire(json!({ "scenario": fight, "trials": 1000 })),
        post("/api/exact", json!({ "scenario": fight })),
        post("/api/percent", json!({ "scenario": fight, "trials": 1000 })),
        post("/api/balance", json!({ "scenario": fight, "vary": "engagement.range", "values": [2, 4] })),
    ] {
        let (status, body) = rt.block_on(call(config(), request));
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert!(body["error"].as_str().unwrap().starts_with("busy: 0 long runs are under way"), "{body}");
    }
    // Two million trials of a single fire take a tenth of a second: no slot.
    let (status, body) = rt.block_on(call(config(), fire(json!({ "scenario": DUEL, "trials": 2_000_000 }))));
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[test]
fn work_past_the_cost_one_request_may_ask_is_refused_with_what_to_reduce() {
    let rt = runtime();
    // A balance of 1,500 values of a long fight, one trial each: 1,500 solves priced at
    // 1.67 s each by the solver's bound, and their compilations at half that, are
    // 1,500 x 2.5 s = 62.5 minutes of one core, whatever its trials.
    let values: Vec<u64> = (1..=1500).collect();
    let balance = json!({ "scenario": long_fight(), "vary": "engagement.range", "values": values, "trials": 1 });
    let (status, body) = rt.block_on(call(Config::default(), post("/api/balance", balance)));
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.starts_with("this is about 63 minutes of work for one core (1500 values of 1 trials at "), "{error}");
    assert!(
        error.ends_with(
            "and 3000 exact stage(s) of about 63 minutes in all, each at most 10 seconds), and this server takes at most 60 minutes per request; ask for fewer values or trials, a coarser tolerance, or a smaller exact_seconds"
        ),
        "{error}"
    );

    // A sensitivity search of a fight the exact engine does not reach, every change at
    // ten million trials: its trials in all, not each change's, count against it.
    let search = post("/api/sensitivity", json!({ "scenario": FARMHOUSE, "trials": 10_000_000 }));
    let (status, body) = rt.block_on(call(Config::default(), search));
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.starts_with("trials 10000000: ") && error.contains(" changes of them are "), "{error}");
}

#[test]
fn a_shipped_sweep_s_exact_stages_are_priced_by_each_point_s_solver_not_the_whole_budget() {
    let rt = runtime();
    let sweep = |name: &str| std::fs::read_to_string(format!("experiments/{name}")).unwrap();
    // Chain of Command's fights stand aside from the solver before it starts: twelve
    // points of a thousand trials are short work, answered with every long-run slot
    // taken (each point's two stages were priced at their whole 10 s: long work).
    let config = Config { limits: Limits { max_runs: 0, ..Limits::default() }, ..Config::default() };
    let request = post("/api/sweep", json!({ "sweep": sweep("sweep_coc_force_morale_vs_dice.toml"), "trials": 1000 }));
    let (status, body) = rt.block_on(call(config, request));
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["points"].as_array().unwrap().len(), 12, "{body}");
    // Command Decision's 40 points, two to five Shermans, each priced by its own bound
    // on its states (about 22 s in all): admitted by a server that takes five minutes
    // of work a request (at 40 x 2 stages of 10 s, 13 minutes, it was refused).
    let limits = Limits { max_cost: Duration::from_secs(300), ..Limits::default() };
    let request = post("/api/sweep", json!({ "sweep": sweep("sweep_cd_shermans_vs_panther.toml"), "trials": 1000 }));
    let (status, body) = rt.block_on(call(Config { limits, ..Config::default() }, request));
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["points"].as_array().unwrap().len(), 40, "{body}");
}

#[test]
fn every_ruleset_s_tables_come_with_their_sources_and_a_typo_is_named() {
    let rt = runtime();
    let (status, names) = rt.block_on(call(Config::default(), get("/api/rulesets")));
    assert_eq!(status, StatusCode::OK);
    let names: Vec<String> = serde_json::from_value(names).unwrap();
    assert_eq!(names, ["command-decision", "mission-command", "company-commander", "chain-of-command"]);
    for name in &names {
        let (status, body) = rt.block_on(call(Config::default(), get(&format!("/api/tables/{name}"))));
        assert_eq!(status, StatusCode::OK, "{name}");
        let cli: Value = serde_json::from_str(&stdout_of(&["tables", name, "--format", "json"])).unwrap();
        assert_eq!(body, cli, "{name}: the page lists what `tables --format json` prints");
    }
    let (status, body) = rt.block_on(call(Config::default(), get("/api/tables/command-decisoin")));
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("did you mean `command-decision`?"), "{body}");
}

#[test]
fn every_shipped_scenario_is_offered_and_answers() {
    let rt = runtime();
    let (status, shipped) = rt.block_on(call(Config::default(), get("/api/scenarios")));
    assert_eq!(status, StatusCode::OK);
    let shipped = shipped.as_array().expect("a list");
    let on_disk = std::fs::read_dir("experiments")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "toml"))
        .count();
    assert_eq!(shipped.len(), on_disk, "every file of experiments/");
    for s in shipped {
        // A comparison is answered by compare, a sweep by sweep, any other scenario by fire.
        let (endpoint, body) = match s["kind"].as_str().unwrap() {
            "compare" => ("/api/compare", json!({ "scenario": s["text"], "name": s["name"], "trials": 200 })),
            "sweep" => ("/api/sweep", json!({ "sweep": s["text"], "trials": 200 })),
            _ => ("/api/fire", json!({ "scenario": s["text"], "name": s["name"], "trials": 2000 })),
        };
        let request = Request::post(endpoint).header("content-type", "application/json");
        let (status, body) = rt.block_on(call(Config::default(), request.body(Body::from(body.to_string())).unwrap()));
        assert_eq!(status, StatusCode::OK, "{}: {body}", s["name"]);
    }
}

fn comparison(body: Value) -> Request<Body> {
    Request::post("/api/compare").header("content-type", "application/json").body(Body::from(body.to_string())).unwrap()
}

#[test]
fn a_comparison_answers_what_compare_writes_for_the_same_seed() {
    let file = "experiments/compare_at_gun_vs_medium_tank.toml";
    let text = std::fs::read_to_string(file).unwrap();
    let (status, page) =
        runtime().block_on(call(Config::default(), comparison(json!({ "scenario": text, "trials": 2000 }))));
    assert_eq!(status, StatusCode::OK, "{page}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("compare");
    let ran = cli(&["compare", file, "--trials", "2000", "--out", out.to_str().unwrap()]);
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let csv = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    let cells = page["cells"].as_array().unwrap();
    // One row per (ruleset, weapon, range): 3 rulesets x 2 weapons x 11 ranges; Chain
    // of Command, with no ground scale, is left out once.
    assert_eq!((cells.len(), csv.lines().count() - 1), (66, 66));
    assert_eq!(page["left_out"][0][0], "chain-of-command", "{}", page["left_out"]);
    for (cell, row) in cells.iter().zip(csv.lines().skip(1)) {
        let columns: Vec<&str> = row.split(',').collect();
        assert_eq!((cell["ruleset"].as_str().unwrap(), cell["weapon"].as_str().unwrap()), (columns[0], columns[1]));
        assert_eq!(cell["range_m"].as_f64().unwrap(), columns[5].parse::<f64>().unwrap());
        match &cell["answer"]["odds"] {
            Value::Null => assert_eq!(columns[7], "", "no answer in the page, none in the file: {row}"),
            odds => {
                assert_eq!(odds["turn"]["estimate"].as_f64().unwrap(), columns[7].parse::<f64>().unwrap(), "{row}");
                let exact = columns[10].parse::<f64>().ok();
                assert_eq!(odds["turn"]["exact"].as_f64(), exact, "{row}");
            }
        }
    }
    assert_eq!(
        page["differences"].as_array().unwrap().len(),
        std::fs::read_to_string(out.join("differences.csv")).unwrap().lines().count() - 1
    );
}

#[test]
fn a_comparison_too_large_for_one_request_is_refused_with_its_size() {
    let text = std::fs::read_to_string("experiments/compare_at_gun_vs_medium_tank.toml").unwrap();
    let config =
        Config { limits: Limits { max_trials: 100_000, max_runs: 1, ..Limits::default() }, ..Config::default() };
    let (status, body) = runtime().block_on(call(config, comparison(json!({ "scenario": text, "trials": 2000 }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // 4 rulesets x 11 ranges x (2 weapons + 1 paired difference) = 132 runs.
    assert_eq!(
        body["error"],
        "trials 2000: 132 runs of them are 264000 trials, and this server takes at most 100000 per request; ask for fewer trials, ranges or weapons"
    );
}

#[test]
fn every_ruleset_s_comparison_words_come_with_its_ground_scale() {
    let (status, words) = runtime().block_on(call(Config::default(), get("/api/words")));
    assert_eq!(status, StatusCode::OK);
    let words = words.as_array().unwrap();
    assert_eq!(words.len(), 4);
    assert_eq!(words[0]["ruleset"], "command-decision");
    // Command Decision's equivalents.toml: 1 inch is 45.72 m (50 yards).
    assert_eq!(words[0]["scale"], json!(["in.", 45.72]));
    assert!(words[0]["weapon"].as_array().unwrap().iter().any(|w| w[0] == "pak40"), "{}", words[0]);
}

#[test]
fn a_run_streams_its_result_and_offers_the_very_files_run_writes() {
    let rt = runtime();
    let app = router(Config::default());
    let response = rt.block_on(app.clone().oneshot(study(json!({ "scenario": DUEL_ENGAGEMENT, "trials": 200_000 }))));
    let response = response.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let text = rt.block_on(to_bytes(response.into_body(), 1 << 26)).unwrap();
    let events = events(std::str::from_utf8(&text).unwrap());
    let (last, finished) = events.last().expect("an event");
    assert_eq!(last, "result", "{events:?}");
    assert!(events[..events.len() - 1].iter().all(|(name, _)| name == "progress"), "progress until the end");

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("duel");
    let scenario = dir.path().join("cd_engagement_tank_duel.toml");
    std::fs::write(&scenario, DUEL_ENGAGEMENT).unwrap();
    let ran = cli(&["run", scenario.to_str().unwrap(), "--trials", "200000", "--out", out.to_str().unwrap()]);
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let id = finished["id"].as_u64().expect("a run number");
    let files = finished["files"].as_array().unwrap();
    assert!(files.len() >= 5, "{files:?}");
    for file in files {
        let name = file[0].as_str().unwrap();
        let path = format!("/api/results/{id}/{name}");
        let response = rt.block_on(app.clone().oneshot(get(&path))).unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let disposition = response.headers()["content-disposition"].to_str().unwrap().to_string();
        assert_eq!(disposition, format!("attachment; filename=\"{name}\""));
        let bytes = rt.block_on(to_bytes(response.into_body(), 1 << 26)).unwrap();
        let written = std::fs::read(out.join(name)).unwrap();
        if name == "summary.json" {
            // The same summary but for the wall time, which no two runs share.
            let (mut page, mut cli): (Value, Value) =
                (serde_json::from_slice(&bytes).unwrap(), serde_json::from_slice(&written).unwrap());
            page["wall_time_s"] = json!(0);
            cli["wall_time_s"] = json!(0);
            assert_eq!(page, cli);
        } else {
            assert!(bytes == written, "{name}: the page's download is the file `run` writes, byte for byte");
        }
    }
    let (status, body) = rt.block_on(call(Config::default(), get(&format!("/api/results/{id}/summary.json"))));
    assert_eq!(status, StatusCode::NOT_FOUND, "another server keeps nothing of this one's runs");
    assert!(body["error"].as_str().unwrap().contains("run it again: the same seed gives the same numbers"), "{body}");
    let (status, body) = rt.block_on(call(Config::default(), get("/api/results/x/summary.json")));
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[test]
fn a_bad_run_is_refused_before_it_starts_with_the_cli_s_message() {
    let rt = runtime();
    let typo = DUEL_ENGAGEMENT.replacen("ruleset = \"command-decision\"", "ruleset = \"command-decisoin\"", 1);
    let (status, body) = rt.block_on(call(Config::default(), study(json!({ "scenario": typo }))));
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let message = body["error"].as_str().unwrap();
    assert!(message.starts_with("page.toml:4:11: unknown ruleset `command-decisoin`; did you mean"), "{message}");
    let (status, body) =
        rt.block_on(call(Config::default(), study(json!({ "scenario": DUEL_ENGAGEMENT, "trials": 0 }))));
    assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("trials must be at least 1")));
}

/// Starts long work on a server with one slot, reads its first progress event, sees a
/// second request refused, closes the stream as the page's Cancel does, and sees the
/// slot free again well before the work would have ended.
fn closing_the_stream_stops_the_work(long: Request<Body>, again: impl Fn() -> Request<Body>) {
    let rt = runtime();
    // Every piece of work counts as long here: a comparison's single fires are quick.
    let app = router(Config {
        limits: Limits { max_trials: 10_000_000, max_runs: 1, long_work: Duration::ZERO, ..Limits::default() },
        ..Config::default()
    });
    rt.block_on(async {
        let response = app.clone().oneshot(long).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let mut body = response.into_body().into_data_stream();
        let first = body.next().await.expect("an event").unwrap();
        assert!(std::str::from_utf8(&first).unwrap().starts_with("event: progress"), "{first:?}");

        let (status, refused) = answer(&app, again()).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "the one slot is held: {refused}");
        assert!(refused["error"].as_str().unwrap().starts_with("busy: 1 long runs are under way"), "{refused}");

        drop(body);
        let freed = async {
            loop {
                let response = app.clone().oneshot(study(json!({ "scenario": DUEL_ENGAGEMENT, "trials": 1000 }))).await;
                if response.unwrap().status() == StatusCode::OK {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        };
        // The work stops at its next step (well under a second on a quiet machine), not
        // after its minutes; the patience is for a loaded one.
        tokio::time::timeout(std::time::Duration::from_secs(120), freed).await.expect("the slot comes free");
    });
}

#[test]
fn closing_a_run_s_stream_stops_the_run_and_frees_its_slot() {
    // Ten million literal trials of a company action: minutes of work, were it let run.
    let long = || study(json!({ "scenario": FARMHOUSE, "trials": 10_000_000, "mode": "literal" }));
    closing_the_stream_stops_the_work(long(), long);
}

#[test]
fn closing_a_comparison_s_stream_stops_it() {
    let text = std::fs::read_to_string("experiments/compare_at_gun_vs_medium_tank.toml").unwrap();
    // 132 runs of 75,000 trials: 9.9 million, within the limit and long enough to stop.
    let long = || comparison(json!({ "scenario": text, "trials": 75_000 }));
    closing_the_stream_stops_the_work(long(), long);
}

#[test]
fn closing_a_sensitivity_search_s_stream_stops_it() {
    // The farmhouse has no exact answer: every change runs its paired trials.
    // 464 changes of 20,000 trials are 9.3 million; each exact stage is cut short.
    let long = || post("/api/sensitivity", json!({ "scenario": FARMHOUSE, "trials": 20_000, "exact_seconds": 0.1 }));
    closing_the_stream_stops_the_work(long(), long);
}

fn form_of(scenario: &str) -> Request<Body> {
    let body = json!({ "scenario": scenario }).to_string();
    Request::post("/api/form").header("content-type", "application/json").body(Body::from(body)).unwrap()
}

#[test]
fn the_form_offers_what_the_rules_checked_each_value_against() {
    let rt = runtime();
    let (status, form) = rt.block_on(call(Config::default(), form_of(DUEL)));
    assert_eq!(status, StatusCode::OK, "{form}");
    assert_eq!(form["error"], Value::Null);
    // Command Decision's ground scale: 1 in. is 50 yards, 45.72 m.
    assert_eq!(form["scale"], json!(["in.", 45.72]));
    let choice = |key: &str| form["choices"].as_array().unwrap().iter().find(|c| c["key"] == key).cloned();
    let weapon = choice("firer[0].weapon").expect("the firer's weapon is offered");
    assert_eq!(weapon["what"], "weapon");
    assert!(weapon["names"].as_array().unwrap().iter().any(|n| n == "de_75mm_pak40"), "{weapon}");
    // The offer stands exactly where the value is, quotes and all.
    let (start, end) = (weapon["start"].as_u64().unwrap() as usize, weapon["end"].as_u64().unwrap() as usize);
    assert_eq!(&DUEL[start..end], "\"de_75mm_kwk42\"");
    let quality = choice("target.quality").expect("the target's quality is offered");
    assert_eq!(quality["names"], json!(["green", "trained", "regular", "experienced", "veteran", "elite"]));
    assert!(choice("kind").is_none(), "a kind changed alone would leave the file wrong");
    // The settings the rules read that the file leaves at their defaults, default first.
    let settings = form["settings"].as_array().unwrap();
    let response = settings.iter().find(|s| s["key"] == "artillery_response").expect("a setting left unset");
    assert_eq!(response["names"], json!(["roll_at_most", "roll_at_least"]));
    let range = form["values"].as_array().unwrap().iter().find(|v| v["key"] == "range").expect("the range");
    assert_eq!((range["kind"].as_str(), range["text"].as_str()), (Some("integer"), Some("16")));

    // A file that does not set up still gets what was offered before the fault, and the fault.
    let typo = DUEL.replacen("vehicle = \"m4_sherman\"", "vehicle = \"m4_shreman\"", 1);
    let (status, form) = rt.block_on(call(Config::default(), form_of(&typo)));
    assert_eq!(status, StatusCode::OK);
    assert!(form["error"].as_str().unwrap().contains("did you mean `m4_sherman`?"), "{form}");
    let vehicle = form["choices"].as_array().unwrap().iter().find(|c| c["key"] == "target.vehicle").expect("offered");
    assert!(vehicle["names"].as_array().unwrap().iter().any(|n| n == "m4_sherman"), "the typo can be chosen away");
}

#[test]
fn the_form_names_each_offered_entry_as_its_table_does_and_marks_invented_ones() {
    let rt = runtime();
    let (_, form) = rt.block_on(call(Config::default(), form_of(DUEL)));
    // Command Decision's catalogue is illustrative: its names say so, and so does the form.
    let gun = &form["labels"]["weapon"]["de_75mm_kwk42"];
    assert_eq!(gun["label"], "75mm KwK 42 L/70 tank gun, AP (illustrative)");
    assert_eq!(gun["illustrative"], true);
    assert_eq!(form["labels"]["vehicle"]["m4_sherman"]["illustrative"], true);
    // Only the lists a choice offers: no modifier's row stands in for a quality.
    let lists: Vec<&String> = form["labels"].as_object().unwrap().keys().collect();
    assert_eq!(lists, ["vehicle", "weapon"]);
    // The scenario's and each unit's name are offered, as names.
    let name = |key: &str| form["values"].as_array().unwrap().iter().find(|v| v["key"] == key).cloned();
    assert_eq!(name("target.name").expect("the target's name")["kind"], "name");
    assert_eq!(
        name("name").expect("the scenario's name")["text"],
        "\"Panther vs Sherman, 16 in. (800 yd), general fire\""
    );
}

#[test]
fn a_catalogue_of_the_player_s_own_is_read_as_a_rules_folder_is() {
    let rt = runtime();
    let own = own_catalogue();
    let tables = json!({ "command-decision": { "catalogue.toml": own } });
    let (status, page) =
        rt.block_on(call(Config::default(), fire(json!({ "scenario": DUEL, "trials": 20000, "tables": tables }))));
    assert_eq!(status, StatusCode::OK, "{page}");
    // The same file in a `--rules` folder gives the command line's answer: the same report.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("command-decision")).expect("a ruleset folder");
    std::fs::write(dir.path().join("command-decision/catalogue.toml"), &own).expect("the file");
    let rules = dir.path().to_str().expect("utf-8");
    let cli: Value =
        serde_json::from_str(&stdout_of(&["fire", "--rules", rules, "--trials", "20000", "--format", "json"])).unwrap();
    assert_eq!(page["p_kill"], cli["p_kill"]);
    assert_eq!(page["measures"], cli["measures"]);
    // 16 in. is the long band, and a hit is a d10 at or under the hit number: 3 +1
    // veteran = 4 hits 4/10 a die, not 6/10. A hit eliminates 7/10 (d10 +3 on the
    // regular row), so each of the 2 dice kills 0.4 x 0.7 = 0.28 and the turn
    // 1 - 0.72^2 = 0.4816, where the rules' file gives 1 - 0.58^2 = 0.6636.
    assert_eq!(page["p_kill"]["exact"], json!(0.4816));
    // Their file is no invention of this tool's: the Sherman they kept from it is not
    // marked either, as the file says nothing of it.
    assert_eq!(page["invented"], json!([]), "{}", page["invented"]);
    // The form offers their entries by their names.
    let body = json!({ "scenario": DUEL, "tables": tables }).to_string();
    let request = Request::post("/api/form").header("content-type", "application/json").body(Body::from(body)).unwrap();
    let (_, form) = rt.block_on(call(Config::default(), request));
    assert_eq!(form["labels"]["weapon"]["de_75mm_kwk42"]["label"], "My KwK 42");
    assert_eq!(form["labels"]["weapon"]["de_75mm_kwk42"]["illustrative"], false);
    // Which cells matter is asked of their tables too: `sensitivity --rules` on the file.
    let search = json!({ "scenario": DUEL, "top": 5, "tables": tables });
    let (status, page) = rt.block_on(call(Config::default(), post("/api/sensitivity", search)));
    assert_eq!(status, StatusCode::OK, "{page}");
    let mut cli: Value =
        serde_json::from_str(&stdout_of(&["sensitivity", "--rules", rules, "--top", "5", "--format", "json"])).unwrap();
    assert_eq!(page["p_kill"]["value"], json!(0.4816));
    // A change their file refuses is said of their file, where the command line names
    // the path it was given.
    let folder = format!("{}/command-decision/catalogue.toml", dir.path().display());
    for refusal in cli["refusals"].as_array_mut().unwrap() {
        let reason = refusal["reason"].as_str().unwrap().replace(&folder, "your catalogue.toml (command-decision)");
        refusal["reason"] = json!(reason);
    }
    assert_eq!(page, cli);
}

#[test]
fn a_fault_in_the_player_s_own_file_names_their_file_not_a_folder() {
    let rt = runtime();
    let with = |tables: Value| fire(json!({ "scenario": DUEL, "trials": 1000, "tables": tables }));
    let broken = own_catalogue().replacen("rof = \"2\"", "rof = \"two\"", 1);
    let (status, body) =
        rt.block_on(call(Config::default(), with(json!({ "command-decision": { "catalogue.toml": broken } }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let message = body["error"].as_str().expect("an error line");
    assert!(message.starts_with("your catalogue.toml (command-decision):"), "{message}");
    assert!(!message.contains("combat-odds-own-") && !message.contains('\n'), "{message}");
    // A file the ruleset has no such name for is refused, with the nearest name.
    let (status, body) =
        rt.block_on(call(Config::default(), with(json!({ "command-decision": { "catalog.toml": "" } }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("did you mean `catalogue.toml`?"), "{body}");
    // Compare reads the player's tables too, as every endpoint of the request layer does.
    let comparison = include_str!("../../experiments/compare_at_gun_vs_medium_tank.toml");
    let body =
        json!({ "scenario": comparison, "tables": { "command-decision": { "catalogue.toml": own_catalogue() } } });
    let request =
        Request::post("/api/compare").header("content-type", "application/json").body(Body::from(body.to_string()));
    let (status, body) = rt.block_on(call(Config::default(), request.unwrap()));
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[test]
fn an_engagement_s_own_settings_are_offered_for_engagements_only() {
    let rt = runtime();
    let keys = |form: &Value| -> Vec<String> {
        form["settings"].as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_string()).collect()
    };
    let hedge = std::fs::read_to_string("experiments/coc_engagement_sections_at_the_hedge.toml").unwrap();
    let (_, engagement) = rt.block_on(call(Config::default(), form_of(&hedge)));
    let bren = std::fs::read_to_string("experiments/coc_lmg_phases_to_break_section.toml").unwrap();
    let (_, phases) = rt.block_on(call(Config::default(), form_of(&bren)));
    // Chain of Command's `broken_then_wiped_out` is read by engagements alone.
    assert!(keys(&engagement).contains(&"broken_then_wiped_out".to_string()), "{engagement}");
    assert!(!keys(&phases).contains(&"broken_then_wiped_out".to_string()), "{phases}");
    assert!(keys(&engagement).contains(&"rally".to_string()), "{engagement}");
    assert!(!keys(&phases).contains(&"rally".to_string()), "{phases}");
    assert!(keys(&phases).contains(&"to_hit_quality".to_string()), "{phases}");
}

#[test]
fn a_unit_s_count_the_file_leaves_out_is_offered_at_its_default_in_its_table() {
    let rt = runtime();
    let counts = |scenario: &str| -> Value {
        let (status, form) = rt.block_on(call(Config::default(), form_of(scenario)));
        assert_eq!((status, &form["error"]), (StatusCode::OK, &Value::Null), "{form}");
        form["counts"].clone()
    };
    // The duel's Panther platoon gives no stands: one, of 1 to 100. Its passengers give
    // theirs (`stands = 1`), so nothing is offered for them.
    assert_eq!(counts(DUEL), json!([{ "table": "firer[0]", "key": "stands", "default": 1, "min": 1, "max": 100 }]));
    let given = DUEL.replacen("mount = \"tank\"", "mount = \"tank\"\nstands = 3", 1);
    assert_eq!(counts(&given), json!([]));
    // Mission Command's word: a firer's elements.
    let hmg = std::fs::read_to_string("experiments/mc_hmg_good_cover.toml").unwrap();
    assert_eq!(counts(&hmg), json!([{ "table": "firer[0]", "key": "elements", "default": 1, "min": 1, "max": 50 }]));
    // An engagement's units: how many of each entry. Its fire is set up from them, not
    // from a `[[firer]]` of the file, so no firer's stands are offered.
    let entry =
        |s: usize| json!({ "table": format!("side[{s}].unit[0]"), "key": "count", "default": 1, "min": 1, "max": 50 });
    assert_eq!(counts(DUEL_ENGAGEMENT), json!([entry(0), entry(1)]));
}

#[test]
fn a_ruleset_s_own_views_are_offered_by_the_form_only_where_its_screen_has_them() {
    let rt = runtime();
    let views = |scenario: &str| -> Value {
        let (status, form) = rt.block_on(call(Config::default(), form_of(scenario)));
        assert_eq!(status, StatusCode::OK, "{form}");
        form["views"].clone()
    };
    // Company Commander's fire screen gives whole percentages; Command Decision's
    // tables and Mission Command's do not, so their answers carry no such view.
    let cc = std::fs::read_to_string("experiments/cc_panther_vs_sherman.toml").unwrap();
    assert_eq!(views(&cc), json!(["percent"]));
    assert_eq!(views(DUEL), json!([]));
    let hmg = std::fs::read_to_string("experiments/mc_hmg_good_cover.toml").unwrap();
    assert_eq!(views(&hmg), json!([]));
}

#[test]
fn the_recorded_interpretations_are_served_beside_the_tables() {
    let rt = runtime();
    let response = rt.block_on(router(Config::default()).oneshot(get("/api/interpretations"))).unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = rt.block_on(to_bytes(response.into_body(), 1 << 24)).unwrap();
    assert!(text == std::fs::read("docs/interpretations.md").unwrap(), "docs/interpretations.md as it is");
}

fn post(path: &str, body: Value) -> Request<Body> {
    Request::post(path).header("content-type", "application/json").body(Body::from(body.to_string())).unwrap()
}

#[test]
fn the_cli_s_other_answers_are_the_page_s_too() {
    let rt = runtime();
    let file = |name: &str| std::fs::read_to_string(format!("experiments/{name}")).unwrap();
    let cli_json = |args: &[&str]| -> Value { serde_json::from_str(&stdout_of(args)).unwrap() };

    let panther = file("cc_panther_vs_sherman.toml");
    let (status, page) = rt.block_on(call(Config::default(), post("/api/percent", json!({ "scenario": panther }))));
    assert_eq!(status, StatusCode::OK, "{page}");
    let cli = cli_json(&["percent-destroy", "experiments/cc_panther_vs_sherman.toml", "--format", "json"]);
    assert_eq!(page, cli, "percent-destroy");
    let (status, body) =
        rt.block_on(call(Config::default(), post("/api/percent", json!({ "scenario": DUEL_ENGAGEMENT }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("percent-destroy answers a fire at a target"), "{body}");

    let hand = file("coc_five_dice_senior_leader.toml");
    let (status, page) = rt.block_on(call(Config::default(), post("/api/command-dice", json!({ "scenario": hand }))));
    assert_eq!(status, StatusCode::OK, "{page}");
    let cli = cli_json(&["command-dice", "experiments/coc_five_dice_senior_leader.toml", "--format", "json"]);
    // The same answers; the scenario's name is the file's own in both.
    assert_eq!(page["answers"], cli["answers"]);
    assert_eq!(page["notes"], cli["notes"]);

    let (status, page) =
        rt.block_on(call(Config::default(), post("/api/sensitivity", json!({ "scenario": DUEL, "top": 5 }))));
    assert_eq!(status, StatusCode::OK, "{page}");
    let cli = cli_json(&["sensitivity", "--top", "5", "--format", "json"]);
    assert_eq!(page, cli, "sensitivity of the embedded duel");

    for ruleset in ["command-decision", "chain-of-command"] {
        let (status, page) = rt.block_on(call(Config::default(), get(&format!("/api/modifiers/{ruleset}"))));
        assert_eq!(status, StatusCode::OK);
        assert_eq!(page, cli_json(&["modifiers", ruleset, "--format", "json"]), "{ruleset}");
    }
}

#[test]
fn a_sensitivity_search_of_a_fight_is_long_work_and_waits_for_a_slot() {
    let config =
        Config { limits: Limits { max_trials: 10_000_000, max_runs: 0, ..Limits::default() }, ..Config::default() };
    // Every change of a fight re-solves its chain: 464 exact stages of up to a second.
    let search = json!({ "scenario": DUEL_ENGAGEMENT, "trials": 1000, "exact_seconds": 1 });
    let (status, body) = runtime().block_on(call(config, post("/api/sensitivity", search)));
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(body["error"].as_str().unwrap().starts_with("busy: 0 long runs"), "{body}");
}

#[test]
fn a_sweep_on_the_page_is_the_sweep_the_cli_writes() {
    let rt = runtime();
    let study = std::fs::read_to_string("experiments/sweep_mc_hmg_vs_rifle_sections.toml").unwrap();
    // The command line's exact budget (60 s), so that a loaded machine gives both the
    // same exact answers.
    let limits = Limits { exact_budget: Duration::from_secs(60), ..Limits::default() };
    let app = router(Config { limits, ..Config::default() });
    let (status, swept) = rt.block_on(answer(&app, post("/api/sweep", json!({ "sweep": study, "trials": 3000 }))));
    assert_eq!(status, StatusCode::OK, "{swept}");
    assert_eq!(swept["points"].as_array().unwrap().len(), 16);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let ran = cli(&[
        "sweep",
        "experiments/sweep_mc_hmg_vs_rifle_sections.toml",
        "--trials",
        "3000",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let id = swept["id"].as_u64().unwrap();
    for name in ["sweep.csv", "sweep.parquet", "design.csv"] {
        let response = rt.block_on(app.clone().oneshot(get(&format!("/api/results/{id}/{name}")))).unwrap();
        let bytes = rt.block_on(to_bytes(response.into_body(), 1 << 26)).unwrap();
        assert!(bytes == std::fs::read(out.join(name)).unwrap(), "{name}: the page's file is the file `sweep` writes");
    }
    // A sweep names its base by file name: only a shipped one, or the text given.
    let elsewhere = study.replace("mc_engagement_hmg_vs_rifle_platoon.toml", "/etc/passwd");
    let (status, body) = rt.block_on(call(Config::default(), post("/api/sweep", json!({ "sweep": elsewhere }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("is not a shipped scenario"), "{body}");
}

#[test]
fn the_balance_finder_on_the_page_brackets_the_crossing() {
    let base = std::fs::read_to_string("experiments/mc_engagement_hmg_vs_rifle_platoon.toml").unwrap();
    let request =
        json!({ "scenario": base, "vary": "side[1].unit[0].count", "from": 1, "to": 5, "step": 1, "trials": 3000 });
    let (status, found) = runtime().block_on(call(Config::default(), post("/api/balance", request)));
    assert_eq!(status, StatusCode::OK, "{found}");
    // Two sections leave the Germans an exact 0.619277; three, about 0.33.
    assert_eq!(found["bracket"], json!([2, 3]));
    let (status, body) = runtime().block_on(call(
        Config { limits: Limits { max_trials: 10_000, max_runs: 1, ..Limits::default() }, ..Config::default() },
        post(
            "/api/balance",
            json!({ "scenario": base, "vary": "engagement.range", "from": 10, "to": 30, "trials": 2000 }),
        ),
    ));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A bisection of 10 to 30 to a 64th of the span tries both ends, 6 halvings
    // (2^6 = 64) and the two values either side of a band edge: 10 values of 2,000
    // trials.
    assert_eq!(
        body["error"],
        "trials 2000: 10 values of them are 20000 trials, and this server takes at most 10000 per request; ask for fewer values or trials, a coarser tolerance, or a smaller exact_seconds"
    );
}

/// The headers of the answer to `request`, with its status and JSON body.
async fn headed(app: &axum::Router, request: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Value) {
    let response = app.clone().oneshot(request).await.expect("the router answers");
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = to_bytes(response.into_body(), 1 << 24).await.expect("a whole body");
    (status, headers, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn with(mut request: Request<Body>, name: &'static str, value: &str) -> Request<Body> {
    request.headers_mut().insert(name, value.parse().unwrap());
    request
}

#[test]
fn every_answer_forbids_framing_other_sources_and_sniffing() {
    let rt = runtime();
    let app = router(Config::default());
    let answers = [
        get("/"),
        get("/page/main.js"),
        get("/api/rulesets"),
        get("/no/such/page"),
        fire(json!({ "scenario": DUEL, "trials": 1000 })),
        fire(json!({ "scenario": DUEL, "trials": 0 })),
        with(get("/"), "host", "evil.example"),
    ];
    for request in answers {
        let what = format!("{} {}", request.method(), request.uri());
        let (_, headers, _) = rt.block_on(headed(&app, request));
        let policy = headers.get("content-security-policy").map(|v| v.to_str().unwrap()).unwrap_or_default();
        assert!(
            policy.starts_with("default-src 'self';") && policy.contains("frame-ancestors 'none'"),
            "{what}: {policy}"
        );
        assert_eq!(headers.get("x-frame-options").map(|v| v.to_str().unwrap()), Some("DENY"), "{what}");
        assert_eq!(headers.get("x-content-type-options").map(|v| v.to_str().unwrap()), Some("nosniff"), "{what}");
    }
}

#[test]
fn a_request_naming_another_host_is_refused_so_dns_rebinding_reads_nothing() {
    let rt = runtime();
    let app = router(Config { hosts: vec!["mybox.lan".into()], ..Config::default() });
    for host in ["localhost:8070", "127.0.0.1:8070", "[::1]:8070", "LOCALHOST", "mybox.lan:8070", "127.0.0.1"] {
        let (status, _, body) = rt.block_on(headed(&app, with(get("/api/rulesets"), "host", host)));
        assert_eq!(status, StatusCode::OK, "{host}: {body}");
    }
    for host in ["evil.example", "evil.example:8070", "localhost.evil.example", "10.0.0.7:8070"] {
        let (status, _, body) = rt.block_on(headed(&app, with(get("/api/rulesets"), "host", host)));
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{host}");
        let message = body["error"].as_str().expect("a JSON error");
        assert!(message.starts_with("host `") && message.contains("the names it was told to allow"), "{message}");
    }
    // A work request naming a foreign host starts nothing either, whatever its origin.
    let request = with(fire(json!({ "scenario": DUEL, "trials": 1000 })), "host", "evil.example:8070");
    let (status, _, _) = rt.block_on(headed(&app, with(request, "origin", "http://evil.example:8070")));
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    // A target in absolute form names its host too.
    let (status, _, _) = rt.block_on(headed(&app, get("http://evil.example/api/rulesets")));
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
}

#[test]
fn a_post_from_another_origin_is_refused_and_the_page_s_own_and_curl_s_are_answered() {
    let rt = runtime();
    let app = router(Config::default());
    let from = |origin: Option<&str>| {
        let request = with(fire(json!({ "scenario": DUEL, "trials": 1000 })), "host", "127.0.0.1:8070");
        match origin {
            Some(origin) => with(request, "origin", origin),
            None => request,
        }
    };
    for origin in [None, Some("http://127.0.0.1:8070"), Some("http://127.0.0.1:8070".to_uppercase().as_str())] {
        let (status, _, body) = rt.block_on(headed(&app, from(origin)));
        assert_eq!(status, StatusCode::OK, "{origin:?}: {body}");
    }
    // Another site, another port of this machine (another local server's page), a
    // sandboxed frame or file (`null`), and https where the server speaks http.
    for origin in
        ["http://evil.example", "http://127.0.0.1:3000", "http://localhost:8070", "null", "https://127.0.0.1:8070"]
    {
        let (status, _, body) = rt.block_on(headed(&app, from(Some(origin))));
        assert_eq!(status, StatusCode::FORBIDDEN, "{origin}");
        let message = body["error"].as_str().expect("a JSON error");
        assert!(message.starts_with(&format!("origin `{origin}`: only the page this server serves")), "{message}");
    }
    // Every endpoint that starts work is behind the same check.
    for path in ["/api/run", "/api/compare", "/api/sweep", "/api/balance", "/api/sensitivity", "/api/exact"] {
        let request = with(with(post(path, json!({})), "host", "127.0.0.1:8070"), "origin", "http://evil.example");
        let (status, _, _) = rt.block_on(headed(&app, request));
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
    }
}

#[test]
fn every_refusal_is_a_json_error_on_one_line() {
    let rt = runtime();
    let app = router(Config::default());
    let raw = |body: Body, kind: Option<&str>| {
        let mut request = Request::post("/api/fire");
        if let Some(kind) = kind {
            request = request.header("content-type", kind);
        }
        request.body(body).unwrap()
    };
    let big = json!({ "scenario": "#".repeat(combat_odds_web::BODY_LIMIT + 1) }).to_string();
    let cases = [
        (raw(Body::from(big), Some("application/json")), StatusCode::PAYLOAD_TOO_LARGE, "the request's body is over"),
        (
            raw(Body::from("{}"), None),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Expected request with `Content-Type: application/json`",
        ),
        (raw(Body::from("{}"), Some("text/plain")), StatusCode::UNSUPPORTED_MEDIA_TYPE, "Expected request with"),
        (
            fire(json!({ "scenario": DUEL, "path": "/etc/passwd" })),
            StatusCode::BAD_REQUEST,
            "the request: unknown field `path`",
        ),
        (
            raw(Body::from("{\"scenario\": "), Some("application/json")),
            StatusCode::BAD_REQUEST,
            "the request: EOF while parsing",
        ),
        (get("/api/nothing"), StatusCode::NOT_FOUND, "/api/nothing: no such page or endpoint"),
        (get("/api/fire"), StatusCode::METHOD_NOT_ALLOWED, "GET /api/fire: method not allowed"),
        (get("/api/tables/a/b/c"), StatusCode::NOT_FOUND, "/api/tables/a/b/c: no such page"),
    ];
    for (request, expected, start) in cases {
        let what = format!("{} {}", request.method(), request.uri());
        let (status, headers, body) = rt.block_on(headed(&app, request));
        assert_eq!(status, expected, "{what}: {body}");
        assert_eq!(headers["content-type"], "application/json", "{what}");
        let message = body["error"].as_str().unwrap_or_else(|| panic!("{what}: a JSON error, not {body}"));
        assert!(message.starts_with(start) && !message.contains('\n'), "{what}: {message}");
    }
}

#[test]
fn the_exact_answer_alone_draws_no_trial_whatever_the_link_asks() {
    let rt = runtime();
    // No long run may start, and the link asks for the most trials: the exact answer
    // still comes, at once, as `fire` gives it.
    let config =
        Config { limits: Limits { max_trials: 10_000_000, max_runs: 0, ..Limits::default() }, ..Config::default() };
    let started = std::time::Instant::now();
    let (status, body) =
        rt.block_on(call(config, post("/api/exact", json!({ "scenario": DUEL, "trials": 10_000_000 }))));
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    assert_eq!(
        body["p_kill"],
        json!({ "measure": "target", "outcome": "eliminated", "exact": 0.6636, "exact_fraction": "1659/2500" })
    );
    assert_eq!(
        body["measures"][0]["outcomes"][0],
        json!({ "outcome": "no_effect", "exact": 0.16, "exact_fraction": "4/25" })
    );
    assert!(body.get("trials").is_none() && body["p_kill"].get("estimate").is_none(), "no Monte Carlo: {body}");
}

/// The page's server on a loopback port with `connections`, run on `rt`: its address.
fn listening(rt: &tokio::runtime::Runtime, config: Config) -> std::net::SocketAddr {
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let listener = rt.block_on(async { combat_odds_web::bind(loopback) }).expect("a loopback port");
    let address = listener.local_addr().unwrap();
    rt.spawn(combat_odds_web::serve(listener, config, std::future::pending()));
    address
}

/// Sends `bytes` on a new connection and reads until the server closes it or
/// `patience` passes: what came back, and whether the server closed it.
fn exchange(address: std::net::SocketAddr, bytes: &[u8], patience: std::time::Duration) -> (String, bool) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).expect("a connection");
    stream.write_all(bytes).unwrap();
    stream.set_read_timeout(Some(patience)).unwrap();
    let (mut got, mut buffer) = (Vec::new(), [0; 4096]);
    let started = std::time::Instant::now();
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(n) => got.extend_from_slice(&buffer[..n]),
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), false),
        }
        if started.elapsed() > patience {
            return (String::from_utf8_lossy(&got).into_owned(), false);
        }
    }
}

fn quick(max_open: usize) -> Config {
    let wait = std::time::Duration::from_millis(500);
    let connections =
        combat_odds_web::Connections { max_open, header_timeout: wait, body_timeout: wait, ..Default::default() };
    Config { connections, ..Config::default() }
}

#[test]
fn a_connection_that_trickles_its_headers_or_its_body_or_idles_is_closed() {
    let rt = runtime();
    let address = listening(&rt, quick(8));
    let patience = std::time::Duration::from_secs(5);
    // Headers never finished: closed, unanswered, after the header timeout.
    let (got, closed) = exchange(address, b"GET / HTTP/1.1\r\nHost: localhost\r\n", patience);
    assert!(closed && got.is_empty(), "{got}");
    // Answered, then idle: closed after the same timeout.
    let (got, closed) = exchange(address, b"GET /api/rulesets HTTP/1.1\r\nHost: localhost\r\n\r\n", patience);
    assert!(closed && got.starts_with("HTTP/1.1 200"), "{got}");
    // A body that never arrives whole: refused in JSON after the body timeout.
    let slow = b"POST /api/fire HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"sc";
    let (got, _) = exchange(address, slow, patience);
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(got.ends_with("{\"error\":\"the request's body did not arrive within 0.5 s\"}"), "{got}");
}

#[test]
fn open_connections_are_bounded_and_one_waiting_takes_the_oldest_s_place() {
    use std::io::Read;
    let rt = runtime();
    let mut config = quick(2);
    config.connections.header_timeout = std::time::Duration::from_secs(30);
    let address = listening(&rt, config);
    let request = b"GET /api/rulesets HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    let mut idle: Vec<_> = (0..2).map(|_| std::net::TcpStream::connect(address).unwrap()).collect();
    std::thread::sleep(std::time::Duration::from_millis(200));
    // Both places are held, and idle connections hold them for 30 s: a third is still
    // answered, in the place of the oldest, which is closed.
    let (got, closed) = exchange(address, request, std::time::Duration::from_secs(5));
    assert!(closed && got.starts_with("HTTP/1.1 200"), "{got}");
    idle[0].set_read_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
    assert_eq!(idle[0].read(&mut [0; 16]).ok(), Some(0), "the oldest was closed for it");
}

#[test]
fn one_waiting_takes_the_place_of_half_a_request_at_once_and_an_answer_under_way_runs_to_its_end() {
    use std::io::{Read, Write};
    let rt = runtime();
    let mut config = quick(2);
    config.connections.header_timeout = std::time::Duration::from_secs(30);
    let address = listening(&rt, config);
    // Under way: a run streaming its events.
    let farmhouse =
        std::fs::read_to_string(crate::common::experiment_path("cd_engagement_company_at_the_farmhouse.toml")).unwrap();
    let body = serde_json::json!({ "scenario": farmhouse, "trials": 400_000, "mode": "literal" }).to_string();
    let mut running = std::net::TcpStream::connect(address).unwrap();
    let head = format!(
        "POST /api/run HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    running.write_all((head + &body).as_bytes()).unwrap();
    let mut first = [0; 12];
    running.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    // Half a request's headers, which the header timeout would let hold its place 30 s.
    let mut half = std::net::TcpStream::connect(address).unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let started = std::time::Instant::now();
    let request = b"GET /api/rulesets HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    let (got, _) = exchange(address, request, std::time::Duration::from_secs(5));
    let answered = started.elapsed();
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    // Two seconds, not the header timeout's thirty: the suite shares two cores.
    assert!(answered < std::time::Duration::from_secs(2), "answered in {answered:?}");
    half.set_read_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
    assert_eq!(half.read(&mut [0; 16]).ok(), Some(0), "half a request gave its place");
    // The run, asked to close too, was still under way, and ends its answer first.
    let (mut seen, mut buffer) = (Vec::new(), [0; 4096]);
    running.set_read_timeout(Some(std::time::Duration::from_millis(100))).unwrap();
    while let Ok(n @ 1..) = running.read(&mut buffer) {
        seen.extend_from_slice(&buffer[..n]);
    }
    assert!(!String::from_utf8_lossy(&seen).contains("event: result"), "the run ended before the third came");
    running.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
    running.read_to_end(&mut seen).unwrap();
    let seen = String::from_utf8_lossy(&seen);
    assert!(
        seen.contains("event: result"),
        "the run's stream ends in its result: {}",
        &seen[seen.len().saturating_sub(300)..]
    );
}

#[test]
fn kept_alive_connections_pinging_cannot_hold_every_place_from_the_user() {
    use std::io::{Read, Write};
    let rt = runtime();
    let mut config = quick(4);
    config.connections.header_timeout = std::time::Duration::from_secs(30);
    let address = listening(&rt, config);
    let ping = b"GET /api/rulesets HTTP/1.1\r\nHost: localhost\r\n\r\n";
    // Four clients that keep their connections alive with a request every 100 ms.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let hostages: Vec<_> = (0..4)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut stream = std::net::TcpStream::connect(address).unwrap();
                stream.set_read_timeout(Some(std::time::Duration::from_millis(500))).unwrap();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    if stream.write_all(ping).is_err() || stream.read(&mut [0; 4096]).map_or(true, |n| n == 0) {
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let started = std::time::Instant::now();
    let (got, _) = exchange(
        address,
        b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        std::time::Duration::from_secs(5),
    );
    assert!(got.starts_with("HTTP/1.1 200"), "the user's page: {got}");
    // Two seconds, not one: the suite shares two cores with every other test.
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "answered in {:?}", started.elapsed());
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for h in hostages {
        h.join().unwrap();
    }
}

#[test]
fn a_client_that_asks_and_never_reads_is_closed_after_the_write_timeout() {
    use std::io::{Read, Write};
    let rt = runtime();
    let mut config = quick(4);
    config.connections.write_timeout = std::time::Duration::from_millis(500);
    config.connections.header_timeout = std::time::Duration::from_secs(30);
    let address = listening(&rt, config);
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    // 2,000 pipelined requests for the page, never read: the answers fill the send
    // queue until a write waits, and the server gives up on the client.
    let page = b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(2000);
    stream.set_write_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
    let _ = stream.write_all(&page);
    std::thread::sleep(std::time::Duration::from_secs(3));
    // Read what was queued: the stream ends (the server closed it), it does not hang.
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    let mut buffer = vec![0; 1 << 16];
    let ended = loop {
        match stream.read(&mut buffer) {
            Ok(0) => break true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break true,
            Err(_) => break false,
        }
    };
    assert!(ended, "the connection was closed");
}

#[test]
fn a_server_on_every_address_answers_to_addresses_and_its_allowed_names_only() {
    let rt = runtime();
    let listener = rt.block_on(tokio::net::TcpListener::bind("0.0.0.0:0")).expect("a port on every address");
    let port = listener.local_addr().unwrap().port();
    rt.spawn(combat_odds_web::serve(
        listener,
        Config { hosts: vec!["mybox.lan".into()], ..Config::default() },
        std::future::pending(),
    ));
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let ask = |host: &str| {
        let request = format!("GET /api/rulesets HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        exchange(address, request.as_bytes(), std::time::Duration::from_secs(5)).0
    };
    for host in ["192.168.1.20:8070", "[fe80::1]:8070", "mybox.lan:8070", "localhost"] {
        assert!(ask(host).starts_with("HTTP/1.1 200"), "{host}");
    }
    assert!(ask("evil.example:8070").starts_with("HTTP/1.1 421"));
}

#[test]
fn serve_answers_to_the_names_allow_host_gives_and_refuses_a_bad_one() {
    let ran = cli(&["serve", "--allow-host", "mybox.lan:8070"]);
    assert_eq!(ran.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert!(stderr.contains("`mybox.lan:8070` is not a host name"), "{stderr}");

    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut server = std::process::Command::new(crate::common::cli::BIN)
        .args(["serve", "--port", &port.to_string(), "--allow-host", "MyBox.lan"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(address).is_err() {
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "the server never listened");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let ask = |host: &str| {
        let request = format!("GET /api/rulesets HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        exchange(address, request.as_bytes(), std::time::Duration::from_secs(5)).0
    };
    let (mine, theirs) = (ask("mybox.lan:8070"), ask("evil.example"));
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(mine.starts_with("HTTP/1.1 200"), "{mine}");
    assert!(theirs.starts_with("HTTP/1.1 421"), "{theirs}");
}

/// A report's notes, as text.
fn notes_of(report: &Value) -> Vec<String> {
    report["notes"].as_array().expect("notes").iter().map(|n| n.as_str().expect("a note").to_string()).collect()
}

#[test]
fn each_request_keeps_its_own_exact_budget_and_its_own_note() {
    runtime().block_on(async {
        let app = router(Config::default());
        // Side by side: a request with no exact budget at all stops its exact stage at
        // once and says so; the other, under the server's budget, is solved exactly.
        // One process-wide deadline let either move the other's clock.
        let spent = fire(json!({ "scenario": DUEL_ENGAGEMENT, "trials": 1000, "exact_seconds": 0.0 }));
        let roomy = fire(json!({ "scenario": DUEL_ENGAGEMENT, "trials": 1000 }));
        let ((status_a, a), (status_b, b)) = tokio::join!(answer(&app, spent), answer(&app, roomy));
        assert_eq!((status_a, status_b), (StatusCode::OK, StatusCode::OK));
        assert!(a["p_kill"]["exact"].is_null(), "{a}");
        assert!(notes_of(&a).iter().any(|n| n.contains("stopped at its time budget of 0 s")), "{a}");
        assert!(b["p_kill"]["exact"].is_number(), "{b}");
        assert!(!notes_of(&b).iter().any(|n| n.contains("time budget")), "{b}");
        // Afterwards a field the solver cannot take (a company of twenty platoons) says
        // why, not that a budget ran out: a spent budget belongs to its own request.
        let crowded = FARMHOUSE.replacen("count = 3", "count = 20", 1);
        let (_, c) = answer(&app, fire(json!({ "scenario": crowded, "trials": 1000 }))).await;
        assert!(c["p_kill"]["exact"].is_null(), "{c}");
        assert!(!notes_of(&c).iter().any(|n| n.contains("time budget")), "{c}");
        assert!(notes_of(&c).iter().any(|n| n.contains("units on the field")), "{c}");
    });
}

#[test]
fn an_exact_budget_that_is_not_a_number_of_seconds_is_refused() {
    runtime().block_on(async {
        let (status, body) =
            call(Config::default(), fire(json!({ "scenario": DUEL, "trials": 1000, "exact_seconds": -1.0 }))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["error"].as_str().is_some_and(|e| e.contains("exact_seconds -1")), "{body}");
    });
}
