//! How a census item reduces to its class's representative: [`Reduction`], the classes
//! ([`Class`], [`Member`]) and [`canonical`].

use crate::game::Game;
use crate::games::finite::reduce_finite;
use crate::games::takebreak::cousins;
pub use crate::games::takebreak::first_cousin;
use crate::sets::MoveSet;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How an item's values follow from its representative's: moves dropped (values
/// unchanged), then G_item(n) = G_rep(⌊n / scale⌋), or with a shift s,
/// G_item(n) = G_rep(n - s) for n >= s and 0 below.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Reduction {
    /// Moves removed as provably redundant, increasing.
    pub removed: Vec<u64>,
    /// The common factor divided out (1: none).
    pub scale: u64,
    /// First-cousin steps (octal codes).
    pub shift: u64,
}

impl Reduction {
    /// Nothing reduced: the item is its own representative.
    pub fn identity() -> Reduction {
        Reduction {
            removed: vec![],
            scale: 1,
            shift: 0,
        }
    }

    /// Whether nothing was reduced.
    pub fn is_identity(&self) -> bool {
        self.removed.is_empty() && self.scale <= 1 && self.shift == 0
    }

    /// The item's value at n from the representative's values `rep` (None past them).
    pub fn value_at(&self, rep: &[u32], n: u64) -> Option<u32> {
        if n < self.shift {
            return Some(0);
        }
        let m = (n - self.shift) / self.scale.max(1);
        rep.get(usize::try_from(m).ok()?).copied()
    }

    /// The item's values at 0..=max (fewer when `rep` runs out first).
    pub fn item_values(&self, rep: &[u32], max: u64) -> Vec<u32> {
        (0..=max).map_while(|n| self.value_at(rep, n)).collect()
    }
}

impl fmt::Display for Reduction {
    /// `itself`, or the steps: `less {4}`, `scale 2`, `shift 1`, joined by `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_identity() {
            return write!(f, "itself");
        }
        let mut parts = vec![];
        if !self.removed.is_empty() {
            let list: Vec<String> = self.removed.iter().map(u64::to_string).collect();
            parts.push(format!("less {{{}}}", list.join(",")));
        }
        if self.scale > 1 {
            parts.push(format!("scale {}", self.scale));
        }
        if self.shift > 0 {
            parts.push(format!("shift {}", self.shift));
        }
        write!(f, "{}", parts.join(", "))
    }
}

/// One item of a class and how it reduces to the representative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Its index in the space.
    pub item: u64,
    /// Its canonical spec.
    pub spec: String,
    /// How its values follow from the representative's.
    pub reduction: Reduction,
}

/// Items with one representative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    /// The class's index (classes in order of their first item).
    pub index: u64,
    /// The game computed for the whole class.
    pub representative: Game,
    /// Its members, in item order.
    pub members: Vec<Member>,
}

impl Class {
    /// The members as `spec (reduction)` joined by `; `, e.g. `sub{2,4,6} (scale 2)`.
    pub fn member_list(&self) -> String {
        self.members
            .iter()
            .map(|m| {
                if m.reduction.is_identity() {
                    m.spec.clone()
                } else {
                    format!("{} ({})", m.spec, m.reduction)
                }
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The representative of `game` and how `game` reduces to it (see the module's notes for
/// the three proven steps: the families' own, `games::finite::reduce_finite` and
/// `games::takebreak::cousins`). Games of other families are their own representatives.
pub fn canonical(game: &Game) -> (Game, Reduction) {
    let mut red = Reduction::identity();
    match game {
        Game::Subtraction {
            set: MoveSet::Union { named, finite },
            leave1: false,
        } if named.is_empty() && !finite.is_empty() => {
            let (set, removed, scale) = reduce_finite(finite.clone());
            red.removed = removed;
            red.scale = scale;
            (
                Game::Subtraction {
                    set: MoveSet::finite(set),
                    leave1: false,
                },
                red,
            )
        }
        Game::TakeBreak(code) => match cousins(code) {
            Some((code, shift)) => {
                red.shift = shift;
                (Game::TakeBreak(code), red)
            }
            None => (game.clone(), red),
        },
        other => (other.clone(), red),
    }
}
