//! The shipped Chain of Command tables, checked cell by cell against their sources:
//! the seed `002_5e16b8a8908c3b26.txt` (section 7: Command Dice, combining, Leaders,
//! the Red Dice, Elite forces, Leader variations) and, where the seed is silent, the
//! reference sheet `chain-of-command-facts.md` (sixes, points, to-hit, effect, Shock,
//! Force Morale). Neither file is read at run time (CI does not have them): the source
//! lines are copied below verbatim, one source line per line, and every loaded cell must
//! read back as the source's text. Where a source has to be read rather than copied (the
//! Hard cover row's lost face, the seed's run-together table cells, the Leader
//! variations written as prose), the expected values are literals with the source line
//! quoted above them.

use crate::common::lines;
use combat_odds_rules::ruleset::Load;

use combat_odds_core::tables::{RollRange, Source};
use combat_odds_rules::Ruleset;
use combat_odds_rules::chain_of_command::{
    ChainOfCommand, Change, EMBEDDED, HitEffect, QUALITIES, Rank, SETTINGS, Tables, Threshold, Use,
};

const SEED: &str = "002_5e16b8a8908c3b26.txt";
const FACTS: &str = "chain-of-command-facts.md";

fn ruleset() -> ChainOfCommand {
    ChainOfCommand::load(None).expect("the embedded tables load")
}

fn tables(coc: &ChainOfCommand) -> &Tables {
    coc.tables()
}

// ---------------------------------------------------------------------------------
// The seed's lines, verbatim. Each block opens and closes on a line break.
// ---------------------------------------------------------------------------------

/// Seed lines 17-23: the Command Dice table under "7.2 Rolling the command dice"; the
/// extraction ran each roll into its result.
const SEED_FACES: &str = r#"
RollResult
1Activate one Team
2Activate one Section
3Activate one Junior Leader
4Activate one Senior Leader
5Add one Chain of Command Point
6Turn Sequence
"#;

/// Seed line 25: combining dice.
const SEED_COMBINING: &str = "Two or more Command Dice may be combined to make a higher result. For example, a 1 and a 2 can be combined to make a 3. Dice cannot be combined to make a 5 or 6. Dice cannot be split to make a lower result, nor can a player substitute one score for a different one.";

/// Seed lines 53-55: the Leader Orders table under "7.5 Leader Orders"; the extraction
/// ran the cells together (rank, Orders, range in inches).
const SEED_LEADERS: &str = r#"
RankOrdersRange
Junior Leader26"
Senior Leader39"
"#;

/// Seed line 164: the Red Dice.
const SEED_RED_DICE: &str = r#"Only rolls of 1 to 4 are used on the "Red Dice", rolls of 5 or 6 are discarded."#;

/// Seed line 174: Superior Junior Leaders.
const SEED_SUPERIOR: &str = "Superior Junior Leaders are usually high-quality NCOs commanding well-trained troops. They activate on a Command Dice roll of 3, but can also activate on a Command Dice roll of 4 which allows them to issue three Orders in that Phase.";

/// Seed line 176: Inferior Senior Leaders.
const SEED_INFERIOR: &str = "Inferior Senior Leaders are usually poorly trained or inexperienced commanders. These Leaders activate on a Command Dice roll of 4 but only have two Orders.";

/// Seed line 178.
const SEED_RANGES_UNCHANGED: &str = "Command Ranges are not changed by the Inferior or Superior status.";

/// Seed line 7 (the part about how many dice).
const SEED_TYPICALLY_FIVE: &str = "How many Command Dice a player begins the game with depends on the quality of their force, but typically, it will be five.";

/// The seed's headings (section 7), each with its line number.
const SEED_HEADINGS: [(u32, &str); 8] = [
    (1, "7. Command & Control"),
    (3, "7.1 The Command Dice"),
    (11, "7.2 Rolling the command dice"),
    (27, "7.3 Allocating Command Dice"),
    (49, "7.5 Leader Orders"),
    (156, "7.7 Enhanced Command Ability"),
    (166, "Elite Forces"),
    (170, "7.8 Leader Variations"),
];

// ---------------------------------------------------------------------------------
// The reference sheet's lines, verbatim.
// ---------------------------------------------------------------------------------

/// Reference lines 31-34: "To-hit (1e, from [ESP])".
const FACTS_TO_HIT: &str = r#"
| Range | Green | Regular | Elite |
|---|---|---|---|
| Close | 3–6 | 4–6 | 5–6 |
| Effective | 4–6 | 5–6 | 6 |
"#;

/// Reference lines 61-65: "Effect roll per hit (1e, from [ESP])".
const FACTS_EFFECT: &str = r#"
| Target cover | Miss | Shock | Kill |
|---|---|---|---|
| Open | 1–2 | 3–4 | 5–6 |
| Light | 1–3 | 4–5 | 6 |
| Hard | garbled in the source | 5 | 6 |
"#;

/// Reference lines 67-68: the Hard row as extracted, and its reading.
const FACTS_HARD_ROW: &str = r#"
- The Hard row was extracted as "1, 2, 3, 5 6".
  - *Inference:* 1–4 miss, 5 shock, 6 kill. The "4" is missing from the extraction, so this is **unverified**.
"#;

/// Reference lines 74-77: "Pinned and Broken thresholds (the sources conflict)".
const FACTS_THRESHOLDS: &str = r#"
| | 1e, per review [GC] | 2e [2e-text §4.1.1; WT] |
|---|---|---|
| Pinned | Shock ≥ men left ("as much shock as soldiers") | Shock **greater than** the figures, counting attached leaders. [WT] adds that only unstunned leaders count. |
| Broken | Shock **more than twice** the men | A 2e example says 4 Shock breaks a 2-figure team. *Inference:* Broken at Shock ≥ 2× figures. The rule text itself was not found. |
"#;

/// Reference lines 80-82: the 2e worked examples.
const FACTS_WORKED: &str = r#"
- 2e worked examples [2e-text]:
  - 7 Shock on 10 figures: not Pinned.
  - 9 Shock on 8 figures: Pinned.
"#;

/// Reference line 39: Shock beside the to-hit table.
const FACTS_SHOCK_FIRE: &str =
    r#"- The sheet puts "−1 per two Shock" next to the to-hit table without saying what it applies to [ESP]."#;

