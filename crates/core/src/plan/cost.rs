//! What a run costs: memory (bytes at the peak) and time (seconds on this machine) of an
//! engine on a structure, from cost models whose rates were measured here (release build,
//! 2 cores) and, where a model cannot know, pilot runs (`plan::pilots`).
//!
//! | engine | cost | measured |
//! |---|---|---|
//! | window sieve | N / 5e8 | `sub{1,2,3}` to 1e10: 16 s |
//! | segmented sieve | marks / 3.1e9 (squares, falling past 1e10: residue skipping), / 2.5e9 (squares in misère play or without the whole heap, falling past 1e9), / 6e8 (other sets) | squares to 1e9: 9.6 s, to 1e10: 150 s, to 1e11: 2771 s; primes to 3e6: 56 s |
//! | divisor pull | N ln N / 2.8e8 | 1e9: 74 s |
//! | jump-ahead | P-positions / 4e7 | `sqrt` to 1e14: 0.5 s |
//! | plain mex | N / 6e7 + N·\|S\| / 1e9 | `sub{1,2,3}` to 1e9: 15 s |
//! | blocked mex | N·#moves / 2 / 2e9, times V / 1600 past 1600 values, times (N / 3.2e7)^0.25 past 3.2e7 (`dense_seconds`) | squares to 1e7: 2.6 s, to 3e7: 33 s, to 1e8: 301 s; primes to 3e6: 17 s; practical to 2^19: 38.6 s |
//! | layer convolution | layers · N · log²(top) · 2e-10 (`dense_seconds`) | primes to 1e7: 13.5 s, to 1e8: 120 s |
//! | sliding window, all-but counts | N / 3.7e7 + N·V / 2.6e5 / 1e9 (V: values) | `sqrt` to 1e9: 27 s |
//! | divisor mex | N ln N / 5.8e7 | 1e8: 31 s |
//! | option pull, option mex | N·moves / 5e7 + N / 5e7 | `divisors\|squares` to 1e6: 10.4 s |
//! | sparse space | measured: a pilot run, extrapolated (`sparse_seconds`) | `.6` to 1e7: 15 s |
//! | misère quotient | N / 2e8 (after the quotient's proof, a fraction of a second) | Kayles to 1e8: … |
//! | option walk (remoteness, birthday) | options / 3.5e8 (ranges of amounts) or / 1e8 (listed amounts, splits) + N / 1e7 | `half` to 1e5: 6.9 s; `squares` to 1e6: 5.4 s |
//!
//! The number of P-positions of a sieve game is not known in advance (except for squares,
//! about 0.9·n^0.7, Eppstein 2018): a pilot sieve to min(max, 2^16) fits a power law to
//! the counts at 2^15 and 2^16, and the marks are about #P(max) · #moves(max) / 2.
//! Take-and-break codes that may leave three heaps visit every three-way split: about
//! N^3 / 36 steps per digit that may leave three heaps, at 1.5e9 a second (0.3F to 6000:
//! 4 s).

use crate::budget::{Engine, Task};
use crate::engines::sieve::DEFAULT_SEGMENT_BITS;
use crate::moves::listed::{LIST_AMOUNTS_MAX, SEGMENT_HEAPS};
use crate::moves::{Moves, Play, Structure};
use crate::plan::choose::engine_for;
use crate::plan::pilots::{
    canonical_bytes, canonical_seconds, dense_seconds, layered_memory, pilot_p_count, ruleset_cost,
    sparse_seconds,
};
use crate::sets::{MoveSet, NamedSet};
use std::ops::ControlFlow;

/// One structure priced: `key` names the game in normal play (pilot runs are kept by it).
pub(crate) struct Priced<'a> {
    pub key: &'a str,
    pub s: &'a Structure,
}

