//! Command Decision engagements: Monte Carlo against the Markov-chain solver on a grid
//! of duels and small fights, hand-computed odds, determinism across threads, and bad
//! input through the binary.

use crate::common::cli::{
    assert_contains, assert_located, assert_names_file_maybe_placed, assert_placed_in, place, replace_once,
    scenario_error,
};
use crate::common::exact::Exact;
use crate::common::grid::{Family, grid_trials};
use combat_odds_core::dice::Ratio;
use num_bigint::BigUint;

const TRIALS: u64 = 200_000;
const SEED: u64 = 20_261_123;
const FAMILY_ALPHA: f64 = 0.01;

/// One unit entry.
fn unit(name: &str, body: &str) -> String {
    format!("[[side.unit]]\nname = \"{name}\"\n{body}\n")
}

const PANTHER: &str = "quality = \"veteran\"\nweapon = \"de_75mm_kwk42\"\nmount = \"tank\"\nvehicle = \"panther_g\"";
const SHERMAN: &str = "quality = \"regular\"\nweapon = \"us_75mm_m3\"\nmount = \"tank\"\nvehicle = \"m4_sherman\"";
const HMG: &str = "quality = \"regular\"\nweapon = \"hmg_platoon\"";

/// An engagement of two sides, each one company of morale `morale` holding `units`.
fn engagement(head: &str, sides: [(&str, i32, &[String]); 2]) -> String {
    let mut text = format!("ruleset = \"command-decision\"\nkind = \"engagement\"\n\n{head}\n");
    for (name, morale, units) in sides {
        text += &format!(
            "\n[[side]]\nname = \"{name}\"\n\n[[side.company]]\nname = \"{name} company\"\nmorale = {morale}\n\n"
        );
        for u in units {
            text += u;
        }
    }
    text
}

fn head(range: f64, closing: f64, min: f64, turns: u32, extra: &str) -> String {
    format!("[engagement]\nrange = {range}\nclosing = {closing}\nmin_range = {min}\nturns = {turns}\n{extra}")
}

fn grid() -> Vec<(String, String)> {
    let mut cases = Vec::new();
    // Tank duels: closing and fixed ranges, both end conditions, morale from fragile to steady.
    for (range, closing, min) in [(40.0, 6.0, 10.0), (16.0, 0.0, 0.0), (8.0, 2.0, 2.0)] {
        for (morale, end) in [(7, ""), (4, "end = [\"eliminated\"]"), (9, "end = [\"broken\"]")] {
            let text = engagement(
                &head(range, closing, min, 8, end),
                [("German", morale, &[unit("Panther", PANTHER)]), ("US", morale - 1, &[unit("Sherman", SHERMAN)])],
            );
            cases.push((format!("tank duel {range}/{closing} morale {morale} {end}"), text));
        }
    }
    // Machine guns at personnel in the open and in cover, inside 12 in. (enemy within
    // close proximity), with demoralized companies rallying or staying demoralized.
    for (cover, rally) in [("", "rally"), ("target_modifiers = [\"medium_cover\"]", "stay_demoralized")] {
        let text = engagement(
            &(head(14.0, 3.0, 4.0, 6, "") + &format!("\n[settings]\ndemoralized_companies = \"{rally}\"\n")),
            [("Attackers", 5, &[unit("MG", HMG)]), ("Defenders", 6, &[unit("Rifles", &format!("{HMG}\n{cover}"))])],
        );
        cases.push((format!("mg duel {cover} {rally}"), text));
    }
    // Infantry in cover within 12 in. suppress a tank; the tank's HE answers. Rifles
    // reach 8 in., so the fight is at 8.
    let text = engagement(
        &head(8.0, 0.0, 0.0, 5, ""),
        [
            (
                "Infantry",
                6,
                &[unit(
                    "Rifles",
                    "quality = \"experienced\"\nweapon = \"rifle_platoon\"\ntarget_modifiers = [\"hard_cover\"]",
                )],
            ),
            (
                "Armour",
                7,
                &[unit(
                    "Sherman HE",
                    "quality = \"regular\"\nweapon = \"us_75mm_m3_he\"\nmount = \"tank\"\nvehicle = \"m4_sherman\"",
                )],
            ),
        ],
    );
    cases.push(("rifles in cover vs sherman he".into(), text));
    // Two Shermans (one company) against a Panther, under each target policy.
    for policy in ["most_dangerous", "spread"] {
        let text = engagement(
            &head(20.0, 4.0, 8.0, 6, &format!("targets = \"{policy}\"")),
            [
                ("US", 6, &[unit("Sherman", &format!("{SHERMAN}\ncount = 2"))]),
                ("German", 7, &[unit("Panther", PANTHER)]),
            ],
        );
        cases.push((format!("two shermans vs panther {policy}"), text));
    }
    // The shipped three Shermans against a Panther: a turn weighs its dice in 76 bits,
    // so the compiled chain draws from 128-bit columns.
    let text = std::fs::read_to_string("experiments/cd_engagement_shermans_vs_panther.toml").unwrap();
    cases.push(("three shermans vs panther, 128-bit turns".into(), text));
    // The shipped assault on a bunker: closing to contact, close assault by engineers
    // and the end of demoralized companies in contact (CD-E12).
    let text = std::fs::read_to_string("experiments/cd_engagement_engineers_storm_a_bunker.toml").unwrap();
    cases.push(("engineers storm a bunker, in contact from turn 3".into(), text));
    // The shipped mortars covering an advance: a battery's mission (response, burst
    // over an entry, suppression, ammunition running out) and opportunity fire.
    let text = std::fs::read_to_string("experiments/cd_engagement_mortars_cover_the_advance.toml").unwrap();
    cases.push(("mortars cover the advance".into(), text));
    // The shipped farmhouse: from 4 in. a turn weighs its dice in 135 bits, so the
    // compiled chain draws those turns a phase at a time.
    let text = std::fs::read_to_string("experiments/cd_engagement_company_at_the_farmhouse.toml").unwrap();
    cases.push(("rifle company at the farmhouse, turns drawn by phase".into(), text));
    // Prep fire by a Sherman's HE at infantry in cover, who hold their fire for the
    // opportunity phase; the Sherman's second company advances hastily.
    let text = engagement(
        &head(12.0, 2.0, 6.0, 5, ""),
        [
            (
                "Armour",
                7,
                &[
                    unit(
                        "Sherman HE",
                        "quality = \"regular\"\nweapon = \"us_75mm_m3_he\"\nmount = \"tank\"\nvehicle = \"m4_sherman\"\nfires_in = \"prep\"",
                    ),
                    unit("Riflemen", "quality = \"regular\"\nweapon = \"rifle_platoon\"\norder = \"hasty_advance\""),
                ],
            ),
            (
                "Infantry",
                6,
                &[unit(
                    "HMG",
                    "quality = \"experienced\"\nweapon = \"hmg_platoon\"\ntarget_modifiers = [\"medium_cover\"]\nfires_in = \"opportunity\"",
                )],
            ),
        ],
    );
    cases.push(("prep fire and op fire".into(), text));
    cases
}