/// Reference lines 52-53: what Pinning does (2e).
const FACTS_PINNED: &str = r#"
- A Pinned unit that is fired at moves up **one cover level**, to at most Hard [2e-text §4.1.1].
- A Pinned unit's firepower dice are **halved** [WT, citing 2e §4.1.1].
"#;

/// Reference line 24: firepower per weapon.
const FACTS_WEAPONS: &str =
    "- **NOT FOUND for either edition.** No source gave the per-weapon firepower table or the weapon ranges.";

/// Reference lines 121-126: "Sixes on the command dice".
const FACTS_SIXES: &str = r#"
| Roll | 1e [QRS1; ESP agrees] | 2e |
|---|---|---|
| One 6 | "Pass initiative". The meaning is not spelled out further. | **NOT FOUND** |
| Two 6s | The same player keeps the next phase | **NOT FOUND** |
| Three 6s | As two 6s, and the turn ends | **NOT FOUND** |
| Four or more 6s | As three 6s, plus a Chain of Command die and a random event | **NOT FOUND** |
"#;

/// Reference line 130: Chain of Command points (2e).
const FACTS_POINTS: &str = "- 2e: every 5 rolled adds one CoC point. A full CoC die is **6 points**. CoC points are discarded once used. No unit may use CoC points more than once per phase [2e-text §8.1–8.2].";

/// Reference lines 143-145: the number of Command Dice.
const FACTS_DICE: &str = r#"
- 1e: usually 5 [TMW]. Elite forces often have 6, Green forces often 4, but the army lists vary [RP].
- 2e: typically 5, with the army lists adjusting for quality [2e-text §7.1]. Fewer dice are rolled as Force Morale falls [2e-text §7.1].
- **The Force Morale → number of dice table is NOT FOUND for either edition.**
"#;

/// Reference lines 135-136 and 139: Leader ratings and the Superior Junior Leader's roll (1e).
const FACTS_LEADERS: &str = r#"
  - Junior Leader: 2 initiatives, 6" command range.
  - Senior Leader: 3 initiatives (2 if Inferior), 9".
- The QRS column headed "Roll" reads "3/3,4" for Junior/Superior.
"#;

/// Reference lines 151-155: "Starting value (1e)".
const FACTS_START: &str = r#"
Roll 1d6. Green forces take −2 on the die; Elite forces take +2.

| Modified d6 | ≤1 | 2 | 3 | 4 | 5 | ≥6 |
|---|---|---|---|---|---|---|
| Force Morale | 8 | 8 | 9 | 9 | 10 | 11 |
"#;

/// Reference lines 165-184: the Setback ("Bad Things Happen") table.
const FACTS_SETBACKS: &str = r#"
| Event | 1 | 2 | 3 | 4 | 5 | 6 |
|---|---|---|---|---|---|---|
| Team breaks | 0 | −1 | −1 | −1 | −1 | −2 |
| Team wiped out | 0 | 0 | −1 | −1 | −1 | −1 |
| Section breaks | −1 | −1 | −2 | −2 | −2 | −2 |
| Section wiped out | −1 | −1 | −1 | −2 | −2 | −2 |
| Junior Leader wounded | 0 | 0 | −1 | −1 | −1 | −2 |
| Junior Leader killed | −1 | −1 | −1 | −2 | −2 | −2 |
| Junior Leader routs | −1 | −1 | −2 | −2 | −2 | −2 |
| Senior Leader wounded | −1 | −1 | −1 | −1 | −2 | −2 |
| Senior Leader killed | −1 | −2 | −2 | −2 | −2 | −3 |
| Senior Leader routs | −2 | −2 | −2 | −2 | −3 | −3 |
| Support unit killed | −1 | −1 | −1 | −2 | −2 | −2 |
| Support unit routs | −1 | −1 | −1 | −1 | −2 | −2 |
| Jump-off point lost | −1 | −1 | −1 | −2 | −2 | −2 |
| Row labelled "Friendly … loses cmd dice" | 0 | 0 | 0 | −1 | −1 | −1 |
| Row labelled "Platoon destroyed/breaks" | −1 | −1 | −2 | −2 | −2 | −3 |
| AFV immobilised / main gun knocked out | 0 | 0 | −1 | −1 | ? | ? |
| AFV knocked out | −1 | ? | ? | ? | ? | ? |
| Command AFV knocked out | −1 | ? | ? | ? | ? | ? |
"#;

/// Reference line 186.
const FACTS_CUT_OFF: &str = r#"- "?" = cut off in the source text."#;

/// The reference sheet's section (`##`) headings, each with its line number and the
/// subsection (`###`) headings under it.
const FACTS_HEADINGS: [(u32, &str, &[&str]); 5] = [
    (
        21,
        "1. Shooting",
        &[
            "Firepower dice per weapon (rifle, SMG, pistol, LMG, MMG/HMG)",
            "To-hit (1e, from [ESP])",
            "2e shooting modifiers found",
        ],
    ),
    (
        56,
        "2. Effect of hits",
        &[
            "Effect roll per hit (1e, from [ESP])",
            "Pinned and Broken thresholds (the sources conflict)",
            "2b. Close combat (1e, from [ESP]; listed for completeness)",
        ],
    ),
    (
        117,
        "3. Command dice: 6s, and dice count against Force Morale",
        &["Sixes on the command dice", "Other 1e command facts [QRS1]", "Number of command dice"],
    ),
    (
        148,
        "4. Force Morale",
        &[
            "Starting value (1e) [QRS1; QRS rule refs §3, §15.1]",
            "Setback (\"Bad Things Happen\") table (1e) [QRS1, checked against QRS1b]",
        ],
    ),
    (190, "5. Anti-tank / AFV", &[]),
];

// ---------------------------------------------------------------------------------
// Reading the embedded lines.
// ---------------------------------------------------------------------------------

/// The cells of a Markdown table row, each trimmed.
fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim().strip_prefix('|').and_then(|l| l.strip_suffix('|'));
    inner.unwrap_or_else(|| panic!("{line:?} is a table row")).split('|').map(str::trim).collect()
}

