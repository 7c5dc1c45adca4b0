//! The Balance tab in the player's words, in the server's page and the static site
//! (the same function tests both): the finder's base scenario set in the same form as
//! Fire's and Engagement's, so "how many Shermans make it even at 4 in." is asked and
//! answered; the key to vary offered by the form's label; a sweep's axes, the
//! finder's answer, table and chart in words, with the target drawn; and no key's path
//! or catalogue id anywhere a player reads on the tab.
//!
//! Needs `target/release/combat-odds` (the main workspace's release build), for the
//! static site `COMBAT_ODDS_SITE` (a folder `scripts/build-site` wrote) and `python3`,
//! and Debian's `chromium` and `chromedriver` on PATH.

use combat_odds_browser_tests::{assert_no_ids, browser, click, serve_with, static_site, text_when};
use fantoccini::Client;

/// Sets the field `selector` finds to `value` and lets the page hear the change.
async fn set(client: &Client, selector: &str, value: &str) {
    let script = "const e = document.querySelector(arguments[0]); e.value = arguments[1]; \
                  e.dispatchEvent(new Event('change', { bubbles: true }));";
    client.execute(script, vec![selector.into(), value.into()]).await.expect("the field is set");
}

/// Waits until the page's `script` returns true.
async fn until(client: &Client, script: &str, what: &str) {
    let started = std::time::Instant::now();
    while client.execute(script, vec![]).await.unwrap() != serde_json::json!(true) {
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "{what} never happened");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// What a player reads on the Balance tab: its rendered text, which holds no text
/// area's contents (the sweep file, the scenario file), and every option of its
/// selects; but not a command to type (the static site names the one that writes a
/// sweep's files, a file's name in it as a terminal takes it).
async fn shown(client: &Client) -> String {
    let script = "const tab = document.getElementById('balance'); \
                  let text = tab.innerText; \
                  for (const c of tab.querySelectorAll('code')) text = text.replace(c.innerText, ''); \
                  const options = [...tab.querySelectorAll('option')].map((o) => o.textContent); \
                  return [text, ...options].join('\\n');";
    client.execute(script, vec![]).await.unwrap().as_str().unwrap_or_default().to_owned()
}

/// The designer's question on the page at `address`: three Shermans against a
/// Panther, set to 4 in. in the finder's form; how many Shermans make the fight even?
async fn how_many_shermans_at_four_inches(client: &Client, address: &str) {
    client.goto(address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("exact")).await;
    click(client, "tab-balance").await;
    until(client, "return document.getElementById('balance-shipped').options.length > 1;", "the shipped list").await;
    set(client, "#balance-shipped", "cd_engagement_shermans_vs_panther.toml").await;
    until(
        client,
        "return document.querySelector('#balance-form [data-key=\"engagement.range\"]')?.value === '17.5';",
        "the finder's form",
    )
    .await;
    // The range is set in the form, which writes it into the file the finder sends.
    set(client, "#balance-form [data-key=\"engagement.range\"]", "4").await;
    until(client, "return /\\nrange = 4\\n/.test(document.getElementById('balance-scenario').value);", "range = 4")
        .await;

    // The keys to vary read as the form's labels; the path is only the option's value.
    until(
        client,
        "return [...document.getElementById('balance-vary').options].some((o) => o.value === 'side[0].unit[0].count');",
        "the Shermans' count offered",
    )
    .await;
    let offered = client
        .execute(
            "const s = document.getElementById('balance-vary'); \
             return [...s.options].filter((o) => o.value === 'side[0].unit[0].count' || o.value === 'engagement.range') \
             .map((o) => o.text);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(offered, serde_json::json!(["Engagement: range", "Side 1, unit 1: how many"]));
    set(client, "#balance-vary", "side[0].unit[0].count").await;
    for (id, value) in
        [("#balance-from", "1"), ("#balance-to", "6"), ("#balance-percent", "50"), ("#balance-trials", "2000")]
    {
        set(client, id, value).await;
    }
    click(client, "balance-start").await;
    // At 4 in. three Shermans win 42.87% and four 52.49%, both exact (at the file's
    // 17.5 in. they are other numbers): no count between, so none gives 50%, and the
    // answer says so in the form's words, in percent as the table is.
    let answer = text_when(client, "balance-answer", |t| !t.is_empty()).await;
    assert_eq!(
        answer,
        "No value of “Side 1, unit 1: how many” gives 50%: P(winner = US) jumps from 42.87% at 3 to 52.49% at 4"
    );
    let tried = text_when(client, "balance-tried", |t| t.contains("52.49%")).await;
    assert!(tried.starts_with("Side 1, unit 1: how many"), "{tried}");
    // The chart's axis in words, and the target drawn across it at 50%.
    let chart = client
        .execute(
            "const c = document.getElementById('balance-chart'); const t = c.querySelector('line.target'); \
             return [c.textContent, Number(t.getAttribute('y1')), Number(t.getAttribute('y2'))];",
            vec![],
        )
        .await
        .unwrap();
    let said = chart[0].as_str().unwrap();
    assert!(said.contains("Side 1, unit 1: how many") && said.contains("target 50%"), "{said}");
    assert_eq!(chart[1], chart[2], "the target is a line across: {chart}");

    // The address holds the question: opened afresh, the form is at 4 in. and the
    // Shermans' count is the key to vary.
    let link = client.current_url().await.unwrap().to_string();
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    until(
        client,
        "return document.querySelector('#balance-form [data-key=\"engagement.range\"]')?.value === '4' \
         && document.getElementById('balance-vary').value === 'side[0].unit[0].count' \
         && document.getElementById('balance-percent').value === '50';",
        "the link's question restored",
    )
    .await;

    // A sweep of the same fight over range and count: the heat map's axes and the
    // points' headings in words.
    let sweep = "kind = \"sweep\"\nscenario = \"cd_engagement_shermans_vs_panther.toml\"\n\
                 [[vary]]\nkey = \"engagement.range\"\nvalues = [4, 8]\n\
                 [[vary]]\nkey = \"side[0].unit[0].count\"\nvalues = [2, 3]\n";
    set(client, "#sweep-text", sweep).await;
    set(client, "#sweep-trials", "1000").await;
    click(client, "sweep-start").await;
    let heat = text_when(client, "sweep-heat", |t| t.contains('%')).await;
    assert!(heat.starts_with("Side 1, unit 1: how many (down) by Engagement: range (across)"), "{heat}");
    let points = text_when(client, "sweep-points", |t| t.contains('%')).await;
    assert!(points.starts_with("point Engagement: range Side 1, unit 1: how many"), "{points}");

    // Nowhere on the tab a key's path or a catalogue id.
    let text = shown(client).await;
    for path in ["side[", "unit[", "engagement.", "settings."] {
        assert!(!text.contains(path), "`{path}` on the Balance tab: {text}");
    }
    assert_no_ids(&text);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_s_finder_answers_how_many_shermans_at_four_inches_in_words() {
    let (_server, address) = serve_with(&[]).await;
    let (_driver, client) = browser().await;
    how_many_shermans_at_four_inches(&client, &format!("{address}/")).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_s_finder_answers_how_many_shermans_at_four_inches_in_words() {
    let (_server, _driver, client, address) = static_site().await;
    how_many_shermans_at_four_inches(&client, &address).await;
    client.close().await.unwrap();
}