#[test]
fn monte_carlo_engagements_agree_with_the_markov_chain_solver() {
    let cases = grid();
    let family = Family::run_all(&cases, grid_trials(TRIALS), SEED);
    family.assert_agrees(FAMILY_ALPHA, 6);
    // The grid reaches every end of a fight.
    for outcome in ["German", "US", "draw", "undecided"] {
        assert!(family.reached.contains(outcome), "no case reaches winner `{outcome}`");
    }
}

/// Fought in the open: stationary personnel would otherwise take light cover (CD-E11).
const IN_THE_OPEN: &str = "\n[settings]\nstationary_personnel = \"in_the_open\"";

/// Two regular HMG platoons at 16 in. (long band, hit number 4), in the open, morale
/// 20 so no morale check can fail, one turn, ended only by elimination.
fn hmg_duel(turns: u32) -> String {
    engagement(
        &head(16.0, 0.0, 0.0, turns, &format!("end = [\"eliminated\"]{IN_THE_OPEN}")),
        [("A", 20, &[unit("MG A", HMG)]), ("B", 20, &[unit("MG B", HMG)])],
    )
}

fn ratio(num: u128, den: u128) -> Ratio {
    Ratio::new(num, den)
}

#[test]
fn one_turn_hmg_duel_matches_the_hand_computed_odds() {
    // Each die hits on 4 or less (4/10) and a hit eliminates a regular stand on 7+
    // (4/10): 4/25 a die. Three dice: P(kill) = 1 - (21/25)^3 = 1 - 9261/15625 =
    // 6364/15625. Fire is simultaneous, so
    //   A wins    = 6364 * 9261 / 15625^2 = 58937004 / 244140625
    //   draw      = 6364^2 / 15625^2      = 40500496 / 244140625
    //   undecided = 9261^2 / 15625^2      = 85766121 / 244140625
    let e = Exact::of("hmg duel 1 turn", &hmg_duel(1));
    assert_eq!(e.p("winner", "A"), ratio(58_937_004, 244_140_625));
    assert_eq!(e.p("winner", "B"), ratio(58_937_004, 244_140_625));
    assert_eq!(e.p("winner", "draw"), ratio(40_500_496, 244_140_625));
    assert_eq!(e.p("winner", "undecided"), ratio(85_766_121, 244_140_625));
    // First kill: A alone, B alone, both, none.
    assert_eq!(e.p("first_kill_by", "both"), ratio(40_500_496, 244_140_625));
    assert_eq!(e.p("first_kill_turn", "none"), ratio(85_766_121, 244_140_625));
}

#[test]
fn a_second_turn_repeats_the_first_when_nobody_fell() {
    // Morale 20 never fails and the range is fixed, so turn 2 is turn 1 again from the
    // undecided field: P(A wins) = w + u * w = w (1 + u), w = 58937004/244140625,
    // u = 85766121/244140625: 58937004 * 329906746 / 244140625^2.
    let e = Exact::of("hmg duel 2 turns", &hmg_duel(2));
    let den = BigUint::from(244_140_625u64).pow(2);
    let win = Ratio::from_big(BigUint::from(58_937_004u64) * BigUint::from(329_906_746u64), den.clone());
    assert_eq!(e.p("winner", "A"), win);
    assert_eq!(e.p("turns", "undecided"), Ratio::from_big(BigUint::from(85_766_121u64).pow(2), den));
    assert_eq!(e.p("turns", "1"), ratio(244_140_625 - 85_766_121, 244_140_625));
}

#[test]
fn survivors_and_first_kill_add_up_with_the_winner() {
    // The embedded duel, ended by elimination alone so that no side can win by the
    // other breaking.
    let duel = std::fs::read_to_string(crate::common::experiment_path("cd_engagement_tank_duel.toml")).unwrap();
    let e = Exact::of("tank duel", &replace_once(&duel, "targets = \"most_dangerous\"", "end = [\"eliminated\"]"));
    // Losing the Panther ends the fight with the German side out: the US wins, or both
    // tanks die in the same turn and it is a draw. Nothing else takes the Panther.
    let us_wins = e.p("winner", "US");
    let draw = e.p("winner", "draw");
    let gone = e.p("survivors_panther", "0");
    assert_eq!(gone, &us_wins + &draw);
    assert_eq!(e.p("state_panther", "eliminated"), gone);
    // Both tanks dying in one turn is the one way both fire a first kill together.
    assert_eq!(e.p("first_kill_by", "both"), draw);
}

#[test]
fn engagements_are_thread_independent() {
    // Four turns, not ten: the chunks, seeds and threads checked are the same, and the
    // test's runs of twelve units (up to 200,000 trials each, Monte Carlo alone) took
    // 14 s, not 44 s, on two shared cores.
    let six_on_six = engagement(
        &head(30.0, 5.0, 5.0, 4, ""),
        [
            ("US", 6, &[unit("Sherman", &format!("{SHERMAN}\ncount = 6"))]),
            (
                "German",
                7,
                &[
                    unit("Panther", &format!("{PANTHER}\ncount = 5")),
                    unit(
                        "Pz IV",
                        "quality = \"regular\"\nweapon = \"de_75mm_kwk42\"\nmount = \"tank\"\nvehicle = \"pz_iv_h\"",
                    ),
                ],
            ),
        ],
    );
    let duel = std::fs::read_to_string(crate::common::experiment_path("cd_engagement_tank_duel.toml")).unwrap();
    crate::common::determinism::assert_thread_independent(&[("duel", &duel), ("6 on 6", &six_on_six)]);
    crate::common::determinism::assert_seed_matters(&[("duel", &duel), ("6 on 6", &six_on_six)]);
    // Twelve units, bounded by 470,400 lumped fields, are past the exact solver's
    // reach: Monte Carlo answers alone.
    let plan = crate::common::plan("6 on 6", &six_on_six, 1, 1, 1);
    assert!(plan.set_up.experiment.exact().is_none());
}

