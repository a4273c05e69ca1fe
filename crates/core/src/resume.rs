//! Checks of a saved stream state against the rule, before a run resumes from it: a state
//! that does not belong to the game, or that was damaged, must be refused — never resumed
//! into a wrong list. Each engine's state is checked for consistency with itself and with
//! the checkpoint's count and last P-position, and a sample of what it claims is decided
//! again from the definition (a P-position has no move to another; every position between
//! the last P-position and the first undecided one has a move to one).

use crate::engines::sieve::{Moves, SieveState};
use crate::engines::stream::Checkpoint;
use crate::error::Error;
use crate::games::finite::finite_outcome_period_played;
use crate::moves::interval::Reach;
use bitvec::prelude::*;

/// Positions sampled from a saved list.
const SAMPLES: usize = 64;

/// Positions after the last saved P-position checked one by one, at most.
const TAIL: u64 = 1 << 16;

fn bad(reason: String) -> Error {
    Error::BadState { reason }
}

/// The state's own count and last P-position must be the checkpoint's.
fn same_counts(cp: &Checkpoint, count: u64, last: Option<u64>) -> Result<(), Error> {
    if cp.count != count {
        return Err(bad(format!(
            "counts {} P-positions but its engine state holds {count}",
            cp.count
        )));
    }
    if let Some(l) = last.filter(|&l| cp.last != Some(l)) {
        return Err(bad(format!(
            "ends at P-position {} but its engine state at {l}",
            cp.last.map_or("none".into(), |p| p.to_string())
        )));
    }
    Ok(())
}

/// Indices of `len` items to sample: evenly spaced, and the last.
fn sample(len: usize) -> impl Iterator<Item = usize> {
    let step = (len / SAMPLES).max(1);
    (0..len).step_by(step).chain(len.checked_sub(1))
}

/// A sieve state: P-positions increasing below `lo` (the sieve checks that much itself),
/// the checkpoint's count and last, sampled P-positions with no move to another, and every
/// position from the last P-position to `lo` (up to [`TAIL`] of them) with a move to one.
pub(crate) fn sieve<M: Moves>(
    moves: &M,
    leave1: bool,
    terminal: u64,
    st: &SieveState,
    cp: &Checkpoint,
) -> Result<(), Error> {
    same_counts(cp, st.ps.len() as u64, st.ps.last().copied())?;
    let ps = &st.ps;
    // Does x have a move to a stored P-position (a move may not take the whole heap under
    // leave1, and heap 0 is then no option)?
    let reaches_p = |x: u64| {
        (0..moves.count())
            .map(|j| moves.get(j))
            .take_while(|&s| s <= x)
            .any(|s| !(leave1 && s == x) && ps.binary_search(&(x - s)).is_ok())
    };
    for i in sample(ps.len()) {
        if reaches_p(ps[i]) {
            return Err(bad(format!(
                "lists {} as a P-position, but it has a move to another",
                ps[i]
            )));
        }
    }
    // (in misère play the heaps below `terminal` have no move and are N-positions)
    let from = ps.last().map_or(0, |p| p + 1).max(terminal);
    for x in from..st.lo.min(from.saturating_add(TAIL)) {
        if !reaches_p(x) {
            return Err(bad(format!(
                "misses the P-position {x} (it has no move to a listed one)"
            )));
        }
    }
    Ok(())
}

