//! Downloads: a finished run's or sweep's files (each measure's frame as CSV and
//! Parquet, the long frame, `summary.json`: the bytes `run` and `sweep` write), kept by
//! the request layer's work through [`crate::state::State`]'s downloads, fetched by
//! `GET /api/results/{id}/{file}`.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::api::Refused;
use crate::state::{Files, KEPT, State};

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