impl Priced<'_> {
    /// The same moves in normal play.
    fn normal(&self) -> Structure {
        Structure {
            moves: self.s.moves.clone(),
            play: Play::Normal,
        }
    }

    /// Upper estimate of the memory (bytes) `task` by `engine` over 0..=max needs at its
    /// peak.
    pub fn memory(&self, task: Task, engine: Engine, max: u64) -> u64 {
        let n = max.saturating_add(1);
        if self.s.play == Play::Misere {
            return match (engine, &self.s.moves) {
                // the forms and the memoized sums: bytes per entry of the arena
                (Engine::CanonicalForms, Moves::Split(br)) => {
                    let bytes = canonical_bytes(self.key, br, max);
                    if bytes >= u64::MAX as f64 {
                        u64::MAX
                    } else {
                        (bytes as u64).max(n)
                    }
                }
                // the u32 table, its copy, and the moves
                (Engine::MisereMex, _) => self.grundy_memory(max).saturating_add(n * 4),
                // the outcome bits (a stream's segments instead), and the quotient
                (Engine::MisereQuotient, _) => {
                    let bits = if task == Task::Outcomes { n / 8 + 1 } else { 0 };
                    bits.saturating_add(16 << 20)
                }
                _ => Priced {
                    key: self.key,
                    s: &self.normal(),
                }
                .memory(task, engine, max),
            };
        }
        match task {
            Task::Grundy => self.grundy_memory(max),
            Task::PPositions => self.stream_memory(max),
            Task::Remoteness | Task::Birthday => self.lengths_memory(max),
            Task::Outcomes => (max / 8 + 1).saturating_add(match self.s.moves {
                Moves::Split(_) | Moves::Options(_) | Moves::Seeded { .. } => {
                    self.grundy_memory(max)
                }
                _ => self.stream_memory(max),
            }),
        }
    }

    /// Upper estimate of the memory (bytes) of a remoteness or birthday table of 0..=max:
    /// the `u32` table, its narrowed copy, and one segment's move lists.
    fn lengths_memory(&self, max: u64) -> u64 {
        let lists = match self.s.moves {
            Moves::Split(_) | Moves::Options(_) => 0,
            ref one_heap => lists_memory(one_heap, max),
        };
        max.saturating_add(1)
            .saturating_mul(8)
            .saturating_add(lists)
    }

    /// Upper estimate of the memory (bytes) a Grundy table of 0..=max needs while it is
    /// built (the working table in `u32` plus the narrowed copy and the side structures).
    fn grundy_memory(&self, max: u64) -> u64 {
        let n = max.saturating_add(1);
        let table = n.saturating_mul(4).saturating_add(n);
        let moves = |set: &MoveSet| set.count_upto_estimate(max).saturating_mul(8);
        let normal = self.normal();
        let extra = match &self.s.moves {
            Moves::Set { set, .. } => {
                if engine_for(&normal, Task::Grundy, max) == Engine::LayeredMex {
                    // (the layer engine's own table, not the u32 working one)
                    return layered_memory(max).saturating_add(moves(set));
                }
                moves(set)
            }
            Moves::Finite { moves: m, .. } => {
                (m.partition_point(|&s| s <= max) as u64).saturating_mul(8)
            }
            Moves::AllBut { excluded, .. } => moves(&MoveSet::AllBut {
                excluded: excluded.clone(),
            }),
            Moves::Divisors { .. } => 1 << 26,
            Moves::Options(_) | Moves::Seeded { .. } => {
                ruleset_cost(self.key, &self.s.moves, max).1
            }
            Moves::Listed(_) | Moves::Union(_) => lists_memory(&self.s.moves, max),
            Moves::Interval(_) | Moves::Split(_) => 0,
        };
        table.saturating_add(extra)
    }

    /// Upper estimate of the memory (bytes) a P-position stream over 0..=max needs.
    fn stream_memory(&self, max: u64) -> u64 {
        let seg = DEFAULT_SEGMENT_BITS / 8 * (rayon::current_num_threads() as u64 + 2);
        match &self.s.moves {
            // the window: a segment plus the largest move (up to max) ahead
            Moves::Finite { moves, .. } => {
                let k = moves.last().copied().unwrap_or(0).min(max);
                seg * 2 + k / 8 * 2
            }
            Moves::AllBut { excluded, .. } => (excluded.len() as u64 + 2) * 16,
            Moves::Set { set, .. } => {
                let squares = *set == MoveSet::named(NamedSet::Squares);
                let moves = if squares {
                    0
                } else {
                    set.count_upto_estimate(max) * 8
                };
                // P-positions: squares ~0.9 n^0.7 (Eppstein 2018); other sets are not known
                // in advance, so take the same law with a wide margin.
                let ps = 1.5 * 0.9 * (max.max(1) as f64).powf(0.7);
                let ps = if squares { ps } else { ps * 4.0 };
                // 8 bytes a P-position, up to twice that while the list doubles, and for
                // squares the residue lists and a checkpoint's copy (10^11: 42,985,762
                // P-positions, 1.21 GiB at the peak)
                let per = if squares { 24.0 } else { 12.0 };
                seg + moves + (ps * per) as u64
            }
            Moves::Divisors { .. } => max / 8 + seg + (1 << 20) * 24,
            // the outcome bits and one segment's move lists
            Moves::Listed(_) | Moves::Union(_) => max / 8 + lists_memory(&self.s.moves, max),
            // the last P-positions an extra amount may reach
            Moves::Interval(r) => (1 << 16) + r.extra.last().copied().unwrap_or(0).min(max) * 8,
            Moves::Split(_) | Moves::Options(_) | Moves::Seeded { .. } => self.grundy_memory(max),
        }
    }

    /// Estimated seconds for `task` by `engine` over 0..=max on this machine (see the
    /// module documentation).
    pub fn seconds(&self, task: Task, engine: Engine, max: u64) -> f64 {
        let m = max as f64;
        let ln = m.max(2.0).ln();
        if matches!(task, Task::Remoteness | Task::Birthday) {
            return option_visits(&self.s.moves, max) / walk_rate(&self.s.moves, max) + m / 1e7;
        }
        if self.s.play == Play::Misere {
            if self.s.moves.first_move() == Some(u64::MAX) {
                // no heap has a move: no P-position at all, found at once
                return 0.0;
            }
            return match (engine, &self.s.moves) {
                (Engine::CanonicalForms, Moves::Split(br)) => canonical_seconds(self.key, br, max),
                // a lookup per heap (the quotient was proved while the engine was chosen)
                (Engine::MisereQuotient, _) => m / 2e8,
                // one walk over every option, about 3e8 options a second here (`sub{1,2,3}`
                // to 1e8: 1.5 s; squares to 1e6: 2.5 s), plus the option lists' building
                (Engine::MisereMex, m2) => m * moves_per_heap(m2, max) / 3e8 + m / 5e7,
                _ => {
                    let t = Priced {
                        key: self.key,
                        s: &self.normal(),
                    }
                    .seconds(task, engine, max);
                    match &self.s.moves {
                        // the squares sieve without residue skipping: misère P-positions
                        // keep no residue mod 5 free
                        Moves::Set { set, leave1: false }
                            if *set == MoveSet::named(NamedSet::Squares)
                                && task != Task::Grundy =>
                        {
                            t * square_mark_rate(m, true) / square_mark_rate(m, false)
                        }
                        _ => t,
                    }
                }
            };
        }
        let grundy = task == Task::Grundy;
        match &self.s.moves {
            Moves::Split(br) if br.has_three() => {
                // every digit with bit 8 visits the three-way splits of what it leaves
                let threes = br.digits.iter().filter(|d| d.three).count().max(1) as f64;
                (threes * m * m * m / 36.0 / 1.5e9).max(m / 1e8)
            }
            Moves::Split(br) => sparse_seconds(self.key, br, max),
            Moves::AllBut { excluded, .. } if grundy => {
                let e = excluded.len() as f64;
                m / 3.7e7 + m * e * e / 1e8 + m * (m / 262_144.0) / 1e9
            }
            // finitely many P-positions, found among the excluded sums
            Moves::AllBut { excluded, .. } => ((excluded.len() + 2) as f64).powi(2) / 1e9,
            Moves::Finite { moves, .. } if grundy => {
                m / 6e7 + m * moves.partition_point(|&s| s <= max) as f64 / 1e9
            }
            Moves::Finite { .. } => m / 5e8,
            Moves::Set { set, leave1 } if grundy => {
                let (layered, blocked) = dense_seconds(set, *leave1, max);
                layered.min(blocked)
            }
            Moves::Set { set, leave1 } => {
                let moves = set.count_upto_estimate(max) as f64;
                let squares = *set == MoveSet::named(NamedSet::Squares);
                let ps = if squares {
                    0.9 * (max.max(1) as f64).powf(0.7)
                } else {
                    pilot_p_count(set, *leave1, max)
                };
                // marks a second; for squares it falls as the P-position list outgrows the
                // caches, and residue skipping works in normal play without leave1 only
                let rate = if squares {
                    square_mark_rate(m, !*leave1)
                } else {
                    6e8
                };
                ps * moves / 2.0 / rate + m / 2e9
            }
            Moves::Divisors { .. } if grundy => m * ln / 5.8e7,
            Moves::Divisors { .. } => m * ln / 2.8e8,
            // the window's mex descends a summary bitmap (`MexCounter`): a few word reads a
            // heap whatever the values (measured 2026-12-02: `half` and `half|sub{1}` to 10^8
            // in 3.0 s, `rule{k <= n // 2 OR k = 1}`, whose bound is evaluated, in 7.3 s)
            Moves::Interval(r) if grundy => m / 3.3e7 + r.extra.len() as f64 * m / 2e8,
            Moves::Interval(r) => {
                let tables = if task == Task::Outcomes { m / 2e9 } else { 0.0 };
                // while an extra amount reaches past the interval, heaps are stepped one by
                // one: up to the heap whose reach passes the largest extra amount
                let stepped = match r.extra.last() {
                    Some(&k) => {
                        let mut x = k;
                        while x < max && r.reach(x) < k && x < u64::MAX / 2 {
                            x *= 2;
                        }
                        x.min(max) as f64 * r.extra.len() as f64 / 1e8
                    }
                    None => 0.0,
                };
                r.p_count_estimate(max) / 4e7 + tables + stepped
            }
            // every heap's moves listed and visited: about 5e7 a second (divisors|squares to
            // 10^6: 10.4 s)
            Moves::Listed(_) | Moves::Union(_) => {
                m * moves_per_heap(&self.s.moves, max) / 5e7 + m / 5e7
            }
            Moves::Options(_) | Moves::Seeded { .. } => {
                ruleset_cost(self.key, &self.s.moves, max).0
            }
        }
    }
}

