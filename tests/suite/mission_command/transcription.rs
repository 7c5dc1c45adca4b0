//! The shipped Mission Command tables, checked cell by cell against the seed
//! `004_c8a32eb3bda45530.txt`. The seed's table lines are copied below verbatim, one
//! seed line per line with its cells separated by tabs as in the seed (the seed itself
//! is not read at run time), and every loaded cell must print back as the seed's text.
//! Where the seed has to be read rather than copied (the to-hit modifiers grouped under
//! one value, the two tangled columns of Reaction Test adjustments, the reaction
//! bands), the expected values are literals with the seed line quoted above them.

use crate::common::lines;
use combat_odds_rules::ruleset::Load;

use std::fmt::Display;

use combat_odds_core::tables::grid::NamedRow;
use combat_odds_core::tables::{ModifierEffect, ModifierTable, RollRange, Side, Source};
use combat_odds_rules::mission_command::{MissionCommand, Tables, ToHitCell};

const SEED: &str = "004_c8a32eb3bda45530.txt";

fn ruleset() -> MissionCommand {
    MissionCommand::load(None).expect("the embedded tables load")
}

// ---------------------------------------------------------------------------------
// The seed's lines, verbatim. Each block opens and closes on a line break.
// ---------------------------------------------------------------------------------

/// Seed lines 258-262: the to-hit modifiers above the table.
const TO_HIT_MODIFIERS: &str = r#"
+ / -	Reason
+2	Firer is multi-barrel MG or auto-cannon. Opportunity fire: Target is foot moving fast. Target is in wire.
-1	For each suppression marker on the firing element. Opportunity fire: Target came into line of sight during the current turn.
-2	Firer is to move during the current turn. Artillery, except AT guns, may not shoot and move in 1 turn. Firer has been under HE area fire in the previous enemy turn.
-4	Target is hull-down vehicle.
"#;

/// Seed lines 264-265: the to-hit table's heading and its range bands ("up to").
const TO_HIT_HEADER: &str = r#"
Firer	Ranges (cm) up to >>>										
	5	15	25	35	50	60	75	100	150	250	
"#;

/// Seed lines 266-283: Point-to-point Fire to Hit, one line per firer. A firer's
/// cells stop where it can no longer reach; the trailing tabs are the seed's.
const TO_HIT_ROWS: &str = r#"
Small arms (assault elements)	3	12									
Small arms (excl assault elements)	4	10	18								
LMG, any bipod or pivot-mounted MG	5	9	15								
Tripod, wheeled, turret or multi-flak MG or HMG	4	6	9	11	15						
Bazooka, PIAT or Panzerfaust type	5										
AT close assault (< 2cm only)	8/11*										
2" / 5cm mortar (vs 1 element only)	N/A	12	15								
Anti-tank rifle	3	7	11	15	19						
Recoilless gun	3	6	9	12	15	17					
20mm to 40mm flak / auto-cannon	5	7	10	12	15	17	19				
Guns less than 25 calibres long and all howitzers except 380mm	3	5	7	10	12	15	17				
Longer guns up to 57mm calibre	3	4	6	8	10	12	15	17			
Longer guns up to 85mm calibre	3	4	5	6	7	9	10	12	15		
Longer guns > 85mm calibre	3	3	4	5	6	7	8	9	12	19	
Petard mortar	4	15									
380mm rocket launcher in Sturmtiger	9	12	15	17	18	19	20	20	20	20	
Man-pack flame thrower	4										
Vehicle flame thrower	4	12									
"#;

/// Seed line 285: the footnote on the "*" cell.
const TO_HIT_FOOTNOTE: &str = r#"
* First number elite or veteran engineers, second number other eligible troops.
"#;

/// Seed line 289: Foot: Convert Hit to Casualty, heading (the "Target" column is blank
/// on every row).
const CASUALTY_HEADER: &str = r#"
Firer	Target	Fortified	In good cover	Foot in no cover or in light cover	Moving in no cover (opp fire only)	Heavy weapons in no or light cover	Soft vehicles, flak or animal transport
"#;

/// Seed lines 290-309: Foot: Convert Hit to Casualty, one line per firer.
const CASUALTY_ROWS: &str = r#"
Small arms up to 5cm		17	9	4	2	3	5
Any MG up to 5cm		19	15	9	4	6	4
Small arms or any MG > 5cm		No casualty	19	16	11	14	9
Auto-cannon, aircraft AT gun		No casualty	16	14	9	12	3
2", 50mm or 60mm mortar		No casualty	18	16	12	14	9
3", 80mm, 81mm, or 82mm mortar		Area Fire	17	11	N/A	6	7
4.2", 105 to 120mm mortar		Area Fire	15	9	N/A	6	4
155mm or larger mortar		Area Fire	12	8	N/A	5	4
Anti-tank rifle within 15cm		19	19	18	16	15	3
Bazooka, PIAT, Panzerfaust, Panzerschreck		15	17	15	17	17	4
75mm recoilless gun, aircraft rockets		12	17	15	9	9	5
105mm or larger recoilless gun		9	15	12	5	5	4
Petard mortar or 380mm in Sturmtyger		Area Fire	6	5	4	4	3
Flamethrower		4	12	6	17	12	9
37mm to 57mm gun w HE, 17 pdr		No casualty	19	17	12	12	5
Gun/how'r 110 to 155mm, bombs on dive, light and medium bomber aircraft		Area Fire	12	9	4	4	3
Heavier artillery, heavy rocket or heavy bomber		Area Fire	9	5	N/A	3	3
Salvo rocket launcher		Area Fire	9	5	N/A	3	2
Other gun/how'r up to 110mm < 15cm range		Area Fire	15	12	5	5	3
Other gun/how'r up to 110mm > 15cm range, bombs on fighter-bomber aircraft		Area Fire	17	15	12	12	5
"#;

/// Seed line 313: Point-to-point Conversion to KO: Part 1 of 2, heading (the "AC of
/// target" column is blank on every row).
const KO_1_HEADER: &str = r#"
Weapon	AC of target	1	2	3	4	5	6	7	8	9	10
"#;

