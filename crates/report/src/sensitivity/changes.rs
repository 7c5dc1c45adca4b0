//! The one-step changes of a TOML document, found by walking its value tree: nothing
//! here knows a ruleset.
//!
//! Every integer moves up and down by one. A string is either a die-roll band (`"1-3"`,
//! `"7+"`, `"-11 or less"`, `"0 to -4"`) or text holding numbers (`"15 / 18"`,
//! `"S5/C7/D9"`, `"11 at 25-50cm"`, `"2 or more"`), whose numbers move one at a time.
//! Bands run on without gaps, so an edge where one band meets the next moves with it:
//! the boundary between `"4-6"` and `"7+"` moves to `"4-5"`, `"6+"` or to `"4-7"`,
//! `"8+"`; an edge that meets no band moves alone. Bands meet across the cells of one
//! row (`no_effect`, `forced_back`, `eliminated`) or down a list of rows that hold one
//! band each (`[[row]] exceed = "1-2"`, then `"3-4"`). A bare number (`"3"`) counts as
//! a band only beside a written band, so a row of d20 scores is never read as one.
//! Free text (labels, notes, the `[source]` block), names (`snake_case` strings) and
//! the size of the die a table rolls are not cells.
//!
//! A scenario's `modifiers = [...]` lists (and `target_modifiers`, any key ending
//! `_modifiers`) give the other kind of change: dropping one named modifier.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use combat_odds_core::tables::RollRange;

/// What a change does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One number moved by one.
    Value,
    /// The boundary between two bands moved by one.
    Boundary,
    /// A named modifier dropped from the scenario.
    DropModifier,
}

impl Kind {
    /// As reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Value => "value",
            Kind::Boundary => "boundary",
            Kind::DropModifier => "drop_modifier",
        }
    }
}

/// One change of a document: what it is, for the reader, and the text edits that make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// What kind of step it is.
    pub kind: Kind,
    /// Where, as a readable path: `row[regular].eliminated`.
    pub cell: String,
    /// The text as it is.
    pub now: String,
    /// The text after the change.
    pub changed: String,
    /// (byte span of a value, its new TOML text).
    edits: Vec<(Range<usize>, String)>,
}

impl Change {
    /// `text` (the document the change was found in) with the change made.
    pub fn apply(&self, text: &str) -> String {
        let mut edits = self.edits.clone();
        edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
        let mut out = text.to_string();
        for (span, new) in edits {
            out.replace_range(span, &new);
        }
        out
    }
}

/// Every one-step change of a table file's cells, in document order (keys sorted).
pub(crate) fn table_changes(text: &str) -> Result<Vec<Change>, String> {
    let cells = cells(text)?;
    let mut changes = Vec::new();
    let bands = Bands::find(&cells);
    for (i, cell) in cells.iter().enumerate() {
        match &cell.value {
            Scalar::Integer(n) => {
                for step in [1, -1] {
                    let new = n + step;
                    changes.push(Change {
                        kind: Kind::Value,
                        cell: render(&cell.path),
                        now: n.to_string(),
                        changed: new.to_string(),
                        edits: vec![(cell.span.clone(), new.to_string())],
                    });
                }
            }
            Scalar::Text(s) => match bands.ranges.get(&i) {
                Some(range) => changes.extend(bands.edge_changes(i, cell, s, *range)),
                None => changes.extend(number_changes(cell, s)),
            },
        }
    }
    changes.extend(bands.boundary_changes(&cells));
    Ok(changes)
}

/// Dropping each modifier a scenario names: every `modifiers = ["a", "b"]` list (and
/// `target_modifiers`, any key ending `_modifiers`), one name at a time.
pub(crate) fn modifier_drops(text: &str) -> Result<Vec<Change>, String> {
    let root = DeTable::parse(text).map_err(|e| e.to_string())?;
    let mut walker = Walker { columns: None, cells: Vec::new(), lists: Vec::new() };
    walker.table(root.get_ref(), &mut Vec::new());
    let mut changes = Vec::new();
    for (path, span, names) in walker.lists {
        for (i, name) in names.iter().enumerate() {
            let rest: Vec<String> =
                names.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, n)| toml_string(n)).collect();
            changes.push(Change {
                kind: Kind::DropModifier,
                cell: render(&path),
                now: name.clone(),
                changed: "dropped".into(),
                edits: vec![(span.clone(), format!("[{}]", rest.join(", ")))],
            });
        }
    }
    Ok(changes)
}

