//! Misère sums of heaps: a sum of tame heaps by the misère-Nim rule on their genera; any
//! sum of small heaps by canonical misère forms.

use crate::budget::{Budget, Task};
use crate::cert::{CertRule, Sequence};
use crate::error::Error;
use crate::game::Game;
use crate::known::Move;
use crate::misere::canon::{take_break_misere_in, FormId, MisereForms};
use crate::misere::genus::genera;
use crate::misere::oneheap::{Genus, GenusTable, Phylum};
use crate::moves::Moves;
use crate::observe::{ControlFlow, Observer};
use crate::plan::plan;
use crate::sums::sum::{Sum, SumMove};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One heap of a misère sum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MisereSumHeap {
    /// The game's canonical spec (normal-play moves; the sum is played misère).
    pub game: String,
    /// The heap.
    pub n: u64,
    /// Its misère nim-value G⁻ (0 exactly when the heap alone is a misère P-position);
    /// None when the sum was decided by the misère quotient, which does not give it.
    pub misere_value: Option<u64>,
    /// Its element of the misère quotient, as a word in the generators, when the sum was
    /// decided by the quotient.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
    /// Its genus (one-heap games).
    pub genus: Option<String>,
    /// Its phylum (one-heap games).
    pub phylum: Option<Phylum>,
}

/// Who wins a sum of heaps in misère play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MisereSum {
    /// Every heap.
    pub heaps: Vec<MisereSumHeap>,
    /// True for a misère N-position (the player to move wins).
    pub win: bool,
    /// Winning moves (to a misère P-position), at most the limit asked for.
    pub moves: Vec<SumMove>,
    /// True when `moves` lists every winning move: false when the limit was reached, or
    /// when a heap above 2^20 was searched only through the splits that reach every
    /// quotient element (some winning moves then go unlisted).
    pub complete: bool,
    /// How the outcome was found, for reports.
    pub method: String,
}

/// Largest heap whose genus is computed for a misère sum.
const GENUS_HEAP_MAX: u64 = 1 << 26;

/// The heap's game, without `misere( )`, after checking that the sum is misère throughout.
pub(super) fn misere_terms(sum: &Sum) -> Result<Vec<(Game, u64)>, Error> {
    if sum.heaps.is_empty() {
        return Err(Error::Unsupported {
            what: "an empty sum".into(),
        });
    }
    if sum.heaps.iter().any(|(g, _)| !matches!(g, Game::Misere(_))) {
        return Err(Error::Unsupported {
            what: "a sum that mixes normal and misère heaps (a sum is played one way: write \
                   every term as misere(SPEC), or use --play misere)"
                .into(),
        });
    }
    Ok(sum
        .heaps
        .iter()
        .map(|(g, n)| (g.under_normal_play().normalized().into_owned(), *n))
        .collect())
}

