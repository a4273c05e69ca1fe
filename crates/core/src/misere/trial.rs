//! A guess at the grown misère quotient made without searching any outcome: the
//! hypothesis step of Siegel's MisereSolver (T. E. Plambeck and A. N. Siegel, "Misère
//! quotients for impartial games", JCTA 115 (2008), §6: a trial monoid that is the old
//! quotient times cyclic monoids for the heaps set free, its P-portion marked by the
//! misère rule along each element's lexicographically least word, then reduced).
//!
//! The guess is only a hypothesis: [`super::quotient`] proves it with the rule walk, or
//! sets more heaps free and guesses again ([`Free`]), or falls back on its learner.
//!
//! **The trial monoid.** D = Q × C₁ × … × C_k, where Q is the proved quotient of the
//! smaller heaps and C_i = {1, g, …, g^(index+period−1)} with g^(index+period) = g^index
//! is the cyclic monoid of the i-th free heap. A free heap maps to its g; every other heap
//! to its element of Q.
//!
//! **Marking.** Words (sums of heaps) are ordered lexicographically with the largest heap
//! most significant. An option of a word replaces one heap by smaller heaps, so it comes
//! earlier in that order, and so does the least word of the option's element. Visiting the
//! words in that order and marking each element at its first (least) word therefore finds
//! every option's element marked already: the element is in the P-portion when its least
//! word has a move and none of that word's options' elements is. A word whose element is
//! marked already is not extended (any extension equals, in D, the same extension of an
//! earlier word), so every element is visited once.
//!
//! **Reduction.** Two elements of D stay apart when some product tells their P-portion
//! membership apart (Moore's partition refinement over the heaps' actions); the classes
//! form the guessed quotient, each named by the least word of its first element.

use std::collections::HashMap;

/// A heap set free in the trial monoid, with its cyclic monoid: g^(index + period) =
/// g^index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Free {
    pub heap: u64,
    pub index: u32,
    pub period: u32,
}

/// The proved quotient of the smaller heaps: order, products, heap map (its P-portion is
/// not needed: the marking recomputes it from the rule).
pub(super) struct Known<'a> {
    pub order: usize,
    pub mul: &'a [u32],
    pub phi: &'a [u32],
}

/// A guessed quotient of heaps 0..=n (not proved): element 0 is the identity.
pub(super) struct Guess {
    pub order: usize,
    pub mul: Vec<u32>,
    pub p: Vec<bool>,
    pub phi: Vec<u32>,
    /// Each element's least word (heap sizes, increasing).
    pub words: Vec<Vec<u64>>,
    /// Elementary steps the guess took (products while marking and reducing).
    pub work: u64,
}

/// The trial monoid D: element = q + order · (mixed-radix exponents of the free heaps).
struct Trial<'a> {
    known: &'a Known<'a>,
    free: &'a [Free],
    size: usize,
}

impl Trial<'_> {
    fn split(&self, d: u32) -> (usize, usize) {
        (d as usize % self.known.order, d as usize / self.known.order)
    }

    fn mul(&self, a: u32, b: u32) -> u32 {
        let (qa, mut ca) = self.split(a);
        let (qb, mut cb) = self.split(b);
        let q = self.known.mul[qa * self.known.order + qb] as usize;
        let (mut c, mut scale) = (0usize, 1usize);
        for f in self.free {
            let radix = (f.index + f.period) as usize;
            let (ea, eb) = (ca % radix, cb % radix);
            ca /= radix;
            cb /= radix;
            let mut e = ea + eb;
            if e >= radix {
                e = f.index as usize + (e - f.index as usize) % f.period as usize;
            }
            c += e * scale;
            scale *= radix;
        }
        (q + self.known.order * c) as u32
    }

    /// The element of heap h.
    fn heap(&self, h: u64) -> u32 {
        let mut scale = self.known.order;
        for f in self.free {
            if f.heap == h {
                return scale as u32;
            }
            scale *= (f.index + f.period) as usize;
        }
        self.known.phi.get(h as usize).copied().unwrap_or(0)
    }
}

/// One generator of the walk: the least heap with a given element, and its options'
/// elements.
struct Gen {
    heap: u64,
    elem: u32,
    opts: Vec<u32>,
}

struct Walk<'a> {
    trial: &'a Trial<'a>,
    gens: Vec<Gen>,
    marked: Vec<bool>,
    p: Vec<bool>,
    /// Marked elements in the order marked, with their least words (generator exponents).
    order: Vec<u32>,
    words: HashMap<u32, Vec<u64>>,
    /// The current word: exponents of the generators.
    exps: Vec<u32>,
    /// An option's element was not marked first (the walk's premise failed).
    broken: bool,
    /// Products computed while marking.
    work: u64,
}

