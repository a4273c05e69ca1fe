//! A class census as one row per game: every member of every class with its parameter
//! values, the reduction that maps it to its class's representative, and the class's
//! results carried over to the member through that reduction.
//!
//! A member with reduction (moves removed, scale k, shift s) has values
//! G(n) = G_rep(⌊(n − s) / k⌋) for n ≥ s and 0 below ([`heaplab_core::Reduction`]): so a
//! representative periodic from p with period q and saltus d gives the member period k·q and
//! saltus d, and, without a shift, preperiod k·p exactly (the first repeat of the
//! representative at p − 1 fails, so the member's fails at k·p − 1). A shift s only bounds
//! the member's preperiod by k·p + s (the s leading zeros may happen to fit the period), so
//! that `preperiod` is left empty and `class_preperiod` says what the class has.

use crate::census::{CensusColumn, CensusPart, CensusRow};
use crate::game_census::ParamColumns;
use heaplab_core::{CensusError, CensusSpace, Class, Member};
use std::collections::BTreeMap;

/// The columns of the per-game table of a class census: `census`, `items` (games in the
/// space), `item`, the parameter columns (as in per-game censuses: `a`, `b`, … and `d1`,
/// `d2`, … for `?` digits), `game` (the member's spec), `class`, `representative` (the
/// class's game), `reduction` (`itself`, `scale 2`, `less {4}`, `shift 1`), `scale`,
/// `shift`, `status`, `verdict`, the member's `preperiod`, `period` and `saltus`,
/// `max_grundy`, the class's `class_preperiod`, `class_period` and `class_n` (how far it
/// was computed), and `class_certificate` (why the class's period is proven). One row per
/// member of the `classes` that `part` has rows for, in item order.
///
/// # Errors
/// [`CensusError`] when the space cannot be enumerated (it is the one the classes came
/// from, so only when it is not).
pub fn member_columns(
    space: &CensusSpace,
    classes: &[Class],
    part: &CensusPart,
) -> Result<Vec<(String, CensusColumn)>, CensusError> {
    let by_class: BTreeMap<u64, &CensusRow> = part.rows.iter().map(|r| (r.class, r)).collect();
    let mut members: Vec<(&Member, &Class, &CensusRow)> = classes
        .iter()
        .filter_map(|c| by_class.get(&c.index).map(|r| (c, *r)))
        .flat_map(|(c, r)| c.members.iter().map(move |m| (m, c, r)))
        .collect();
    members.sort_by_key(|(m, _, _)| m.item);
    // the parameter values of the members' items, from one walk of the space
    let cols = ParamColumns::of(space);
    let wanted: Vec<u64> = members.iter().map(|(m, _, _)| m.item).collect();
    let mut values: Vec<Vec<Option<u64>>> = Vec::with_capacity(wanted.len());
    let mut items = 0u64;
    let mut next = 0usize;
    space.walk(&mut |w| {
        items += 1;
        if wanted.get(next) == Some(&w.index) {
            values.push(
                (0..cols.names.len())
                    .map(|c| cols.value_of(w.template, w.values, c))
                    .collect(),
            );
            next += 1;
        }
        Ok(())
    })?;
    if next < wanted.len() {
        return Err(CensusError::Syntax(format!(
            "item {} is not in the space",
            wanted[next]
        )));
    }
    use CensusColumn::{Str, I64, U64};
    let u = |f: &dyn Fn(&Member, &CensusRow) -> Option<u64>| {
        U64(members.iter().map(|(m, _, r)| f(m, r)).collect())
    };
    let s = |f: &dyn Fn(&Member, &Class, &CensusRow) -> String| {
        Str(members.iter().map(|(m, c, r)| Some(f(m, c, r))).collect())
    };
    let mut out: Vec<(String, CensusColumn)> = vec![
        ("census".into(), s(&|_, _, _| part.id.clone())),
        ("items".into(), u(&|_, _| Some(items))),
        ("item".into(), u(&|m, _| Some(m.item))),
    ];
    for (i, name) in cols.names.iter().enumerate() {
        out.push((name.clone(), U64(values.iter().map(|v| v[i]).collect())));
    }
    let scale = |m: &Member| m.reduction.scale.max(1);
    out.extend([
        ("game".into(), s(&|m, _, _| m.spec.clone())),
        ("class".into(), u(&|_, r| Some(r.class))),
        ("representative".into(), s(&|_, _, r| r.game.clone())),
        ("reduction".into(), s(&|m, _, _| m.reduction.to_string())),
        ("scale".into(), u(&|m, _| Some(scale(m)))),
        ("shift".into(), u(&|m, _| Some(m.reduction.shift))),
        ("status".into(), s(&|_, _, r| r.status.clone())),
        ("verdict".into(), s(&|_, _, r| r.verdict.clone())),
        (
            "preperiod".into(),
            u(&|m, r| {
                (m.reduction.shift == 0)
                    .then_some(r.preperiod)
                    .flatten()
                    .and_then(|p| p.checked_mul(scale(m)))
            }),
        ),
        (
            "period".into(),
            u(&|m, r| r.period.and_then(|q| q.checked_mul(scale(m)))),
        ),
        (
            "saltus".into(),
            I64(members.iter().map(|(_, _, r)| r.saltus).collect()),
        ),
        ("max_grundy".into(), u(&|_, r| r.max_grundy)),
        ("class_preperiod".into(), u(&|_, r| r.preperiod)),
        ("class_period".into(), u(&|_, r| r.period)),
        ("class_n".into(), u(&|_, r| Some(r.n))),
        (
            "class_certificate".into(),
            Str(members
                .iter()
                .map(|(_, _, r)| r.certificate.clone())
                .collect()),
        ),
    ]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::census::{census, CensusBudget};
    use heaplab_core::{Budget, Silent};

    fn column<'a>(cols: &'a [(String, CensusColumn)], name: &str) -> &'a CensusColumn {
        &cols.iter().find(|(n, _)| n == name).unwrap().1
    }

    #[test]
    fn members_carry_their_class_through_the_reduction() {
        let space = CensusSpace::parse(&["sub{a,b}".to_string()], &[], "1 <= a < b <= 8").unwrap();
        let classes = space.classes().unwrap();
        let budget = CensusBudget {
            start: 256,
            max: 4096,
            seconds: None,
        };
        let rows = census(&classes, &budget, &Budget::new(1 << 30), &Silent, &|_| {}).unwrap();
        let part = CensusPart {
            id: "id".into(),
            classes: classes.len() as u64,
            timed: false,
            rows,
        };
        let cols = member_columns(&space, &classes, &part).unwrap();
        let CensusColumn::U64(item) = column(&cols, "item") else {
            panic!()
        };
        assert_eq!(item, &(0..28).map(Some).collect::<Vec<_>>());
        let (CensusColumn::U64(a), CensusColumn::U64(b)) = (column(&cols, "a"), column(&cols, "b"))
        else {
            panic!()
        };
        let (CensusColumn::U64(pre), CensusColumn::U64(per)) =
            (column(&cols, "preperiod"), column(&cols, "period"))
        else {
            panic!()
        };
        let CensusColumn::Str(games) = column(&cols, "game") else {
            panic!()
        };
        // every member's period and preperiod are those of its own Grundy values
        for i in 0..28 {
            let (a, b) = (a[i].unwrap(), b[i].unwrap());
            assert_eq!(
                games[i].as_deref(),
                Some(format!("sub{{{a},{b}}}").as_str())
            );
            // the Grundy values by the definition (mex of the options)
            let mut v: Vec<u64> = vec![];
            for n in 0..2000u64 {
                let opts: Vec<u64> = [a, b]
                    .iter()
                    .filter(|&&s| s <= n)
                    .map(|&s| v[(n - s) as usize])
                    .collect();
                v.push((0..).find(|x| !opts.contains(x)).unwrap());
            }
            let (p, q) = (pre[i].unwrap() as usize, per[i].unwrap() as usize);
            assert!((p..v.len() - q).all(|n| v[n] == v[n + q]), "sub{{{a},{b}}}");
            assert!(p == 0 || v[p - 1] != v[p - 1 + q], "sub{{{a},{b}}}");
            assert!(
                (1..q).all(|d| (p..v.len() - d).any(|n| v[n] != v[n + d])),
                "sub{{{a},{b}}}"
            );
        }
        let CensusColumn::Str(red) = column(&cols, "reduction") else {
            panic!()
        };
        let i = games
            .iter()
            .position(|g| g.as_deref() == Some("sub{2,4}"))
            .unwrap();
        assert_eq!(red[i].as_deref(), Some("scale 2"));
    }
}
