//! The plain mex engines: each position reads the values of its options one by one and
//! takes their mex ([`crate::mex()`], the module `mex`). O(options) per position; the reference speed the
//! blocked and sparse engines improve on.

use crate::mex::{first_gap, ValueSet};
use crate::observe::{Stopped, Watch};

/// Grundy values 0..=max for the finite subtraction set `moves` (increasing):
/// g(n) = mex{g(n - s) : s in S, s <= n - leave1}. Values are at most |S|, so with fewer
/// than 64 moves the option values fit one word and the mex is one [`first_gap`].
pub(crate) fn finite_set_grundy(
    moves: &[u64],
    leave1: bool,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    finite_set_grundy_after(moves, leave1, Vec::new(), max, watch)
}

/// [`finite_set_grundy`] after the values `g` of positions 0..g.len() (as an earlier run
/// left them): positions g.len()..=max are added.
pub(crate) fn finite_set_grundy_after(
    moves: &[u64],
    leave1: bool,
    mut g: Vec<u32>,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    if moves.len() >= 64 {
        return list_mex_grundy_after(moves, leave1, g, max, watch);
    }
    g.reserve((max as usize + 1).saturating_sub(g.len()));
    for n in g.len() as u64..=max {
        watch.at(n)?;
        let top = if leave1 { n.saturating_sub(1) } else { n };
        let mut seen = 0u64;
        for &s in moves {
            if s > top {
                break;
            }
            seen |= 1 << g[(n - s) as usize];
        }
        // at most 63 values are present, so the word has a gap
        g.push(first_gap(&[seen], 0).unwrap_or(64));
    }
    Ok(g)
}

/// Grundy values 0..=max for any increasing move list: g(n) = mex over g(n - s), the
/// values collected in a [`ValueSet`]. O(number of moves <= n) per position.
pub(crate) fn list_mex_grundy(
    moves: &[u64],
    leave1: bool,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    list_mex_grundy_after(moves, leave1, Vec::new(), max, watch)
}

/// [`list_mex_grundy`] after the values `g` of positions 0..g.len(): positions
/// g.len()..=max are added.
pub(crate) fn list_mex_grundy_after(
    moves: &[u64],
    leave1: bool,
    mut g: Vec<u32>,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    g.reserve((max as usize + 1).saturating_sub(g.len()));
    let mut seen = ValueSet::default();
    for n in g.len() as u64..=max {
        watch.at(n)?;
        let top = if leave1 { n.saturating_sub(1) } else { n };
        seen.clear();
        for &s in moves {
            if s > top {
                break;
            }
            seen.insert(g[(n - s) as usize]);
        }
        g.push(seen.mex());
    }
    Ok(g)
}
