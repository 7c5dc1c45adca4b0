//! Tables printed as a grid: rows keyed by a stable name, with one text cell per
//! column. Each ruleset says how a cell's text reads; this module checks the shape
//! (names unique, the right number of cells) and points errors at the cell.

use serde::Deserialize;
use toml::Spanned;

use super::TableFile;
use crate::error::Result;

/// One row as loaded: its stable name, the label the seed prints, and its cells.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedRow<T> {
    /// Stable snake_case name scenarios use.
    pub name: String,
    /// The row as the seed prints it.
    pub label: String,
    /// Parsed cells, in column order.
    pub cells: Vec<T>,
}

/// A row as written in a data file: `name`, `label` and `cells`, nothing else.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    /// Stable name.
    pub name: Spanned<String>,
    /// The row as the seed prints it.
    pub label: String,
    /// Cell texts, in column order.
    pub cells: Vec<Spanned<String>>,
}

impl RawRow {
    /// Reads the cells with `read` (see [`cells`]).
    pub fn read<T>(
        &self,
        file: &TableFile,
        width: (usize, usize),
        read: impl Fn(&str) -> std::result::Result<T, String>,
    ) -> Result<NamedRow<T>> {
        Ok(NamedRow {
            name: self.name.get_ref().clone(),
            label: self.label.clone(),
            cells: cells(file, &self.name, &self.cells, width, read)?,
        })
    }
}

/// Parses a row's cells with `read`, requiring between `min` and `max` of them; an
/// unreadable cell is reported at its place in the file.
pub fn cells<T>(
    file: &TableFile,
    row: &Spanned<String>,
    raw: &[Spanned<String>],
    (min, max): (usize, usize),
    read: impl Fn(&str) -> std::result::Result<T, String>,
) -> Result<Vec<T>> {
    let name = row.get_ref();
    if raw.len() < min || raw.len() > max {
        let wanted = if min == max { format!("{min}") } else { format!("{min} to {max}") };
        return Err(file.error_at(row.span().start, format!("row `{name}` has {} cells; it needs {wanted}", raw.len())));
    }
    raw.iter()
        .enumerate()
        .map(|(i, c)| {
            read(c.get_ref().trim())
                .map_err(|m| file.error_at(c.span().start, format!("row `{name}`, cell {}: {m}", i + 1)))
        })
        .collect()
}

/// Refuses a second row of the same name.
pub fn unique<'a>(file: &TableFile, names: impl IntoIterator<Item = &'a Spanned<String>>) -> Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for n in names {
        if seen.contains(&n.get_ref().as_str()) {
            return Err(file.error_at(n.span().start, format!("row `{}` appears twice; keep one", n.get_ref())));
        }
        seen.push(n.get_ref());
    }
    Ok(())
}

/// A whole-number cell within `lo..=hi`.
pub fn number(text: &str, lo: i32, hi: i32, what: &str) -> std::result::Result<i32, String> {
    match text.parse::<i32>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{what} {n} is outside {lo} to {hi}")),
        Err(_) => Err(format!("`{text}` is not a {what}")),
    }
}