/// Attackers: two regular HMG stands of one company (morale 20), firing by `spread`
/// at 16 in.; Defenders: company X (morale 20) with one HMG stand and company Y
/// (morale 0, on road march and targeted by a TOT mission: -4) with another. One
/// turn, ended only by a side breaking.
fn one_company_destroyed_the_other_demoralized() -> String {
    let mut text = format!(
        "ruleset = \"command-decision\"\nkind = \"engagement\"\n\n{}\n",
        head(16.0, 0.0, 0.0, 1, &format!("targets = \"spread\"\nend = [\"broken\"]{IN_THE_OPEN}"))
    );
    text += "\n[[side]]\nname = \"Attackers\"\n\n[[side.company]]\nname = \"Attackers\"\nmorale = 20\n\n";
    text += &unit("MG", &format!("{HMG}\ncount = 2"));
    text += "\n[[side]]\nname = \"Defenders\"\n\n[[side.company]]\nname = \"X\"\nmorale = 20\n\n";
    text += "[[side.company]]\nname = \"Y\"\nmorale = 0\nmodifiers = [\"road_march\", \"tot_mission\"]\n\n";
    text += &unit("MG X", &format!("{HMG}\ncompany = \"X\""));
    text += &unit("MG Y", &format!("{HMG}\ncompany = \"Y\""));
    text
}

#[test]
fn a_company_destroyed_by_fire_counts_as_gone_the_same_turn() {
    // Spread fire: Attackers' MGs fire at MG X and MG Y, Defenders' at one MG each.
    // Each fire kills with p = 6364/15625 (three dice, 4/25 a die: see the HMG duel).
    // Y is always fired at, so it checks against 0 - 2 - 2 (- 1 if forced back): a d10
    // exceeds it by 5 or more, demoralized at best. X at 20 always passes. So the
    // Defenders break exactly when fire destroys X (company gone + Y demoralized):
    // p. The Attackers' company is gone when both MGs fall: p^2 (one loss: 20 - 2
    // passes). Independent fires:
    //   Attackers win = p (1 - p^2)   = 1295965780956 / 3814697265625
    //   Defenders win = (1 - p) p^2   =  375075093456 / 3814697265625
    //   draw          = p^3           =  257745156544 / 3814697265625
    //   undecided     = (1-p)(1-p^2)  = 1885911234669 / 3814697265625
    // A company wiped out by fire that kept its old status left every one of these
    // but `undecided` at 0.
    let e = Exact::of("one company destroyed, the other demoralized", &one_company_destroyed_the_other_demoralized());
    let den = 3_814_697_265_625;
    assert_eq!(e.p("winner", "Attackers"), ratio(1_295_965_780_956, den));
    assert_eq!(e.p("winner", "Defenders"), ratio(375_075_093_456, den));
    assert_eq!(e.p("winner", "draw"), ratio(257_745_156_544, den));
    assert_eq!(e.p("winner", "undecided"), ratio(1_885_911_234_669, den));
    // X is gone exactly when its stand is; Y is never left steady or pinned.
    assert_eq!(e.p("state_mg_x", "eliminated"), e.p("survivors_mg_x", "0"));
    assert!(e.p("state_mg_y", "steady").is_zero() && e.p("state_mg_y", "pinned").is_zero());
}

/// Veteran engineers (`count` stands; company morale `morale` with `modifiers`)
/// in contact with a regular Panther (company morale 20), fought in the open, one turn.
fn engineers_in_contact(count: u32, morale: u32, modifiers: &str) -> String {
    let mut text = format!(
        "ruleset = \"command-decision\"\nkind = \"engagement\"\n\n{}\n",
        head(0.0, 0.0, 0.0, 1, &format!("end = [\"eliminated\"]{IN_THE_OPEN}"))
    );
    text += &format!(
        "\n[[side]]\nname = \"US\"\n\n[[side.company]]\nname = \"Engineers\"\nmorale = {morale}\nmodifiers = [{modifiers}]\n\n"
    );
    text += &unit(
        "Engineers",
        &format!("count = {count}\nquality = \"veteran\"\nweapon = \"engineer_platoon\"\nrole = \"engineer\""),
    );
    text += "\n[[side]]\nname = \"German\"\n\n[[side.company]]\nname = \"Panther\"\nmorale = 20\n\n";
    text += &unit(
        "Panther",
        "quality = \"regular\"\nweapon = \"de_75mm_kwk42\"\nmount = \"tank\"\nvehicle = \"panther_g\"",
    );
    text
}

#[test]
fn engineers_in_contact_close_assault_a_panther_one_stand_at_a_time() {
    // At 0 in. the sides are in contact (CD-E12): the engineers close assault as in
    // experiments/cd_close_assault.toml, hit number 6 +1 veteran -2 A class vs a strong
    // AFV = 5, one die, and an engineer's hit destroys: P = 1/2. The Panther's company
    // (20 - 1 for personnel within 12 in.) never fails its check, so only the assault
    // takes it. Out of contact an A-class stand could not fire at it at all.
    let one = Exact::of("one engineer stand in contact", &engineers_in_contact(1, 20, ""));
    assert_eq!(one.p("survivors_panther", "0"), ratio(1, 2));
    // Two stands in contact: "only one personnel stand may actually conduct a close
    // assault attack" on an AFV, and the other has no other target: still 1/2, not
    // 1 - (1/2)^2 = 3/4.
    let two = Exact::of("two engineer stands in contact", &engineers_in_contact(2, 20, ""));
    assert_eq!(two.p("survivors_panther", "0"), ratio(1, 2));
}

