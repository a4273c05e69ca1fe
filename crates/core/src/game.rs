//! [`Game`]: one impartial heap game as a spec names it — the families' own data (a
//! subtraction set, an interval bound, a take-and-break code, a rule, …) in one enum, with
//! its canonical form (`Display`, which [`Game::parse`] reads back), its play (normal or
//! misère) and the unions `|` makes. The families live in `games/`, one module each; what
//! their moves are, as engines see them, comes from the structure dispatch.

use crate::cert::{CertRule, Sequence};
use crate::games::code::Code;
use crate::games::divisors::NonDivisors;
use crate::games::predicate::MovePredicate;
use crate::games::takebreak::{excluded_periods_of, ExcludedPeriods, TakeBreak};
use crate::games::terminal::{Seed, Sink};
use crate::games::turning::Turning;
use crate::moves::bound::Bound;
use crate::moves::breaker::Breaker;
use crate::moves::interval::{IntervalGame, Reach};
pub use crate::moves::Play;
use crate::moves::{Moves, Structure};
use crate::rule::{Rule, SubtractionRule};
use crate::sets::MoveSet;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

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

    /// Why this game has no misère form here, when it has none: extended codes whose moves
    /// no breaker plays (four or more heaps, repeating digits, added tokens, constraints
    /// other than two unequal heaps), coin-turning, `sink` and `seed` games are computed in
    /// normal play only. `None` for every other game (`4!.0` included).
    pub fn misere_unsupported(&self) -> Option<String> {
        let inner = self.under_normal_play();
        let why = match inner {
            Game::Ruleset(Ruleset::Code(c)) => match Breaker::from_ext_code(c) {
                Ok(_) => return None,
                // (the quotient command cuts such a code at the heap asked for)
                Err(why) if Breaker::cuts_repeating(c) => format!(
                    " ({why}; its misère quotient on heaps 0..=N is computed: \
                     heaplab quotient --game '{inner}' --max N, written plainly)"
                ),
                Err(why) => format!(" ({why})"),
            },
            Game::Ruleset(_) => String::new(),
            _ => return None,
        };
        Some(format!(
            "misère play is not available for `{inner}`{why}: extended codes that leave four or \
             more heaps, repeat, add tokens or constrain heaps, coin-turning, sink( ) and seed( ) \
             games are computed in normal play only"
        ))
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
    /// `0.77` → `0.77`, `primes|sub{1}` → `primes-sub-1`. Past [`SLUG_MAX`] bytes, or when
    /// the spec has characters a file name drops (`4!.0`, `rule{k <= n // 2}`), a prefix
    /// and a 32-bit FNV-1a hash of the canonical spec, so two specs get two names.
    pub fn slug(&self) -> String {
        slug_of(&self.to_string())
    }
}

