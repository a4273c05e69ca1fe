//! Canonical misère forms of impartial games, and of the heaps of take-and-break games.
//!
//! In misère play the player who makes the last move loses. Two impartial games G and H
//! are misère-equal when G + X and H + X have the same misère outcome for every impartial
//! game X. Every game is equal to a unique simplest game, its canonical misère form,
//! obtained by deleting reversible options (there is no domination in impartial play and
//! misère play has no bypassing): J. H. Conway, *On Numbers and Games* (1976), ch. 12;
//! Berlekamp, Conway and Guy, *Winning Ways*, ch. 13; A. N. Siegel, *Combinatorial Game
//! Theory* (AMS, 2013), ch. V.1. CGSuite computes the same forms (its
//! `MisereCanonicalForm`); the two reductions below are the ones it applies.
//!
//! [`MisereForms`] is an arena of interned canonical forms: a form is its sorted list of
//! canonical options, and two canonical forms are misère-equal exactly when they have the
//! same [`FormId`]. [`MisereForms::from_options`] simplifies a game whose options are
//! canonical forms; [`MisereForms::add`] builds the canonical form of a disjunctive sum
//! from the forms of its parts (memoized). [`take_break_misere`] gives the forms of the
//! heaps 0..=N of a take-and-break rule (octal codes such as Kayles `0.77`, Dawson's Kayles
//! `0.07`, hexadecimal codes, Grundy's game), each heap's options being sums of the forms
//! of the (at most three) heaps it leaves.
//!
//! ```
//! use heaplab_core::misere::canon::{take_break_misere, MisereForms};
//! use heaplab_core::{Breaker, Game, Silent};
//!
//! let kayles = Breaker::of(&Game::parse("0.77").unwrap()).unwrap();
//! let (mut forms, heaps) = take_break_misere(&kayles, 8, &Silent).unwrap();
//! // misère nim-values G⁻ of Kayles heaps 0..=8 (heap 0 has no move: G⁻ = 1)
//! let minus: Vec<u32> = heaps.iter().map(|h| h.misere_value).collect();
//! assert_eq!(minus, [1, 0, 2, 3, 0, 1, 3, 2, 1]);
//! assert_eq!(forms.display(heaps[3].form), "*3");
//! // *1 + *1 = 0 in misère play too, but *2 + *2 is not 0
//! let one = forms.nim(1);
//! let two = forms.nim(2);
//! assert_eq!(forms.add(one, one), forms.zero());
//! assert_ne!(forms.add(two, two), forms.zero());
//! ```
//!
//! Cost: forms of misère games grow quickly (wild games have huge canonical forms), so
//! this reaches far fewer heaps than normal play. In 60 seconds in release mode on one
//! core of the development machine (`reach_in_a_minute`, an ignored test here) it finishes
//! Kayles heaps 0..=75, Dawson's Kayles 0..=128 and Grundy's game 0..=133, each past heap
//! 40 within 0.02 s; see the table in [`take_break_misere`].

use crate::{Breaker, Error, Observer};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// The id of a canonical misère form in a [`MisereForms`] arena: an index into it (0 is
/// the empty game 0). Ids are only meaningful in the arena that made them.
pub type FormId = u32;

/// No form (end of a hash chain).
const NONE: FormId = u32::MAX;
/// Not a nim heap.
const NOT_NIM: u32 = u32::MAX;
/// Seed of the hash of an option list.
const SEED: u64 = 0x243f_6a88_85a3_08d3;
/// How often a long run reports to its observer.
const EVERY: Duration = Duration::from_millis(10);

/// One interned form.
#[derive(Debug, Clone, Copy)]
struct Rec {
    /// Where its options start in `MisereForms::opts`.
    start: usize,
    /// How many options.
    len: u32,
    /// 0 for the empty game, else 1 + the largest birthday of an option.
    birthday: u32,
    /// G⁻: 1 with no options, else the mex of the options' G⁻.
    minus: u32,
    /// G⁺: the mex of the options' G⁺.
    plus: u32,
    /// a when the form is the nim heap *a, else `NOT_NIM`.
    nim: u32,
    /// The next form whose option list has the same hash (`NONE` at the end).
    next: FormId,
}

/// The splitmix64 finalizer: spreads a 64-bit key over all bits.
#[inline]
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One step of the hash of an option list (prefixes hash as they are folded).
#[inline]
fn step(h: u64, x: FormId) -> u64 {
    (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// A hasher for u64 keys: mixes them with [`mix`] (the maps' keys are ids and hashes).
#[derive(Debug, Default, Clone, Copy)]
struct Mixed(u64);

impl Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = mix(self.0 ^ x);
    }
}

type Map = HashMap<u64, FormId, BuildHasherDefault<Mixed>>;