#[test]
fn demoralized_stands_in_contact_with_an_unpinned_enemy_are_eliminated() {
    // The engineers' assault destroys the Panther with 1/2 (as above). Their check:
    // - Panther left: 0 - 2 (road march) - 2 (AFV within 12 in.) = -4, one less if the
    //   Panther's fire forced them back. A d10 of 1-2 (1 if forced back) demoralizes
    //   them, more eliminates them; and demoralized in contact with the Panther,
    //   steady after its own check (20 - 1), they are eliminated at the end of the
    //   morale phase. So they never end demoralized.
    // - Panther gone: no AFV within 12 in., so 0 - 2 = -2 (-3 forced back): 3-4 (2-3)
    //   demoralizes them, 2/10 either way, and nothing unpinned is left in contact.
    // P(demoralized at the end) = 1/2 * (P(no effect) + P(forced back)) * 2/10, with
    // the Panther's fire at them taken from the same fire as a `fire` scenario. Left
    // in contact unpunished, the first case would add 1/2 * (2 P(no effect) + P(forced
    // back)) / 10.
    let fire = Exact::of(
        "Panther fires at veteran engineers in contact",
        "ruleset = \"command-decision\"\nkind = \"direct_fire\"\nrange = 0\n\n[[firer]]\nweapon = \"de_75mm_kwk42\"\n\
         quality = \"regular\"\nmount = \"tank\"\n\n[target]\nquality = \"veteran\"\n",
    );
    let (no_effect, forced_back) = (fire.p("target", "no_effect"), fire.p("target", "forced_back"));
    // (a/b + c/d) / 10 = (a d + c b) / (10 b d), with no effect a/b and forced back c/d.
    let (a, b, c, d) = (no_effect.numer(), no_effect.denom(), forced_back.numer(), forced_back.denom());
    let want = Ratio::from_big(a * d + c * b, BigUint::from(10u32) * b * d);
    let e = Exact::of("demoralized in contact", &engineers_in_contact(1, 0, "\"road_march\""));
    assert_eq!(e.p("state_engineers", "demoralized"), want);
    assert!(!want.is_zero());
}

/// A stand whose fire reaches 40 in. and never hits (hit number 0): it keeps a side in
/// the fight while only the other fire decides.
const SPOTTER: &str = "quality = \"regular\"\nweapon_data = { rof = \"1\", \
    close = { range = 10, hit = 0, anti_armour = \"-\" }, medium = { range = 20, hit = 0, anti_armour = \"-\" }, \
    long = { range = 30, hit = 0, anti_armour = \"-\" }, extreme = { range = 40, hit = 0, anti_armour = \"-\" } }";

/// A battery of one regular stand (ROF 1, no caliber so no ammunition check) whose
/// HE value is `he`, with its burst over `under`, and `extra` keys.
fn battery(he: i32, under: &str, extra: &str) -> String {
    format!(
        "[[side.battery]]\nname = \"Mortars\"\nquality = \"regular\"\nartillery = \"organic\"\n\
         weapon_data = {{ rof = \"1\", close = {{ range = 10, hit = 0, anti_armour = \"H\" }}, \
         medium = {{ range = 20, hit = 0, anti_armour = \"H\" }}, long = {{ range = 30, hit = 0, anti_armour = \"H\" }}, \
         extreme = {{ range = 40, hit = 0, anti_armour = \"H\" }}, idf = {{ burst = 1, he = {he} }} }}\n\
         under_burst = [{under}]\n{extra}\n"
    )
}

/// One turn at 16 in., in the open, morale 20 (no check can fail), ended only by
/// elimination: side A holding `a`, side B holding `b`.
fn one_turn(a: &[String], b: &[String]) -> String {
    engagement(&head(16.0, 0.0, 0.0, 1, &format!("end = [\"eliminated\"]{IN_THE_OPEN}")), [("A", 20, a), ("B", 20, b)])
}

#[test]
fn a_battery_rolls_its_response_once_for_every_stand_under_its_burst() {
    // Organic artillery responds on a d10 at or below 5: 1/2. On arrival each of the
    // two stands under the burst takes one attack at HE value 4 (4/10) and a hit
    // eliminates a regular stand on 7+ (4/10): 4/25 each, independently. One response
    // for the mission:
    //   both gone = 1/2 (4/25)^2             = 8/625
    //   one gone  = 1/2 * 2 (4/25)(21/25)     = 84/625
    //   none gone = 1/2 + 1/2 (21/25)^2       = 533/625
    // (a response rolled stand by stand would give both gone 1/4 (4/25)^2 = 4/625; a
    // burst on one stand alone, one gone 1/2 * 4/25 = 50/625).
    let text = one_turn(
        &[unit("Spotters", SPOTTER), battery(4, "\"Riflemen\"", "")],
        &[unit("Riflemen", &format!("{SPOTTER}\ncount = 2"))],
    );
    let e = Exact::of("a battery over two stands", &text);
    assert_eq!(e.p("survivors_riflemen", "0"), ratio(8, 625));
    assert_eq!(e.p("survivors_riflemen", "1"), ratio(84, 625));
    assert_eq!(e.p("survivors_riflemen", "2"), ratio(533, 625));
    assert_eq!(e.p("winner", "A"), ratio(8, 625));
}