/// Seed lines 314-328: KO part 1, one line per weapon. A cell with several range
/// clauses is one tab field.
const KO_1_ROWS: &str = r#"
AT close assault fire at < 2cm		10	12	14	14	14	16	NE	NE	NE	NE
0.50", 12.7mm, 13mm, 14.5mm and 15mm HMG		11 at 0-15cm	NE	NE	NE	NE	NE	NE	NE	NE	NE
Boys (0.55"), 7.92mm, 12.7mm, 14.5mm & 20mm AT rifles		11 at 25-50cm	11 at 0-25cm 19 at 25-50cm	NE	NE	NE	NE	NE	NE	NE	NE
GE 28mm cone bore		KO at 0-25cm	KO at 0-25cm	KO at 0-25cm	11 at 0-15cm	15 at 0-15cm	NE	NE	NE	NE	NE
Bazooka, sticky bomb		6	6	6	10	16	NE	NE	NE	NE	NE
Panzerschreck, PIAT, Panzerfaust		6	6	6	8	11	19	NE	NE	NE	NE
All flamethrowers		4	6	8	10	12	14	17	18	19	20
All 20mm auto-cannon , Polish Nkm wz.38 FK 20mm HMG and French 37mm L21		11 at 15-25cm	15 at 0-15cm	19 at 0-5cm	NE	NE	NE	NE	NE	NE	NE
All 30mm auto cannon		11 at 25-50cm	7 at 0-15cm	15 at 0-5cm	NE	NE	NE	NE	NE	NE	NE
BR 3" close support tank howitzer		11	11	15	19	19	19	NE	NE	NE	NE
75 / 105mm recoilless gun		3	7	11	15	19	NE	NE	NE	NE	NE
German 37mm L45, French 25mm and 37mm L33, British 3 pdr, Italian 37mm		KO	11 at 25-50cm 15 at 50-75cm 19 at 75-100cm	11 at 0-15cm	15 at 0-5cm	NE	NE	NE	NE	NE	NE
German 50mm L42, British 2 pdr, Polish, Czech, US 37mm, French 47mm		KO	11 at 50-75cm 15 at 75-100cm	15 at 15-35cm	11 at 0-15cm 15 at 15-25cm	19 at 0-5cm	NE	NE	NE	NE	NE
German 75mm L24 and infantry gun, Italian 75mm L18, Russian 76mm L16. All pack howitzers		KO	KO	11 at 25-75cm 19 at 75cm+	15 at 0-25cm	NE	NE	NE	NE	NE	NE
German 50mm L60, Italian 47mm		KO	KO	11 at 50-75cm 15 at 75-100cm	15 at 15-35cm	11 at 0-15cm 15 at 15-25cm	NE	NE	NE	NE	NE
"#;

/// Seed line 334: Point-to-point Conversion to KO: Part 2 of 2, heading.
const KO_2_HEADER: &str = r#"
Weapon	1	2	3	4	5	6	7	8	9	10
"#;

/// Seed lines 335-346: KO part 2, one line per weapon.
const KO_2_ROWS: &str = r#"
BR Ordnance QF 75mm	KO	KO	KO	11 at 25cm+	11 at 25-50cm	NE	NE	NE	NE	NE
British 18 pdr, Italian 75mm L27, US 75mm L31 or 40, German, French, Polish, US 75mm field guns	KO	KO	KO	11 at 50cm+	11 at 25-50cm 15 at 50-100cm	19 at 0-25cm	NE	NE	NE	NE
German, French, Italian and US 105mm, British 95mm and 25 pdr howitzers, Russian 122mm L23	KO	KO	KO	KO	11 at 25-50cm 15 at 50cm+	11 at 0-25cm 15 at 25cm+	19 at 0-25cm	NE	NE	NE
British 6 pdr	KO	KO	KO	KO	11 at 50-100cm	11 at 0-25cm 15 at 25-50cm	15 at 0-25cm 19 at 25-50cm	19 at 0-5cm	NE	NE
German 75mm L43, 46 or 48, British 77mm, Italian 75mm L46, US 76mm L52, US 3" L50	KO	KO	KO	KO	7 at 75cm+	11 at 25-50cm	7 at 0-25cm 15 at 25-50cm	15 at 0-25cm	NE	NE
German 150mm L12 and infantry howitzer, Russian 152mm. All other medium artillery pieces	KO	KO	KO	KO	KO	11 at 50cm+	11 at 25cm+	11	15	19
German 88mm L56, Italian 90mm L53 Russian 100mm L54, US 90mm L53	KO	KO	KO	KO	KO	7 at 75cm+	11 at 25-75cm 15 at 75cm+	7 at 0-25cm 15 at 25-50cm	15 at 0-25cm	NE
GE 75mm L70, BR 17pdr	KO	KO	KO	KO	KO	7 at 100cm+	11 at 50-100cm 15 at 100cm+	3 at 0-25cm 11 at 25-75cm	11 at 0-25cm	NE
Russian 122mm L43	KO	KO	KO	KO	KO	KO	11 at 100cm+	11 at 50-100cm 15 at 100cm+	3 at 0-25cm 11 at 25-75cm	19 at 0-25cm
GE 128mm L55	KO	KO	KO	KO	KO	KO	KO	11 at 75cm+	7 at 50-100cm	19 at 0-25cm
GE 88mm L71, L73	KO	KO	KO	KO	KO	KO	KO	KO	11 at 75cm+	15 at 0-25cm
Petard Mortar, or 380mm howitzer of Sturmtyger	KO	KO	KO	KO	KO	KO	KO	KO	KO	KO
"#;

/// Seed lines 222-223: Area Fire Convert to KO for AFVs, heading.
const AREA_AFV_HEADER: &str = r#"
Weapon system	Armour	Intensity	
		Standard	Bombardment or direct fire up to 15cm
"#;

/// Seed lines 224-232: Area Fire Convert to KO for AFVs. A weapon class's label is on
/// its first line only; each line is one armour band, standard then bombardment.
const AREA_AFV_ROWS: &str = r#"
Gun or howitzer 75mm to 110mm (no effect for light guns and mortars) All fighter and fighter-bomber aircraft with auto-cannon, AT guns or rockets (MGs no effect) – Standard; Side Armour vs vehicles	1-4	18	12
	5-7	20	15
	8+	No effect	20
Gun, mortar or howitzer over 110mm up to & including 155mm Dive, light and medium bomber aircraft – Standard; Side Armour vs vehicles Heavy bomber aircraft – Bombardment; Side Armour vs vehicles	1-4	12	9
	5-7	15	12
	8+	20	15
Larger artillery – Front Armour	1-4	9	all
	5-7	12	9
	8+	15	12
"#;

/// Seed line 234: the notes under the AFV table.
const AREA_AFV_NOTES: &str = r#"
Roll 1d20. Max 1 KO per template. Harassing fire, no effect. Modifications: open-topped vehicles, ground attack aircraft with AT guns: Side Armour; +1 to dice roll with rockets. Except as noted above, guns, mortars and howitzers use Front Armour, aircraft use Side Armour.
"#;

/// Seed lines 238-239: Area Fire vs Buildings and Fortifications, heading.
const AREA_BUILDINGS_HEADER: &str = r#"
Weapon system	Structure strength	Intensity	
		Standard	Bombardment or direct fire up to 15cm
"#;

/// Seed lines 240-250: Area Fire vs Buildings and Fortifications. A weapon class's
/// label is on its first line only; each line is one structure strength.
const AREA_BUILDINGS_ROWS: &str = r#"
Gun, mortar or howitzer 75mm to 110mm (no effect for light guns and mortars) All fighter and fighter-bomber aircraft with auto-cannon, AT guns or rockets (MGs no effect) – Standard Versus V strong – no effect	Light	S5/C7/D9	D auto
	Medium	S15/C18/D20	S12/C15/D18
	Strong	S18/C20	S15/C18/D20
Gun, mortar or howitzer over 110mm up to and including 155mm Dive, light and medium bomber aircraft – Standard Heavy bomber aircraft – Bombardment	Light	D auto	D auto
	Medium	S12/C15/D18	S6/C10/D12
	Strong	S15/C18/D20	S12/C15/D18
	V strong	no effect	S18/C20
Larger artillery Demolitions (engineers) – Bombardment	Light	D auto	D auto
	Medium	S5/C7/D9	D auto
	Strong	S6/C10/D12	S5/C7/D9
	V strong	S12/C15/D18	S6/C10/D12
"#;

/// Seed line 142: Ranges for Area Fire, heading.
const AREA_RANGES_HEADER: &str = r#"
Weapon type	Weapon calibre	Maximum ranges
"#;

/// Seed lines 143-172: Ranges for Area Fire; a blank weapon type repeats the one above.
const AREA_RANGES_ROWS: &str = r#"
Flak, horizontal ranges (for larger flak, see Guns)	In multiple mounts: 20mm & 30mm in multiple flak mounts	100cm (2,000m)
	37mm to 57mm flak	150cm (3,000m)
Guns (including larger flak guns)	Smaller guns	150cm (3,000m)
	65mm to 76mm infantry guns	175cm (3,500m)
	18 pdr, 25 pdr and 75mm guns	550cm (11,000m)
	76mm to 90mm guns	750cm (15,000m)
	100mm to 150mm guns	1,000cm (20,000m)
	152mm to 155mm guns	1,250cm (25,000m)
	170mm and larger guns, including large naval guns	1,500cm (30,000m)
Howitzers	British close support 95mm tank howitzer	350cm (7,000m)
	150mm infantry howitzers	250cm (5,000m)
	Sturmtiger 380mm howitzer	300cm (6,000m)
	Pack howitzers	375cm (7,500m)
	25 pdr, 105mm and 122mm howitzers	550cm (11,000m)
	5.5" to 7.2" howitzers	750cm (15,000m)
	8" to 210mm howitzers	875cm (17,500m)
	240mm and larger howitzers	1,000cm (20,000m)
Machine guns	Tripod-mounted MG	100cm (2,000m)
Mortars	2" or 5cm mortars	25cm (500m)
	German kz 8cm	65cm (1,300m)
	60mm mortar	90cm (1,800m)
	BR 3"	130cm (2,600m)
	GE 8cm	120cm (2,400m)
	US 81mm	150cm (3,000m)
	Italian 81mm, 107mm and 4.2" mortars	200cm (4,000m)
	120mm mortars	300cm (6,000m)
Recoilless guns	Recoilless guns: 57mm recoilless guns on tripods	200cm (4,000m)
	Recoilless guns: 75mm or larger recoilless guns on tripod or wheeled mounts	375cm (7,500m)
Rocket launchers	Rocket launchers: Single rocket launcher	100cm (2,000m)
	Rocket launchers: Salvo rocket launchers	250cm (5,000m)
"#;

/// Seed lines 354-369: Reaction Test adjustments, two columns on each line (value and
/// reason on the left, value and reason on the right).
const REACTION_ADJUSTMENTS: &str = r#"
-4	Group is not elite & is out of command.	+1	Orders require an advance.	
	Group is raw.		Any enemy can be seen retreating (Reaction Test result of -5 or worse) by the testing group.	
-3	Orders permit any form of withdrawal.	+1	Each enemy AFV seen by an element of the group to be knocked out within 25cm during last 2 turns (1 friendly, 1 enemy).	
	Under fire from AFV within 15cm during enemy turn just ended or previous friendly turn.		All elements in partial cover or concealed.	
-2	Group is carrying out a 'retreat' reaction (including Self-preservation action).	+2	At least 50% of group is hull-down AFVs.	
	Each element in group eliminated since start of game (includes foot elements traded down for losses).		All elements in good cover or in field fortifications.	
	Under fire during previous friendly turn or during enemy turn just finished from previously unlocated element or elements.		Higher level command element is within 15cm.	
	Under fire from point nearer friendly base line than group's own most advanced element.		Group is veteran.	
-1	Enemy infantry known to be within 5cm of group and were advancing when last seen.	+3	All elements in permanent fortifications.	
	Group contains AFV within 5cm of any of: woods, buildings, at night, in fog, in falling snow, and no friendly infantry within 5cm.		+4	Group is elite.
	Group is green.			
	Group contains soft vehicles or animals in the open.			
-1	For each element in group currently suppressed.			
	Group is elite and out of command.			
	Friendly element(s) (including in testing group), other than empty soft vehicles or animals, moved away from any enemy within 15cm for any reason during last friendly turn.			
-1	Under attack during previous enemy turn from salvo rockets, salvo mortars, flamethrowers or aircraft.			
"#;

/// Seed line 375: Reaction Test effects, heading.
const REACTION_EFFECTS_HEADER: &str = r#"
	Effect
"#;

/// Seed lines 376-380: Reaction Test effects, best first.
const REACTION_EFFECTS: &str = r#"
6+	Obey orders
1 to 5	Halt or move to cover: Elements may either remain stationary (not an action) or take a first action to move to any cover that they can reach with 1 Move action without going closer to any located enemy. Affected elements may then carry out 1 action, excluding a Move action.
0 to -4	Cease fire and retire: Elements may not shoot. Infantry support elements and non-AFV heavy weapons may, and other element types must, move to a position at least 5cm, and up to a maximum of 2 movement rates (ignoring suppression), away from all located enemy troops within 25cm. If this move is impossible, and there are enemy troops within 5cm, affected elements surrender. If this move is impossible, and there are no enemy troops within 5cm, affected elements remain in place. Moving troops count as moving slowly. If there are no located enemy troops within 25cm, this move is optional.
-5 to -10	Retreat: Elements within 5cm of enemy AFV surrender. All others must move 2 full movement rates (ignoring suppression) away from all located enemy troops within 25cm; equipment and weapons can be carried. Transport can pick up troops and load equipment. Moving troops count as moving fast. The retreat continues until a new reaction result applies. If they are fired upon, affected elements will ignore Reaction Test effects except for worse ones. If this move is impossible, and there are enemy troops within 5cm, affected elements will surrender. If this move is impossible, and there are no enemy troops within 5cm, affected elements will remain in place and attempt to rally next turn. If there are no located enemy troops within 25cm, this movement is optional.
-11 or less	Rout: As Retreat, except that no new Reaction Test can be taken, and the retreat cannot be halted, except by surrender. All non-AFV heavy weapons and equipment are abandoned.
"#;

/// Seed line 384: Anti-aircraft Fire To Hit, heading.
const AA_TO_HIT_HEADER: &str = r#"
Firer \ Target	Dive-bomber	Low altitude	Medium altitude	High altitude
"#;

/// Seed lines 385-388: Anti-aircraft Fire To Hit, one line per firer.
const AA_TO_HIT_ROWS: &str = r#"
Small arms and MGs	18	19	N/A	N/A
20mm to 30mm cannon	15	17	N/A	N/A
31mm to 57mm flak	15	17	18	N/A
More than 57mm flak	15	17	18	19
"#;

/// Seed line 390: the AA adjustments under the to-hit table.
const AA_ADJUSTMENTS: &str = r#"
AA adjustments: + 2 for multi-barrelled weapons; integrated or coherent infantry elements, use 2d20 as if 2 MGs were firing.
"#;

/// Seed line 394: Anti-aircraft Fire Convert to Damaged / Destroyed, heading.
const AA_DAMAGE_HEADER: &str = r#"
Firer \ Target	Fighter, fighter-bomber, dive- or light bomber	Medium aircraft	Heavy aircraft
"#;

/// Seed lines 395-398: Anti-aircraft Fire Convert to Damaged / Destroyed.
const AA_DAMAGE_ROWS: &str = r#"
Small arms and MGs	18 / -	19 / -	20 / -
20mm to 30mm cannon	15 / 18	16 / 19	17 / 20
31mm to 57mm flak	14 / 17	15 / 18	16 / 19
More than 57mm flak	13 / 16	14 / 17	15 / 18
"#;

// ---------------------------------------------------------------------------------
// Reading the embedded lines.
// ---------------------------------------------------------------------------------

/// A seed field with its white space normalised (trimmed, runs become one space).
fn norm(field: &str) -> String {
    field.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A seed line's tab-separated fields, each normalised.
fn fields(line: &str) -> Vec<String> {
    line.split('\t').map(norm).collect()
}

/// The filled fields of a heading line, from `skip` on.
fn heading(block: &'static str, skip: usize) -> Vec<String> {
    let line = lines(block)[0];
    fields(line).into_iter().skip(skip).filter(|f| !f.is_empty()).collect()
}

/// A seed table row: its label (the first field) and its cells. `blank` is how many
/// columns after the label are empty on every row (the seed's unused "Target" and
/// "AC of target" columns, which the loader drops). The cells run to the row's last
/// filled field, with no gap before it.
fn seed_row(table: &str, line: &str, blank: usize) -> (String, Vec<String>) {
    let mut f = fields(line);
    while f.last().is_some_and(|c| c.is_empty()) {
        f.pop();
    }
    let label = f.first().cloned().unwrap_or_default();
    assert!(!label.is_empty(), "{table}: a seed line without a label: {line:?}");
    for i in 1..=blank {
        assert!(f.get(i).is_some_and(|c| c.is_empty()), "{table}, row {label:?}: seed column {} is blank", i + 1);
    }
    let cells: Vec<String> = f.into_iter().skip(1 + blank).collect();
    assert!(cells.iter().all(|c| !c.is_empty()), "{table}, row {label:?}: a gap inside the seed row");
    (label, cells)
}

/// A seed cell as printed.
fn as_printed(cell: &str) -> &str {
    cell
}

/// A seed cell without its footnote mark (the to-hit table's "8/11*").
fn without_star(cell: &str) -> &str {
    cell.strip_suffix('*').unwrap_or(cell)
}

/// Checks loaded rows against the seed's rows, in order: the label, the number of
/// cells (a row stops where the seed's row stops) and every cell's printed text.
/// `columns` names the seed's columns for messages. Returns the cells checked.
fn assert_grid<'a, T: Display + 'a>(
    table: &str,
    block: &'static str,
    blank: usize,
    columns: &[String],
    rows: impl IntoIterator<Item = &'a NamedRow<T>>,
    seed_text: fn(&str) -> &str,
) -> usize {
    let rows: Vec<&NamedRow<T>> = rows.into_iter().collect();
    let seed = lines(block);
    assert_eq!(rows.len(), seed.len(), "{table}: number of rows");
    let mut checked = 0;
    for (row, line) in rows.iter().zip(&seed) {
        let (label, cells) = seed_row(table, line, blank);
        assert_eq!(row.label, label, "{table}, row `{}`: label", row.name);
        let got: Vec<String> = row.cells.iter().map(ToString::to_string).collect();
        assert_eq!(got.len(), cells.len(), "{table}, row `{}` ({label}): number of cells {got:?}", row.name);
        for (i, (cell, seed_cell)) in got.iter().zip(&cells).enumerate() {
            let column = columns.get(i).map_or("?", String::as_str);
            assert_eq!(cell, seed_text(seed_cell), "{table}, row `{}` ({label}), column {column:?}", row.name);
            checked += 1;
        }
    }
    checked
}

/// One line of an area fire table: the weapon class label when the line opens a
/// class, the armour band or structure strength, and [standard, bombardment].
struct AreaLine {
    class: Option<String>,
    band: String,
    cells: [String; 2],
}

fn area_lines(block: &'static str) -> Vec<AreaLine> {
    lines(block)
        .into_iter()
        .map(|line| {
            let f = fields(line);
            assert_eq!(f.len(), 4, "area fire seed line {line:?}: label, band and two intensities");
            AreaLine {
                class: Some(f[0].clone()).filter(|c| !c.is_empty()),
                band: f[1].clone(),
                cells: [f[2].clone(), f[3].clone()],
            }
        })
        .collect()
}

/// The area fire seed lines grouped by weapon class: (label, its lines).
fn area_classes(block: &'static str) -> Vec<(String, Vec<AreaLine>)> {
    let mut classes: Vec<(String, Vec<AreaLine>)> = Vec::new();
    for line in area_lines(block) {
        match &line.class {
            Some(label) => classes.push((label.clone(), vec![line])),
            None => classes.last_mut().expect("a class label opens the table").1.push(line),
        }
    }
    classes
}

/// Checks a modifier chart holds exactly `expected` (name, value as printed, side), in
/// that order.
fn assert_chart(chart_name: &str, chart: &ModifierTable, expected: &[(&str, &str, Option<Side>)]) {
    let names: Vec<&str> = chart.rows().iter().map(|m| m.name.as_str()).collect();
    let wanted: Vec<&str> = expected.iter().map(|r| r.0).collect();
    assert_eq!(names, wanted, "{chart_name}: the rows, in seed order");
    for &(name, value, side) in expected {
        let got = chart.get(name);
        assert_eq!(got.display_value(), value, "{chart_name}, row `{name}`: value");
        assert_eq!(got.side, side, "{chart_name}, row `{name}`: firer or target");
        assert!(!got.he_ignores, "{chart_name}, row `{name}`: Mission Command marks no row \"*\"");
    }
}

fn assert_source(what: &str, source: &Source, table: &str) {
    assert_eq!(source.seed, SEED, "{what}: seed file");
    assert_eq!(source.table, table, "{what}: table title");
    assert_eq!(source.rules, None, "{what}: the seed cites no rule numbers");
}

// ---------------------------------------------------------------------------------
// Point-to-point Fire to Hit.
// ---------------------------------------------------------------------------------

#[test]
fn to_hit_range_bands_are_the_seed_heading() {
    // line 264: "Firer\tRanges (cm) up to >>>"
    assert_eq!(heading(TO_HIT_HEADER, 0), ["Firer", "Ranges (cm) up to >>>"]);
    // line 265: "\t5\t15\t25\t35\t50\t60\t75\t100\t150\t250"
    let seed: Vec<f64> = fields(lines(TO_HIT_HEADER)[1])
        .iter()
        .filter(|f| !f.is_empty())
        .map(|f| f.parse().expect("a band limit in cm"))
        .collect();
    let mc = ruleset();
    let th = &mc.tables().to_hit;
    assert_eq!(seed, [5.0, 15.0, 25.0, 35.0, 50.0, 60.0, 75.0, 100.0, 150.0, 250.0]);
    assert_eq!(th.ranges_cm, seed, "Point-to-point Fire to Hit: range bands (cm, up to)");
    // "up to": a band's limit belongs to it; past 250cm nothing reaches.
    for (range, band) in [(0.5, Some(0)), (5.0, Some(0)), (5.5, Some(1)), (50.0, Some(4)), (250.0, Some(9))] {
        assert_eq!(th.band(range), band, "Point-to-point Fire to Hit: the band holding {range}cm");
    }
    assert_eq!(th.band(250.5), None, "Point-to-point Fire to Hit: beyond 250cm");
}

#[test]
fn to_hit_table_matches_the_seed_cell_by_cell() {
    let mc = ruleset();
    let th = &mc.tables().to_hit;
    let columns: Vec<String> = th.ranges_cm.iter().map(|cm| format!("up to {cm}cm")).collect();
    let rows = th.rows.iter().map(|r| &r.row);
    let checked = assert_grid("Point-to-point Fire to Hit", TO_HIT_ROWS, 0, &columns, rows, without_star);
    // 2+3+3+5+1+1+3+5+6+7+7+8+9+10+2+10+1+2 filled cells on lines 266-283.
    assert_eq!(checked, 85, "Point-to-point Fire to Hit: cells checked");
}

#[test]
fn to_hit_at_close_assault_is_split_and_closer_than_2cm_only() {
    // The one marked cell of the seed's table.
    let starred: Vec<(String, String)> = lines(TO_HIT_ROWS)
        .into_iter()
        .flat_map(|line| {
            let (label, cells) = seed_row("Point-to-point Fire to Hit", line, 0);
            cells.into_iter().filter(|c| c.contains('*')).map(move |c| (label.clone(), c))
        })
        .collect();
    // line 271: "AT close assault (< 2cm only)\t8/11*"
    assert_eq!(starred, [("AT close assault (< 2cm only)".to_string(), "8/11*".to_string())]);
    // line 285: "* First number elite or veteran engineers, second number other eligible troops."
    assert_eq!(
        lines(TO_HIT_FOOTNOTE)[0],
        "* First number elite or veteran engineers, second number other eligible troops."
    );
    let mc = ruleset();
    let th = &mc.tables().to_hit;
    let at = th.rows.iter().find(|r| r.row.name == "at_close_assault").expect("the AT close assault row");
    assert_eq!(at.row.label, "AT close assault (< 2cm only)");
    assert_eq!(at.row.cells, [ToHitCell::Split { engineers: 8, others: 11 }], "AT close assault: \"8/11*\"");
    assert_eq!(at.closer_than_cm, Some(2.0), "AT close assault: \"(< 2cm only)\"");
    assert!(at.split.as_deref().is_some_and(|s| s.contains("engineers")), "AT close assault: the \"*\" footnote");
    for r in th.rows.iter().filter(|r| r.row.name != "at_close_assault") {
        assert_eq!(r.closer_than_cm, None, "Point-to-point Fire to Hit, row `{}`: no \"< 2cm only\"", r.row.name);
        assert_eq!(r.split, None, "Point-to-point Fire to Hit, row `{}`: no \"*\" footnote", r.row.name);
        assert!(
            !r.row.cells.iter().any(|c| matches!(c, ToHitCell::Split { .. })),
            "Point-to-point Fire to Hit, row `{}`: no split cell",
            r.row.name
        );
    }
}

#[test]
fn to_hit_modifiers_match_the_seed_one_row_per_reason() {
    // line 258: "+ / -\tReason"
    assert_eq!(heading(TO_HIT_MODIFIERS, 0), ["+ / -", "Reason"]);
    let card: [(&str, &str, Option<Side>); 8] = [
        // line 259: +2 "Firer is multi-barrel MG or auto-cannon."
        ("multi_barrel", "+2", Some(Side::Firer)),
        // line 259: +2 "Opportunity fire: Target is foot moving fast."
        ("opp_fire_foot_moving_fast", "+2", Some(Side::Target)),
        // line 259: +2 "Target is in wire."
        ("target_in_wire", "+2", Some(Side::Target)),
        // line 260: -1 "For each suppression marker on the firing element."
        ("suppression_marker", "-1 x suppression_markers", Some(Side::Firer)),
        // line 260: -1 "Opportunity fire: Target came into line of sight during the current turn."
        ("opp_fire_came_into_view", "-1", Some(Side::Target)),
        // line 261: -2 "Firer is to move during the current turn."
        ("firer_will_move", "-2", Some(Side::Firer)),
        // line 261: -2 "Firer has been under HE area fire in the previous enemy turn."
        ("under_he_area_fire", "-2", Some(Side::Firer)),
        // line 262: -4 "Target is hull-down vehicle."
        ("hull_down", "-4", Some(Side::Target)),
    ];
    let mc = ruleset();
    let chart = &mc.tables().to_hit.modifiers;
    assert_chart("Point-to-point to-hit modifiers", chart, &card);
    // Each row's label is one sentence of the reason printed beside its value, and the
    // rows use up every reason except the artillery remark (firer_will_move's note).
    let mut left_over = Vec::new();
    for line in &lines(TO_HIT_MODIFIERS)[1..] {
        let f = fields(line);
        let (value, mut rest) = (f[0].clone(), f[1].clone());
        for m in chart.rows().iter().filter(|m| format!("{:+}", m.value(1)) == value) {
            assert!(
                rest.contains(&m.label),
                "to-hit modifier `{}`: label {:?} is not in seed line {line:?}",
                m.name,
                m.label
            );
            rest = rest.replacen(&m.label, "", 1);
        }
        left_over.push((value, norm(&rest)));
    }
    let left_over: Vec<(&str, &str)> = left_over.iter().map(|(v, r)| (v.as_str(), r.as_str())).collect();
    assert_eq!(
        left_over,
        [("+2", ""), ("-1", ""), ("-2", "Artillery, except AT guns, may not shoot and move in 1 turn."), ("-4", "")]
    );
    assert!(chart.get("firer_will_move").note.is_some(), "firer_will_move carries the artillery remark");
    // "For each suppression marker": three markers give -3.
    assert_eq!(chart.get("suppression_marker").value(3), -3);
}

// ---------------------------------------------------------------------------------
// Foot: Convert Hit to Casualty.
// ---------------------------------------------------------------------------------

#[test]
fn casualty_table_matches_the_seed_cell_by_cell() {
    let mc = ruleset();
    let c = &mc.tables().casualty;
    // line 289: "Firer\tTarget\tFortified\tIn good cover\t..."
    let header = heading(CASUALTY_HEADER, 0);
    assert_eq!(header[..2], ["Firer", "Target"], "Foot: Convert Hit to Casualty: heading");
    assert_eq!(c.column_labels, header[2..], "Foot: Convert Hit to Casualty: column headings");
    assert_eq!(
        c.columns,
        ["fortified", "good_cover", "no_or_light_cover", "moving_in_no_cover", "heavy_weapons", "soft_vehicles"],
        "Foot: Convert Hit to Casualty: column names, in seed order"
    );
    let checked = assert_grid("Foot: Convert Hit to Casualty", CASUALTY_ROWS, 1, &header[2..], &c.rows, as_printed);
    assert_eq!(checked, 20 * 6, "Foot: Convert Hit to Casualty: cells checked");
}

// ---------------------------------------------------------------------------------
// Point-to-point Conversion to KO.
// ---------------------------------------------------------------------------------

fn armour_class_columns(header: &[String]) -> Vec<String> {
    let classes: Vec<String> = (1..=10).map(|ac| ac.to_string()).collect();
    assert_eq!(header, classes, "KO heading: armour classes 1 to 10");
    classes.iter().map(|ac| format!("AC {ac}")).collect()
}

#[test]
fn ko_rows_come_from_part_1_then_part_2() {
    let mc = ruleset();
    let ko = &mc.tables().ko;
    let (part1, part2) = (lines(KO_1_ROWS).len(), lines(KO_2_ROWS).len());
    assert_eq!((part1, part2), (15, 12), "KO: seed lines 314-328 and 335-346");
    let expected: Vec<usize> = [vec![0; part1], vec![1; part2]].concat();
    assert_eq!(ko.part, expected, "KO: which part each row came from");
    assert_eq!(ko.rows.len(), part1 + part2, "KO: rows of both parts");
    // Each row appears once across both parts.
    for (i, r) in ko.rows.iter().enumerate() {
        assert!(!ko.rows[..i].iter().any(|x| x.name == r.name), "KO: row `{}` appears twice", r.name);
    }
}

#[test]
fn ko_part_1_matches_the_seed_cell_by_cell() {
    let mc = ruleset();
    let ko = &mc.tables().ko;
    // line 313: "Weapon\tAC of target\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10"
    let header = heading(KO_1_HEADER, 0);
    assert_eq!(header[..2], ["Weapon", "AC of target"], "KO part 1: heading");
    let columns = armour_class_columns(&header[2..]);
    let rows = ko.rows.iter().zip(&ko.part).filter(|(_, part)| **part == 0).map(|(r, _)| r);
    let table = "Point-to-point Conversion to KO: Part 1 of 2";
    let checked = assert_grid(table, KO_1_ROWS, 1, &columns, rows, as_printed);
    assert_eq!(checked, 15 * 10, "KO part 1: cells checked");
}

#[test]
fn ko_part_2_matches_the_seed_cell_by_cell() {
    let mc = ruleset();
    let ko = &mc.tables().ko;
    // line 334: "Weapon\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10"
    let header = heading(KO_2_HEADER, 0);
    assert_eq!(header[0], "Weapon", "KO part 2: heading");
    let columns = armour_class_columns(&header[1..]);
    let rows = ko.rows.iter().zip(&ko.part).filter(|(_, part)| **part == 1).map(|(r, _)| r);
    let table = "Point-to-point Conversion to KO: Part 2 of 2";
    let checked = assert_grid(table, KO_2_ROWS, 0, &columns, rows, as_printed);
    assert_eq!(checked, 12 * 10, "KO part 2: cells checked");
}

// ---------------------------------------------------------------------------------
// Area fire.
// ---------------------------------------------------------------------------------

#[test]
fn area_fire_vs_afvs_matches_the_seed_cell_by_cell() {
    // lines 222-223: "Weapon system\tArmour\tIntensity" / "Standard\tBombardment or direct fire up to 15cm"
    assert_eq!(heading(AREA_AFV_HEADER, 0), ["Weapon system", "Armour", "Intensity"]);
    assert_eq!(fields(lines(AREA_AFV_HEADER)[1])[2..], ["Standard", "Bombardment or direct fire up to 15cm"]);
    let mc = ruleset();
    let afv = &mc.tables().area_afv;
    let table = "Area Fire Convert to KO for AFVs";
    let seed = area_classes(AREA_AFV_ROWS);
    assert_eq!(afv.classes.len(), seed.len(), "{table}: weapon classes");
    let bands: Vec<String> = afv.armour_bands.ranges().iter().map(ToString::to_string).collect();
    assert_eq!(bands, ["1-4", "5-7", "8+"], "{table}: armour bands");
    let mut checked = 0;
    for (class, (label, seed_lines)) in afv.classes.iter().zip(&seed) {
        assert_eq!(&class.label, label, "{table}, class `{}`: label", class.name);
        let seed_bands: Vec<&str> = seed_lines.iter().map(|l| l.band.as_str()).collect();
        assert_eq!(seed_bands, bands, "{table}, class `{}`: armour bands in seed order", class.name);
        assert_eq!(class.cells.len(), seed_lines.len(), "{table}, class `{}`: one pair per armour band", class.name);
        for (pair, line) in class.cells.iter().zip(seed_lines) {
            let got = [pair[0].to_string(), pair[1].to_string()];
            assert_eq!(
                got, line.cells,
                "{table}, class `{}`, armour {}: [standard, bombardment]",
                class.name, line.band
            );
            checked += 2;
        }
    }
    assert_eq!(checked, 3 * 3 * 2, "{table}: cells checked");
    // line 234: "Roll 1d20. Max 1 KO per template. ... +1 to dice roll with rockets. ..."
    let notes = lines(AREA_AFV_NOTES)[0];
    assert!(notes.contains("Max 1 KO per template") && notes.contains("+1 to dice roll with rockets"));
    assert_eq!(afv.max_kos_per_template, 1, "{table}: \"Max 1 KO per template\"");
    assert_eq!(afv.rockets_bonus, 1, "{table}: \"+1 to dice roll with rockets\"");
}

#[test]
fn area_fire_vs_buildings_matches_the_seed_cell_by_cell() {
    // lines 238-239: "Weapon system\tStructure strength\tIntensity" / "Standard\tBombardment or direct fire up to 15cm"
    assert_eq!(heading(AREA_BUILDINGS_HEADER, 0), ["Weapon system", "Structure strength", "Intensity"]);
    assert_eq!(fields(lines(AREA_BUILDINGS_HEADER)[1])[2..], ["Standard", "Bombardment or direct fire up to 15cm"]);
    let mc = ruleset();
    let b = &mc.tables().area_buildings;
    let table = "Area Fire Convert to Casualties and KO – Buildings and Fortifications";
    // The structure strengths as the seed's second column prints them (lines 240-250).
    let strengths = ["Light", "Medium", "Strong", "V strong"];
    assert_eq!(b.structures, ["light", "medium", "strong", "v_strong"], "{table}: structure strengths");
    let seed = area_classes(AREA_BUILDINGS_ROWS);
    assert_eq!(b.classes.len(), seed.len(), "{table}: weapon classes");
    let mut checked = 0;
    let mut not_in_the_grid = Vec::new();
    for (c, (class, (label, seed_lines))) in b.classes.iter().zip(&seed).enumerate() {
        assert_eq!(&class.label, label, "{table}, class `{}`: label", class.name);
        assert_eq!(class.cells.len(), strengths.len(), "{table}, class `{}`: one pair per strength", class.name);
        let order: Vec<usize> = seed_lines
            .iter()
            .map(|l| strengths.iter().position(|s| *s == l.band).expect("a structure strength"))
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{table}, class `{}`: strengths in order", class.name);
        for (s, name) in strengths.iter().enumerate() {
            let got = [class.cells[s][0].to_string(), class.cells[s][1].to_string()];
            match seed_lines.iter().find(|l| l.band == *name) {
                Some(line) => {
                    assert_eq!(got, line.cells, "{table}, class `{}`, {name}: [standard, bombardment]", class.name);
                    checked += 2;
                }
                None => not_in_the_grid.push((c, *name, got)),
            }
        }
    }
    assert_eq!(checked, 11 * 2, "{table}: cells checked");
    // The first class has no "V strong" line; its label ends (line 240)
    // "... – Standard Versus V strong – no effect".
    assert!(seed[0].0.ends_with("Versus V strong – no effect"));
    let no_effect = ["no effect".to_string(), "no effect".to_string()];
    assert_eq!(not_in_the_grid, [(0, "V strong", no_effect)], "{table}: the cell taken from the label");
}

#[test]
fn area_fire_ranges_match_the_seed_row_by_row() {
    // line 142: "Weapon type\tWeapon calibre\tMaximum ranges"
    assert_eq!(heading(AREA_RANGES_HEADER, 0), ["Weapon type", "Weapon calibre", "Maximum ranges"]);
    let mc = ruleset();
    let ranges = &mc.tables().area_ranges;
    let seed = lines(AREA_RANGES_ROWS);
    assert_eq!(ranges.len(), seed.len(), "Ranges for Area Fire: rows");
    let mut weapon_type = String::new();
    for (row, line) in ranges.iter().zip(&seed) {
        let f = fields(line);
        assert_eq!(f.len(), 3, "Ranges for Area Fire: seed line {line:?}");
        if !f[0].is_empty() {
            weapon_type = f[0].clone();
        }
        assert_eq!(row.weapon_type, weapon_type, "Ranges for Area Fire, `{}`: weapon type", row.name);
        assert_eq!(row.calibre, f[1], "Ranges for Area Fire, `{}`: calibre", row.name);
        // "1,250cm (25,000m)": the table range in cm, and 20m of ground per cm.
        let (cm, m) = f[2].split_once("cm (").expect("\"Ncm (Mm)\"");
        let cm: f64 = cm.replace(',', "").parse().expect("cm");
        let m: f64 = m.trim_end_matches("m)").replace(',', "").parse().expect("m");
        assert_eq!(row.max_cm, cm, "Ranges for Area Fire, `{}` ({}): maximum range", row.name, f[2]);
        assert_eq!(cm * 20.0, m, "Ranges for Area Fire, `{}`: 20m per cm", row.name);
    }
}

// ---------------------------------------------------------------------------------
// Reaction test.
// ---------------------------------------------------------------------------------

#[test]
fn reaction_effects_match_the_seed_in_order() {
    // line 375: "\tEffect"
    assert_eq!(heading(REACTION_EFFECTS_HEADER, 0), ["Effect"]);
    let card: [(&str, &str, RollRange); 5] = [
        // line 376: "6+\tObey orders"
        ("obey_orders", "6+", RollRange { lo: 6, hi: None }),
        // line 377: "1 to 5\tHalt or move to cover: ..."
        ("halt_or_move_to_cover", "1 to 5", RollRange { lo: 1, hi: Some(5) }),
        // line 378: "0 to -4\tCease fire and retire: ..."
        ("cease_fire_and_retire", "0 to -4", RollRange { lo: -4, hi: Some(0) }),
        // line 379: "-5 to -10\tRetreat: ..."
        ("retreat", "-5 to -10", RollRange { lo: -10, hi: Some(-5) }),
        // line 380: "-11 or less\tRout: ..."
        ("rout", "-11 or less", RollRange { lo: i32::MIN, hi: Some(-11) }),
    ];
    let mc = ruleset();
    let results = &mc.tables().reaction.results;
    let names: Vec<&str> = results.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, card.map(|(n, ..)| n), "Reaction Test effects: results, best first");
    let seed = lines(REACTION_EFFECTS);
    assert_eq!(seed.len(), results.len(), "Reaction Test effects: rows");
    for ((result, line), (name, roll, range)) in results.iter().zip(&seed).zip(card) {
        let f = fields(line);
        assert_eq!(f.len(), 2, "Reaction Test effects: seed line {line:?}");
        assert_eq!(f[0], roll, "Reaction Test effects, `{name}`: the seed's band");
        assert_eq!(f[0].parse::<RollRange>(), Ok(range), "Reaction Test effects, `{name}`: reading {roll:?}");
        assert_eq!(result.roll, range, "Reaction Test effects, `{name}`: band {roll:?}");
        let title = f[1].split_once(':').map_or(f[1].as_str(), |(h, _)| h);
        assert_eq!(result.label, title, "Reaction Test effects, `{name}`: heading");
        assert!(!result.summary.trim().is_empty(), "Reaction Test effects, `{name}`: summary");
    }
}

#[test]
fn reaction_result_lookup_follows_the_seed_bands_at_every_boundary() {
    let mc = ruleset();
    let reaction = &mc.tables().reaction;
    // Modified scores -15 to 10: "-11 or less" rout (4), "-5 to -10" retreat (3),
    // "0 to -4" cease fire and retire (2), "1 to 5" halt or move to cover (1),
    // "6+" obey orders (0).
    let expected: [usize; 26] = [
        4, 4, 4, 4, 4, // -15 to -11
        3, 3, 3, 3, 3, 3, // -10 to -5
        2, 2, 2, 2, 2, // -4 to 0
        1, 1, 1, 1, 1, // 1 to 5
        0, 0, 0, 0, 0, // 6 to 10
    ];
    let got: Vec<usize> = (-15..=10).map(|score| reaction.result(score)).collect();
    assert_eq!(got, expected, "Reaction Test effects: result index for scores -15 to 10");
    for (score, index) in [(6, 0), (5, 1), (1, 1), (0, 2), (-4, 2), (-5, 3), (-10, 3), (-11, 4), (-15, 4)] {
        let name = &reaction.results[index].name;
        assert_eq!(reaction.result(score), index, "Reaction Test effects: score {score} gives `{name}`");
    }
    // Beyond anything a d10 and the adjustments reach.
    assert_eq!(reaction.result(40), 0, "Reaction Test effects: \"6+\" is open");
    assert_eq!(reaction.result(-60), 4, "Reaction Test effects: \"-11 or less\" is open");
}

/// The Reaction Test adjustments read mechanically: the left column's value and reason
/// are the first two fields; the right column's are the next filled fields (line 363
/// prints its "+4" one tab further right). A line without a value belongs to the last
/// value printed in its own column. Left column first, then right.
fn untangle(block: &'static str) -> Vec<(i32, String)> {
    let (mut left, mut right) = (Vec::new(), Vec::new());
    let (mut left_value, mut right_value) = (None, None);
    let value = |f: &str| f.parse::<i32>().unwrap_or_else(|_| panic!("{f:?} is not a signed value"));
    for line in lines(block) {
        let f = fields(line);
        if !f[0].is_empty() {
            left_value = Some(value(&f[0]));
        }
        left.push((left_value.expect("a left value heads the column"), f[1].clone()));
        let mut rest = f[2..].iter().filter(|c| !c.is_empty()).peekable();
        if let Some(v) = rest.next_if(|c| c.parse::<i32>().is_ok()) {
            right_value = Some(value(v));
        }
        if let Some(reason) = rest.next() {
            right.push((right_value.expect("a right value heads the column"), reason.clone()));
        }
        assert_eq!(rest.next(), None, "Reaction Test adjustments: seed line {line:?} holds two columns at most");
    }
    left.extend(right);
    left
}

#[test]
fn reaction_adjustments_match_the_seed_values_untangled() {
    let card: [(&str, i32, Option<&str>); 27] = [
        // ---- left column ----
        // line 354: -4 "Group is not elite & is out of command."
        ("not_elite_out_of_command", -4, None),
        // line 355: (-4) "Group is raw."
        ("raw", -4, None),
        // line 356: -3 "Orders permit any form of withdrawal."
        ("orders_permit_withdrawal", -3, None),
        // line 357: (-3) "Under fire from AFV within 15cm during enemy turn just ended or previous friendly turn."
        ("under_fire_from_afv_within_15cm", -3, None),
        // line 358: -2 "Group is carrying out a 'retreat' reaction (including Self-preservation action)."
        ("retreating", -2, None),
        // line 359: (-2) "Each element in group eliminated since start of game (includes foot elements traded down for losses)."
        ("element_eliminated", -2, Some("elements_eliminated")),
        // line 360: (-2) "Under fire during previous friendly turn or during enemy turn just finished from previously unlocated element or elements."
        ("under_fire_from_unlocated", -2, None),
        // line 361: (-2) "Under fire from point nearer friendly base line than group's own most advanced element."
        ("under_fire_from_rear", -2, None),
        // line 362: -1 "Enemy infantry known to be within 5cm of group and were advancing when last seen."
        ("enemy_infantry_advancing_within_5cm", -1, None),
        // line 363: (-1) "Group contains AFV within 5cm of any of: woods, buildings, at night, in fog, in falling snow, and no friendly infantry within 5cm."
        ("afv_unsupported_in_close_conditions", -1, None),
        // line 364: (-1) "Group is green."
        ("green", -1, None),
        // line 365: (-1) "Group contains soft vehicles or animals in the open."
        ("soft_vehicles_or_animals_in_open", -1, None),
        // line 366: -1 "For each element in group currently suppressed."
        ("element_suppressed", -1, Some("elements_suppressed")),
        // line 367: (-1) "Group is elite and out of command."
        ("elite_out_of_command", -1, None),
        // line 368: (-1) "Friendly element(s) (including in testing group), other than empty soft vehicles or animals, moved away from any enemy within 15cm for any reason during last friendly turn."
        ("friendly_moved_away_from_enemy", -1, None),
        // line 369: -1 "Under attack during previous enemy turn from salvo rockets, salvo mortars, flamethrowers or aircraft."
        ("under_salvo_flame_or_air_attack", -1, None),
        // ---- right column ----
        // line 354: +1 "Orders require an advance."
        ("orders_require_advance", 1, None),
        // line 355: (+1) "Any enemy can be seen retreating (Reaction Test result of -5 or worse) by the testing group."
        ("enemy_seen_retreating", 1, None),
        // line 356: +1 "Each enemy AFV seen by an element of the group to be knocked out within 25cm during last 2 turns (1 friendly, 1 enemy)."
        ("enemy_afv_knocked_out", 1, Some("enemy_afvs_knocked_out")),
        // line 356, the same entry: "(1 friendly, 1 enemy)" read as -1 per friendly AFV,
        // +1 per enemy AFV; this row is the friendly half (not a seed row of its own).
        ("friendly_afv_knocked_out", -1, Some("friendly_afvs_knocked_out")),
        // line 357: (+1) "All elements in partial cover or concealed."
        ("partial_cover_or_concealed", 1, None),
        // line 358: +2 "At least 50% of group is hull-down AFVs."
        ("hull_down_afvs", 2, None),
        // line 359: (+2) "All elements in good cover or in field fortifications."
        ("good_cover_or_field_fortifications", 2, None),
        // line 360: (+2) "Higher level command element is within 15cm."
        ("higher_command_within_15cm", 2, None),
        // line 361: (+2) "Group is veteran."
        ("veteran", 2, None),
        // line 362: +3 "All elements in permanent fortifications."
        ("permanent_fortifications", 3, None),
        // line 363 (one tab further right): +4 "Group is elite."
        ("elite", 4, None),
    ];
    let mc = ruleset();
    let chart = &mc.tables().reaction.modifiers;
    let names: Vec<&str> = chart.rows().iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, card.map(|(n, ..)| n), "Reaction Test adjustments: rows, left column then right");
    for (name, value, per) in card {
        let m = chart.get(name);
        let want = ModifierEffect::Add { value, per: per.map(str::to_string) };
        assert_eq!(m.effect, want, "Reaction Test adjustments, row `{name}`: value");
        assert_eq!(m.side, None, "Reaction Test adjustments, row `{name}`: one column of effects, no side");
    }
    // Against the seed lines read mechanically: every seed entry is one row with the
    // seed's reason as its label, in order, plus the friendly half of line 356.
    let seed = untangle(REACTION_ADJUSTMENTS);
    assert_eq!(seed.len(), 26, "Reaction Test adjustments: 16 left and 10 right entries on lines 354-369");
    let rows: Vec<(i32, String)> = chart
        .rows()
        .iter()
        .filter(|m| m.name != "friendly_afv_knocked_out")
        .map(|m| (m.value(1), m.label.clone()))
        .collect();
    assert_eq!(rows, seed, "Reaction Test adjustments: (value, reason) of every seed entry, in order");
    let (enemy, friendly) = (chart.get("enemy_afv_knocked_out"), chart.get("friendly_afv_knocked_out"));
    assert_eq!(friendly.label, enemy.label, "friendly_afv_knocked_out is read from the same seed entry");
    assert_eq!(friendly.value(1), -enemy.value(1), "\"(1 friendly, 1 enemy)\": opposite signs");
    assert!(friendly.note.is_some(), "friendly_afv_knocked_out says it is not a seed row of its own");
    // "Each element ... eliminated": two elements give -4.
    assert_eq!(chart.get("element_eliminated").value(2), -4);
}