/// One step of a path into a document.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    /// A table key.
    Key(String),
    /// An array element: its index and how it reads (its id, its column, or its index).
    Index(usize, String),
}

/// A path as people read it: `row[regular].eliminated`, `firer[lmg].cells[good_cover]`.
fn render(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Step::Index(_, label) => s += &format!("[{label}]"),
        }
    }
    s
}

/// A number or a string cell.
#[derive(Debug, Clone)]
enum Scalar {
    Integer(i64),
    Text(String),
}

/// A cell: where it is, the span of its value, its value.
#[derive(Debug, Clone)]
struct Cell {
    path: Vec<Step>,
    span: Range<usize>,
    value: Scalar,
}

/// Keys whose strings are prose for the reader, not table values.
fn is_free_text(key: &str) -> bool {
    const FREE_TEXT: [&str; 9] =
        ["name", "label", "labels", "note", "summary", "split", "description", "weapon_type", "calibre"];
    FREE_TEXT.contains(&key) || key.ends_with("_label") || key.ends_with("_labels")
}

/// Keys naming the die a table rolls: the table's shape, not a cell of it.
fn is_die(key: &str) -> bool {
    key == "die" || key.ends_with("_die")
}

/// A `snake_case` name (a reference to a row or a weapon), not a value.
fn is_name(s: &str) -> bool {
    s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && s.chars().any(|c| c.is_ascii_lowercase() || c == '_')
}

/// Keys that name an element of an array of tables, in order of preference; the first
/// present in every element with a different value in each labels them.
const ID_KEYS: [&str; 13] = [
    "name",
    "quality",
    "event",
    "reading",
    "artillery",
    "result",
    "level",
    "band",
    "ap",
    "count",
    "force_morale",
    "roll",
    "label",
];

struct Walker {
    /// The document's top-level `columns` list: the names of a row's cells.
    columns: Option<Vec<String>>,
    cells: Vec<Cell>,
    /// `modifiers` lists of strings: (path, span of the array, names).
    lists: Vec<(Vec<Step>, Range<usize>, Vec<String>)>,
}

impl Walker {
    fn table(&mut self, table: &DeTable, path: &mut Vec<Step>) {
        for (key, value) in table.iter() {
            let key: &str = key.get_ref();
            if (path.is_empty() && key == "source") || is_free_text(key) || is_die(key) {
                continue;
            }
            path.push(Step::Key(key.to_string()));
            if (key == "modifiers" || key.ends_with("_modifiers"))
                && let Some(names) = value.get_ref().as_array().and_then(|a| {
                    a.iter().map(|v| v.get_ref().as_str().map(str::to_string)).collect::<Option<Vec<_>>>()
                })
            {
                self.lists.push((path.clone(), value.span(), names));
            } else {
                self.value(value, path);
            }
            path.pop();
        }
    }

