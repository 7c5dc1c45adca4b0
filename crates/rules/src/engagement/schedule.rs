//! The range an engagement is fought at, turn by turn.

/// The range of each turn: a start that closes by a fixed amount per turn down to a
/// floor, in the ruleset's own unit of distance.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Schedule {
    /// The distinct ranges the engagement is fought at, in the order they come.
    pub ranges: Vec<f64>,
    /// Index into `ranges` of each turn (turn 1 first).
    by_turn: Vec<usize>,
}

impl Schedule {
    /// Ranges for `turns` turns from `start`, closing by `closing` a turn to no less
    /// than `floor`.
    pub fn new(start: f64, closing: f64, floor: f64, turns: u32) -> Self {
        let mut ranges: Vec<f64> = Vec::new();
        let mut by_turn = Vec::new();
        for t in 0..turns {
            let r = (start - closing * f64::from(t)).max(floor);
            if ranges.last() != Some(&r) {
                ranges.push(r);
            }
            by_turn.push(ranges.len() - 1);
        }
        Schedule { ranges, by_turn }
    }

    /// The index of turn `turn`'s range (turns count from 1).
    pub fn index(&self, turn: u32) -> usize {
        self.by_turn[turn as usize - 1]
    }

    /// The range of turn `turn`.
    pub fn range(&self, turn: u32) -> f64 {
        self.ranges[self.index(turn)]
    }

    /// "16 in." or "16 to 4 in.", for messages.
    pub(crate) fn describe(&self, unit: &str) -> String {
        match (self.ranges.first(), self.ranges.last()) {
            (Some(a), Some(b)) if a != b => format!("{a} to {b} {unit}"),
            (Some(a), _) => format!("{a} {unit}"),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_closes_by_turn_down_to_the_floor() {
        // 16, 12, 8, then 5 (the floor) for turns 4 and 5.
        let s = Schedule::new(16.0, 4.0, 5.0, 5);
        assert_eq!(s.ranges, [16.0, 12.0, 8.0, 5.0]);
        assert_eq!((1..=5).map(|t| s.range(t)).collect::<Vec<_>>(), [16.0, 12.0, 8.0, 5.0, 5.0]);
        assert_eq!(s.describe("in."), "16 to 5 in.");
    }

    #[test]
    fn a_fixed_range_is_one_range() {
        let s = Schedule::new(20.0, 0.0, 0.0, 3);
        assert_eq!(s.ranges, [20.0]);
        assert_eq!(s.index(3), 0);
    }
}
