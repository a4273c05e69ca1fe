//! [`Game`]: one impartial heap game as a spec names it — the families' own data (a
//! subtraction set, an interval bound, a take-and-break code, a rule, …) in one enum, with
//! its canonical form (`Display`, which [`Game::parse`] reads back), its play (normal or
//! misère) and the unions `|` makes. The families live in `games/`, one module each; what
//! their moves are, as engines see them, comes from the structure dispatch.

use crate::cert::{CertRule, Sequence};
use crate::games::code::Code;
use crate::games::predicate::MovePredicate;
use crate::games::takebreak::{excluded_periods_of, ExcludedPeriods, TakeBreak};
use crate::games::terminal::{sink_grundy, sink_options, Seed};
use crate::games::turning::Turning;
use crate::moves::bound::Bound;
use crate::moves::breaker::Breaker;
use crate::rule::{Rule, SubtractionRule};
use crate::sets::{MoveSet, NamedSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::ControlFlow;

/// One impartial heap game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Game {
    /// Remove s tokens for s in the set (s <= n; with `leave1`, s < n).
    Subtraction {
        /// The subtraction set S.
        set: MoveSet,
        /// A move may not take the whole heap.
        leave1: bool,
    },
    /// Remove a proper divisor d of n: 1 <= d < n (`nontrivial`: 1 < d < n).
    Divisors {
        /// Exclude d = 1.
        nontrivial: bool,
    },
    /// Remove 1..=f(n) tokens (with `leave1`, at most n - 1).
    Interval {
        /// f.
        bound: Bound,
        /// A move may not take the whole heap.
        leave1: bool,
    },
    /// A take-and-break game given by its octal or hexadecimal code.
    TakeBreak(TakeBreak),
    /// Grundy's game: split one heap into two unequal non-empty heaps.
    GrundyGame,
    /// Remove d tokens, 1 <= d < n, where d does not divide n (the subtract-a-non-divisor
    /// game; cf. OEIS A365533).
    NonDivisors,
    /// Remove k tokens when a predicate over n and k holds (`rule{k <= isqrt(n)}`; see
    /// [`crate::MovePredicate`]).
    Rule(Box<MovePredicate>),
    /// A move of any of two or more one-heap games (`half|sub{1}`): their parts, in
    /// normal form — no unions, no take-and-break or misère games inside, at most one
    /// subtraction set per `leave1` value, sorted by their specs, no two equal.
    Union(Vec<Game>),
    /// The same moves as the inner game (never itself `Misere`) in misère play: the player
    /// who makes the last move loses. Its "Grundy values" are misère nim-values and its
    /// P-positions misère P-positions (see [`crate::misere`]).
    Misere(Box<Game>),
    /// A game outside the octal menu whose moves may leave many heaps: an extended
    /// CGSuite code (`4!.0`, `{2+}!.0`, `0.[3]`) or a coin-turning game (see
    /// [`Ruleset`]).
    Ruleset(Ruleset),
}

/// Normal play (the last player to move wins) or misère play (the last player to move
/// loses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Play {
    /// The last player to move wins.
    #[default]
    Normal,
    /// The last player to move loses.
    Misere,
}

impl Game {
    /// This game's moves under `play`: `misere(G)` for [`Play::Misere`], the game itself
    /// (unwrapped from `misere( )`) for [`Play::Normal`].
    pub fn with_play(&self, play: Play) -> Game {
        let inner = self.under_normal_play().clone();
        match play {
            Play::Normal => inner,
            Play::Misere => Game::Misere(Box::new(inner)),
        }
    }

    /// Why this game has no misère form here, when it has none: extended codes, coin-turning,
    /// `sink` and `seed` games are computed in normal play only. `None` for every other game.
    pub fn misere_unsupported(&self) -> Option<String> {
        matches!(self.under_normal_play(), Game::Ruleset(_)).then(|| {
            format!(
                "misère play is not available for `{}`: extended codes, coin-turning, sink( ) \
                 and seed( ) games are computed in normal play only",
                self.under_normal_play()
            )
        })
    }

    /// How the game is played.
    pub fn play(&self) -> Play {
        match self {
            Game::Misere(_) => Play::Misere,
            _ => Play::Normal,
        }
    }

    /// The game with the same moves in normal play (itself unless it is `misere( )`).
    pub fn under_normal_play(&self) -> &Game {
        match self {
            Game::Misere(g) => g,
            g => g,
        }
    }
}

