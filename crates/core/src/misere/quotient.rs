//! Misère quotients of take-and-break games: the Plambeck–Siegel monoid of the heaps
//! 0..=N, learned from exact outcomes and then proved.
//!
//! Let A be the positions made of heaps 0..=N of one rule (sums of heaps; the options of a
//! sum replace one heap by what a move on it leaves). Two positions G and H are
//! *indistinguishable* when G + X and H + X have the same misère outcome for every X in A.
//! The classes form a commutative monoid under +, the **misère quotient** Q, and the
//! classes of the misère P-positions are its **P-portion**; the map Φ from heap sizes to
//! Q (each heap's class) determines the outcome of every sum of heaps: a sum is a misère
//! P-position exactly when the product of its heaps' elements lies in the P-portion
//! (T. E. Plambeck, "Taming the wild in impartial combinatorial games", INTEGERS 5
//! (2005) #G05; T. E. Plambeck and A. N. Siegel, "Misère quotients for impartial games",
//! J. Combin. Theory Ser. A 115 (2008)).
//!
//! Because + is commutative, indistinguishability is the Nerode congruence of the set L
//! of P-positions in the free commutative monoid on the heaps, so Q is the state set of
//! the minimal automaton of L. [`misere_quotient`] learns that automaton in the manner of
//! Angluin's L* (D. Angluin, "Learning regular sets from queries and counterexamples",
//! Information and Computation 75 (1987); counterexamples split as in Rivest and
//! Schapire, 1993):
//!
//! 1. **Membership**: the exact misère outcome of any sum of heaps, from the heaps'
//!    canonical misère forms ([`super::canon`]).
//! 2. **Hypothesis**: representatives r (sums, starting with the empty sum) and tests e
//!    (sums); two sums are taken as equal while they agree on o(· + e) for every test.
//!    Every representative plus every heap is matched to a representative, or becomes one.
//! 3. **Proof** (the equivalence query, answered exactly rather than by sampling): the
//!    heaps' actions must commute and act as multiplication, and every sum x must obey
//!    the misère rule in the hypothesis — x's element is in the P-portion iff x has a
//!    move and no option's element is. An option of x replaces one heap h by a move's
//!    leftover t, so its element is Φ(x − h)·Φ(t): the rule at x depends only on Φ(x) and
//!    on Φ(x − h) for the kinds of heap h in x (heaps with the same element and the same
//!    option elements are one kind, and share Φ(x − h)). Those states are finitely many
//!    and are all visited from the empty sum, so the rule is checked for **every** sum.
//!    By induction on sums, the hypothesis then gives every sum's true outcome; its
//!    elements are pairwise distinguished by real tests, so it is the quotient itself.
//! 4. A failed check yields a sum whose outcome the hypothesis gets wrong; the walk along
//!    that sum finds a test telling apart two sums the hypothesis had merged, and the
//!    table is rebuilt with it. Each round adds an element, so the loop ends.

use super::canon::{misere_outcome_of_sum, take_break_misere, FormId, MisereForms};
use crate::{Breaker, Error, Observer};
use std::collections::HashMap;
use std::ops::ControlFlow;

/// Elements a quotient may have before [`misere_quotient`] gives up (each costs a row of
/// the multiplication table and of the test table).
pub const MAX_ORDER: usize = 4096;

/// States of the proof's walk ([`misere_quotient`], step 3) before it gives up.
pub const MAX_STATES: usize = 4_000_000;

/// The misère quotient of the heaps 0..=N of a take-and-break rule, proved (see the
/// module documentation). Element 0 is the identity (the class of the empty sum and of
/// every heap without a move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisereQuotient {
    /// Number of elements.
    order: usize,
    /// `mul[a * order + b]` = a·b.
    mul: Vec<u32>,
    /// `p[a]`: a is in the P-portion.
    p: Vec<bool>,
    /// `phi[n]`: the element of heap n, for n in 0..=N.
    phi: Vec<u32>,
    /// A sum of heaps (sizes, increasing) in each element's class: the first one found.
    words: Vec<Vec<u64>>,
}

