//! A catalogue of the player's own, as the suite's server tests and the browser tests
//! (which read this file by its path, from a workspace of their own) load it.

/// Command Decision's catalogue as a player might make their own: the KwK 42's long
/// band hits on 3, not 5, its name is theirs, and nothing marks it invented.
pub fn own_catalogue() -> String {
    let embedded = include_str!("../../../rulesets/command-decision/catalogue.toml");
    let (before, gun) = embedded.split_once("[weapon.de_75mm_kwk42]").expect("the KwK 42's entry");
    let gun = gun
        .replacen(
            "long = { range = 20, hit = 5, anti_armour = 8 }",
            "long = { range = 20, hit = 3, anti_armour = 8 }",
            1,
        )
        .replacen("75mm KwK 42 L/70 tank gun, AP (illustrative)", "My KwK 42", 1);
    format!("{}[weapon.de_75mm_kwk42]{gun}", before.replace("invented = true\n", ""))
}
