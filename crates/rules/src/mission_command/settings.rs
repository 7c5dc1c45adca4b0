//! Named settings for readings of the Mission Command text where players could
//! reasonably disagree. Each is described in docs/interpretations.md.

use crate::settings::settings;

/// How a KO cell is read at a range outside every band it lists ("11 at 25-50cm"
/// at 10cm), where the flattened text may have lost lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KoOutsideListedRanges {
    /// Closer than the first listed band: the first band's value (penetration only
    /// improves as range closes). Beyond the last band: no effect.
    CloserTakesNearest,
    /// Outside every listed band: no effect, as printed.
    NoEffect,
    /// Outside every listed band: the nearest band's value, closer or farther.
    Nearest,
}

/// When an element's suppression markers come off, in an engagement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MarkersCome {
    /// At the end of its own side's turn: a marker costs one turn of fire and counts at
    /// the reaction test that turn.
    OffAfterOwnTurn,
    /// Never: markers add up (to the most a scenario may give an element).
    Never,
}

/// When a Mission Command side is broken, in an engagement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SideBroken {
    /// Every group left has routed.
    AllRouted,
    /// Every group left is retreating or has routed: none will shoot this turn.
    AllRetreatingOrRouted,
}

/// Which elements of the entry an area-fire template is aimed at lie under it, in an
/// engagement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TemplateCovers {
    /// Every element of the entry left on the table: a group fights together.
    WholeEntry,
    /// The element aimed at alone.
    AimedElement,
}

settings! {
    /// The settings of one scenario.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) struct Settings {
        /// KO cells at ranges they do not list.
        ko_outside_listed_ranges: KoOutsideListedRanges = ko_outside_listed_ranges (any) choice {
            closer_takes_nearest => KoOutsideListedRanges::CloserTakesNearest,
            no_effect => KoOutsideListedRanges::NoEffect,
            nearest => KoOutsideListedRanges::Nearest,
        },
        /// "Firer is multi-barrel MG or auto-cannon": does every auto-cannon get +2?
        every_auto_cannon_gets_multi_barrel: bool = auto_cannon_bonus (any) choice {
            multi_barrel_only => false,
            every_auto_cannon => true,
        },
        /// Does a friendly AFV seen knocked out count -1 on the reaction test?
        friendly_afv_knocked_out_counts: bool = friendly_afv_knocked_out (any) choice {
            minus_one_each => true,
            ignored => false,
        },
        /// Do rockets add +1 against buildings too?
        rockets_bonus_vs_buildings: bool = rockets_vs_buildings (any) choice { no_bonus => false, plus_one => true },
        /// Does an "all" cell knock out every AFV of its band beyond the one-KO cap?
        all_cell_beyond_cap: bool = all_cell (any) choice { every_afv_beyond_cap => true, within_cap => false },
        /// Engagements: when suppression markers come off.
        suppression_markers: MarkersCome = suppression_markers (engagement) choice {
            off_after_own_turn => MarkersCome::OffAfterOwnTurn,
            kept => MarkersCome::Never,
        },
        /// Engagements: what breaks a side.
        side_broken: SideBroken = side_broken (engagement) choice {
            all_routed => SideBroken::AllRouted,
            all_retreating_or_routed => SideBroken::AllRetreatingOrRouted,
        },
        /// Area fire at AFVs: one d20 for the whole template, compared with every AFV
        /// under it (MC-17), instead of one d20 per AFV.
        area_fire_one_roll_per_template: bool = area_fire_roll (any) choice {
            one_per_afv => false,
            one_per_template => true,
        },
        /// Engagements: reaction rows the fight's own state gives (an AFV firing within
        /// 15cm, an enemy seen retreating, friendly elements moved away) are counted from
        /// it, not named (MC-E10).
        reaction_rows_from_the_fight: bool = derived_reaction_rows (engagement) choice {
            from_the_fight => true,
            named => false,
        },
        /// Engagements: which elements an area-fire template covers (MC-E11).
        template_covers: TemplateCovers = template_covers (engagement) choice {
            whole_entry => TemplateCovers::WholeEntry,
            aimed_element => TemplateCovers::AimedElement,
        },
    }
}