#[test]
fn a_burst_over_several_stands_checks_one_die_of_the_mission_for_depletion() {
    // Seed 001, Ammo Depletion: "Artillery with multiple targets in template requires
    // only 1 of dice (different color) to deplete". A self-observed battery of one
    // stand (ROF 1, HE 4, 100mm: a natural 1 depletes on a d10 at or below 100/10 = 10,
    // always) over two Riflemen, two turns. Each attack: face 1 hits and depletes, 2-4
    // hit, a hit eliminates on 7+ (4/10); so it eliminates with 4/25, and leaves its
    // stand with face 1 with 1/10 * 6/10 = 3/50, with no face 1 with 21/25 - 3/50 =
    // 39/50. Both Riflemen survive the first mission with (21/25)^2; the second comes
    // unless the battery depleted, and both survive it with (21/25)^2 again.
    //   one die checked (the first stand's): 3/50 * 21/25 + 39/50 * 21/25 * (21/25)^2
    //     = 39375/781250 + 361179/781250 = 400554/781250 = 200277/390625
    //   every die checked, as a burst on one stand is: (21/25)^2 - (39/50)^2
    //     + (39/50)^2 (21/25)^2 = 0.52648704, not the seed's 0.51271...
    let gun = "weapon_data = { rof = \"1\", caliber_mm = 100, close = { range = 10, hit = 0, anti_armour = \"H\" }, \
        medium = { range = 20, hit = 0, anti_armour = \"H\" }, long = { range = 30, hit = 0, anti_armour = \"H\" }, \
        extreme = { range = 40, hit = 0, anti_armour = \"H\" }, idf = { burst = 1, he = 4 } }";
    let battery = format!(
        "[[side.battery]]\nname = \"Howitzer\"\nquality = \"regular\"\nartillery = \"organic\"\n\
         self_observed = true\n{gun}\nunder_burst = [\"Riflemen\"]\n"
    );
    let text = engagement(
        &head(16.0, 0.0, 0.0, 2, &format!("end = [\"eliminated\"]{IN_THE_OPEN}")),
        [
            ("A", 20, &[unit("Spotters", SPOTTER), battery]),
            ("B", 20, &[unit("Riflemen", &format!("{SPOTTER}\ncount = 2"))]),
        ],
    );
    let e = Exact::of("a howitzer over two stands for two turns", &text);
    assert_eq!(e.p("survivors_riflemen", "2"), ratio(200_277, 390_625));
}

#[test]
fn every_stand_under_an_arriving_mission_is_suppressed_for_the_turn() {
    // A self-observed mission always arrives; at HE value -10 it never hits, but MG B
    // is in its template and suppressed: its fire at MG A hits on 4 - 2 = 2, so MG A
    // falls with 1 - (1 - 2/10 * 4/10)^3 = 1 - 12167/15625 = 3458/15625 (unsuppressed
    // 6364/15625, as in the HMG duel). MG A's own fire is untouched: 6364/15625.
    let text = one_turn(&[unit("MG A", HMG), battery(-10, "\"MG B\"", "self_observed = true")], &[unit("MG B", HMG)]);
    let e = Exact::of("a mission that only suppresses", &text);
    assert_eq!(e.p("survivors_mg_a", "0"), ratio(3458, 15625));
    assert_eq!(e.p("survivors_mg_b", "0"), ratio(6364, 15625));
}

#[test]
fn opportunity_fire_strips_cover_from_a_hasty_advance_but_not_a_cautious_one() {
    // MG A holds and fires in the Opportunity Fire Phase: ROF 3 +1 op fire = 4 dice.
    // "Any stand moving in cover under a cautious advance order receives the benefit
    // of cover. All other stands moving in cover do not": in medium cover (-2),
    //   hasty advance:    hit 4,     1 - (21/25)^4 = 196144/390625
    //   cautious advance: hit 4 - 2, 1 - (23/25)^4 = 110784/390625
    for (order, kill) in [("hasty_advance", 196_144), ("cautious_advance", 110_784)] {
        let text = one_turn(
            &[unit("MG A", &format!("{HMG}\nfires_in = \"opportunity\""))],
            &[unit("Riflemen", &format!("{SPOTTER}\ntarget_modifiers = [\"medium_cover\"]\norder = \"{order}\""))],
        );
        let e = Exact::of(&format!("op fire at a {order}"), &text);
        assert_eq!(e.p("survivors_riflemen", "0"), ratio(kill, 390_625), "{order}");
    }
}

#[test]
fn prep_fire_suppresses_its_target_and_the_firer_fires_no_more() {
    // A's gun (H class, ROF 1, hit number 1) prep fires at MG B: eliminated with
    // 1/10 * 4/10 = 1/25, and suppressed whatever the roll. MG B, if left, fires in the
    // General Fire Phase at 4 - 2 = 2: the gun falls with 24/25 * (1 - (23/25)^3) =
    // 24/25 * 3458/15625 = 82992/390625. The gun does not fire again, so MG B still
    // falls with 1/25. Fired in the general phase instead, both fire at once unsuppressed:
    // the gun falls with 6364/15625.
    let gun = "quality = \"regular\"\nweapon_data = { rof = \"1\", \
        close = { range = 10, hit = 1, anti_armour = \"H\" }, medium = { range = 20, hit = 1, anti_armour = \"H\" }, \
        long = { range = 30, hit = 1, anti_armour = \"H\" }, extreme = { range = 40, hit = 1, anti_armour = \"H\" } }";
    for (phase, gun_falls, mg_falls) in [("prep", ratio(82_992, 390_625)), ("general", ratio(6364, 15625))]
        .map(|(phase, gun)| (phase, gun, ratio(1, 25)))
    {
        let text = one_turn(&[unit("Gun", &format!("{gun}\nfires_in = \"{phase}\""))], &[unit("MG B", HMG)]);
        let e = Exact::of(&format!("gun firing in {phase}"), &text);
        assert_eq!(e.p("survivors_gun", "0"), gun_falls, "{phase}");
        assert_eq!(e.p("survivors_mg_b", "0"), mg_falls, "{phase}");
    }
}

fn base() -> String {
    hmg_duel(3)
}

#[test]
fn a_side_with_no_units_is_refused() {
    let text = base().replacen("[[side.unit]]\nname = \"MG B\"", "[[side.nothing]]\nname = \"MG B\"", 1);
    let text = text.replace("[[side.nothing]]\nname = \"MG B\"\nquality = \"regular\"\nweapon = \"hmg_platoon\"\n", "");
    let (_d, path, line) = scenario_error("empty.toml", &text);
    assert_placed_in(&line, &path);
    assert_contains(&line, &["side `B` has no units", "[[side.unit]]"]);
}

#[test]
fn a_weapon_that_reaches_no_enemy_is_refused() {
    // Rifles reach 8 in. at most; the fight stays at 16.
    let text = replace_once(
        &base(),
        "name = \"MG B\"\nquality = \"regular\"\nweapon = \"hmg_platoon\"",
        "name = \"Rifles\"\nquality = \"regular\"\nweapon = \"rifle_platoon\"",
    );
    let (_d, path, line) = scenario_error("reach.toml", &text);
    // The error points at the unit's table.
    assert_located(&line, &path, &place(&text, "[[side.unit]]\nname = \"Rifles\"", 0));
    assert_contains(&line, &["unit `Rifles`", "cannot reach any enemy", "16 in."]);
}