/// An arena of canonical misère forms of impartial games (theory: Conway, *On Numbers and
/// Games*, ch. 12; Siegel, *Combinatorial Game Theory*, ch. V.1).
///
/// Each form is interned once, as the list of its options' ids sorted by (birthday, id), so
/// two games are misère-equal exactly when their forms have the same [`FormId`]. Id 0 is
/// the empty game 0. Per form it keeps the birthday, the misère nim-value G⁻ and the normal
/// nim-value G⁺; sums are memoized by the unordered pair of ids. Memory: about 40 bytes a
/// form plus 4 bytes an option, and about 16 bytes a memoized sum; nothing is ever freed.
///
/// Passing an id that this arena did not produce (one from another arena, or made up) is
/// a logic error: an id beyond [`MisereForms::len`] panics, and one from another arena
/// that happens to be in range names a different game.
#[derive(Debug, Clone)]
pub struct MisereForms {
    recs: Vec<Rec>,
    opts: Vec<FormId>,
    /// Hash of an option list → the first form with that hash (chained by `Rec::next`).
    buckets: Map,
    /// Memoized sums, keyed by (smaller id) << 32 | larger id.
    sums: Map,
    /// nims[a] = the id of *a.
    nims: Vec<FormId>,
}

impl Default for MisereForms {
    fn default() -> Self {
        Self::new()
    }
}

impl MisereForms {
    /// An arena holding only the empty game 0 (id 0, G⁻ = 1, G⁺ = 0, birthday 0).
    pub fn new() -> MisereForms {
        MisereForms {
            recs: vec![Rec {
                start: 0,
                len: 0,
                birthday: 0,
                minus: 1,
                plus: 0,
                nim: 0,
                next: NONE,
            }],
            opts: Vec::new(),
            buckets: Map::default(),
            sums: Map::default(),
            nims: vec![0],
        }
    }

    /// The empty game 0 (no options; a misère N-position): always id 0.
    pub fn zero(&self) -> FormId {
        0
    }

    /// The nim heap *a = {*0, …, *(a−1)}, already canonical (Conway, ONAG ch. 12). Builds
    /// the heaps up to a the first time: a² / 2 stored options, so keep a to thousands.
    pub fn nim(&mut self, a: u32) -> FormId {
        while self.nims.len() <= a as usize {
            let next = self.nims.clone();
            let id = self.canon(next);
            self.nims.push(id);
        }
        self.nims[a as usize]
    }

    /// The canonical form of the game whose options are the given forms (any order,
    /// repeats allowed; the empty list gives 0): deletes reversible options, then interns.
    ///
    /// Panics when an id is not one of this arena's (≥ [`MisereForms::len`]).
    pub fn from_options(&mut self, options: &[FormId]) -> FormId {
        for &o in options {
            assert!(
                (o as usize) < self.recs.len(),
                "form id {o} is not in this arena of {} forms",
                self.recs.len()
            );
        }
        self.canon(options.to_vec())
    }

    /// The canonical form of the disjunctive sum a + b: {a' + b} ∪ {a + b'} simplified,
    /// with 0 as identity; memoized by the unordered pair. Recursion depth is at most
    /// birthday(a) + birthday(b).
    ///
    /// Panics when an id is not one of this arena's.
    pub fn add(&mut self, a: FormId, b: FormId) -> FormId {
        if a == 0 {
            return b;
        }
        if b == 0 {
            return a;
        }
        let key = (u64::from(a.min(b)) << 32) | u64::from(a.max(b));
        if let Some(&s) = self.sums.get(&key) {
            return s;
        }
        let ra = self.recs[a as usize];
        let rb = self.recs[b as usize];
        let mut v = Vec::with_capacity((ra.len + rb.len) as usize);
        for i in 0..ra.len as usize {
            let x = self.opts[ra.start + i];
            v.push(self.add(x, b));
        }
        for i in 0..rb.len as usize {
            let y = self.opts[rb.start + i];
            v.push(self.add(a, y));
        }
        let s = self.canon(v);
        self.sums.insert(key, s);
        s
    }

    /// The options of form g (canonical forms, sorted by birthday, then id).
    pub fn options(&self, g: FormId) -> &[FormId] {
        let r = &self.recs[g as usize];
        &self.opts[r.start..r.start + r.len as usize]
    }

    /// The misère nim-value G⁻ of g played alone: 1 for 0, else the mex of its options'
    /// G⁻. g is a misère P-position exactly when this is 0.
    pub fn misere_value(&self, g: FormId) -> u32 {
        self.recs[g as usize].minus
    }

    /// The normal-play nim-value G⁺ of g (the Sprague–Grundy value).
    pub fn normal_value(&self, g: FormId) -> u32 {
        self.recs[g as usize].plus
    }

    /// The birthday of g's canonical form: 0 for 0, else 1 + the largest birthday of its
    /// options (the height of its game tree).
    pub fn birthday(&self, g: FormId) -> u32 {
        self.recs[g as usize].birthday
    }

    /// a when g is the nim heap *a, else `None`.
    pub fn nim_heap(&self, g: FormId) -> Option<u32> {
        let a = self.recs[g as usize].nim;
        (a != NOT_NIM).then_some(a)
    }

