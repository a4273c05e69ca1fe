//! Known results: a small table of published facts about single games (preperiod and period
//! of the Grundy values, or that the game is unsolved), each row citing its source, and the
//! comparison of a computed sequence with them.
//!
//! Preperiods are counted in heap sizes (the number of leading values before the periodic
//! part; Kayles: 71, its last exception being n = 70). Where a source lists values from the
//! first heap that has a move, its offset has been added.

use crate::periodicity::periodicity;
use heaplab_core::census::canonical;
use heaplab_core::{CertRule, Game, Reduction, Sequence};
use serde::{Deserialize, Serialize};

/// One published fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// The game's spec, as the source writes it.
    pub game: &'static str,
    /// Its name, if it has one.
    pub name: &'static str,
    /// (preperiod, period) of the Grundy values; None: published as unsolved.
    pub period: Option<(u64, u64)>,
    /// Where it is published.
    pub source: &'static str,
}

/// The table shipped with heaplab.
pub const KNOWN: &[Known] = &[
    Known {
        game: "0.77",
        name: "Kayles",
        period: Some((71, 12)),
        source: "Guy & Smith 1956; Winning Ways ch. 4; OEIS A002186",
    },
    Known {
        game: "0.07",
        name: "Dawson's Kayles",
        period: Some((53, 34)),
        source: "Winning Ways ch. 4; OEIS A002187 (g(n) = a(n-1))",
    },
    Known {
        game: "0.137",
        name: "Dawson's chess",
        period: Some((52, 34)),
        source: "Guy & Smith 1956; OEIS A002187 (last exception 51)",
    },
    Known {
        game: "0.15",
        name: "Guiles",
        period: Some((1, 10)),
        source: "Winning Ways ch. 4; tczajka/octal-games TrivialGames",
    },
    Known {
        game: "0.17",
        name: "",
        period: Some((33, 34)),
        source: "OEIS A071431 (exceptions 0, 15, 17, 32)",
    },
    Known {
        game: "0.11377",
        name: "",
        period: Some((187, 32)),
        source: "OEIS A071452 (last exception 186)",
    },
    Known {
        game: "0.045",
        name: "",
        period: Some((189, 32)),
        source: "OEIS A071452 (g(n) = a(n-2)); Flammenkamp's octal tables",
    },
    Known {
        game: "0.055",
        name: "",
        period: Some((259, 148)),
        source: "Flammenkamp's octal tables; tczajka/octal-games TrivialGames (from heap 1)",
    },
    Known {
        game: "0.176",
        name: "",
        period: Some((24, 8)),
        source: "OEIS A125920 (last exception 23)",
    },
    Known {
        game: "0.7777",
        name: "Double Kayles",
        period: Some((142, 24)),
        source: "OEIS A071074 (last exception 141)",
    },
    Known {
        game: "0.6",
        name: "Officers",
        period: None,
        source: "Winning Ways ch. 4: unsolved; Flammenkamp's octal tables",
    },
    Known {
        game: "0.4",
        name: "",
        period: Some((54, 34)),
        source: "tczajka/octal-games TrivialGames (listed from heap 2)",
    },
];

/// What a computed sequence says about one known fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownCheck {
    /// The fact's game as its source writes it.
    pub game: String,
    /// `name (source): verdict`.
    pub text: String,
    /// The computed values contradict the published fact.
    pub disagrees: bool,
}

/// The known facts about any member of the class whose representative is `rep`, checked
/// against the representative's Grundy values `values` (0..=N): each fact's game is reduced
/// to its representative ([`canonical`]); where that is `rep`, the fact's own values follow
/// from `values` by its reduction and their periodicity is compared with the published one.
pub fn known_checks(rep: &Game, values: &[u32]) -> Vec<KnownCheck> {
    let key = rep.to_string();
    KNOWN
        .iter()
        .filter_map(|k| {
            let g = Game::parse(k.game).ok()?;
            let (r, red) = canonical(&g);
            (r.to_string() == key).then(|| check_known(k, &g, &red, values))
        })
        .collect()
}