/// A finite set's window state: when the outcomes' period shows up, the count of
/// P-positions below `lo` and the pending marks are exactly what the period gives.
pub(crate) fn window(
    moves: &[u64],
    leave1: bool,
    misere: bool,
    lo: u64,
    marks: &[u64],
    count: u64,
    cp: &Checkpoint,
) -> Result<(), Error> {
    same_counts(cp, count, None)?;
    let Some(po) = finite_outcome_period_played(moves, leave1, misere, 1 << 24) else {
        return Ok(()); // no period within reach: the counts are all there is to check
    };
    let lose = |n: u64| !po.is_win(n);
    let want_count = match crate::games::finite::finite_p_count_played(
        moves,
        leave1,
        misere,
        lo.wrapping_sub(1),
    ) {
        Some(c) if lo > 0 => c.count,
        _ => 0,
    };
    if count != want_count {
        return Err(bad(format!(
            "counts {count} P-positions below {lo}, but the rule gives {want_count}"
        )));
    }
    match cp.last {
        None if count > 0 => {
            return Err(bad(format!("counts {count} P-positions but names none")));
        }
        Some(l) if l >= lo || !lose(l) => {
            return Err(bad(format!(
                "ends at {l}, which is no P-position below {lo}"
            )));
        }
        Some(l) => {
            if let Some(x) = (l + 1..lo.min(l.saturating_add(TAIL))).find(|&x| lose(x)) {
                return Err(bad(format!(
                    "ends at {l}, but {x} below {lo} is a P-position"
                )));
            }
        }
        None => {}
    }
    // The marks P-positions below lo left on lo and beyond.
    let k = moves.last().copied().unwrap_or(0);
    let mut want: BitVec<u64, Lsb0> = BitVec::new();
    for p in lo.saturating_sub(k)..lo {
        if !lose(p) || (leave1 && p == 0) {
            continue;
        }
        for &s in moves {
            if p + s >= lo {
                let o = (p + s - lo) as usize;
                if want.len() <= o {
                    want.resize(o + 1, false);
                }
                want.set(o, true);
            }
        }
    }
    let have = BitSlice::<u64, Lsb0>::from_slice(marks);
    let differ = (0..have.len().max(want.len()))
        .any(|i| have.get(i).is_some_and(|b| *b) != want.get(i).is_some_and(|b| *b));
    if differ {
        return Err(bad(format!(
            "holds marks ahead of {lo} that the P-positions below it do not make"
        )));
    }
    Ok(())
}

/// A pull stream's outcome bits (divisor games, games listed heap by heap): as many
/// P-positions as the count says, and a sample of positions decided again from their moves
/// (`moves(x)`: the amounts that may be removed from x).
pub(crate) fn pulled(
    moves: impl Fn(u64) -> Vec<u64>,
    misere: bool,
    lo: u64,
    win: &[u64],
    count: u64,
    cp: &Checkpoint,
) -> Result<(), Error> {
    let bits = &BitSlice::<u64, Lsb0>::from_slice(win)[..lo as usize];
    let last = bits.last_zero().map(|i| i as u64);
    same_counts(cp, count, last)?;
    let zeros = bits.count_zeros() as u64;
    if zeros != count {
        return Err(bad(format!(
            "holds {zeros} P-positions below {lo} but counts {count}"
        )));
    }
    let lo_u = lo as usize;
    let picks = sample(lo_u).chain(lo_u.saturating_sub(SAMPLES)..lo_u);
    for x in picks {
        let ds = moves(x as u64);
        let w = (misere && ds.is_empty()) || ds.iter().any(|&d| !bits[x - d as usize]);
        if w != bits[x] {
            return Err(bad(format!(
                "has the outcome of {x} wrong (by its moves it is {})",
                if w { "an N-position" } else { "a P-position" }
            )));
        }
    }
    Ok(())
}

pub(crate) fn list(list: &[u64], next: u64, cp: &Checkpoint) -> Result<(), Error> {
    if next > list.len() as u64 {
        return Err(bad("is past the end".into()));
    }
    let last = next.checked_sub(1).map(|i| list[i as usize]);
    same_counts(cp, next, None)?;
    if cp.last != last {
        return Err(bad(format!(
            "ends at {}, but the list's P-position {next} is {}",
            cp.last.map_or("none".into(), |p| p.to_string()),
            last.map_or("none".into(), |p| p.to_string())
        )));
    }
    Ok(())
}

