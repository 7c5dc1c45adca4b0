//! The page in headless Chromium: the numbers the CLI prints, a change of range, a
//! shared link, a bad value's message, and a screenshot of the page for the README.
//!
//! Needs `target/release/combat-odds` (the main workspace's release build), Debian's
//! `chromium` and `chromedriver` on PATH.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

/// A child process killed when dropped, so a failed test leaves nothing running.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// Waits until `port` on loopback accepts connections.
async fn listening(port: u16) {
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "nothing listens on port {port}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The page's server and a browser session on it.
async fn session() -> (Running, Running, Client, String) {
    let binary = repository().join("target/release/combat-odds");
    assert!(binary.exists(), "build the binary first: cargo build --release ({})", binary.display());
    let port = free_port();
    let server = Running(
        Command::new(&binary)
            .args(["serve", "--port", &port.to_string()])
            .stdout(Stdio::null())
            .spawn()
            .expect("the server starts"),
    );
    let driver_port = free_port();
    let driver = Running(
        Command::new("chromedriver")
            .arg(format!("--port={driver_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian's chromium-driver) is installed"),
    );
    listening(port).await;
    listening(driver_port).await;
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({ "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600"] }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("a browser session");
    (server, driver, client, format!("http://127.0.0.1:{port}/"))
}

/// The text of element `id` once `done` holds for it, or a failure naming what was seen.
async fn text_when(client: &Client, id: &str, done: impl Fn(&str) -> bool) -> String {
    let started = Instant::now();
    loop {
        if let Ok(e) = client.find(Locator::Id(id)).await
            && let Ok(text) = e.text().await
            && done(&text)
        {
            return text;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let seen = match client.find(Locator::Id(id)).await {
                Ok(e) => e.text().await.unwrap_or_default(),
                Err(_) => "(no element)".into(),
            };
            panic!("#{id} never became what was waited for; it reads: {seen}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Sets the scenario text and asks for the numbers.
async fn compute(client: &Client, scenario: &str) {
    client
        .execute("document.getElementById('scenario').value = arguments[0];", vec![scenario.into()])
        .await
        .expect("the scenario is set");
    client.find(Locator::Id("compute")).await.unwrap().click().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_answers_what_the_cli_prints_follows_a_change_and_a_shared_link() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    // The embedded duel on first opening: exact p_kill 1659/2500 = 0.6636, as `fire` prints.
    let first = text_when(&client, "p-kill", |t| t.contains("exact 0.663600")).await;
    assert!(first.starts_with("p_kill (target = eliminated)"), "{first}");
    let screenshot = client.screenshot().await.expect("a screenshot");
    std::fs::write(repository().join("docs/page-fire.png"), screenshot).expect("docs/ is writable");

    // At 30 in. the Panther's gun is in another band: the answer changes.
    let duel = std::fs::read_to_string(repository().join("experiments/cd_tank_duel.toml")).unwrap();
    compute(&client, &duel.replacen("range = 16", "range = 30", 1)).await;
    let far = text_when(&client, "p-kill", |t| t.contains("exact") && !t.contains("exact 0.663600")).await;

    // The address now holds the whole set-up: opening it elsewhere gives the same numbers.
    let link = client.current_url().await.unwrap().to_string();
    assert!(link.contains("#") && link.contains("scenario="), "{link}");
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    let again = text_when(&client, "p-kill", |t| t.contains("exact")).await;
    assert_eq!(again, far, "a shared link reproduces the numbers, seed and all");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_value_is_named_beside_the_scenario_or_its_field() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    let duel = std::fs::read_to_string(repository().join("experiments/cd_tank_duel.toml")).unwrap();
    compute(&client, &duel.replacen("range = 16", "range = -3", 1)).await;
    let message = text_when(&client, "scenario-error", |t| !t.is_empty()).await;
    assert!(message.starts_with("page.toml:7:"), "the message names the place: {message}");

    // A bad number of trials is named beside its own field.
    client.execute("document.getElementById('trials').value = '0';", vec![]).await.unwrap();
    compute(&client, &duel).await;
    let message = text_when(&client, "trials-error", |t| !t.is_empty()).await;
    assert_eq!(message, "trials must be at least 1");
    client.close().await.unwrap();
}
