//! Die-roll bands such as "1", "2-5" and "6+", validated to run on without gaps.

use toml::Spanned;

use super::TableFile;
use crate::error::Result;

/// A band of rolls: `lo..=hi`, or `lo` and up when `hi` is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollRange {
    /// Lowest roll in the band.
    pub lo: i32,
    /// Highest roll, or open.
    pub hi: Option<i32>,
}

impl std::str::FromStr for RollRange {
    type Err = String;

    /// Reads `3`, `2-5`, `6+`, `-11 or less`, and `A to B` in either order
    /// (`0 to -4`), the forms the seeds print.
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let number = |t: &str| {
            t.trim()
                .parse::<i32>()
                .map_err(|_| format!("`{s}` is not a roll band; write `3`, `2-5`, `6+`, `-11 or less` or `0 to -4`"))
        };
        if let Some(hi) = s.strip_suffix("or less") {
            return Ok(RollRange { lo: i32::MIN, hi: Some(number(hi)?) });
        }
        if let Some(lo) = s.strip_suffix('+') {
            return Ok(RollRange { lo: number(lo)?, hi: None });
        }
        if let Some((a, b)) = s.split_once(" to ") {
            let (a, b) = (number(a)?, number(b)?);
            return Ok(RollRange { lo: a.min(b), hi: Some(a.max(b)) });
        }
        if let Ok(n) = s.parse::<i32>() {
            return Ok(RollRange { lo: n, hi: Some(n) });
        }
        let (lo, hi) = s.split_once('-').ok_or_else(|| number(s).unwrap_err())?;
        let (lo, hi) = (number(lo)?, number(hi)?);
        if hi < lo {
            return Err(format!("band `{s}` runs backwards"));
        }
        Ok(RollRange { lo, hi: Some(hi) })
    }
}

impl RollRange {
    /// Does the band hold `roll`?
    pub fn contains(&self, roll: i32) -> bool {
        roll >= self.lo && self.hi.is_none_or(|hi| roll <= hi)
    }
}

impl std::fmt::Display for RollRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.hi {
            None => write!(f, "{}+", self.lo),
            Some(hi) if self.lo == i32::MIN => write!(f, "{hi} or less"),
            Some(hi) if hi == self.lo => write!(f, "{hi}"),
            Some(hi) if self.lo < 0 => write!(f, "{} to {hi}", self.lo),
            Some(hi) => write!(f, "{}-{hi}", self.lo),
        }
    }
}

/// Consecutive bands mapping every roll to a result index. The lowest band also
/// takes every roll below it (modified rolls can fall under the first printed
/// number) and the last must be open ("6+").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bands {
    ranges: Vec<RollRange>,
}

impl Bands {
    /// Validates `(label, band text)` cells, in result order, starting at `first`.
    pub fn parse(file: &TableFile, row: &str, cells: &[(&str, &Spanned<String>)], first: i32) -> Result<Self> {
        let mut ranges = Vec::with_capacity(cells.len());
        let mut next = first;
        for (i, (label, cell)) in cells.iter().enumerate() {
            let at = cell.span().start;
            let range: RollRange =
                cell.get_ref().parse().map_err(|m: String| file.error_at(at, format!("{row}, {label}: {m}")))?;
            if range.lo != next {
                let what = if range.lo > next { "a gap" } else { "an overlap" };
                return Err(file.error_at(
                    at,
                    format!("{row}, {label}: band `{range}` leaves {what} (it should start at {next}); bands must run on without gaps or overlaps"),
                ));
            }
            let last = i + 1 == cells.len();
            match (range.hi, last) {
                (None, false) => {
                    return Err(
                        file.error_at(at, format!("{row}, {label}: only the last band may be open (`{range}`)"))
                    );
                }
                (Some(_), true) => {
                    return Err(file.error_at(
                        at,
                        format!("{row}, {label}: the last band must be open at the top, like `{}+`", range.lo),
                    ));
                }
                (Some(hi), false) => next = hi + 1,
                (None, true) => {}
            }
            ranges.push(range);
        }
        Ok(Bands { ranges })
    }

    /// The result index for a (possibly modified) roll.
    pub fn index(&self, roll: i32) -> usize {
        self.ranges.iter().rposition(|r| roll >= r.lo).unwrap_or(0)
    }

    /// The bands in result order.
    pub fn ranges(&self) -> &[RollRange] {
        &self.ranges
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_text_round_trips() {
        for s in ["1", "2-5", "6+", "1-6", "-11 or less", "-10 to -5", "-4 to 0", "-3"] {
            assert_eq!(s.parse::<RollRange>().unwrap().to_string(), s);
        }
        // The seed prints falling bands ("0 to -4"); they mean the same rolls.
        assert_eq!("0 to -4".parse::<RollRange>().unwrap(), "-4 to 0".parse().unwrap());
        assert!("5-2".parse::<RollRange>().is_err());
        assert!("six".parse::<RollRange>().is_err());
    }

    #[test]
    fn lookups_clamp_below_the_first_band_and_run_open_above() {
        let bands = Bands { ranges: vec!["1-3".parse().unwrap(), "4-6".parse().unwrap(), "7+".parse().unwrap()] };
        let got: Vec<usize> = [-5, 1, 3, 4, 6, 7, 15].iter().map(|&r| bands.index(r)).collect();
        assert_eq!(got, [0, 0, 0, 1, 1, 2, 2]);
    }
}
