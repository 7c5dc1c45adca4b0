//! An engagement crowded with unit entries, as a designer's generated file might hold
//! them: what the cap on entries a side (issue 43) is tried with, by the suite and by
//! the load tests (which share this file by its path: the two workspaces build no
//! crate in common).

/// `engagement` with its first side's first unit entry copied `n` times over, each
/// named apart.
pub fn crowded(engagement: &str, n: usize) -> String {
    let start = engagement.find("[[side.unit]]").expect("a unit entry");
    let end = engagement[start + 1..].find("\n[[").map_or(engagement.len(), |e| start + 1 + e + 1);
    let entry = &engagement[start..end];
    let name_line = entry.lines().find(|l| l.starts_with("name = ")).expect("a named entry");
    let copies: String = (0..n).map(|i| entry.replacen(name_line, &format!("name = \"Copy {i}\""), 1)).collect();
    format!("{}{copies}{}", &engagement[..start], &engagement[end..])
}
