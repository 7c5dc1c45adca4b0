//! The scenarios shipped in the binary, as (path, text): what each command runs when
//! given no file, and what examples and pages start from.

/// The single fire `fire` resolves by default: a Command Decision tank duel.
pub const FIRE: (&str, &str) =
    ("experiments/cd_tank_duel.toml", include_str!("../../../experiments/cd_tank_duel.toml"));

/// The comparison `compare` makes by default.
pub const COMPARISON: (&str, &str) = (
    "experiments/compare_at_gun_vs_medium_tank.toml",
    include_str!("../../../experiments/compare_at_gun_vs_medium_tank.toml"),
);

/// The engagement `run` studies by default: the tank duel fought to a finish.
pub const ENGAGEMENT: (&str, &str) =
    ("experiments/cd_engagement_tank_duel.toml", include_str!("../../../experiments/cd_engagement_tank_duel.toml"));

/// The platoon-sized engagement `bench` times compiled over lumped states: Mission
/// Command's HMG position against an advancing rifle platoon.
pub const PLATOON: (&str, &str) = (
    "experiments/mc_engagement_hmg_vs_rifle_platoon.toml",
    include_str!("../../../experiments/mc_engagement_hmg_vs_rifle_platoon.toml"),
);

/// The hand of Command Dice `command-dice` answers for by default.
pub const HAND: (&str, &str) = (
    "experiments/coc_five_dice_senior_leader.toml",
    include_str!("../../../experiments/coc_five_dice_senior_leader.toml"),
);