    /// The number of interned forms (at least 1: the form 0).
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    /// Always false: the arena holds 0 from the start (for clippy's `len` convention).
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// The form written out: `0`, `*a` for nim heaps, else `{…}` of its options written
    /// the same way, in the stored order (e.g. `{*2}`, `{0,*2,{*2}}`). The text of a big
    /// form is as big as its whole tree with nim heaps abbreviated, so mind wild forms.
    pub fn display(&self, g: FormId) -> String {
        let mut s = String::new();
        self.write(g, &mut s);
        s
    }

    fn write(&self, g: FormId, s: &mut String) {
        match self.recs[g as usize].nim {
            0 => s.push('0'),
            NOT_NIM => {
                s.push('{');
                for (i, &o) in self.options(g).iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    self.write(o, s);
                }
                s.push('}');
            }
            a => {
                s.push('*');
                s.push_str(&a.to_string());
            }
        }
    }

    /// Sort key of a form in an option list: (birthday, id).
    #[inline]
    fn key(&self, g: FormId) -> u64 {
        (u64::from(self.recs[g as usize].birthday) << 32) | u64::from(g)
    }

    /// The interned form with exactly these (sorted) options, whose hash state is `h`.
    fn find(&self, list: &[FormId], h: u64) -> Option<FormId> {
        let mut id = *self.buckets.get(&h)?;
        while id != NONE {
            if self.options(id) == list {
                return Some(id);
            }
            id = self.recs[id as usize].next;
        }
        None
    }

    /// True when form g has form k as an option (binary search on the sorted options).
    fn has_option(&self, g: FormId, k: FormId) -> bool {
        let key = self.key(k);
        self.options(g)
            .binary_search_by_key(&key, |&o| self.key(o))
            .is_ok()
    }

    /// The canonical form of the game with options `v` (canonical forms of this arena).
    fn canon(&mut self, mut v: Vec<FormId>) -> FormId {
        v.sort_unstable_by_key(|&g| self.key(g));
        v.dedup();
        if v.is_empty() {
            return 0;
        }
        let h = v.iter().fold(SEED, |h, &x| step(h, x));
        if let Some(id) = self.find(&v, h) {
            return id;
        }
        if self.reduces_to_zero(&v) {
            return 0;
        }
        if let Some(k) = self.reduces_to_prefix(&v) {
            return k;
        }
        self.intern(v, h)
    }

    /// Reduction to 0 (every option is reversible through 0): no option is 0, every
    /// option has 0 as an option, and some option is a misère P-position (G⁻ = 0), which
    /// is what keeps e.g. {*2} from being 0 (its G⁻ is 0, 0's is 1).
    fn reduces_to_zero(&self, v: &[FormId]) -> bool {
        // 0 sorts first in every option list (birthday 0, id 0)
        v[0] != 0
            && v.iter().all(|&o| self.options(o).first() == Some(&0))
            && v.iter().any(|&o| self.recs[o as usize].minus == 0)
    }

    /// Reduction to a nonzero game k = {K}: K a non-empty prefix of `v` (sorted by
    /// birthday) ending where birthdays jump by 2 or more, {K} already interned, and every
    /// later option has k as an option (is reversible through k).
    fn reduces_to_prefix(&self, v: &[FormId]) -> Option<FormId> {
        let mut h = step(SEED, v[0]);
        for j in 1..v.len() {
            let before = self.recs[v[j - 1] as usize].birthday;
            let here = self.recs[v[j] as usize].birthday;
            if here > before + 1 {
                if let Some(k) = self.find(&v[..j], h) {
                    if v[j..].iter().all(|&r| self.has_option(r, k)) {
                        return Some(k);
                    }
                }
            }
            h = step(h, v[j]);
        }
        None
    }

    /// Stores a canonical option list (sorted, hash state `h`) as a new form.
    fn intern(&mut self, v: Vec<FormId>, h: u64) -> FormId {
        let id = FormId::try_from(self.recs.len())
            .ok()
            .filter(|&id| id != NONE)
            .expect("more than 2^32 - 1 misère forms");
        let last = *v.last().expect("intern takes a non-empty list");
        let birthday = self.recs[last as usize].birthday + 1;
        let minus = mex(v.iter().map(|&o| self.recs[o as usize].minus), v.len());
        let plus = mex(v.iter().map(|&o| self.recs[o as usize].plus), v.len());
        // *a has birthday a, so a list of *0..*(len−1) is in exactly that order
        let is_nim = v
            .iter()
            .enumerate()
            .all(|(i, &o)| self.recs[o as usize].nim as usize == i);
        let nim = if is_nim { v.len() as u32 } else { NOT_NIM };
        let next = self.buckets.insert(h, id).unwrap_or(NONE);
        self.recs.push(Rec {
            start: self.opts.len(),
            len: v.len() as u32,
            birthday,
            minus,
            plus,
            nim,
            next,
        });
        self.opts.extend_from_slice(&v);
        id
    }
}

