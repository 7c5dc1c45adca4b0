//! A request whose client leaves stops its work, in every phase that may take long:
//! an exact stage, Monte Carlo chunks, a sensitivity search's changes, a sweep's points
//! and a balance's values. Each is started on a server of its own, its client leaves
//! while the work is under way, and the server's own CPU time (from /proc, so nothing
//! else on the machine counts) stops growing within a second.
//!
//! Needs `target/release/combat-odds` (the main workspace's release build).

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use combat_odds_browser_tests::{repository, serve_with};

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

/// Starts `body` at `path` on a fresh server, lets it work until the server has spent
/// half a second of CPU on it, then leaves: closes its connection, as a closed tab or
/// the page's Cancel does. The server's CPU time over two seconds, from one second
/// after leaving, must stay near idle.
async fn leaving_stops(what: &str, path: &str, body: serde_json::Value) {
    let (server, base) = serve_with(&["--exact-seconds", "60"]).await;
    let pid = server.0.id();
    let address = base.strip_prefix("http://").expect("an http address");
    let mut connection = TcpStream::connect(address).await.expect("the server takes a connection");
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let started = cpu_seconds(pid);
    connection.write_all(request.as_bytes()).await.expect("the request is sent");
    let mut answer = Vec::new();
    let patience = Instant::now() + Duration::from_secs(60);
    while cpu_seconds(pid) - started < 0.5 {
        assert!(Instant::now() < patience, "{what}: the work never got under way");
        let mut buffer = [0u8; 4096];
        tokio::select! {
            read = connection.read(&mut buffer) => answer.extend_from_slice(&buffer[..read.expect("the answer is read")]),
            _ = tokio::time::sleep(Duration::from_millis(50)) => {}
        }
        // Work answered as events sends its head at once; any other answer before
        // the work is left means it was not long work.
        let head = String::from_utf8_lossy(&answer);
        assert!(
            head.is_empty() || head.contains("text/event-stream"),
            "{what}: answered before it was left: {}",
            head.lines().next().unwrap_or_default()
        );
    }
    let working = cpu_seconds(pid) - started;
    drop(connection);
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
    // Five Shermans against two Panthers fought for 100 turns: a field the exact solver
    // takes on (five against five is now refused from its estimate at once) and works
    // at for about 20 s on this machine, turn after turn.
    let shermans = experiment("cd_engagement_shermans_vs_panther.toml")
        .replacen("count = 3", "count = 5", 1)
        .replacen("name = \"Panther\"\nquality", "name = \"Panther\"\ncount = 2\nquality", 1)
        .replacen("turns = 8", "turns = 100", 1);
    assert!(shermans.contains("count = 2\nquality = \"veteran\"") && shermans.contains("turns = 100"), "{shermans}");
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
