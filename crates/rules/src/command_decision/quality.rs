//! Troop quality, best to worst: Elite, Veteran, Experienced, Regular, Trained, Green.

use combat_odds_core::document::Document;
use combat_odds_core::error::unknown;
use toml::Spanned;

/// A stand's troop quality (seed 000, "Troop Quality"), ordered worst to best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Quality {
    /// Green.
    Green,
    /// Trained.
    Trained,
    /// Regular.
    Regular,
    /// Experienced.
    Experienced,
    /// Veteran.
    Veteran,
    /// Elite.
    Elite,
}

impl Quality {
    /// Every quality, worst to best (the Hit Results Chart's row order).
    pub const ALL: [Quality; 6] =
        [Quality::Green, Quality::Trained, Quality::Regular, Quality::Experienced, Quality::Veteran, Quality::Elite];

    /// Names as scenarios and tables write them.
    pub const NAMES: [&'static str; 6] = ["green", "trained", "regular", "experienced", "veteran", "elite"];

    /// The quality a file names at `q`, offered among all of them.
    pub(crate) fn read(doc: &Document, q: &Spanned<String>) -> combat_odds_core::Result<Self> {
        doc.offer(q.span(), q.get_ref(), "troop quality", Self::NAMES);
        Self::parse(q.get_ref()).map_err(|m| doc.error_at(q.span().start, m))
    }

    /// Parses a name, suggesting the nearest on a typo.
    pub fn parse(name: &str) -> Result<Self, String> {
        let lower = name.to_ascii_lowercase();
        Self::NAMES
            .iter()
            .position(|n| *n == lower)
            .map(|i| Self::ALL[i])
            .ok_or_else(|| unknown("troop quality", name, Self::NAMES))
    }

    /// "Veteran/Elite" on the to-hit chart.
    pub(crate) fn veteran_or_elite(self) -> bool {
        self >= Quality::Veteran
    }

    /// "Trained/Green" on the to-hit and artillery response charts.
    pub(crate) fn trained_or_green(self) -> bool {
        self <= Quality::Trained
    }
}

impl std::fmt::Display for Quality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Self::NAMES[*self as usize])
    }
}