impl MisereQuotient {
    /// Number of elements |Q|.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The largest heap N covered.
    pub fn max(&self) -> u64 {
        self.phi.len() as u64 - 1
    }

    /// a·b; panics when a or b is not an element (< [`MisereQuotient::order`]).
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        assert!((a as usize) < self.order && (b as usize) < self.order);
        self.mul[a as usize * self.order + b as usize]
    }

    /// Whether element a is in the P-portion (its sums are misère P-positions).
    pub fn is_p(&self, a: u32) -> bool {
        self.p[a as usize]
    }

    /// The P-portion, increasing.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order as u32)
            .filter(|&a| self.p[a as usize])
            .collect()
    }

    /// Φ: the element of each heap 0..=N.
    pub fn heap_elements(&self) -> &[u32] {
        &self.phi
    }

    /// A sum of heaps (sizes, increasing) whose class is element a.
    pub fn word(&self, a: u32) -> &[u64] {
        &self.words[a as usize]
    }

    /// The element of a sum of heaps (sizes at most N); None when a heap is beyond N.
    pub fn element_of(&self, heaps: &[u64]) -> Option<u32> {
        heaps.iter().try_fold(0u32, |acc, &h| {
            let e = *self.phi.get(usize::try_from(h).ok()?)?;
            Some(self.mul(acc, e))
        })
    }

    /// The misère outcome of a sum of heaps through the quotient: Some(true) for a
    /// misère P-position, None when a heap is beyond N.
    pub fn is_p_position(&self, heaps: &[u64]) -> Option<bool> {
        self.element_of(heaps).map(|a| self.is_p(a))
    }
}

/// Exact misère outcomes of sums of heaps, memoized: the membership oracle, from the
/// canonical misère form of the sum ([`super::canon::misere_outcome_of_sum`], whose sums
/// are memoized in the arena). (A search over the components' options, stopping at the
/// first P-position option, measured slower here: 49.5 s against 0.93 s for Kayles
/// heaps 0..=24.)
struct Oracle {
    forms: MisereForms,
    heap_form: Vec<FormId>,
    memo: HashMap<Vec<u64>, bool>,
}

impl Oracle {
    /// Whether the sum `w` (heap sizes, any order) is a misère P-position.
    fn is_p(&mut self, w: &[u64]) -> bool {
        let mut key: Vec<u64> = w.to_vec();
        key.sort_unstable();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let ids: Vec<FormId> = key.iter().map(|&h| self.heap_form[h as usize]).collect();
        let v = !misere_outcome_of_sum(&mut self.forms, &ids);
        self.memo.insert(key, v);
        v
    }
}

/// The learner's table (step 2 of the module documentation).
struct Table {
    /// Tests: sums of heaps.
    tests: Vec<Vec<u64>>,
    /// Each element's representative as the heaps in the order they were added: reading
    /// them from the empty sum through `next` reaches the element.
    reps: Vec<Vec<u64>>,
    /// Each element's row: the outcome (P?) of rep + test for every test.
    rows: Vec<Vec<bool>>,
    /// `next[a][g]`: the element of rep(a) + gens[g].
    next: Vec<Vec<u32>>,
}

/// What a failed check gives: a counterexample, or a test that splits a merged pair at once.
enum Fix {
    Counter(Counter),
    Test(Vec<u64>),
}

/// Why a hypothesis fails: a sum of heaps (read in this order) plus a test whose true
/// outcome the hypothesis reading gets wrong.
struct Counter {
    read: Vec<u64>,
    test: Vec<u64>,
}

fn concat(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut v = a.to_vec();
    v.extend_from_slice(b);
    v
}

