//! The page in headless Chromium: the numbers the CLI prints, a change of range in the
//! form, a shared link (its exact answer at once, its long work only on a click), a
//! bad value's message, an engagement's progress and result, a cancelled run, a
//! comparison, the tables with their interpretations, a page elsewhere that frames it
//! (and gets nothing), and a screenshot of each page for the README.
//!
//! Needs `target/release/combat-odds` (the main workspace's release build), Debian's
//! `chromium` and `chromedriver` on PATH.

use std::time::{Duration, Instant};

use combat_odds_browser_tests::{
    Running, assert_no_ids, browser, catalogue_editor_answers_as_rules_dir_and_travels_by_link, click, engagement,
    own_catalogue_read_by_the_answer, refusals_said_beside_their_field_grey_the_answer, repository, serve_with,
    set_field, text_when,
};
use fantoccini::{Client, Locator};

/// The page's server and a browser session on it.
async fn session() -> (Running, Running, Client, String) {
    session_with(&[]).await
}

/// [`session`] with the server given `flags`.
async fn session_with(flags: &[&str]) -> (Running, Running, Client, String) {
    let (server, address) = serve_with(flags).await;
    let (driver, client) = browser().await;
    (server, driver, client, format!("{address}/"))
}

async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(repository().join("docs").join(name), png).expect("docs/ is writable");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_answers_what_the_cli_prints_follows_a_change_and_a_shared_link() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    // The embedded duel on first opening: exact p_kill 1659/2500 = 66.36%, as `fire` prints.
    let first = text_when(&client, "p-kill", |t| t.contains("exact 66.36%")).await;
    assert!(first.starts_with("Chance the target is eliminated"), "{first}");
    // The form offers the catalogue's weapons and the range with metres beside:
    // 16 in. x 45.72 m = 731.52, shown as 732 m.
    let form = text_when(&client, "fire-form", |t| t.contains("732 m")).await;
    assert!(
        form.contains("Firer 1: weapon") && !form.contains("(weapon)") && form.contains("16 in. = 732 m"),
        "{form}"
    );
    screenshot(&client, "page-fire.png").await;

    // At 30 in. the Panther's gun is in another band: the answer changes.
    set_field(&client, "range", "30").await;
    let far = text_when(&client, "p-kill", |t| t.contains("exact") && !t.contains("exact 66.36%")).await;
    let scenario = client.execute("return document.getElementById('fire-scenario').value;", vec![]).await.unwrap();
    assert!(scenario.as_str().unwrap().contains("\nrange = 30\n"), "the form edits the file itself");

    // The address now holds the whole set-up: opening it elsewhere gives the same numbers.
    let link = client.current_url().await.unwrap().to_string();
    assert!(link.contains("#") && link.contains("scenario="), "{link}");
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    // At once the exact answer alone; the Monte Carlo run waits for Compute.
    let exact = text_when(&client, "p-kill", |t| t.contains("press Compute")).await;
    assert!(far.starts_with(exact.trim_end_matches("; Monte Carlo: press Compute")), "{exact} / {far}");
    click(&client, "fire-compute").await;
    let again = text_when(&client, "p-kill", |t| t.contains("95%")).await;
    assert_eq!(again, far, "a shared link reproduces the numbers, seed and all");

    // Which cells matter, ranked, each with its source.
    click(&client, "sensitivity-start").await;
    let ranked = text_when(&client, "sensitivity", |t| t.contains("rank")).await;
    assert!(ranked.contains("points"), "changes in percentage points: {ranked}");
    assert!(ranked.contains("ap_modifiers.toml") || ranked.contains("catalogue.toml"), "{ranked}");
    client.close().await.unwrap();
}

/// The text of every element `selector` finds, joined by newlines.
async fn texts(client: &Client, selector: &str) -> String {
    let script = "return [...document.querySelectorAll(arguments[0])].map((e) => (e.matches('input, select, textarea') ? e.value : e.textContent)).join('\\n');";
    let value = client.execute(script, vec![selector.into()]).await.unwrap();
    value.as_str().unwrap_or_default().to_string()
}

/// How many elements `selector` finds.
async fn count(client: &Client, selector: &str) -> u64 {
    let script = "return document.querySelectorAll(arguments[0]).length;";
    client.execute(script, vec![selector.into()]).await.unwrap().as_u64().unwrap()
}