/// The data rows of a Markdown table block (its heading and rule dropped), as cells.
fn rows(block: &'static str) -> Vec<Vec<&'static str>> {
    let all = lines(block);
    assert!(all[1].starts_with("|---"), "the second line of a table is its rule: {:?}", all[1]);
    all[2..].iter().map(|l| cells(l)).collect()
}

/// A reference cell "3–6" (en dash) or "6" as the faces it holds.
fn run(cell: &str) -> (u32, u32) {
    let number = |t: &str| t.trim().parse::<u32>().unwrap_or_else(|_| panic!("{cell:?} holds faces"));
    match cell.split_once('–') {
        Some((lo, hi)) => (number(lo), number(hi)),
        None => (number(cell), number(cell)),
    }
}

/// A setback cell: "0", "−1" (a minus sign, U+2212) or "?".
fn change(cell: &str) -> Change {
    if cell == "?" {
        return Change::Unknown;
    }
    let c: i32 = cell.replace('−', "-").parse().unwrap_or_else(|_| panic!("{cell:?} is a change"));
    Change::Known(c)
}

/// The effect of each face of a cover row as the reference's Miss / Shock / Kill cells
/// give them; a face in no cell is `None`.
fn effect_faces(miss: &str, shock: &str, kill: &str) -> [Option<HitEffect>; 6] {
    let mut faces = [None; 6];
    for (cell, e) in [(miss, HitEffect::Miss), (shock, HitEffect::Shock), (kill, HitEffect::Kill)] {
        let (lo, hi) = run(cell);
        for f in lo..=hi {
            assert!(faces[f as usize - 1].replace(e).is_none(), "face {f} in two cells");
        }
    }
    faces
}

/// A column of a table listing, by file and column name.
fn column(coc: &ChainOfCommand, file: &str, name: &str) -> Vec<String> {
    let views = Ruleset::listing(coc);
    let view = views.iter().find(|v| v.file == file).unwrap_or_else(|| panic!("no listing of {file}"));
    let col = view.columns.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no column {name} in {file}"));
    col.1.clone()
}

// ---------------------------------------------------------------------------------
// Command Dice (seed 7.2, 7.7).
// ---------------------------------------------------------------------------------

#[test]
fn the_six_faces_and_their_uses_are_the_seeds_table() {
    let coc = ruleset();
    let d = &tables(&coc).dice;
    let seed = lines(SEED_FACES);
    // line 17: "RollResult"
    assert_eq!(seed[0], "RollResult");
    let uses = [
        // line 18: "1Activate one Team"
        Use::ActivateTeam,
        // line 19: "2Activate one Section"
        Use::ActivateSection,
        // line 20: "3Activate one Junior Leader"
        Use::ActivateJuniorLeader,
        // line 21: "4Activate one Senior Leader"
        Use::ActivateSeniorLeader,
        // line 22: "5Add one Chain of Command Point"
        Use::ChainOfCommandPoint,
        // line 23: "6Turn Sequence"
        Use::TurnSequence,
    ];
    let names = [
        "activate_team",
        "activate_section",
        "activate_junior_leader",
        "activate_senior_leader",
        "chain_of_command_point",
        "turn_sequence",
    ];
    assert_eq!(d.face_labels.len(), 6, "seed lines 18-23: six faces");
    for (((roll, label, u), line), (want_use, name)) in d.face_labels.iter().zip(&seed[1..]).zip(uses.iter().zip(names))
    {
        let (face, text) = line.split_at(1);
        assert_eq!(roll.to_string(), face, "{line:?}: the roll");
        assert_eq!(label, text, "{line:?}: the result as printed");
        assert_eq!(u, want_use, "{line:?}: its use");
        assert_eq!(u.name(), name, "{line:?}: its use's stable name");
    }
    // Each use is found on the face the seed prints it on.
    assert_eq!(d.team_face, Some(1), "line 18: \"1Activate one Team\"");
    assert_eq!(d.section_face, Some(2), "line 19: \"2Activate one Section\"");
    assert_eq!(d.point_face, 5, "line 22: \"5Add one Chain of Command Point\"");
    assert_eq!(d.sequence_face, 6, "line 23: \"6Turn Sequence\"");
    // The listing prints the same faces and uses.
    assert_eq!(column(&coc, "command_dice.toml", "roll"), ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(column(&coc, "command_dice.toml", "use"), names);
    let printed: Vec<&str> = seed[1..].iter().map(|l| &l[1..]).collect();
    assert_eq!(column(&coc, "command_dice.toml", "result"), printed);
}

#[test]
fn dice_combine_into_results_up_to_four_never_five_or_six() {
    let coc = ruleset();
    let d = &tables(&coc).dice;
    // line 25: "... a 1 and a 2 can be combined to make a 3. Dice cannot be combined to make
    // a 5 or 6. ..."
    assert!(SEED_COMBINING.contains("a 1 and a 2 can be combined to make a 3"));
    assert!(SEED_COMBINING.contains("Dice cannot be combined to make a 5 or 6"));
    assert_eq!(d.highest_combined, 4, "combined results run up to 4");
    // Face by face: 1 is never a combined result (two dice make at least 2), 2-4 can be
    // made, 5 and 6 never.
    let combine = column(&coc, "command_dice.toml", "combine");
    assert_eq!(
        combine,
        [
            "",
            "can be made by combining",
            "can be made by combining",
            "can be made by combining",
            "never made by combining",
            "never made by combining",
        ]
    );
}

#[test]
fn the_red_dice_uses_only_faces_one_to_four() {
    let coc = ruleset();
    let d = &tables(&coc).dice;
    // line 164: "Only rolls of 1 to 4 are used on the "Red Dice", rolls of 5 or 6 are
    // discarded."
    assert!(SEED_RED_DICE.contains("Only rolls of 1 to 4 are used"));
    assert!(SEED_RED_DICE.contains("rolls of 5 or 6 are discarded"));
    assert_eq!(d.red_used, [1, 2, 3, 4]);
    assert_eq!(
        column(&coc, "command_dice.toml", "red_dice"),
        ["used", "used", "used", "used", "discarded", "discarded"]
    );
}

// ---------------------------------------------------------------------------------
// Leaders (seed 7.5, 7.8).
// ---------------------------------------------------------------------------------

#[test]
fn junior_and_senior_leaders_match_the_seeds_orders_table() {
    let coc = ruleset();
    let leaders = &tables(&coc).dice.leaders;
    let seed = lines(SEED_LEADERS);
    // line 53: "RankOrdersRange"
    assert_eq!(seed[0], "RankOrdersRange");
    // lines 54-55: "Junior Leader26\"", "Senior Leader39\"": the rank, then one digit of
    // Orders, then the range in inches.
    let read = |line: &str| -> (String, u32, u32) {
        let at = line.find(|c: char| c.is_ascii_digit()).expect("a number after the rank");
        let (rank, numbers) = line.split_at(at);
        let numbers = numbers.strip_suffix('"').expect("a range in inches");
        let (orders, range) = numbers.split_at(1);
        (rank.to_string(), orders.parse().unwrap(), range.parse().unwrap())
    };
    assert_eq!(read(seed[1]), ("Junior Leader".to_string(), 2, 6), "line 54");
    assert_eq!(read(seed[2]), ("Senior Leader".to_string(), 3, 9), "line 55");
    for (name, line, rank, on) in
        [("junior_leader", seed[1], Rank::Junior, 3), ("senior_leader", seed[2], Rank::Senior, 4)]
    {
        let rows: Vec<_> = leaders.iter().filter(|l| l.name == name).collect();
        assert_eq!(rows.len(), 1, "`{name}`: one row");
        let (label, orders, range) = read(line);
        let l = rows[0];
        assert_eq!(l.label, label, "`{name}`: the rank as printed");
        assert_eq!((l.orders, l.range), (orders, range), "`{name}`: {line:?}");
        assert_eq!(l.rank, rank, "`{name}`: rank");
        // lines 20-21: "3Activate one Junior Leader", "4Activate one Senior Leader"
        assert_eq!(l.activates_on, on, "`{name}`: the face that activates it");
    }
    // The reference's first-edition sheet agrees (lines 135-136).
    let facts = lines(FACTS_LEADERS);
    assert!(facts[0].contains("Junior Leader: 2 initiatives, 6\" command range"));
    assert!(facts[1].contains("Senior Leader: 3 initiatives (2 if Inferior), 9\""));
}

#[test]
fn superior_junior_and_inferior_senior_leaders_match_the_seeds_variations() {
    let coc = ruleset();
    let leaders = &tables(&coc).dice.leaders;
    let rows = |name: &str| -> Vec<(u32, u32, u32, Rank)> {
        leaders.iter().filter(|l| l.name == name).map(|l| (l.activates_on, l.orders, l.range, l.rank)).collect()
    };
    // line 174: "They activate on a Command Dice roll of 3, but can also activate on a
    // Command Dice roll of 4 which allows them to issue three Orders in that Phase."
    assert!(SEED_SUPERIOR.contains("They activate on a Command Dice roll of 3"));
    assert!(SEED_SUPERIOR.contains("roll of 4 which allows them to issue three Orders"));
    // On a 3 a Superior Junior Leader is a Junior Leader: two Orders (line 54,
    // "Junior Leader26\""); on a 4, three. Range 6": line 178, "Command Ranges are not
    // changed by the Inferior or Superior status."
    assert!(SEED_RANGES_UNCHANGED.contains("not changed"));
    assert_eq!(rows("superior_junior_leader"), [(3, 2, 6, Rank::Junior), (4, 3, 6, Rank::Junior)]);
    // The reference's sheet: "3/3,4" for Junior/Superior (line 139).
    assert!(lines(FACTS_LEADERS)[2].contains("\"3/3,4\" for Junior/Superior"));
    // line 176: "These Leaders activate on a Command Dice roll of 4 but only have two
    // Orders." Range 9" as a Senior Leader (line 55, unchanged by line 178).
    assert!(SEED_INFERIOR.contains("activate on a Command Dice roll of 4 but only have two Orders"));
    assert_eq!(rows("inferior_senior_leader"), [(4, 2, 9, Rank::Senior)]);
    // Five rows in all, in this order.
    let names: Vec<&str> = leaders.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "junior_leader",
            "senior_leader",
            "superior_junior_leader",
            "superior_junior_leader",
            "inferior_senior_leader"
        ]
    );
    // The listing carries every row's numbers.
    assert_eq!(column(&coc, "leaders.toml", "activates_on"), ["3", "4", "3", "4", "4"]);
    assert_eq!(column(&coc, "leaders.toml", "orders"), ["2", "3", "2", "3", "2"]);
    assert_eq!(column(&coc, "leaders.toml", "range_inches"), ["6", "9", "6", "6", "9"]);
}

