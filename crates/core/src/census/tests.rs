//! The census's tests: spaces enumerated in the documented order, bad spaces named, reductions that reproduce the values, published first cousins.

use super::*;
use crate::games::finite::gcd;
use crate::sets::MoveSet;
use crate::{grundy_by_definition, grundy_table, Silent};
use proptest::prelude::*;

fn space(games: &[&str], params: &[&str], w: &str) -> Result<CensusSpace, CensusError> {
    let g: Vec<String> = games.iter().map(|s| s.to_string()).collect();
    let p: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    CensusSpace::parse(&g, &p, w)
}

fn specs(s: &CensusSpace) -> Vec<String> {
    s.items().unwrap().into_iter().map(|i| i.spec).collect()
}

fn values(spec: &str, max: u64) -> Vec<u32> {
    grundy_table(&Game::parse(spec).unwrap(), max, &Silent)
        .unwrap()
        .to_u32_vec()
}

#[test]
fn spaces_enumerate_in_the_documented_order() {
    let s = space(&["sub{a,b,c}"], &[], "1 <= a < b < c <= 20").unwrap();
    let all = specs(&s);
    assert_eq!(all.len(), 1140); // C(20, 3)
    assert_eq!(&all[..3], ["sub{1,2,3}", "sub{1,2,4}", "sub{1,2,5}"]);
    assert_eq!(all.last().unwrap(), "sub{18,19,20}");
    // parameters in order of appearance, not of the constraints
    let s = space(&["sub{b,a}"], &["a=1..2"], "1 <= b <= 2, a != b").unwrap();
    assert_eq!(specs(&s), ["sub{1,2}", "sub{2,1}"]);
    // linear forms, explicit values, `and`
    let s = space(
        &["sub{1,a,b}"],
        &["a=2,3"],
        "a < b and a + b <= 7, 2*a != b",
    )
    .unwrap();
    assert_eq!(
        specs(&s),
        ["sub{1,2,3}", "sub{1,2,5}", "sub{1,3,4}"] // (2,4): 2a = b
    );
    // octal patterns: 0-7 after the point, 0 or 4 before it
    let s = space(&["0.???"], &[], "").unwrap();
    let all = specs(&s);
    assert_eq!(
        (all.len(), &all[1][..], &all[511][..]),
        (512, "0.001", "0.777")
    );
    let s = space(&["?.???"], &[], "").unwrap();
    assert_eq!(s.items().unwrap().len(), 1024);
    let s = space(&["0.??", "4.?"], &[], "").unwrap();
    let all = specs(&s);
    assert_eq!((all.len(), &all[64][..], &all[71][..]), (72, "4.0", "4.7"));
    assert!(s.describe().contains("0.?? ; 4.?"));
    // a parameter next to a `?`
    let s = space(&["0.?a"], &[], "1 <= a <= 3").unwrap();
    let all = specs(&s);
    assert_eq!(
        (all.len(), &all[..3]),
        (24, &["0.01".to_string(), "0.02".into(), "0.03".into()][..])
    );
    // spaces and `and` do not change the space's identity
    let a = space(&["sub{1,a}"], &[], "1<a and a<=9").unwrap();
    let b = space(&["sub{1,a}"], &[], " 1 < a, a <= 9 ").unwrap();
    assert_eq!(a.describe(), b.describe());
    assert_eq!(
        specs(&space(&["sub{a}"], &[], "1 <= a <= 1_000").unwrap()).len(),
        1000
    );
}

#[test]
fn bad_spaces_name_the_problem() {
    for (games, params, w, says) in [
        (
            &["sub{a,b}"][..],
            &[][..],
            "1 <= a < b",
            "`a` has no upper bound",
        ),
        (&["sub{a}"], &[], "a <= 1e9", "takes 1000000001 values"),
        (&["sub{a}"], &[], "a < 5, b < 3", "`b` is not in any game"),
        (&["sub{a}"], &["a"], "", "must look like"),
        (&["sub{a}"], &[], "a ! 3", "unexpected `!`"),
        (&["sub{a}"], &[], "a < 3 +", "sums of terms"),
        (&["sub{a}"], &[], "a", "compares nothing"),
        (&["sub{a}"], &[], "1 <= a <= 3 ; ", "unexpected `;`"),
        (
            &["sub{a}", "sub{b}"],
            &[],
            "a < b <= 4, 1 <= a",
            "which `sub{a}` does not",
        ),
        (&[], &[], "", "at least one"),
        (&["sub{1?}"], &[], "", "`?` stands for an octal digit"),
        (&["rule{k <= ?}"], &[], "", "`?` stands for an octal digit"),
        (&["sub{a}"], &["a=1..2", "a=3..4"], "", "`a` is given twice"),
    ] {
        let e = space(games, params, w)
            .and_then(|s| s.items())
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{games:?} {w}: {e}");
    }
    let e = space(&["sub{a}"], &[], "a <= 3").unwrap().classes();
    let e = e.unwrap_err().to_string();
    assert!(e.contains("item 0 (`sub{0}`)"), "{e}");
    assert!(
        e.contains("parameter `a` has no lower bound and starts at 0"),
        "{e}"
    );
    let e = space(&["sub{1,2,k}"], &[], "")
        .unwrap()
        .classes()
        .unwrap_err();
    assert!(
        e.to_string().contains("`sub{1,2,k}` has no parameters"),
        "{e}"
    );
    let e = space(
        &["sub{a,b,c,d,e,f}"],
        &[],
        "1<=a<=99,1<=b<=99,1<=c<=99,1<=d<=99,1<=e<=99,1<=f<=99",
    )
    .unwrap()
    .items()
    .unwrap_err();
    assert_eq!(e, CensusError::TooLarge);
    // an empty range is an empty list of items, and no classes to run
    assert!(space(&["sub{a}"], &[], "3 <= a <= 2")
        .unwrap()
        .items()
        .unwrap()
        .is_empty());
    let e = space(&["sub{a}"], &[], "3 <= a <= 2")
        .unwrap()
        .classes()
        .unwrap_err();
    assert_eq!(e, CensusError::Empty);
    let e = space(&["0.a"], &[], "9 <= a <= 11")
        .unwrap()
        .items()
        .unwrap_err();
    assert!(e.to_string().contains("`a` = 10 in the code `0.a`"), "{e}");
}

