//! A request refused: its status and the one line that says why, sent as JSON like
//! every other answer; the library's errors map to their statuses here.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use combat_odds_core::error::Error as CoreError;
use combat_odds_report::error::Error as ReportError;

/// A request refused: its status and the one line that says why.
#[derive(Debug)]
pub(crate) struct Refused {
    status: StatusCode,
    message: String,
}

impl Refused {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Refused { status, message: message.into() }
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

impl From<ReportError> for Refused {
    fn from(e: ReportError) -> Self {
        let status = match &e {
            ReportError::Core(CoreError::Input { .. } | CoreError::Setting { .. }) => StatusCode::BAD_REQUEST,
            ReportError::Core(CoreError::Unknown { .. }) => StatusCode::NOT_FOUND,
            ReportError::Core(CoreError::Interrupted) => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Refused::new(status, e.to_string())
    }
}

impl From<CoreError> for Refused {
    fn from(e: CoreError) -> Self {
        ReportError::from(e).into()
    }
}