impl Game {
    /// The same game in normal form ([`Game::parse`] always gives one; a game built by hand
    /// may not be): subtraction sets normalised ([`MoveSet::normalized`]), take-and-break
    /// digits of four bits without trailing zeros. Every engine call takes its game through
    /// this first.
    pub fn normalized(&self) -> std::borrow::Cow<'_, Game> {
        use std::borrow::Cow;
        let owned = match self {
            Game::Subtraction { set, leave1 } => {
                let n = set.normalized();
                (n != *set).then_some(Game::Subtraction {
                    set: n,
                    leave1: *leave1,
                })
            }
            Game::TakeBreak(code) => {
                let n = TakeBreak::new(code.digits.iter().map(|d| d & 15).collect());
                (n != *code).then_some(Game::TakeBreak(n))
            }
            Game::Misere(g) => match g.normalized() {
                Cow::Owned(n) => Some(Game::Misere(Box::new(n.under_normal_play().clone()))),
                Cow::Borrowed(Game::Misere(inner)) => Some(Game::Misere(inner.clone())),
                Cow::Borrowed(_) => None,
            },
            Game::Union(parts) => {
                let n = union_of(parts.clone());
                (n != *self).then_some(n)
            }
            Game::Divisors { .. }
            | Game::Interval { .. }
            | Game::GrundyGame
            | Game::NonDivisors
            | Game::Rule(_)
            | Game::Ruleset(_) => None,
        };
        owned.map_or(Cow::Borrowed(self), Cow::Owned)
    }

    /// False for games that have outcomes but no Grundy values (`seed( )`, whose first
    /// outcomes are prescribed).
    pub fn has_grundy_values(&self) -> bool {
        !matches!(self.under_normal_play(), Game::Ruleset(Ruleset::Seed(_)))
    }

    /// The subtraction set, for set-based subtraction games.
    pub fn move_set(&self) -> Option<&MoveSet> {
        match self {
            Game::Subtraction { set, .. } => Some(set),
            Game::Divisors { .. }
            | Game::Interval { .. }
            | Game::TakeBreak(_)
            | Game::GrundyGame
            | Game::NonDivisors
            | Game::Rule(_)
            | Game::Union(_)
            | Game::Misere(_)
            | Game::Ruleset(_) => None,
        }
    }

    /// True for the games whose every move leaves one heap (all but take-and-break codes;
    /// `misere( )` looked through): the ones `|` joins.
    pub fn is_one_heap(&self) -> bool {
        !matches!(
            self.under_normal_play(),
            Game::TakeBreak(_) | Game::GrundyGame | Game::Ruleset(_)
        )
    }

    /// A file-name-safe form of the canonical spec: `sub{1,2,3}` → `sub-1-2-3`,
    /// `0.77` → `0.77`, `primes|sub{1}` → `primes-sub-1`; past [`SLUG_MAX`] bytes, a
    /// prefix and a 32-bit FNV-1a hash of the canonical spec.
    pub fn slug(&self) -> String {
        let mut out = String::new();
        for c in self.to_string().chars() {
            let c = if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            };
            if c == '-' && (out.is_empty() || out.ends_with('-')) {
                continue;
            }
            out.push(c);
        }
        let out = out.trim_end_matches('-').to_string();
        if out.len() <= SLUG_MAX {
            return out;
        }
        // too long for a file name: a prefix and a hash of the whole canonical spec
        let hash = self
            .to_string()
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            });
        format!(
            "{}-{:08x}",
            out[..SLUG_MAX - 9].trim_end_matches('-'),
            hash as u32
        )
    }
}

/// Longest [`Game::slug`] (bytes): folder names such as `reports/<slug>-<N>` stay well
/// inside the 255 bytes of a file name.
pub const SLUG_MAX: usize = 120;

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Game::Subtraction { set, leave1 } => {
                if *leave1 {
                    write!(f, "leave1({set})")
                } else {
                    write!(f, "{set}")
                }
            }
            Game::Divisors { nontrivial } => {
                write!(
                    f,
                    "{}",
                    if *nontrivial {
                        "divisors-nontrivial"
                    } else {
                        "divisors"
                    }
                )
            }
            Game::Interval { bound, leave1 } => {
                let b = match bound {
                    Bound::Sqrt => "sqrt".to_string(),
                    Bound::Half => "half".to_string(),
                    Bound::Upto(k) => format!("upto{{{k}}}"),
                };
                if *leave1 {
                    write!(f, "leave1({b})")
                } else {
                    write!(f, "{b}")
                }
            }
            Game::TakeBreak(code) => write!(f, "{code}"),
            Game::GrundyGame => write!(f, "grundy-game"),
            Game::Misere(g) => write!(f, "misere({g})"),
            Game::NonDivisors => write!(f, "nondivisors"),
            Game::Rule(p) => write!(f, "rule{{{p}}}"),
            Game::Ruleset(r) => write!(f, "{r}"),
            Game::Union(parts) => {
                for (i, g) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str("|")?;
                    }
                    write!(f, "{g}")?;
                }
                Ok(())
            }
        }
    }
}

