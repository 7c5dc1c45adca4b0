//! Named settings for readings of the Chain of Command sources where players could
//! reasonably disagree. Each is described in docs/interpretations.md (CoC-n).

use super::shooting::{HitEffect, ShootingTables};
use crate::settings::settings;

settings! {
    /// The settings of one scenario.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) struct Settings (tables: &ShootingTables) {
        /// Does the to-hit column follow the target's quality (CoC-5), or the firer's?
        to_hit_by_target: bool = to_hit_quality (any) choice { target => true, firer => false },
        /// What the Hard cover row's lost face does (CoC-6).
        hard_cover_four: HitEffect = hard_cover_four (any) choice {
            miss => HitEffect::Miss,
            shock => HitEffect::Shock,
        },
        /// Which source's Pinned and Broken thresholds (CoC-7): index into `shock.toml`.
        thresholds: usize = shock_thresholds (any) table {
            from tables.threshold_readings.iter().map(|(n, _)| n.as_str()) => |i| i
        },
        /// Do Pinned units move up a cover level and halve their firepower (CoC-8)?
        pinned_effects: bool = pinned_effects (any) choice { second_edition => true, none => false },
        /// Are halved firepower dice rounded up (CoC-9)?
        halves_round_up: bool = halved_firepower (any) choice { round_down => false, round_up => true },
        /// Does a Broken unit later wiped out roll the "wiped out" setback too (CoC-E6)?
        wiped_out_after_breaking: bool = broken_then_wiped_out (engagement) choice {
            both_setbacks => true,
            break_only => false,
        },
        /// How Orders are split between fire and rallying (CoC-E10).
        rally: Rally = rally (engagement) choice {
            broken_first => Rally::BrokenFirst,
            pinned_first => Rally::PinnedFirst,
            leftover => Rally::Leftover,
            never => Rally::Never,
        },
    }
}

/// How a force spends its Leaders' Orders between activating fire and rallying Shock
/// (7.5.2: "A Leader can rally a Unit they are attached to, removing one point of Shock
/// for each Order they use"; CoC-E10). Orders left once every unit that can fire has
/// fired rally too, under every reading but `Never`: an unused Order is lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rally {
    /// Before anyone fires, Broken units are rallied until no longer Broken: a Broken
    /// unit cannot activate, so an Order does nothing else for it.
    BrokenFirst,
    /// Before anyone fires, Broken units and then Pinned ones are rallied until no
    /// longer Pinned: full firepower bought with Orders that could have activated fire.
    PinnedFirst,
    /// Only Orders left after firing rally.
    Leftover,
    /// No rallying: Shock stays, as engagements played before rallying was added.
    Never,
}