// ---------------------------------------------------------------------------------
// Sixes, points and dice by Force Morale (reference section 3).
// ---------------------------------------------------------------------------------

#[test]
fn sixes_rows_match_the_reference_for_none_to_four_or_more() {
    let coc = ruleset();
    let sixes = &tables(&coc).dice.sixes;
    let facts = rows(FACTS_SIXES);
    assert_eq!(sixes.rows.len(), 5, "rows for 0, 1, 2, 3 and 4 or more 6s");
    // (count, keeps_phase, turn_ends, chain_of_command_dice, random_event)
    let want = [
        // No 6: the project's own row (the Phase passes, as for one 6; docs CoC-4).
        (0, false, false, 0, false),
        // line 123: "| One 6 | "Pass initiative". ..." - the Phase passes.
        (1, false, false, 0, false),
        // line 124: "| Two 6s | The same player keeps the next phase |"
        (2, true, false, 0, false),
        // line 125: "| Three 6s | As two 6s, and the turn ends |"
        (3, true, true, 0, false),
        // line 126: "| Four or more 6s | As three 6s, plus a Chain of Command die and a
        // random event |"
        (4, true, true, 1, true),
    ];
    for (r, (count, keeps, ends, dice, event)) in sixes.rows.iter().zip(want) {
        assert_eq!(r.count, count);
        assert_eq!(
            (r.keeps_phase, r.turn_ends, r.chain_of_command_dice, r.random_event),
            (keeps, ends, dice, event),
            "{count} sixes: {:?}",
            r.label
        );
    }
    assert_eq!(sixes.rows[0].label, "No 6: the Phase passes to the opponent");
    // Rows 1-4 carry the reference's 1e cell: "Pass initiative" in its quotes, the
    // others as printed (the last with "(four or more)" added).
    let cell = |i: usize| facts[i][1];
    assert!(cell(0).starts_with(&format!("\"{}\"", sixes.rows[1].label)), "{:?}", cell(0));
    assert_eq!(sixes.rows[2].label, cell(1));
    assert_eq!(sixes.rows[3].label, cell(2));
    assert_eq!(sixes.rows[4].label, format!("{} (four or more)", cell(3)));
    // "Four or more": 4, 5, 6 ... sixes all read the last row.
    assert_eq!([0, 1, 2, 3, 4, 5, 6, 12].map(|k| sixes.row_of(k)), [0, 1, 2, 3, 4, 4, 4, 4]);
    assert_eq!(facts[3][0], "Four or more 6s");
    assert_eq!(column(&coc, "sixes.toml", "sixes"), ["0", "1", "2", "3", "4_or_more"]);
}