/// The message beside the form field `key`, once there is one.
async fn field_error(client: &Client, key: &str) -> String {
    let started = Instant::now();
    loop {
        let message = texts(client, &format!("[data-error-for=\"{key}\"]")).await;
        if !message.is_empty() {
            return message;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "no message beside {key}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_value_keeps_the_form_and_the_users_text_and_marks_the_answer_stale() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    let keys = count(&client, "#fire-form [data-key]").await;
    // A negative range: explained beside the field in its own words, not the file's
    // place; the form keeps every control, and the answer on screen is marked.
    set_field(&client, "range", "-3").await;
    assert_eq!(field_error(&client, "range").await, "Range must be a distance in inches, 0 or more");
    let stale = text_when(&client, "fire-stale", |t| !t.is_empty()).await;
    assert!(stale.contains("no longer matches the form"), "{stale}");
    assert_eq!(count(&client, "#fire-form [data-key]").await, keys, "every control stays");
    assert_eq!(texts(&client, "[data-key=\"range\"]").await, "-3", "the user's text stays");
    // A cleared range: the user's (empty) text stays, the file keeps its last good value.
    set_field(&client, "range", "").await;
    assert_eq!(field_error(&client, "range").await, "Range: give a number");
    assert_eq!(texts(&client, "[data-key=\"firer[0].weapon\"]").await, "de_75mm_kwk42");
    let page = client.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
    assert!(!page.contains("page.toml") && !page.contains("422"), "no file place or status: {page}");

    // Trials and seed the server cannot take are named beside their own fields, in words.
    set_field(&client, "range", "16").await;
    text_when(&client, "p-kill", |t| t.contains("exact 66.36%")).await;
    for (field, typed, message) in [
        ("fire-trials", "-10", "Monte Carlo trials must be a whole number, 1 or more, not -10"),
        ("fire-trials", "2.5", "Monte Carlo trials must be a whole number, 1 or more, not 2.5"),
        ("fire-seed", "-1", "Seed must be a whole number, 0 or more, not -1"),
    ] {
        let script = "document.getElementById('fire-trials').value = '100000'; \
                      document.getElementById('fire-seed').value = '2026'; \
                      document.getElementById(arguments[0]).value = arguments[1]; \
                      document.getElementById('fire-compute').click();";
        client.execute(script, vec![field.into(), typed.into()]).await.unwrap();
        assert_eq!(text_when(&client, &format!("{field}-error"), |t| !t.is_empty()).await, message);
        text_when(&client, "fire-stale", |t| !t.is_empty()).await;
    }

    // A setting the file leaves at its default is offered, and choosing another
    // reading writes it into the file.
    text_when(&client, "fire-form", |t| t.contains("Setting: artillery response")).await;
    set_field(&client, "settings.artillery_response", "roll_at_least").await;
    let started = Instant::now();
    loop {
        let text = client.execute("return document.getElementById('fire-scenario').value;", vec![]).await.unwrap();
        if text.as_str().unwrap().ends_with("\n[settings]\nartillery_response = \"roll_at_least\"\n") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the setting never reached the file: {text}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_heading_and_unit_names_follow_the_form() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    // The form offers the names; turn the duel into a 75mm M3 firing at a Panther at 8 in.
    assert_eq!(texts(&client, "[data-key=\"target.name\"]").await, "Sherman platoon");
    set_field(&client, "target.vehicle", "panther_g").await;
    text_when(&client, "p-kill", |t| !t.contains("66.36%")).await;
    set_field(&client, "firer[0].weapon", "us_75mm_m3").await;
    text_when(&client, "fire-status", |t| t == "done").await;
    set_field(&client, "range", "8").await;
    let result = text_when(&client, "fire-result", |t| t.contains(", 8 in.")).await;
    let heading = result.lines().next().unwrap();
    assert_eq!(heading, "75mm M3 tank gun, AP vs PzKpfw V Panther G, 8 in.");
    assert!(!result.contains("16 in.") && !result.contains("Sherman platoon"), "nothing stale: {result}");
    assert!(result.contains("target: PzKpfw V Panther G"), "the notes name the target it now is: {result}");
    // A name the user writes is theirs: equipment changed later leaves it.
    set_field(&client, "target.name", "Kampfgruppe Peiper's Panther").await;
    text_when(&client, "fire-result", |t| t.contains("target: Kampfgruppe Peiper's Panther")).await;
    set_field(&client, "target.vehicle", "pz_iv_h").await;
    let result = text_when(&client, "fire-result", |t| t.contains("armour") && !t.contains("armour 9")).await;
    assert!(result.starts_with("75mm M3 tank gun, AP vs Kampfgruppe Peiper's Panther, 8 in."), "{result}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_form_adds_a_second_firer_and_a_modifier_without_the_toml() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    // A second Panther platoon like the first: two fire, so the kill is likelier.
    text_when(&client, "fire-unit", |t| t.contains("Firer 1")).await;
    client.execute("document.getElementById('fire-unit').value = '0';", vec![]).await.unwrap();
    click(&client, "fire-copy").await;
    let result = text_when(&client, "fire-result", |t| t.contains("Panther platoon (2)")).await;
    assert!(!result.contains("exact 66.36%"), "{result}");
    assert!(result.starts_with("Panther platoon and Panther platoon (2) vs Sherman platoon, 16 in."), "{result}");
    // The Sherman hull down: a modifier the rules name, added to the target.
    let script = "const u = document.getElementById('fire-unit'); \
                  u.value = [...u.options].find((o) => o.text === 'Target').value; \
                  document.getElementById('fire-modifier').value = 'afv_hull_down_or_bua';";
    client.execute(script, vec![]).await.unwrap();
    let before = text_when(&client, "p-kill", |t| t.contains("Monte Carlo")).await;
    click(&client, "fire-add-modifier").await;
    text_when(&client, "p-kill", |t| t != before && t.contains("Monte Carlo")).await;
    let file = client.execute("return document.getElementById('fire-scenario').value;", vec![]).await.unwrap();
    assert!(file.as_str().unwrap().contains("[target]\nmodifiers = [\"afv_hull_down_or_bua\"]\n"), "{file}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_platoon_s_stands_the_file_leaves_out_are_set_from_the_form() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact 66.36%")).await;
    // The Panther platoon gives no stands: the form offers them at the rules' default.
    let form = text_when(&client, "fire-form", |t| t.contains("Firer 1: stands")).await;
    assert!(form.contains("(the rules' default)"), "{form}");
    assert_eq!(texts(&client, "[data-key=\"firer[0].stands\"]").await, "1");
    // Out of the rules' bounds: said beside the field, the file untouched.
    set_field(&client, "firer[0].stands", "0").await;
    assert_eq!(field_error(&client, "firer[0].stands").await, "Firer 1: stands must be from 1 to 100, not 0");
    let file = client.execute("return document.getElementById('fire-scenario').value;", vec![]).await.unwrap();
    assert!(!file.as_str().unwrap().contains("stands = 0"), "{file}");
    // Three stands: written into the platoon's own table, and answered as the CLI does.
    // Expected: the duel with `stands = 3` after `mount = "tank"`, through
    // `combat-odds fire duel3.toml --trials 100000 --seed 2026 --format json`: exact
    // 15030176679/15625000000 = 0.961931, estimate 0.96104, 95% 0.959823 to 0.962222.
    set_field(&client, "firer[0].stands", "3").await;
    let kill = text_when(&client, "p-kill", |t| t.contains("exact 96.19%") && t.contains("95%")).await;
    assert!(kill.ends_with("exact 96.19%; Monte Carlo 96.10% (95%: 95.98% to 96.22%)"), "{kill}");
    let file = client.execute("return document.getElementById('fire-scenario').value;", vec![]).await.unwrap();
    let file = file.as_str().unwrap();
    assert!(file.contains("mount = \"tank\"\nstands = 3\n\n[target]\n"), "{file}");
    assert_eq!(file.matches("stands = 3").count(), 1, "{file}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn invented_catalogue_data_is_named_wherever_it_reaches_an_answer() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    let note = text_when(&client, "p-kill-invented", |t| !t.is_empty()).await;
    assert!(note.starts_with("Invented data.") && note.contains("not the published rules' values"), "{note}");
    assert!(note.contains("75mm KwK 42 L/70 tank gun, AP") && note.contains("M4 Sherman"), "{note}");
    let footers = texts(&client, "#fire-result .chart-footer").await;
    assert!(footers.contains("Invented (illustrative) catalogue data"), "under each chart: {footers}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_speaks_the_games_words() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    let kill = text_when(&client, "p-kill", |t| t.contains("exact")).await;
    assert!(kill.contains('%') && !kill.contains("0.6636"), "a percentage: {kill}");
    let form = text_when(&client, "fire-form", |t| t.contains("Firer 1")).await;
    assert!(form.contains("Firer 1: weapon") && form.contains("75mm KwK 42 L/70 tank gun, AP"), "{form}");
    assert!(!form.contains("firer[0]") && !form.contains("de_75mm_kwk42"), "no file words: {form}");
    // Shipped scenarios by ruleset, each by its title.
    let groups = client
        .execute(
            "return [...document.querySelectorAll('#fire-shipped optgroup')].map((g) => g.label).join('|');",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(groups.as_str().unwrap(), "Company Commander|Command Decision|Chain of Command|Mission Command");
    let titles = texts(&client, "#fire-shipped option").await;
    assert!(titles.contains("Panther vs Sherman, 16 in. (800 yd), general fire (direct fire)"), "{titles}");
    // Each ruleset's own views only: Company Commander's screen percentage is not
    // offered for Command Decision, and is for Company Commander.
    assert!(client.find(Locator::Id("percent")).await.is_err(), "no other game's screen on a Command Decision answer");
    let script = "const s = document.getElementById('fire-shipped'); s.value = 'cc_panther_vs_sherman.toml'; \
                  s.dispatchEvent(new Event('change'));";
    client.execute(script, vec![]).await.unwrap();
    let percent = text_when(&client, "percent", |t| t.contains("destroyed")).await;
    assert!(percent.starts_with("As Company Commander's screen shows it"), "{percent}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_engagement_shows_its_progress_then_its_result_and_files() {
    let (_server, _driver, client, address) = session().await;
    engagement(&client, &address, "cd_engagement_company_at_the_farmhouse.toml", "6000000").await;
    click(&client, "run-start").await;
    let progress = text_when(&client, "run-status", |t| t.contains(" of 6,000,000 trials")).await;
    assert!(!progress.starts_with("6,000,000 of"), "seen under way: {progress}");
    text_when(&client, "run-status", |t| t.starts_with("done in")).await;
    let kill = text_when(&client, "run-p-kill", |t| !t.is_empty()).await;
    assert!(kill.starts_with("Chance the winner is "), "{kill}");
    let files = text_when(&client, "run-downloads", |t| t.contains("summary.json")).await;
    assert!(files.contains("winner.csv") && files.contains("winner.parquet"), "{files}");
    screenshot(&client, "page-engagement.png").await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cancelled_run_stops_and_keeps_nothing() {
    let (_server, _driver, client, address) = session().await;
    engagement(&client, &address, "cd_engagement_company_at_the_farmhouse.toml", "10000000").await;
    click(&client, "run-start").await;
    text_when(&client, "run-status", |t| t.contains(" of 10,000,000 trials")).await;
    click(&client, "run-cancel").await;
    let status = text_when(&client, "run-status", |t| t.starts_with("cancelled")).await;
    assert_eq!(status, "cancelled: the work stopped and nothing was kept");
    let result = client.find(Locator::Id("run-result")).await.unwrap().text().await.unwrap();
    assert_eq!(result, "", "no partial result is shown");
    // The page can run again at once.
    client.execute("document.getElementById('run-trials').value = '20000';", vec![]).await.unwrap();
    click(&client, "run-start").await;
    text_when(&client, "run-status", |t| t.starts_with("done in")).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_comparison_and_the_tables_are_shown_with_their_sources() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    click(&client, "tab-compare").await;
    client.execute("const s = document.getElementById('compare-shipped'); s.value = 'compare_at_gun_vs_medium_tank.toml'; s.dispatchEvent(new Event('change'));", vec![]).await.unwrap();
    text_when(&client, "compare-status", |t| t == "done").await;
    // Command Decision's PaK 40 at 100 m (2.19 in.) against a Sherman's front: exact 66.36%.
    let table = text_when(&client, "compare-table", |t| t.contains("Command Decision 75mm PaK 40 anti-tank gun")).await;
    assert!(table.contains("Command Decision 75mm PaK 40 anti-tank gun 66.36%"), "{table}");
    let differences = text_when(&client, "compare-differences", |t| {
        t.contains("17-pounder anti-tank gun - 75mm PaK 40 anti-tank gun")
    })
    .await;
    assert!(differences.contains("paired estimate"), "{differences}");
    // Weapons and the target in the catalogues' names, never the files' words or ids.
    let shown = text_when(&client, "compare", |t| t.contains("against M4 Sherman, front")).await;
    assert_no_ids(&shown);
    // Every word of the chart inside it (the legend ran off its right edge), and no
    // two range labels over each other (100 to 400 m collided).
    let script = "const svg = document.getElementById('compare-chart'); \
                  const width = svg.viewBox.baseVal.width; \
                  const boxes = [...svg.querySelectorAll('text')].map((t) => t.getBBox()); \
                  const out = boxes.filter((b) => b.x < 0 || b.x + b.width > width).length; \
                  const ranges = [...svg.querySelectorAll('text[text-anchor=middle]')].map((t) => t.getBBox()); \
                  const overlaps = ranges.filter((b, i) => i && ranges[i - 1].x + ranges[i - 1].width > b.x).length; \
                  return [out, overlaps];";
    let counts = client.execute(script, vec![]).await.unwrap();
    assert_eq!(counts, serde_json::json!([0, 0]), "text outside the chart, range labels overlapping");
    screenshot(&client, "page-compare.png").await;

    click(&client, "tab-tables").await;
    let notes = text_when(&client, "interpretations", |t| t.contains("Settings")).await;
    assert!(notes.contains("Command Decision"), "{}", &notes[..200.min(notes.len())]);
    // Tables by their titles in the rules, sources by the seeds' titles, the ruleset
    // by its name.
    let tables = text_when(&client, "tables-list", |t| t.contains("rules hash")).await;
    assert!(tables.contains("Command Decision: Test of Battle, General Reference Card"), "{tables}");
    assert!(!tables.contains(".txt") && !tables.contains(".toml"), "{tables}");
    assert_no_ids(&tables);
    let ruleset = client
        .execute("const s = document.getElementById('ruleset'); return s.options[s.selectedIndex].text;", vec![])
        .await
        .unwrap();
    assert_eq!(ruleset, "Command Decision");
    screenshot(&client, "page-tables.png").await;
    // Every ruleset's tables without a catalogue id or a file's word: entries by their
    // labels, headings in words.
    let mut last = tables;
    for name in ["mission-command", "company-commander", "chain-of-command"] {
        let pick = "const s = document.getElementById('ruleset'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));";
        client.execute(pick, vec![name.into()]).await.unwrap();
        // Another ruleset's tables: another rules hash.
        let hash = |t: &str| t.lines().next().unwrap_or_default().to_string();
        last = text_when(&client, "tables-list", |t| t.starts_with("rules hash") && hash(t) != hash(&last)).await;
        // The seeds' own row labels may say "17pdr" or "bazooka"; an id of the catalogue
        // in its file's shape (`uk_17pdr`, `assault_section`) never shows.
        let words: Vec<&str> = last.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
        for id in catalogue_ids(name).into_iter().filter(|id| id.contains('_')) {
            assert!(!words.contains(&id.as_str()), "the id `{id}` on the {name} tables: {last}");
        }
        assert!(!last.contains(".txt") && !last.contains(".toml"), "{last}");
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sweep_and_the_balance_finder_answer_from_the_page() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    click(&client, "tab-balance").await;
    // The shipped HMG sweep opens first: sections by cover, a heat map of P(Germans win).
    click(&client, "sweep-start").await;
    text_when(&client, "sweep-status", |t| t == "done").await;
    let heat = text_when(&client, "sweep-heat", |t| t.contains('%')).await;
    // Its values in words, as the form says them.
    assert!(heat.contains("good cover") && heat.contains("no or light cover"), "{heat}");
    let files = text_when(&client, "sweep-downloads", |t| t.contains("sweep.parquet")).await;
    assert!(files.contains("design.csv"), "{files}");

    // The finder's scenario is opened in its own form; the key to vary is one the form
    // offers once it has read the file.
    let script = "const s = document.getElementById('balance-shipped'); \
                  s.value = 'mc_engagement_hmg_vs_rifle_platoon.toml'; s.dispatchEvent(new Event('change'));";
    client.execute(script, vec![]).await.unwrap();
    let offered = "return document.querySelector('#balance-form [data-key=\"side[1].unit[0].count\"]') !== null \
                   && [...document.getElementById('balance-vary').options].some((o) => o.value === 'side[1].unit[0].count');";
    while client.execute(offered, vec![]).await.unwrap() != serde_json::json!(true) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let script = "document.getElementById('balance-vary').value = 'side[1].unit[0].count'; \
                  document.getElementById('balance-from').value = '1'; \
                  document.getElementById('balance-to').value = '5'; \
                  document.getElementById('balance-step').value = '1';";
    client.execute(script, vec![]).await.unwrap();
    click(&client, "balance-start").await;
    let found = text_when(&client, "balance-answer", |t| !t.is_empty()).await;
    // Two sections lose 61.93% of the time and three 32.50%, exact: no count between.
    assert_eq!(
        found,
        "No value of “Side 2, unit 1: how many” gives 50%: P(winner = Germans) jumps from 61.93% at 2 to 32.50% at 3"
    );
    screenshot(&client, "page-balance.png").await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_exact_fraction_is_shortened_on_the_page_and_whole_in_the_downloads() {
    let (_server, _driver, client, address) = session().await;
    engagement(&client, &address, "cd_engagement_tank_duel.toml", "20000").await;
    click(&client, "run-start").await;
    text_when(&client, "run-status", |t| t.starts_with("done in")).await;
    let widths = client
        .execute("return [document.getElementById('run-result').scrollWidth, window.innerWidth];", vec![])
        .await
        .unwrap();
    let [result, window] = [widths[0].as_u64().unwrap(), widths[1].as_u64().unwrap()];
    assert!(result <= window, "the results fit the window: {result} px in {window} px");
    let cells = texts(&client, "#run-result td.fraction").await;
    assert!(cells.contains("digits)"), "a short form: {cells}");
    // The summary the page offers to download keeps every digit of the fraction.
    let script = "const done = arguments[0]; \
                  fetch(document.querySelector('#run-downloads a[download=\"summary.json\"]').href) \
                    .then((r) => r.text()).then(done);";
    let summary = client.execute_async(script, vec![]).await.unwrap();
    let longest = summary
        .as_str()
        .unwrap()
        .split('"')
        .filter(|s| s.contains('/') && s.chars().all(|c| c.is_ascii_digit() || c == '/'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    assert!(longest > 100, "the download holds the whole fraction ({longest} characters)");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn compare_opens_on_a_shipped_comparison_in_the_rulesets_that_can_answer() {
    let (_server, _driver, client, address) = session().await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    // Opening the tab shows a comparison: nothing to pick first.
    click(&client, "tab-compare").await;
    let table = text_when(&client, "compare-table", |t| t.contains("Command Decision 75mm PaK 40 anti-tank gun")).await;
    // Chain of Command has no ground scale: not offered, and why said once.
    assert!(client.find(Locator::Css("[data-ruleset=\"chain-of-command\"]")).await.is_err(), "not offered");
    assert!(!table.contains("Chain of Command"), "{table}");
    let why = text_when(&client, "compare-unavailable", |t| !t.is_empty()).await;
    assert!(why.contains("Chain of Command") && why.contains("no ground scale"), "{why}");
    // Beyond a weapon's reach reads "out of range" in every ruleset, never "n/a" nor
    // Command Decision's own 0 (its fire past extreme range has no effect); each
    // reason is given once.
    assert!(!table.contains("n/a"), "{table}");
    for line in table.lines().filter(|l| l.starts_with("Command Decision")) {
        assert!(line.ends_with("out of range"), "2,000 m is past extreme range: {line}");
    }
    let notes = texts(&client, "#compare-notes li").await;
    assert_eq!(notes.lines().count(), 3, "one reason a weapon: {notes}");
    for (line, who) in notes.lines().zip([
        "Command Decision, 75mm PaK 40 anti-tank gun",
        "Command Decision, 17-pounder anti-tank gun",
        "Company Commander, 75mm PaK 40 anti-tank gun",
    ]) {
        assert!(line.starts_with(&format!("{who} at 2000 m: out of range")), "{notes}");
    }
    // A range the file cannot read is named by its field, not by the file's place
    // ("page.toml:6:13: ...").
    client.execute("document.getElementById('compare-ranges').value = '100, 2x0';", vec![]).await.unwrap();
    click(&client, "compare-start").await;
    let error = text_when(&client, "compare-error", |t| !t.is_empty()).await;
    assert!(error.starts_with("Ranges in metres: ") && !error.contains("page.toml"), "{error}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pages_fit_a_phone_and_name_their_parts() {
    let (_server, _driver, client, address) = session().await;
    client.set_window_size(390, 844).await.unwrap();
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    let fits = "return [document.documentElement.scrollWidth, window.innerWidth];";
    for tab in ["fire", "compare"] {
        click(&client, &format!("tab-{tab}")).await;
        if tab == "compare" {
            text_when(&client, "compare-table", |t| t.contains("Command Decision")).await;
        }
        let widths = client.execute(fits, vec![]).await.unwrap();
        let [page, window] = [widths[0].as_u64().unwrap(), widths[1].as_u64().unwrap()];
        assert!(window <= 400 && page <= window, "{tab}: {page} px wide in a {window} px window");
    }
    if std::env::var_os("COMBAT_ODDS_PHONE_SHOT").is_some() {
        screenshot(&client, "page-phone.png").await;
    }
    // The tabs are a tab list; every text area and chart has a name; the page has an icon.
    assert_eq!(count(&client, "[role=tablist] [role=tab]").await, 5);
    let unnamed = client
        .execute(
            "return [...document.querySelectorAll('textarea, svg')].filter((e) => !e.getAttribute('aria-label')).length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(unnamed, 0, "a text area or chart without a name");
    let icon = client
        .execute_async(
            "const done = arguments[0]; fetch(document.querySelector('link[rel=icon]').href).then((r) => done(r.status));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(icon, 200);
    // Balance's trials and seed are in its address.
    click(&client, "tab-balance").await;
    let script = "const t = document.getElementById('balance-trials'); t.value = '4321'; \
                  document.getElementById('balance-seed').value = '77'; \
                  document.getElementById('tab-balance').click();";
    client.execute(script, vec![]).await.unwrap();
    let link = client.current_url().await.unwrap().to_string();
    assert!(link.contains("trials=4321") && link.contains("seed=77"), "{link}");
    client.close().await.unwrap();
}

/// A page on another origin (another port of this machine) whose markup is `html`,
/// served from a thread for as long as the test runs: its address.
fn elsewhere(html: String) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.read(&mut [0; 4096]);
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                html.len()
            );
            let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(html.as_bytes()));
        }
    });
    format!("http://{address}/")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_elsewhere_that_frames_the_page_gets_nothing() {
    let (_server, _driver, client, address) = session().await;
    let framing = elsewhere(format!(
        r#"<!doctype html><p id="host">elsewhere</p><iframe id="app" src="{address}" width="900" height="700"></iframe>"#
    ));
    client.goto(&framing).await.unwrap();
    text_when(&client, "host", |t| t == "elsewhere").await;
    // Time enough for the page to load and answer, were it allowed to.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let frame = client.find(Locator::Id("app")).await.unwrap();
    frame.enter_frame().await.expect("the frame is entered");
    let inside = client.source().await.unwrap_or_default();
    assert!(
        client.find(Locator::Id("p-kill")).await.is_err(),
        "the framed page ran: {}",
        &inside[..inside.len().min(300)]
    );
    assert!(!inside.contains("combat-odds"), "the frame shows the page: {}", &inside[..inside.len().min(300)]);
    client.close().await.unwrap();
}

/// The page's own `encode` of `text`, as its links carry a file.
async fn encoded(client: &Client, text: &str) -> String {
    let script = "const [text, done] = arguments; import('/page/url.js').then((m) => done(m.encode(text)));";
    let value = client.execute_async(script, vec![text.into()]).await.unwrap();
    value.as_str().expect("a string").to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_loaded_link_shows_exact_answers_and_starts_no_long_work() {
    // One long-run slot: a link that started ten million trials would hold it.
    let (_server, _driver, client, address) = session_with(&["--max-runs", "1"]).await;
    client.goto(&address).await.unwrap();
    text_when(&client, "p-kill", |t| t.contains("exact")).await;
    let fight = std::fs::read_to_string(repository().join("experiments/cd_engagement_tank_duel.toml")).unwrap();
    let link = format!(
        "{address}#page=fire&trials=10000000&seed=2026&mode=literal&scenario={}",
        encoded(&client, &fight).await
    );
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    let kill = text_when(&client, "p-kill", |t| t.contains("press Compute")).await;
    assert!(kill.starts_with("Chance the winner is ") && kill.contains("exact"), "{kill}");
    let status = text_when(&client, "fire-status", |t| t.starts_with("opened from a link")).await;
    assert!(status.contains("Compute runs the Monte Carlo trials"), "{status}");
    assert_eq!(
        client.find(Locator::Id("fire-trials")).await.unwrap().prop("value").await.unwrap().as_deref(),
        Some("10000000")
    );
    // The one slot is free: a long run asked for now is taken, not refused as busy.
    let duel = std::fs::read_to_string(repository().join("experiments/cd_tank_duel.toml")).unwrap();
    let script = "const [scenario, done] = arguments; \
                  fetch('/api/fire', { method: 'POST', headers: { 'content-type': 'application/json' }, \
                    body: JSON.stringify({ scenario, trials: 2000000 }) }).then((r) => done(r.status));";
    let status = client.execute_async(script, vec![duel.into()]).await.unwrap();
    assert_eq!(status, 200, "the link started long work: the only slot was taken");

    // A comparison's link fills the form and waits for Compare.
    let comparison =
        std::fs::read_to_string(repository().join("experiments/compare_at_gun_vs_medium_tank.toml")).unwrap();
    let link =
        format!("{address}#page=compare&trials=20000&seed=2026&comparison={}", encoded(&client, &comparison).await);
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    text_when(&client, "compare-status", |t| t == "press Compare to run it").await;
    let name = client.find(Locator::Id("compare-name")).await.unwrap().prop("value").await.unwrap();
    assert_eq!(name.as_deref(), Some("AT gun vs medium tank"));
    assert!(client.find(Locator::Id("compare-table")).await.is_err(), "nothing was compared");
    click(&client, "compare-start").await;
    text_when(&client, "compare-status", |t| t == "done").await;
    let table = text_when(&client, "compare-table", |t| t.contains("Command Decision 75mm PaK 40 anti-tank gun")).await;
    assert!(table.contains("Command Decision 75mm PaK 40 anti-tank gun 66.36%"), "{table}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_catalogue_of_the_player_s_own_is_loaded_beside_the_form_and_read_by_the_answer() {
    let (_server, _driver, client, address) = session().await;
    own_catalogue_read_by_the_answer(&client, &address).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_request_is_said_beside_its_field_and_greys_the_answer_on_screen() {
    let (_server, _driver, client, address) = session().await;
    refusals_said_beside_their_field_grey_the_answer(&client, &address).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_weapon_changed_in_the_catalogue_editor_answers_as_rules_dir_and_travels_by_link() {
    let (_server, _driver, client, address) = session().await;
    catalogue_editor_answers_as_rules_dir_and_travels_by_link(&client, &address).await;
    // The editor open on the gun just changed, for the README.
    let open = "document.getElementById('fire-catalogue-box').open = true; \
                const s = document.getElementById('fire-catalogue-entry'); s.value = 'weapon.de_75mm_kwk42'; \
                s.dispatchEvent(new Event('change')); document.getElementById('fire-catalogue-box').scrollIntoView();";
    client.execute(open, vec![]).await.unwrap();
    text_when(&client, "fire-catalogue-fields", |t| t.contains("Long band") && t.contains("hit number")).await;
    screenshot(&client, "page-catalogue.png").await;
    client.close().await.unwrap();
}

/// The ids of ruleset `name`'s catalogue entries, as its shipped file gives them: each
/// `[list.id]` table, or each `name = "id"` of an array of tables.
fn catalogue_ids(name: &str) -> Vec<String> {
    let file = if name == "chain-of-command" { "weapons.toml" } else { "catalogue.toml" };
    let text = std::fs::read_to_string(repository().join("rulesets").join(name).join(file)).unwrap();
    let ids: Vec<String> = text
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let header = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).filter(|l| !l.starts_with('['));
            match header.and_then(|h| h.split_once('.')) {
                Some((_, id)) if !id.contains('.') => Some(id.to_string()),
                _ => line.strip_prefix("name = \"").and_then(|l| l.strip_suffix('"')).map(str::to_string),
            }
        })
        .collect();
    assert!(ids.len() > 4, "{name}'s catalogue ids: {ids:?}");
    ids
}
