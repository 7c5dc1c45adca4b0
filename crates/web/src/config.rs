//! How the server answers: what one request may ask for and cost, what one connection
//! may hold, and the table overrides, as the binary's flags set them. Every handler
//! reads them from the shared state; nothing here depends on another module.

use std::time::Duration;

use combat_odds_report::request;
use combat_odds_rules::Rules;

/// Work estimated past this holds a long-run slot unless the server is told otherwise:
/// a single fire's million trials take a few hundredths of a second, a fight's exact
/// stage or trials far longer.
pub const LONG_WORK: Duration = Duration::from_secs(2);

/// What the server is allowed to do for one request: the request layer's limits
/// (trials, cost, exact budget, the same a browser tab keeps), and what the server adds
/// to them, its long-run slots.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most Monte Carlo trials one request may ask for.
    pub max_trials: u64,
    /// How many pieces of long work (any request estimated past `long_work`) may be
    /// under way at once; a request beyond them is refused with a message rather than
    /// queued.
    pub max_runs: usize,
    /// Work estimated past this (in seconds of one core) is long work and holds one of
    /// the `max_runs` slots until it has stopped: [`LONG_WORK`] unless told.
    pub long_work: Duration,
    /// The most work one request may be estimated at, in seconds of one core: its
    /// trials in all at its scenario's pace, and the most its exact stages may take.
    pub max_cost: Duration,
    /// The most one exact stage (a Markov chain solved or compiled) of a request may
    /// take (`--exact-seconds`); a request may ask for less. Each request's stages
    /// keep their own clock.
    pub exact_budget: Duration,
}

impl Limits {
    /// The request layer's limits, as this server sets them.
    pub(crate) fn request(&self) -> request::Limits {
        request::Limits {
            max_trials: self.max_trials,
            max_cost: self.max_cost,
            exact_budget: self.exact_budget,
            ..request::Limits::SERVER
        }
    }
}

impl Default for Limits {
    /// The request layer's server limits, four long runs at once.
    fn default() -> Self {
        let server = request::Limits::SERVER;
        Limits {
            max_trials: server.max_trials,
            max_runs: 4,
            long_work: LONG_WORK,
            max_cost: server.max_cost,
            exact_budget: server.exact_budget,
        }
    }
}

/// What one connection may hold, and for how long: a flood of idle or slow
/// connections holds neither memory nor the user's place.
#[derive(Debug, Clone, Copy)]
pub struct Connections {
    /// The most connections open at once; more wait, unanswered, until one closes.
    pub max_open: usize,
    /// How long a connection may take to send a request's headers, counted from when
    /// it opens or its last answer ended: an idle connection closes after this too.
    pub header_timeout: Duration,
    /// How long a request may take to send its body, once its headers are in.
    pub body_timeout: Duration,
    /// How long one write of an answer may wait for the client to read: a client that
    /// asks and never reads holds no send queue past it.
    pub write_timeout: Duration,
    /// The most connections open at once from one address other than loopback: one
    /// client elsewhere on the network cannot take every place (on loopback every local
    /// client, the user's page among them, is one address, so places there are kept
    /// fair by age, below).
    pub max_per_peer: usize,
    /// How long one connection is kept open: past it, it closes once its answer under
    /// way ends, so kept-alive connections pinging every few seconds cannot hold every
    /// place for ever. While a new connection waits for a place, the oldest open one is
    /// asked to close at once the same way.
    pub max_age: Duration,
}

impl Default for Connections {
    fn default() -> Self {
        Connections {
            max_open: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
            max_per_peer: 64,
            max_age: Duration::from_secs(60),
        }
    }
}

/// How the server answers.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The rulesets served, with their tables overridden as `--rules DIR` says.
    pub rules: Rules,
    /// Per-request bounds.
    pub limits: Limits,
    /// Host names the server answers to besides loopback's and the address it listens
    /// on (`--allow-host`): a name this machine has on the network, when `--listen`
    /// shares the page.
    pub hosts: Vec<String>,
    /// Per-connection bounds.
    pub connections: Connections,
}
