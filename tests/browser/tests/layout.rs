//! How the page lays out, in the server's page and the static site alike: the first
//! answer of every tab in view at 1366 by 768 (the form beside its answer, not above
//! it), every tab within a phone's 390 px (wide tables and charts scroll in a box of
//! their own), and beside a distribution of numbers its mean, the very mean of that
//! distribution.
//!
//! Needs `target/release/combat-odds`, `COMBAT_ODDS_SITE` (a folder `scripts/build-site`
//! wrote), `python3`, and Debian's `chromium` and `chromedriver` on PATH.

use std::process::Command;

use combat_odds_browser_tests::{Running, browser, click, repository, serve, static_site, text_when};
use fantoccini::Client;

/// The server's page: the server, the driver, a session and its address.
async fn server_page() -> (Running, Running, Client, String) {
    let (server, address) = serve().await;
    let (driver, client) = browser().await;
    (server, driver, client, format!("{address}/"))
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
/// 2 hits 9/25: 12/25 + 2 * 9/25 = 30/25), and the Monte Carlo mean of the counts that
/// `combat-odds fire --format json` prints for the same duel, trials and seed (the page's
/// answer is those very bytes; the server's page forbids its script to read back the
/// download it offers, so the report is the command line's).
async fn the_mean_is_the_distribution_s(client: &Client, address: &str) {
    client.goto(address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("95%")).await;
    let cli = Command::new(repository().join("target/release/combat-odds"))
        .args(["fire", "--format", "json", "--trials", "100000", "--seed", "2026"])
        .output()
        .expect("the binary runs");
    let report: serde_json::Value = serde_json::from_slice(&cli.stdout).expect("fire's JSON");
    let hits = report["measures"].as_array().unwrap().iter().find(|m| m["measure"] == "hits").expect("hits");
    let outcomes = hits["outcomes"].as_array().unwrap();
    let value = |o: &serde_json::Value| o["outcome"].as_str().unwrap().parse::<f64>().unwrap();
    let exact: f64 = outcomes.iter().map(|o| value(o) * o["exact"].as_f64().unwrap()).sum();
    let n: f64 = outcomes.iter().map(|o| o["count"].as_f64().unwrap()).sum();
    let estimate = outcomes.iter().map(|o| value(o) * o["count"].as_f64().unwrap()).sum::<f64>() / n;
    let script = "const shown = document.querySelector('#fire-result .mean[data-measure=hits]'); \
                  return [shown.textContent, !!shown.nextElementSibling.querySelector('table')];";
    let seen = client.execute(script, vec![]).await.unwrap();
    let shown = seen[0].as_str().unwrap();
    assert_eq!(format!("{exact:.4}"), "1.2000");
    assert!(
        shown.starts_with(&format!("Mean hits: {exact:.4} exactly (6/5); Monte Carlo {estimate:.4} (95%: ")),
        "{shown}"
    );
    assert_eq!(seen[1], true, "the mean is beside the distribution's table");
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