#[test]
fn first_cousins_are_the_published_ones() {
    // Winning Ways ch. 4 and OEIS A002187 (.07 is .137 shifted by one), A071452
    // (.0177 shifted from .11377; .045 and .047 by two)
    for (code, rep, shift) in [
        ("0.07", "0.137", 1),
        ("0.0177", "0.11377", 1),
        ("0.045", "0.11377", 2),
        ("0.047", "0.11377", 2),
        ("0.057", "0.1177", 1),
        ("0.055", "0.1177", 1),
        ("0.77", "0.77", 0),
        ("0.0", "0.0", 0),
        ("4.07", "0.737", 1),
    ] {
        let (r, red) = canonical(&Game::parse(code).unwrap());
        assert_eq!(
            (r.to_string(), red.shift),
            (rep.to_string(), shift),
            "{code}"
        );
    }
    // and they have the values: G_code(n + shift) = G_rep(n)
    for code in [
        "0.07", "0.045", "0.057", "0.055", "4.0", "4.01", "4.05", "0.0401",
    ] {
        let (r, red) = canonical(&Game::parse(code).unwrap());
        let rep = values(&r.to_string(), 400);
        assert_eq!(red.item_values(&rep, 400), values(code, 400), "{code}");
    }
}

#[test]
fn subtraction_sets_reduce_by_proven_steps() {
    for (set, rep, red) in [
        ("sub{2,4,6}", "sub{1,2,3}", "scale 2"),
        ("sub{1,2,4}", "sub{1,2}", "less {4}"),
        ("sub{2,4,8}", "sub{1,2}", "less {8}, scale 2"),
        ("sub{1,3,4}", "sub{1,3,4}", "itself"),
        ("sub{3}", "sub{1}", "scale 3"),
    ] {
        let (r, d) = canonical(&Game::parse(set).unwrap());
        assert_eq!(
            (r.to_string(), d.to_string()),
            (rep.to_string(), red.to_string())
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Every reduction reproduces the item's values from the representative's, against
    /// the definition (sets) or the engine (octal codes with first digit 0).
    #[test]
    fn reductions_reproduce_the_values(
        set in proptest::collection::btree_set(1u64..=14, 1..=4),
        digits in proptest::collection::vec(0u8..8, 1..4),
        four in any::<bool>(),
    ) {
        let spec = format!(
            "sub{{{}}}",
            set.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        );
        let g = Game::parse(&spec).unwrap();
        let (r, red) = canonical(&g);
        let by_def = grundy_by_definition(&g, 300);
        let rep = grundy_by_definition(&r, 300);
        prop_assert_eq!(red.item_values(&rep, 300), by_def, "{} -> {} ({})", spec, r, red);
        let code = format!(
            "{}.0{}",
            if four { 4 } else { 0 },
            digits.iter().map(u8::to_string).collect::<String>()
        );
        let g = Game::parse(&code).unwrap();
        let (r, red) = canonical(&g);
        let rep = grundy_by_definition(&r, 120);
        let item = grundy_by_definition(&g, 120);
        prop_assert_eq!(red.item_values(&rep, 120), item, "{} -> {} ({})", code, r, red);
    }
}

#[test]
fn classes_group_members_in_item_order() {
    let s = space(&["sub{a,b,c}"], &[], "1 <= a < b < c <= 20").unwrap();
    let classes = s.classes().unwrap();
    let members: usize = classes.iter().map(|c| c.members.len()).sum();
    assert_eq!(members, 1140);
    // no representative keeps a common factor
    for c in &classes {
        if let Game::Subtraction { set, .. } = &c.representative {
            let MoveSet::Union { finite, .. } = set else {
                unreachable!()
            };
            assert_eq!(
                finite.iter().fold(0, |a, &b| gcd(a, b)),
                1,
                "{}",
                c.representative
            );
        }
    }
    let c = classes
        .iter()
        .find(|c| c.representative.to_string() == "sub{1,2,3}")
        .unwrap();
    assert!(
        c.member_list().starts_with("sub{1,2,3}; "),
        "{}",
        c.member_list()
    );
    assert!(c.member_list().contains("sub{2,4,6} (scale 2)"));
    let all: Vec<u64> = (1..=3)
        .flat_map(|i| shard(classes.clone(), i, 3).unwrap())
        .map(|c| c.index)
        .collect();
    assert_eq!(all.len(), classes.len());
    assert!(shard(classes, 4, 3).is_err());
}
