//! Keys into the base scenario (`engagement.range`, `side[1].unit[0].count`): a point's
//! values written at their paths, and a key quoted as a message names it.

use toml::{Table, Value};

/// The most parts a key may have: a scenario's deepest value is a few levels down
/// (`side[1].unit[0].count`), and a key of thousands of parts would make a table nested
/// as deep, which writing and dropping it walk recursively (a request's key of 5,000
/// parts once overflowed the server's stack).
const MOST_PARTS: usize = 16;

/// A key as a message quotes it: whole, or its start where it is long.
pub(crate) fn quoted(key: &str) -> String {
    match key.char_indices().nth(60) {
        Some((at, _)) => format!("`{}...` ({} characters)", &key[..at], key.chars().count()),
        None => format!("`{key}`"),
    }
}

/// Writes `value` at `path` (`a.b[2].c`) in `table`: tables on the way are made where
/// missing (a `[settings]` the base leaves out), array elements must exist. A key of
/// more than [`MOST_PARTS`] parts is refused before anything is made.
pub(super) fn set(table: &mut Table, path: &str, value: Value) -> std::result::Result<(), String> {
    let parts = path.split('.').count();
    if parts > MOST_PARTS {
        return Err(format!(
            "a key of {parts} parts; a scenario's values are at most {MOST_PARTS} deep (like side[1].unit[0].count)"
        ));
    }
    let segments: Vec<&str> = path.split('.').collect();
    let (last, ways) = segments.split_last().ok_or("an empty key")?;
    let mut here = table;
    for segment in ways {
        let slot = step(here, segment)?;
        here = slot.as_table_mut().ok_or_else(|| format!("`{segment}` is not a table"))?;
    }
    let (name, index) = split_index(last)?;
    match index {
        None => {
            here.insert(name.to_string(), value);
        }
        Some(i) => *element(here, name, i)? = value,
    }
    Ok(())
}

/// The value a segment names inside `table`, made an empty table when missing.
fn step<'t>(table: &'t mut Table, segment: &str) -> std::result::Result<&'t mut Value, String> {
    let (name, index) = split_index(segment)?;
    match index {
        None => Ok(table.entry(name.to_string()).or_insert_with(|| Value::Table(Table::new()))),
        Some(i) => element(table, name, i),
    }
}

fn element<'t>(table: &'t mut Table, name: &str, i: usize) -> std::result::Result<&'t mut Value, String> {
    let items = table.get_mut(name).and_then(Value::as_array_mut).ok_or_else(|| format!("`{name}` is not a list"))?;
    let len = items.len();
    items.get_mut(i).ok_or_else(|| format!("`{name}[{i}]`: the list has {len} entries, counted from 0"))
}

/// `name[i]` as (name, Some(i)); `name` as (name, None).
fn split_index(segment: &str) -> std::result::Result<(&str, Option<usize>), String> {
    match segment.split_once('[') {
        None if !segment.is_empty() => Ok((segment, None)),
        Some((name, rest)) if !name.is_empty() => {
            let i = rest.strip_suffix(']').and_then(|n| n.parse().ok());
            i.map(|i| (name, Some(i))).ok_or_else(|| format!("`{segment}`: write an entry as name[N], N from 0"))
        }
        _ => Err(format!("`{segment}` is not a key")),
    }
}