/// The least value not among `values` (of which there are `n`).
fn mex(values: impl Iterator<Item = u32>, n: usize) -> u32 {
    let mut seen = vec![0u64; n / 64 + 1];
    for x in values {
        let x = x as usize;
        if x <= n {
            seen[x / 64] |= 1 << (x % 64);
        }
    }
    seen.iter()
        .enumerate()
        .find(|(_, &w)| w != u64::MAX)
        .map(|(i, &w)| (i * 64) as u32 + w.trailing_ones())
        .unwrap_or(0)
}

/// The misère outcome of the sum of the given canonical forms: true for a misère
/// N-position (the player to move wins), false for a P-position. The empty sum is 0, an
/// N-position. Adds the forms with [`MisereForms::add`] (memoized in `forms`), so it is
/// cheap for forms that have been summed before. Theory: Conway, ONAG ch. 12.
///
/// Panics when an id is not one of this arena's.
pub fn misere_outcome_of_sum(forms: &mut MisereForms, heaps: &[FormId]) -> bool {
    let s = heaps.iter().fold(0, |s, &g| forms.add(s, g));
    forms.misere_value(s) != 0
}

/// One heap's misère facts, from [`take_break_misere`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MisereHeap {
    /// The canonical misère form of the heap, an id in the returned [`MisereForms`].
    pub form: FormId,
    /// G⁻: the heap's misère nim-value (0 exactly for a misère P-position; 1 for heap 0).
    pub misere_value: u32,
    /// G⁺: the heap's normal-play Grundy value.
    pub normal_value: u32,
}

/// The canonical misère forms of heaps 0..=`max` of a take-and-break rule (an octal or
/// hexadecimal code, or Grundy's game), in order, with their misère and normal
/// nim-values, and the arena holding the forms.
///
/// Heap n's options are the sums of the forms of the heaps each move leaves (none to
/// three), built with [`MisereForms::add`], and the heap's form is their canonical form
/// (Conway, ONAG ch. 12; Winning Ways ch. 13; Siegel, CGT ch. V.1). The observer sees
/// `observe(n, max + 1)` after each heap and about every ten milliseconds within one;
/// when it answers `Break` the run stops with [`Error::Cancelled`] whose `done` is the
/// number of heaps finished. `max` is a heap size in tokens; nothing is allocated up
/// front, so a huge `max` simply runs until the observer stops it.
///
/// The forms grow quickly (misère Kayles and Dawson's Kayles are wild), so the reach is
/// far below normal play's. Measured in release mode on the development machine (one core
/// of two), with the ignored test `reach_in_a_minute`: heaps finished within 60 seconds,
/// the time to finish heaps 0..=40, and the forms interned and sums memoized at the end
/// (memory is dominated by the memoized sums, roughly 16 to 32 bytes each):
///
/// | game | heaps in 60 s | seconds to heap 40 | forms | sums |
/// | --- | --- | --- | --- | --- |
/// | Kayles `0.77` | 0..=75 | 0.02 | 297,446 | 15.1 million |
/// | Dawson's Kayles `0.07` | 0..=128 | < 0.01 | 458,997 | 15.9 million |
/// | Grundy's game | 0..=133 | < 0.01 | 451,208 | 14.7 million |
pub fn take_break_misere(
    br: &Breaker,
    max: u64,
    obs: &dyn Observer,
) -> Result<(MisereForms, Vec<MisereHeap>), Error> {
    let mut forms = MisereForms::new();
    let heaps = take_break_misere_in(&mut forms, br, max, obs)?;
    Ok((forms, heaps))
}

/// [`take_break_misere`] into an arena of your own (so the heaps' forms can be added to
/// forms of other games, e.g. in a sum).
///
/// # Errors
/// As [`take_break_misere`].
pub fn take_break_misere_in(
    forms: &mut MisereForms,
    br: &Breaker,
    max: u64,
    obs: &dyn Observer,
) -> Result<Vec<MisereHeap>, Error> {
    let total = max.saturating_add(1);
    if obs.observe(0, total).is_break() {
        return Err(Error::Cancelled { done: 0 });
    }
    let mut heaps: Vec<MisereHeap> = Vec::new();
    let mut last_call = Instant::now();
    let mut n = 0u64;
    loop {
        next_heap(br, forms, &mut heaps, obs, total, &mut last_call)?;
        last_call = Instant::now();
        let go_on = obs.observe(n + 1, total);
        if n == max {
            break;
        }
        if go_on.is_break() {
            return Err(Error::Cancelled { done: n + 1 });
        }
        n += 1;
    }
    Ok(heaps)
}