#[test]
fn a_chain_of_command_die_is_six_points() {
    let coc = ruleset();
    // line 130: "- 2e: every 5 rolled adds one CoC point. A full CoC die is **6 points**. ..."
    assert!(FACTS_POINTS.contains("every 5 rolled adds one CoC point"));
    assert!(FACTS_POINTS.contains("A full CoC die is **6 points**"));
    assert_eq!(tables(&coc).dice.points_per_die, 6);
    assert_eq!(column(&coc, "chain_of_command_points.toml", "points_per_die"), ["6"]);
}

#[test]
fn every_force_morale_level_rolls_five_dice_for_want_of_an_official_mapping() {
    let coc = ruleset();
    let d = &tables(&coc).dice_by_force_morale;
    // Seed line 7: "... typically, it will be five."
    assert!(SEED_TYPICALLY_FIVE.ends_with("typically, it will be five."));
    // Reference line 145: "**The Force Morale → number of dice table is NOT FOUND for
    // either edition.**"
    assert!(lines(FACTS_DICE)[2].contains("number of dice table is NOT FOUND for either edition"));
    assert!(lines(FACTS_DICE)[0].contains("usually 5"));
    // Levels 11 (the highest starting value) down to 1, five dice each.
    let want: Vec<(u32, u32)> = (1..=11).rev().map(|fm| (fm, 5)).collect();
    assert_eq!(d.levels, want);
    for fm in 1..=11 {
        assert_eq!(d.dice_at(fm), Some(5), "Force Morale {fm}");
    }
    assert_eq!(d.dice_at(0), None, "Force Morale 0 is not listed");
    assert_eq!(d.dice_at(12), None, "Force Morale 12 is not listed");
    // Stated as no official mapping.
    let rules = d.source.rules.as_deref().expect("the file says why");
    assert!(rules.contains("no official Force Morale mapping"), "{rules}");
    assert!(rules.contains("every level rolls the usual 5"), "{rules}");
}

// ---------------------------------------------------------------------------------
// Shooting and Shock (reference sections 1 and 2).
// ---------------------------------------------------------------------------------

#[test]
fn to_hit_matches_the_reference_by_range_band_and_quality() {
    let coc = ruleset();
    let t = &tables(&coc).shooting;
    let all = lines(FACTS_TO_HIT);
    // line 31: "| Range | Green | Regular | Elite |"
    assert_eq!(cells(all[0]), ["Range", "Green", "Regular", "Elite"]);
    assert_eq!(QUALITIES, ["green", "regular", "elite"], "the columns, in the sheet's order");
    let facts = rows(FACTS_TO_HIT);
    assert_eq!(t.to_hit.len(), facts.len(), "lines 33-34: two range bands");
    // line 33: "| Close | 3–6 | 4–6 | 5–6 |"; line 34: "| Effective | 4–6 | 5–6 | 6 |"
    for ((band, label, need), (name, row)) in t.to_hit.iter().zip(["close", "effective"].iter().zip(&facts)) {
        assert_eq!(band, name);
        assert_eq!(label, row[0], "band `{name}`: label");
        let want: Vec<u32> = row[1..]
            .iter()
            .map(|c| {
                let (lo, hi) = run(c);
                assert_eq!(hi, 6, "{c:?} runs up to 6");
                lo
            })
            .collect();
        assert_eq!(need.to_vec(), want, "band `{name}`: {row:?}");
    }
    assert_eq!(t.to_hit[0].2, [3, 4, 5]);
    assert_eq!(t.to_hit[1].2, [4, 5, 6]);
    // The listing prints the cells as the sheet does, with a hyphen for the dash.
    assert_eq!(column(&coc, "to_hit.toml", "elite"), ["5-6", "6"]);
    // The reading of the column is a setting (docs CoC-5): the target's quality first.
    assert_eq!(SETTINGS[0], ("to_hit_quality", &["target", "firer"][..]));
}