// ---------------------------------------------------------------------------------
// Anti-aircraft fire.
// ---------------------------------------------------------------------------------

#[test]
fn anti_aircraft_to_hit_matches_the_seed_cell_by_cell() {
    let mc = ruleset();
    let aa = &mc.tables().anti_aircraft;
    // line 384: "Firer \ Target\tDive-bomber\tLow altitude\tMedium altitude\tHigh altitude"
    let header = heading(AA_TO_HIT_HEADER, 0);
    assert_eq!(header[0], r"Firer \ Target");
    assert_eq!(header[1..], ["Dive-bomber", "Low altitude", "Medium altitude", "High altitude"]);
    assert_eq!(aa.altitudes, ["dive_bomber", "low_altitude", "medium_altitude", "high_altitude"]);
    let table = "Anti-aircraft Fire To Hit";
    let checked = assert_grid(table, AA_TO_HIT_ROWS, 0, &header[1..], &aa.to_hit, as_printed);
    assert_eq!(checked, 4 * 4, "{table}: cells checked");
    // line 390: "AA adjustments: + 2 for multi-barrelled weapons; integrated or coherent
    // infantry elements, use 2d20 as if 2 MGs were firing."
    let adjustments = lines(AA_ADJUSTMENTS)[0];
    assert_chart("AA adjustments", &aa.modifiers, &[("multi_barrel", "+2", Some(Side::Firer))]);
    assert!(adjustments.contains(&aa.modifiers.get("multi_barrel").label), "AA adjustments: label from line 390");
    assert!(adjustments.contains("use 2d20"));
    assert_eq!(aa.infantry_dice, 2, "AA adjustments: \"use 2d20\"");
}

