//! Chain of Command's tables, loaded from `rulesets/chain-of-command/`: the Command
//! Dice tables, shooting and Shock, and Force Morale, each validated by its own module.

use combat_odds_core::error::Result;
use combat_odds_core::tables::{Embedded, TableFile, file};

use super::dice_tables::{DiceByForceMorale, DiceRules};
use super::force_morale::ForceMoraleTables;
use super::shooting::ShootingTables;

/// The embedded table files of this ruleset.
pub const EMBEDDED: Embedded = Embedded {
    ruleset: "chain-of-command",
    files: &[
        ("command_dice.toml", include_str!("../../../../rulesets/chain-of-command/command_dice.toml")),
        ("leaders.toml", include_str!("../../../../rulesets/chain-of-command/leaders.toml")),
        ("sixes.toml", include_str!("../../../../rulesets/chain-of-command/sixes.toml")),
        (
            "chain_of_command_points.toml",
            include_str!("../../../../rulesets/chain-of-command/chain_of_command_points.toml"),
        ),
        ("dice_by_force_morale.toml", include_str!("../../../../rulesets/chain-of-command/dice_by_force_morale.toml")),
        ("to_hit.toml", include_str!("../../../../rulesets/chain-of-command/to_hit.toml")),
        ("effect.toml", include_str!("../../../../rulesets/chain-of-command/effect.toml")),
        ("shock.toml", include_str!("../../../../rulesets/chain-of-command/shock.toml")),
        ("weapons.toml", include_str!("../../../../rulesets/chain-of-command/weapons.toml")),
        ("force_morale.toml", include_str!("../../../../rulesets/chain-of-command/force_morale.toml")),
        ("setbacks.toml", include_str!("../../../../rulesets/chain-of-command/setbacks.toml")),
        ("equivalents.toml", include_str!("../../../../rulesets/chain-of-command/equivalents.toml")),
    ],
};

/// Every table of the ruleset.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Command Dice, Leaders, sixes and points.
    pub dice: DiceRules,
    /// Dice by Force Morale.
    pub dice_by_force_morale: DiceByForceMorale,
    /// Shooting and Shock.
    pub shooting: ShootingTables,
    /// Force Morale: starting value and setbacks.
    pub force_morale: ForceMoraleTables,
}

impl Tables {
    /// Loads and validates every table.
    pub fn load(files: &[TableFile]) -> Result<Self> {
        let dice = DiceRules::load(
            file(files, "command_dice.toml"),
            file(files, "leaders.toml"),
            file(files, "sixes.toml"),
            file(files, "chain_of_command_points.toml"),
        )?;
        let dice_by_force_morale = DiceByForceMorale::load(file(files, "dice_by_force_morale.toml"))?;
        let shooting = ShootingTables::load(
            file(files, "to_hit.toml"),
            file(files, "effect.toml"),
            file(files, "shock.toml"),
            file(files, "weapons.toml"),
        )?;
        let force_morale = ForceMoraleTables::load(file(files, "force_morale.toml"), file(files, "setbacks.toml"))?;
        Ok(Tables { dice, dice_by_force_morale, shooting, force_morale })
    }
}