/// A file-name-safe form of a canonical spec (see [`Game::slug`]; also the slug of games
/// beyond one heap).
pub fn slug_of(spec: &str) -> String {
    let mut out = String::new();
    for c in spec.chars() {
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
    // only letters, digits, points and the separators `{ } , | ( ) -` can be dropped
    // without two specs meeting (`4!.0` and `4?.0`, `rule{k < n}` and `rule{k <= n}`)
    let plain = spec
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || ".{},|()-".contains(c));
    if plain && out.len() <= SLUG_MAX {
        return out;
    }
    // a prefix and a hash of the whole canonical spec
    let hash = spec.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let keep = out.len().min(SLUG_MAX - 9);
    format!("{}-{:08x}", out[..keep].trim_end_matches('-'), hash as u32)
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
    /// What this game's moves are, as the engines see them, and how it is played: the one
    /// place that turns a family into a structure ([`Moves`]). Unions keep the structure
    /// of their parts where it exists ([`Moves::union`]); a `rule{…}` whose amounts form an
    /// interval or a finite set is one ([`MovePredicate::moves_structure`]).
    pub(crate) fn structure(&self) -> Structure {
        let g = self.normalized();
        match &*g {
            Game::Misere(inner) => Structure {
                moves: inner.moves(),
                play: Play::Misere,
            },
            other => Structure {
                moves: other.moves(),
                play: Play::Normal,
            },
        }
    }

    /// The moves of a normalised game (play aside).
    fn moves(&self) -> Moves {
        match self {
            Game::Subtraction {
                set: MoveSet::AllBut { excluded },
                leave1,
            } => Moves::AllBut {
                excluded: excluded.clone(),
                leave1: *leave1,
            },
            Game::Subtraction {
                set: MoveSet::Union { named, finite },
                leave1,
            } if named.is_empty() => Moves::Finite {
                moves: finite.clone(),
                leave1: *leave1,
            },
            Game::Subtraction { set, leave1 } => Moves::Set {
                set: set.clone(),
                leave1: *leave1,
            },
            Game::Divisors { nontrivial } => Moves::Divisors {
                nontrivial: *nontrivial,
            },
            Game::Interval { bound, leave1 } => Moves::Interval(Reach::from(IntervalGame {
                bound: *bound,
                leave1: *leave1,
            })),
            Game::TakeBreak(code) => Moves::Split(Breaker::from_code(code)),
            Game::GrundyGame => Moves::Split(Breaker::grundy_game()),
            Game::NonDivisors => Moves::Listed(Arc::new(NonDivisors)),
            Game::Rule(p) => p.moves_structure(),
            Game::Union(parts) => Moves::union(parts.iter().map(Game::moves).collect()),
            Game::Misere(inner) => inner.moves(),
            // a code a breaker can play (4!.0 is Grundy's game) has the structure of code
            // digits, so the take-and-break engines serve it in both plays
            Game::Ruleset(Ruleset::Code(c)) => match Breaker::from_ext_code(c) {
                Ok(br) => Moves::Split(br),
                Err(_) => Moves::Options(Arc::new(c.clone())),
            },
            Game::Ruleset(Ruleset::Turning(t)) => Moves::Options(Arc::new(t.clone())),
            Game::Ruleset(Ruleset::Sink(set)) => Moves::Options(Arc::new(Sink(set.clone()))),
            Game::Ruleset(Ruleset::Seed(s)) => Moves::Seeded {
                start: s.start.clone(),
                inner: Box::new(s.game.moves()),
            },
        }
    }

    /// The structure of this game's moves as the engines see it: `finite set`, `named set`,
    /// `all-but set`, `interval`, `interval with extra moves`, `divisors`, `listed moves`,
    /// `code digits`, `option list` or `seeded outcomes` (docs/engines.md says which
    /// engines serve each).
    pub fn structure_kind(&self) -> &'static str {
        self.structure().moves.kind()
    }

    /// The amounts that may be removed from a heap of `n` for the games whose every move
    /// leaves one heap (subtraction sets, divisors, interval games, rules, unions; the
    /// moves after a seeded start), increasing; `None` for take-and-break games.
    pub fn moves_of(&self, n: u64) -> Option<Vec<u64>> {
        let m = self.structure().moves;
        m.is_one_heap().then(|| m.amounts_of(n))
    }

    /// Is removing `s` tokens from a heap of `n` a move that leaves one heap of n − s, in a
    /// one-heap game? False for take-and-break games and for s = 0 or s > n.
    pub fn is_move(&self, n: u64, s: u64) -> bool {
        self.structure().moves.allows(n, s)
    }
}

impl Rule for Game {
    fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
        self.structure().moves.for_each_option(n, visit);
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
    /// The rule for `seq` of `game`, from its structure: a finite set (or `upto{k}`)
    /// proves a period by the window argument, in either play (every move is legal, and
    /// no heap is without a move, from the largest move on); an octal code's Grundy period
    /// by Guy–Smith, in normal play only; nothing else has a theorem here.
    pub fn of(game: &Game, seq: Sequence) -> CertRule {
        let s = game.structure();
        match (&s.moves, s.play) {
            (Moves::Finite { moves, .. }, _) => match moves.last() {
                Some(&k) => CertRule::FiniteSubtraction { largest_move: k },
                None => CertRule::None,
            },
            // upto{k} is sub{1..k}: the same window argument proves its period
            (Moves::Interval(r), _) if r.pure().is_some() && r.constant().is_some() => {
                CertRule::FiniteSubtraction {
                    largest_move: r.constant().unwrap_or(0),
                }
            }
            // Guy–Smith's argument needs every split of the heaps left to be allowed (no
            // constraint) and at most two heaps
            (Moves::Split(br), Play::Normal) if seq == Sequence::Grundy && br.is_octal() => {
                CertRule::Octal {
                    last_digit: br.last_take(),
                }
            }
            _ => CertRule::None,
        }
    }
}

impl Breaker {
    /// The rule of a take-and-break game (a code or Grundy's game, in either play); `None`
    /// for the other families.
    pub fn of(game: &Game) -> Option<Breaker> {
        match game.structure().moves {
            Moves::Split(br) => Some(br),
            _ => None,
        }
    }
}

/// The eventual periods the P-positions `ps` of a take-and-break `game` rule out (see
/// [`excluded_periods_of`]); `None` for games of other families, without a move that
/// splits, or without a P-position b >= 1.
pub fn excluded_periods(game: &Game, ps: &[u64]) -> Option<ExcludedPeriods> {
    excluded_periods_of(&Breaker::of(game)?, ps)
}