#[test]
fn anti_aircraft_damage_matches_the_seed_cell_by_cell() {
    let mc = ruleset();
    let aa = &mc.tables().anti_aircraft;
    // line 394: "Firer \ Target\tFighter, fighter-bomber, dive- or light bomber\tMedium aircraft\tHeavy aircraft"
    let header = heading(AA_DAMAGE_HEADER, 0);
    assert_eq!(header[0], r"Firer \ Target");
    assert_eq!(header[1..], ["Fighter, fighter-bomber, dive- or light bomber", "Medium aircraft", "Heavy aircraft"]);
    assert_eq!(aa.sizes, ["fighter_or_light_bomber", "medium_aircraft", "heavy_aircraft"]);
    let table = "Anti-aircraft Fire Convert to Damaged / Destroyed";
    let checked = assert_grid(table, AA_DAMAGE_ROWS, 0, &header[1..], &aa.damage, as_printed);
    assert_eq!(checked, 4 * 3, "{table}: cells checked");
    // The same four firers, in the same order, as the to-hit table.
    let hit: Vec<(&str, &str)> = aa.to_hit.iter().map(|r| (r.name.as_str(), r.label.as_str())).collect();
    let damage: Vec<(&str, &str)> = aa.damage.iter().map(|r| (r.name.as_str(), r.label.as_str())).collect();
    assert_eq!(hit, damage, "{table}: firers as in Anti-aircraft Fire To Hit");
}

