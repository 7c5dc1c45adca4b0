//! A ruleset's settings declared once: [`settings!`] turns one list (each setting's
//! key in a scenario's `[settings]` table, its readings and what each gives, its doc,
//! and whether only an engagement reads it) into the `Settings` struct the rules read,
//! the `RawSettings` the table is parsed into, the listings `SETTINGS` and
//! `ENGAGEMENT_SETTINGS`, and `Settings::resolve`. Resolving reads every setting in
//! the order declared, offers the form each one left at its default, and refuses a
//! setting only engagements read in any other kind of scenario, where it would
//! silently do nothing.

use toml::Spanned;

use combat_odds_core::document::Document;
use combat_odds_core::error::Result;

use crate::setup::article;

/// Declares a ruleset's settings, one entry each:
///
/// ```text
/// /// What the rules read (the field's doc).
/// field: Type = key (any) choice { default_reading => value, other_reading => value },
/// field: Type = key (engagement) choice { ... },            // only engagements read it
/// field: Type = key (any) table { from names => |i| value }, // readings from the tables
/// field: u32 = key (any) number { 0..=1, default 1 },         // a whole number
/// ```
///
/// The struct's header may name what table-read readings come from:
/// `pub(crate) struct Settings (tables: &Tables) { ... }`, which `resolve` then takes
/// after the scenario's kind. Declaration order is reading order: the form lists the
/// settings a file leaves at their defaults in it, and a file's first bad setting is
/// the one reported.
///
/// A ruleset outside this crate (the test suite's fifth) calls it as
/// `combat_odds_rules::settings!`; the code it writes names `serde`, `toml` and
/// `combat_odds_core`, which such a crate depends on as every ruleset does.
#[macro_export]
macro_rules! settings {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident $(($ctx:ident: $ctx_ty:ty))? {
            $(
                $(#[$doc:meta])*
                $field:ident: $ty:ty = $key:ident ($scope:ident) $how:ident { $($readings:tt)* }
            ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        $vis struct $name {
            $($(#[$doc])* pub $field: $ty,)*
        }

        /// Settings as written in a scenario's `[settings]` table.
        #[derive(Debug, Clone, Default, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct RawSettings {
            $($key: Option<toml::Spanned<$crate::settings!(@raw $how)>>,)*
        }

        /// Every setting with a fixed list of readings that any kind of scenario reads:
        /// its key, then its readings with the default first.
        pub const SETTINGS: &[(&str, &[&str])] =
            $crate::settings!(@list any [] $([$scope $key $how { $($readings)* }])*);

        /// Every setting only engagements read, in the same shape as [`SETTINGS`].
        pub const ENGAGEMENT_SETTINGS: &[(&str, &[&str])] =
            $crate::settings!(@list engagement [] $([$scope $key $how { $($readings)* }])*);

        impl $name {
            /// The settings of a scenario of `kind`: each as `raw` writes it or its
            /// default (offered on `doc`); a setting only engagements read is refused
            /// in any other kind.
            pub(crate) fn resolve(
                doc: &combat_odds_core::document::Document,
                raw: &RawSettings,
                kind: &str,
                $($ctx: $ctx_ty)?
            ) -> combat_odds_core::error::Result<Self> {
                Ok($name {
                    $($field: $crate::settings!(
                        @scope $scope doc kind (&raw.$key) $key $how { $($readings)* }
                    ),)*
                })
            }
        }
    };

    (@raw choice) => { String };
    (@raw table) => { String };
    (@raw number) => { i64 };

    (@scope any $doc:ident $kind:ident $value:tt $key:ident $how:ident $readings:tt) => {
        $crate::settings!(@read $how $doc $value $key $readings)
    };
    // Elsewhere an engagement's setting would do nothing: refused where written, and not
    // offered where left out.
    (@scope engagement $doc:ident $kind:ident $value:tt $key:ident $how:ident $readings:tt) => {
        if $kind == "engagement" {
            $crate::settings!(@read $how $doc $value $key $readings)
        } else {
            $crate::settings::refuse_outside_engagement($doc, $kind, stringify!($key), $value)?;
            $crate::settings!(@default $how $readings)
        }
    };

    (@read choice $doc:ident $value:tt $key:ident { $($reading:ident => $v:expr),+ $(,)? }) => {
        [$($v),+][$crate::setup::reading($doc, $value, (stringify!($key), &[$(stringify!($reading)),+]))?]
    };
    (@read table $doc:ident $value:tt $key:ident { from $names:expr => |$i:ident| $v:expr }) => {{
        let names: Vec<&str> = $names.collect();
        let $i = $crate::setup::reading($doc, $value, (stringify!($key), &names))?;
        $v
    }};
    // A number has no readings to offer: the form offers it where the file writes it.
    (@read number $doc:ident $value:tt $key:ident { $lo:literal ..= $hi:literal, default $default:literal }) => {
        $crate::settings::number($doc, $value, stringify!($key), ($lo, $hi), $default)?
    };

    // The default is the first reading: where a kind does not read a setting, it stands.
    (@default choice { $first:ident => $v:expr $(, $reading:ident => $w:expr)* $(,)? }) => { $v };
    (@default number { $lo:literal ..= $hi:literal, default $default:literal }) => { $default };

    // A listing holds the settings of one scope whose readings are fixed here; those read
    // from the tables are listed by their tables, and a number has no readings to list.
    (@list $want:ident [$($done:tt)*]) => { &[$($done)*] };
    (@list any [$($done:tt)*]
        [any $key:ident choice { $($reading:ident => $v:expr),+ $(,)? }] $($rest:tt)*) => {
        $crate::settings!(
            @list any [$($done)* (stringify!($key), &[$(stringify!($reading)),+]),] $($rest)*
        )
    };
    (@list engagement [$($done:tt)*]
        [engagement $key:ident choice { $($reading:ident => $v:expr),+ $(,)? }] $($rest:tt)*) => {
        $crate::settings!(
            @list engagement [$($done)* (stringify!($key), &[$(stringify!($reading)),+]),] $($rest)*
        )
    };
    (@list $want:ident [$($done:tt)*] [$($skip:tt)*] $($rest:tt)*) => {
        $crate::settings!(@list $want [$($done)*] $($rest)*)
    };
}

// The rulesets of this crate name it by its module, beside what it builds on.
pub(crate) use crate::settings;

/// Refuses setting `key`, which only engagements read, where a scenario of `kind`
/// sets it: there it would silently do nothing. Public for the code [`settings!`]
/// writes in a ruleset outside this crate.
#[doc(hidden)]
pub fn refuse_outside_engagement<T>(doc: &Document, kind: &str, key: &str, value: &Option<Spanned<T>>) -> Result<()> {
    match value {
        None => Ok(()),
        Some(v) => Err(doc.error_at(
            v.span().start,
            format!(
                "setting `{key}` is for engagement scenarios; {} scenario does not read it, so remove it",
                article(kind)
            ),
        )),
    }
}

/// A whole-number setting within `lo..=hi` (`default` when not written). Public for
/// the code [`settings!`] writes in a ruleset outside this crate.
#[doc(hidden)]
pub fn number(
    doc: &Document,
    value: &Option<Spanned<i64>>,
    key: &str,
    (lo, hi): (u32, u32),
    default: u32,
) -> Result<u32> {
    match value {
        None => Ok(default),
        Some(v) if (i64::from(lo)..=i64::from(hi)).contains(v.get_ref()) => Ok(*v.get_ref() as u32),
        Some(v) => {
            let range = if hi == lo + 1 { format!("{lo} or {hi}") } else { format!("from {lo} to {hi}") };
            Err(doc.error_at(v.span().start, format!("{key} is {range}, not {}", v.get_ref())))
        }
    }
}

#[cfg(test)]
mod tests {
    use combat_odds_core::document::Document;

    settings! {
        /// A test ruleset's settings: one of each shape.
        #[derive(Debug, PartialEq)]
        struct Settings (names: &[&'static str]) {
            /// A choice of two.
            fast: bool = speed (any) choice { slow => false, fast => true },
            /// A reading from the tables.
            picked: &'static str = pick (any) table { from names.iter().copied() => |i| names[i] },
            /// A whole number.
            dice: u32 = dice (any) number { 1..=3, default 2 },
            /// Read by engagements alone.
            rounds: u8 = rounds (engagement) choice { three => 3, one => 1 },
        }
    }

    const NAMES: &[&str] = &["first", "second"];

    fn resolve(settings: &str, kind: &str) -> (Document, combat_odds_core::error::Result<Settings>) {
        let doc = Document::new("t.toml", "t.toml", format!("[settings]\n{settings}"));
        #[derive(serde::Deserialize)]
        struct File {
            settings: RawSettings,
        }
        let raw = doc.parse::<File>().map(|f| f.settings);
        let resolved = raw.and_then(|raw| Settings::resolve(&doc, &raw, kind, NAMES));
        (doc, resolved)
    }

    #[test]
    fn one_declaration_gives_the_listings_the_defaults_and_the_forms_offer() {
        assert_eq!(SETTINGS, [("speed", &["slow", "fast"][..])]);
        assert_eq!(ENGAGEMENT_SETTINGS, [("rounds", &["three", "one"][..])]);
        let (doc, settings) = resolve("", "engagement");
        assert_eq!(settings.unwrap(), Settings { fast: false, picked: "first", dice: 2, rounds: 3 });
        let offered: Vec<_> = doc.unset().into_iter().map(|u| (u.key, u.names)).collect();
        assert_eq!(
            offered,
            [("speed", vec!["slow", "fast"]), ("pick", vec!["first", "second"]), ("rounds", vec!["three", "one"])]
                .map(|(k, n)| (k.to_string(), n.into_iter().map(String::from).collect()))
        );
        let (_, settings) = resolve("speed = \"fast\"\npick = \"second\"\ndice = 3\nrounds = \"one\"\n", "engagement");
        assert_eq!(settings.unwrap(), Settings { fast: true, picked: "second", dice: 3, rounds: 1 });
    }

    #[test]
    fn a_setting_only_engagements_read_is_neither_offered_nor_accepted_elsewhere() {
        let (doc, settings) = resolve("", "fire");
        assert_eq!(settings.unwrap().rounds, 3);
        assert!(doc.unset().iter().all(|u| u.key != "rounds"), "a fire is not offered an engagement's setting");
        let (_, settings) = resolve("rounds = \"one\"\n", "fire");
        let message = settings.unwrap_err().to_string();
        assert_eq!(
            message,
            "t.toml:2:10: setting `rounds` is for engagement scenarios; a fire scenario does not read it, so remove it"
        );
    }

    #[test]
    fn bad_settings_are_refused_where_they_stand_with_the_fix() {
        let error = |text: &str| resolve(text, "fire").1.unwrap_err().to_string();
        assert_eq!(
            error("speed = \"fsat\"\n"),
            "t.toml:2:9: unknown speed reading `fsat`; did you mean `fast`? (valid: `slow`, `fast`)"
        );
        assert_eq!(error("dice = 4\n"), "t.toml:2:8: dice is from 1 to 3, not 4");
        assert_eq!(
            error("sped = \"fast\"\n"),
            "t.toml:2:1: unknown key `sped`; did you mean `speed`? (valid: `speed`, `pick`, `dice`, `rounds`)"
        );
    }
}
