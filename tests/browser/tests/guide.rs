//! The user guide published with the page: the static site (`scripts/build-site`) holds
//! the guide (docs/, built by mdBook) in its `guide/`, and its header links it. Served
//! under a sub-path, as a project's GitHub Pages serve it, the link leads to the guide's
//! first chapter, whose chapters, pictures and included files (the interpretations, the
//! CI workflow) load from the site itself and nothing from elsewhere. The server's page,
//! which has no guide to link, shows no such link.
//!
//! Needs `COMBAT_ODDS_SITE` (a folder `scripts/build-site` wrote), `target/release/
//! combat-odds`, `python3`, and Debian's `chromium` and `chromedriver` on PATH.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use combat_odds_browser_tests::{Running, browser, free_port, listening, serve};
use fantoccini::{Client, Locator};

/// The built site, served by `python3 -m http.server` under `/combat-odds/` (a folder
/// holding only a link to the site): the static server, the folder and the address of
/// the page.
async fn site_under_a_path() -> (Running, tempdir::Folder, String) {
    let site = std::env::var("COMBAT_ODDS_SITE")
        .expect("set COMBAT_ODDS_SITE to a folder scripts/build-site wrote (scripts/build-site /tmp/site)");
    let site = std::path::Path::new(&site).canonicalize().expect("COMBAT_ODDS_SITE is a folder");
    let root = tempdir::Folder::new();
    std::os::unix::fs::symlink(&site, root.0.join("combat-odds")).expect("a link to the site");
    let port = free_port();
    let server = Running(
        Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1", "--directory"])
            .arg(&root.0)
            .arg(port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 serves the site"),
    );
    listening(port).await;
    (server, root, format!("http://127.0.0.1:{port}/combat-odds/"))
}

/// A scratch folder removed when dropped.
mod tempdir {
    pub struct Folder(pub std::path::PathBuf);

    impl Folder {
        pub fn new() -> Folder {
            let path =
                std::env::temp_dir().join(format!("combat-odds-guide-{}-{}", std::process::id(), super::free_port()));
            std::fs::create_dir_all(&path).expect("a scratch folder");
            Folder(path)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The value of `script` once `done` holds for it, or a failure naming what was seen.
async fn when(client: &Client, script: &str, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await.unwrap_or(serde_json::Value::Null);
        if done(&value) {
            return value;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{script} gave {value}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_sites_header_links_its_guide_and_the_guide_loads_from_the_site() {
    let (_server, _root, address) = site_under_a_path().await;
    let (_driver, client) = browser().await;
    client.set_window_size(1366, 768).await.unwrap();
    client.goto(&address).await.unwrap();
    // The link is in the header, shown, small, and relative to the page.
    let link = client.find(Locator::Css("header a.guide")).await.expect("the header links the guide");
    assert!(link.is_displayed().await.unwrap(), "the guide link is shown in the static site");
    assert_eq!(link.text().await.unwrap(), "Guide");
    assert_eq!(link.attr("href").await.unwrap().as_deref(), Some("guide/"));
    let header = client
        .execute("return document.querySelector('header').getBoundingClientRect().height;", vec![])
        .await
        .unwrap();
    assert!(header.as_f64().unwrap() < 100.0, "the header stays small at 1366x768: {header} px");

    link.click().await.unwrap();
    let title = when(&client, "return document.title;", |t| t.as_str().is_some_and(|t| t.contains("the guide"))).await;
    assert_eq!(title, "Introduction - combat-odds: the guide");
    assert_eq!(client.current_url().await.unwrap().as_str(), format!("{address}guide/"));
    let main = client.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
    assert!(main.contains("cargo run --release -- fire"), "the first chapter holds the two commands: {main}");

    // Every chapter is in the table of contents; a chapter with its included workflow,
    // and the interpretations, included from docs/interpretations.md, load.
    let chapters = when(
        &client,
        "return [...document.querySelectorAll('#sidebar a[href$=\".html\"]')].map((a) => a.textContent.trim());",
        |list| list.as_array().is_some_and(|l| l.len() >= 20),
    )
    .await;
    for chapter in ["The regression gate", "Adding a ruleset", "What a turn plays", "Interpretations", "Glossary"] {
        assert!(
            chapters.as_array().unwrap().iter().any(|c| c.as_str().unwrap().ends_with(chapter)),
            "{chapter} in {chapters}"
        );
    }
    client.goto(&format!("{address}guide/regress.html")).await.unwrap();
    let main = client.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
    assert!(main.contains("combat-odds regress --rules house-rules --suite suite.toml --diff regress.csv"), "{main}");
    client.goto(&format!("{address}guide/interpretations.html")).await.unwrap();
    let main = client.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
    assert!(main.contains("Interpretations of the seed text"), "{main}");

    // The page's pictures load, and nothing came from anywhere but the site.
    client.goto(&format!("{address}guide/page.html")).await.unwrap();
    let pictures = when(
        &client,
        "const images = [...document.querySelectorAll('main img')]; \
         return images.length > 0 && images.every((i) => i.complete) ? images.map((i) => i.naturalWidth) : null;",
        |widths| widths.is_array(),
    )
    .await;
    assert!(pictures.as_array().unwrap().iter().all(|w| w.as_u64().unwrap() > 0), "every picture loads: {pictures}");
    let fetched =
        client.execute("return performance.getEntriesByType('resource').map((e) => e.name);", vec![]).await.unwrap();
    let origin = address.trim_end_matches("combat-odds/");
    for name in fetched.as_array().unwrap() {
        assert!(name.as_str().unwrap().starts_with(origin), "the guide fetched {name} from elsewhere");
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_servers_page_shows_no_guide_link() {
    let (_server, address) = serve().await;
    let (_driver, client) = browser().await;
    client.goto(&format!("{address}/")).await.unwrap();
    let link = client.find(Locator::Css("header a.guide")).await.expect("the link is in the markup");
    assert!(!link.is_displayed().await.unwrap(), "the server has no guide to link");
    client.close().await.unwrap();
}
