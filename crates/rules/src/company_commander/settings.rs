//! Named settings for readings of the Company Commander text where players could
//! reasonably disagree. Each is described in docs/interpretations.md (CC-n).

use super::fire::{SuppressedAgain, Timing, WeaponChoice};
use super::tables::{StrengthReading, WeaponStrength};
use crate::settings::settings;

/// How penetration is read at a range between the two the weapon shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Between {
    /// Linear, rounded to the nearest whole value (halves toward the shooter).
    Nearest,
    /// Linear, rounded down.
    Down,
    /// Linear, rounded up.
    Up,
}

settings! {
    /// The settings of one scenario.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(crate) struct Settings (strength: &WeaponStrength) {
        /// The reading of the garbled weapon-strength outcome lines (CC-3).
        weapon_strength: StrengthReading = weapon_strength_outcome (any) table {
            from strength.readings.iter().map(|r| r.name.as_str()) => |i| strength.readings[i].clone()
        },
        /// What a second suppression does (CC-4).
        suppressed_again: SuppressedAgain = suppressed_again (any) choice {
            damaged => SuppressedAgain::Damaged,
            destroyed => SuppressedAgain::Destroyed,
        },
        /// When a suppression changes the attacks after it in the same fire action (CC-6).
        suppression_timing: Timing = suppression_during_fire (any) choice {
            later_weapons => Timing::LaterWeapons,
            later_attacks => Timing::LaterAttacks,
            next_fire_action => Timing::NextFireAction,
        },
        /// Penetration between the minimum and maximum range (CC-7).
        between: Between = penetration_between_ranges (any) choice {
            linear_nearest => Between::Nearest,
            linear_down => Between::Down,
            linear_up => Between::Up,
        },
        /// May a weapon fire closer than its minimum range, at the minimum-range value (CC-8)?
        inside_minimum_range: bool = inside_minimum_range (any) choice {
            minimum_range_value => true,
            cannot_fire => false,
        },
        /// Does a close assault make one attack per strength point of the attacker (CC-11)?
        close_assault_per_strength_point: bool = close_assault_attacks (any) choice {
            one => false,
            per_strength_point => true,
        },
        /// Is the original target of a barrage at risk of a second attack (CC-12)?
        barrage_second_attack: bool = barrage_original_target (any) choice {
            chance_of_second_attack => true,
            attacked_once => false,
        },
        /// Do cover save values add up (CC-9), or does only the highest count?
        cover_saves_add_up: bool = cover_save_values (any) choice { add_up => true, highest_only => false },
        /// Which of the weapons that cannot fire together fires (CC-18).
        weapon_choice: WeaponChoice = weapon_choice (any) choice {
            most_likely_to_destroy => WeaponChoice::MostLikelyToDestroy,
            most_likely_to_damage => WeaponChoice::MostLikelyToDamage,
        },
        /// Recovery from suppression (CC-E3).
        recovery: Recovery = suppression_recovery (engagement) choice {
            quality_hit_score => Recovery::QualityHitScore,
            always => Recovery::Always,
            never => Recovery::Never,
        },
        /// What breaks a side (CC-E5).
        broken: SideBroken = side_broken (engagement) choice {
            never => SideBroken::Never,
            all_suppressed => SideBroken::AllSuppressed,
        },
        /// Infantry beside enemy armour (CC-E9).
        armour_zoc: ArmourZoc = infantry_beside_armour (engagement) choice {
            close_assault_armour => ArmourZoc::AssaultArmourFireOthers,
            close_assault_only => ArmourZoc::AssaultOnly,
        },
    }
}

/// How a suppressed unit recovers at the end of its next player turn (CC-E3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recovery {
    /// A d6 at or over the quality's close assault hit score (seed 003 "Unit hit
    /// success"), the seed's one table of success by quality.
    QualityHitScore,
    /// Always: the attempt is automatic and certain.
    Always,
    /// Never: a suppressed unit stays suppressed.
    Never,
}

/// When a side counts as broken in an engagement (CC-E5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SideBroken {
    /// Never: the seed has no side morale; only elimination ends an engagement.
    Never,
    /// Every surviving unit of the side is suppressed at the end of a turn.
    AllSuppressed,
}

/// What infantry able to close assault may attack while an enemy armoured unit is
/// adjacent (CC-E9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArmourZoc {
    /// It attacks adjacent armour only by close assault, and fires at other adjacent
    /// units as usual (seed 003 "Close assault").
    AssaultArmourFireOthers,
    /// It may only close assault: no ranged fire at all while an enemy armoured unit
    /// is adjacent (seed 003 "ZOC's", read word for word).
    AssaultOnly,
}
