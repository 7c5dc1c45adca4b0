//! `combat-odds serve` as a process: what only a process shows (its processor time, its
//! signals, its temporary folder).
//!
//! The server's price of a request against the work it then does: every request is
//! priced before any of its work starts (admitted or refused by it), so a price far
//! under the work lets one request hold the machine for minutes past its limit, and one
//! far over it refuses work the server could do. Each case is priced by a server that
//! refuses everything (so its refusal says the price), then run by another whose
//! processor time is read from `/proc` around it: the price holds the measured time
//! within a factor of three either way. A separate process, so no other test's threads
//! are counted.
//!
//! The default tier holds the hostile shape that was priced at its trials alone (a
//! balance of many values of one trial each) and one shipped sweep; the long tier
//! (`COMBAT_ODDS_LONG_GRIDS=1`) every shipped sweep, a balance of a fight, a sweep of
//! the most points a sweep may have, and a comparison.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::common::cli::BIN;
use crate::common::grid::LONG_GRIDS;

/// `combat-odds serve` with `flags`, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(flags: &[&str]) -> Server {
        Server::start_in(flags, &std::env::temp_dir())
    }

    /// A server whose temporary folder is `tmp`.
    fn start_in(flags: &[&str], tmp: &std::path::Path) -> Server {
        let mut child = Command::new(BIN)
            .env("TMPDIR", tmp)
            .args(["serve", "--port", "0"])
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        let mut out = BufReader::new(child.stdout.take().expect("its output"));
        while !line.contains("http://") {
            line.clear();
            assert!(out.read_line(&mut line).expect("its first lines") > 0, "the server ended before it listened");
        }
        let at = line.find("http://").unwrap() + "http://".len();
        let address = line[at..].split(['/', ' ', '\n']).next().unwrap().to_string();
        Server { child, address }
    }

    /// The body of `path`'s answer to `body` (for long work, its last event's data).
    fn post(&self, path: &str, body: &Value) -> String {
        let body = body.to_string();
        let mut stream = std::net::TcpStream::connect(&self.address).expect("a connection");
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("the whole answer");
        let data = answer.lines().filter_map(|l| l.strip_prefix("data:")).next_back();
        match data {
            Some(data) => data.trim().to_string(),
            None => answer.split("\r\n\r\n").nth(1).unwrap_or_default().to_string(),
        }
    }

    /// Seconds of processor time the server has used (user and system, all threads).
    fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).expect("/proc");
        // After the command name's closing parenthesis: state is field 3, utime 14 and
        // stime 15, in clock ticks of 1/100 s.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
        ticks / 100.0
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Seconds as the price's words say them: "3.2 hours", "12 minutes", "5 seconds",
/// "12.3 ms", "24.70 µs".
fn seconds(words: &str) -> f64 {
    let (n, unit) = words.split_once(' ').expect("a number and its unit");
    let n: f64 = n.parse().expect("a number");
    n * match unit {
        "hours" => 3600.0,
        "minutes" => 60.0,
        "seconds" => 1.0,
        "ms" => 1e-3,
        "µs" => 1e-6,
        other => panic!("unit {other}"),
    }
}

/// The price the refusing server says for `body` at `path`.
fn price(refusing: &Server, path: &str, body: &Value) -> f64 {
    let answer: Value = serde_json::from_str(&refusing.post(path, body)).expect("a JSON refusal");
    let line = answer["error"].as_str().unwrap_or_else(|| panic!("{path}: refused with its price, not {answer}"));
    let words = line.strip_prefix("this is about ").unwrap_or_else(|| panic!("{path}: {line}"));
    seconds(&words[..words.find(" of work").unwrap()])
}

fn experiment(name: &str) -> String {
    std::fs::read_to_string(crate::common::experiment_path(name)).unwrap()
}

/// (what, path, body) of every case of this tier.
fn cases() -> Vec<(String, &'static str, Value)> {
    // 1,500 ranges of the default duel, one trial each: every value is one set-up.
    let ranges: Vec<u32> = (0..1500).map(|i| 4 + i % 40).collect();
    let mut cases = vec![
        (
            "a balance of 1,500 values of one trial each".to_string(),
            "/api/balance",
            json!({ "scenario": experiment("cd_tank_duel.toml"), "vary": "range", "values": ranges, "trials": 1 }),
        ),
        (
            "the shipped Mission Command sweep".to_string(),
            "/api/sweep",
            json!({ "sweep": experiment("sweep_mc_hmg_vs_rifle_sections.toml") }),
        ),
    ];
    if std::env::var_os(LONG_GRIDS).is_some_and(|v| v == "1") {
        for name in [
            "sweep_cc_veteran_vs_hull_down.toml",
            "sweep_cd_shermans_vs_panther.toml",
            "sweep_coc_force_morale_vs_dice.toml",
        ] {
            cases.push((format!("the shipped {name}"), "/api/sweep", json!({ "sweep": experiment(name) })));
        }
        cases.push((
            "a balance of a fight over listed values".to_string(),
            "/api/balance",
            json!({ "scenario": experiment("mc_engagement_hmg_vs_rifle_platoon.toml"), "vary": "side[1].unit[0].count",
                    "values": [1, 2, 3], "trials": 20000 }),
        ));
        // The hostile shape whose pricing once ran on for 85 s after its client left:
        // the most points a sweep may have, each a range of the duel.
        let most_points = "kind = \"sweep\"\nscenario = \"base.toml\"\n\
                           [[vary]]\nkey = \"range\"\nfrom = 0.01\nto = 100\nstep = 0.01\n";
        cases.push((
            "a sweep of 10,000 ranges of the duel".to_string(),
            "/api/sweep",
            json!({ "sweep": most_points, "base": experiment("cd_tank_duel.toml"), "trials": 1000 }),
        ));
        cases.push((
            "the shipped comparison".to_string(),
            "/api/compare",
            json!({ "scenario": experiment("compare_at_gun_vs_medium_tank.toml") }),
        ));
    }
    cases
}

#[test]
fn every_request_is_priced_within_three_times_the_processor_time_it_takes() {
    let refusing = Server::start(&["--max-core-seconds", "0.000001"]);
    let working = Server::start(&[]);
    for (what, path, body) in cases() {
        let priced = price(&refusing, path, &body);
        let before = working.cpu_seconds();
        let answer = working.post(path, &body);
        let took = working.cpu_seconds() - before;
        assert!(!answer.contains("\"error\""), "{what}: {answer}");
        // Figures to read with --nocapture.
        println!("{what}: priced at {priced:.2} s of one core, took {took:.2} s of processor time");
        assert!(
            priced >= took / 3.0 && priced <= took * 3.0,
            "{what}: priced at {priced:.2} s of one core, took {took:.2} s of processor time"
        );
    }
}

#[test]
fn the_server_s_downloads_are_private_and_gone_when_a_signal_stops_it() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let server = Server::start_in(&[], tmp.path());
    let body = json!({ "scenario": experiment("cd_engagement_tank_duel.toml"), "trials": 2000 });
    let answer: Value = serde_json::from_str(&server.post("/api/run", &body)).expect("the run's result");
    assert!(answer["files"].as_array().is_some_and(|f| !f.is_empty()), "{answer}");
    let folders: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(folders.len(), 1, "one downloads folder: {folders:?}");
    let mode = std::fs::metadata(&folders[0]).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "only its owner may read what the runs wrote");
    // SIGTERM, as `kill` and `timeout` send it, stops it as Ctrl-C does.
    let stopped = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(stopped.success());
    let mut server = server;
    let _ = server.child.wait();
    assert!(!folders[0].exists(), "the downloads folder is removed with the server");
}