/// Why `|` cannot join `g` (the `|` at 1-based position `bar`, when it is not next to it).
pub(crate) fn unjoinable(g: &Game, bar: Option<usize>) -> String {
    let at = bar.map_or(String::new(), |b| format!(" at position {b}"));
    match g.play() {
        Play::Misere => format!(
            "`{g}` is in misère play, so the '|'{at} cannot join it: put misere( ) around the \
             whole union"
        ),
        Play::Normal => format!("`{g}` is not a one-heap game, so the '|'{at} cannot join it"),
    }
}

/// Can `|` join this game (a one-heap game in normal play)?
pub(crate) fn joinable(g: &Game) -> bool {
    g.is_one_heap() && g.play() == Play::Normal
}

/// The union of one-heap games in normal form: nested unions flattened, the subtraction
/// sets with the same `leave1` merged into one, the parts sorted by their specs with
/// duplicates dropped; a single part is that game itself.
pub(crate) fn union_of(parts: Vec<Game>) -> Game {
    let mut flat: Vec<Game> = Vec::new();
    let mut sets: [Option<MoveSet>; 2] = [None, None];
    let mut stack = parts;
    while let Some(g) = stack.pop() {
        match g.normalized().into_owned() {
            Game::Union(inner) => stack.extend(inner),
            Game::Subtraction { set, leave1 } => {
                let slot = &mut sets[usize::from(leave1)];
                *slot = Some(match slot.take() {
                    Some(s) => s.union(set).normalized(),
                    None => set,
                });
            }
            other => flat.push(other),
        }
    }
    for (leave1, set) in sets.into_iter().enumerate() {
        if let Some(set) = set {
            flat.push(Game::Subtraction {
                set,
                leave1: leave1 == 1,
            });
        }
    }
    flat.sort_by_key(|g| g.to_string());
    flat.dedup();
    match flat.len() {
        1 => flat.pop().unwrap_or(Game::NonDivisors),
        _ => Game::Union(flat),
    }
}

/// Games whose moves may leave any number of heaps, computed by their own engines: the
/// extended CGSuite codes ([`crate::games::code`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ruleset {
    /// An extended take-and-break code (`4!.0`, `{2+}!.0`, `0.[3]`).
    Code(Code),
    /// A coin-turning game (`turning{1-3}`, `ruler`).
    Turning(Turning),
    /// `sink(S)`: a move may take more than the heap, and a move to a non-positive heap
    /// wins (see [`crate::games::terminal`]).
    Sink(MoveSet),
    /// `seed(SPEC; PN…)`: prescribed outcomes of the first heaps (outcomes only).
    Seed(Seed<Game>),
}

