//! The static site (`scripts/build-site`) in headless Chromium, served by a plain static
//! file server on loopback (`python3 -m http.server`): Fire exact and Monte Carlo, a
//! changed value, which cells matter, an engagement and its Cancel, a comparison and
//! the tables, sweeps and balance with their progress and Cancel, every one answered by
//! the engine in the page's worker (a sweep too heavy for a tab naming the command that
//! does it), a catalogue of the player's own and the refusals as the server's page has
//! them (the same functions test both), and not one request sent to `/api`
//! (the static server's log and the page's own Performance API both say so).
//!
//! Needs `COMBAT_ODDS_SITE`, a folder `scripts/build-site` wrote (.ci/run builds it),
//! `python3`, and Debian's `chromium` and `chromedriver` on PATH.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use combat_odds_browser_tests::{
    Running, assert_no_ids, browser, catalogue_editor_answers_as_rules_dir_and_travels_by_link, click, engagement,
    free_port, listening, own_catalogue_read_by_the_answer, refusals_said_beside_their_field_grey_the_answer,
    set_field, text_when,
};
use fantoccini::{Client, Locator};

/// The static server, its log, the driver and a browser session on the site.
struct Site {
    _server: Running,
    log: PathBuf,
    _driver: Running,
    client: Client,
    address: String,
}

async fn site() -> Site {
    let folder = std::env::var("COMBAT_ODDS_SITE")
        .expect("set COMBAT_ODDS_SITE to a folder scripts/build-site wrote (scripts/build-site /tmp/site)");
    let port = free_port();
    // Each test its own log: http.server writes one line per request to its stderr.
    let log = std::env::temp_dir().join(format!("combat-odds-site-{port}.log"));
    let server = Running(
        Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1", "--directory", &folder, &port.to_string()])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("a log file"))
            .spawn()
            .expect("python3 serves the site"),
    );
    listening(port).await;
    let (driver, client) = browser().await;
    Site { _server: server, log, _driver: driver, client, address: format!("http://127.0.0.1:{port}/") }
}

