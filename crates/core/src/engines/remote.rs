//! Remoteness and the formal birthday of every heap 0..=N, by one walk over every option of
//! every heap in increasing n (each option leaves smaller heaps, whose values are known by
//! then). One-heap structures are walked from their move lists a segment at a time
//! (`moves::listed`); take-and-break digits from [`Breaker::options`]; option lists from
//! their rule's own enumeration. Definitions and sources are in [`crate::remoteness_table`]
//! and [`crate::birthday_table`].

use crate::budget::Task;
use crate::error::Error;
use crate::moves::listed::walk_options;
use crate::moves::{Moves, Play, Structure};
use crate::observe::Watch;
use std::ops::ControlFlow;

/// `a remoteness table` or `a birthday table`, for messages.
pub(crate) fn table_name(task: Task) -> &'static str {
    match task {
        Task::Remoteness => "a remoteness table",
        _ => "a birthday table",
    }
}

/// Largest N of a remoteness or birthday table: a move removes a token or adds a heap, so
/// no play from heap n is longer than 2n, and every value fits a `u32`.
pub(crate) const LENGTHS_MAX: u64 = (u32::MAX / 2) as u64 - 1;

/// Why `task` (remoteness or birthday) has no table for these moves, in one sentence naming
/// `game`; `None` when it has one.
pub(crate) fn unsupported(
    s: &Structure,
    task: Task,
    game: &dyn std::fmt::Display,
) -> Option<String> {
    let name = match task {
        Task::Remoteness => "remoteness",
        Task::Birthday => "birthday",
        Task::Grundy | Task::Outcomes | Task::PPositions => return None,
    };
    match &s.moves {
        Moves::Seeded { .. } => Some(format!(
            "{name} is not defined for {game}: a seed( ) game prescribes its first outcomes instead of playing them"
        )),
        Moves::Options(rule) if rule.turns_coins() => Some(format!(
            "{name} is not computed for {game}: a coin-turning position is a row of coins, and a play of two heads is not a play of each head"
        )),
        Moves::Split(_) if task == Task::Remoteness => Some(split_refusal(game)),
        Moves::Options(rule) if task == Task::Remoteness && !rule.one_heap() => {
            Some(split_refusal(game))
        }
        _ => None,
    }
}

/// The refusal of remoteness for moves that split a heap.
fn split_refusal(game: &dyn std::fmt::Display) -> String {
    format!(
        "remoteness is not computed for {game}: its moves split a heap into a sum of heaps, and the remoteness of a sum is not a function of its heaps' remoteness (--birthday works)"
    )
}

/// The fold of one heap's options into its remoteness: P-positions have remoteness of
/// parity `p_parity` (0 in normal play, 1 in misère play).
struct Remote {
    p_parity: u32,
    any: bool,
    /// The least remoteness of an option that is a P-position (`u32::MAX`: none yet).
    least_p: u32,
    /// The largest remoteness of an option.
    most: u32,
}

impl Remote {
    fn new(play: Play) -> Remote {
        Remote {
            p_parity: u32::from(play == Play::Misere),
            any: false,
            least_p: u32::MAX,
            most: 0,
        }
    }

    #[inline]
    fn add(&mut self, r: u32) {
        self.any = true;
        if r % 2 == self.p_parity && r < self.least_p {
            self.least_p = r;
        }
        self.most = self.most.max(r);
    }

    /// 0 without an option; else 1 + the least remoteness of a P-position option (the
    /// winner hurries), or 1 + the largest (the loser delays).
    #[inline]
    fn value(&self) -> u32 {
        match (self.any, self.least_p) {
            (false, _) => 0,
            (true, u32::MAX) => self.most + 1,
            (true, r) => r + 1,
        }
    }
}

/// The remoteness (in the structure's play) or the birthday of every heap 0..=max: `task`
/// is [`Task::Remoteness`] or [`Task::Birthday`].
///
/// # Errors
/// [`Error::Unsupported`] as [`unsupported`] says, or when an option of heap n leaves a heap
/// of n or more (a loopy rule: never for heaplab's families); [`Error::TooLarge`] past
/// [`LENGTHS_MAX`]; [`Error::OutOfMemory`] when the table cannot be allocated;
/// [`Error::Cancelled`] when the watch stops the run.
pub(crate) fn lengths(
    s: &Structure,
    task: Task,
    max: u64,
    game: &dyn std::fmt::Display,
    watch: &mut Watch,
) -> Result<Vec<u32>, Error> {
    if let Some(why) = unsupported(s, task, game) {
        return Err(Error::Unsupported { what: why });
    }
    if max > LENGTHS_MAX {
        return Err(Error::TooLarge {
            what: table_name(task),
            n: max,
            limit: LENGTHS_MAX,
        });
    }
    let mut t: Vec<u32> = Vec::new();
    t.try_reserve_exact(max as usize + 1)
        .map_err(|_| Error::OutOfMemory {
            what: table_name(task),
            bytes: (max + 1) * 4,
            most: None,
        })?;
    let remote = task == Task::Remoteness;
    match &s.moves {
        Moves::Split(_) | Moves::Options(_) => {
            let mut bad = None;
            for n in 0..=max {
                watch.at(n)?;
                let mut r = Remote::new(s.play);
                let mut longest: Option<u32> = None;
                let mut visit = |heaps: &[u64]| {
                    // the heaps' values, summed (birthday) or the one heap's (remoteness)
                    let mut sum = 0u32;
                    for &h in heaps {
                        match t.get(h as usize) {
                            Some(&v) if h < n => sum = sum.saturating_add(v),
                            _ => {
                                bad = Some((n, h));
                                return ControlFlow::Break(());
                            }
                        }
                    }
                    if remote {
                        if heaps.len() > 1 {
                            bad = Some((n, n));
                            return ControlFlow::Break(());
                        }
                        r.add(sum);
                    } else {
                        longest = Some(longest.map_or(sum, |l| l.max(sum)));
                    }
                    ControlFlow::Continue(())
                };
                match &s.moves {
                    Moves::Split(br) => {
                        let _ = br.options(n, u64::MAX, &mut |_, heaps| visit(heaps));
                    }
                    Moves::Options(rule) => {
                        let _ = rule.for_each_option(n, &mut visit);
                    }
                    _ => unreachable!("matched above"),
                }
                if let Some((n, h)) = bad {
                    return Err(Error::Unsupported {
                        what: format!(
                            "{} of {game}: an option of heap {n} leaves heap {h}, not smaller heaps",
                            table_name(task)
                        ),
                    });
                }
                t.push(if remote {
                    r.value()
                } else {
                    longest.map_or(0, |l| l + 1)
                });
            }
        }
        one_heap => {
            walk_options(one_heap, max, watch, |_, opts| {
                let v = if remote {
                    let mut r = Remote::new(s.play);
                    for &m in opts {
                        r.add(t[m as usize]);
                    }
                    r.value()
                } else {
                    opts.iter().map(|&m| t[m as usize] + 1).max().unwrap_or(0)
                };
                t.push(v);
            })?;
        }
    }
    Ok(t)
}
