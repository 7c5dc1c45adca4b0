//! How the page lays out, in the server's page and the static site alike: the first
//! answer of every tab in view at 1366 by 768 (the form beside its answer, not above
//! it), every tab within a phone's 390 px (wide tables and charts scroll in a box of
//! their own), and beside a distribution of numbers its mean, the very mean of that
//! distribution.
//!
//! Needs `target/release/combat-odds`, `COMBAT_ODDS_SITE` (a folder `scripts/build-site`
//! wrote), `python3`, and Debian's `chromium` and `chromedriver` on PATH.

use std::process::{Command, Stdio};

use combat_odds_browser_tests::{Running, browser, click, free_port, listening, serve, text_when};
use fantoccini::Client;

/// The server's page: the server, the driver, a session and its address.
async fn server_page() -> (Running, Running, Client, String) {
    let (server, address) = serve().await;
    let (driver, client) = browser().await;
    (server, driver, client, format!("{address}/"))
}

/// The static site served by `python3 -m http.server`: the server, the driver, a
/// session and its address.
async fn static_site() -> (Running, Running, Client, String) {
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

/// Each tab, how its first answer is asked for, and the line that says it: Fire answers
/// on opening; an engagement is run (few literal trials); Compare runs a shipped
/// comparison as the tab opens; a sweep is run; Tables lists on opening.
const TABS: [(&str, &str, &str); 5] = [
    ("fire", "", "#p-kill"),
    (
        "run",
        "document.getElementById('run-trials').value = '20000'; \
         document.getElementById('run-mode').value = 'literal'; document.getElementById('run-start').click();",
        "#run-p-kill",
    ),
    ("compare", "", "#compare-result h2"),
    (
        "balance",
        "document.getElementById('sweep-trials').value = '2000'; document.getElementById('sweep-start').click();",
        "#sweep-result > *",
    ),
    ("tables", "", "#tables-list h3"),
];

/// Opens every tab of the page at `address` in a window `width` by `height`, asks for
/// its first answer and waits for its answer's line: per tab, (the line's bottom, the
/// window's inner height, the page's scroll width, the window's inner width).
async fn every_tab_answered(client: &Client, address: &str, width: u32, height: u32) -> Vec<(String, [f64; 4])> {
    client.set_window_size(width, height).await.unwrap();
    client.goto(address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("95%")).await;
    let mut seen = Vec::new();
    for (tab, ask, line) in TABS {
        click(client, &format!("tab-{tab}")).await;
        client.execute(ask, vec![]).await.unwrap();
        let started = std::time::Instant::now();
        let script = "const e = document.querySelector(arguments[0]); \
                      if (!e || !e.textContent.trim()) return null; \
                      return [e.getBoundingClientRect().bottom, innerHeight, \
                              document.documentElement.scrollWidth, innerWidth];";
        let measured = loop {
            let m = client.execute(script, vec![line.into()]).await.unwrap();
            if let Some(m) = m.as_array() {
                break [0, 1, 2, 3].map(|i| m[i].as_f64().unwrap());
            }
            assert!(started.elapsed().as_secs() < 120, "{tab}: no answer ({line}) within two minutes");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        };
        seen.push((tab.to_string(), measured));
    }
    seen
}

/// Every tab's answer line in view at 1366 by 768 once it is answered, under the
/// page's one-line intro.
async fn the_answer_is_above_the_fold(client: &Client, address: &str) {
    for (tab, [bottom, height, _, _]) in every_tab_answered(client, address, 1366, 768).await {
        assert!(bottom <= height, "{tab}: the answer's line ends at {bottom} px, below the fold at {height} px");
    }
    let intro = client.execute("return document.querySelector('header .intro').textContent;", vec![]).await.unwrap();
    assert!(intro.as_str().unwrap().starts_with("Pick a fight, change anything in it, and read the odds"), "{intro}");
}

/// Every tab, answered, within a phone's 390 px; the Compare chart's text at least 11
/// px as drawn (it scrolls in its own box rather than shrinking).
async fn every_tab_fits_a_phone(client: &Client, address: &str) {
    for (tab, [_, _, page, window]) in every_tab_answered(client, address, 390, 844).await {
        assert!(window <= 400.0 && page <= 390.0, "{tab}: the page is {page} px wide in a {window} px window");
    }
    click(client, "tab-compare").await;
    let script = "const svg = document.getElementById('compare-chart'); \
                  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; \
                  return Math.min(...[...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')) * scale));";
    let smallest = client.execute(script, vec![]).await.unwrap().as_f64().unwrap();
    assert!(smallest >= 11.0, "the chart's smallest text is {smallest} px on a phone");
    // Its parts are headed, its progress bars named, its answers announced.
    let script = "return [document.querySelectorAll('#fire h2, #run h2, #compare h2, #tables h2').length, \
                  [...document.querySelectorAll('progress')].filter((p) => !p.getAttribute('aria-label')).length, \
                  document.getElementById('fire-said').textContent, document.getElementById('compare-said').textContent];";
    let a11y = client.execute(script, vec![]).await.unwrap();
    assert!(a11y[0].as_u64().unwrap() >= 6, "{a11y}");
    assert_eq!(a11y[1], 0, "a progress bar without a name: {a11y}");
    assert!(a11y[2].as_str().unwrap().starts_with("Chance the target is eliminated: exact 66.36%"), "{a11y}");
    assert!(a11y[3].as_str().unwrap().contains("against"), "{a11y}");
}

/// Beside Fire's distribution of hits, its mean: exactly 6/5 (0 hits 4/25, 1 hit 12/25,
/// 2 hits 9/25: 12/25 + 2 * 9/25 = 30/25), and the Monte Carlo mean of the counts the
/// report holds, each as the report's distribution gives it.
async fn the_mean_is_the_distribution_s(client: &Client, address: &str) {
    client.goto(address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("95%")).await;
    let script = "const done = arguments[0]; \
                  fetch(document.getElementById('fire-report-json').href).then((r) => r.json()).then((r) => { \
                    const hits = r.measures.find((m) => m.measure === 'hits'); \
                    const exact = hits.outcomes.reduce((s, o) => s + Number(o.outcome) * o.exact, 0); \
                    const n = hits.outcomes.reduce((s, o) => s + o.count, 0); \
                    const estimate = hits.outcomes.reduce((s, o) => s + Number(o.outcome) * o.count, 0) / n; \
                    const shown = document.querySelector('#fire-result .mean[data-measure=hits]'); \
                    const table = shown.nextElementSibling.querySelector('table'); \
                    done([shown.textContent, exact.toFixed(4), estimate.toFixed(4), !!table]); });";
    let seen = client.execute_async(script, vec![]).await.unwrap();
    let [shown, exact, estimate] = [0, 1, 2].map(|i| seen[i].as_str().unwrap().to_string());
    assert_eq!(exact, "1.2000");
    assert!(shown.starts_with(&format!("Mean hits: {exact} exactly (6/5); Monte Carlo {estimate} (95%: ")), "{shown}");
    assert_eq!(seen[3], true, "the mean is beside the distribution's table");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_servers_page_answers_above_the_fold() {
    let (_server, _driver, client, address) = server_page().await;
    the_answer_is_above_the_fold(&client, &address).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_answers_above_the_fold() {
    let (_server, _driver, client, address) = static_site().await;
    the_answer_is_above_the_fold(&client, &address).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_servers_page_fits_a_phone() {
    let (_server, _driver, client, address) = server_page().await;
    every_tab_fits_a_phone(&client, &address).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_fits_a_phone() {
    let (_server, _driver, client, address) = static_site().await;
    every_tab_fits_a_phone(&client, &address).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_servers_page_gives_each_distribution_its_mean() {
    let (_server, _driver, client, address) = server_page().await;
    the_mean_is_the_distribution_s(&client, &address).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_gives_each_distribution_its_mean() {
    let (_server, _driver, client, address) = static_site().await;
    the_mean_is_the_distribution_s(&client, &address).await;
    client.close().await.unwrap();
}
