//! Long runs: `POST /api/run` runs a study as `combat-odds run` does and answers with
//! server-sent events (see `stream`): progress while the trials go, then the result,
//! or the one line that says why not; closing the stream cancels the run. The finished
//! run's files (each measure's frame as CSV and Parquet, the long frame, `summary.json`:
//! the bytes `run` writes) are kept for `GET /api/results/{id}/{file}`.

use combat_odds_core::run::Run;
use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use serde::Serialize;

use combat_odds_report::error::Error as ReportError;
use combat_odds_report::export::Report;
use combat_odds_report::study::{Plan, StudyResult};

use crate::api::{Refused, ScenarioRequest, admitted, one_run};
use crate::state::{Files, KEPT, State};
use crate::stream::{Progress, streamed};

/// Trials a run draws when the request names none, as `combat-odds run` does.
const RUN_TRIALS: u64 = 1_000_000;

/// What a finished run sends: its report (the numbers `run` prints) and the files
/// kept for download.
#[derive(Serialize)]
struct Finished {
    /// The number its files are fetched by.
    id: u64,
    /// Every measure, exact beside Monte Carlo.
    report: Report,
    /// Seconds from the exact stage's start to the last trial.
    wall_time_s: f64,
    /// (file name, bytes) of every file kept.
    files: Vec<(String, u64)>,
}

/// `POST /api/run`: the scenario set up (a bad one is refused at once, with its
/// message), then its study run with progress events until it ends.
pub(crate) async fn run(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<ScenarioRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Refused> {
    let monte_carlo = request.monte_carlo(&state.config.limits, RUN_TRIALS)?;
    let exact_budget = request.exact_budget(&state.config.limits)?;
    let price = one_run(monte_carlo, exact_budget);
    let (scenario, doc, slot) = admitted(&state, request.with_tables(), monte_carlo, price).await?;
    let work = move |progress: &Progress, run: &Run| {
        let started = run.now();
        let mut scenario = scenario;
        let exact = scenario.exact(run)?;
        let plan = Plan { scenario, text: &doc.text, shard: None, precision: None };
        StudyResult::run(plan, exact, started, &|done, planned| progress.set(done, planned), run)
    };
    Ok(streamed(state, (slot, exact_budget), work, finish))
}

/// Keeps a finished run's files and says what was kept.
fn finish(state: &State, result: StudyResult) -> Result<Finished, ReportError> {
    let (id, files) = state.keep(|dir| result.write(dir, false))?;
    Ok(Finished { id, report: result.report, wall_time_s: result.summary.wall_time_s, files: files.listed })
}

/// `GET /api/results/{id}/{file}`: one file of a finished run, as a download, read
/// from disk as it is sent.
pub(crate) async fn file(
    Shared(state): Shared<Arc<State>>,
    Path((id, name)): Path<(u64, String)>,
) -> Result<Response, Refused> {
    let files: Files = state.kept(id).ok_or_else(|| {
        Refused::new(
            StatusCode::NOT_FOUND,
            format!("run {id}: not kept (the server keeps the last {KEPT} runs); run it again: the same seed gives the same numbers"),
        )
    })?;
    // Only a name the run wrote: never a path of the client's making.
    let Some((_, size)) = files.listed.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = files.listed.iter().map(|(n, _)| n.as_str()).collect();
        return Err(Refused::new(
            StatusCode::NOT_FOUND,
            format!("run {id} has no file `{name}`; it has {}", names.join(", ")),
        ));
    };
    let gone = |e: std::io::Error| {
        Refused::new(StatusCode::NOT_FOUND, format!("run {id}: `{name}` is no longer kept ({e}); run it again"))
    };
    let file = tokio::fs::File::open(files.dir.join(&name)).await.map_err(gone)?;
    let kind = match name.rsplit('.').next() {
        Some("csv") => "text/csv; charset=utf-8",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/vnd.apache.parquet",
    };
    let disposition = format!("attachment; filename=\"{name}\"");
    let headers = [
        (header::CONTENT_TYPE, kind.to_string()),
        (header::CONTENT_DISPOSITION, disposition),
        (header::CONTENT_LENGTH, size.to_string()),
    ];
    Ok((headers, Body::from_stream(chunks(file))).into_response())
}

/// A file's bytes as a stream of chunks, ending at its end or its first failure.
fn chunks(file: tokio::fs::File) -> impl futures_util::Stream<Item = std::io::Result<Bytes>> {
    use tokio::io::AsyncReadExt;
    futures_util::stream::unfold(Some(file), |file| async move {
        let mut file = file?;
        let mut buffer = vec![0; 64 << 10];
        match file.read(&mut buffer).await {
            Ok(0) => None,
            Ok(n) => {
                buffer.truncate(n);
                Some((Ok(Bytes::from(buffer)), Some(file)))
            }
            Err(e) => Some((Err(e), None)),
        }
    })
}
