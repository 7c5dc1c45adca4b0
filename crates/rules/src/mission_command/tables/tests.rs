//! Unit tests of the Mission Command tables as loaded from their files.

use super::*;

#[test]
fn ko_cells_read_every_form_the_seed_prints() {
    assert_eq!(KoCell::parse("NE").unwrap(), KoCell::NoEffect);
    assert_eq!(KoCell::parse("KO").unwrap(), KoCell::Always(KoValue::Ko));
    assert_eq!(KoCell::parse("14").unwrap(), KoCell::Always(KoValue::Score(14)));
    let KoCell::ByRange(c) = KoCell::parse("11 at 25-50cm 15 at 50-75cm 19 at 75-100cm").unwrap() else { panic!() };
    assert_eq!(c.len(), 3);
    assert_eq!(c[1], RangeClause { from_cm: 50.0, to_cm: Some(75.0), value: KoValue::Score(15) });
    let KoCell::ByRange(open) = KoCell::parse("KO at 0-25cm").unwrap() else { panic!() };
    assert_eq!(open[0].value, KoValue::Ko);
    let KoCell::ByRange(plus) = KoCell::parse("7 at 75cm+").unwrap() else { panic!() };
    assert_eq!(plus[0].to_cm, None);
}

#[test]
fn a_clause_edge_belongs_to_the_nearer_clause() {
    let KoCell::ByRange(c) = KoCell::parse("11 at 0-25cm 15 at 25cm+").unwrap() else { panic!() };
    assert!(c[0].covers(0.0) && c[0].covers(25.0) && !c[0].covers(25.5));
    assert!(!c[1].covers(25.0) && c[1].covers(25.5) && c[1].covers(1000.0));
}

#[test]
fn malformed_ko_cells_are_refused() {
    for bad in [
        "11 at 25-50",
        "11 at 50-25cm",
        "11 at 0-15cm 15 at 25-50cm",
        "7 at 75cm+ 11 at 100-150cm",
        "21",
        "11 on 0-5cm",
    ] {
        assert!(KoCell::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn building_cells_read_thresholds_auto_and_no_effect() {
    let l = ['S', 'C', 'D'];
    assert_eq!(BuildingCell::parse("S5/C7/D9", &l).unwrap(), BuildingCell::Rolls(vec![(1, 5), (2, 7), (3, 9)]));
    assert_eq!(BuildingCell::parse("S18/C20", &l).unwrap(), BuildingCell::Rolls(vec![(1, 18), (2, 20)]));
    assert_eq!(BuildingCell::parse("D auto", &l).unwrap(), BuildingCell::Auto(3));
    assert_eq!(BuildingCell::parse("no effect", &l).unwrap(), BuildingCell::NoEffect);
    for bad in ["S9/C7", "X5", "C7/S9", "D"] {
        assert!(BuildingCell::parse(bad, &l).is_err(), "{bad}");
    }
}