/// Options a second the option walk (remoteness, birthday) visits, on top of about 100 ns
/// a heap. Measured here on 2026-12-03 (release, the machine shared; `heaplab table
/// --remoteness`, less the same table without it): ranges of amounts (intervals and finite
/// sets) about 3.5e8 a second (`half` to 10^5: 6.9 s; `sqrt` to 10^7 in misère
/// play: 45 s; `sub{1,3,4}` to 10^8: 10.5 s, mostly the heaps); amounts listed from a
/// named set, divisors or a rule about 1e8 (`squares` to 10^6: 5.4 s; `divisors` to 10^7:
/// 2.6 s); take-and-break splits through a callback per option about 1e8 (`0.77` to 10^4:
/// 0.38 s; Grundy's game to 10^4: 0.25 s). All-but sets, and heaps whose lists pass 2^16
/// amounts (half a MiB, read back from memory, not cache): about 1.5e8 a second (`nim` to
/// 10^5: 17 s, to 10^6 about 2900 s; `allbut{2,5}` to 10^5: 24 s).
fn walk_rate(moves: &Moves, max: u64) -> f64 {
    match moves {
        _ if moves_per_heap(moves, max) > 65536.0 => 1.5e8,
        Moves::Interval(_) | Moves::Finite { .. } => 3.5e8,
        Moves::AllBut { .. } => 1.5e8,
        Moves::Seeded { inner, .. } => walk_rate(inner, max),
        _ => 1e8,
    }
}