impl Ruleset {
    /// Calls `visit` with the heaps each option of a heap of `n` leaves (every option,
    /// listed: for tests, sums and small heaps).
    /// Stops when `visit` breaks.
    pub fn for_each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            Ruleset::Code(c) => c.for_each_option(n, visit),
            Ruleset::Turning(t) => t.for_each_option(n, visit),
            Ruleset::Sink(set) => sink_options(set, n, visit),
            // the moves (the prescribed heaps' outcomes do not follow from them)
            Ruleset::Seed(s) => {
                for m in s.game.moves_of(n).unwrap_or_default() {
                    visit(&[n - m])?;
                }
                ControlFlow::Continue(())
            }
        }
    }

    /// Grundy values 0..=max from the ruleset's engine (the public call is
    /// [`crate::grundy_table`]).
    /// `room`: the most bytes the value bit sets may take.
    pub(crate) fn grundy(
        &self,
        max: u64,
        room: u64,
        watch: &mut crate::observe::Watch,
    ) -> Result<Vec<u32>, crate::Error> {
        match self {
            Ruleset::Code(c) => crate::games::code::code_grundy(c, max, room, watch),
            Ruleset::Turning(t) => crate::games::turning::turning_grundy(t, max, room, watch),
            Ruleset::Sink(set) => sink_grundy(set, max, watch),
            Ruleset::Seed(s) => Err(crate::Error::Unsupported {
                what: format!(
                    "Grundy values of {s}, whose prescribed start gives outcomes only (ask for \
                     outcomes or P-positions)"
                ),
            }),
        }
    }

    /// Bit-set rows per heap size the engine keeps (for its cost).
    pub(crate) fn rows(&self) -> usize {
        match self {
            Ruleset::Code(c) => c.rows(),
            Ruleset::Turning(_) | Ruleset::Sink(_) | Ruleset::Seed(_) => 0,
        }
    }

    /// How many bit sets (each as wide as the values) the engine holds at N = `max`.
    pub(crate) fn bitsets(&self, max: u64) -> f64 {
        match self {
            Ruleset::Code(c) => c.rows() as f64 * (max as f64 + 1.0),
            Ruleset::Turning(t) => t.unions_at(max as f64).0 + 2.0,
            Ruleset::Sink(_) | Ruleset::Seed(_) => 0.0,
        }
    }

    /// About how many rows the engine unites for heap n (for its cost).
    pub(crate) fn unions_at(&self, n: f64) -> f64 {
        match self {
            Ruleset::Code(c) => c.unions_at(n).0,
            Ruleset::Turning(t) => t.unions_at(n).0,
            Ruleset::Sink(_) | Ruleset::Seed(_) => 0.0,
        }
    }

    /// About how many single values the engine adds for heap n (for its cost).
    pub(crate) fn singles_at(&self, n: f64) -> f64 {
        match self {
            Ruleset::Code(c) => c.unions_at(n).1,
            Ruleset::Turning(t) => t.unions_at(n).1,
            Ruleset::Sink(set) => set.count_upto_estimate(n as u64) as f64,
            Ruleset::Seed(s) => s.game.moves_of(n as u64).map_or(1.0, |m| m.len() as f64),
        }
    }
}

impl std::fmt::Display for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ruleset::Code(c) => write!(f, "{c}"),
            Ruleset::Turning(t) => write!(f, "{t}"),
            Ruleset::Sink(set) => write!(f, "sink({set})"),
            Ruleset::Seed(s) => write!(f, "{s}"),
        }
    }
}

impl Game {
    /// The amounts that may be removed from a heap of `n` for the families whose every move
    /// leaves one heap (subtraction sets, divisors, interval games), increasing; `None` for
    /// take-and-break games.
    pub fn moves_of(&self, n: u64) -> Option<Vec<u64>> {
        let mut v = Vec::new();
        match self {
            Game::Misere(g) => return g.moves_of(n),
            Game::NonDivisors => v.extend((1..n).filter(|d| !n.is_multiple_of(*d))),
            Game::Rule(p) => v.extend(p.moves(n)),
            Game::Union(parts) => {
                for g in parts {
                    v.extend(g.moves_of(n).unwrap_or_default());
                }
                v.sort_unstable();
                v.dedup();
            }
            Game::Subtraction { set, leave1 } => {
                let top = if *leave1 { n.saturating_sub(1) } else { n };
                match set {
                    MoveSet::Union { named, finite } => {
                        v.extend(finite.iter().copied().filter(|&s| s <= top));
                        for &s in named {
                            match s {
                                // cheaper to test each amount than to list the set
                                NamedSet::Primes | NamedSet::Practical => {
                                    v.extend((1..=top).filter(|&x| s.contains(x)))
                                }
                                NamedSet::Squares
                                | NamedSet::Cubes
                                | NamedSet::Triangular
                                | NamedSet::Fibonacci
                                | NamedSet::Powers2
                                | NamedSet::Factorials => v.extend(s.elements_upto(top)),
                            }
                        }
                        v.sort_unstable();
                        v.dedup();
                    }
                    MoveSet::AllBut { excluded } => {
                        v.extend((1..=top).filter(|s| excluded.binary_search(s).is_err()))
                    }
                }
            }
            Game::Divisors { nontrivial } => {
                // pairs d·(n/d) = n with d <= sqrt(n)
                let lo = if *nontrivial { 2 } else { 1 };
                for d in (1..=crate::num::isqrt(n)).filter(|d| n.is_multiple_of(*d)) {
                    v.extend([d, n / d].into_iter().filter(|&x| x >= lo && x < n));
                }
                v.sort_unstable();
                v.dedup();
            }
            Game::Interval { bound, leave1 } => {
                let top = if *leave1 { n.saturating_sub(1) } else { n };
                v.extend(1..=bound.f(n).min(top));
            }
            Game::Ruleset(Ruleset::Seed(s)) => return s.game.moves_of(n),
            Game::TakeBreak(_) | Game::GrundyGame | Game::Ruleset(_) => return None,
        }
        Some(v)
    }
}