/// Jump-ahead: the last P-position is one, and the count is right where the count has a
/// closed form; with extra amounts, the recent P-positions increase up to the last one,
/// are no more than the count, and none is an option of another.
pub(crate) fn jump(
    reach: &Reach,
    first: u64,
    last: Option<u64>,
    count: u64,
    recent: &[u64],
    cp: &Checkpoint,
) -> Result<(), Error> {
    same_counts(cp, count, last)?;
    let Some(ig) = reach.pure() else {
        let increasing = recent.windows(2).all(|w| w[0] < w[1]);
        if !increasing || recent.last().copied() != last || recent.len() as u64 > count {
            return Err(bad(format!(
                "holds recent P-positions that do not end at {}",
                last.map_or("none".into(), |p| p.to_string())
            )));
        }
        for (i, &q) in recent.iter().enumerate() {
            let before = &recent[..i];
            let in_window = before.partition_point(|&r| r < reach.low(q)) < i;
            let by_extra = reach
                .extra_beyond(q)
                .any(|s| before.binary_search(&(q - s)).is_ok());
            if in_window || by_extra {
                return Err(bad(format!(
                    "lists {q} as a P-position, but it has a move to another"
                )));
            }
        }
        return Ok(());
    };
    let Some(l) = last else {
        return if count == 0 {
            Ok(())
        } else {
            Err(bad(format!("counts {count} P-positions but names none")))
        };
    };
    if first > 0 {
        // misère play: the closed forms are normal play's; the chain from `first` is checked
        // only for its start
        return if l >= first {
            Ok(())
        } else {
            Err(bad(format!(
                "ends at {l}, below the first misère P-position {first}"
            )))
        };
    }
    let (win, _) = ig.outcome(l);
    if win {
        return Err(bad(format!("ends at {l}, which is no P-position")));
    }
    if let Some((c, _)) = ig.count_upto(l).filter(|&(c, _)| c != count) {
        return Err(bad(format!(
            "counts {count} P-positions up to {l}, but the rule gives {c}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::engines::StreamState;
    use crate::{open_stream, resume_stream, Checkpoint, Error, Game, Silent};

    /// A checkpoint of `spec` to `max` after `segments` segments, and the whole list.
    fn saved(spec: &str, max: u64, segments: usize) -> (Checkpoint, Vec<u64>) {
        let g = Game::parse(spec).unwrap();
        let mut s = open_stream(&g, max, &Silent).unwrap();
        let mut out = vec![];
        for _ in 0..segments {
            s.advance(&mut out);
        }
        let cp = s.checkpoint();
        let mut all = out.clone();
        while s.advance(&mut all) {}
        (cp, all)
    }

    fn refused(cp: Checkpoint, what: &str) {
        match resume_stream(cp, &Silent) {
            Err(Error::BadState { .. }) => {}
            Err(e) => panic!("{what}: refused for another reason: {e}"),
            Ok(_) => panic!("{what}: a damaged state was resumed"),
        }
    }

    #[test]
    fn damaged_states_are_refused_and_sound_ones_resume() {
        for (spec, max, segs) in [
            ("squares", 3_000_000u64, 2),
            ("primes|sub{1}", 100_000, 2),
            ("sub{1,3,4}", 3_000_000, 2),
            ("leave1(sub{2,5,7})", 3_000_000, 2),
            ("divisors", 300_000, 2),
            ("sqrt", 100_000_000, 1),
            ("half", 1_000_000, 1),
            ("allbut{2,3,7}", 1000, 0),
            ("0.77", 10_000, 0),
            // misère play: the same engines with their misère base cases
            ("misere(squares)", 3_000_000, 2),
            ("misere(sub{1,3,4})", 3_000_000, 2),
            ("misere(leave1(sub{2,5,7}))", 3_000_000, 2),
            ("misere(divisors)", 300_000, 2),
            ("misere(sqrt)", 100_000_000, 1),
            ("misere(allbut{2,3,7})", 1000, 0),
            ("misere(0.77)", 40, 0),
        ] {
            let (cp, all) = saved(spec, max, segs);
            // sound: resumes to the same list
            let mut r = resume_stream(cp.clone(), &Silent).unwrap();
            let mut rest = vec![];
            while r.advance(&mut rest) {}
            assert_eq!(rest, all[cp.count as usize..], "{spec}");
            // the counts
            let mut c = cp.clone();
            c.count += 1;
            refused(c, &format!("{spec}: count + 1"));
            if let Some(l) = cp.last {
                let mut c = cp.clone();
                c.last = Some(l + 1);
                refused(c, &format!("{spec}: last + 1"));
            }
            // the engine's own state
            let mut c = cp.clone();
            match &mut c.state {
                StreamState::Sieve(s) => {
                    s.lo += 5000;
                }
                StreamState::Window { marks, .. } => marks[0] ^= 1 << 7,
                StreamState::Divisors { win, .. } => {
                    let w = win.len() - 1;
                    win[w / 2] ^= 1 << 5;
                }
                StreamState::List { next } => *next += 1,
                StreamState::Jump { last, .. } | StreamState::JumpRecent { last, .. } => {
                    *last = last.map(|l| l + 1)
                }
            }
            refused(c, &format!("{spec}: engine state"));
            // another game's state
            let mut c = cp.clone();
            c.game = if spec == "sqrt" { "half" } else { "sqrt" }.into();
            if c.count > 0 {
                refused(c, &format!("{spec}: state of another game"));
            }
        }
    }
}
