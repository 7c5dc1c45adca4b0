//! Named settings for readings of the Command Decision text where players could
//! reasonably disagree. Each is described in docs/interpretations.md.

use crate::settings::settings;

/// How "Success 5" on the Artillery Response chart is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArtilleryResponseReading {
    /// A d10 equal to or below the modified number succeeds (organic 5 = 50%).
    RollAtMost,
    /// A d10 equal to or above the modified number succeeds.
    RollAtLeast,
}

/// Which close assaults ignore the target modifiers (the card's "+" footnote).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CloseAssaultTargetModifiers {
    /// Only A class (and flame) fire ignores them.
    IgnoredByAClass,
    /// Every close assault ignores them.
    IgnoredInEveryCloseAssault,
}

settings! {
    /// The settings of one scenario.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) struct Settings {
        /// Artillery response reading.
        artillery_response: ArtilleryResponseReading = artillery_response (any) choice {
            roll_at_most => ArtilleryResponseReading::RollAtMost,
            roll_at_least => ArtilleryResponseReading::RollAtLeast,
        },
        /// The fewest dice a firing stand rolls after ROF modifiers.
        min_modified_rof: u32 = min_modified_rof (any) number { 0..=1, default 1 },
        /// Close assault and target modifiers.
        close_assault_target_modifiers: CloseAssaultTargetModifiers = close_assault_target_modifiers (any) choice {
            ignored_by_a_class => CloseAssaultTargetModifiers::IgnoredByAClass,
            ignored_in_every_close_assault => CloseAssaultTargetModifiers::IgnoredInEveryCloseAssault,
        },
        /// In an engagement, whether demoralized companies are given a Rally order.
        demoralized_companies: DemoralizedCompanies = demoralized_companies (engagement) choice {
            rally => DemoralizedCompanies::Rally,
            stay_demoralized => DemoralizedCompanies::StayDemoralized,
        },
        /// In an engagement, whether shaken companies are given a Rally order.
        shaken_companies: ShakenCompanies = shaken_companies (engagement) choice {
            rally => ShakenCompanies::Rally,
            keep_firing => ShakenCompanies::KeepFiring,
        },
        /// In an engagement, whether personnel stands in the open fight as in light cover.
        stationary_personnel: StationaryPersonnel = stationary_personnel (engagement) choice {
            light_cover => StationaryPersonnel::LightCover,
            in_the_open => StationaryPersonnel::InTheOpen,
        },
    }
}

/// What an engagement's demoralized companies do (seed 000 "Rally Orders").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DemoralizedCompanies {
    /// The battalion issues a Rally order: next turn the company becomes shaken and
    /// neither moves nor fires; the turn after it fights on, shaken.
    Rally,
    /// No Rally order reaches it: it stays demoralized and never fires again.
    StayDemoralized,
}

/// What an engagement's shaken companies do (seed 000 "Rally Orders": a Rally order
/// recovers a company "from shaken to pinned").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShakenCompanies {
    /// The battalion issues a Rally order: next turn the company is pinned only and
    /// neither moves nor fires; a demoralized company is steady again after two.
    Rally,
    /// No Rally order: the company fights on shaken (at -3 to its morale checks).
    KeepFiring,
}

/// How an engagement's personnel stands in the open are fired at (seed 000
/// "Suppression" 3: "stationary personnel stands in the open, receive the benefits of
/// 'light cover' for fire purposes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StationaryPersonnel {
    /// Nobody moves in an engagement, so a personnel stand whose target modifiers
    /// name no cover is fired at in light cover.
    LightCover,
    /// The stand is fired at in the open, as its modifiers say.
    InTheOpen,
}