impl Site {
    /// Ends the session, then holds the site to asking nothing of `/api`: not in the
    /// page's resource timings, not in the static server's log (which also holds what
    /// the workers fetched: the engine).
    async fn close_having_asked_nothing_of_api(self) {
        let script = "return performance.getEntriesByType('resource').map((e) => e.name).join('\\n');";
        let fetched = self.client.execute(script, vec![]).await.unwrap();
        let fetched = fetched.as_str().unwrap_or_default();
        assert!(fetched.contains("page/net.js"), "the timings hold the page's requests: {fetched}");
        assert!(!fetched.contains("/api/"), "the page asked /api: {fetched}");
        self.client.close().await.unwrap();
        let log = std::fs::read_to_string(&self.log).unwrap();
        assert!(log.contains("GET /page/combat_odds_wasm_bg.wasm"), "the log holds the workers' requests: {log}");
        assert!(!log.contains("/api"), "a request went to /api: {log}");
        let _ = std::fs::remove_file(&self.log);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_fires_exactly_and_by_monte_carlo_follows_a_change_and_reads_its_tables() {
    let site = site().await;
    let client = &site.client;
    client.goto(&site.address).await.unwrap();
    // The embedded duel, as `fire` prints it: exact 1659/2500 = 66.36%, beside Monte Carlo.
    let first = text_when(client, "p-kill", |t| t.contains("exact 66.36%") && t.contains("95%")).await;
    assert!(first.starts_with("Chance the target is eliminated"), "{first}");
    let status = text_when(client, "fire-status", |t| t.starts_with("done")).await;
    assert!(status.contains("one thread in the browser"), "the speed line says so: {status}");
    // The report as `fire --format json` prints it, offered as a file the browser made.
    let script = "const done = arguments[0]; \
                  fetch(document.getElementById('fire-report-json').href).then((r) => r.text()).then(done);";
    let json = client.execute_async(script, vec![]).await.unwrap();
    let json = json.as_str().unwrap();
    assert!(json.starts_with("{\n  \"ruleset\": \"command-decision\"") && json.ends_with("}\n"), "{json}");
    let downloads = text_when(client, "fire-downloads", |t| !t.is_empty()).await;
    let downloads = downloads.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        downloads.contains("report.json") && downloads.contains("report.csv"),
        "the CSV beside the JSON: {downloads}"
    );
    assert!(
        downloads.contains(
            "combat-odds fire experiments/cd_tank_duel.toml --trials 100000 --seed 2026 --mode compiled prints with --format json and --format csv"
        ),
        "{downloads}"
    );
    // The form, from the worker: the catalogue's weapons, the range with metres beside.
    let form = text_when(client, "fire-form", |t| t.contains("732 m")).await;
    assert!(form.contains("Firer 1: weapon") && form.contains("16 in. = 732 m"), "{form}");

    // At 30 in. the Panther's gun is in another band: the answer changes.
    set_field(client, "range", "30").await;
    let far = text_when(client, "p-kill", |t| t.contains("95%") && !t.contains("exact 66.36%")).await;
    // Literal Monte Carlo, every die rolled, still beside the same exact answer.
    client.execute("document.getElementById('fire-mode').value = 'literal';", vec![]).await.unwrap();
    click(client, "fire-compute").await;
    let literal = text_when(client, "p-kill", |t| t.contains("95%") && *t != far).await;
    assert_eq!(literal.split(';').next(), far.split(';').next(), "the same exact answer: {literal} / {far}");

    // A shared link opens with the exact answer alone, from the worker too.
    let link = client.current_url().await.unwrap().to_string();
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    let exact = text_when(client, "p-kill", |t| t.contains("press Compute")).await;
    assert!(far.starts_with(exact.trim_end_matches("; Monte Carlo: press Compute")), "{exact} / {far}");

    // Which cells matter, from the worker too, each with its source.
    click(client, "sensitivity-start").await;
    let ranked = text_when(client, "sensitivity", |t| t.contains("rank")).await;
    assert!(ranked.contains("points"), "changes in percentage points: {ranked}");

    click(client, "tab-tables").await;
    let notes = text_when(client, "interpretations", |t| t.contains("Settings")).await;
    assert!(notes.contains("Command Decision"), "{}", &notes[..200.min(notes.len())]);
    text_when(client, "tables-list", |t| t.contains("rules hash")).await;
    site.close_having_asked_nothing_of_api().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_runs_an_engagement_cancels_one_and_compares() {
    let site = site().await;
    let client = &site.client;
    // A million trials of the company's fight: tens of seconds of a tab's one thread,
    // within the two minutes a tab takes on.
    engagement(client, &site.address, "cd_engagement_company_at_the_farmhouse.toml", "1000000").await;
    click(client, "run-start").await;
    text_when(client, "run-status", |t| t.contains(" of 1,000,000 trials")).await;
    click(client, "run-cancel").await;
    let status = text_when(client, "run-status", |t| t.starts_with("cancelled")).await;
    assert_eq!(status, "cancelled: the work stopped and nothing was kept");
    let result = client.find(Locator::Id("run-result")).await.unwrap().text().await.unwrap();
    assert_eq!(result, "", "no partial result is shown");

    // A fresh worker runs the next one to its end, with what the browser can download.
    client.execute("document.getElementById('run-trials').value = '20000';", vec![]).await.unwrap();
    click(client, "run-start").await;
    let done = text_when(client, "run-status", |t| t.starts_with("done in")).await;
    assert!(done.contains("trials/s") && done.contains("one thread in the browser"), "{done}");
    let kill = text_when(client, "run-p-kill", |t| !t.is_empty()).await;
    assert!(kill.starts_with("Chance the winner is "), "{kill}");
    let files = text_when(client, "run-downloads", |t| t.contains("report.json")).await;
    assert!(files.contains("combat-odds run cd_engagement_company_at_the_farmhouse.toml"), "{files}");

    click(client, "tab-compare").await;
    client
        .execute("const s = document.getElementById('compare-shipped'); s.value = 'compare_at_gun_vs_medium_tank.toml'; s.dispatchEvent(new Event('change'));", vec![])
        .await
        .unwrap();
    text_when(client, "compare-status", |t| t == "done").await;
    // Command Decision's PaK 40 at 100 m against a Sherman's front: exact 66.36%, as served.
    let table = text_when(client, "compare-table", |t| t.contains("Command Decision 75mm PaK 40 anti-tank gun")).await;
    assert!(table.contains("Command Decision 75mm PaK 40 anti-tank gun 66.36%"), "{table}");
    let differences = text_when(client, "compare-differences", |t| {
        t.contains("17-pounder anti-tank gun - 75mm PaK 40 anti-tank gun")
    })
    .await;
    assert!(differences.contains("paired estimate"), "{differences}");
    // Weapons and the target in the catalogues' names here too.
    assert_no_ids(&text_when(client, "compare", |t| t.contains("against M4 Sherman, front")).await);

    site.close_having_asked_nothing_of_api().await;
}

/// Where a sweep the page was just asked for stands.
enum Sweep {
    /// Its progress shows its planned trials.
    UnderWay,
    /// The tab refused it, beside the button.
    TooHeavy,
    /// It finished before its progress was seen.
    Done,
}

/// Waits for the sweep just started to show progress towards `planned` trials,
/// with a quarter of it or less done, be refused as too heavy, or finish (one seen
/// further on is let finish: Cancel could come after its last point).
async fn sweep_under_way(client: &Client, planned: u64) -> Sweep {
    let script = "const status = document.getElementById('sweep-status').textContent; \
                  const going = status.match(/^([0-9,]+) of ([0-9,]+) trials/); \
                  const count = (s) => Number(s.replaceAll(',', '')); \
                  return document.getElementById('sweep-too-heavy') ? 'heavy' \
                  : going && count(going[2]) === arguments[0] && 4 * count(going[1]) <= arguments[0] ? 'going' \
                  : status.startsWith('done') ? 'done' : '';";
    for _ in 0..1200 {
        match client.execute(script, vec![planned.into()]).await.unwrap().as_str() {
            Some("going") => return Sweep::UnderWay,
            Some("heavy") => return Sweep::TooHeavy,
            Some("done") => return Sweep::Done,
            _ => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
        }
    }
    panic!("a sweep of {planned} trials neither showed progress, nor was refused, nor finished in two minutes");
}

/// Sets the elements with these ids to these values, as a person types them.
async fn fill(client: &Client, fields: &[(&str, &str)]) {
    let script = "for (const [id, value] of arguments[0]) { const e = document.getElementById(id); \
                  e.value = value; e.dispatchEvent(new Event('change', { bubbles: true })); }";
    let fields: Vec<_> = fields.iter().map(|&(id, value)| serde_json::json!([id, value])).collect();
    client.execute(script, vec![fields.into()]).await.expect("the fields are set");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_sweeps_and_balances_in_the_tab_cancels_a_sweep_and_names_the_command_for_a_heavy_one() {
    let site = site().await;
    let client = &site.client;
    client.goto(&site.address).await.unwrap();
    text_when(client, "p-kill", |t| t.contains("exact")).await;
    click(client, "tab-balance").await;
    // The first shipped sweep fills the file once the page has its list (a text area's
    // text is its value, which WebDriver does not read as text).
    for _ in 0..600 {
        let filled = client.execute("return document.getElementById('sweep-text').value;", vec![]).await.unwrap();
        if filled.as_str().is_some_and(|t| t.contains("kind")) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // The duel at three ranges: exact at every point, so the chances are the fire's own.
    let sweep = |values: &str| {
        format!("kind = \"sweep\"\nscenario = \"cd_tank_duel.toml\"\n[[vary]]\nkey = \"range\"\nvalues = [{values}]\n")
    };
    fill(client, &[("sweep-text", &sweep("8, 16, 32")), ("sweep-trials", "5000")]).await;
    click(client, "sweep-start").await;
    let done = text_when(client, "sweep-status", |t| t.starts_with("done")).await;
    assert!(done.contains("one thread in the browser"), "the speed line says so: {done}");
    let points = text_when(client, "sweep-points", |t| t.contains("66.36%")).await;
    assert_eq!(points.lines().count(), 4, "a header and three points: {points}");
    assert!(client.find(Locator::Id("sweep-chart")).await.is_ok(), "a line over the range");
    // The tab keeps no files: the command that writes them is named instead.
    let files = text_when(client, "sweep-downloads", |t| !t.is_empty()).await;
    assert!(files.contains("combat-odds sweep") && files.contains("--trials 5000"), "{files}");

    // A long one shows its progress and stops at Cancel. A tab takes at most the
    // server's ten million trials a request, so the long sweep is of a fight drawn
    // trial by trial (Chain of Command's sections at the hedge, whose solver stands
    // aside): seconds of work in ten million trials. How long it runs in a tab is the
    // machine's and its engine's warmth, so the trials are found: fewer where the tab
    // refuses them as too heavy, more (up to the limit) where they finish before their
    // progress is seen.
    let hedge = "kind = \"sweep\"\nscenario = \"coc_engagement_sections_at_the_hedge.toml\"\n[[vary]]\nkey = \"engagement.range\"\nvalues = [12, 14, 16, 18, 20, 22, 24, 26]\n";
    fill(client, &[("sweep-text", hedge)]).await;
    const MOST: u64 = 10_000_000 / 8;
    let mut trials: u64 = MOST;
    for tries in 1.. {
        assert!(tries <= 10, "no sweep was both taken on and seen under way, the last at {trials} trials a point");
        fill(client, &[("sweep-trials", &trials.to_string())]).await;
        click(client, "sweep-start").await;
        match sweep_under_way(client, trials * 8).await {
            Sweep::UnderWay => {
                println!("the sweep Cancel stops: {trials} trials a point, found in {tries} tries");
                break;
            }
            Sweep::TooHeavy => trials /= 3,
            Sweep::Done => trials = (trials * 4).min(MOST),
        }
    }
    click(client, "sweep-cancel").await;
    let status = text_when(client, "sweep-status", |t| t.starts_with("cancelled")).await;
    assert_eq!(status, "cancelled: the work stopped and nothing was kept");
    let result = client.find(Locator::Id("sweep-result")).await.unwrap().text().await.unwrap();
    assert_eq!(result, "", "no partial result is shown");

    // The balance finder over the duel's range, from a fresh worker: the duel opened in
    // the finder's form, its range offered as the form's own field once it is read.
    fill(client, &[("balance-shipped", "cd_tank_duel.toml")]).await;
    let offered = "return document.querySelector('#balance-form [data-key=\"range\"]') !== null \
                   && [...document.getElementById('balance-vary').options].some((o) => o.value === 'range');";
    while client.execute(offered, vec![]).await.unwrap() != serde_json::json!(true) {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    fill(
        client,
        &[
            ("balance-vary", "range"),
            ("balance-values", "8, 16, 32"),
            ("balance-percent", "50"),
            ("balance-trials", "5000"),
        ],
    )
    .await;
    click(client, "balance-start").await;
    text_when(client, "balance-status", |t| t.starts_with("done")).await;
    let answer = text_when(client, "balance-answer", |t| !t.is_empty()).await;
    assert!(answer.contains("“Range”"), "{answer}");
    let tried = text_when(client, "balance-tried", |t| t.contains("66.36%")).await;
    assert_eq!(tried.lines().count(), 4, "a header and three values: {tried}");

    // A company's fight swept over 200 points is more than a tab takes on (each
    // point's exact stages are minutes of its one thread in all): said beside the
    // button, in the server's words, with the command that does it.
    let farmhouse = "kind = \"sweep\"\nscenario = \"cd_engagement_company_at_the_farmhouse.toml\"\n[[vary]]\nkey = \"engagement.range\"\nfrom = 2\nto = 51\n[[vary]]\nkey = \"engagement.turns\"\nvalues = [8, 10, 12, 14]\n";
    fill(client, &[("sweep-text", farmhouse), ("sweep-trials", "20000")]).await;
    click(client, "sweep-start").await;
    let heavy = text_when(client, "sweep-too-heavy", |t| t.contains("combat-odds sweep")).await;
    assert!(heavy.starts_with("This is about "), "{heavy}");
    assert!(heavy.contains("and a browser tab takes at most 2 minutes per request"), "{heavy}");
    assert!(heavy.contains("--trials 20000 --seed 2026"), "{heavy}");
    let disabled = client.execute("return document.getElementById('sweep-start').disabled;", vec![]).await.unwrap();
    assert_eq!(disabled, serde_json::json!(false), "another sweep can still be asked for");
    site.close_having_asked_nothing_of_api().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_reads_a_catalogue_of_the_player_s_own_as_fire_rules_dir_does() {
    let site = site().await;
    own_catalogue_read_by_the_answer(&site.client, &site.address).await;
    site.close_having_asked_nothing_of_api().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_refuses_as_the_server_does_beside_the_field_and_greys_the_answer() {
    let site = site().await;
    refusals_said_beside_their_field_grey_the_answer(&site.client, &site.address).await;
    site.close_having_asked_nothing_of_api().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_static_site_s_catalogue_editor_answers_as_rules_dir_and_travels_by_link() {
    let site = site().await;
    catalogue_editor_answers_as_rules_dir_and_travels_by_link(&site.client, &site.address).await;
    site.close_having_asked_nothing_of_api().await;
}