impl Table {
    /// Builds the closed table for `tests`, keeping the representatives `reps` of the last
    /// table (their rows stay distinct: tests are only added) and finding new ones breadth
    /// first.
    fn build(
        tests: Vec<Vec<u64>>,
        reps: Vec<Vec<u64>>,
        gens: &[u64],
        oracle: &mut Oracle,
        obs: &dyn Observer,
    ) -> Result<Table, Error> {
        let row_of = |w: &[u64], oracle: &mut Oracle| -> Vec<bool> {
            tests.iter().map(|e| oracle.is_p(&concat(w, e))).collect()
        };
        let rows: Vec<Vec<bool>> = reps.iter().map(|r| row_of(r, oracle)).collect();
        let mut t = Table {
            reps,
            rows,
            next: vec![],
            tests: vec![],
        };
        let mut index: HashMap<Vec<bool>, u32> = HashMap::new();
        for (a, r) in t.rows.iter().enumerate() {
            index.insert(r.clone(), a as u32);
        }
        let mut a = 0;
        while a < t.reps.len() {
            if obs.observe(a as u64, t.reps.len() as u64 + 1).is_break() {
                return Err(Error::Cancelled { done: a as u64 });
            }
            let mut out = Vec::with_capacity(gens.len());
            for &g in gens {
                let w = concat(&t.reps[a], &[g]);
                let row = row_of(&w, oracle);
                let e = match index.get(&row) {
                    Some(&e) => e,
                    None => {
                        let e = t.reps.len() as u32;
                        if t.reps.len() >= MAX_ORDER {
                            return Err(Error::Unsupported {
                                what: format!(
                                    "the misère quotient has more than {MAX_ORDER} elements"
                                ),
                            });
                        }
                        index.insert(row.clone(), e);
                        t.reps.push(w);
                        t.rows.push(row);
                        e
                    }
                };
                out.push(e);
            }
            t.next.push(out);
            a += 1;
        }
        t.tests = tests;
        Ok(t)
    }

    fn order(&self) -> usize {
        self.reps.len()
    }

    /// The element reached by reading `w` (generator indices) from `a`.
    fn read(&self, a: u32, w: &[usize]) -> u32 {
        w.iter().fold(a, |s, &g| self.next[s as usize][g])
    }

    /// Given a counterexample (the hypothesis reading of `read` + `test` disagrees with
    /// the true outcome), the test that splits a merged pair: walking the reading, some
    /// step rep(a_i) + g ~ rep(a_(i+1)) is told apart by the rest of the reading plus the
    /// test (Rivest–Schapire). None when the walk finds no disagreement (not a
    /// counterexample).
    fn split(
        &self,
        c: &Counter,
        gi: &HashMap<u64, usize>,
        oracle: &mut Oracle,
    ) -> Option<Vec<u64>> {
        let m = c.read.len();
        let mut states = vec![0u32];
        for &h in &c.read {
            let s = *states.last().expect("one state");
            states.push(self.next[s as usize][gi[&h]]);
        }
        // v(i) = o(rep(a_i) + read[i..] + test); v(0) is the truth, v(m) the prediction
        let v = |i: usize, oracle: &mut Oracle| -> bool {
            let w = concat(
                &concat(&self.reps[states[i] as usize], &c.read[i..]),
                &c.test,
            );
            oracle.is_p(&w)
        };
        let (mut lo, mut hi) = (0usize, m);
        let (vlo, vhi) = (v(lo, oracle), v(hi, oracle));
        if vlo == vhi {
            return None;
        }
        // binary search for adjacent i, i + 1 with v(i) != v(i + 1), keeping v(lo) != v(hi)
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if v(mid, oracle) == vlo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(concat(&c.read[hi..], &c.test))
    }
}