    fn value(&mut self, value: &Spanned<DeValue>, path: &mut Vec<Step>) {
        match value.get_ref() {
            DeValue::Integer(i) => {
                if let Ok(n) = i64::from_str_radix(i.as_str(), i.radix()) {
                    self.cells.push(Cell { path: path.clone(), span: value.span(), value: Scalar::Integer(n) });
                }
            }
            DeValue::String(s) if s.chars().any(|c| c.is_ascii_digit()) && !is_name(s) => {
                self.cells.push(Cell { path: path.clone(), span: value.span(), value: Scalar::Text(s.to_string()) });
            }
            DeValue::Table(t) => self.table(t, path),
            DeValue::Array(items) => {
                for (i, (item, label)) in items.iter().zip(self.labels(items)).enumerate() {
                    path.push(Step::Index(i, label));
                    self.value(item, path);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    /// How each element of an array reads: its id, its column name, or its index.
    fn labels(&self, items: &[Spanned<DeValue>]) -> Vec<String> {
        let tables: Option<Vec<&DeTable>> = items.iter().map(|v| v.get_ref().as_table()).collect();
        if let Some(tables) = tables {
            for key in ID_KEYS {
                let ids: Option<Vec<String>> = tables.iter().map(|t| id(t, key)).collect();
                if let Some(ids) = ids
                    && ids.iter().collect::<BTreeSet<_>>().len() == ids.len()
                {
                    return ids;
                }
            }
        } else if let Some(columns) = &self.columns
            && columns.len() == items.len()
            && items.iter().all(|v| v.get_ref().as_str().is_some() || v.get_ref().is_integer())
        {
            return columns.clone();
        }
        (0..items.len()).map(|i| i.to_string()).collect()
    }
}

/// An element's id under `key`: a string as it is, a number as `key=N`.
fn id(table: &DeTable, key: &str) -> Option<String> {
    let (_, value) = table.iter().find(|(k, _)| k.get_ref() == key)?;
    match value.get_ref() {
        DeValue::String(s) => Some(s.to_string()),
        DeValue::Integer(i) => Some(format!("{key}={}", i.as_str())),
        _ => None,
    }
}

/// The cells of a table file.
fn cells(text: &str) -> Result<Vec<Cell>, String> {
    let root = DeTable::parse(text).map_err(|e| e.to_string())?;
    let columns =
        root.get_ref().iter().find(|(k, _)| k.get_ref() == "columns").and_then(|(_, v)| {
            v.get_ref().as_array()?.iter().map(|c| c.get_ref().as_str().map(str::to_string)).collect()
        });
    let mut walker = Walker { columns, cells: Vec::new(), lists: Vec::new() };
    walker.table(root.get_ref(), &mut Vec::new());
    Ok(walker.cells)
}

/// A string as a TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            c if c.is_control() => out += &format!("\\u{:04X}", c as u32),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The numbers written in a string: (byte span, value). A minus sign belongs to a
/// number at the start or after a space; between digits it is a range (`25-50cm`).
fn numbers(s: &str) -> Vec<(Range<usize>, i64)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let mut start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if start > 0 && b[start - 1] == b'-' && (start == 1 || b[start - 2].is_ascii_whitespace()) {
            start -= 1;
        }
        if let Ok(n) = s[start..i].parse::<i64>() {
            out.push((start..i, n));
        }
    }
    out
}

/// Each number of a text cell moved by one, the others kept; and a number the cell
/// writes more than once moved everywhere at once, for that is how a cell says one
/// value twice (`"11 at 25-50cm 15 at 50-75cm"`: the clauses meet at 50).
fn number_changes(cell: &Cell, s: &str) -> Vec<Change> {
    let found = numbers(s);
    let mut groups: Vec<Vec<Range<usize>>> = found.iter().map(|(span, _)| vec![span.clone()]).collect();
    let mut repeated: BTreeMap<i64, Vec<Range<usize>>> = BTreeMap::new();
    for (span, n) in &found {
        repeated.entry(*n).or_default().push(span.clone());
    }
    groups.extend(repeated.into_values().filter(|spans| spans.len() > 1));
    let mut changes = Vec::new();
    for spans in groups {
        let n: i64 = s[spans[0].clone()].parse().expect("a number found in the text");
        for step in [1, -1] {
            let mut changed = String::new();
            let mut at = 0;
            for span in &spans {
                changed += &s[at..span.start];
                changed += &(n + step).to_string();
                at = span.end;
            }
            changed += &s[at..];
            changes.push(Change {
                kind: Kind::Value,
                cell: render(&cell.path),
                now: s.to_string(),
                changed: changed.clone(),
                edits: vec![(cell.span.clone(), toml_string(&changed))],
            });
        }
    }
    changes
}

/// A band written as its original was: `3`, `2-5`, `6+`, `-11 or less`, `1 to 5`,
/// `0 to -4` (falling, if the original fell).
fn band_text(original: &str, lo: i32, hi: Option<i32>) -> String {
    let Some(hi) = hi else { return format!("{lo}+") };
    if lo == i32::MIN {
        return format!("{hi} or less");
    }
    if lo == hi {
        return hi.to_string();
    }
    if let Some((a, b)) = original.split_once(" to ") {
        let falling = matches!((a.trim().parse::<i32>(), b.trim().parse::<i32>()), (Ok(a), Ok(b)) if a > b);
        return if falling { format!("{hi} to {lo}") } else { format!("{lo} to {hi}") };
    }
    if lo < 0 { format!("{lo} to {hi}") } else { format!("{lo}-{hi}") }
}

/// The band cells of a document and the boundaries where they meet.
struct Bands {
    /// Cell index -> its band.
    ranges: BTreeMap<usize, RollRange>,
    /// (lower band, upper band) cell indices: the first's top meets the second's bottom.
    pairs: BTreeSet<(usize, usize)>,
}

impl Bands {
    fn find(cells: &[Cell]) -> Self {
        // Strings that read as bands, and whether they are written as one (not a bare number).
        let candidates: BTreeMap<usize, (RollRange, bool)> = cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match &c.value {
                Scalar::Text(s) => {
                    let range = s.parse::<RollRange>().ok()?;
                    Some((i, (range, s.trim().parse::<i64>().is_err())))
                }
                Scalar::Integer(_) => None,
            })
            .collect();
        // A row is the path up to its last array element; a list of rows with one band
        // each is a column of bands.
        let row = |c: &Cell| match c.path.iter().rposition(|s| matches!(s, Step::Index(..))) {
            Some(last) => c.path[..=last].to_vec(),
            None => c.path.clone(),
        };
        let mut per_row: BTreeMap<Vec<Step>, usize> = BTreeMap::new();
        for &i in candidates.keys() {
            *per_row.entry(row(&cells[i])).or_default() += 1;
        }
        let mut groups: BTreeMap<(bool, Vec<Step>), Vec<usize>> = BTreeMap::new();
        for &i in candidates.keys() {
            let c = &cells[i];
            groups.entry((false, c.path[..c.path.len() - 1].to_vec())).or_default().push(i);
            if per_row[&row(c)] == 1
                && let Some(last) = c.path.iter().rposition(|s| matches!(s, Step::Index(..)))
            {
                let mut column = c.path.clone();
                column[last] = Step::Index(usize::MAX, "*".into());
                groups.entry((true, column)).or_default().push(i);
            }
        }
        let mut ranges = BTreeMap::new();
        let mut pairs = BTreeSet::new();
        for (&i, &(range, written)) in &candidates {
            if written {
                ranges.insert(i, range);
            }
        }
        for members in groups.values().filter(|m| m.iter().any(|i| candidates[i].1)) {
            for &a in members {
                ranges.insert(a, candidates[&a].0);
                for &b in members {
                    let (ra, rb) = (candidates[&a].0, candidates[&b].0);
                    if a != b && rb.lo != i32::MIN && ra.hi.is_some_and(|h| h.checked_add(1) == Some(rb.lo)) {
                        pairs.insert((a, b));
                    }
                }
            }
        }
        Bands { ranges, pairs }
    }

    /// A band's edges that meet no other band, each moved by one on its own.
    fn edge_changes(&self, i: usize, cell: &Cell, s: &str, range: RollRange) -> Vec<Change> {
        let mut out = Vec::new();
        let mut push = |lo: i32, hi: Option<i32>| {
            if hi.is_some_and(|h| lo > h) {
                return; // the band would be empty: that removes it, not a one-step change
            }
            let changed = band_text(s, lo, hi);
            out.push(Change {
                kind: Kind::Value,
                cell: render(&cell.path),
                now: s.to_string(),
                changed: changed.clone(),
                edits: vec![(cell.span.clone(), toml_string(&changed))],
            });
        };
        if range.lo != i32::MIN && !self.pairs.iter().any(|&(_, b)| b == i) {
            for step in [1, -1] {
                push(range.lo + step, range.hi);
            }
        }
        if let Some(hi) = range.hi
            && !self.pairs.iter().any(|&(a, _)| a == i)
        {
            for step in [1, -1] {
                push(range.lo, Some(hi + step));
            }
        }
        out
    }

    /// Each boundary where two bands meet, moved up and down by one.
    fn boundary_changes(&self, cells: &[Cell]) -> Vec<Change> {
        let mut out = Vec::new();
        for &(a, b) in &self.pairs {
            let (ra, rb) = (self.ranges[&a], self.ranges[&b]);
            let (ca, cb) = (&cells[a], &cells[b]);
            let (Scalar::Text(sa), Scalar::Text(sb)) = (&ca.value, &cb.value) else { continue };
            let parent = |c: &Cell| c.path[..c.path.len() - 1].to_vec();
            let cell = if parent(ca) == parent(cb) {
                let last = |c: &Cell| render(&c.path[c.path.len() - 1..]);
                let prefix = render(&parent(ca));
                let joined = format!("{}/{}", last(ca), last(cb));
                if prefix.is_empty() { joined } else { format!("{prefix}.{joined}") }
            } else {
                format!("{}/{}", render(&ca.path), render(&cb.path))
            };
            let Some(top) = ra.hi else { continue };
            for step in [1, -1] {
                let (new_top, new_bottom) = (top + step, rb.lo + step);
                if ra.lo > new_top || rb.hi.is_some_and(|h| new_bottom > h) {
                    continue; // a band would be empty
                }
                let (ta, tb) = (band_text(sa, ra.lo, Some(new_top)), band_text(sb, new_bottom, rb.hi));
                out.push(Change {
                    kind: Kind::Boundary,
                    cell: cell.clone(),
                    now: format!("{sa}, {sb}"),
                    changed: format!("{ta}, {tb}"),
                    edits: vec![(ca.span.clone(), toml_string(&ta)), (cb.span.clone(), toml_string(&tb))],
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(changes: &'a [Change], cell: &str) -> Vec<&'a Change> {
        changes.iter().filter(|c| c.cell == cell).collect()
    }

    #[test]
    fn integers_move_by_one_and_keep_the_rest_of_the_text() {
        let text = "# note 3\n[source]\nseed = \"001\"\ntable = \"T 2\"\n\n[[modifier]]\nname = \"veteran_elite\"\nlabel = \"Veteran 1\"\nvalue = 1\n";
        let changes = table_changes(text).unwrap();
        assert_eq!(changes.len(), 2, "{changes:#?}");
        let up = &changes[0];
        assert_eq!(
            (up.cell.as_str(), up.now.as_str(), up.changed.as_str()),
            ("modifier[veteran_elite].value", "1", "2")
        );
        assert_eq!(up.apply(text), text.replace("value = 1", "value = 2"));
        assert_eq!(changes[1].apply(text), text.replace("value = 1", "value = 0"));
    }

    #[test]
    fn bands_in_a_row_move_their_boundaries_together() {
        let text = "[[row]]\nquality = \"regular\"\nno_effect = \"1-3\"\nforced_back = \"4-6\"\neliminated = \"7+\"\n";
        let changes = table_changes(text).unwrap();
        let boundary = find(&changes, "row[regular].forced_back/eliminated");
        let moved: Vec<(&str, &str)> = boundary.iter().map(|c| (c.now.as_str(), c.changed.as_str())).collect();
        assert_eq!(moved, [("4-6, 7+", "4-7, 8+"), ("4-6, 7+", "4-5, 6+")]);
        assert_eq!(
            boundary[1].apply(text),
            text.replace("forced_back = \"4-6\"", "forced_back = \"4-5\"").replace("\"7+\"", "\"6+\"")
        );
        // The lowest edge meets no band: it moves alone (the loader then decides).
        let lowest: Vec<&str> = find(&changes, "row[regular].no_effect").iter().map(|c| c.changed.as_str()).collect();
        assert_eq!(lowest, ["2-3", "0-3"]);
        assert!(find(&changes, "row[regular].eliminated").is_empty(), "7+ has no free edge");
    }

    #[test]
    fn a_column_of_one_band_per_row_meets_down_the_rows() {
        let text = "[[result]]\nname = \"a\"\nroll = \"6+\"\n[[result]]\nname = \"b\"\nroll = \"1 to 5\"\n[[result]]\nname = \"c\"\nroll = \"0 to -4\"\n[[result]]\nname = \"d\"\nroll = \"-5 or less\"\n";
        let changes = table_changes(text).unwrap();
        let got: Vec<(&str, &str)> = changes.iter().map(|c| (c.cell.as_str(), c.changed.as_str())).collect();
        assert!(got.contains(&("result[b].roll/result[a].roll", "1 to 6, 7+")), "{got:#?}");
        assert!(got.contains(&("result[c].roll/result[b].roll", "-1 to -4, 0 to 5")), "{got:#?}");
        assert!(got.contains(&("result[d].roll/result[c].roll", "-4 or less, 0 to -3")), "{got:#?}");
        assert_eq!(changes.len(), 6, "three boundaries, two ways each: {got:#?}");
    }

    #[test]
    fn bare_scores_are_numbers_not_bands() {
        let text = "columns = [\"open\", \"cover\", \"fort\"]\n[[firer]]\nname = \"mg\"\ncells = [\"2\", \"3\", \"No casualty\"]\n";
        let changes = table_changes(text).unwrap();
        let got: Vec<(&str, &str, &str)> =
            changes.iter().map(|c| (c.cell.as_str(), c.now.as_str(), c.changed.as_str())).collect();
        assert_eq!(
            got,
            [
                ("firer[mg].cells[open]", "2", "3"),
                ("firer[mg].cells[open]", "2", "1"),
                ("firer[mg].cells[cover]", "3", "4"),
                ("firer[mg].cells[cover]", "3", "2")
            ]
        );
    }

    #[test]
    fn numbers_inside_text_move_one_at_a_time() {
        let text = "[[w]]\nname = \"x\"\ncells = [\"11 at 25-50cm\", \"S5/C7/D9\", \"N/A\", \"ge_75mm_l48\"]\nlabel = \"75mm gun\"\n";
        let changes = table_changes(text).unwrap();
        let got: Vec<&str> = changes.iter().map(|c| c.changed.as_str()).collect();
        assert_eq!(
            got,
            [
                "12 at 25-50cm",
                "10 at 25-50cm",
                "11 at 26-50cm",
                "11 at 24-50cm",
                "11 at 25-51cm",
                "11 at 25-49cm",
                "S6/C7/D9",
                "S4/C7/D9",
                "S5/C8/D9",
                "S5/C6/D9",
                "S5/C7/D10",
                "S5/C7/D8"
            ]
        );
    }

    #[test]
    fn a_number_written_twice_also_moves_everywhere_at_once() {
        let text = "[[w]]\nname = \"x\"\ncells = [\"11 at 25-50cm 15 at 50-75cm\"]\n";
        let changes = table_changes(text).unwrap();
        let got: Vec<&str> = changes.iter().map(|c| c.changed.as_str()).collect();
        assert_eq!(got.len(), 2 * 6 + 2, "six numbers alone, then the shared 50: {got:#?}");
        assert_eq!(got[12..], ["11 at 25-51cm 15 at 51-75cm", "11 at 25-49cm 15 at 49-75cm"]);
    }

    #[test]
    fn scenario_modifiers_drop_one_at_a_time() {
        let text = "kind = \"x\"\n[target]\nmodifiers = [\"medium_cover\", \"pinned_personnel\"]\nrange = 4\n";
        let changes = modifier_drops(text).unwrap();
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].cell, "target.modifiers");
        assert_eq!(changes[0].now, "medium_cover");
        assert_eq!(
            changes[0].apply(text),
            text.replace("[\"medium_cover\", \"pinned_personnel\"]", "[\"pinned_personnel\"]")
        );
        assert_eq!(
            changes[1].apply(text),
            text.replace("[\"medium_cover\", \"pinned_personnel\"]", "[\"medium_cover\"]")
        );
    }
}
