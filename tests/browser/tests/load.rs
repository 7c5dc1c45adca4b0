//! The server under a bounded load on loopback: 200 exact requests at once, three
//! times over, and four long runs at once with a fifth refused; and a flood of idle
//! connections. Every request is answered, none is lost, and the server's memory stays
//! bounded. The figures
//! (latencies, resident memory) are printed for the closing note; only correctness is
//! asserted.
//!
//! Needs `target/release/combat-odds` (the main workspace's release build).

use std::time::Instant;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use combat_odds_browser_tests::{repository, serve};

/// Resident memory of `pid` in KiB, from /proc.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc is readable");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("a VmRSS line");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("a number of KiB")
}

type Http = Client<HttpConnector, Full<Bytes>>;

/// POSTs JSON and reads the whole answer: (status, body, seconds taken).
async fn post(client: &Http, url: &str, body: &serde_json::Value) -> (u16, String, f64) {
    let started = Instant::now();
    let response = client.request(http_request(url, body)).await.expect("an answer");
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.expect("a whole body").to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned(), started.elapsed().as_secs_f64())
}

fn http_request(url: &str, body: &serde_json::Value) -> hyper::Request<Full<Bytes>> {
    hyper::Request::post(url)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a request")
}

fn median_and_max(mut seconds: Vec<f64>) -> (f64, f64) {
    seconds.sort_by(f64::total_cmp);
    (seconds[seconds.len() / 2] * 1e3, seconds[seconds.len() - 1] * 1e3)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_request_is_answered_under_load_and_memory_stays_bounded() {
    let (server, base) = serve().await;
    let pid = server.0.id();
    let client: Http = Client::builder(TokioExecutor::new()).build_http();
    let duel = std::fs::read_to_string(repository().join("experiments/cd_tank_duel.toml")).unwrap();
    let fire = serde_json::json!({ "scenario": duel, "trials": 1000 });
    let (status, _, _) = post(&client, &format!("{base}/api/fire"), &fire).await;
    assert_eq!(status, 200);
    let rss_start = resident_kib(pid);

    // 200 exact requests at once, three times: every one answered with the exact p_kill.
    let mut latencies = Vec::new();
    let mut rss_rounds = Vec::new();
    for _ in 0..3 {
        let requests = (0..200).map(|_| {
            let (client, url, fire) = (client.clone(), format!("{base}/api/fire"), fire.clone());
            tokio::spawn(async move { post(&client, &url, &fire).await })
        });
        for answer in futures_join(requests.collect()).await {
            let (status, body, seconds) = answer;
            assert_eq!(status, 200, "{body}");
            assert!(body.contains("\"exact\":0.6636"), "the exact answer: {}", &body[..200.min(body.len())]);
            latencies.push(seconds);
        }
        rss_rounds.push(resident_kib(pid));
    }
    assert_eq!(latencies.len(), 600, "none lost");

    // Four long runs at once (the server's default limit), each read to its result; a
    // fifth, asked while they run, is refused with the reason.
    let farmhouse =
        std::fs::read_to_string(repository().join("experiments/cd_engagement_company_at_the_farmhouse.toml")).unwrap();
    let long = serde_json::json!({ "scenario": farmhouse, "trials": 2_000_000, "mode": "literal" });
    let mut streams = Vec::new();
    for _ in 0..4 {
        let response = client.request(http_request(&format!("{base}/api/run"), &long)).await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        streams.push(response);
    }
    let (status, body, _) = post(&client, &format!("{base}/api/run"), &long).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("busy: 4 long runs are under way"), "{body}");
    let runs_started = Instant::now();
    let mut rss_peak = 0;
    let mut results = 0;
    for response in streams {
        let text = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&text);
        rss_peak = rss_peak.max(resident_kib(pid));
        assert!(text.contains("event: result"), "every run ends in its result");
        results += 1;
    }
    let runs_seconds = runs_started.elapsed().as_secs_f64();
    assert_eq!(results, 4);
    let rss_end = resident_kib(pid);

    let (median, max) = median_and_max(latencies);
    println!(
        "load: 600 exact fire requests (200 at once x 3): median {median:.1} ms, max {max:.1} ms; \
         4 concurrent runs of 2,000,000 literal trials: {runs_seconds:.1} s; \
         resident memory {rss_start} KiB at start, {rss_rounds:?} KiB after each round, \
         {rss_peak} KiB peak during the runs, {rss_end} KiB at the end"
    );
    // Bounded: no request's memory is kept (kept run files are a few KiB each).
    assert!(rss_end < rss_start + 128 * 1024, "resident memory grew from {rss_start} to {rss_end} KiB");
}

/// Awaits every task, in order.
async fn futures_join<T: Send + 'static>(tasks: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::with_capacity(tasks.len());
    for task in tasks {
        out.push(task.await.expect("the request task"));
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn a_flood_of_idle_connections_holds_little_memory_and_the_page_answers_after() {
    use tokio::io::AsyncWriteExt;
    let (server, base) = serve().await;
    let pid = server.0.id();
    let address = base.trim_start_matches("http://").to_string();
    let rss_start = resident_kib(pid);
    // 10,000 connections, each sending half a request's headers and no more (the
    // server serves 256 at once and closes each after 10 s without whole headers; the
    // rest wait in the system's queue, or are not accepted at all).
    let started = Instant::now();
    let connects = (0..10_000).map(|_| {
        let address = address.clone();
        tokio::spawn(async move {
            let connect = tokio::net::TcpStream::connect(address);
            let mut stream = tokio::time::timeout(std::time::Duration::from_secs(3), connect).await.ok()?.ok()?;
            stream.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n").await.ok()?;
            Some(stream)
        })
    });
    let flood: Vec<_> = futures_join(connects.collect()).await.into_iter().flatten().collect();
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let rss_flood = resident_kib(pid);
    let opened = flood.len();
    let flood_seconds = started.elapsed().as_secs_f64();
    drop(flood);
    // The flood gone, the page answers at once.
    let client: Http = Client::builder(TokioExecutor::new()).build_http();
    let asked = Instant::now();
    let response = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        client.get(format!("{base}/api/rulesets").parse().unwrap()),
    )
    .await
    .expect("answered within 30 s of the flood")
    .expect("an answer");
    assert_eq!(response.status().as_u16(), 200);
    let after = asked.elapsed().as_secs_f64();
    println!(
        "flood: {opened} of 10,000 connections opened in {flood_seconds:.1} s; resident memory {rss_start} KiB before, \
         {rss_flood} KiB during; the next request answered {after:.2} s after the flood closed"
    );
    // Unbounded, 20,000 such connections held 396 MB; bounded, a few MB.
    assert!(rss_flood < rss_start + 48 * 1024, "resident memory grew from {rss_start} to {rss_flood} KiB");
}