/// The misère quotient of heaps 0..=`max` of the take-and-break rule `br` (see the module
/// documentation for the method and its proof).
///
/// Cost: the canonical misère forms of heaps 0..=`max` (the membership oracle; Kayles
/// reaches about 75 heaps in a minute, see [`super::canon::take_break_misere`]), then
/// rounds of at most |Q| · (heaps) · (tests) outcomes each.
///
/// # Errors
/// [`Error::Unsupported`] when the quotient would pass [`MAX_ORDER`] elements or its
/// proof [`MAX_STATES`] states; [`Error::Cancelled`] when `obs` stops the run.
pub fn misere_quotient(
    br: &Breaker,
    max: u64,
    obs: &dyn Observer,
) -> Result<MisereQuotient, Error> {
    let (forms, heaps) = take_break_misere(br, max, obs)?;
    let heap_form: Vec<FormId> = heaps.iter().map(|h| h.form).collect();
    // the options of each heap (the heaps each move leaves, those without a move dropped)
    let mut options: Vec<Vec<Vec<u64>>> = Vec::with_capacity(heaps.len());
    for n in 0..=max {
        let mut opts = Vec::new();
        let _ = br.options(n, u64::MAX, &mut |_, left| {
            opts.push(left.to_vec());
            ControlFlow::Continue(())
        });
        options.push(opts);
    }
    let moving: Vec<bool> = options.iter().map(|o| !o.is_empty()).collect();
    let has_move = |h: u64| moving[h as usize];
    for o in options.iter_mut() {
        for w in o.iter_mut() {
            w.retain(|&h| has_move(h));
            w.sort_unstable();
        }
        o.sort();
        o.dedup();
    }
    let gens: Vec<u64> = (1..=max).filter(|&h| has_move(h)).collect();
    let gi: HashMap<u64, usize> = gens.iter().enumerate().map(|(i, &h)| (h, i)).collect();
    let mut oracle = Oracle {
        forms,
        heap_form,
        memo: HashMap::new(),
    };
    let mut tests: Vec<Vec<u64>> = vec![vec![]];
    let mut reps: Vec<Vec<u64>> = vec![vec![]];
    loop {
        let t = Table::build(tests.clone(), reps, &gens, &mut oracle, obs)?;
        let fix = check(&t, &gens, &gi, &options, &mut oracle)?;
        let e = match fix {
            None => return Ok(finish(&t, &gi, max)),
            Some(Fix::Test(e)) => Some(e),
            Some(Fix::Counter(c)) => t.split(&c, &gi, &mut oracle),
        };
        reps = t.reps;
        match e {
            Some(e) if !tests.contains(&e) => tests.push(e),
            _ => {
                return Err(Error::Unsupported {
                    what: "the misère quotient's learner found a counterexample that splits \
                           nothing (a defect: please report the game and N)"
                        .into(),
                })
            }
        }
    }
}

/// The quotient from a proved table.
fn finish(t: &Table, gi: &HashMap<u64, usize>, max: u64) -> MisereQuotient {
    let order = t.order();
    let idx: Vec<Vec<usize>> = t
        .reps
        .iter()
        .map(|r| r.iter().map(|h| gi[h]).collect())
        .collect();
    let mut mul = vec![0u32; order * order];
    for a in 0..order {
        for b in 0..order {
            mul[a * order + b] = t.read(a as u32, &idx[b]);
        }
    }
    let phi = (0..=max)
        .map(|h| gi.get(&h).map_or(0, |&g| t.next[0][g]))
        .collect();
    MisereQuotient {
        order,
        mul,
        p: t.rows.iter().map(|r| r[0]).collect(),
        phi,
        words: t
            .reps
            .iter()
            .map(|r| {
                let mut w = r.clone();
                w.sort_unstable();
                w
            })
            .collect(),
    }
}

