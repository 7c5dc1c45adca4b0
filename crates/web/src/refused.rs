//! A request refused: its status and the one line that says why, sent as the JSON every
//! front door sends (the request layer's [`request::Refused::to_json`]); the request
//! layer's kinds of refusal map to their statuses here.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use combat_odds_core::error::Error as CoreError;
use combat_odds_report::request::{self, Kind};

/// A request refused: its status and the one line that says why.
#[derive(Debug)]
pub(crate) struct Refused {
    status: StatusCode,
    refused: request::Refused,
}

impl Refused {
    /// A refusal of the server's own (a route, a method, a slot), with its status.
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        let kind = if status.is_server_error() { Kind::Failed } else { Kind::Invalid };
        Refused { status, refused: request::Refused::new(kind, message) }
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        (self.status, [(header::CONTENT_TYPE, "application/json")], self.refused.to_json()).into_response()
    }
}

impl From<request::Refused> for Refused {
    fn from(refused: request::Refused) -> Self {
        let status = match refused.kind {
            Kind::Invalid | Kind::TooMuch => StatusCode::BAD_REQUEST,
            Kind::NotFound => StatusCode::NOT_FOUND,
            Kind::Interrupted => StatusCode::SERVICE_UNAVAILABLE,
            Kind::Failed => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Refused { status, refused }
    }
}

impl From<CoreError> for Refused {
    fn from(e: CoreError) -> Self {
        request::Refused::from(e).into()
    }
}
