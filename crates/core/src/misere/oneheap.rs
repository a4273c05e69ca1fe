//! Misère nim-values and genera of one-heap moves (subtraction sets, all-but sets,
//! divisors, intervals, listed moves): layer by layer over 0..=N, each layer one walk over
//! every position's options (`moves::listed` lists them a segment at a time). The calls
//! on games are in `misere::genus`.

use crate::mex::ValueSet;
use crate::moves::listed::walk_options as walk;
use crate::moves::Moves;
use crate::observe::{Stopped, Watch};
use serde::Serialize;
use std::fmt;

/// Most layers γ0, γ1, … a genus table computes before it gives up waiting for every
/// heap's superscript to repeat with period 2 (it always does eventually; in practice
/// within a handful of layers).
pub const GENUS_LAYERS: usize = 64;

/// Whether the genus recursion walks these moves: one-heap moves with values (not a
/// seeded start, whose outcomes are prescribed).
pub(crate) fn walkable(moves: &Moves) -> bool {
    !matches!(
        moves,
        Moves::Split(_) | Moves::Options(_) | Moves::Seeded { .. }
    )
}

/// One layer of values over 0..=max: with `prev` = γ(i−1), the genus layer γi
/// (mex of {γ(i−1)(n), γ(i−1)(n) ⊕ 1} and the options' γi); without it, the mex over the
/// options with `empty` for a heap without a move — 0 gives normal play's Grundy values,
/// 1 misère nim-values (γ1).
fn layer(
    walker: &Moves,
    max: u64,
    prev: Option<&[u32]>,
    empty: u32,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    let mut out: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut seen = ValueSet::default();
    walk(walker, max, watch, |n, opts| {
        let v = match prev {
            None if opts.is_empty() => empty,
            _ => {
                seen.clear();
                if let Some(p) = prev {
                    let q = p[n as usize];
                    seen.insert(q);
                    seen.insert(q ^ 1);
                }
                for &m in opts {
                    seen.insert(out[m as usize]);
                }
                seen.mex()
            }
        };
        out.push(v);
    })?;
    Ok(out)
}

/// Conway's classes of a heap in misère play, from its genus and its options' classes
/// (the phyla of CGSuite's `MisereCanonicalGame`; Winning Ways, ch. 13 "tame and wild").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phylum {
    /// Hereditarily tame: its genus is tame (γ0 = γ1, or both are 0 or 1) and every option
    /// is tame. Sums of tame games follow the misère-Nim rule ([`crate::misere::misere_sum`]).
    Tame,
    /// Every option tame, the genus restive: γ0 is 0 or 1 and γ1 is 2 or more.
    Restive,
    /// Every option tame, the genus restless: γ1 is 0 or 1 and γ0 is 2 or more.
    Restless,
    /// Anything else: an option that is not tame, or γ0 ≠ γ1 both 2 or more. (Games that
    /// are tame only after reversing wild options, CGSuite's "reversibly tame", are
    /// counted here: heaplab does not test reversibility.)
    Wild,
}

impl Phylum {
    /// The name tables print: `tame`, `restive`, `restless`, `wild`.
    pub fn name(self) -> &'static str {
        match self {
            Phylum::Tame => "tame",
            Phylum::Restive => "restive",
            Phylum::Restless => "restless",
            Phylum::Wild => "wild",
        }
    }

    fn of(g0: u32, g1: u32, options_tame: bool) -> Phylum {
        if !options_tame {
            Phylum::Wild
        } else if g0 == g1 || (g0 | g1) < 2 {
            Phylum::Tame
        } else if g0 < 2 {
            Phylum::Restive
        } else if g1 < 2 {
            Phylum::Restless
        } else {
            Phylum::Wild
        }
    }
}

/// A genus g^{γ1γ2…γk} in its normalised form: the superscript stops where it starts
/// repeating with period 2 (γ(i+2) = γi for every i ≥ k − 1).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Genus {
    /// g = γ0, the normal-play Grundy value.
    pub normal: u32,
    /// γ1 … γk (k ≥ 2); γ1 is the misère nim-value.
    pub superscript: Vec<u32>,
}

impl fmt::Display for Genus {
    /// `0^{120}`, `2^{20}`; values of two or more digits are separated by commas
    /// (`12^{12,14}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.superscript.iter().any(|&v| v >= 10) {
            ","
        } else {
            ""
        };
        let sup: Vec<String> = self.superscript.iter().map(u32::to_string).collect();
        write!(f, "{}^{{{}}}", self.normal, sup.join(sep))
    }
}

/// The genus of every heap 0..=N of a one-heap game, with its [`Phylum`]
/// ([`genus_table`]).
#[derive(Debug, Clone)]
pub struct GenusTable {
    /// layers[i][n] = γi(n); the last two layers repeat the two before them.
    layers: Vec<Vec<u32>>,
    phyla: Vec<Phylum>,
}