/// Step 3: None when the table is the quotient, else a counterexample.
fn check(
    t: &Table,
    gens: &[u64],
    gi: &HashMap<u64, usize>,
    options: &[Vec<Vec<u64>>],
    oracle: &mut Oracle,
) -> Result<Option<Fix>, Error> {
    let order = t.order();
    let k = gens.len();
    // (a) the heaps' actions commute: rep(a) + g + h read both ways
    for a in 0..order as u32 {
        for g in 0..k {
            for h in g + 1..k {
                let c1 = t.read(a, &[g, h]);
                let c2 = t.read(a, &[h, g]);
                if c1 != c2 {
                    let read1 = concat(&t.reps[a as usize], &[gens[g], gens[h]]);
                    let read2 = concat(&t.reps[a as usize], &[gens[h], gens[g]]);
                    let at = t.reps[a as usize].len();
                    return Ok(Some(disagreeing(t, (c1, c2), at, read1, read2, oracle)));
                }
            }
        }
    }
    // (b) reading a representative acts as multiplication: a·(b + g) = (a·b) + g
    let idx: Vec<Vec<usize>> = t
        .reps
        .iter()
        .map(|r| r.iter().map(|h| gi[h]).collect())
        .collect();
    let mul = |a: u32, b: u32| t.read(a, &idx[b as usize]);
    for a in 0..order as u32 {
        for b in 0..order as u32 {
            let ab = mul(a, b);
            for (g, &heap) in gens.iter().enumerate() {
                let c1 = t.next[ab as usize][g];
                let c2 = mul(a, t.next[b as usize][g]);
                if c1 != c2 {
                    let bg = t.next[b as usize][g] as usize;
                    let read1 = concat(&concat(&t.reps[a as usize], &t.reps[b as usize]), &[heap]);
                    let read2 = concat(&t.reps[a as usize], &t.reps[bg]);
                    let at = t.reps[a as usize].len();
                    return Ok(Some(disagreeing(t, (c1, c2), at, read1, read2, oracle)));
                }
            }
        }
    }
    // (c) the misère rule at every sum x, through a finite summary of x. Let
    // R(x) = {y in Q : some option x' of x has Φ(x')·y in the P-portion}. The rule at
    // x ≠ 0 is: Φ(x) is in the P-portion iff 1 ∉ R(x) (every heap has a move). Adding a
    // heap g of element c_g and option elements T_g: an option of x + g either moves in x,
    // with element Φ(x')·c_g, or moves on g, with element Φ(x)·t, so
    //   R(x + g) = {y : c_g·y ∈ R(x)} ∪ {y : Φ(x)·t·y ∈ P for some t ∈ T_g}.
    // The pairs (Φ(x), R(x)) are finitely many; visiting them all from (1, ∅) checks
    // the rule at every sum.
    let phi_of = |w: &[u64]| -> u32 { w.iter().fold(0u32, |s, h| t.next[s as usize][gi[h]]) };
    let words = order.div_ceil(64);
    let is_p = |a: u32| t.rows[a as usize][0];
    // the heaps' kinds: (element, option elements, a generator of the kind)
    let mut kinds: Vec<(u32, Vec<u32>, usize)> = Vec::new();
    for (g, &h) in gens.iter().enumerate() {
        let mut tr: Vec<u32> = options[h as usize].iter().map(|w| phi_of(w)).collect();
        tr.sort_unstable();
        tr.dedup();
        let c = t.next[0][g];
        if !kinds.iter().any(|(kc, kt, _)| *kc == c && *kt == tr) {
            kinds.push((c, tr, g));
        }
    }
    let has = |r: &[u64], y: u32| r[y as usize / 64] >> (y % 64) & 1 == 1;
    let mut seen: HashMap<(u32, Vec<u64>), usize> = HashMap::new();
    let mut states: Vec<(u32, Vec<u64>)> = vec![(0, vec![0u64; words])];
    let mut parent: Vec<(usize, usize)> = vec![(usize::MAX, usize::MAX)];
    seen.insert(states[0].clone(), 0);
    let mut i = 0;
    while i < states.len() {
        let (e, r) = states[i].clone();
        if i > 0 && is_p(e) == has(&r, 0) {
            // the rule fails at x: x or one of its options is predicted wrongly
            let mut x: Vec<u64> = Vec::new();
            let mut j = i;
            while j != 0 {
                let (pj, g) = parent[j];
                x.push(gens[g]);
                j = pj;
            }
            x.reverse();
            return Ok(Some(Fix::Counter(wrong_sum(
                t, &x, options, oracle, &phi_of,
            ))));
        }
        for (c, tr, g) in &kinds {
            let mut nr = vec![0u64; words];
            let et: Vec<u32> = tr.iter().map(|&x| mul(e, x)).collect();
            for y in 0..order as u32 {
                if has(&r, mul(*c, y)) || et.iter().any(|&z| is_p(mul(z, y))) {
                    nr[y as usize / 64] |= 1 << (y % 64);
                }
            }
            let n = (t.next[e as usize][*g], nr);
            if !seen.contains_key(&n) {
                if states.len() >= MAX_STATES {
                    return Err(Error::Unsupported {
                        what: format!(
                            "the proof of the misère quotient passes {MAX_STATES} states"
                        ),
                    });
                }
                seen.insert(n.clone(), states.len());
                states.push(n);
                parent.push((i, *g));
            }
        }
        i += 1;
    }
    Ok(None)
}

