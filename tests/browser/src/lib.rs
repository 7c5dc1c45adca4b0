//! What the browser and load tests under `tests/` share: the repository, a child
//! process that dies with its guard, the page's server started on a free port, a
//! headless Chromium session, and the waits and clicks every page test makes.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

// The suite's own, shared by its path: the two workspaces build no crate in common.
#[path = "../../suite/common/own_catalogue.rs"]
mod own_catalogue;
#[path = "../../suite/common/crowded.rs"]
mod crowded;
pub use crowded::crowded;

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

/// The static site `COMBAT_ODDS_SITE` (a folder `scripts/build-site` wrote) served by
/// `python3 -m http.server` on a free port, and a browser session: the server, the
/// driver, the session and the site's address.
pub async fn static_site() -> (Running, Running, Client, String) {
    let folder = std::env::var("COMBAT_ODDS_SITE")
        .expect("set COMBAT_ODDS_SITE to a folder scripts/build-site wrote (scripts/build-site /tmp/site)");
    let port = free_port();
    let server = Running(
        Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1", "--directory", &folder, &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 serves the site"),
    );
    listening(port).await;
    let (driver, client) = browser().await;
    (server, driver, client, format!("http://127.0.0.1:{port}/"))
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

/// What the server's page and the static site must both do with a catalogue of the
/// player's own, on the page at `address`: the KwK 42's long band hitting on 3, not 5,
/// loaded beside the form, read by the answer exactly as `combat-odds fire --rules DIR`
/// reads it, a fault in it told beside it by its name and line, and the rules' own read
/// again when it is dropped.
pub async fn own_catalogue_read_by_the_answer(client: &Client, address: &str) {
    let own = own_catalogue::own_catalogue();
    let dir = std::env::temp_dir().join(format!("combat-odds-page-catalogue-{}-{}", std::process::id(), free_port()));
    std::fs::create_dir_all(dir.join("rules/command-decision")).unwrap();
    let (mine, broken) = (dir.join("my_tanks.toml"), dir.join("broken.toml"));
    std::fs::write(&mine, &own).unwrap();
    std::fs::write(dir.join("rules/command-decision/catalogue.toml"), &own).unwrap();
    std::fs::write(&broken, own.replacen("rof = \"2\"", "rof = \"two\"", 1)).unwrap();

    client.goto(address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("exact 66.36%")).await;
    // Folded away until asked for: a player with no file of their own is not asked.
    client.execute("document.getElementById('fire-catalogue-box').open = true;", vec![]).await.unwrap();
    let status = text_when(client, "fire-catalogue-status", |t| !t.is_empty()).await;
    assert_eq!(status, "The rules' own Example weapon and vehicle catalogue (Command Decision) is read.");
    let input = client.find(Locator::Id("fire-catalogue-import")).await.unwrap();
    input.send_keys(mine.to_str().unwrap()).await.unwrap();
    // Their file stands in for the catalogue, by its own name and the table's title.
    let status = text_when(client, "fire-catalogue-status", |t| t.starts_with("Your my_tanks.toml")).await;
    assert!(status.contains("in place of Example weapon and vehicle catalogue (Command Decision)"), "{status}");
    // 16 in. is the long band, and a hit is a d10 at or under the hit number: 3 +1
    // veteran = 4 hits 4/10 a die, not 6/10. A hit eliminates 7/10 (d10 +3 on the
    // regular row), so each of the 2 dice kills 0.28 and the turn 1 - 0.72^2 = 48.16%,
    // where the rules' file gives 1 - (1 - 0.42)^2 = 66.36%. The form names the gun as
    // their file does.
    text_when(client, "p-kill", |t| t.contains("exact 48.16%")).await;
    text_when(client, "fire-form", |t| t.contains("My KwK 42")).await;
    // The command line reads the same file in a rules folder to the same answer, and
    // the page names that command.
    let cli = Command::new(repository().join("target/release/combat-odds"))
        .args(["fire", "--format", "json", "--rules"])
        .arg(dir.join("rules"))
        .output()
        .expect("the binary runs");
    let report: serde_json::Value = serde_json::from_slice(&cli.stdout).expect("fire's JSON");
    let exact = report["p_kill"]["exact"].as_f64().expect("an exact p_kill");
    assert!((exact - 0.4816).abs() < 1e-12, "1 - 0.72^2 = 0.4816: {report}");
    let command = text_when(client, "fire-command", |t| t.contains("--rules")).await;
    assert!(command.starts_with("combat-odds fire experiments/cd_tank_duel.toml "), "{command}");

    // A fault in their file is said beside it, by its name and line, not a path, and
    // the form keeps every field (the rules' own tables offer them meanwhile).
    let fields = "return document.querySelectorAll('#fire-form [data-key]').length;";
    let before = client.execute(fields, vec![]).await.unwrap();
    let input = client.find(Locator::Id("fire-catalogue-import")).await.unwrap();
    input.send_keys(broken.to_str().unwrap()).await.unwrap();
    let error = text_when(client, "fire-catalogue-error", |t| !t.is_empty()).await;
    assert!(error.starts_with("In your broken.toml, line "), "{error}");
    assert!(!error.contains("/tmp") && !error.contains("combat-odds-own"), "{error}");
    let started = Instant::now();
    while client.execute(fields, vec![]).await.unwrap() != before {
        assert!(started.elapsed() < Duration::from_secs(60), "the form lost fields: {before} before");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Back to the rules' own: the rules' answer again.
    click(client, "fire-catalogue-forget").await;
    text_when(client, "fire-catalogue-status", |t| t.starts_with("The rules' own ")).await;
    text_when(client, "p-kill", |t| t.contains("exact 66.36%")).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What the server's page and the static site must both do with the catalogue editor,
/// on the page at `address`: the KwK 42's long band changed from hit 5 to 3 in the
/// editor (no file written by hand) changes the answer exactly as `combat-odds fire
/// --rules DIR` does with the file the editor exports, the invented-data note stops
/// naming the gun but still names the Sherman, and the page's share link gives the
/// same answer in a fresh browser that never saw the editor.
pub async fn catalogue_editor_answers_as_rules_dir_and_travels_by_link(client: &Client, address: &str) {
    client.goto(address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("exact 66.36%")).await;
    let invented = text_when(client, "p-kill-invented", |t| !t.is_empty()).await;
    assert!(invented.contains("75mm KwK 42"), "{invented}");
    client.execute("document.getElementById('fire-catalogue-box').open = true;", vec![]).await.unwrap();
    text_when(client, "fire-catalogue-entry", |t| t.contains("75mm KwK 42")).await;
    let pick = "const s = document.getElementById('fire-catalogue-entry'); s.value = 'weapon.de_75mm_kwk42'; \
                s.dispatchEvent(new Event('change'));";
    client.execute(pick, vec![]).await.unwrap();
    // Each field in the rules' words, and the stats of the gun the form picked beside it.
    let fields =
        text_when(client, "fire-catalogue-fields", |t| t.contains("Long band") && t.contains("hit number")).await;
    assert!(fields.contains("Rate of fire (ROF)"), "{fields}");
    let stats = client
        .execute(
            "return [...document.querySelectorAll('#fire-form .stats')].map((e) => e.textContent).join(' | ');",
            vec![],
        )
        .await
        .unwrap();
    assert!(stats.as_str().unwrap_or_default().contains("Long band: hit number5"), "{stats}");
    // A hit number the loader refuses is said beside its field, and the answer kept.
    let set = "const e = document.querySelector('#fire-catalogue-fields [data-field=\"long.hit\"]'); \
               e.value = arguments[0]; e.dispatchEvent(new Event('change'));";
    client.execute(set, vec!["25".into()]).await.unwrap();
    let beside = client.find(Locator::Css("#fire-catalogue-fields [data-error-for=\"long.hit\"]")).await.unwrap();
    let started = Instant::now();
    while beside.text().await.unwrap_or_default().is_empty() {
        assert!(started.elapsed() < Duration::from_secs(60), "no message beside the hit number");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let said = beside.text().await.unwrap();
    assert!(said.contains("hit number 25 is out of range; it must be from -10 to 20"), "{said}");
    text_when(client, "fire-stale", |t| t.starts_with("This answer is for the inputs before")).await;

    // 16 in. is the long band: 3 +1 veteran = 4 hits 4/10 a die; a hit eliminates 7/10,
    // so each of the 2 dice kills 0.28 and the turn 1 - 0.72^2 = 48.16%.
    client.execute(set, vec!["3".into()]).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("exact 48.16%")).await;
    let invented = text_when(client, "p-kill-invented", |t| !t.contains("KwK")).await;
    assert!(invented.contains("M4 Sherman"), "the Sherman is still invented: {invented}");

    // The file the editor exports, in a rules folder, read by the command line.
    let kept = client
        .execute("return JSON.parse(localStorage.getItem('combat-odds-own-tables'))['command-decision']['catalogue.toml'].text;", vec![])
        .await
        .unwrap();
    let dir = std::env::temp_dir().join(format!("combat-odds-editor-{}-{}", std::process::id(), free_port()));
    std::fs::create_dir_all(dir.join("command-decision")).unwrap();
    std::fs::write(dir.join("command-decision/catalogue.toml"), kept.as_str().unwrap()).unwrap();
    let cli = Command::new(repository().join("target/release/combat-odds"))
        .args(["fire", "--format", "json", "--rules"])
        .arg(&dir)
        .output()
        .expect("the binary runs");
    let report: serde_json::Value = serde_json::from_slice(&cli.stdout).expect("fire's JSON");
    let exact = report["p_kill"]["exact"].as_f64().expect("an exact p_kill");
    assert!((exact - 0.4816).abs() < 1e-12, "1 - 0.72^2 = 0.4816: {report}");
    let named: Vec<String> = serde_json::from_value(report["invented"].clone()).unwrap();
    assert!(!named.iter().any(|n| n.contains("KwK")) && named.iter().any(|n| n.contains("Sherman")), "{named:?}");
    std::fs::remove_dir_all(&dir).unwrap();

    // A copy to change: offered at once among the weapons a firer may take.
    click(client, "fire-catalogue-copy").await;
    text_when(client, "fire-catalogue-entry", |t| t.contains("75mm KwK 42 L/70 tank gun, AP, copy (yours)")).await;
    text_when(client, "fire-form", |t| t.contains("75mm KwK 42 L/70 tank gun, AP, copy")).await;

    // The share link, in a browser that never saw this one's storage.
    let link = client.current_url().await.unwrap().to_string();
    assert!(link.contains("tables="), "{link}");
    let (_driver, fresh) = browser().await;
    fresh.goto(&link).await.unwrap();
    text_when(&fresh, "p-kill", |t| t.contains("exact 48.16%")).await;
    fresh.close().await.unwrap();
}

/// What the server's page and the static site must both do with a request refused, on
/// the page at `address`: too many trials said beside the trials field, an unknown
/// weapon beside the file, and each time the answer on screen marked as no longer the
/// form's (never a "failed" line over a number that looks current).
pub async fn refusals_said_beside_their_field_grey_the_answer(client: &Client, address: &str) {
    client.goto(address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("exact 66.36%")).await;
    let script = "document.getElementById('fire-trials').value = arguments[0]; \
                  document.getElementById('fire-compute').click();";
    client.execute(script, vec!["99999999999".into()]).await.unwrap();
    let beside = text_when(client, "fire-trials-error", |t| !t.is_empty()).await;
    assert_eq!(beside, "Monte Carlo trials 99999999999: at most 10000000 per request");
    text_when(client, "fire-stale", |t| t.starts_with("This answer is for the inputs before")).await;

    // Trials the engine takes again: the answer is the form's once more.
    client.execute(script, vec!["20000".into()]).await.unwrap();
    text_when(client, "fire-status", |t| t.starts_with("done")).await;
    assert!(client.find(Locator::Id("fire-stale")).await.is_err(), "a fresh answer is not marked stale");
    let edit = "const t = document.getElementById('fire-scenario'); \
                t.value = t.value.replace(/weapon = \"[^\"]+\"/, 'weapon = \"tiger_88\"'); \
                t.dispatchEvent(new Event('change'));";
    client.execute(edit, vec![]).await.unwrap();
    text_when(client, "fire-stale", |t| t.starts_with("This answer is for the inputs before")).await;
    let said = client
        .execute(
            "return [...document.querySelectorAll('#fire-editor .error')].map((e) => e.textContent).join(' | ');",
            vec![],
        )
        .await
        .unwrap();
    let said = said.as_str().unwrap_or_default().to_string();
    assert!(said.contains("tiger_88"), "the unknown weapon is named beside the file: {said}");
    let status = client.find(Locator::Id("fire-status")).await.unwrap().text().await.unwrap();
    assert!(!status.starts_with("failed"), "{status}");
}

/// No word of the files reaches the player: no catalogue id (`de_75mm_pak40`), no
/// vocabulary word (`pak40`, `medium_tank`), no seed file.
pub fn assert_no_ids(text: &str) {
    for id in ["pak40", "17pdr", "medium_tank", "de_75mm", "uk_17pdr", "m4_sherman", "hmg_platoon", ".txt", ".toml"] {
        assert!(!text.contains(id), "`{id}` on the page: {text}");
    }
}