#[test]
fn effect_rows_match_the_reference_with_the_hard_rows_face_four_lost() {
    let coc = ruleset();
    let t = &tables(&coc).shooting;
    let all = lines(FACTS_EFFECT);
    // line 61: "| Target cover | Miss | Shock | Kill |"
    assert_eq!(cells(all[0]), ["Target cover", "Miss", "Shock", "Kill"]);
    let facts = rows(FACTS_EFFECT);
    assert_eq!(t.effect.len(), 3, "lines 63-65: Open, Light, Hard");
    let names: Vec<&str> = t.effect.iter().map(|(n, ..)| n.as_str()).collect();
    assert_eq!(names, ["open", "light", "hard"], "least cover first");
    for ((_, label, faces), row) in t.effect.iter().zip(&facts) {
        assert_eq!(label, row[0], "the cover as printed");
        if row[0] != "Hard" {
            // line 63: "| Open | 1–2 | 3–4 | 5–6 |"; line 64: "| Light | 1–3 | 4–5 | 6 |"
            assert_eq!(*faces, effect_faces(row[1], row[2], row[3]), "{row:?}");
        }
    }
    use HitEffect::{Kill as K, Miss as M, Shock as S};
    // Written out: Open 1-2 miss, 3-4 Shock, 5-6 kill; Light 1-3 miss, 4-5 Shock, 6 kill.
    assert_eq!(t.effect[0].2, [Some(M), Some(M), Some(S), Some(S), Some(K), Some(K)]);
    assert_eq!(t.effect[1].2, [Some(M), Some(M), Some(M), Some(S), Some(S), Some(K)]);
    // line 65: "| Hard | garbled in the source | 5 | 6 |"; line 67: "The Hard row was
    // extracted as "1, 2, 3, 5 6"." So 1-3 miss, 5 Shock, 6 kill, and face 4 is lost: its
    // reading is the setting `hard_cover_four` (miss by default, docs CoC-6).
    let hard = lines(FACTS_HARD_ROW);
    assert!(hard[0].contains("\"1, 2, 3, 5 6\""));
    assert_eq!(facts[2][1], "garbled in the source");
    assert_eq!((run(facts[2][2]), run(facts[2][3])), ((5, 5), (6, 6)));
    assert_eq!(t.effect[2].2, [Some(M), Some(M), Some(M), None, Some(S), Some(K)]);
    assert_eq!(
        column(&coc, "effect.toml", "d6_4"),
        ["shock", "shock", "lost in the source (hard_cover_four)"],
        "face 4 on each row"
    );
    // line 68: "*Inference:* 1–4 miss, 5 shock, 6 kill." - the default reading.
    assert!(hard[1].contains("1–4 miss, 5 shock, 6 kill"));
    assert_eq!(SETTINGS[1], ("hard_cover_four", &["miss", "shock"][..]));
}

#[test]
fn shock_thresholds_match_both_editions() {
    let coc = ruleset();
    let t = &tables(&coc).shooting;
    let facts = rows(FACTS_THRESHOLDS);
    let readings: Vec<&str> = t.threshold_readings.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(readings, ["second_edition", "first_edition"], "the 2e reading is the default (docs CoC-7)");
    let (second, first) = (t.thresholds[0], t.thresholds[1]);
    // line 76, 2e: "Shock **greater than** the figures" - Pinned at Shock > 1 x figures.
    assert!(facts[0][2].starts_with("Shock **greater than** the figures"));
    assert_eq!(second.pinned, Threshold { at_least: false, multiple: 1 });
    // line 77, 2e: "A 2e example says 4 Shock breaks a 2-figure team. *Inference:* Broken
    // at Shock ≥ 2× figures."
    assert!(facts[1][2].contains("Broken at Shock ≥ 2× figures"));
    assert_eq!(second.broken, Threshold { at_least: true, multiple: 2 });
    // line 76, 1e: "Shock ≥ men left ("as much shock as soldiers")" - Pinned at Shock >= figures.
    assert!(facts[0][1].starts_with("Shock ≥ men left"));
    assert_eq!(first.pinned, Threshold { at_least: true, multiple: 1 });
    // line 77, 1e: "Shock **more than twice** the men" - Broken at Shock > 2 x figures.
    assert_eq!(facts[1][1], "Shock **more than twice** the men");
    assert_eq!(first.broken, Threshold { at_least: false, multiple: 2 });
    // The worked examples read back (lines 81-82, line 77).
    let worked = lines(FACTS_WORKED);
    assert_eq!(worked[1].trim(), "- 7 Shock on 10 figures: not Pinned.");
    assert!(!second.pinned.reached(10, 7), "7 Shock on 10 figures: not Pinned");
    assert_eq!(worked[2].trim(), "- 9 Shock on 8 figures: Pinned.");
    assert!(second.pinned.reached(8, 9), "9 Shock on 8 figures: Pinned");
    assert!(second.broken.reached(2, 4), "4 Shock breaks a 2-figure team");
    assert!(!second.broken.reached(2, 3));
    // 1e at the edges: Shock equal to the men pins; twice the men does not yet break.
    assert!(first.pinned.reached(2, 2) && !second.pinned.reached(2, 2));
    assert!(!first.broken.reached(2, 4) && first.broken.reached(2, 5));
    assert_eq!(column(&coc, "shock.toml", "pinned"), ["Shock > 1 x figures", "Shock >= 1 x figures"]);
    assert_eq!(column(&coc, "shock.toml", "broken"), ["Shock >= 2 x figures", "Shock > 2 x figures"]);
}

#[test]
fn shock_costs_a_firepower_die_per_two_and_pinning_moves_up_cover_and_halves_firepower() {
    let coc = ruleset();
    let t = &tables(&coc).shooting;
    // line 39: "The sheet puts "−1 per two Shock" next to the to-hit table ..." (read as
    // one firepower die fewer per two Shock, docs CoC-10).
    assert!(FACTS_SHOCK_FIRE.contains("\"−1 per two Shock\""));
    assert_eq!(t.shock_per_lost_die, 2);
    let pinned = lines(FACTS_PINNED);
    // line 52: "A Pinned unit that is fired at moves up **one cover level**, to at most Hard"
    assert!(pinned[0].contains("moves up **one cover level**, to at most Hard"));
    assert_eq!(t.pinned_cover_levels_up, 1);
    // line 53: "A Pinned unit's firepower dice are **halved**"
    assert!(pinned[1].contains("firepower dice are **halved**"));
    assert_eq!(t.pinned_firepower_divisor, 2);
    assert_eq!(SETTINGS[2], ("pinned_effects", &["second_edition", "none"][..]));
}

#[test]
fn weapons_are_marked_illustrative_for_want_of_a_source() {
    let coc = ruleset();
    let t = &tables(&coc).shooting;
    // line 24: "- **NOT FOUND for either edition.** No source gave the per-weapon
    // firepower table or the weapon ranges."
    assert!(FACTS_WEAPONS.contains("NOT FOUND for either edition"));
    let rules = t.weapons_source.rules.as_deref().expect("the file says why");
    assert!(rules.starts_with("NOT FOUND"), "{rules}");
    assert!(rules.contains("illustrative"), "{rules}");
    // docs/interpretations.md CoC-11: "rifle 1, SMG 2, pistol 1, LMG 6, MMG or HMG 8",
    // the source's "MMG/HMG" class named both ways.
    let want = [("rifle", 1), ("smg", 2), ("pistol", 1), ("lmg", 6), ("mmg", 8), ("hmg", 8)];
    let got: Vec<(&str, u32)> = t.weapons.iter().map(|(n, _, d)| (n.as_str(), *d)).collect();
    assert_eq!(got, want);
    for (name, label, _) in &t.weapons {
        assert!(label.ends_with("(illustrative)"), "`{name}`: {label:?} is marked illustrative");
    }
}