/// Two readings of sums (`read1` reaching c1, `read2` reaching c2, c1 != c2): a
/// counterexample among them. Some test e tells c1 and c2 apart; the truth of
/// read1 + e or of read2 + e differs from its reading's prediction — or, when the two
/// sums' truths differ, read1 against the reading of read2 is one.
fn disagreeing(
    t: &Table,
    (c1, c2): (u32, u32),
    split_at: usize,
    read1: Vec<u64>,
    read2: Vec<u64>,
    oracle: &mut Oracle,
) -> Fix {
    let j = (0..t.tests.len())
        .find(|&j| t.rows[c1 as usize][j] != t.rows[c2 as usize][j])
        .expect("distinct elements have distinct rows");
    let e = t.tests[j].clone();
    let truth1 = oracle.is_p(&concat(&read1, &e));
    if truth1 != t.rows[c1 as usize][j] {
        return Fix::Counter(Counter {
            read: read1,
            test: e,
        });
    }
    let truth2 = oracle.is_p(&concat(&read2, &e));
    if truth2 != t.rows[c2 as usize][j] {
        return Fix::Counter(Counter {
            read: read2,
            test: e,
        });
    }
    // both readings predict rightly and differ, so the two sums differ in truth (never in
    // check (a), where they are one sum): read1 = rep(a) + rep(b) + g and
    // read2 = rep(a) + rep(b + g), so rep(a) + e splits rep(b) + g from rep(b + g)
    Fix::Test(concat(&read2[..split_at], &e))
}

