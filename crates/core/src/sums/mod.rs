//! Sums of heaps: several heaps, each of its own game, played together (a move is a move
//! in one heap). By the Sprague–Grundy theorem a sum is a P-position exactly when the XOR
//! of its heaps' Grundy values is 0 (Sprague 1935, Grundy 1939; Winning Ways, ch. 3).
//!
//! - [`Sum::parse`] reads `squares:5 + 0.77:12 + sub{1,2}:7` (each term a game spec, a colon
//!   and a heap size, terms joined by `+`); [`decide_sum`] gives every heap's Grundy value,
//!   the sum's, the outcome and one winning move.
//! - [`count_sums`] counts the k-heap positions of one game with heaps in a range whose
//!   XOR is 0: from the histogram of Grundy values, by a Walsh–Hadamard transform for
//!   ordered heaps and by the cycle index of the symmetric group (Pólya) for multisets.
//!
//! Each heap's Grundy value comes from the family's fastest path ([`grundy_value`]): a
//! closed form (`divisors`: the 2-adic valuation v2(n); `upto{k}`: n mod (k + 1); `nim`:
//! n), a proven period (finite subtraction sets, octal codes by Guy–Smith), or a table up to
//! the heap within the budget.

pub(crate) mod count;
pub(crate) mod sum;

use crate::budget::Budget;
use crate::error::Error;
use crate::game::Game;
use crate::game::Play;
use crate::games::interval::half_option;
use crate::known::{options_of_value, splits_cut, values_upto, Move, Values};
use crate::moves::{Moves, Structure};
use crate::observe::Observer;
use crate::sums::sum::{HeapValue, Sum, SumDecision, SumMove, SumMoves};