// ---------------------------------------------------------------------------------
// Force Morale (reference section 4).
// ---------------------------------------------------------------------------------

#[test]
fn starting_force_morale_matches_the_bands_and_quality_modifiers() {
    let coc = ruleset();
    let s = &tables(&coc).force_morale.starting;
    let all = lines(FACTS_START);
    // line 151: "Roll 1d6. Green forces take −2 on the die; Elite forces take +2."
    assert!(all[0].contains("Green forces take −2 on the die; Elite forces take +2."));
    let q: Vec<(&str, &str, i32)> =
        s.qualities.iter().map(|q| (q.name.as_str(), q.label.as_str(), q.modifier)).collect();
    assert_eq!(q, [("green", "Green", -2), ("regular", "Regular", 0), ("elite", "Elite", 2)]);
    // line 153: "| Modified d6 | ≤1 | 2 | 3 | 4 | 5 | ≥6 |"
    // line 155: "| Force Morale | 8 | 8 | 9 | 9 | 10 | 11 |"
    let head = cells(all[2]);
    let values = cells(all[4]);
    assert_eq!((head[0], values[0]), ("Modified d6", "Force Morale"));
    let bands: Vec<RollRange> = head[1..]
        .iter()
        .map(|c| {
            if let Some(hi) = c.strip_prefix('≤') {
                format!("{hi} or less").parse().unwrap()
            } else if let Some(lo) = c.strip_prefix('≥') {
                format!("{lo}+").parse().unwrap()
            } else {
                c.parse().unwrap()
            }
        })
        .collect();
    assert_eq!(s.bands.ranges(), bands.as_slice(), "the bands, lowest first");
    let fm: Vec<u32> = values[1..].iter().map(|c| c.parse().unwrap()).collect();
    assert_eq!(s.force_morale, fm);
    assert_eq!(fm, [8, 8, 9, 9, 10, 11]);
    // Every modified roll a Green (1-2 = -1) to an Elite (6+2 = 8) force can make.
    let by_roll: Vec<u32> = (-1..=8).map(|m| s.at(m)).collect();
    assert_eq!(by_roll, [8, 8, 8, 8, 9, 9, 10, 11, 11, 11]);
    assert_eq!(s.levels(), [8, 9, 10, 11]);
}

#[test]
fn all_eighteen_setback_rows_match_the_reference_including_cut_off_cells() {
    let coc = ruleset();
    let sb = &tables(&coc).force_morale.setbacks;
    let all = lines(FACTS_SETBACKS);
    // line 165: "| Event | 1 | 2 | 3 | 4 | 5 | 6 |"
    assert_eq!(cells(all[0]), ["Event", "1", "2", "3", "4", "5", "6"]);
    // line 186: "- "?" = cut off in the source text."
    assert!(FACTS_CUT_OFF.contains("\"?\" = cut off"));
    let facts = rows(FACTS_SETBACKS);
    let events = [
        "team_breaks",
        "team_wiped_out",
        "section_breaks",
        "section_wiped_out",
        "junior_leader_wounded",
        "junior_leader_killed",
        "junior_leader_routs",
        "senior_leader_wounded",
        "senior_leader_killed",
        "senior_leader_routs",
        "support_unit_killed",
        "support_unit_routs",
        "jump_off_point_lost",
        "friendly_loses_command_dice",
        "platoon_destroyed_or_breaks",
        "afv_immobilised_or_main_gun_knocked_out",
        "afv_knocked_out",
        "command_afv_knocked_out",
    ];
    assert_eq!(facts.len(), 18, "lines 167-184");
    assert_eq!(sb.rows.len(), 18, "one row per reference line");
    for ((row, cells), event) in sb.rows.iter().zip(&facts).zip(events) {
        assert_eq!(row.event, event, "row order");
        // Lines 180-181 print 'Row labelled "..."': the label is the quoted part.
        let label = cells[0].strip_prefix("Row labelled \"").and_then(|l| l.strip_suffix('"')).unwrap_or(cells[0]);
        assert_eq!(row.label, label, "`{event}`: the label as printed");
        let want: Vec<Change> = cells[1..].iter().map(|c| change(c)).collect();
        assert_eq!(row.change.to_vec(), want, "`{event}`: {cells:?}");
    }
    // Spot checks written out, so a parsing slip cannot hide a wrong cell.
    let row = |e: &str| sb.rows.iter().find(|r| r.event == e).expect("a row").change;
    use Change::{Known as K, Unknown as Q};
    // line 167: "| Team breaks | 0 | −1 | −1 | −1 | −1 | −2 |"
    assert_eq!(row("team_breaks"), [K(0), K(-1), K(-1), K(-1), K(-1), K(-2)]);
    // line 176: "| Senior Leader routs | −2 | −2 | −2 | −2 | −3 | −3 |"
    assert_eq!(row("senior_leader_routs"), [K(-2), K(-2), K(-2), K(-2), K(-3), K(-3)]);
    // line 180: "| Row labelled "Friendly … loses cmd dice" | 0 | 0 | 0 | −1 | −1 | −1 |"
    assert_eq!(row("friendly_loses_command_dice"), [K(0), K(0), K(0), K(-1), K(-1), K(-1)]);
    // line 182: "| AFV immobilised / main gun knocked out | 0 | 0 | −1 | −1 | ? | ? |"
    assert_eq!(row("afv_immobilised_or_main_gun_knocked_out"), [K(0), K(0), K(-1), K(-1), Q, Q]);
    // line 183: "| AFV knocked out | −1 | ? | ? | ? | ? | ? |"
    assert_eq!(row("afv_knocked_out"), [K(-1), Q, Q, Q, Q, Q]);
    // line 184: "| Command AFV knocked out | −1 | ? | ? | ? | ? | ? |"
    assert_eq!(row("command_afv_knocked_out"), [K(-1), Q, Q, Q, Q, Q]);
    // The listing prints "?" where the source is cut off.
    assert_eq!(column(&coc, "setbacks.toml", "d6_6")[15..], ["?", "?", "?"]);
}