/// The rule fails at the sum x (read in this order): x or one of its options is predicted
/// wrongly (the truth obeys the rule). Returns that sum as a counterexample.
fn wrong_sum(
    t: &Table,
    x: &[u64],
    options: &[Vec<Vec<u64>>],
    oracle: &mut Oracle,
    phi_of: &dyn Fn(&[u64]) -> u32,
) -> Counter {
    let predicted = |w: &[u64]| t.rows[phi_of(w) as usize][0];
    if oracle.is_p(x) != predicted(x) {
        return Counter {
            read: x.to_vec(),
            test: vec![],
        };
    }
    for (i, &h) in x.iter().enumerate() {
        let mut rest = x.to_vec();
        rest.remove(i);
        for o in &options[h as usize] {
            let y = concat(&rest, o);
            if oracle.is_p(&y) != predicted(&y) {
                return Counter {
                    read: y,
                    test: vec![],
                };
            }
        }
    }
    // unreachable when the oracle obeys the misère rule; report x itself
    Counter {
        read: x.to_vec(),
        test: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::canon::{misere_outcome_of_sum, take_break_misere};
    use crate::{Game, Silent};

    fn quotient(spec: &str, max: u64) -> MisereQuotient {
        let br = Breaker::of(&Game::parse(spec).unwrap()).unwrap();
        misere_quotient(&br, max, &Silent).unwrap()
    }

    /// Heaps *1 and *2 alone play misère Nim (tame: Conway, ONAG ch. 12), whose quotients
    /// are known: with *1 only, {1, a} with a² = 1 and P-portion {a} (one heap of one
    /// token is a misère P-position); with *1 and *2, the six elements 1, a, b, ab, b²,
    /// ab² with a² = 1 and b³ = b, and P-portion {a, b²} (Plambeck–Siegel, JCTA 2008,
    /// the quotient of misère Nim heaps *1, *2 and *3).
    #[test]
    fn misere_nim_heaps_give_the_known_quotients() {
        // 0.75: heap 1 is *1, heap 2 is *2
        let q = quotient("0.75", 1);
        let a = q.heap_elements()[1];
        assert_eq!((q.order(), q.mul(a, a)), (2, 0));
        assert_eq!(q.p_portion(), vec![a]);
        let q = quotient("0.75", 2);
        let (a, b) = (q.heap_elements()[1], q.heap_elements()[2]);
        assert_eq!(q.order(), 6);
        assert_eq!(q.mul(a, a), 0);
        let b2 = q.mul(b, b);
        assert_eq!(q.mul(b2, b), b);
        let mut all = vec![0, a, b, q.mul(a, b), b2, q.mul(a, b2)];
        let mut p = vec![a, b2];
        p.sort_unstable();
        assert_eq!(q.p_portion(), p);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 6);
    }

    /// Every misère quotient of impartial games has even order (a theorem of Plambeck and
    /// Siegel, "Misère quotients for impartial games", JCTA 2008).
    #[test]
    fn every_quotient_has_even_order() {
        for spec in [
            "0.75",
            "0.77",
            "0.07",
            "0.137",
            "0.72",
            "0.31",
            "0.51",
            "grundy-game",
        ] {
            for max in [3, 8, 14] {
                let q = quotient(spec, max);
                assert_eq!(q.order() % 2, 0, "{spec} to {max}: order {}", q.order());
            }
        }
    }

    /// The quotient decides every sum of at most three heaps of sizes 0..=N as the
    /// canonical misère forms do (an independent engine), and its multiplication is
    /// commutative and associative with identity 0.
    #[test]
    fn quotient_outcomes_match_canonical_forms() {
        for (spec, max) in [
            ("0.77", 16),
            ("0.07", 18),
            ("0.137", 18),
            ("grundy-game", 18),
            ("0.75", 18),
            ("0.72", 16),
            ("0.31", 18),
        ] {
            let q = quotient(spec, max);
            let br = Breaker::of(&Game::parse(spec).unwrap()).unwrap();
            let (mut forms, heaps) = take_break_misere(&br, max, &Silent).unwrap();
            let o = q.order() as u32;
            for x in 0..o {
                assert_eq!(q.mul(0, x), x);
                for y in 0..o {
                    assert_eq!(q.mul(x, y), q.mul(y, x));
                    for z in 0..o {
                        assert_eq!(q.mul(q.mul(x, y), z), q.mul(x, q.mul(y, z)));
                    }
                }
            }
            for a in 0..=max {
                for b in a..=max {
                    for c in b..=max {
                        for sum in [vec![a], vec![a, b], vec![a, b, c]] {
                            let ids: Vec<_> = sum.iter().map(|&h| heaps[h as usize].form).collect();
                            let p = !misere_outcome_of_sum(&mut forms, &ids);
                            assert_eq!(q.is_p_position(&sum), Some(p), "{spec}: {sum:?}");
                        }
                    }
                }
            }
            // each element's word lies in its class
            for x in 0..o {
                assert_eq!(q.element_of(q.word(x)), Some(x));
            }
            assert_eq!(q.is_p_position(&[max + 1]), None);
        }
    }
}