#[test]
fn a_turn_limit_of_zero_is_refused() {
    let text = replace_once(&base(), "turns = 3", "turns = 0");
    let (_d, path, line) = scenario_error("turns.toml", &text);
    assert_located(&line, &path, &place(&text, "turns = 0", 8));
    assert_contains(&line, &["turns must be from 1 to 200, not 0"]);
}

#[test]
fn misspellings_get_the_nearest_name() {
    for (from, to, want) in [
        ("weapon = \"hmg_platoon\"", "weapon = \"hmg_platon\"", "did you mean `hmg_platoon`?"),
        ("quality = \"regular\"", "quality = \"reguler\"", "did you mean `regular`?"),
        ("quality = \"regular\"", "qualty = \"regular\"", "did you mean `quality`?"),
        ("turns = 3", "turns = 3\ntargets = \"most_dangerus\"", "did you mean `most_dangerous`?"),
        ("end = [\"eliminated\"]", "end = [\"eliminatd\"]", "did you mean `eliminated`?"),
    ] {
        let text = base().replacen(from, to, 1);
        let (_d, path, line) = scenario_error("typo.toml", &text);
        assert_placed_in(&line, &path);
        assert_contains(&line, &[want]);
    }
}

#[test]
fn conditions_the_engagement_sets_cannot_be_named() {
    let text = replace_once(&base(), "name = \"MG A\"\n", "name = \"MG A\"\nfiring_modifiers = [\"pinned\"]\n");
    let (_d, path, line) = scenario_error("pinned.toml", &text);
    assert_located(&line, &path, &place(&text, "\"pinned\"]", 0));
    assert_contains(&line, &["`pinned` is set by the engagement"]);
}

#[test]
fn companies_are_required_and_named_correctly() {
    let text = base().replacen("[[side.company]]\nname = \"A company\"\nmorale = 20\n", "", 1);
    let (_d, path, line) = scenario_error("nocompany.toml", &text);
    crate::common::cli::assert_names_file(&line, &path);
    assert_contains(&line, &["side `A`", "[[side.company]]", "morale"]);
    let text = replace_once(&base(), "name = \"MG A\"\n", "name = \"MG A\"\ncompany = \"A compnay\"\n");
    let (_d, path, line) = scenario_error("badcompany.toml", &text);
    assert_located(&line, &path, &place(&text, "\"A compnay\"", 0));
    assert_contains(&line, &["unknown company `A compnay`", "did you mean `A company`?"]);
}

/// The shipped mortars covering an advance, with `from` replaced by `to` once.
fn mortars(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string("experiments/cd_engagement_mortars_cover_the_advance.toml").unwrap();
    replace_once(&text, from, to)
}

#[test]
fn orders_and_fire_phases_are_checked_where_they_are_written() {
    let cases = [
        (
            "order = \"cautious_advance\"",
            "order = \"cautios_advance\"",
            "\"cautios_advance\"",
            &["unknown order `cautios_advance`", "did you mean `cautious_advance`?"][..],
        ),
        (
            "order = \"cautious_advance\"",
            "order = \"cautious_advance\"\nfires_in = \"opportunity\"",
            "\"opportunity\"\n\n[[side.battery",
            &[
                "unit `Rifle platoon`",
                "only stands under a Hold order fire in prep or opportunity fire",
                "order = \"hold\"",
            ],
        ),
        (
            "fires_in = \"opportunity\"\n\n[[side.unit]]\nname = \"HMG",
            "fires_in = \"prep\"\n\n[[side.unit]]\nname = \"HMG",
            "\"prep\"",
            &[
                "unit `Rifle platoon in the trenches`",
                "prep fire always consists of H class or HC",
                "fires_in = \"opportunity\"",
            ],
        ),
        (
            "order = \"cautious_advance\"",
            "order = \"disengage\"\nmount = \"tank\"\nvehicle = \"m4_sherman\"",
            "\"disengage\"",
            &["fires only in physical contact", "close assault by personnel", "another order"],
        ),
        (
            "order = \"cautious_advance\"",
            "firing_modifiers = [\"hasty_advance\"]",
            "\"hasty_advance\"]",
            &["`hasty_advance` is set by the engagement from the unit's `order`"],
        ),
    ];
    for (from, to, at, want) in cases {
        let text = mortars(from, to);
        let (_d, path, line) = scenario_error("orders.toml", &text);
        assert_located(&line, &path, &place(&text, at, 0));
        assert_contains(&line, want);
    }
}