/// The Grundy value of a heap of `n` of `game`, by the fastest known path.
///
/// # Errors
/// [`crate::Refusal::TooFar`] (as [`Error::Refused`]) when only a table up to n would tell and
/// the budget does not allow it; [`Error::Cancelled`] when `obs` stops a table.
pub fn grundy_value(
    game: &Game,
    n: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<HeapValue, Error> {
    let game = &*game.normalized();
    let v = values_upto(game, n, budget, obs)?;
    Ok(HeapValue {
        game: game.to_string(),
        n,
        grundy: Some(v.at(n)),
        method: v.method(),
    })
}

/// Decides a sum: every heap's Grundy value (by [`grundy_value`]), their XOR, the outcome,
/// and one winning move — in a heap whose value v has v ^ X < v (X the XOR), to an option
/// of value v ^ X. A sum of one heap is decided as that heap ([`crate::decide()`]), so it
/// answers wherever a single heap does, even without its Grundy value.
///
/// # Errors
/// As [`grundy_value`] for each heap; [`crate::decide()`] for one heap.
pub fn decide_sum(sum: &Sum, budget: &Budget, obs: &dyn Observer) -> Result<SumDecision, Error> {
    Ok(sum_winning_moves(sum, 1, budget, obs)?.decision)
}

/// Decides a sum as [`decide_sum`] does and lists its winning moves, at most `limit` (0 is
/// taken as 1): in every heap whose value v has v ^ X < v, the moves to an option of value
/// v ^ X. A sum of one heap lists the heap's winning moves ([`crate::winning_moves`]).
///
/// # Errors
/// As [`decide_sum`].
pub fn sum_winning_moves(
    sum: &Sum,
    limit: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<SumMoves, Error> {
    let limit = limit.max(1);
    if sum.heaps.len() > 1 && sum.heaps.iter().any(|(g, _)| g.play() == Play::Misere) {
        return Err(Error::Unsupported {
            what: "a misère sum is not decided by Grundy values: see \
                   heaplab_core::misere::misere_sum"
                .into(),
        });
    }
    if let [(game, n)] = &sum.heaps[..] {
        let w = crate::decide::winning_moves(game, *n, limit, budget, obs)?;
        let d = w.decision;
        let value = d.grundy;
        let moves: Vec<SumMove> = w
            .moves
            .into_iter()
            .map(|m| SumMove {
                heap: 0,
                result: m.leaves.iter().map(|&h| (game.to_string(), h)).collect(),
                step: m,
            })
            .collect();
        return Ok(SumMoves {
            decision: SumDecision {
                heaps: vec![HeapValue {
                    game: game.to_string(),
                    n: *n,
                    grundy: value,
                    method: d.method,
                }],
                grundy: value,
                win: d.win,
                winning_move: moves.first().cloned(),
            },
            moves,
            complete: w.complete,
            note: w.note,
        });
    }
    // one set of values per game, up to its largest heap
    let games: Vec<Game> = sum
        .heaps
        .iter()
        .map(|(g, _)| g.normalized().into_owned())
        .collect();
    let mut distinct: Vec<(&Game, u64)> = vec![];
    for (g, (_, n)) in games.iter().zip(&sum.heaps) {
        match distinct.iter_mut().find(|(d, _)| *d == g) {
            Some((_, top)) => *top = (*top).max(*n),
            None => distinct.push((g, *n)),
        }
    }
    let structures: Vec<Structure> = games.iter().map(Game::structure).collect();
    let mut known = Vec::with_capacity(distinct.len());
    for &(g, top) in &distinct {
        known.push(values_upto(g, top, budget, obs)?);
    }
    let values: Vec<&Values> = games
        .iter()
        .map(|g| &known[distinct.iter().position(|(d, _)| *d == g).expect("listed")])
        .collect();
    let heaps: Vec<HeapValue> = games
        .iter()
        .zip(&sum.heaps)
        .zip(&values)
        .map(|((g, (_, n)), v)| HeapValue {
            game: g.to_string(),
            n: *n,
            grundy: Some(v.at(*n)),
            method: v.method(),
        })
        .collect();
    let value = |h: &HeapValue| h.grundy.expect("every heap of a sum has its value");
    let x = heaps.iter().fold(0, |a, h| a ^ value(h));
    let (mut moves, mut complete) = (vec![], true);
    if x != 0 {
        for (i, h) in heaps.iter().enumerate() {
            let target = value(h) ^ x;
            // one move is always found in a heap whose value drops; listing every move
            // also takes the moves that raise a heap's value to the target
            if target > value(h) && limit == 1 {
                continue;
            }
            if moves.len() == limit {
                complete = false;
                break;
            }
            let (steps, all) = moves_to(
                &structures[i].moves,
                h.n,
                value(h),
                target,
                values[i],
                limit - moves.len(),
            );
            complete &= all;
            for step in steps {
                let mut result: Vec<(String, u64)> = vec![];
                for (j, hv) in heaps.iter().enumerate() {
                    if j == i {
                        result.extend(step.leaves.iter().map(|&l| (hv.game.clone(), l)));
                    } else {
                        result.push((hv.game.clone(), hv.n));
                    }
                }
                moves.push(SumMove {
                    heap: i,
                    step,
                    result,
                });
            }
        }
    }
    Ok(SumMoves {
        decision: SumDecision {
            heaps,
            grundy: Some(x),
            win: x != 0,
            winning_move: moves.first().cloned(),
        },
        moves,
        complete,
        note: None,
    })
}

/// Candidate moves a scan looks at, per heap, before it gives up listing more.
const SCAN_MAX: u64 = 10_000_000;

/// Moves from a heap of `n` (value `g`) of `game` to an option of value `target` (one
/// exists when target < g, by the definition of g as a mex; `limit` 1 asks only that
/// case), at most `limit`, found by the family's
/// own means: the closed forms directly (the one move when the values increase with n),
/// finite sets and tables through the moves in increasing order, take-and-break codes
/// through their options (splits a + b with a at most n0 + 2p for a proven period, which
/// covers every pair of residues). The flag says whether the list is every such move
/// (false when the limit, the first [`SCAN_MAX`] candidates or the n0 + 2p bound cut it).
fn moves_to(
    moves: &Moves,
    n: u64,
    g: u64,
    target: u64,
    values: &Values,
    limit: usize,
) -> (Vec<Move>, bool) {
    let take = |s: u64| Move::take(n, s);
    // half: one option of the target value found directly, wherever it is
    let direct = match values {
        Values::Half => n
            .checked_sub(1)
            .and_then(|hi| half_option(n.div_ceil(2), hi, target))
            .map(|m| n - m),
        _ => None,
    };
    let top = match moves {
        Moves::Finite { leave1: true, .. }
        | Moves::Set { leave1: true, .. }
        | Moves::AllBut { leave1: true, .. } => n.saturating_sub(1),
        Moves::Interval(r) if r.bounds.iter().all(|(_, l)| *l) => n.saturating_sub(1),
        _ => n,
    };
    match values {
        // values increase with n: only a smaller value is reached, by one move
        Values::Nim { .. } => {
            let s = g.checked_sub(target).filter(|&s| s >= 1);
            return (s.map(take).into_iter().collect(), true);
        }
        // the k options n - 1, …, n - k hold k different residues mod k + 1: one move
        // reaches each value other than g (when n leaves room for it)
        Values::Mod { m, .. } => {
            let s = (g % m + m - target % m) % m;
            let ok = s >= 1 && s <= top && values.at(n - s) == target;
            return (ok.then(|| take(s)).into_iter().collect(), true);
        }
        // 2^target divides n (target < v2(n)), and n - 2^target has valuation target
        Values::V2 if limit == 1 => return (vec![take(1 << target)], false),
        Values::Half if limit == 1 => return (direct.map(take).into_iter().collect(), false),
        Values::V2 | Values::Half | Values::Periodic(_) | Values::Table(_) => {}
    }
    if matches!(moves, Moves::Split(_) | Moves::Options(_)) {
        let a_max = match values {
            Values::Periodic(p) => p.period.preperiod + 2 * p.period.period,
            _ => u64::MAX,
        };
        // one more than asked, so a full list can be told from a cut one
        let mut found = options_of_value(moves, n, a_max, limit + 1, |h| values.at(h), target);
        let complete = found.len() <= limit && !splits_cut(n, a_max);
        found.truncate(limit);
        return (found, complete);
    }
    let leaves_value = |s: &u64| values.at(n - s) == target;
    let candidates: Box<dyn Iterator<Item = u64>> = match moves {
        Moves::AllBut { excluded, .. } => {
            Box::new((1..=top).filter(move |s| excluded.binary_search(s).is_err()))
        }
        Moves::Finite { moves, .. } => {
            Box::new(moves.iter().copied().take_while(move |&s| s <= top))
        }
        Moves::Set { set, .. } => Box::new(set.elements_upto(top).into_iter()),
        // (lazily: an interval of a huge heap is huge)
        Moves::Interval(r) => Box::new((1..=r.reach(n)).chain(r.extra_beyond(n))),
        m
        @ (Moves::Divisors { .. } | Moves::Listed(_) | Moves::Union(_) | Moves::Seeded { .. }) => {
            Box::new(m.amounts_of(n).into_iter())
        }
        Moves::Split(_) | Moves::Options(_) => Box::new(std::iter::empty()),
    };
    let (mut found, mut scanned) = (vec![], 0u64);
    let mut complete = true;
    found.extend(direct.map(take));
    for s in candidates.filter(|&s| Some(s) != direct) {
        scanned += 1;
        if scanned > SCAN_MAX || found.len() == limit {
            complete = false;
            break;
        }
        if leaves_value(&s) {
            found.push(take(s));
        }
    }
    (found, complete)
}

#[cfg(test)]
mod tests {
    /// Permutations of k items by (odd cycles, even cycles), one partition at a time.
    fn cycle_parities_by_partitions(k: usize) -> Vec<Vec<BigInt>> {
        fn parts(k: usize, most: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if k == 0 {
                out.push(cur.clone());
            }
            for j in (1..=most.min(k)).rev() {
                cur.push(j);
                parts(k - j, j, cur, out);
                cur.pop();
            }
        }
        let fact = |n: usize| -> BigInt { (1..=n as u64).map(BigInt::from).product() };
        let mut all = vec![];
        parts(k, k, &mut vec![], &mut all);
        let mut w = vec![vec![BigInt::from(0); k / 2 + 1]; k + 1];
        for p in all {
            // k!/z_λ with z_λ = Π_j j^{m_j} m_j!
            let mut z = BigInt::from(1);
            for len in 1..=k {
                let m = p.iter().filter(|&&x| x == len).count();
                z *= BigInt::from(len as u64).pow(m as u32) * fact(m);
            }
            let odd = p.iter().filter(|&&j| j % 2 == 1).count();
            w[odd][p.len() - odd] += fact(k) / z;
        }
        w
    }

    #[test]
    fn cycle_index_by_recurrence_is_by_partitions() {
        for k in 0..=12 {
            let w = cycle_parities(k);
            assert_eq!(w, cycle_parities_by_partitions(k), "k = {k}");
            let total: BigInt = w.iter().flatten().sum();
            assert_eq!(total, (1..=k as u64).map(BigInt::from).product::<BigInt>());
        }
        // S_3: the identity (3 odd cycles), 3 transpositions (1 odd + 1 even), 2 3-cycles
        let w = cycle_parities(3);
        assert_eq!(
            (&w[3][0], &w[1][1], &w[1][0]),
            (&BigInt::from(1), &BigInt::from(3), &BigInt::from(2))
        );
    }

    use super::*;
    use crate::decide::decide;
    use crate::observe::Silent;
    use crate::rule::grundy_by_definition;
    use crate::sums::count::{count_sums, cycle_parities, SumCount};
    use num_bigint::{BigInt, BigUint};

    fn b() -> Budget {
        Budget::new(1 << 30)
    }

    fn count(spec: &str, k: u32, min: u64, max: u64, sorted: bool) -> SumCount {
        count_sums(
            &Game::parse(spec).unwrap(),
            k,
            min,
            max,
            sorted,
            &b(),
            &Silent,
        )
        .unwrap()
    }

    /// The counts by enumerating every tuple (or multiset) of heaps.
    fn brute(spec: &str, k: u32, min: u64, max: u64, sorted: bool) -> (u64, u64) {
        let g = grundy_by_definition(&Game::parse(spec).unwrap(), max);
        let (mut total, mut p) = (0, 0);
        let mut t = vec![min; k as usize];
        loop {
            if !sorted || t.windows(2).all(|w| w[0] <= w[1]) {
                total += 1;
                if t.iter().fold(0, |a, &h| a ^ g[h as usize]) == 0 {
                    p += 1;
                }
            }
            // next tuple
            let mut i = 0;
            loop {
                if i == t.len() {
                    return (total, p);
                }
                if t[i] < max {
                    t[i] += 1;
                    break;
                }
                t[i] = min;
                i += 1;
            }
        }
    }

    #[test]
    fn project_euler_310_and_306() {
        // PE 310 (Nim Square): 1160 losing triples 0 <= a <= b <= c <= 29
        let c = count("squares", 3, 0, 29, true);
        assert_eq!(c.p_positions, BigUint::from(1160u32));
        // PE 306 (the paper-strip game, Dawson's Kayles 0.07): the first player wins 3 of
        // the strips 1..=5 and 40 of 1..=50
        assert_eq!(
            count("0.07", 1, 1, 5, false).n_positions,
            BigUint::from(3u32)
        );
        assert_eq!(
            count("0.07", 1, 1, 50, false).n_positions,
            BigUint::from(40u32)
        );
        // one heap: its P-positions by the sieve, no Grundy table (A030193: 26 in 10..=147)
        let c = count("squares", 1, 10, 147, false);
        assert_eq!(c.p_positions, BigUint::from(26u32));
        assert!(c.method.contains("sieve") && c.max_grundy.is_none());
    }

    #[test]
    fn counts_equal_enumeration() {
        for spec in [
            "squares",
            "sub{1,3,4}",
            "0.77",
            "0.07",
            "divisors",
            "upto{3}",
            "leave1(upto{2})",
            "nim",
            "sqrt",
            "half",
            "leave1(half)",
            "leave1(primes|sub{1})",
        ] {
            for k in 1..=4 {
                for (min, max) in [(0, 9), (1, 12), (3, 7)] {
                    for sorted in [false, true] {
                        let c = count(spec, k, min, max, sorted);
                        let (total, p) = brute(spec, k, min, max, sorted);
                        assert_eq!(c.total, BigUint::from(total), "{spec} {k} {min} {max}");
                        assert_eq!(
                            c.p_positions,
                            BigUint::from(p),
                            "{spec} {k} {min}..{max} {sorted}"
                        );
                        assert_eq!(c.n_positions, BigUint::from(total - p));
                    }
                }
            }
        }
    }

    #[test]
    fn huge_ranges_from_closed_forms_and_periods() {
        // divisors: g = v2(n); a closed-form histogram to 10^14 (and to 200 it equals the
        // table's)
        let t = std::time::Instant::now();
        let c = count("divisors", 3, 1, 100_000_000_000_000, true);
        assert!(t.elapsed().as_secs() < 5);
        assert!(c.p_positions > BigUint::from(0u32) && c.p_positions < c.total);
        let (total, p) = brute("divisors", 3, 1, 200, true);
        let c = count("divisors", 3, 1, 200, true);
        assert_eq!(
            (c.total, c.p_positions),
            (BigUint::from(total), BigUint::from(p))
        );
        // sub{1,2,3}: g = n mod 4, so pairs (a, b) in 0..=N lose when a ≡ b (mod 4)
        let n = 1_000_000_000_000_000_000u64;
        let c = count("sub{1,2,3}", 2, 0, n, false);
        let per = BigUint::from(n / 4 + 1);
        let rest = BigUint::from(n / 4);
        let want = &per * &per + 3u32 * &rest * &rest;
        assert_eq!(c.p_positions, want);
        // counts past 2^64 are exact
        assert!(c.total > BigUint::from(u64::MAX));
        // Kayles: a proven period, huge N at once
        let c = count("0.77", 2, 0, 1_000_000_000_000, false);
        assert!(c.p_positions > BigUint::from(0u32));
        // the widest range: 2^64 - 1 sizes of upto{0} (no moves), every pair lost
        let c = count("upto{0}", 2, 1, u64::MAX, false);
        assert_eq!(c.p_positions, BigUint::from(u64::MAX).pow(2));
        let c = count("upto{1}", 1, 1, u64::MAX, false); // g = n mod 2: the even heaps
        assert_eq!(c.p_positions, BigUint::from(u64::MAX / 2));
        // all 2^64 sizes: upto{0}'s one value has every heap (2^64 of them), so every pair
        // of the 2^128 is lost; Kayles' only lost heap is 0; divisors' are 0 and the odd
        // heaps; misère Kayles loses heaps 1, 4, 9, 12 and 20
        let all = count("upto{0}", 2, 0, u64::MAX, false);
        assert_eq!(all.total, BigUint::from(1u32) << 128);
        assert_eq!(all.p_positions, all.total);
        let one = |spec: &str| count(spec, 1, 0, u64::MAX, false);
        assert_eq!(one("0.77").p_positions, BigUint::from(1u32));
        assert_eq!(one("divisors").p_positions, BigUint::from((1u64 << 63) + 1));
        let mis = one("misere(0.77)");
        assert_eq!(mis.p_positions, BigUint::from(5u32));
        assert_eq!(mis.total, BigUint::from(1u32) << 64);
        // an empty range counts nothing
        let none = count("squares", 3, 7, 5, true);
        assert_eq!(
            (none.total, none.p_positions),
            (BigUint::from(0u32), BigUint::from(0u32))
        );
    }

    #[test]
    fn sums_are_decided_and_their_winning_moves_win() {
        let b = b();
        let specs = [
            "squares",
            "0.77",
            "sub{1,2}",
            "divisors",
            "upto{3}",
            "grundy-game",
            "nim",
            "0.137",
            "half",
        ];
        let tables: Vec<Vec<u32>> = specs
            .iter()
            .map(|s| grundy_by_definition(&Game::parse(s).unwrap(), 200))
            .collect();
        let mut next = crate::num::xorshift(77);
        for _ in 0..300 {
            let k = 2 + (next() % 3) as usize;
            let heaps: Vec<(usize, u64)> = (0..k)
                .map(|_| ((next() % specs.len() as u64) as usize, next() % 201))
                .collect();
            let sum = Sum {
                heaps: heaps
                    .iter()
                    .map(|&(i, n)| (Game::parse(specs[i]).unwrap(), n))
                    .collect(),
            };
            let d = decide_sum(&sum, &b, &Silent).unwrap();
            let x = heaps
                .iter()
                .fold(0u64, |a, &(i, n)| a ^ u64::from(tables[i][n as usize]));
            assert_eq!((d.grundy, d.win), (Some(x), x != 0), "{sum}");
            match &d.winning_move {
                None => assert!(!d.win, "{sum}: no move"),
                Some(m) => {
                    // the position it leaves has XOR 0
                    let after = m.result.iter().fold(0u64, |a, (g, n)| {
                        let i = specs
                            .iter()
                            .position(|s| Game::parse(s).unwrap().to_string() == *g)
                            .unwrap();
                        a ^ u64::from(tables[i][*n as usize])
                    });
                    assert_eq!(after, 0, "{sum}: {:?}", m);
                    let (g, n) = &sum.heaps[m.heap];
                    assert_eq!(n - m.step.removed, m.step.leaves.iter().sum::<u64>(), "{g}");
                }
            }
        }
        // one heap: as decide
        for (spec, n) in [
            ("squares", 1000u64),
            ("0.77", 1_000_000_000_000_000_000),
            ("sqrt", 1_000_000_000_000_000_000),
        ] {
            let g = Game::parse(spec).unwrap();
            let one = decide_sum(&Sum::of_heaps(&g, &[n]), &b, &Silent).unwrap();
            let d = decide(&g, n, &b, &Silent).unwrap();
            assert_eq!(one.win, d.win);
            assert_eq!(one.winning_move.map(|m| m.step), d.winning_move);
        }
        // far heaps by closed forms and periods
        let s = Sum::parse(
            "divisors:1000000000000000000 + upto{5}:999999999999999999 + 0.77:123456789012345",
        )
        .unwrap();
        let d = decide_sum(&s, &b, &Silent).unwrap();
        assert_eq!(d.heaps[0].grundy, Some(18)); // v2(10^18)
        assert_eq!(d.heaps[1].grundy, Some(999_999_999_999_999_999 % 6));
        assert!(d.win == (d.grundy != Some(0)));
    }

    #[test]
    fn half_by_its_closed_form() {
        let g = grundy_by_definition(&Game::parse("half").unwrap(), 3000);
        for n in 0..=3000u64 {
            assert_eq!(Values::Half.at(n), u64::from(g[n as usize]), "n = {n}");
            // every smaller value among the options ceil(n/2)..n - 1
            for t in 0..Values::Half.at(n) {
                let m = half_option(n.div_ceil(2), n - 1, t).unwrap();
                assert!(
                    (n.div_ceil(2)..n).contains(&m) && g[m as usize] as u64 == t,
                    "{n} {t}"
                );
            }
        }
        // far heaps: 2^64 - 1 (all ones) has value 0, 2^63 has 2^62
        assert_eq!(Values::Half.at(u64::MAX), 0);
        assert_eq!(Values::Half.at(1 << 63), 1 << 62);
        let n = 1_000_000_000_000_000_000u64;
        for t in [0, 1, 12345, Values::Half.at(n) - 1] {
            let m = half_option(n.div_ceil(2), n - 1, t).unwrap();
            assert!((n.div_ceil(2)..n).contains(&m) && Values::Half.at(m) == t);
        }
    }

    #[test]
    fn sums_parse_or_name_the_bad_term() {
        let s = Sum::parse(" squares:5 + 0.77:12+ sub{1,2}:7 ").unwrap();
        assert_eq!(s.to_string(), "squares:5 + 0.77:12 + sub{1,2}:7");
        let s = Sum::parse("leave1(primes|sub{1}):1e6").unwrap();
        assert_eq!(s.heaps[0].1, 1_000_000);
        for (bad, says) in [
            ("", "empty"),
            (" + ", "empty"),
            ("squares:5 +", "term 2 (``) has no heap"),
            ("squares", "no heap"),
            ("squares:x", "term 1: the heap"),
            ("squares:5 + foo:3", "term 2: invalid game spec"),
            ("squares:5:6", "more than one `:HEAP`"),
            ("squares:", "term 1 (`squares:`) has no heap"),
        ] {
            let e = Sum::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn every_winning_move_of_small_sums_is_listed() {
        use crate::rule::Rule;
        let specs = [
            "squares",
            "0.77",
            "sub{1,2}",
            "divisors",
            "half",
            "nim",
            "upto{3}",
            "leave1(upto{4})",
            "leave1(nim)",
        ];
        let games: Vec<Game> = specs.iter().map(|s| Game::parse(s).unwrap()).collect();
        let gv: Vec<Vec<u32>> = games.iter().map(|g| grundy_by_definition(g, 12)).collect();
        let mut rnd = crate::num::xorshift(99);
        for _ in 0..300 {
            let k = 2 + (rnd() % 2) as usize;
            let heaps: Vec<(usize, u64)> = (0..k)
                .map(|_| ((rnd() % specs.len() as u64) as usize, rnd() % 13))
                .collect();
            let text: Vec<String> = heaps
                .iter()
                .map(|&(i, n)| format!("{}:{n}", specs[i]))
                .collect();
            let sum = Sum::parse(&text.join(" + ")).unwrap();
            let x = heaps.iter().fold(0, |a, &(i, n)| a ^ gv[i][n as usize]);
            let mut want = vec![];
            for (j, &(i, n)) in heaps.iter().enumerate() {
                games[i].for_each_option(n, &mut |hs| {
                    let v = hs.iter().fold(0, |a, &h| a ^ gv[i][h as usize]);
                    if x ^ gv[i][n as usize] ^ v == 0 {
                        let mut hs = hs.to_vec();
                        hs.retain(|&h| h > 0);
                        hs.sort_unstable();
                        want.push((j, hs));
                    }
                });
            }
            want.sort();
            want.dedup();
            let w = sum_winning_moves(&sum, 10_000, &Budget::new(1 << 30), &Silent).unwrap();
            let mut got: Vec<(usize, Vec<u64>)> = w
                .moves
                .iter()
                .map(|m| (m.heap, m.step.leaves.clone()))
                .collect();
            got.sort();
            assert_eq!(got, want, "{sum}");
            assert_eq!(w.decision.win, x != 0, "{sum}");
        }
    }

    #[test]
    fn extreme_heaps_of_closed_forms() {
        let b = Budget::new(1 << 30);
        // upto{2^64 - 1} is nim: g(2^64 - 1) = 2^64 - 1 (k + 1 would wrap to 0)
        let m = u64::MAX;
        let g = Game::parse(&format!("upto{{{m}}}")).unwrap();
        assert_eq!(grundy_value(&g, m, &b, &Silent).unwrap().grundy, Some(m));
        let s = Sum::parse(&format!("upto{{{m}}}:{m} + nim:{m}")).unwrap();
        assert!(!decide_sum(&s, &b, &Silent).unwrap().win);
        // a half heap of 0 has no move; the move in the other heap is found directly
        let s = Sum::parse("half:0 + half:1000000000000000000").unwrap();
        let w = sum_winning_moves(&s, 100, &b, &Silent).unwrap();
        assert!(w.decision.win && !w.moves.is_empty());
        assert!(w.moves.iter().all(|m| m.heap == 1));
    }
}