impl Game {
    /// Is removing `s` tokens from a heap of `n` a move that leaves one heap of n − s, in a
    /// one-heap family? False for take-and-break games and for s = 0 or s > n.
    pub fn is_move(&self, n: u64, s: u64) -> bool {
        if s == 0 || s > n {
            return false;
        }
        match self {
            Game::Misere(g) => g.is_move(n, s),
            Game::Subtraction { set, leave1 } => !(*leave1 && s == n) && set.contains(s),
            Game::Divisors { nontrivial } => {
                s < n && n.is_multiple_of(s) && (!nontrivial || s >= 2)
            }
            Game::Interval { bound, leave1 } => !(*leave1 && s == n) && s <= bound.f(n),
            Game::NonDivisors => s < n && !n.is_multiple_of(s),
            Game::Rule(p) => p.allows(n, s),
            Game::Union(parts) => parts.iter().any(|g| g.is_move(n, s)),
            Game::Ruleset(Ruleset::Seed(sd)) => sd.game.is_move(n, s),
            Game::TakeBreak(_) | Game::GrundyGame | Game::Ruleset(_) => false,
        }
    }
}

impl Rule for Game {
    fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
        if let Game::Ruleset(r) = self.under_normal_play() {
            let _ = r.for_each_option(n, &mut |heaps| {
                visit(heaps);
                ControlFlow::Continue(())
            });
            return;
        }
        match Breaker::of(self) {
            Some(br) => {
                let _ = br.options(n, u64::MAX, &mut |_, heaps| {
                    visit(heaps);
                    ControlFlow::Continue(())
                });
            }
            None => {
                for s in self.moves_of(n).unwrap_or_default() {
                    visit(&[n - s]);
                }
            }
        }
    }
}

impl SubtractionRule for Game {
    fn for_each_move(&self, n: u64, visit: &mut dyn FnMut(u64)) {
        for s in self.moves_of(n).unwrap_or_default() {
            visit(s);
        }
    }
}

impl CertRule {
    /// The rule for `seq` of `game`.
    pub fn of(game: &Game, seq: Sequence) -> CertRule {
        match game {
            // The window argument holds in misère play too (every move is legal, and no heap
            // is without a move, from the largest move on); Guy–Smith does not.
            Game::Misere(inner) => match CertRule::of(inner, seq) {
                r @ CertRule::FiniteSubtraction { .. } => r,
                CertRule::Octal { .. } | CertRule::None => CertRule::None,
            },
            Game::Subtraction { set, .. } => match set.max_finite() {
                Some(k) => CertRule::FiniteSubtraction { largest_move: k },
                None => CertRule::None,
            },
            Game::TakeBreak(code) if seq == Sequence::Grundy && code.max_heaps_left() <= 2 => {
                CertRule::Octal {
                    last_digit: code.last_digit() as u64,
                }
            }
            // upto{k} is sub{1..k}: the same window argument proves its period
            Game::Interval {
                bound: Bound::Upto(k),
                ..
            } => CertRule::FiniteSubtraction { largest_move: *k },
            // extended codes and coin-turning games: Guy–Smith's argument needs every split
            // of the heaps left to be allowed, so no constraint, and at most two heaps
            Game::TakeBreak(_)
            | Game::GrundyGame
            | Game::Ruleset(_)
            | Game::Divisors { .. }
            | Game::Interval { .. }
            | Game::NonDivisors
            | Game::Rule(_)
            | Game::Union(_) => CertRule::None,
        }
    }
}

impl Breaker {
    /// The rule of a take-and-break game (a code or Grundy's game, in either play); `None`
    /// for the other families.
    pub fn of(game: &Game) -> Option<Breaker> {
        match game.under_normal_play() {
            Game::TakeBreak(code) => Some(Breaker::from_code(code)),
            Game::GrundyGame => Some(Breaker::grundy_game()),
            Game::Subtraction { .. }
            | Game::Divisors { .. }
            | Game::Interval { .. }
            | Game::NonDivisors
            | Game::Rule(_)
            | Game::Union(_)
            | Game::Misere(_)
            | Game::Ruleset(_) => None,
        }
    }
}

/// The eventual periods the P-positions `ps` of a take-and-break `game` rule out (see
/// [`excluded_periods_of`]); `None` for games of other families, without a move that
/// splits, or without a P-position b >= 1.
pub fn excluded_periods(game: &Game, ps: &[u64]) -> Option<ExcludedPeriods> {
    excluded_periods_of(&Breaker::of(game)?, ps)
}