/// Decides a sum of heaps in misère play (every term `misere(SPEC):HEAP`) and lists up to
/// `limit` winning moves (0 is taken as 1):
///
/// - when every heap is of a one-heap game (subtraction, all-but, divisor and interval
///   games) and **tame** ([`Phylum::Tame`]), by the misère-Nim rule on genera (Winning Ways,
///   ch. 13, "tame games"): with X the XOR of the heaps' γ0, the sum is a misère P-position
///   iff some heap has γ0 = γ1 and X = 0, or no heap has and X = 1 — misère Nim's rule, each
///   tame heap playing as the nim-heap its genus names. The genus tables run to the largest
///   heap of each game (at most 2^26), within `budget`; a finite subtraction set's heaps
///   may be any size once its genus period is proven (see `genus_for`).
/// - when some heap is of a take-and-break game, exactly, by the canonical misère forms of
///   the heaps ([`super::canon`]), tame or not, as far as the budget allows (Kayles heaps
///   to about 70 in a minute). When every heap is of a take-and-break game with a
///   quotient rule ([`super::quotient::quotient_rule`]), a quotient whose periods are
///   proved quickly comes first (unless every heap is at most 16: forms first, which take
///   milliseconds there); heaps above 64, or forms beyond the budget, go to the
///   games' misère quotient ([`super::quotient`]: the game's own, or the joint quotient of
///   the sum's games, [`super::quotient::QuotientSolver::joint`]; see `by_quotient`), and a
///   quotient that does not reach the heaps falls back to the forms; when both fail, the
///   error says why for each.
///
/// # Errors
/// [`Error::Unsupported`] for a sum that mixes normal and misère terms, a sum with a heap
/// that is not tame when the tame rule is the method ("this sum is not tame: … misère sums
/// of one-heap games that are not tame are not supported …"), or heaps beyond the methods'
/// reach (a quotient that must grow beyond [`super::quotient::GrowthLimit::QUICK`], a heap
/// beyond an unproved quotient); as
/// [`crate::plan()`] for the tables within the budget; [`Error::Cancelled`] when `obs`
/// stops a table.
pub fn misere_sum(
    sum: &Sum,
    limit: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<MisereSum, Error> {
    let terms = misere_terms(sum)?;
    let limit = limit.max(1);
    if terms.iter().any(|(g, _)| g.moves_of(0).is_none()) {
        let top = terms.iter().map(|t| t.1).max().unwrap_or(0);
        // heaps of take-and-break games only (one game, or several with a joint quotient)
        let rules: Vec<_> = terms
            .iter()
            .map(|t| super::quotient::quotient_rule(&t.0))
            .collect();
        let quotientable = rules.iter().all(Result::is_ok);
        // (rules that leave three heaps get no proof: not tried)
        let provable = rules
            .iter()
            .all(|b| b.as_ref().is_ok_and(|b| !b.has_three()));
        if quotientable && top > FORMS_FIRST {
            // a quotient proved quickly decides the sum at once; else canonical forms when
            // they take seconds (0.07:100 + 3, whose quotient stops growing at heap 30:
            // about 4 s, where learning spent 75 s before it gave up); else the quotient
            // learned within the quick limits, and the forms within the whole budget last
            if provable {
                match by_quotient(&terms, limit, Reach::Proved, obs) {
                    Err(Error::Cancelled { done }) => return Err(Error::Cancelled { done }),
                    Err(_) => {}
                    r => return r,
                }
            }
            let brief = Budget {
                seconds: budget.seconds.min(FORMS_BRIEF_SECONDS),
                ..*budget
            };
            match by_forms(&terms, limit, &brief, obs) {
                Err(Error::Cancelled { done }) => return Err(Error::Cancelled { done }),
                Err(_) => {}
                r => return r,
            }
            return match by_quotient(&terms, limit, Reach::Quick, obs) {
                // beyond the quick quotient: canonical forms, as far as they fit (Kayles
                // heaps to about 70)
                Err(e) if !matches!(e, Error::Cancelled { .. }) => {
                    by_forms(&terms, limit, budget, obs).map_err(|f| match f {
                        Error::Cancelled { .. } => f,
                        f => Error::Unsupported {
                            what: format!("{e}; by canonical misère forms: {f}"),
                        },
                    })
                }
                r => r,
            };
        }
        // a quotient whose period is proved cheaply decides any sum at once (0.75's is
        // proved at heap 24 and decides heaps 50 + 60, whose forms take 9 s; 0.53's at
        // heap 71 decides 32 + 25 + 37 + 2, a minute by forms)
        // (sums of tiny heaps: their forms answer in milliseconds, a proof takes up to
        // seconds — Kayles' 0.5 s, joint with 0.75 1.8 s)
        if provable && top > FORMS_TINY {
            match by_quotient(&terms, limit, Reach::Proved, obs) {
                Err(Error::Cancelled { done }) => return Err(Error::Cancelled { done }),
                Err(_) => {}
                r => return r,
            }
        }
        return match by_forms(&terms, limit, budget, obs) {
            // forms beyond the budget: the quotient may still reach the heaps
            Err(e) if quotientable && !matches!(e, Error::Cancelled { .. }) => {
                by_quotient(&terms, limit, Reach::Quick, obs).map_err(|_| e)
            }
            // say which heap keeps the quotient out
            Err(e) if top > FORMS_TINY && !matches!(e, Error::Cancelled { .. }) => {
                let other = terms
                    .iter()
                    .zip(&rules)
                    .find(|(_, r)| r.is_err())
                    .map_or(String::new(), |((g, _), _)| g.to_string());
                Err(Error::Unsupported {
                    what: format!(
                        "{e} (a misère quotient, which reaches large heaps, needs every \
                         heap to be of a take-and-break game; {other} is not one)"
                    ),
                })
            }
            r => r,
        };
    }
    by_genus(&terms, limit, budget, obs)
}

/// The tame rule: (γ0, γ1) of every heap → is the sum a misère P-position?
fn tame_sum_is_p(heaps: impl Iterator<Item = (u64, u64)>) -> bool {
    let (mut x, mut big) = (0u64, false);
    for (g0, g1) in heaps {
        x ^= g0;
        big |= g0 == g1;
    }
    if big {
        x == 0
    } else {
        x == 1
    }
}

fn by_genus(
    terms: &[(Game, u64)],
    limit: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<MisereSum, Error> {
    // one genus source per game, to its largest heap
    let mut tops: BTreeMap<String, (Game, u64)> = BTreeMap::new();
    for (g, n) in terms {
        let e = tops.entry(g.to_string()).or_insert((g.clone(), 0));
        e.1 = e.1.max(*n);
    }
    let mut sources: BTreeMap<String, Source> = BTreeMap::new();
    for (key, (g, top)) in tops {
        let s = match is_nim(&g) {
            true => Source::Nim,
            false => {
                let (t, fold) = genus_for(&g, top, budget, obs)?;
                Source::Table(t, fold)
            }
        };
        sources.insert(key, s);
    }
    let src = |g: &Game| &sources[&g.to_string()];
    let heaps: Vec<MisereSumHeap> = terms
        .iter()
        .map(|(g, n)| {
            let s = src(g);
            MisereSumHeap {
                game: g.to_string(),
                n: *n,
                misere_value: Some(s.pair(*n).1),
                element: None,
                genus: Some(s.genus(*n)),
                phylum: Some(s.phylum(*n)),
            }
        })
        .collect();
    // the options worth trying from heap i: all of them, or for a nim heap the few that
    // can reach a P-position (by the rule below: the XOR of the others, or it ⊕ 1, or 0, 1)
    let candidates = |i: usize, now: &[(u64, u64)]| -> Option<Vec<Move>> {
        let (g, n) = &terms[i];
        if !matches!(src(g), Source::Nim) {
            return None;
        }
        let rest = now
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .fold(0, |x, (_, v)| x ^ v.0);
        let mut ms: Vec<u64> = [rest, rest ^ 1, 0, 1]
            .into_iter()
            .filter(|m| m < n)
            .collect();
        ms.sort_unstable();
        ms.dedup();
        Some(
            ms.into_iter()
                .rev()
                .map(|m| Move::take(*n, n - m))
                .collect(),
        )
    };
    let now: Vec<(u64, u64)> = terms.iter().map(|(g, n)| src(g).pair(*n)).collect();
    if terms.len() == 1 {
        // one heap: its misère value decides, tame or not
        let g = &terms[0].0;
        let moves = moves_to_p(
            terms,
            limit,
            |i| candidates(i, &now),
            |_, left| src(g).pair(left.first().copied().unwrap_or(0)).1 == 0,
        );
        return Ok(MisereSum {
            win: heaps[0].misere_value != Some(0),
            heaps,
            complete: moves.len() < limit,
            moves,
            method: "misère nim-value of the heap".into(),
        });
    }
    if let Some((i, h)) = heaps
        .iter()
        .enumerate()
        .find(|(_, h)| h.phylum != Some(Phylum::Tame))
    {
        return Err(Error::Unsupported {
            what: format!(
                "this sum is not tame: heap {} ({}:{}) is {} with genus {}; misère sums of \
                 one-heap games that are not tame are not supported (misère quotients, \
                 `heaplab quotient`, cover take-and-break games)",
                i + 1,
                h.game,
                h.n,
                h.phylum.map_or("wild", Phylum::name),
                h.genus.as_deref().unwrap_or("?")
            ),
        });
    }
    let win = !tame_sum_is_p(now.iter().copied());
    let moves = match win {
        true => moves_to_p(
            terms,
            limit,
            |i| candidates(i, &now),
            |i, left| {
                // a one-heap move leaves one heap (or none: heap 0)
                let after = src(&terms[i].0).pair(left.first().copied().unwrap_or(0));
                tame_sum_is_p(
                    now.iter()
                        .enumerate()
                        .map(|(j, &v)| if j == i { after } else { v }),
                )
            },
        ),
        false => vec![],
    };
    Ok(MisereSum {
        heaps,
        win,
        complete: moves.len() < limit,
        moves,
        method: "tame sum: the misère-Nim rule on the heaps' genera".into(),
    })
}

/// `nim` (every amount may be taken): its genera are known for every heap.
fn is_nim(g: &Game) -> bool {
    matches!(
        g.structure().moves,
        Moves::AllBut {
            excluded,
            leave1: false,
        } if excluded.is_empty()
    )
}

/// Where a game's genera come from.
enum Source {
    /// A genus table, and how heaps map into it.
    Table(GenusTable, Fold),
    /// Nim heaps: 0^{120}, 1^{031} and n^{n(n⊕2)} for n ≥ 2, all tame (Winning Ways,
    /// ch. 13), any size.
    Nim,
}

impl Source {
    /// (γ0, γ1) of heap n.
    fn pair(&self, n: u64) -> (u64, u64) {
        match self {
            Source::Table(t, f) => {
                let m = f.at(n);
                (u64::from(t.normal_value(m)), u64::from(t.misere_value(m)))
            }
            Source::Nim if n < 2 => (n, 1 - n),
            Source::Nim => (n, n),
        }
    }

    fn genus(&self, n: u64) -> String {
        match self {
            Source::Table(t, f) => t.genus(f.at(n)).to_string(),
            Source::Nim => match n {
                0 => "0^{120}".into(),
                1 => "1^{031}".into(),
                _ if n < 10 && n ^ 2 < 10 => format!("{n}^{{{n}{}}}", n ^ 2),
                _ => format!("{n}^{{{n},{}}}", n ^ 2),
            },
        }
    }

    fn phylum(&self, n: u64) -> Phylum {
        match self {
            Source::Table(t, f) => t.phylum(f.at(n)),
            Source::Nim => Phylum::Tame,
        }
    }
}

/// The moves of a sum to a position `lost(i, heaps left)` says is a misère P-position:
/// heap by heap, each heap's options by tokens removed (or the moves `only(i)` names, when
/// it names some), at most `limit`.
fn moves_to_p(
    terms: &[(Game, u64)],
    limit: usize,
    mut only: impl FnMut(usize) -> Option<Vec<Move>>,
    mut lost: impl FnMut(usize, &[u64]) -> bool,
) -> Vec<SumMove> {
    let mut out = vec![];
    for (i, (g, n)) in terms.iter().enumerate() {
        let opts = only(i).unwrap_or_else(|| {
            let mut opts: Vec<Move> = vec![];
            crate::rule::Rule::for_each_option(g, *n, &mut |left| {
                let leaves: Vec<u64> = left.iter().copied().filter(|&h| h > 0).collect();
                opts.push(Move {
                    removed: *n - left.iter().sum::<u64>(),
                    added: 0,
                    leaves,
                    turned: None,
                });
            });
            opts.sort_by(|a, b| (a.removed, &a.leaves).cmp(&(b.removed, &b.leaves)));
            opts.dedup();
            opts
        });
        for m in opts {
            if lost(i, &m.leaves) {
                let left = m.leaves.clone();
                out.push(sum_move(terms, i, m, &left));
                if out.len() >= limit {
                    return out;
                }
            }
        }
    }
    out
}

/// How a heap maps into a genus table: itself, or into the table's proven period.
#[derive(Debug, Clone, Copy)]
enum Fold {
    /// The table reaches every heap asked for.
    Direct,
    /// Genera and phyla repeat with this period from this preperiod, proven.
    Periodic { preperiod: u64, period: u64 },
}

impl Fold {
    fn at(self, n: u64) -> u64 {
        match self {
            Fold::Direct => n,
            Fold::Periodic { preperiod, period } if n >= preperiod => {
                preperiod + (n - preperiod) % period
            }
            Fold::Periodic { .. } => n,
        }
    }
}

/// The genus table of `game` for heaps up to `top`: the table itself when `top` is at most
/// [`GENUS_HEAP_MAX`]; beyond, for a finite subtraction set, a table long enough to prove
/// that the (genus, phylum) sequence is periodic — from the largest move k on, each heap's
/// genus and phylum are a function of those of the k heaps below it, so a period seen on
/// 0..=N with N >= n0 + p + k holds for ever (the window argument of
/// [`crate::CertRule::FiniteSubtraction`]) — tried at 2^16, 2^20 and 2^24 heaps.
fn genus_for(
    g: &Game,
    top: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<(GenusTable, Fold), Error> {
    let build = |len: u64| -> Result<GenusTable, Error> {
        genera(g, len, budget, obs)?.ok_or_else(|| Error::Unsupported {
            what: format!("the genus of {g}"),
        })
    };
    if top <= GENUS_HEAP_MAX {
        return Ok((build(top)?, Fold::Direct));
    }
    let rule = CertRule::of(g, Sequence::Grundy);
    if let CertRule::FiniteSubtraction { .. } = rule {
        for len in [1u64 << 16, 1 << 20, 1 << 24] {
            let t = build(len)?;
            let mut ids: HashMap<(Genus, Phylum), i64> = HashMap::new();
            let seq: Vec<i64> = (0..=len)
                .map(|n| {
                    let next = ids.len() as i64;
                    *ids.entry((t.genus(n), t.phylum(n))).or_insert(next)
                })
                .collect();
            if let Some(p) = crate::period::find_period(&seq, false) {
                let proven = rule
                    .bound(p.preperiod, p.period, 0)
                    .is_some_and(|need| len >= need);
                if proven {
                    let fold = Fold::Periodic {
                        preperiod: p.preperiod,
                        period: p.period,
                    };
                    return Ok((t, fold));
                }
            }
        }
    }
    Err(Error::Unsupported {
        what: format!(
            "a misère sum with heap {top} of {g}: genera are computed to heaps of at most \
             {GENUS_HEAP_MAX}, or to any heap of a finite subtraction set whose genus period \
             shows up within 2^24 heaps"
        ),
    })
}

/// The sum after heap `i` is replaced by `left`.
fn sum_move(terms: &[(Game, u64)], i: usize, step: Move, left: &[u64]) -> SumMove {
    let mut result = vec![];
    for (j, (g, n)) in terms.iter().enumerate() {
        if j == i {
            result.extend(
                left.iter()
                    .map(|&h| (g.with_play(crate::game::Play::Misere).to_string(), h)),
            );
        } else {
            result.push((g.with_play(crate::game::Play::Misere).to_string(), *n));
        }
    }
    SumMove {
        heap: i,
        step,
        result,
    }
}

/// Sums of one take-and-break game whose heaps are all at most this are decided by
/// canonical forms (by the misère quotient when the forms are refused); larger ones by the
/// quotient (by canonical forms when the quotient does not reach them).
const FORMS_FIRST: u64 = 64;

/// Seconds of canonical forms a sum with a heap past [`FORMS_FIRST`] is given when its
/// quotient is not proved quickly, before the quotient is learned: about what learning
/// within [`super::quotient::GrowthLimit::QUICK`] spends when it fails (0.07 and 0.137:
/// 64–71 s here, refused at heap 25). At 10 s, `who --play misere --game 0.137 105`
/// (forms estimated at 10.5 s, run in 8 s) waited 73 s on the quotient first.
const FORMS_BRIEF_SECONDS: f64 = 60.0;

/// Sums whose heaps are all at most this go to canonical forms before a proved quotient.
const FORMS_TINY: u64 = 16;

/// How far [`by_quotient`] builds the quotient.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Until Φ's period is proved or the sum's largest heap is covered, growing within
    /// [`GrowthLimit::QUICK`](super::quotient::GrowthLimit::QUICK).
    Quick,
    /// Only a period proved quickly ([`super::quotient::proved_quotient`]): the try before
    /// canonical forms.
    Proved,
}

/// Heaps [`by_quotient`] covers while it looks for a proved period.
const QUOTIENT_HEAPS: u64 = 4096;

/// A sum of heaps of take-and-break games by their misère quotient
/// ([`super::quotient::QuotientSolver`]; the joint quotient,
/// [`super::quotient::QuotientSolver::joint`], when the sum has heaps of several games):
/// the quotient is built until every game's period is proved (then every heap is covered)
/// or the sum's largest heap is covered; the outcome is the product of the heaps'
/// elements, and each winning move is found by the products of its options' elements and
/// checked by the product of the whole sum it leaves.
fn by_quotient(
    terms: &[(Game, u64)],
    limit: usize,
    reach: Reach,
    obs: &dyn Observer,
) -> Result<MisereSum, Error> {
    use super::quotient::{quotient_rule, GrowthLimit, QuotientSolver};
    // the games in order of first appearance (two spellings of one rule, `4!.0` and
    // `grundy-game`, are one game), and each term's game
    let mut games: Vec<&Game> = vec![];
    let mut rules = vec![];
    let mut keys: Vec<String> = vec![];
    let mut of: Vec<usize> = vec![];
    for (g, _) in terms {
        let rule = quotient_rule(g)?;
        let key = format!("{rule:?}");
        match keys.iter().position(|k| *k == key) {
            Some(j) => of.push(j),
            None => {
                of.push(games.len());
                games.push(g);
                rules.push(rule);
                keys.push(key);
            }
        }
    }
    let k = games.len() as u64;
    let names =
        super::quotient::joined_names(&games.iter().map(|g| g.to_string()).collect::<Vec<_>>());
    let top = terms.iter().map(|t| t.1).max().unwrap_or(0);
    let q = if reach == Reach::Proved {
        // a joint quotient maps onto each game's own (on sums of that game's heaps), so its
        // periods give the game's own period: when a game's own quotient is not proved
        // quickly (each remembered), the joint try is skipped (0.07 with Kayles took 7 s to
        // fail; the forms decide such small sums in a fraction of a second)
        if rules.len() > 1
            && rules
                .iter()
                .any(|r| super::quotient::proved_quotient(r).is_none())
        {
            return Err(Error::Unsupported {
                what: "some game's misère quotient is not proved quickly".into(),
            });
        }
        super::quotient::proved_joint_quotient(&rules).ok_or_else(|| Error::Unsupported {
            what: "no period of the misère quotient is proved quickly".into(),
        })?
    } else {
        let mut s = QuotientSolver::joint(&rules)?;
        s.limit_growth(GrowthLimit::QUICK);
        let last = (top.min(QUOTIENT_HEAPS) + 1) * k - 1;
        // each game's largest heap in the sum
        let mut tops = vec![0u64; games.len()];
        for (t, &j) in terms.iter().zip(&of) {
            tops[j] = tops[j].max(t.1);
        }
        match s.solve_until_covered(&tops, last, obs) {
            Err(Error::Unsupported { what }) if s.growth_refused().is_some() => {
                let what = match s.growth_refused() {
                    // positions interleave the games: name the heap and its game
                    Some(i) if k > 1 => format!(
                        "the joint misère quotient of {names} (order {}) grows at heap {} of \
                         {}, beyond what this run learns (guesses proved within 10^8 steps, \
                         then heaps up to {} of each game within {} search steps)",
                        s.order(),
                        i / k,
                        games[(i % k) as usize],
                        super::quotient::QUICK_GROWTH,
                        super::quotient::QUICK_WORK
                    ),
                    _ => what,
                };
                let reach = (0..games.len())
                    .map(|j| {
                        let c = s.covers(j).map_or("none".into(), |c| format!("up to {c}"));
                        format!("heaps {c} of {}", games[j])
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(Error::Unsupported {
                    what: format!(
                        "{what}; sums of {reach} are decided (by the quotient, or by \
                         canonical forms as far as they fit)"
                    ),
                });
            }
            r => r?,
        }
        s.quotient()
    };
    let elem = |j: usize, h: u64| {
        q.heap_element_in(j, h).ok_or_else(|| Error::Unsupported {
            what: format!(
                "heap {h} of {} is beyond the misère quotient, which covers positions \
                 0..={} (order {}) without a proved period",
                games[j],
                q.max(),
                q.order()
            ),
        })
    };
    let els: Vec<u32> = terms
        .iter()
        .zip(&of)
        .map(|(t, &j)| elem(j, t.1))
        .collect::<Result<_, _>>()?;
    // With Φ's period (n0, p) proved, a split a + b (a ≤ b) with a ≥ n0 + p has the
    // element of the split (a − p) + (b + p) (both parts keep their elements, and the
    // parts stay unequal when they were), so every option's element is reached by a split
    // whose smaller part is below n0 + p: heaps above 2^20 try only those (at most
    // n0 + 2p), lest a heap near 10^18 enumerate that many splits.
    let split_max = |j: usize, n: u64| match q.period_of(j).filter(|p| p.proved) {
        Some(p) if n > 1 << 20 => p.preperiod + 2 * p.period,
        _ => u64::MAX,
    };
    let total = els.iter().fold(0, |a, &e| q.mul(a, e));
    let win = !q.is_p(total);
    let mut moves = vec![];
    if win {
        'heaps: for (i, (_, n)) in terms.iter().enumerate() {
            let j = of[i];
            let rest = els
                .iter()
                .enumerate()
                .filter(|&(x, _)| x != i)
                .fold(0, |a, (_, &e)| q.mul(a, e));
            let mut found: Vec<Move> = vec![];
            let _ = rules[j].options(*n, split_max(j, *n), &mut |removed, left| {
                // every heap left is smaller than n, whose element is known, so its
                // element is known too (below N, or by the proved period)
                let e = left.iter().fold(rest, |e, &h| {
                    q.mul(
                        e,
                        q.heap_element_in(j, h).expect("a smaller heap is covered"),
                    )
                });
                if q.is_p(e) {
                    found.push(Move {
                        removed,
                        added: 0,
                        leaves: left.to_vec(),
                        turned: None,
                    });
                    if found.len() >= limit {
                        return std::ops::ControlFlow::Break(());
                    }
                }
                std::ops::ControlFlow::Continue(())
            });
            for m in found {
                let left = m.leaves.clone();
                // check: the whole sum the move leaves is in the P-portion
                let after: Vec<(usize, u64)> = terms
                    .iter()
                    .zip(&of)
                    .enumerate()
                    .filter(|&(x, _)| x != i)
                    .map(|(_, (t, &g))| (g, t.1))
                    .chain(left.iter().map(|&h| (j, h)))
                    .collect();
                if q.element_of_heaps_in(&after).map(|e| q.is_p(e)) != Some(true) {
                    return Err(Error::Unsupported {
                        what: "a winning move from the misère quotient failed its check (a \
                               defect: please report the sum)"
                            .into(),
                    });
                }
                moves.push(sum_move(terms, i, m, &left));
                if moves.len() >= limit {
                    break 'heaps;
                }
            }
        }
    }
    let pr = q.presentation();
    let heaps = terms
        .iter()
        .zip(&els)
        .map(|((g, n), &e)| MisereSumHeap {
            game: g.to_string(),
            n: *n,
            misere_value: None,
            element: Some(pr.element(e)),
            genus: None,
            phylum: None,
        })
        .collect();
    let narrowed = terms
        .iter()
        .zip(&of)
        .any(|(t, &j)| split_max(j, t.1) != u64::MAX);
    let periods: Vec<Option<super::quotient::QuotientPeriod>> =
        (0..games.len()).map(|j| q.period_of(j)).collect();
    let all_proved = periods.iter().all(|p| p.is_some_and(|p| p.proved));
    let method = match (&periods[..], all_proved) {
        ([Some(p)], true) => format!(
            "misère quotient of order {} (Φ periodic from heap {} with period {}, proved)",
            q.order(),
            p.preperiod,
            p.period
        ),
        ([_], false) => format!(
            "misère quotient of order {} (heaps 0..={})",
            q.order(),
            q.max()
        ),
        (_, true) => format!(
            "joint misère quotient of {names}, order {} (Φ periodic, proved: {})",
            q.order(),
            games
                .iter()
                .zip(&periods)
                .map(|(g, p)| {
                    let p = p.expect("proved");
                    format!("{g} from heap {} with period {}", p.preperiod, p.period)
                })
                .collect::<Vec<_>>()
                .join("; ")
        ),
        (_, false) => format!(
            "joint misère quotient of {names}, order {} ({})",
            q.order(),
            games
                .iter()
                .zip(&periods)
                .enumerate()
                .map(|(j, (g, p))| match p.filter(|p| p.proved) {
                    Some(p) => format!(
                        "{g} periodic from heap {} with period {}, proved",
                        p.preperiod, p.period
                    ),
                    None => format!(
                        "{g} to heap {}",
                        q.max().checked_sub(j as u64).map_or(0, |m| m / k)
                    ),
                })
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    Ok(MisereSum {
        heaps,
        win,
        complete: moves.len() < limit && !(win && narrowed),
        moves,
        method,
    })
}

/// Any sum by canonical misère forms of its heaps, each game's forms built to its largest
/// heap within `budget`.
pub(super) fn by_forms(
    terms: &[(Game, u64)],
    limit: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<MisereSum, Error> {
    // each game's forms to its largest heap, planned and announced (heap 95 of 0.37 takes
    // about a minute); the sum's own estimate follows once the forms are built. A game is
    // its moves (the forms are built from them alone): two spellings of one take-and-break
    // rule, `4!.0` and `grundy-game`, share their forms.
    let key = |g: &Game| match g.structure().moves {
        Moves::Split(br) => format!("split {br:?}"),
        _ => g.to_string(),
    };
    let keys: Vec<String> = terms.iter().map(|(g, _)| key(g)).collect();
    let mut largest: BTreeMap<&str, (&Game, u64)> = BTreeMap::new();
    for ((g, n), k) in terms.iter().zip(&keys) {
        let e = largest.entry(k.as_str()).or_insert((g, *n));
        e.1 = e.1.max(*n);
    }
    for (g, n) in largest.values() {
        let p = plan(
            &g.with_play(crate::game::Play::Misere),
            Task::Grundy,
            *n,
            budget,
        )?;
        obs.planned(&p);
    }
    let mut forms = MisereForms::new();
    // each game's heaps 0..=its largest, as canonical forms (built once per game)
    let mut of_game: BTreeMap<&str, Vec<FormId>> = BTreeMap::new();
    for (k, (g, n)) in &largest {
        let v = heap_forms(&mut forms, g, *n, obs)?;
        of_game.insert(k, v);
    }
    // heap h of term i's game
    let form = |i: usize, h: u64| of_game[keys[i].as_str()][h as usize];
    let parts: Vec<FormId> = terms
        .iter()
        .enumerate()
        .map(|(i, (_, n))| form(i, *n))
        .collect();
    // the sums formed, shown as pairs of forms against the most they may visit (the
    // estimate's pairs before the winning-move search); `obs` may stop them
    let most = check_sum_cost(terms, &forms, &parts, &form, budget, obs)?;
    let mut visited = 0u64;
    let mut tick = || {
        visited += 1;
        match visited.is_multiple_of(4096) {
            true => obs.observe(visited.min(most), most),
            false => ControlFlow::Continue(()),
        }
    };
    let mut add = |forms: &mut MisereForms, a: FormId, b: FormId| {
        forms
            .add_ticking(a, b, &mut tick)
            .ok_or(Error::Cancelled { done: 0 })
    };
    let mut total = forms.zero();
    for &f in &parts {
        total = add(&mut forms, total, f)?;
    }
    let win = forms.misere_value(total) != 0;
    let heaps = terms
        .iter()
        .zip(&parts)
        .map(|((g, n), &f)| MisereSumHeap {
            game: g.to_string(),
            n: *n,
            misere_value: Some(u64::from(forms.misere_value(f))),
            element: None,
            genus: None,
            phylum: None,
        })
        .collect();
    // the sum of every heap but i, for each i
    let mut rests: Vec<FormId> = Vec::with_capacity(parts.len());
    for i in 0..parts.len() {
        let mut rest = forms.zero();
        for (_, &f) in parts.iter().enumerate().filter(|&(j, _)| j != i) {
            rest = add(&mut forms, rest, f)?;
        }
        rests.push(rest);
    }
    let moves = match win {
        true => moves_to_p(
            terms,
            limit,
            |_| None,
            |i, left| {
                // the heaps left first (their sum is an option of the heap, memoized when
                // its form was built), then the rest: a canonical option's sum with the
                // rest is memoized too, from adding the whole sum
                let option = left.iter().fold(forms.zero(), |acc, &h| {
                    let f = form(i, h);
                    forms.add(acc, f)
                });
                let after = forms.add(rests[i], option);
                forms.misere_value(after) == 0
            },
        ),
        false => vec![],
    };
    Ok(MisereSum {
        heaps,
        win,
        complete: moves.len() < limit,
        moves,
        method: "canonical misère forms of the heaps".into(),
    })
}

/// Pairs of forms visited by adding `parts` left to right: adding a and b visits at most
/// (reach(a) − 1)·(reach(b) − 1) pairs ([`MisereForms::reach`]), and the sum reaches at
/// most reach(a)·reach(b) forms.
fn fold_pairs(reaches: impl Iterator<Item = f64>) -> f64 {
    let (mut acc, mut pairs) = (None::<f64>, 0.0);
    for r in reaches {
        acc = Some(match acc {
            None => r,
            Some(a) => {
                pairs += (a - 1.0) * (r - 1.0);
                a * r
            }
        });
    }
    pairs
}

/// Seconds and bytes of adding the heaps of a misère sum by canonical forms, and of the
/// search for winning moves: the pairs of forms the sums visit ([`fold_pairs`]: the whole
/// sum, the sum of every heap but one, and the winning-move search, counted as the whole
/// sum once more), at a cost per pair that grows with the forms' size. Measured here
/// (release, Kayles): `who --game 0.77 --play misere 36 37`, 8.4 million pairs, 19.3 s and
/// 174 MB; 34 + 35, 4.6 million pairs, 9.0 s; the time grows like pairs^1.7 (sums of
/// larger forms canonicalise longer option lists), the memory like the pairs (memoized
/// sums and new forms, about 20 bytes a pair).
pub(crate) fn sum_cost(reaches: &[f64]) -> (f64, f64) {
    let (main, rests) = sum_pairs(reaches);
    let pairs = 2.0 * main + rests;
    (19.3 * (pairs / 8.4e6).powf(1.7), 20.0 * pairs + 32e6)
}

/// The pairs of forms adding the heaps of reach `reaches` visits at most ([`fold_pairs`]):
/// the whole sum, and the sums of every heap but one (when there are more than two heaps
/// of reach above 1; with two, those are the heaps themselves).
fn sum_pairs(reaches: &[f64]) -> (f64, f64) {
    // heaps of form 0 (reach 1) add nothing: no pairs, and no sum without them to search
    let reaches: Vec<f64> = reaches.iter().copied().filter(|&r| r > 1.0).collect();
    let reaches = &reaches[..];
    let main = fold_pairs(reaches.iter().copied());
    let rests: f64 = if reaches.len() > 2 {
        (0..reaches.len())
            .map(|i| {
                fold_pairs(
                    reaches
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, &r)| r),
                )
            })
            .sum()
    } else {
        0.0
    };
    (main, rests)
}

/// Refuses, before any sum is formed, a misère sum whose canonical forms the budget does
/// not allow; announces a long one to `obs`. The refusal names the largest size of the
/// sum's largest heap that fits (the others kept). When it fits: the most pairs of forms
/// the whole sum and the sums of every heap but one visit ([`sum_pairs`]), the total of
/// their progress.
fn check_sum_cost(
    terms: &[(Game, u64)],
    forms: &MisereForms,
    parts: &[FormId],
    heap_form: &dyn Fn(usize, u64) -> FormId,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<u64, Error> {
    let reaches: Vec<f64> = parts.iter().map(|&f| forms.reach(f) as f64).collect();
    let (seconds, bytes) = sum_cost(&reaches);
    let fits = |(s, b): (f64, f64)| s <= budget.seconds && b <= budget.memory as f64;
    let top = terms.iter().map(|t| t.1).max().unwrap_or(0);
    if fits((seconds, bytes)) {
        obs.planned(&crate::budget::Estimate {
            task: Task::Grundy,
            max: top,
            engine: crate::budget::Engine::CanonicalForms,
            memory: bytes as u64,
            seconds,
            growth: 1.0,
        });
        let (main, rests) = sum_pairs(&reaches);
        return Ok((main + rests).min(u64::MAX as f64) as u64);
    }
    // the largest heap, made smaller until the sum fits (its smaller forms are built; by
    // bisection, the cost growing with the heap)
    let big = terms.iter().position(|t| t.1 == top).unwrap_or(0);
    // (within 95% of the budget: the size named must still fit when it is run next)
    let fits_with = |h: u64| {
        let mut r = reaches.clone();
        r[big] = forms.reach(heap_form(big, h)) as f64;
        let (s, b) = sum_cost(&r);
        fits((s / 0.95, b / 0.95))
    };
    let most = crate::num::last_ok(0, top, fits_with);
    let sum: Vec<String> = terms.iter().map(|(g, n)| format!("{g}:{n}")).collect();
    let fits_without = fits_with(0);
    let advice = match (fits_without, most) {
        (true, 0) => format!("with the other heaps kept, heap {top} fits only when left out"),
        (true, _) => format!("with the other heaps kept, heap {top} fits up to {most}"),
        (false, _) => format!("even with heap {top} left out, the other heaps do not fit"),
    };
    Err(Error::Refused(crate::error::Refusal::TooFar {
        game: format!("the misère sum {}", sum.join(" + ")),
        n: top,
        most: (fits_without && most > 0).then_some(most),
        why: format!(
            "by canonical misère forms would visit about {:.1e} pairs of forms: about {} and \
             {} here, more than the {} and {} this run may use (forms of wild heaps grow \
             about geometrically: {advice})",
            2.0 * fold_pairs(reaches.iter().copied()),
            crate::error::duration(seconds),
            crate::error::size(bytes.min(u64::MAX as f64) as u64),
            crate::error::duration(budget.seconds),
            crate::error::size(budget.memory),
        ),
    }))
}

/// Canonical misère forms of heaps 0..=n of any game (options as sums of smaller heaps).
fn heap_forms(
    forms: &mut MisereForms,
    game: &Game,
    n: u64,
    obs: &dyn Observer,
) -> Result<Vec<FormId>, Error> {
    let moves = game.structure().moves;
    if let Moves::Split(br) = &moves {
        let heaps = take_break_misere_in(forms, br, n, obs)?;
        return Ok(heaps.iter().map(|h| h.form).collect());
    }
    let mut out: Vec<FormId> = Vec::new();
    for h in 0..=n {
        let opts: Vec<FormId> = moves
            .amounts_of(h)
            .into_iter()
            .map(|s| out[(h - s) as usize])
            .collect();
        out.push(forms.from_options(&opts));
    }
    Ok(out)
}