/// One fact against the values of its game, which follow from the representative's
/// `values` by `red`.
pub fn check_known(k: &Known, game: &Game, red: &Reduction, values: &[u32]) -> KnownCheck {
    let max = (values.len() as u64)
        .saturating_sub(1)
        .saturating_mul(red.scale.max(1))
        .saturating_add(red.shift);
    let own: Vec<i64> = red
        .item_values(values, max)
        .into_iter()
        .map(i64::from)
        .collect();
    let n = own.len().saturating_sub(1);
    let found = periodicity(&own, CertRule::of(game, Sequence::Grundy));
    let got = |p: &crate::Periodicity| {
        format!(
            "computed preperiod {}, period {}{}",
            p.preperiod,
            p.period,
            if p.certified { " (proven)" } else { "" }
        )
    };
    let (verdict, disagrees) = match (k.period, &found) {
        (Some((n0, per)), Some(p)) if (p.preperiod, p.period, p.saltus) == (n0, per, 0) => {
            ("agrees".to_string(), false)
        }
        // an unproven period on too few values is no contradiction yet: the published one
        // would be accepted (and found) from N = 2·n0 + 2p - 1 on
        (Some((n0, per)), Some(p)) if p.certified || n as u64 + 1 >= 2 * n0 + 2 * per => (
            format!(
                "DISAGREES: published preperiod {n0}, period {per}; {} to N = {n}",
                got(p)
            ),
            true,
        ),
        (Some((n0, per)), Some(p)) => (
            format!(
                "published preperiod {n0}, period {per}; {} to N = {n}: not reached (needs \
                 N >= {})",
                got(p),
                (2 * n0 + 2 * per).saturating_sub(1)
            ),
            false,
        ),
        (Some((n0, per)), None) => {
            let need = (2 * n0 + 2 * per).saturating_sub(1);
            if n as u64 >= need {
                (
                    format!(
                        "DISAGREES: published preperiod {n0}, period {per}; no period in the \
                         data to N = {n}"
                    ),
                    true,
                )
            } else {
                (
                    format!(
                        "published preperiod {n0}, period {per}; not reached (needs N >= {need})"
                    ),
                    false,
                )
            }
        }
        (None, Some(p)) if p.certified => (
            format!("DISAGREES: published as unsolved; {}", got(p)),
            true,
        ),
        (None, Some(p)) => (
            format!("unsolved as published; {} (not proven)", got(p)),
            false,
        ),
        (None, None) => (
            format!("unsolved as published; no period to N = {n}"),
            false,
        ),
    };
    let name = if k.name.is_empty() {
        k.game.to_string()
    } else {
        format!("{} {}", k.name, k.game)
    };
    KnownCheck {
        game: k.game.to_string(),
        text: format!("{name} ({}): {verdict}", k.source),
        disagrees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::{grundy_table, Silent};

    fn values(spec: &str, max: u64) -> Vec<u32> {
        grundy_table(&Game::parse(spec).unwrap(), max, &Silent)
            .unwrap()
            .to_u32_vec()
    }

    #[test]
    fn every_fact_agrees_with_the_engines() {
        for k in KNOWN {
            let g = Game::parse(k.game).unwrap();
            let (rep, _) = canonical(&g);
            let v = values(&rep.to_string(), 4000);
            let checks = known_checks(&rep, &v);
            let c = checks.iter().find(|c| c.game == k.game).unwrap();
            assert!(!c.disagrees, "{}", c.text);
            if k.period.is_some() {
                assert!(c.text.ends_with("agrees"), "{}", c.text);
            }
        }
        // Kayles and Dawson's Kayles are found through their classes
        let v = values("0.137", 500);
        let texts: Vec<String> = known_checks(&Game::parse("0.137").unwrap(), &v)
            .into_iter()
            .map(|c| c.text)
            .collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts[0].starts_with("Dawson's Kayles 0.07 (Winning Ways"));
    }

    #[test]
    fn a_wrong_fact_is_flagged_with_both_values() {
        let wrong = Known {
            game: "0.77",
            name: "Kayles",
            period: Some((70, 12)),
            source: "a test",
        };
        let g = Game::parse("0.77").unwrap();
        let c = check_known(&wrong, &g, &Reduction::identity(), &values("0.77", 1000));
        assert!(c.disagrees);
        assert!(
            c.text
                .contains("published preperiod 70, period 12; computed preperiod 71, period 12"),
            "{}",
            c.text
        );
        // too few values: not a disagreement
        let c = check_known(&wrong, &g, &Reduction::identity(), &values("0.77", 100));
        assert!(!c.disagrees && c.text.contains("not reached"), "{}", c.text);
        // an unproven fit to a few values is no disagreement (0.77 to N = 3 looks periodic)
        let kayles = KNOWN[0];
        for n in [1, 3, 5, 20, 100] {
            let c = check_known(&kayles, &g, &Reduction::identity(), &values("0.77", n));
            assert!(!c.disagrees, "N = {n}: {}", c.text);
        }
        // a period claimed for a game published as unsolved
        let open = Known {
            game: "0.77",
            name: "",
            period: None,
            source: "a test",
        };
        let c = check_known(&open, &g, &Reduction::identity(), &values("0.77", 1000));
        assert!(
            c.disagrees && c.text.contains("published as unsolved"),
            "{}",
            c.text
        );
    }
}