/// Appends the next heap (n = `heaps.len()`) to `heaps`, its form interned in `forms`;
/// reports `observe(n, total)` about every ten milliseconds while it works.
fn next_heap(
    br: &Breaker,
    forms: &mut MisereForms,
    heaps: &mut Vec<MisereHeap>,
    obs: &dyn Observer,
    total: u64,
    last_call: &mut Instant,
) -> Result<(), Error> {
    let n = heaps.len() as u64;
    let mut options = Vec::new();
    let mut stopped = false;
    let _ = br.options(n, u64::MAX, &mut |_, left| {
        if last_call.elapsed() >= EVERY {
            *last_call = Instant::now();
            if obs.observe(n, total).is_break() {
                stopped = true;
                return ControlFlow::Break(());
            }
        }
        // every heap left is smaller than n, so its form is known
        let f = left
            .iter()
            .fold(0, |s, &h| forms.add(s, heaps[h as usize].form));
        options.push(f);
        ControlFlow::Continue(())
    });
    if stopped {
        return Err(Error::Cancelled { done: n });
    }
    let form = forms.canon(options);
    heaps.push(MisereHeap {
        form,
        misere_value: forms.misere_value(form),
        normal_value: forms.normal_value(form),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::Silent;

    fn rule(code: &str) -> Breaker {
        Breaker::of(&Game::parse(code).unwrap()).unwrap()
    }

    fn mex_of(v: &[u32]) -> u32 {
        (0..).find(|x| !v.contains(x)).unwrap()
    }

    /// The reference: misère nim-values of positions of a take-and-break rule (multisets
    /// of non-empty heaps, sorted), by memoized recursion over the whole game tree.
    struct Brute {
        br: Breaker,
        memo: HashMap<Vec<u64>, u32>,
    }

    impl Brute {
        fn new(code: &str) -> Brute {
            Brute::of(rule(code))
        }

        fn of(br: Breaker) -> Brute {
            Brute {
                br,
                memo: HashMap::new(),
            }
        }

        /// G⁻ of the position `pos` (any order; zeros dropped).
        fn value(&mut self, pos: &[u64]) -> u32 {
            let mut p: Vec<u64> = pos.iter().copied().filter(|&h| h > 0).collect();
            p.sort_unstable();
            self.value_sorted(p)
        }

        fn value_sorted(&mut self, p: Vec<u64>) -> u32 {
            if let Some(&v) = self.memo.get(&p) {
                return v;
            }
            let mut vals = vec![];
            for i in 0..p.len() {
                if i > 0 && p[i] == p[i - 1] {
                    continue;
                }
                let mut moves: Vec<Vec<u64>> = vec![];
                let _ = self.br.options(p[i], u64::MAX, &mut |_, left| {
                    moves.push(left.to_vec());
                    ControlFlow::Continue(())
                });
                for left in moves {
                    let mut q = p.clone();
                    q.remove(i);
                    q.extend(left);
                    q.sort_unstable();
                    vals.push(self.value_sorted(q));
                }
            }
            let v = if vals.is_empty() { 1 } else { mex_of(&vals) };
            self.memo.insert(p, v);
            v
        }

        /// True for a misère N-position.
        fn outcome(&mut self, pos: &[u64]) -> bool {
            self.value(pos) != 0
        }
    }

    /// The reference for arbitrary game trees: nodes with lists of children (node
    /// without children = 0), misère nim-values of sums (multisets of nodes) by brute
    /// force, with no simplification.
    #[derive(Default)]
    struct Trees {
        kids: Vec<Vec<usize>>,
        memo: HashMap<Vec<usize>, u32>,
    }

    impl Trees {
        fn node(&mut self, kids: Vec<usize>) -> usize {
            self.kids.push(kids);
            self.kids.len() - 1
        }

        /// A copy of form g's tree (shared subtrees copied once).
        fn of_form(
            &mut self,
            f: &MisereForms,
            g: FormId,
            done: &mut HashMap<FormId, usize>,
        ) -> usize {
            if let Some(&t) = done.get(&g) {
                return t;
            }
            let kids = f
                .options(g)
                .iter()
                .map(|&o| self.of_form(f, o, done))
                .collect();
            let t = self.node(kids);
            done.insert(g, t);
            t
        }

        fn value(&mut self, pos: &[usize]) -> u32 {
            let mut p: Vec<usize> = pos
                .iter()
                .copied()
                .filter(|&t| !self.kids[t].is_empty())
                .collect();
            p.sort_unstable();
            self.value_sorted(p)
        }

        fn value_sorted(&mut self, p: Vec<usize>) -> u32 {
            if let Some(&v) = self.memo.get(&p) {
                return v;
            }
            let mut vals = vec![];
            for i in 0..p.len() {
                if i > 0 && p[i] == p[i - 1] {
                    continue;
                }
                for k in self.kids[p[i]].clone() {
                    let mut q = p.clone();
                    q.remove(i);
                    q.push(k);
                    vals.push(self.value(&q));
                }
            }
            let v = if vals.is_empty() { 1 } else { mex_of(&vals) };
            self.memo.insert(p, v);
            v
        }

        /// The mate of node g: *1 for 0, else the game of the mates of its children.
        /// G + mate(G) is a misère P-position for every G (Conway, ONAG ch. 12).
        fn mate(&mut self, g: usize) -> usize {
            let kids = self.kids[g].clone();
            if kids.is_empty() {
                let zero = self.node(vec![]);
                return self.node(vec![zero]);
            }
            let mates = kids.into_iter().map(|k| self.mate(k)).collect();
            self.node(mates)
        }

        /// Some X in `xs` with outcome(a + X) != outcome(b + X), if any.
        fn tell_apart(&mut self, a: &[usize], b: &[usize], xs: &[Vec<usize>]) -> Option<usize> {
            (0..xs.len()).find(|&i| {
                let x = &xs[i];
                let ax: Vec<usize> = a.iter().chain(x).copied().collect();
                let bx: Vec<usize> = b.iter().chain(x).copied().collect();
                (self.value(&ax) == 0) != (self.value(&bx) == 0)
            })
        }
    }

    fn minus_values(code: &str, max: u64) -> Vec<u32> {
        let (_, heaps) = take_break_misere(&rule(code), max, &Silent).unwrap();
        heaps.iter().map(|h| h.misere_value).collect()
    }

    fn brute_values(code: &str, max: u64) -> Vec<u32> {
        let mut b = Brute::new(code);
        (0..=max).map(|n| b.value(&[n])).collect()
    }

    #[test]
    fn misere_kayles_heaps_match_brute_force_and_known_values() {
        // misère nim-values G⁻ of Kayles heaps 0..=12 (as CGSuite's MisereNimValue)
        let known = [1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0];
        let brute = brute_values("0.77", 12);
        let (forms, heaps) = take_break_misere(&rule("0.77"), 12, &Silent).unwrap();
        let engine: Vec<u32> = heaps.iter().map(|h| h.misere_value).collect();
        assert_eq!(brute, known);
        assert_eq!(engine, known);
        assert_eq!((engine[0], engine[1], engine[2]), (1, 0, 2));
        // normal values: OEIS A002186
        let normal: Vec<u32> = heaps.iter().map(|h| h.normal_value).collect();
        assert_eq!(normal, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
        // small heaps are nim heaps: 0, *1, *2, *3
        for (n, h) in heaps.iter().enumerate().take(4) {
            assert_eq!(forms.nim_heap(h.form), Some(n as u32));
        }
    }

    #[test]
    fn misere_dawsons_kayles_and_grundys_game_match_brute_force() {
        assert_eq!(minus_values("0.07", 14), brute_values("0.07", 14));
        let mut b = Brute::of(Breaker::grundy_game());
        let brute: Vec<u32> = (0..=14).map(|n| b.value(&[n])).collect();
        let (_, heaps) = take_break_misere(&Breaker::grundy_game(), 14, &Silent).unwrap();
        let engine: Vec<u32> = heaps.iter().map(|h| h.misere_value).collect();
        assert_eq!(engine, brute);
        // Grundy's game: heaps 1 and 2 have no move (G⁻ = 1), heap 3 goes to 1 + 2
        assert_eq!(&engine[..4], [1, 1, 1, 0]);
        // a hexadecimal code whose moves may leave three heaps
        assert_eq!(minus_values("0.8", 12), brute_values("0.8", 12));
    }

    #[test]
    fn sums_of_up_to_three_heaps_match_brute_force() {
        for code in ["0.77", "0.07"] {
            let (mut forms, heaps) = take_break_misere(&rule(code), 10, &Silent).unwrap();
            let mut brute = Brute::new(code);
            let mut n_p = 0;
            for a in 0..=10u64 {
                for b in a..=10 {
                    for c in b..=10 {
                        let ids = [
                            heaps[a as usize].form,
                            heaps[b as usize].form,
                            heaps[c as usize].form,
                        ];
                        let engine = misere_outcome_of_sum(&mut forms, &ids);
                        assert_eq!(engine, brute.outcome(&[a, b, c]), "{code}: {a}+{b}+{c}");
                        n_p += usize::from(!engine);
                        // two heaps and one
                        let two = misere_outcome_of_sum(&mut forms, &ids[1..]);
                        assert_eq!(two, brute.outcome(&[b, c]), "{code}: {b}+{c}");
                    }
                }
            }
            assert!(n_p > 10, "{code}: only {n_p} P-positions among the sums");
        }
    }

    #[test]
    fn misere_nim_follows_bouton_s_misere_rule() {
        let mut f = MisereForms::new();
        for a in 0..=5u32 {
            for b in 0..=5 {
                for c in 0..=5 {
                    let ids = [f.nim(a), f.nim(b), f.nim(c)];
                    let n = misere_outcome_of_sum(&mut f, &ids);
                    let p = if a.max(b).max(c) <= 1 {
                        (a + b + c) % 2 == 1
                    } else {
                        a ^ b ^ c == 0
                    };
                    assert_eq!(n, !p, "*{a} + *{b} + *{c}");
                }
            }
        }
        // nim heaps are canonical as built, with a options, birthday a, G⁻ and G⁺
        for a in 0..=8u32 {
            let g = f.nim(a);
            assert_eq!(f.options(g).len(), a as usize);
            assert_eq!(f.birthday(g), a);
            assert_eq!(f.normal_value(g), a);
            assert_eq!(f.misere_value(g), if a <= 1 { 1 - a } else { a });
            let again = f.from_options(f.options(g).to_vec().as_slice());
            assert_eq!(again, g);
            assert_eq!(
                f.display(g),
                if a == 0 { "0".into() } else { format!("*{a}") }
            );
        }
    }

    /// Test games X: every sum of at most three nim heaps ≤ 4, and Kayles heaps 1..=7
    /// alone and with *1 or *2.
    fn test_games(
        f: &mut MisereForms,
        t: &mut Trees,
        map: &mut HashMap<FormId, usize>,
    ) -> Vec<Vec<usize>> {
        let mut xs = vec![];
        let nims: Vec<usize> = (0..=4)
            .map(|a| {
                let g = f.nim(a);
                t.of_form(f, g, map)
            })
            .collect();
        for a in 0..=4 {
            for b in a..=4 {
                for c in b..=4 {
                    xs.push(vec![nims[a], nims[b], nims[c]]);
                }
            }
        }
        let (kf, kh) = take_break_misere(&rule("0.77"), 7, &Silent).unwrap();
        let mut kmap = HashMap::new();
        for h in &kh[1..] {
            let k = t.of_form(&kf, h.form, &mut kmap);
            xs.push(vec![k]);
            xs.push(vec![k, nims[1]]);
            xs.push(vec![k, nims[2]]);
        }
        // the 22 games born by day 4, alone, in pairs and with *1 or *2
        let day4: Vec<usize> = born_by(f, 4)
            .into_iter()
            .map(|g| t.of_form(f, g, map))
            .collect();
        for (i, &a) in day4.iter().enumerate() {
            xs.push(vec![a]);
            xs.push(vec![a, nims[1]]);
            xs.push(vec![a, nims[2]]);
            for &b in &day4[..i] {
                xs.push(vec![a, b]);
            }
        }
        xs
    }

    /// The canonical forms of all games born by day `days` (every set of games born by
    /// the day before, simplified), sorted by id.
    fn born_by(f: &mut MisereForms, days: u32) -> Vec<FormId> {
        let mut day: Vec<FormId> = vec![f.zero()];
        for _ in 0..days {
            let mut next = vec![];
            for mask in 0u32..1 << day.len() {
                let opts: Vec<FormId> = (0..day.len())
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| day[i])
                    .collect();
                next.push(f.from_options(&opts));
            }
            next.sort_unstable();
            next.dedup();
            day = next;
        }
        day
    }

    #[test]
    fn canonical_forms_are_unique_and_equalities_hold_by_brute_force() {
        let mut f = MisereForms::new();
        let mut t = Trees::default();
        let mut map = HashMap::new();
        let xs = test_games(&mut f, &mut t, &mut map);
        let (z, one, two) = (f.zero(), f.nim(1), f.nim(2));
        // {*1} = 0: its only option is reversible through 0
        assert_eq!(f.from_options(&[one]), z);
        // *1 + *1 = 0
        assert_eq!(f.add(one, one), z);
        let (t1, t2) = (t.of_form(&f, one, &mut map), t.of_form(&f, two, &mut map));
        assert_eq!(t.tell_apart(&[t1, t1], &[], &xs), None);
        // {*2} is not 0 (its G⁻ is 0) and *2 + *2 is not 0: told apart by some X
        let braced_two = f.from_options(&[two]);
        assert_ne!(braced_two, z);
        assert_eq!(f.misere_value(braced_two), 0);
        assert_eq!(f.display(braced_two), "{*2}");
        let tb = t.of_form(&f, braced_two, &mut map);
        assert!(t.tell_apart(&[tb], &[], &xs).is_some());
        let two_two = f.add(two, two);
        assert_ne!(two_two, z);
        assert!(t.tell_apart(&[t2, t2], &[], &xs).is_some());
        // *2+*2+*2+*2 is not *2+*2: misère games cancel (Conway's cancellation theorem,
        // ONAG ch. 12; Siegel, arXiv:2012.08554) and *2+*2 is not 0. No test game here
        // tells them apart (the X that does is big), so check what can be checked: the
        // form of *2+*2+*2+*2 agrees with the tree *2+*2+*2+*2 on every test game and on
        // its own mate (G + mate(G) is a misère P-position).
        let four = f.add(two_two, two_two);
        assert_ne!(four, two_two);
        assert_eq!(f.display(two_two), "{*2,*3}");
        let tf = t.of_form(&f, four, &mut map);
        let mate = t.mate(tf);
        assert_eq!(t.value(&[tf, mate]), 0);
        assert_eq!(t.value(&[t2, t2, t2, t2, mate]), 0);
        let mut xs_mate = xs.clone();
        xs_mate.push(vec![mate]);
        assert_eq!(t.tell_apart(&[t2, t2, t2, t2], &[tf], &xs_mate), None);
        // {0, *2} = *1 (reversible through *1), {*1, *2} = 0
        assert_eq!(f.from_options(&[z, two]), one);
        assert_eq!(f.from_options(&[one, two]), z);
        // the canonical form of a sum is equal to the (unsimplified) sum of its parts
        let k = f.from_options(&[z, braced_two]);
        for (a, b) in [
            (two, braced_two),
            (braced_two, braced_two),
            (k, two),
            (k, braced_two),
        ] {
            let s = f.add(a, b);
            let (ta, tb, ts) = (
                t.of_form(&f, a, &mut map),
                t.of_form(&f, b, &mut map),
                t.of_form(&f, s, &mut map),
            );
            assert_eq!(t.tell_apart(&[ta, tb], &[ts], &xs), None);
        }
    }

    #[test]
    fn games_born_by_day_four_are_22_distinct_forms() {
        // numbers of misère games born by day 0..=4: 1, 2, 3, 5, 22 (Siegel, CGT ch. V.1)
        let mut f = MisereForms::new();
        let counts: Vec<usize> = (0..=4).map(|d| born_by(&mut f, d).len()).collect();
        let day = born_by(&mut f, 4);
        assert_eq!(counts, [1, 2, 3, 5, 22]);
        // the 22 are pairwise told apart by test games (uniqueness of simplest forms)
        let mut t = Trees::default();
        let mut map = HashMap::new();
        let xs = test_games(&mut f, &mut t, &mut map);
        let trees: Vec<usize> = day.iter().map(|&g| t.of_form(&f, g, &mut map)).collect();
        for i in 0..trees.len() {
            for j in 0..i {
                assert!(
                    t.tell_apart(&[trees[i]], &[trees[j]], &xs).is_some(),
                    "{} and {}",
                    f.display(day[i]),
                    f.display(day[j])
                );
            }
        }
    }

    #[test]
    fn a_run_can_be_cancelled() {
        let stop = |_: u64, _: u64| ControlFlow::Break(());
        assert_eq!(
            take_break_misere(&rule("0.77"), 5, &stop).err(),
            Some(Error::Cancelled { done: 0 })
        );
        let after_three = |done: u64, _: u64| {
            if done >= 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        assert_eq!(
            take_break_misere(&rule("0.77"), u64::MAX, &after_three).err(),
            Some(Error::Cancelled { done: 3 })
        );
        let (_, heaps) = take_break_misere(&rule("0.77"), 0, &Silent).unwrap();
        assert_eq!(
            heaps,
            [MisereHeap {
                form: 0,
                misere_value: 1,
                normal_value: 0
            }]
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Random game trees of depth ≤ 4: the canonical form of G + X has the misère
        /// outcome of the unsimplified tree sum, and G's G⁻ and G⁺ are kept.
        #[test]
        fn canonical_sums_keep_misere_outcomes(
            layers in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u16>(), 1..4), 1..5),
        ) {
            let mut t = Trees::default();
            let mut f = MisereForms::new();
            let mut nodes = vec![t.node(vec![])];
            let mut canon = vec![f.zero()];
            let mut plus = vec![0u32];
            for layer in &layers {
                let before = nodes.len();
                for &mask in layer {
                    let kids: Vec<usize> = (0..before).filter(|&i| mask >> (i % 16) & 1 == 1).collect();
                    let node = t.node(kids.iter().map(|&i| nodes[i]).collect());
                    let opts: Vec<FormId> = kids.iter().map(|&i| canon[i]).collect();
                    let p: Vec<u32> = kids.iter().map(|&i| plus[i]).collect();
                    nodes.push(node);
                    canon.push(f.from_options(&opts));
                    plus.push(mex_of(&p));
                }
            }
            for i in 0..nodes.len() {
                proptest::prop_assert_eq!(f.misere_value(canon[i]), t.value(&[nodes[i]]));
                proptest::prop_assert_eq!(f.normal_value(canon[i]), plus[i]);
                for j in 0..nodes.len() {
                    for k in j..nodes.len() {
                        let engine = misere_outcome_of_sum(&mut f, &[canon[i], canon[j], canon[k]]);
                        proptest::prop_assert_eq!(engine, t.value(&[nodes[i], nodes[j], nodes[k]]) != 0);
                    }
                }
            }
        }
    }

    /// Heaps reached in 60 seconds (release mode): `cargo test -p heaplab-core --release
    /// reach_in_a_minute -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn reach_in_a_minute() {
        for (name, br) in [
            ("0.77", rule("0.77")),
            ("0.07", rule("0.07")),
            ("grundy", Breaker::grundy_game()),
        ] {
            let start = Instant::now();
            let limit = Duration::from_secs(60);
            let stop = |_: u64, _: u64| {
                if start.elapsed() >= limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            };
            let mut forms = MisereForms::new();
            let mut heaps = vec![];
            let mut last = Instant::now();
            while next_heap(&br, &mut forms, &mut heaps, &stop, u64::MAX, &mut last).is_ok() {
                let n = heaps.len() - 1;
                let h = heaps[n];
                println!(
                    "{name} heap {n}: {:.2} s, {} forms, {} sums, birthday {}, G- {} G+ {}, {} options",
                    start.elapsed().as_secs_f64(),
                    forms.len(),
                    forms.sums.len(),
                    forms.birthday(h.form),
                    h.misere_value,
                    h.normal_value,
                    forms.options(h.form).len()
                );
                if start.elapsed() >= limit {
                    break;
                }
            }
            println!("{name}: heaps 0..={} finished in 60 s", heaps.len() - 1);
        }
    }
}
