//! Skirmish: a fifth ruleset kept out of the binary, invented so that a test can prove
//! what the README's "Adding a ruleset" promises: a ruleset is its folder (this module
//! and its `tables/`) and one registration, `Rules::builtin().with::<Skirmish>()`, and
//! every command, analysis and page then knows it. It builds only on what the rules
//! crate makes public for rulesets (the `Ruleset` and `Load` traits, `SetUp`,
//! `setup`, `settings!`) and on the core crate.
//!
//! The rules, all invented: a firer rolls its dice (`[firer] dice`, 2 unless told), each
//! hitting on the number the hit table gives for the range band (`range`, in inches); a
//! natural six scores one hit, or two under the `sixes = "double"` reading; a target is
//! destroyed by as many hits as its toughness (`[target] toughness`, 1 unless told).

use combat_odds_core::dice::D6;
use combat_odds_core::document::Document;
use combat_odds_core::engine::{Measure, Resolution, Streams};
use combat_odds_core::error::Result;
use combat_odds_core::exact::{Dist, TooLarge};
use combat_odds_core::tables::{self, Embedded, Source, TableFile};
use combat_odds_rules::ruleset::{Load, TableView};
use combat_odds_rules::setup::{Sections, count};
use combat_odds_rules::{Ruleset, SetUp};
use serde::Deserialize;
use toml::Spanned;

/// Skirmish's table files, embedded as a shipped ruleset's are.
pub const EMBEDDED: &Embedded = &Embedded {
    ruleset: "skirmish",
    files: &[
        ("hits.toml", include_str!("tables/hits.toml")),
        ("equivalents.toml", include_str!("tables/equivalents.toml")),
    ],
};

combat_odds_rules::settings! {
    /// The one reading players dispute.
    pub struct Settings {
        /// The hits a natural six scores.
        six_hits: u32 = sixes (any) choice { plain => 1, double => 2 },
    }
}

/// The hit table: the number needed by range band, nearest band first.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Hits {
    source: Source,
    band: Vec<Band>,
}

/// One range band: out to `up_to` inches, a die hits on `need` or more.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Band {
    up_to: u32,
    need: u32,
}

impl Hits {
    /// Reads and checks the hit table: bands growing outwards, each need a face of a d6.
    fn read(file: &TableFile) -> Result<Self> {
        let hits: Hits = file.parse()?;
        if hits.band.is_empty() {
            return Err(file.error("the hit table has no band; give at least one [[band]]"));
        }
        for (i, b) in hits.band.iter().enumerate() {
            if !(2..=6).contains(&b.need) {
                return Err(file.error(format!("band {}: need {} is not a face from 2 to 6", i + 1, b.need)));
            }
            if i > 0 && b.up_to <= hits.band[i - 1].up_to {
                return Err(file.error(format!("band {}: up_to {} must be beyond the band before", i + 1, b.up_to)));
            }
        }
        Ok(hits)
    }
}

/// The ruleset, loaded with its tables.
pub struct Skirmish {
    files: Vec<TableFile>,
    hits: Hits,
}

/// A Skirmish scenario file, past the header every scenario has.
#[derive(Deserialize)]
struct FireFile {
    range: Option<Spanned<i64>>,
    #[serde(default)]
    firer: Firer,
    #[serde(default)]
    target: Target,
    #[serde(default)]
    settings: RawSettings,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Firer {
    dice: Option<Spanned<i64>>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Target {
    toughness: Option<Spanned<i64>>,
}

impl Load for Skirmish {
    const EMBEDDED: &'static Embedded = EMBEDDED;

    fn from_files(files: Vec<TableFile>) -> Result<Self> {
        let hits = Hits::read(tables::file(&files, "hits.toml"))?;
        Ok(Skirmish { files, hits })
    }
}

impl Ruleset for Skirmish {
    fn name(&self) -> &'static str {
        EMBEDDED.ruleset
    }

    fn files(&self) -> &[TableFile] {
        &self.files
    }

    fn table_views(&self) -> Vec<TableView> {
        let column = |f: fn(&Band) -> u32| self.hits.band.iter().map(|b| f(b).to_string()).collect();
        vec![TableView::new(
            "hits.toml",
            &self.hits.source,
            vec![("up_to", column(|b| b.up_to)), ("need", column(|b| b.need))],
        )]
    }

    fn kinds(&self) -> &'static Sections {
        &[("fire", &["firer", "target", "range"])]
    }

    fn set_up_kind(&self, doc: &Document, kind: &'static str) -> Result<SetUp> {
        let file: FireFile = doc.parse()?;
        let settings = Settings::resolve(doc, &file.settings, kind)?;
        let dice = count(doc, &file.firer.dice, "dice", 1, 4, 2)?;
        let toughness = count(doc, &file.target.toughness, "toughness", 1, 2, 1)?;
        let longest = self.hits.band.last().map_or(0, |b| b.up_to);
        let range = count(doc, &file.range, "range (inches)", 1, longest, 1)?;
        let band = self.hits.band.iter().find(|b| range <= b.up_to).expect("a range within the longest band");
        if self.hits.source.invented {
            doc.rests_on_invented("Skirmish hit table");
        }
        let notes = vec![
            format!("range {range} in: the band out to {} in, each die hits on {}+", band.up_to, band.need),
            format!("{dice} dice; a six scores {} hit(s); toughness {toughness}", settings.six_hits),
        ];
        let fire = Fire::new(band.need, dice, settings.six_hits, toughness);
        Ok(SetUp { experiment: Box::new(fire), notes })
    }
}

/// One volley: the dice rolled on the fire stream, the hits they score.
struct Fire {
    need: u32,
    dice: u32,
    six_hits: u32,
    toughness: u32,
    measures: Vec<Measure>,
}

impl Fire {
    fn new(need: u32, dice: u32, six_hits: u32, toughness: u32) -> Self {
        let measures =
            vec![Measure::counts("hits", dice * six_hits), Measure::new("target", ["survives", "destroyed"])];
        Fire { need, dice, six_hits, toughness, measures }
    }

    /// The hits one die's face scores.
    fn hits(&self, face: u32) -> u32 {
        match face {
            6 => self.six_hits,
            f if f >= self.need => 1,
            _ => 0,
        }
    }
}

impl Resolution for Fire {
    /// The hits scored.
    type State = u32;
    type Weight = u128;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (1, 1)
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> u32 {
        (0..self.dice).map(|_| self.hits(D6.roll(&mut streams.fire))).sum()
    }

    #[inline(always)]
    fn index(&self, hits: &u32, out: &mut [usize]) {
        out[0] = *hits as usize;
        out[1] = usize::from(*hits >= self.toughness);
    }

    fn exact_state(&self) -> std::result::Result<Dist<u32>, TooLarge> {
        Dist::roll(D6, |face| self.hits(face)).fold_n(self.dice, Dist::certain(0), |sum, hits| sum + hits)
    }
}
