//! Who the server answers, and how every answer goes out: the page and its endpoints
//! are for the browser tab that loaded them from this server, not for another site's
//! page in the same browser.
//!
//! - A request must name one of the hosts the server listens as (`Host`): a DNS
//!   rebinding page, whose own name now points at this machine, is refused (421).
//! - A POST (the only requests that start work) that comes from a page says so in
//!   `Origin`, and must come from this server's own origin: another site's form or
//!   script is refused (403). Clients that are not browsers (curl) send none.
//! - Every answer forbids framing and loading anything from elsewhere
//!   (`Content-Security-Policy`, `X-Frame-Options`) and type sniffing
//!   (`X-Content-Type-Options`).
//! - A request's body is read whole, within [`Connections::body_timeout`] and
//!   [`BODY_LIMIT`], before any handler sees it.
//! - Every refusal, axum's own (a wrong content type, a field too many, no such route)
//!   included, is a JSON object `{"error": "..."}` with one line, like the library's.

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::uri::Authority;
use axum::http::{Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::Refused;
use crate::config::Connections;

/// The most bytes of request body read: axum's own default for JSON bodies, which is
/// ample for a scenario or sweep file.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// Self only: the page's script and style are files this server serves, nothing is
/// fetched from elsewhere, and no other page may frame it.
const POLICY: &str =
    "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'";

/// The host names a request may name: loopback's always, the address the server
/// listens on, and the names it was told to allow.
#[derive(Debug, Clone, Default)]
pub(crate) struct Hosts {
    /// Names besides `localhost`, lower case (`--allow-host`).
    names: Vec<String>,
    /// The address listened on, when it is neither loopback nor every address.
    address: Option<IpAddr>,
    /// Listening on every address (`0.0.0.0`, `::`): any address of this machine may
    /// be named. An address, unlike a name, cannot be rebound to another machine.
    any_address: bool,
}

impl Hosts {
    /// The hosts of a server told to allow `names` and listening on `listening`
    /// (none: loopback, as for a router called in process).
    pub(crate) fn new(names: &[String], listening: Option<IpAddr>) -> Self {
        let names = names.iter().map(|n| normal(n).to_string()).collect();
        match listening {
            Some(ip) if ip.is_unspecified() => Hosts { names, address: None, any_address: true },
            Some(ip) if !ip.is_loopback() => Hosts { names, address: Some(ip), any_address: false },
            _ => Hosts { names, address: None, any_address: false },
        }
    }

    fn allow(&self, host: &str) -> bool {
        let host = normal(host);
        match host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || self.any_address || self.address == Some(ip),
            Err(_) => host == "localhost" || self.names.contains(&host),
        }
    }
}

/// A host name as compared: lower case, without the root's trailing dot.
fn normal(host: &str) -> String {
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// What the guard needs: the hosts allowed and the connection's limits.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    pub(crate) hosts: Hosts,
    pub(crate) connections: Connections,
}

/// The middleware around every route: refuses what is not for this server, reads the
/// body, and gives every answer its headers and every refusal its JSON.
pub(crate) async fn guard(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let mut response = match admit(&guard, request).await {
        Ok(request) => as_json(next.run(request).await, &method, &path).await,
        Err(refused) => refused.into_response(),
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// The request with its body read, if it is for this server.
async fn admit(guard: &Guard, request: Request) -> Result<Request, Refused> {
    let host = host(request.uri(), request.headers())?;
    if let Some(host) = &host
        && !guard.hosts.allow(host.host())
    {
        return Err(Refused::new(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "host `{}`: this server answers only to the names it listens as (localhost, the address it listens on, and the names it was told to allow)",
                host.host()
            ),
        ));
    }
    if request.method() != Method::GET && request.method() != Method::HEAD {
        same_origin(request.headers(), host.as_ref())?;
    }
    let (parts, body) = request.into_parts();
    let timeout = guard.connections.body_timeout;
    let bytes = match tokio::time::timeout(timeout, to_bytes(body, BODY_LIMIT)).await {
        Err(_) => {
            return Err(Refused::new(
                StatusCode::REQUEST_TIMEOUT,
                format!("the request's body did not arrive within {} s", timeout.as_secs_f64()),
            ));
        }
        Ok(Err(e)) if is_too_large(&e) => {
            return Err(Refused::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request's body is over {} bytes, the most this server reads", BODY_LIMIT),
            ));
        }
        Ok(Err(e)) => return Err(Refused::new(StatusCode::BAD_REQUEST, format!("the request's body: {e}"))),
        Ok(Ok(bytes)) => bytes,
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// The host a request names: its target's authority (`GET http://host/ HTTP/1.1`),
/// else its `Host` header; none for a request with neither, which no browser sends.
fn host(uri: &Uri, headers: &HeaderMap) -> Result<Option<Authority>, Refused> {
    let bad = |what: &str| Refused::new(StatusCode::BAD_REQUEST, format!("the request's host `{what}` is not a host"));
    if let Some(authority) = uri.authority() {
        return Ok(Some(authority.clone()));
    }
    let Some(value) = headers.get(header::HOST) else { return Ok(None) };
    let text = value.to_str().map_err(|_| bad("(not text)"))?;
    match text.parse::<Authority>() {
        Ok(authority) if !text.contains('@') && !authority.host().is_empty() => Ok(Some(authority)),
        _ => Err(bad(text)),
    }
}

/// Refuses a request whose `Origin` is not this server's own: a page elsewhere (or a
/// sandboxed one, whose origin is `null`) may not start work here.
fn same_origin(headers: &HeaderMap, host: Option<&Authority>) -> Result<(), Refused> {
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let text = origin.to_str().unwrap_or("(not text)");
    let ours = text.parse::<Uri>().ok().is_some_and(|uri| {
        uri.scheme_str() == Some("http")
            && uri.authority().zip(host).is_some_and(|(theirs, ours)| same_authority(theirs, ours))
    });
    if ours {
        Ok(())
    } else {
        Err(Refused::new(
            StatusCode::FORBIDDEN,
            format!(
                "origin `{text}`: only the page this server serves may send it work; open it at this server's own address"
            ),
        ))
    }
}

fn same_authority(a: &Authority, b: &Authority) -> bool {
    normal(a.host()) == normal(b.host()) && a.port_u16().unwrap_or(80) == b.port_u16().unwrap_or(80)
}

/// Whether reading a body failed on [`BODY_LIMIT`].
fn is_too_large(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(error) = source {
        if error.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = error.source();
    }
    false
}

/// A refusal in JSON, whatever made it: axum's rejections and its empty 404 and 405
/// come back as `{"error": "..."}` with their text (or what was asked, where they have
/// none), on one line.
async fn as_json(response: Response, method: &Method, path: &str) -> Response {
    let json =
        response.headers().get(header::CONTENT_TYPE).is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(response.status().is_client_error() || response.status().is_server_error()) || json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = to_bytes(body, BODY_LIMIT).await.map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let reason = parts.status.canonical_reason().unwrap_or("refused").to_ascii_lowercase();
    let message = if text.is_empty() { format!("{method} {path}: {reason}") } else { text };
    let mut refused = Refused::new(parts.status, message).into_response();
    // Keep what the refusal said beside its body (405's `Allow`).
    for (name, value) in
        parts.headers.iter().filter(|(name, _)| **name != header::CONTENT_TYPE && **name != header::CONTENT_LENGTH)
    {
        refused.headers_mut().insert(name, value.clone());
    }
    refused
}