impl GenusTable {
    /// N.
    pub fn max(&self) -> u64 {
        self.layers[0].len() as u64 - 1
    }

    /// γ0(n) (the normal-play Grundy value). n must be at most N.
    pub fn normal_value(&self, n: u64) -> u32 {
        self.layers[0][n as usize]
    }

    /// γ1(n) (the misère nim-value). n must be at most N.
    pub fn misere_value(&self, n: u64) -> u32 {
        self.layers[1][n as usize]
    }

    /// γi(n) for any i (past the computed layers, by their period 2). n must be at most N.
    pub fn gamma(&self, i: usize, n: u64) -> u32 {
        let last = self.layers.len() - 1;
        let i = if i <= last {
            i
        } else {
            last - 1 + (i - (last - 1)) % 2
        };
        self.layers[i][n as usize]
    }

    /// Layers computed (γ0 … γ(layers − 1)).
    pub fn layers(&self) -> usize {
        self.layers.len()
    }

    /// The normalised genus of heap n (n at most N).
    pub fn genus(&self, n: u64) -> Genus {
        let n = n as usize;
        let last = self.layers.len() - 1;
        let at = |i: usize| self.layers[i][n];
        // the least k >= 2 with γ(i+2) = γi for every computed i >= k - 1
        let mut k = last;
        while k > 2 && at(k - 2) == at(k) {
            k -= 1;
        }
        Genus {
            normal: at(0),
            superscript: (1..=k).map(at).collect(),
        }
    }

    /// The phylum of heap n (n at most N).
    pub fn phylum(&self, n: u64) -> Phylum {
        self.phyla[n as usize]
    }
}

/// The genus and phylum of every heap 0..=max of a one-heap game (`misere( )` looked
/// through): γ0 from `normal` (the game's normal-play Grundy values, which the caller
/// computes with the fast engines), γ1 as [`misere_values`] does, and each later layer by the
/// recursion in the [module documentation](crate::misere), until a layer equals the one two
/// before it — from then on every layer repeats, since each layer is the same function of
/// the one before. Each layer costs one walk over every option. `None` for take-and-break
/// games.
///
/// # Errors
/// [`crate::Error::Cancelled`] when `obs` stops the run; [`crate::Error::BadState`] if
/// `normal` does not hold max + 1 values or the layers do not repeat within
/// [`GENUS_LAYERS`] (never seen).
pub(crate) fn genus_layers(
    w: &Moves,
    normal: &[u32],
    max: u64,
    obs: &dyn crate::Observer,
) -> Result<Option<GenusTable>, crate::Error> {
    if !walkable(w) {
        return Ok(None);
    }
    if normal.len() as u64 != max.saturating_add(1) {
        return Err(crate::Error::BadState {
            reason: format!(
                "of the genus needs {} normal-play values, not {}",
                max as u128 + 1,
                normal.len()
            ),
        });
    }
    let mut layers = vec![normal.to_vec()];
    loop {
        let i = layers.len();
        if i >= GENUS_LAYERS {
            return Err(crate::Error::BadState {
                reason: format!("of the genus did not repeat within {GENUS_LAYERS} layers"),
            });
        }
        let seen = Layer(obs, i);
        let mut watch = Watch::start(&seen, max.saturating_add(1))?;
        // γ1 is the misère nim-value (1 at heaps without a move); γi from γ(i−1) after it
        let next = layer(
            w,
            max,
            (i >= 2).then(|| layers[i - 1].as_slice()),
            1,
            &mut watch,
        )?;
        layers.push(next);
        if i >= 3 && layers[i] == layers[i - 2] {
            break;
        }
    }
    // phyla, in increasing n (every option is a smaller heap)
    let mut phyla: Vec<Phylum> = Vec::with_capacity(max as usize + 1);
    let (g0, g1) = (&layers[0], &layers[1]);
    let mut quiet = Watch::start(&crate::observe::Silent, 0)?;
    walk(w, max, &mut quiet, |n, opts| {
        let tame = opts.iter().all(|&m| phyla[m as usize] == Phylum::Tame);
        phyla.push(Phylum::of(g0[n as usize], g1[n as usize], tame));
    })?;
    Ok(Some(GenusTable { layers, phyla }))
}

/// Reports layer i's progress to the table's observer as part of a run of about four
/// layers (γ1, γ2, γ3 and the rest).
struct Layer<'a>(&'a dyn crate::Observer, usize);

impl crate::Observer for Layer<'_> {
    fn observe(&self, done: u64, total: u64) -> std::ops::ControlFlow<()> {
        let before = (self.1 as u64 - 1).min(3);
        self.0.observe(
            before.saturating_mul(total).saturating_add(done),
            total.saturating_mul(4),
        )
    }
}
