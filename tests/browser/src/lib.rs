//! What the browser and load tests under `tests/` share: the repository, a child
//! process that dies with its guard, the page's server started on a free port, a
//! headless Chromium session, and the waits and clicks every page test makes.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

/// A child process killed when dropped, so a failed test leaves nothing running.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The repository this workspace sits in.
pub fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// Waits until `port` on loopback accepts connections.
pub async fn listening(port: u16) {
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "nothing listens on port {port}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `combat-odds serve` (the main workspace's release build) on a free port, listening:
/// the process and its address.
pub async fn serve() -> (Running, String) {
    serve_with(&[]).await
}

/// [`serve`] with `flags` besides the port.
pub async fn serve_with(flags: &[&str]) -> (Running, String) {
    let binary = repository().join("target/release/combat-odds");
    assert!(binary.exists(), "build the binary first: cargo build --release ({})", binary.display());
    let port = free_port();
    let server = Running(
        Command::new(&binary)
            .args(["serve", "--port", &port.to_string()])
            .args(flags)
            .stdout(Stdio::null())
            .spawn()
            .expect("the server starts"),
    );
    listening(port).await;
    (server, format!("http://127.0.0.1:{port}"))
}

/// Chromium, headless, driven by Debian's `chromedriver` on a free port: the driver
/// process (the session ends with it) and the session.
pub async fn browser() -> (Running, Client) {
    let driver_port = free_port();
    let driver = Running(
        Command::new("chromedriver")
            .arg(format!("--port={driver_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian's chromium-driver) is installed"),
    );
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
    (driver, client)
}

/// The text of element `id` once `done` holds for it, or a failure naming what was seen.
pub async fn text_when(client: &Client, id: &str, done: impl Fn(&str) -> bool) -> String {
    let started = Instant::now();
    loop {
        if let Ok(e) = client.find(Locator::Id(id)).await
            && let Ok(text) = e.text().await
            && done(&text)
        {
            return text;
        }
        // Long work on a loaded 2-core machine (all page tests at once) takes its time;
        // the wait ends as soon as the text is there.
        if started.elapsed() > Duration::from_secs(120) {
            let seen = match client.find(Locator::Id(id)).await {
                Ok(e) => e.text().await.unwrap_or_default(),
                Err(_) => "(no element)".into(),
            };
            // What the page said instead: its error lines and refusals beside buttons.
            let said = client
                .execute(
                    "return [...document.querySelectorAll('.error, [id$=\"-too-heavy\"]')]\
                     .filter((e) => e.textContent.trim()).map((e) => `#${e.id}: ${e.textContent}`).join(' | ');",
                    vec![],
                )
                .await
                .map(|said| said.as_str().unwrap_or_default().to_owned())
                .unwrap_or_default();
            panic!("#{id} never became what was waited for; it reads: {seen}; the page says: {said}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Sets a form field (found by its key in the file) and lets the page hear the change.
pub async fn set_field(client: &Client, key: &str, value: &str) {
    let script = "const e = document.querySelector(`[data-key=\"${arguments[0]}\"]`); \
                  e.value = arguments[1]; e.dispatchEvent(new Event('change'));";
    client.execute(script, vec![key.into(), value.into()]).await.expect("the field is set");
}

/// Clicks element `id`.
pub async fn click(client: &Client, id: &str) {
    client.find(Locator::Id(id)).await.unwrap().click().await.unwrap();
}

/// Opens the Engagement page (of the server's page or the static site at `address`) on
/// a shipped scenario with `trials` literal trials.
pub async fn engagement(client: &Client, address: &str, scenario: &str, trials: &str) {
    client.goto(address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("exact")).await;
    click(client, "tab-run").await;
    let script = "const s = document.getElementById('run-shipped'); s.value = arguments[0]; \
                  s.dispatchEvent(new Event('change')); \
                  document.getElementById('run-trials').value = arguments[1]; \
                  document.getElementById('run-mode').value = 'literal';";
    client.execute(script, vec![scenario.into(), trials.into()]).await.unwrap();
}
