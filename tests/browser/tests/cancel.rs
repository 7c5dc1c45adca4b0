//! A request whose client leaves stops its work, in every phase that may take long:
//! an exact stage, Monte Carlo chunks, a sensitivity search's changes, a sweep's points
//! and a balance's values. Each is started on a server of its own, its client leaves
//! while the work is under way, and the server's own CPU time (from /proc, so nothing
//! else on the machine counts) stops growing within a second.
//!
//! Needs `target/release/combat-odds` (the main workspace's release build).

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use combat_odds_browser_tests::{repository, serve_with};

type Http = Client<HttpConnector, Full<Bytes>>;

/// Seconds of CPU `pid` has used, user and system, from /proc.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc is readable");
    // The fields after the command's closing parenthesis: utime and stime are the
    // 12th and 13th of them (the 14th and 15th of the line).
    let after = &stat[stat.rfind(')').expect("a command in parentheses") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks as f64 / clock_ticks()
}

/// Clock ticks a second, as /proc counts CPU time.
fn clock_ticks() -> f64 {
    let out = std::process::Command::new("getconf").arg("CLK_TCK").output().expect("getconf runs");
    String::from_utf8_lossy(&out.stdout).trim().parse().expect("a number of ticks")
}

fn experiment(name: &str) -> String {
    std::fs::read_to_string(repository().join("experiments").join(name)).expect("a shipped experiment")
}

/// Starts `body` at `path` on a fresh server, lets it work for a second and a half
/// (its first bytes in, for long work answered as events), then leaves; the server's
/// CPU time over the two seconds after the first must stay near idle.
async fn leaving_stops(what: &str, path: &str, body: serde_json::Value) {
    let (server, base) = serve_with(&["--exact-seconds", "60"]).await;
    let pid = server.0.id();
    let client: Http = Client::builder(TokioExecutor::new()).build_http();
    let request = hyper::Request::post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a request");
    let started = cpu_seconds(pid);
    let call = client.request(request);
    let leave = async {
        // Work answered as events sends a first event at once; other work answers only
        // when it ends, so the request is left while it is still waiting.
        match tokio::time::timeout(Duration::from_millis(1500), call).await {
            Ok(response) => {
                let mut response = response.expect("an answer");
                assert_eq!(response.status().as_u16(), 200, "{what}: admitted");
                let first = response.body_mut().frame().await.expect("a first event").expect("bytes");
                let first = String::from_utf8_lossy(first.data_ref().expect("data")).into_owned();
                assert!(first.starts_with("event: progress"), "{what}: {first}");
                tokio::time::sleep(Duration::from_millis(1500)).await;
                drop(response);
            }
            Err(_) => {} // the call, dropped: its connection closes
        }
    };
    leave.await;
    let working = cpu_seconds(pid) - started;
    assert!(working > 0.5, "{what}: the work was under way ({working:.2} s of CPU)");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let settled = cpu_seconds(pid);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = cpu_seconds(pid) - settled;
    println!("{what}: {working:.2} s of CPU before leaving, {after:.2} s in the two seconds from one after");
    assert!(after < 0.2, "{what}: the server still works after its client left ({after:.2} s of CPU in 2 s)");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_request_left_by_its_client_stops_using_the_cpu_in_every_phase() {
    let farmhouse = experiment("cd_engagement_company_at_the_farmhouse.toml");
    // Five Shermans: a field large enough that its exact stage takes seconds.
    let shermans = experiment("cd_engagement_shermans_vs_panther.toml").replacen("count = 3", "count = 5", 1);
    leaving_stops("an exact stage", "/api/exact", serde_json::json!({ "scenario": shermans })).await;
    leaving_stops(
        "Monte Carlo chunks",
        "/api/run",
        serde_json::json!({ "scenario": farmhouse, "trials": 10_000_000, "mode": "literal", "exact_seconds": 0 }),
    )
    .await;
    leaving_stops(
        "a sensitivity search's changes",
        "/api/sensitivity",
        serde_json::json!({ "scenario": farmhouse, "trials": 20_000, "exact_seconds": 0.1 }),
    )
    .await;
    leaving_stops(
        "a sweep's points",
        "/api/sweep",
        serde_json::json!({
            "sweep": experiment("sweep_cd_shermans_vs_panther.toml"), "trials": 100_000, "exact_seconds": 10
        }),
    )
    .await;
    let values: Vec<u64> = (3..=16).collect();
    leaving_stops(
        "a balance's values",
        "/api/balance",
        serde_json::json!({
            "scenario": farmhouse, "vary": "engagement.range", "values": values, "trials": 200_000, "exact_seconds": 0
        }),
    )
    .await;
}
