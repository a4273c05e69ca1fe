//! Why a heap has its Grundy value: the shortest proof from the definition (Sprague–Grundy:
//! g(n) is the mex of the values of n's options, an option's value being the XOR of the
//! heaps it leaves; Winning Ways ch. 4). g(n) = v holds exactly when some option has each
//! value 0, 1, …, v − 1 and none has v, so one option per smaller value and the count of
//! options checked is the whole proof — the form in which a refuted claim is shown
//! (`heaplab check --witness`).

use crate::budget::Budget;
use crate::error::Error;
use crate::game::{Game, Play};
use crate::observe::Observer;
use crate::rule::Rule;
use serde::Serialize;

/// One option of a heap: the heaps the move leaves (empty heaps dropped, increasing) and
/// the option's value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Witnessed {
    /// The heaps left.
    pub leaves: Vec<u64>,
    /// Their value (the XOR of the heaps' Grundy values; misère play: the heap's misère
    /// value).
    pub value: u32,
}

/// The proof of g(n) = value: for each smaller value one option that has it, and how many
/// options there are in all (none of which has `value`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueProof {
    /// The heap.
    pub n: u64,
    /// Its Grundy value (misère play: its misère value G⁻).
    pub value: u32,
    /// `reach[v]` is an option of value v, for v = 0..value.
    pub reach: Vec<Witnessed>,
    /// Every option of n, counted as listed (a move listed twice counts twice).
    pub options: u64,
    /// The first options listed with their values (at most 12): for a value of 0 — a
    /// P-position — the proof is that none of them has 0, which a reader checks here.
    pub listed: Vec<Witnessed>,
    /// Misère values (G⁻) rather than Grundy values.
    pub misere: bool,
}

/// Most options listed for one heap when a proof is built.
const OPTIONS_MAX: u64 = 1 << 22;

/// Most seconds (estimated) and, below, 1 GiB of memory for the table a proof reads.
const WITNESS_SECONDS: f64 = 10.0;

