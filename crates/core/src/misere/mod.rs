//! Misère play: the player who makes the last move **loses**.
//!
//! A game in misère play is written `misere(SPEC)` ([`crate::Game::Misere`]; the front ends'
//! `--play misere` wraps the game so). Every table, stream and analysis of such a game
//! gives misère facts:
//!
//! - the **misère outcome** of each heap: a heap with no move is a misère N-position (the
//!   player to move has no move, so the other player made the last move and lost); a heap
//!   with moves is a misère P-position iff every option is a misère N-position;
//! - the **misère nim-value** G⁻ of each heap as a single game: 1 for a heap with no move,
//!   else the mex of its options' misère nim-values (Winning Ways, ch. 13; CGSuite's
//!   `MisereNimValue`). It is 0 exactly at the misère P-positions. For games whose moves
//!   leave one heap it is the Grundy recursion with 1 in place of 0 at the terminal heaps,
//!   so the same option walks compute it ([`misere_values`]); for take-and-break games the
//!   options are sums, whose misère values do not follow from the parts' values, so
//!   [`canon`] builds canonical misère forms.
//! - the **genus** g^{γ1γ2…} of each heap of a one-heap game ([`genus_table`]): γ0 = g is
//!   the normal-play Grundy value, γ1 the misère nim-value, and γi (i ≥ 2) the misère
//!   nim-value of G + (i − 1) copies of ∗2 (Conway, On Numbers and Games, ch. 12; Winning
//!   Ways, ch. 13 "the genus"). With one-heap options,
//!   γi(G) = mex({γ(i−1)(G), γ(i−1)(G) ⊕ 1} ∪ {γi(G') : G' an option}) for i ≥ 2, because
//!   G + (i−1)·∗2 moves to G + (i−2)·∗2 (value γ(i−1)), to G + (i−2)·∗2 + ∗1 (value
//!   γ(i−1) ⊕ 1: adding ∗1 flips the last bit of any misère nim-value, by induction on G),
//!   and to G' + (i−1)·∗2. The superscript is eventually periodic with period 2 and is
//!   written up to the point where it starts repeating: ∗0 = 0^{120}, ∗1 = 1^{031},
//!   ∗2 = 2^{20}, ∗3 = 3^{31}.
//! - [`Phylum`]: tame, restive, restless or wild, from the genus and the options'
//!   phyla, and misère sums of tame heaps by the misère-Nim rule ([`misere_sum`]).
//! - the **misère quotient** of the heaps 0..=N of a take-and-break rule
//!   ([`quotient::misere_quotient`]): the Plambeck–Siegel monoid whose products decide
//!   every misère sum of those heaps, learned and then proved.

pub mod canon;
mod genus;
pub(crate) mod oneheap;
pub mod quotient;
pub(crate) mod sums;
mod trial;

pub use genus::{first_move, genera, genus_table, misere_values};
pub use oneheap::{Genus, GenusTable, Phylum, GENUS_LAYERS};
pub use sums::{misere_sum, MisereSum, MisereSumHeap};

#[cfg(test)]
mod tests;

/// For tests: whether the player to move wins the misère sum of `heaps` of `game` (heaps
/// of 0 ignored), by the definition — with no move left the player to move wins, else
/// some move must leave a loss — over the rule's own options, memoized on the sorted
/// heaps. Independent of canonical forms and quotients; small sums only.
#[cfg(test)]
pub(crate) fn exhaustive_misere_win(
    game: &crate::Game,
    heaps: Vec<u64>,
    memo: &mut std::collections::HashMap<Vec<u64>, bool>,
) -> bool {
    let mut key: Vec<u64> = heaps.into_iter().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut next = vec![];
    for (i, &h) in key.iter().enumerate() {
        if i > 0 && key[i - 1] == h {
            continue;
        }
        crate::rule::Rule::for_each_option(game, h, &mut |left| {
            let mut n = key.clone();
            n.remove(i);
            n.extend_from_slice(left);
            next.push(n);
        });
    }
    let w = next.is_empty()
        || next
            .into_iter()
            .any(|n| !exhaustive_misere_win(game, n, memo));
    memo.insert(key, w);
    w
}