// ---------------------------------------------------------------------------------
// Provenance.
// ---------------------------------------------------------------------------------

#[test]
fn every_table_names_seed_004_and_its_title_exactly() {
    let mc = ruleset();
    let t: &Tables = mc.tables();
    // line 254: "Point-to-point Fire to Hit"
    assert_source("to hit", &t.to_hit.source, "Point-to-point Fire to Hit");
    assert_source("to-hit modifiers", &t.to_hit.modifiers.source, "Point-to-point Fire to Hit");
    // line 287: "Foot: Convert Hit to Casualty"
    assert_source("casualty", &t.casualty.source, "Foot: Convert Hit to Casualty");
    // line 311: "Point-to-point Conversion to KO: Part 1 of 2"
    assert_source("KO part 1", &t.ko.sources[0], "Point-to-point Conversion to KO: Part 1 of 2");
    // line 332: "Point-to-point Conversion to KO: Part 2 of 2"
    assert_source("KO part 2", &t.ko.sources[1], "Point-to-point Conversion to KO: Part 2 of 2");
    // line 220: "Area Fire Convert to KO for AFVs"
    assert_source("area fire vs AFVs", &t.area_afv.source, "Area Fire Convert to KO for AFVs");
    // line 236: "Area Fire Convert to Casualties and KO – Buildings and Fortifications"
    assert_source(
        "area fire vs buildings",
        &t.area_buildings.source,
        "Area Fire Convert to Casualties and KO – Buildings and Fortifications",
    );
    // line 138: "Ranges for Area Fire"
    assert_source("area fire ranges", &t.area_ranges_source, "Ranges for Area Fire");
    // line 350: "Reaction Test adjustments"
    assert_source("reaction adjustments", &t.reaction.modifiers.source, "Reaction Test adjustments");
    // line 371: "Reaction Test effects"
    assert_source("reaction effects", &t.reaction.results_source, "Reaction Test effects");
    // line 382: "Anti-aircraft Fire To Hit"
    assert_source("AA to hit", &t.anti_aircraft.sources[0], "Anti-aircraft Fire To Hit");
    assert_source("AA adjustments", &t.anti_aircraft.modifiers.source, "Anti-aircraft Fire To Hit");
    // line 392: "Anti-aircraft Fire Convert to Damaged / Destroyed"
    assert_source("AA damage", &t.anti_aircraft.sources[1], "Anti-aircraft Fire Convert to Damaged / Destroyed");
}