// ---------------------------------------------------------------------------------
// Provenance.
// ---------------------------------------------------------------------------------

/// A reference title "SECTION: SUBSECTION": SECTION is the leading text of a `##`
/// heading (the whole heading, or the part before its own ": "), SUBSECTION the leading
/// text of a `###` heading under it (the whole heading, or the part before its bracketed
/// source keys). Returns false where either part is not printed so.
fn printed_in_facts(title: &str) -> bool {
    let Some((section, subsection)) = title.split_once(": ") else {
        return false;
    };
    let leads = |heading: &str, part: &str, rest: &[&str]| {
        heading.strip_prefix(part).is_some_and(|r| r.is_empty() || rest.iter().any(|p| r.starts_with(p)))
    };
    FACTS_HEADINGS
        .iter()
        .any(|(_, h2, h3s)| leads(h2, section, &[": "]) && h3s.iter().any(|h3| leads(h3, subsection, &[" ["])))
}

fn assert_source(what: &str, source: &Source, seed: &str, table: &str) {
    assert_eq!(source.seed, seed, "{what}: seed file");
    assert_eq!(source.table, table, "{what}: table title");
    let printed = if seed == SEED { SEED_HEADINGS.iter().any(|(_, h)| *h == table) } else { printed_in_facts(table) };
    assert!(printed, "{what}: {table:?} is not a heading {seed} prints");
}

#[test]
fn the_title_check_refuses_titles_the_sources_do_not_print() {
    assert!(printed_in_facts("1. Shooting: To-hit (1e, from [ESP])"));
    assert!(!printed_in_facts("1. Shooting: To-hit"), "a cut-off subsection");
    assert!(!printed_in_facts("1. Shooting: Effect roll per hit (1e, from [ESP])"), "a subsection of another section");
    assert!(!printed_in_facts("3. Command: Sixes on the command dice"), "a cut-off section");
    assert!(!printed_in_facts("To-hit (1e, from [ESP])"), "no section");
}

#[test]
fn every_table_names_its_source_and_a_heading_that_source_prints() {
    let coc = ruleset();
    let t = tables(&coc);
    let files: Vec<&str> = EMBEDDED.files.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        files,
        [
            "command_dice.toml",
            "leaders.toml",
            "sixes.toml",
            "chain_of_command_points.toml",
            "dice_by_force_morale.toml",
            "to_hit.toml",
            "effect.toml",
            "shock.toml",
            "weapons.toml",
            "force_morale.toml",
            "setbacks.toml",
            "equivalents.toml",
        ],
        "every file is checked below"
    );
    // compare's equivalents cite the to-hit section (reference lines 21, 28), which
    // says the distances of the range bands were NOT FOUND: why the file maps nothing.
    #[derive(serde::Deserialize)]
    struct Head {
        source: Source,
    }
    let (_, text) = EMBEDDED.files.iter().find(|(n, _)| *n == "equivalents.toml").expect("embedded");
    let head: Head = toml::from_str(text).expect("the file parses");
    assert_source("equivalents.toml", &head.source, FACTS, "1. Shooting: To-hit (1e, from [ESP])");
    // Seed line 11: "7.2 Rolling the command dice"
    assert_source("command_dice.toml", &t.dice.source, SEED, "7.2 Rolling the command dice");
    // Seed line 49: "7.5 Leader Orders"
    assert_source("leaders.toml", &t.dice.leaders_source, SEED, "7.5 Leader Orders");
    // Seed line 3: "7.1 The Command Dice"
    assert_source("dice_by_force_morale.toml", &t.dice_by_force_morale.source, SEED, "7.1 The Command Dice");
    // Reference lines 117, 119: "## 3. Command dice: 6s, ...", "### Sixes on the command dice"
    let sixes = "3. Command dice: Sixes on the command dice";
    assert_source("sixes.toml", &t.dice.sixes.source, FACTS, sixes);
    // Reference line 130 (the 6 points) sits under the same heading.
    assert_source("chain_of_command_points.toml", &t.dice.points_source, FACTS, sixes);
    // Reference lines 21, 28: "## 1. Shooting", "### To-hit (1e, from [ESP])"
    assert_source("to_hit.toml", &t.shooting.to_hit_source, FACTS, "1. Shooting: To-hit (1e, from [ESP])");
    // Reference lines 56, 58: "## 2. Effect of hits", "### Effect roll per hit (1e, from [ESP])"
    assert_source(
        "effect.toml",
        &t.shooting.effect_source,
        FACTS,
        "2. Effect of hits: Effect roll per hit (1e, from [ESP])",
    );
    // Reference lines 56, 72: "### Pinned and Broken thresholds (the sources conflict)"
    assert_source(
        "shock.toml",
        &t.shooting.shock_source,
        FACTS,
        "2. Effect of hits: Pinned and Broken thresholds (the sources conflict)",
    );
    // Reference lines 21, 23: "### Firepower dice per weapon (rifle, SMG, pistol, LMG, MMG/HMG)"
    assert_source(
        "weapons.toml",
        &t.shooting.weapons_source,
        FACTS,
        "1. Shooting: Firepower dice per weapon (rifle, SMG, pistol, LMG, MMG/HMG)",
    );
    // Reference lines 148, 150: "## 4. Force Morale", "### Starting value (1e) [QRS1; ...]"
    assert_source("force_morale.toml", &t.force_morale.starting.source, FACTS, "4. Force Morale: Starting value (1e)");
    // Reference line 160: "### Setback ("Bad Things Happen") table (1e) [QRS1, checked against QRS1b]"
    assert_source(
        "setbacks.toml",
        &t.force_morale.setbacks.source,
        FACTS,
        "4. Force Morale: Setback (\"Bad Things Happen\") table (1e)",
    );
    // Every listing carries a source, and every source is one of the two files (the
    // anti-tank placeholder names the reference's section 5, reference line 190).
    for v in Ruleset::listing(&coc) {
        assert!(v.source.seed == SEED || v.source.seed == FACTS, "{}: seed {:?}", v.file, v.source.seed);
    }
}