#[test]
fn a_battery_names_the_enemy_entries_under_its_burst() {
    let under = "under_burst = [\"HMG in the trenches\"]";
    for (to, at, want) in [
        (
            "under_burst = [\"HMG in the trench\"]",
            "\"HMG in the trench\"",
            &["unknown unit entry of side `Defenders` `HMG in the trench`", "did you mean `HMG in the trenches`?"][..],
        ),
        (
            "under_burst = [\"Rifle platoon\"]",
            "\"Rifle platoon\"]",
            &["unknown unit entry of side `Defenders` `Rifle platoon`"],
        ),
        ("under_burst = []", "[]", &["`under_burst` names no unit entry", "side `Defenders`"]),
        (
            "under_burst = [\"HMG in the trenches\", \"HMG in the trenches\"]",
            "\"HMG in the trenches\"]",
            &["under the burst once"],
        ),
    ] {
        let text = mortars(under, to);
        let (_d, path, line) = scenario_error("battery.toml", &text);
        assert_located(&line, &path, &place(&text, at, 0));
        assert_contains(&line, want);
    }
    // A battery needs a weapon with indirect fire data, and the entry is required.
    let text = mortars("weapon = \"us_81mm_mortar\"", "weapon = \"hmg_platoon\"");
    let (_d, path, line) = scenario_error("noidf.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["81mm mortar platoon", "no IDF data"]);
    let text = mortars(&format!("{under}\n"), "");
    let (_d, path, line) = scenario_error("nounder.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["under_burst"]);
}

#[test]
fn rulesets_whose_fights_play_no_batteries_refuse_one() {
    let text = std::fs::read_to_string("experiments/mc_engagement_mortars_vs_farmhouse.toml").unwrap()
        + "\n[[side.battery]]\nname = \"Guns\"\n";
    let (_d, path, line) = scenario_error("mc_battery.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["play no off-table batteries", "remove the [[side.battery]]"]);
}

/// `fire --format json` of the shipped Shermans against a Panther, closed to 4 in.,
/// with `shermans` Shermans and `panthers` Panthers, with `more` arguments.
fn shermans_report(shermans: u32, panthers: u32, more: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string("experiments/cd_engagement_shermans_vs_panther.toml").unwrap();
    let text = base
        .replacen("range = 17.5", "range = 4", 1)
        .replacen("count = 3", &format!("count = {shermans}"), 1)
        .replacen("name = \"Panther\"\nquality", &format!("name = \"Panther\"\ncount = {panthers}\nquality"), 1);
    let close = crate::common::cli::write(dir.path(), "close.toml", &text);
    let mut args = vec!["fire", close.to_str().unwrap(), "--trials", "1000", "--format", "json"];
    args.extend(more);
    let out = crate::common::cli::stdout_of(&args);
    serde_json::from_str(&out).unwrap()
}

fn notes(report: &serde_json::Value) -> Vec<&str> {
    report["notes"].as_array().unwrap().iter().filter_map(|n| n.as_str()).collect()
}

/// The notes of the engagement `text`, run by the binary, that say a stand holds its fire.
fn held_fire(text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = crate::common::cli::write(dir.path(), "held.toml", text);
    let out = crate::common::cli::stdout_of(&["fire", file.to_str().unwrap(), "--trials", "1000", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    notes(&report).into_iter().filter(|n| n.ends_with("it holds its fire")).map(str::to_string).collect()
}

#[test]
fn fields_decided_early_leave_a_close_fight_exact_and_compiled() {
    // Closed to 4 in., three Shermans and a Panther: no turn leaves more than a few
    // hundred undecided fields. Its turns weigh past 64 bits: 128-bit columns.
    let report = shermans_report(3, 1, &[]);
    assert!(report["p_kill"]["exact"].is_number(), "{:?}", notes(&report));
    assert_eq!(report["mode"], "compiled");
}

#[test]
fn five_shermans_against_a_panther_are_exact_and_compiled() {
    // Five Shermans closed to 4 in. on the Panther: 5,600 lumped fields at most,
    // decided endings folded away the turn they are decided. The exact answer is
    // in, well inside a budget the old chain of whole endings spent, and compiled
    // sampling agrees with it.
    let report = shermans_report(5, 1, &["--exact-seconds", "20"]);
    let exact = report["p_kill"]["exact"].as_f64().unwrap_or_else(|| panic!("{:?}", notes(&report)));
    let [low, high] = ["ci_low", "ci_high"].map(|k| report["p_kill"][k].as_f64().unwrap());
    assert!((low..=high).contains(&exact), "exact {exact} outside the compiled run's [{low}, {high}]");
    assert_eq!(report["mode"], "compiled");
}

#[test]
fn a_platoon_against_a_platoon_is_refused_from_its_estimate() {
    // Five Shermans against five Panthers (issue 32's platoon against a platoon):
    // each platoon spreads over 56 ways of counting its stands by condition, times 5
    // morale statuses, so the chain may need 78,400 states, more than a turn may
    // leave undecided: refused before any work, with the count, at once (it was
    // tried, and gave up a minute and half a gigabyte later).
    let started = std::time::Instant::now();
    let report = shermans_report(5, 5, &[]);
    assert_eq!(report["p_kill"]["exact"], serde_json::Value::Null);
    let notes = notes(&report);
    let states = "the field's lumped Markov chain would need up to 78400 states (units of each entry counted by \
                  condition), more than the exact solver's 20000: no exact odds, Monte Carlo answers alone";
    assert!(notes.contains(&states), "{notes:?}");
    // Compiled sampling, asked for by default, says why it stands aside too.
    assert_eq!(report["mode"], "literal");
    assert!(notes.contains(&format!("compiled sampling stands aside: {states}").as_str()), "{notes:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "refused after {:?}", started.elapsed());
}

#[test]
fn the_farmhouse_is_compiled_a_phase_at_a_time_and_agrees_with_its_exact_odds() {
    // Issue 32: from its fifth turn (4 in.) the farmhouse's whole turn weighs its dice
    // in 135 bits, past the 128 one draw of the compiled sampler takes, and every trial
    // was played literally. Drawn a phase at a time, each phase's dice fit.
    let out = crate::common::cli::stdout_of(&[
        "fire",
        "experiments/cd_engagement_company_at_the_farmhouse.toml",
        "--trials",
        "200000",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let notes = notes(&report);
    assert_eq!(report["mode"], "compiled", "{:?}", notes.iter().filter(|n| n.contains("compiled")).collect::<Vec<_>>());
    assert!(!notes.iter().any(|n| n.contains("stands aside")), "{notes:?}");
    // The attackers' win, exactly about 0.130: 200,000 trials give a standard error of
    // sqrt(0.13 x 0.87 / 200,000) = 0.00075, and the estimate is held within 4.5 of
    // them (0.0034) of the exact odds, a two-sided alpha of 7e-6 at this fixed seed.
    let exact = report["p_kill"]["exact"].as_f64().unwrap_or_else(|| panic!("{notes:?}"));
    let estimate = report["p_kill"]["estimate"].as_f64().unwrap();
    let error = (exact * (1.0 - exact) / 200_000.0).sqrt();
    assert!((estimate - exact).abs() < 4.5 * error, "compiled {estimate} against exact {exact} (s.e. {error})");
}

#[test]
fn a_battery_s_notes_name_the_battery_and_the_entry_under_its_burst() {
    // The shipped 81mm mortar platoon, its burst over the HMG: its notes once named the
    // HMG twice ("battery HMG in the trenches at HMG in the trenches").
    let out = crate::common::cli::stdout_of(&[
        "fire",
        "experiments/cd_engagement_mortars_cover_the_advance.toml",
        "--trials",
        "1000",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let batteries: Vec<&str> = notes(&report).into_iter().filter(|n| n.starts_with("battery ")).collect();
    assert_eq!(batteries, ["battery 81mm mortar platoon at HMG in the trenches, under its burst:"]);
}

#[test]
fn a_stand_that_fires_only_in_contact_holds_its_fire_in_a_fight_that_never_closes() {
    // The attackers' rifle platoons disengage (Orders Summary "*": they fire only in
    // physical contact) and the fight stops at 3 in. (min_range): once refused as "its
    // weapon cannot reach any enemy at the ranges of this engagement", though their
    // order is the reason. They hold their fire, and the fight is played.
    let text = mortars("order = \"cautious_advance\"", "order = \"disengage\"");
    assert_eq!(
        held_fire(&text),
        ["Rifle platoon fires only in physical contact under its `disengage` order (Orders Summary \"*\"), and this \
          engagement never closes to contact: it holds its fire"]
    );
}

/// A stand's inline data line: ROF `rof`, a hit number of 4 at every band out to
/// 24 in., and `more` keys (an `other` line, a caliber).
fn data_line(rof: &str, more: &str) -> String {
    format!(
        "weapon_data = {{ rof = \"{rof}\", close = {{ range = 4, hit = 4, anti_armour = \"-\" }}, \
         medium = {{ range = 8, hit = 4, anti_armour = \"-\" }}, long = {{ range = 16, hit = 4, anti_armour = \"-\" }}, \
         extreme = {{ range = 24, hit = 4, anti_armour = \"-\" }}{more} }}"
    )
}

#[test]
fn a_heavy_weapon_stand_that_moved_more_than_a_cautious_advance_fires_its_other_line() {
    // Seed 000, Restrictions: "If they moved more than a cautious advance they may only
    // fire using the 'other' data line". MG A, a personnel stand with ROF 3 at hit 4
    // and an `other` line of ROF 1 at hit 4, fires at the Spotters (regular, in the
    // open: a hit eliminates on 7+, 4/10) at 16 in. for one turn.
    //   hold:              own line, 1 - (1 - 4/10 * 4/10)^3 = 6364/15625
    //   cautious advance:  own line, the same 6364/15625
    //   hasty advance:     other line at -2 (Orders Summary "Yes (-2)"):
    //                      hit 2, 2/10 * 4/10 = 2/25 = 1250/15625
    //                      (its own line would give 1 - (23/25)^3 = 3458/15625)
    let other = ", other = { rof = \"1\", close = { range = 4, hit = 4, anti_armour = \"-\" }, \
        medium = { range = 8, hit = 4, anti_armour = \"-\" }, long = { range = 16, hit = 4, anti_armour = \"-\" }, \
        extreme = { range = 24, hit = 4, anti_armour = \"-\" } }";
    for (order, kill) in [("hold", 6364), ("cautious_advance", 6364), ("hasty_advance", 1250)] {
        let mg = format!("quality = \"regular\"\n{}\norder = \"{order}\"", data_line("3", other));
        let text = one_turn(&[unit("MG A", &mg)], &[unit("Spotters", SPOTTER)]);
        let e = Exact::of(&format!("a heavy weapon under {order}"), &text);
        assert_eq!(e.p("survivors_spotters", "0"), ratio(kill, 15_625), "{order}");
    }
}

#[test]
fn a_towed_weapon_with_an_asterisk_holds_its_fire_while_its_order_moves_it() {
    // Seed 000, Restrictions: weapons with an asterisk after their ROF "may not fire
    // unless they were stationary in the previous Movement Phase". The gun (ROF 1*,
    // hit 4) at the Spotters at 16 in. for one turn: holding, it eliminates them with
    // 4/10 * 4/10 = 4/25; under a Cautious Advance it never fires, and says why.
    let gun =
        |order: &str| format!("quality = \"regular\"\nmount = \"towed\"\n{}\norder = \"{order}\"", data_line("1*", ""));
    let held = one_turn(&[unit("Gun", &gun("hold"))], &[unit("Spotters", SPOTTER)]);
    assert_eq!(Exact::of("a towed gun holding", &held).p("survivors_spotters", "0"), ratio(4, 25));
    let moving = one_turn(&[unit("Gun", &gun("cautious_advance"))], &[unit("Spotters", SPOTTER)]);
    assert_eq!(Exact::of("a towed gun advancing", &moving).p("survivors_spotters", "0"), ratio(0, 1));
    assert_eq!(
        held_fire(&moving),
        ["Gun has an asterisk after its weapon's ROF, so it may not fire unless stationary in the previous Movement \
          Phase (seed 000, Restrictions), and its `cautious_advance` order moves it: it holds its fire"]
    );
}

#[test]
fn a_weapon_with_an_asterisk_is_refused_opportunity_fire() {
    // "(and even then they may not fire in the Opportunity Fire Phase)": in a fight and
    // in a single fire alike.
    let gun = format!("quality = \"regular\"\nmount = \"towed\"\n{}\nfires_in = \"opportunity\"", data_line("2*", ""));
    let text = one_turn(&[unit("Gun", &gun)], &[unit("Spotters", SPOTTER)]);
    let (_d, path, line) = scenario_error("towed_op_fire.toml", &text);
    assert_placed_in(&line, &path);
    assert_contains(&line, &["unit `Gun`", "asterisk after its ROF", "Opportunity Fire Phase", "fires_in"]);
    let single = format!(
        "ruleset = \"command-decision\"\nkind = \"direct_fire\"\nphase = \"opportunity\"\nrange = 16\n\n[[firer]]\n\
         name = \"Gun\"\nquality = \"regular\"\nmount = \"towed\"\n{}\n\n[target]\nquality = \"regular\"\n",
        data_line("2*", "")
    );
    let (_d, path, line) = scenario_error("towed_single.toml", &single);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["Gun", "asterisk after its ROF", "set phase = \"general\""]);
}

#[test]
fn the_notes_say_how_units_choose_their_targets_in_words() {
    // They printed the policy's name in the code ("targets: MostDangerous").
    let report = shermans_report(2, 1, &[]);
    let notes = notes(&report);
    let line = notes.iter().find(|n| n.contains("turns at most")).expect("the engagement's line");
    assert!(line.contains("targets: each unit fires at the enemy most likely to kill one of its own;"), "{line}");
    assert!(!notes.iter().any(|n| n.contains("MostDangerous")), "{notes:?}");
}
