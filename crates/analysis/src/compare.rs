//! Two games side by side: are their Grundy values (or outcomes) equal on 0..=N, and if
//! not, where do they differ ([`compare`]). The question behind it is the classic one of
//! whether two codes are the same game in disguise (`.161` and `.36` agree up to heap 518).

use crate::Error;
use heaplab_core::{grundy_table, outcome_table, plan, Budget, Game, Observer, Sequence, Task};
use serde::{Deserialize, Serialize};

/// How many differing positions a [`Comparison`] lists.
pub const DIFFERENCES_LISTED: usize = 1000;

/// One position where the two games differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The heap.
    pub n: u64,
    /// The first game's value there (Grundy value, or 1 for an N-position and 0 for a
    /// P-position).
    pub a: u32,
    /// The second game's value there.
    pub b: u32,
}

/// The result of [`compare`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// The two games' canonical specs.
    pub games: [String; 2],
    /// N: positions 0..=N were compared.
    pub max: u64,
    /// What was compared.
    pub values: Sequence,
    /// Equal at every position of 0..=N.
    pub equal: bool,
    /// How many positions differ.
    pub count: u64,
    /// The first differing positions, increasing (at most [`DIFFERENCES_LISTED`]).
    pub differences: Vec<Difference>,
    /// The last differing position.
    pub last: Option<u64>,
}

/// Compares the Grundy values (or outcomes) of `a` and `b` on 0..=max: both tables are
/// computed with the core engines after the budget is checked for the two together.
///
/// # Errors
/// [`Error::Core`] with a refusal (memory or time of either table, or the two together) or
/// a cancellation from `obs`.
pub fn compare(
    a: &Game,
    b: &Game,
    max: u64,
    values: Sequence,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Comparison, Error> {
    let task = match values {
        Sequence::Grundy => Task::Grundy,
        Sequence::Outcome => Task::Outcomes,
    };
    let pa = plan(a, task, max, budget)?;
    let pb = plan(b, task, max, budget)?;
    budget
        .check_memory(
            || format!("the tables of both games to N = {max}"),
            pa.memory.saturating_add(pb.memory),
        )
        .map_err(heaplab_core::Error::from)?;
    let value: Box<dyn Fn(u64) -> (u32, u32)> = match values {
        Sequence::Grundy => {
            let (ga, gb) = (grundy_table(a, max, obs)?, grundy_table(b, max, obs)?);
            Box::new(move |n| (ga.get(n), gb.get(n)))
        }
        Sequence::Outcome => {
            let (oa, ob) = (outcome_table(a, max, obs)?, outcome_table(b, max, obs)?);
            Box::new(move |n| (u32::from(oa.is_win(n)), u32::from(ob.is_win(n))))
        }
    };
    let (mut count, mut differences, mut last) = (0u64, vec![], None);
    for n in 0..=max {
        let (x, y) = value(n);
        if x != y {
            count += 1;
            last = Some(n);
            if differences.len() < DIFFERENCES_LISTED {
                differences.push(Difference { n, a: x, b: y });
            }
        }
    }
    Ok(Comparison {
        games: [a.to_string(), b.to_string()],
        max,
        values,
        equal: count == 0,
        count,
        differences,
        last,
    })
}

impl Comparison {
    /// A readable summary (lines ending in a newline).
    pub fn text(&self) -> String {
        let [a, b] = &self.games;
        // misère games' "Grundy values" are misère nim-values
        let misere = self.games.iter().any(|g| g.starts_with("misere("));
        let what = match (self.values, misere) {
            (Sequence::Grundy, false) => "Grundy values",
            (Sequence::Grundy, true) => "values (misère nim-values for misère games)",
            (Sequence::Outcome, _) => "outcomes",
        };
        let max = self.max;
        let Some(first) = self.differences.first() else {
            return format!("{a} and {b}: {what} equal at every position 0 ≤ n ≤ {max}\n");
        };
        let show = |v: u32| match self.values {
            Sequence::Grundy => v.to_string(),
            Sequence::Outcome => if v == 1 { "N" } else { "P" }.to_string(),
        };
        let equal_below = match first.n {
            0 => String::new(),
            n => format!("; equal on 0 ≤ n ≤ {}", n - 1),
        };
        let mut s = format!(
            "{a} and {b}: {what} first differ at n = {} ({a}: {}, {b}: {}){equal_below}\n",
            first.n,
            show(first.a),
            show(first.b),
        );
        let listed: Vec<String> = self
            .differences
            .iter()
            .take(20)
            .map(|d| format!("{} ({}/{})", d.n, show(d.a), show(d.b)))
            .collect();
        s.push_str(&format!(
            "  {} of the {} positions differ (last at n = {}): {}{}\n",
            self.count,
            max as u128 + 1,
            self.last.unwrap_or(first.n),
            listed.join(", "),
            if self.count > 20 { ", …" } else { "" }
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::Silent;

    fn cmp(a: &str, b: &str, max: u64, v: Sequence) -> Comparison {
        compare(
            &Game::parse(a).unwrap(),
            &Game::parse(b).unwrap(),
            max,
            v,
            &Budget::new(1 << 30),
            &Silent,
        )
        .unwrap()
    }

    #[test]
    fn octal_161_and_36_part_at_519() {
        let c = cmp(".161", ".36", 700, Sequence::Grundy);
        assert!(!c.equal);
        assert_eq!(c.differences[0].n, 519);
        assert!(c.text().contains("first differ at n = 519"));
        // kayles is 0.77 by name; upto{3} and sub{1,2,3} are one game
        assert!(cmp("kayles", "0.77", 500, Sequence::Grundy).equal);
        let same = cmp("upto{3}", "sub{1,2,3}", 1000, Sequence::Grundy);
        assert!(same.equal && same.count == 0 && same.text().contains("equal at every"));
        // Nim and Kayles lose only at 0, but their Grundy values part at 4 (4 against 1)
        let o = cmp("nim", "0.77", 300, Sequence::Outcome);
        assert!(o.equal, "{}", o.text());
        let g = cmp("nim", "0.77", 300, Sequence::Grundy);
        assert_eq!(g.differences[0], Difference { n: 4, a: 4, b: 1 });
        // brute force: every difference is where the tables differ
        let (x, y) = (
            grundy_table(&Game::parse("nim").unwrap(), 300, &Silent).unwrap(),
            grundy_table(&Game::parse("0.77").unwrap(), 300, &Silent).unwrap(),
        );
        let want: Vec<u64> = (0..=300).filter(|&n| x.get(n) != y.get(n)).collect();
        let got: Vec<u64> = g.differences.iter().map(|d| d.n).collect();
        assert_eq!(got, want);
        assert_eq!(g.count, want.len() as u64);
        assert_eq!(g.last, want.last().copied());
    }
}