/// The proof that heap n of `game` has its Grundy value (misère play: its misère value),
/// from the game's own table to n (planned within `budget`).
///
/// # Errors
/// [`Error::Unsupported`] for a misère game whose moves split a heap (a sum's misère value
/// is not a function of its heaps' values), a game with a prescribed start, or a heap with
/// more than 2^22 options; [`Error::Refused`] when the table to n is estimated past 10 s or
/// 1 GiB (or `budget`); as [`crate::grundy_table`] otherwise.
pub fn value_proof(
    game: &Game,
    n: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<ValueProof, Error> {
    let s = game.structure();
    if matches!(s.moves, crate::moves::Moves::Seeded { .. }) {
        return Err(Error::Unsupported {
            what: format!("{game} has a prescribed start"),
        });
    }
    let misere = game.play() == Play::Misere;
    if misere && !s.moves.is_one_heap() {
        return Err(Error::Unsupported {
            what: format!(
                "{game} splits heaps, and in misère play a sum's value is not the XOR of \
                 its heaps' values"
            ),
        });
    }
    // the plan of the table to n first, within a short budget (a witness is a side note to
    // a check, not a run of its own), then the options, then the table
    let quick = Budget {
        seconds: budget.seconds.min(WITNESS_SECONDS),
        memory: budget.memory.min(1 << 30),
        ..*budget
    };
    let p = crate::plan::plan_table(game, n, &quick)?;
    let mut options = 0u64;
    game.for_each_option(n, &mut |_| options += 1);
    if options > OPTIONS_MAX {
        return Err(Error::Unsupported {
            what: format!("heap {n} of {game} has more than 2^22 options"),
        });
    }
    let table = p.grundy(obs)?;
    let value = table.get(n);
    let mut reach: Vec<Option<Witnessed>> = vec![None; value as usize];
    let mut listed: Vec<Witnessed> = vec![];
    game.for_each_option(n, &mut |left| {
        let mut leaves: Vec<u64> = left.iter().copied().filter(|&h| h > 0).collect();
        leaves.sort_unstable();
        let v = leaves.iter().fold(0, |x, &h| x ^ table.get(h));
        // (misère one-heap games: the option's own misère value; no move leaves two heaps)
        let v = if misere && leaves.is_empty() {
            table.get(0)
        } else {
            v
        };
        if listed.len() < 12 && !listed.iter().any(|w: &Witnessed| w.leaves == leaves) {
            listed.push(Witnessed {
                leaves: leaves.clone(),
                value: v,
            });
        }
        if let Some(slot) = reach.get_mut(v as usize) {
            if slot.is_none() {
                *slot = Some(Witnessed { leaves, value: v });
            }
        }
    });
    // (`options` counted above, before the table was made)
    if options == 0 {
        // no option: g = 0, or G⁻ = 1 in misère play (whoever cannot move wins)
        reach.clear();
    }
    // (a value below g(n) that no option has: impossible for a correct table)
    let missing = reach.iter().position(Option::is_none);
    let reach: Option<Vec<Witnessed>> = reach.into_iter().collect();
    let reach = reach.ok_or_else(|| Error::Unsupported {
        what: format!(
            "no proof for heap {n} of {game}: its table says g({n}) = {value}, but no option \
             has the value {} below it; please report this as a bug",
            missing.unwrap_or(0)
        ),
    })?;
    Ok(ValueProof {
        n,
        value,
        reach,
        options,
        listed,
        misere,
    })
}

impl ValueProof {
    /// One line: `g(29) = 5: options reach 0 (leave 20), 1 (leave 28), …, 4 (leave 13); none
    /// of its 5 options has 5`; for a value of 0 the options are listed with their values
    /// (`g(34) = 0: none of its 5 options has 0 (33: 2, 30: 1, …)`); misère play writes
    /// G⁻.
    pub fn sentence(&self) -> String {
        let heaps = |w: &Witnessed| match w.leaves.len() {
            0 => "nothing".to_string(),
            _ => w
                .leaves
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" + "),
        };
        let g = if self.misere { "G⁻" } else { "g" };
        let head = format!("{g}({}) = {}", self.n, self.value);
        if self.options == 0 {
            return format!("{head}: it has no option");
        }
        let reached: Vec<String> = self
            .reach
            .iter()
            .map(|w| format!("{} (leave {})", w.value, heaps(w)))
            .collect();
        let none = format!(
            "none of its {} option{} has {}",
            self.options,
            if self.options == 1 { "" } else { "s" },
            self.value
        );
        if reached.is_empty() {
            let shown: Vec<String> = self
                .listed
                .iter()
                .map(|w| format!("{}: {}", heaps(w), w.value))
                .collect();
            let more = if self.options > self.listed.len() as u64 {
                ", …"
            } else {
                ""
            };
            return format!("{head}: {none} ({}{more})", shown.join(", "));
        }
        format!("{head}: options reach {}; {none}", reached.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Silent;

    #[test]
    fn proofs_name_one_option_per_smaller_value() {
        let b = Budget::new(1 << 30);
        // subtract-a-square: g(29) = 5 (A014586 values 0,1,0,1,2,0,1,0,1,2,…)
        let g = Game::parse("squares").unwrap();
        let p = value_proof(&g, 29, &b, &Silent).unwrap();
        let t = crate::grundy_table(&g, 29, &Silent).unwrap();
        assert_eq!(p.value, t.get(29));
        assert_eq!(p.options, 5); // 1, 4, 9, 16, 25
        for (v, w) in p.reach.iter().enumerate() {
            assert_eq!(w.value as usize, v);
            assert_eq!(w.leaves.len(), 1);
            assert_eq!(t.get(w.leaves[0]), v as u32);
        }
        // Kayles heap 4: g = 1, options 3 (g 3), 2 (2), 1+2 (1 ^ 2 = 3), 1+1 (0), 2 (…)
        let k = Game::parse("0.77").unwrap();
        let p = value_proof(&k, 4, &b, &Silent).unwrap();
        assert_eq!(p.value, 1);
        assert_eq!(p.reach[0].leaves, vec![1, 1]);
        assert!(p
            .sentence()
            .starts_with("g(4) = 1: options reach 0 (leave 1 + 1); none of its"));
        // heap 0 has no option and value 0
        assert_eq!(
            value_proof(&g, 0, &b, &Silent).unwrap().sentence(),
            "g(0) = 0: it has no option"
        );
        // a P-position lists its options with their values: squares, heap 34 (A030193)
        assert_eq!(
            value_proof(&g, 34, &b, &Silent).unwrap().sentence(),
            format!(
                "g(34) = 0: none of its 5 options has 0 ({})",
                [33u64, 30, 25, 18, 9]
                    .map(|h| format!(
                        "{h}: {}",
                        crate::grundy_table(&g, 34, &Silent).unwrap().get(h)
                    ))
                    .join(", ")
            )
        );
        // misère play of a one-heap game uses the misère values; splits are refused
        let m = Game::parse("misere(sub{1,2})").unwrap();
        let p = value_proof(&m, 3, &b, &Silent).unwrap();
        let t = crate::grundy_table(&m, 3, &Silent).unwrap();
        assert_eq!(p.value, t.get(3));
        assert!(p.sentence().starts_with("G⁻(3) = "));
        assert_eq!(
            value_proof(&m, 0, &b, &Silent).unwrap().sentence(),
            "G⁻(0) = 1: it has no option"
        );
        // a heap too far for a quick table is refused, not computed
        let far = value_proof(&Game::parse("squares").unwrap(), 1 << 40, &b, &Silent);
        assert!(
            matches!(far, Err(Error::Refused(_)) | Err(Error::TooLarge { .. })),
            "{far:?}"
        );
        assert!(value_proof(&Game::parse("misere(0.77)").unwrap(), 5, &b, &Silent).is_err());
    }
}