impl Walk<'_> {
    /// Visits every word with the exponents of generators above `j` fixed (generators
    /// 0..j still free, the largest heaps first), from element `elem` whose options'
    /// elements are `tr`.
    fn visit(&mut self, j: usize, elem: u32, tr: &[u32]) {
        if j == 0 {
            self.mark(elem, tr);
            return;
        }
        let g = j - 1;
        self.visit(g, elem, tr);
        let (mut e, mut t) = (elem, tr.to_vec());
        loop {
            let next = self.trial.mul(e, self.gens[g].elem);
            if self.marked[next as usize] || self.broken {
                break;
            }
            let mut nt: Vec<u32> = t
                .iter()
                .map(|&x| self.trial.mul(x, self.gens[g].elem))
                .collect();
            nt.extend(self.gens[g].opts.iter().map(|&o| self.trial.mul(e, o)));
            nt.sort_unstable();
            nt.dedup();
            self.work += (t.len() + self.gens[g].opts.len() + 1) as u64;
            self.exps[g] += 1;
            self.visit(g, next, &nt);
            (e, t) = (next, nt);
        }
        self.exps[g] = 0;
    }

    fn mark(&mut self, elem: u32, tr: &[u32]) {
        if self.marked[elem as usize] {
            return;
        }
        if tr.iter().any(|&t| !self.marked[t as usize]) {
            self.broken = true;
            return;
        }
        self.p[elem as usize] = !tr.is_empty() && tr.iter().all(|&t| !self.p[t as usize]);
        self.marked[elem as usize] = true;
        self.order.push(elem);
        let mut w = Vec::new();
        for (g, &k) in self.exps.iter().enumerate() {
            w.extend(std::iter::repeat_n(self.gens[g].heap, k as usize));
        }
        w.sort_unstable();
        self.words.insert(elem, w);
    }
}

/// The guess for heaps 0..=n: `known` is the proved quotient of heaps 0..n, `options[h]`
/// heap h's options (each the heaps with a move it leaves) for h in 0..=n, `free` the heaps
/// set free (heap n among them). None when the trial monoid would pass `max_size`
/// elements, or the marking's premise fails.
pub(super) fn guess(
    known: &Known,
    options: &[Vec<Vec<u64>>],
    free: &[Free],
    max_size: usize,
) -> Option<Guess> {
    let mut size = known.order;
    for f in free {
        size = size.checked_mul((f.index + f.period) as usize)?;
    }
    if size > max_size || size > u32::MAX as usize {
        return None;
    }
    let trial = Trial { known, free, size };
    // generators: the least heap of each distinct element (a larger heap with the same
    // element never gives a least word)
    let mut gens: Vec<Gen> = Vec::new();
    for (h, opts) in options.iter().enumerate() {
        if opts.is_empty() {
            continue;
        }
        let elem = trial.heap(h as u64);
        if elem == 0 || gens.iter().any(|g| g.elem == elem) {
            continue;
        }
        let mut t: Vec<u32> = opts
            .iter()
            .map(|w| w.iter().fold(0u32, |s, &x| trial.mul(s, trial.heap(x))))
            .collect();
        t.sort_unstable();
        t.dedup();
        gens.push(Gen {
            heap: h as u64,
            elem,
            opts: t,
        });
    }
    let k = gens.len();
    let mut walk = Walk {
        trial: &trial,
        gens,
        marked: vec![false; trial.size],
        p: vec![false; trial.size],
        order: Vec::new(),
        words: HashMap::new(),
        exps: vec![0; k],
        broken: false,
        work: 0,
    };
    walk.visit(k, 0, &[]);
    if walk.broken {
        return None;
    }
    // Moore's refinement of the marked elements by the P-portion and the actions
    let elems = walk.order.clone();
    let mut class: HashMap<u32, u32> = elems
        .iter()
        .map(|&d| (d, u32::from(walk.p[d as usize])))
        .collect();
    let mut count = 0;
    let mut work = walk.work;
    loop {
        work += (elems.len() * (walk.gens.len() + 1)) as u64;
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut next: HashMap<u32, u32> = HashMap::with_capacity(elems.len());
        for &d in &elems {
            let mut sig = Vec::with_capacity(walk.gens.len() + 1);
            sig.push(class[&d]);
            for g in &walk.gens {
                sig.push(*class.get(&trial.mul(d, g.elem))?);
            }
            let n = ids.len() as u32;
            next.insert(d, *ids.entry(sig).or_insert(n));
        }
        let stable = ids.len() == count;
        count = ids.len();
        class = next;
        if stable {
            break;
        }
    }
    // classes numbered in the order their first elements were marked (the identity first)
    let mut rename: HashMap<u32, u32> = HashMap::new();
    let mut reps: Vec<u32> = Vec::new();
    for &d in &elems {
        let c = class[&d];
        if let std::collections::hash_map::Entry::Vacant(v) = rename.entry(c) {
            v.insert(reps.len() as u32);
            reps.push(d);
        }
    }
    let order = reps.len();
    let of = |d: u32| -> Option<u32> { Some(rename[class.get(&d)?]) };
    let mut mul = vec![0u32; order * order];
    for (a, &x) in reps.iter().enumerate() {
        for (b, &y) in reps.iter().enumerate() {
            mul[a * order + b] = of(trial.mul(x, y))?;
        }
    }
    let p = reps.iter().map(|&d| walk.p[d as usize]).collect();
    let phi = (0..options.len())
        .map(|h| {
            if options[h].is_empty() {
                Some(0)
            } else {
                of(trial.heap(h as u64))
            }
        })
        .collect::<Option<Vec<u32>>>()?;
    let words = reps.iter().map(|d| walk.words[d].clone()).collect();
    Some(Guess {
        order,
        mul,
        p,
        phi,
        words,
        work: work + (order * order) as u64,
    })
}
