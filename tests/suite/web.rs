//! The page's endpoints, called in process as the server's router sees them: the
//! numbers the CLI gives, the one-line messages of its validation, and the limits.

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

use combat_odds_web::{Config, Limits, router};

use crate::common::cli::stdout_of;

const DUEL: &str = include_str!("../../experiments/cd_tank_duel.toml");

/// The status and JSON body of one request to a fresh router.
async fn call(config: Config, request: Request<Body>) -> (StatusCode, Value) {
    let response = router(config).oneshot(request).await.expect("the router answers");
    let status = response.status();
    let bytes = to_bytes(response.into_body(), 1 << 24).await.expect("a whole body");
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).expect("a request")
}

fn fire(body: Value) -> Request<Body> {
    Request::post("/api/fire").header("content-type", "application/json").body(Body::from(body.to_string())).unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime")
}

#[test]
fn the_page_is_served_whole_from_the_binary() {
    runtime().block_on(async {
        let response = router(Config::default()).oneshot(get("/")).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let html = String::from_utf8(to_bytes(response.into_body(), 1 << 24).await.unwrap().to_vec()).unwrap();
        assert!(html.starts_with("<!doctype html>"), "{}", &html[..40]);
        assert!(html.contains("/api/fire") && html.contains("/api/tables/"), "the page calls the endpoints");
        for elsewhere in ["src=\"http", "href=\"http", "fetch(\"http", "import "] {
            assert!(!html.contains(elsewhere), "nothing is fetched from elsewhere: `{elsewhere}`");
        }
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

    let (status, _) = rt.block_on(call(Config::default(), fire(json!({ "scenario": DUEL, "path": "/etc/passwd" }))));
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "no field but the listed ones, and no path, is taken");
}

#[test]
fn the_server_s_limits_are_said_not_exceeded() {
    let limits = Limits { max_trials: 1000, max_runs: 1 };
    let config = Config { rules_dir: None, limits };
    let (status, body) = runtime().block_on(call(config, fire(json!({ "scenario": DUEL, "trials": 1001 }))));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "trials 1001: at most 1000 per request on this server");
}

#[test]
fn long_runs_beyond_the_limit_are_refused_and_short_ones_still_answer() {
    let rt = runtime();
    // No long run may start: a request for one is refused at once, with the reason.
    let config = || Config { rules_dir: None, limits: Limits { max_trials: 10_000_000, max_runs: 0 } };
    let (status, body) = rt.block_on(call(config(), fire(json!({ "scenario": DUEL, "trials": 2_000_000 }))));
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(body["error"].as_str().unwrap().starts_with("busy: 0 runs of over 1000000 trials"), "{body}");
    let (status, _) = rt.block_on(call(config(), fire(json!({ "scenario": DUEL, "trials": 1_000_000 }))));
    assert_eq!(status, StatusCode::OK, "a run of a million trials or fewer takes no slot");
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
    // Every file of experiments/ but the comparisons, which are made of other scenarios.
    let on_disk = std::fs::read_dir("experiments")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "toml"))
        .filter(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            !text.lines().any(|l| l.trim() == "kind = \"compare\"")
        })
        .count();
    assert_eq!(shipped.len(), on_disk);
    for s in shipped {
        let request = fire(json!({ "scenario": s["text"], "name": s["name"], "trials": 2000 }));
        let (status, body) = rt.block_on(call(Config::default(), request));
        assert_eq!(status, StatusCode::OK, "{}: {body}", s["name"]);
    }
}
