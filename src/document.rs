//! A TOML document a user can edit (a table file or a scenario), kept with its
//! origin so that every error can name the file, line and column.

use serde::de::DeserializeOwned;

use crate::error::{Error, Result};

/// A TOML document's text and where it came from.
#[derive(Debug, Clone)]
pub struct Document {
    /// File name, e.g. `hit_results.toml`.
    pub name: String,
    /// For messages: the path as the user gave it, or `rulesets/.../x.toml (embedded)`.
    pub origin: String,
    /// The TOML text.
    pub text: String,
}

impl Document {
    /// A document from its parts.
    pub fn new(name: impl Into<String>, origin: impl Into<String>, text: impl Into<String>) -> Self {
        Document { name: name.into(), origin: origin.into(), text: text.into() }
    }

    /// Reads a user's file.
    pub fn read(path: &std::path::Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::input(path.display().to_string(), format!("cannot read the file: {e}")))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(Document::new(name, path.display().to_string(), text))
    }

    /// Deserializes the document; syntax and shape errors carry line and column.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T> {
        toml::from_str(&self.text).map_err(|e| {
            let message = e.message().trim().replace('\n', " ");
            match e.span() {
                Some(span) => self.error_at(span.start, message),
                None => self.error(message),
            }
        })
    }

    /// An error at a byte offset of this document.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> Error {
        Error::at(&self.origin, &self.text, offset, message)
    }

    /// An error about this document without a place.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::input(&self.origin, message)
    }
}