/// Options counted at heap N, at most, when an option list's cost is estimated (about
/// 0.1 s); a heap with more options is taken to have infinitely many.
const PILOT_OPTIONS: u64 = 1 << 24;

/// The options of every heap visited, about (for the time estimate): one-heap structures
/// from their moves per heap, take-and-break digits by counting their splits, option lists
/// (extended codes, `sink`) from the options of heap N, counted (every heap taken to have
/// as many: the counts grow with n). Infinite when heap N has more than 2^24 options.
pub(crate) fn option_visits(moves: &Moves, max: u64) -> f64 {
    let m = max as f64 + 1.0;
    match moves {
        Moves::Split(br) => br.option_visits(max),
        Moves::Options(rule) => {
            let mut count = 0u64;
            let _ = rule.for_each_option(max, &mut |_| {
                count += 1;
                if count >= PILOT_OPTIONS {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            if count >= PILOT_OPTIONS {
                f64::INFINITY
            } else {
                m * (count as f64 + 1.0)
            }
        }
        one_heap => m * moves_per_heap(one_heap, max),
    }
}

/// Bytes of one segment's move lists (`moves::listed`): [`SEGMENT_HEAPS`] heaps, or fewer once
/// [`LIST_AMOUNTS_MAX`] amounts are listed (plus the last heap's own).
fn lists_memory(moves: &Moves, max: u64) -> u64 {
    let per_heap = moves_per_heap(moves, max) as u64 + 1;
    let amounts = (SEGMENT_HEAPS * per_heap).min(LIST_AMOUNTS_MAX as u64 + 2 * per_heap);
    amounts * 8 + SEGMENT_HEAPS * 8
}

/// The average number of moves from a heap of 0..=max (an estimate, for the cost of walks
/// over every option).
pub(crate) fn moves_per_heap(moves: &Moves, max: u64) -> f64 {
    let m = max as f64;
    match moves {
        Moves::AllBut { excluded, .. } => (m / 2.0 - excluded.len() as f64).max(1.0),
        Moves::Finite { moves, .. } => moves.partition_point(|&s| s <= max) as f64,
        Moves::Set { set, .. } => set.count_upto_estimate(max) as f64 / 2.0,
        Moves::Divisors { .. } => m.max(2.0).ln(),
        Moves::Interval(r) => r.reach(max).min(max) as f64 / 2.0 + r.extra.len() as f64,
        Moves::Listed(rule) => rule.tried(max) / 2.0,
        Moves::Union(parts) => parts.iter().map(|p| moves_per_heap(p, max)).sum(),
        Moves::Seeded { inner, .. } => moves_per_heap(inner, max),
        Moves::Split(_) | Moves::Options(_) => m,
    }
}

/// Marks a second of the squares sieve to `max` (counting the marks residue skipping skips):
/// with skipping (normal play) 3.1e9 at 10^9 (9.6 s) and 10^10 (150 s), 2.6e9 at 10^11
/// (2771 s); marking every move (misère play, leave1) 2.5e9 at 10^9 (11.2 s), 2.1e9 at
/// 10^10 (213.6 s), 1.5e9 at 10^11 (4685 s); measured here on 2 cores, 2026-12-04 and 05.
fn square_mark_rate(m: f64, skipping: bool) -> f64 {
    if skipping {
        3.1e9 * (m / 1e10).max(1.0).powf(-0.075)
    } else {
        (2.5e9 * (m / 1e9).powf(-0.11)).min(3e9)
    }
}

/// Segment length (bits) of the squares sieve up to `max`: about 128·√max rounded up to a
/// power of two, between 2^19 and 2^22. Eight successive squares near max span 16·√max, so
/// the old-marks kernel's groups of moves keep a shared window core (one read, eight marks)
/// when the segment is several spans long; beyond 2^22 bits the segment and the workers'
/// copies leave L2. Measured on 2 cores at N = 1e9: 25.1 s with 2^19, 22.6 s with 2^21,
/// 20.4 s with 2^22, 22.1 s with 2^23.
pub fn square_segment_bits(max: u64) -> u64 {
    (128 * crate::num::isqrt(max))
        .next_power_of_two()
        .clamp(DEFAULT_SEGMENT_BITS, 1 << 22)
}
