//! The game families, one module each, and the one registry of them ([`FAMILIES`]).
//!
//! A family is its module here (its data, its moves, closed forms and certificate facts)
//! plus one [`Family`] entry below: the word that names it in a spec, an example, what its
//! moves are, the structure engines see, and the hook that reads its spec. The spec
//! parser, `heaplab games`, the README's spec table (`heaplab games --markdown`) and
//! Python's `games()` all read this list; nothing else lists the families.
//!
//! | family (spec) | module |
//! |---|---|
//! | finite subtraction sets `sub{..}` | [`finite`]: the outcome period by cycle detection, proven reductions |
//! | named sets and unions (`squares`, `primes\|sub{1}`) | `sets` (membership) |
//! | all-but sets `allbut{..}`, `nim` | [`allbut`]: finitely many P-positions, Grundy values by counts |
//! | `divisors`, `divisors-nontrivial` | [`divisors`]: divisor lists, the parity theorem |
//! | `sqrt`, `upto{k}`, `half` | [`interval`]: jump-ahead, closed forms |
//! | take-and-break codes, `grundy-game` | [`takebreak`]: codes, first cousins, excluded periods |
//! | extended codes (`4!.0`) | [`code`] |
//! | coin turning (`turning{1-3}`) | [`turning`] |
//! | `rule{..}` | [`predicate`] |
//! | `sink( )`, `seed( ; )` | [`terminal`] |

pub mod allbut;
pub mod code;
pub mod divisors;
pub mod finite;
pub mod interval;
pub mod predicate;
pub mod takebreak;
pub mod terminal;
pub mod turning;
#[cfg(test)]
mod union_tests;

use crate::game::{joinable, union_of, Game, Ruleset};
use crate::games::code::parse::parse_code;
use crate::games::predicate::MovePredicate;
use crate::games::takebreak::TakeBreak;
use crate::games::terminal::Seed;
use crate::games::turning::{Turning, NAMED};
use crate::moves::bound::Bound;
use crate::moves::{Moves, Play};
use crate::sets::{MoveSet, NamedSet};
use crate::spec::cursor::{Cursor, SpecError};
use serde::Serialize;

/// A parsed term before normalisation: sets stay sets until the whole union is known
/// (`squares|cubes|sub{5}` is one set).
pub(crate) enum Term {
    /// A subtraction set (not yet joined with its neighbours).
    Set(MoveSet),
    /// Any other game.
    Game(Game),
}

impl Term {
    /// The game the term is on its own.
    pub(crate) fn into_game(self) -> Game {
        match self {
            Term::Set(set) => Game::Subtraction { set, leave1: false },
            Term::Game(g) => g,
        }
    }
}

/// The spec grammar's reader of a whole spec (for the games nested in wrappers).
pub(crate) type Nested = fn(&mut Cursor<'_>) -> Result<Term, SpecError>;

/// A family's parser hook: called with the cursor after the family's word (which starts at
/// `start`), it reads the rest of the term.
pub(crate) type Hook = fn(&mut Cursor<'_>, &str, usize, Nested) -> Result<Term, SpecError>;

/// One game family: the word that names it in a spec, an example spec, what its moves are,
/// and the structure of its moves as the engines see it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Family {
    /// The word that names it in a spec (`sub`), followed by `args`; empty for an entry
    /// that is an example of another one's syntax (codes start with a digit).
    pub name: &'static str,
    /// An example spec of the family.
    pub spec: &'static str,
    /// The moves, in a few words.
    pub description: &'static str,
    /// The structure of its moves, which picks the engines (`finite set`, `interval`,
    /// `code digits`, …: see docs/engines.md).
    pub structure: &'static str,
    /// What follows the word: `{..}`, `(..)` or nothing.
    #[serde(skip)]
    pub(crate) args: &'static str,
    /// Other words for it (the named coin-turning games).
    #[serde(skip)]
    pub(crate) aliases: &'static [&'static str],
    #[serde(skip)]
    pub(crate) hook: Option<Hook>,
    /// The reader of a game beyond one heap (two heaps, move memory, loopy), for families
    /// that are not one-heap games ([`crate::BeyondGame`]).
    #[serde(skip)]
    pub(crate) beyond: Option<crate::beyond::BeyondHook>,
    /// Its row of the README's spec table (the specs it covers, the moves in full), when
    /// it starts one.
    #[serde(skip)]
    pub(crate) row: Option<(&'static str, &'static str)>,
}

impl PartialEq for Family {
    fn eq(&self, other: &Family) -> bool {
        self.name == other.name && self.spec == other.spec
    }
}

impl Eq for Family {}

impl Family {
    /// An entry: word, what follows it, example, moves, structure.
    const fn new(
        name: &'static str,
        args: &'static str,
        spec: &'static str,
        description: &'static str,
        structure: &'static str,
    ) -> Family {
        Family {
            name,
            spec,
            description,
            structure,
            args,
            aliases: &[],
            hook: None,
            beyond: None,
            row: None,
        }
    }

    /// An entry that shows another entry's syntax at work (a union, a hexadecimal code).
    const fn example(
        spec: &'static str,
        description: &'static str,
        structure: &'static str,
    ) -> Family {
        Family::new("", "", spec, description, structure)
    }

    const fn hook(self, hook: Hook) -> Family {
        Family {
            hook: Some(hook),
            ..self
        }
    }

    const fn beyond(self, hook: crate::beyond::BeyondHook) -> Family {
        Family {
            beyond: Some(hook),
            ..self
        }
    }

    const fn aliases(self, aliases: &'static [&'static str]) -> Family {
        Family { aliases, ..self }
    }

    const fn row(self, specs: &'static str, moves: &'static str) -> Family {
        Family {
            row: Some((specs, moves)),
            ..self
        }
    }
}

/// Every game family with an example spec, in the order `heaplab games` lists them (the
/// order of the README's spec table).
pub static FAMILIES: &[Family] = &[
    Family::new("sub", "{..}", "sub{1,2,3}", "finite subtraction set: remove 1, 2 or 3", "finite set")
        .hook(sub)
        .row("`sub{1,2,3}`", "remove s for s in the finite set (any order, duplicates ignored)"),
    Family::new("allbut", "{..}", "allbut{2,3,7}", "remove any number except those listed", "all-but set")
        .hook(allbut)
        .row("`allbut{2,3,7}`", "remove any positive number except those listed (`nim`: any number)"),
    Family::new("nim", "", "nim", "remove any positive number (one-heap Nim)", "all-but set").hook(nim),
    Family::new("squares", "", "squares", "remove a positive square (Stone Game IV)", "named set")
        .hook(named)
        .row(
            "`squares`, `cubes`, `triangular`, `fibonacci`, `primes`, `powers2`, `factorials`, `practical`",
            "remove a member of the named set",
        ),
    Family::new("cubes", "", "cubes", "remove a positive cube", "named set").hook(named),
    Family::new("triangular", "", "triangular", "remove a triangular number 1, 3, 6, 10, ...", "named set").hook(named),
    Family::new("fibonacci", "", "fibonacci", "remove a Fibonacci number 1, 2, 3, 5, 8, ...", "named set").hook(named),
    Family::new("primes", "", "primes", "remove a prime", "named set").hook(named),
    Family::new("powers2", "", "powers2", "remove a power of two 1, 2, 4, 8, ...", "named set").hook(named),
    Family::new("factorials", "", "factorials", "remove a factorial 1, 2, 6, 24, ...", "named set").hook(named),
    Family::new("practical", "", "practical", "remove a practical number 1, 2, 4, 6, 8, 12, ...", "named set").hook(named),
    Family::example("primes|sub{1}", "union of sets: remove 1 or a prime", "named set")
        .row("`primes\\|sub{1}`", "union of sets"),
    Family::example(
        "half|sub{1}",
        "union of any one-heap games: a move of either (also sqrt|sub{5}, divisors|squares)",
        "interval with extra moves",
    )
    .row(
        "`half\\|sub{1}`, `sqrt\\|sub{5}`, `divisors\\|squares`",
        "union of any games whose moves leave one heap: a move of any of them (written in one \
         order: `sub{1}\\|half` prints as `half\\|sub{1}`). Unions keep the structure of their \
         parts: intervals and finite sets make an interval with extra amounts (`half\\|sub{1}`: \
         jump-ahead and the sliding-window mex, P-positions to 10^9 at once), constant bounds \
         a finite set (`upto{3}\\|sub{7}`); other unions list their moves heap by heap",
    ),
    Family::new("nondivisors", "", "nondivisors", "remove d with 1 <= d < n that does not divide n", "listed moves")
        .hook(nondivisors)
        .row("`nondivisors`", "remove d with 1 ≤ d < n where d does not divide n"),
    Family::new(
        "rule",
        "{..}",
        "rule{k <= isqrt(n)}",
        "your own rule: remove k when the predicate over n, k holds (this one is sqrt)",
        "interval",
    )
    .hook(rule)
    .row(
        "`rule{k <= isqrt(n) AND k % 2 = 1}`",
        "your own rule: remove k (1 ≤ k ≤ n) when the predicate over the heap `n` and the \
         amount `k` holds. The language of `check` claims on integers: `+ - * // %`, \
         comparisons, `AND OR NOT`, `isqrt`, `v2`, `popcount`, `is_square`, `is_prime`, `xor`; \
         a null (division by 0, a function of a negative number, a result beyond ±2^127 ≈ \
         1.7·10^38) is no move. \
         `rule{k <= isqrt(n)}` is `sqrt`, `rule{n % k = 0 AND k < n}` is `divisors`. A rule \
         that is an OR of upper bounds on k (`k <= E`, `k < E`, E over n growing by at most 1 \
         a heap: built from n, constants, `+`, `-` and `*` by constants, `//` by a positive \
         constant, `isqrt`) and single amounts (`k = 3`) is an interval with extra amounts \
         and runs on the interval engines: `rule{k <= n // 2 OR k = 1}` is `half\\|sub{1}`. \
         Otherwise a conjunct `k <= E` (E without k) bounds the amounts tried: \
         `rule{k <= isqrt(n) AND k % 2 = 1}` to 10^5 takes 0.35 s here; a rule that tries \
         every k (`rule{n % k <> 0}`) is quadratic: its amounts are evaluated in batches of \
         512, column by column, 10^5 in about 50 s",
    ),
    Family::new("leave1", "(..)", "leave1(primes|sub{1})", "same moves, but never take the whole heap", "named set")
        .hook(leave1)
        .row(
            "`leave1(SPEC)`",
            "the same moves, but never the whole heap (for subtraction sets, interval games and their unions)",
        ),
    Family::new("divisors", "", "divisors", "remove a proper divisor d of n (1 <= d < n)", "divisors")
        .hook(divisors)
        .row("`divisors`, `divisors-nontrivial`", "remove a divisor d of n with 1 ≤ d < n (1 < d < n)"),
    Family::new("divisors-nontrivial", "", "divisors-nontrivial", "remove a divisor d with 1 < d < n", "divisors")
        .hook(divisors_nontrivial),
    Family::new("sqrt", "", "sqrt", "remove 1..floor(sqrt n)", "interval")
        .hook(sqrt)
        .row("`sqrt`, `upto{k}`, `half`", "remove 1..f(n) with f = floor(√n), k, floor(n/2)"),
    Family::new("upto", "{k}", "upto{3}", "remove 1..k (the Bash game)", "interval").hook(upto),
    Family::new("half", "", "half", "remove 1..floor(n/2)", "interval").hook(half),
    Family::new("", "", "0.77", "octal take-and-break code (Kayles); also .77, 4.07, 0.137", "code digits")
        .hook(code)
        .row(
            "`0.77`, `.77`, `4.07`, `0.3F`, `C.0`",
            "take-and-break codes in CGSuite's octal/hexadecimal notation (a digit before the \
             point splits a heap without removing any: `C.0` into two or three heaps); \
             `kayles` = `0.77`, `dawson` = `0.07`",
        ),
    Family::example("0.3F", "hexadecimal code: digit bit 8 leaves three heaps", "code digits"),
    Family::new("kayles", "", "kayles", "alias of 0.77", "code digits").hook(kayles),
    Family::new("dawson", "", "dawson", "Dawson's Kayles, alias of 0.07", "code digits").hook(dawson),
    Family::new("grundy-game", "", "grundy-game", "split one heap into two unequal non-empty heaps", "code digits")
        .hook(grundy_game)
        .row("`grundy-game`", "split a heap into two unequal non-empty heaps"),
    Family::example(
        "{2+}!.0",
        "extended code: ! pairwise unequal heaps, ? not all equal, = all equal (4!.0 is Grundy's game)",
        "option list",
    )
    .row(
        "`4!.0`, `{2+}!.0`, `0.[3]`, `{2,3}?.0`, `{2,3}=.0`, `0.&96;`, `0.*`, `G.0`",
        "CGSuite's extended codes, written as CGSuite writes them. Digit i says how many heaps \
         may be left after removing i tokens: base 32 (`0-9`, `A-V`, bit j set = j heaps, up to \
         4), `&n;` with n in decimal read the same way (`&96;` = 5 or 6 heaps), `{2,5}` or \
         `{2+}` (2 or more; counts up to 63), `*` (any number); after a digit `!` makes the \
         heaps pairwise unequal, `?` not all equal, `=` all equal — constraints concern moves \
         that leave two or more heaps (leaving one heap or none stays allowed where the digit \
         allows it), one per digit (`{2!,3}` is refused: write `{2,3}!`); `[…]` at the end \
         repeats for ever. `4!.0` is Grundy's game, `0.[3]` is Nim, `{2+}!.0` splits a heap \
         into any number of unequal heaps. A code whose moves remove a fixed number of tokens \
         and leave at most three heaps, of any sizes or two unequal ones (`4!.0`), has the \
         structure of code digits: the take-and-break engines serve it, misère play and \
         quotients included. Digits further left add tokens (CGSuite's `80.0`: \
         add one token, then leave three heaps): accepted when every option is made of \
         smaller heaps (the t-th digit left of the point allows only counts of at least \
         t + 2), refused as loopy otherwise (`40.0`). Values come from a knapsack over part sizes: \
         `{2+}.0`, `{2+}!.0` and `{2+}?.0` to 10^4 take 6.7 s, 6.1 s and 8.4 s on a quiet \
         machine here (the work grows like N³ when the values grow like n; runs are announced \
         with an estimate). Periods of these codes are observed, never certified (Guy–Smith \
         needs every split allowed and at most two heaps)",
    ),
    Family::example(
        "{2+}!.0",
        "extended code: {2,3} or {k+} heap counts, * any number (split into unequal heaps)",
        "option list",
    ),
    Family::example(
        "0.[3]",
        "extended code: [..] repeats for ever (Nim); digits 0-9 A-V (up to 4 heaps), &n; any (&96;: 5 or 6)",
        "option list",
    ),
    Family::new(
        "turning",
        "{..}",
        "turning{1-3}",
        "coin turning: turn 1 to 3 coins, the rightmost heads to tails (Mock Turtles); C E S F C(m)",
        "option list",
    )
    .hook(turning)
    .row(
        "`turning{1-3}`, `ruler`, `mock-turtles`, `turning-turtles`, `moebius`, `mogul`, `twins`, \
         `triplets`, `turnips`, `grunt`",
        "coin-turning games (Winning Ways ch. 14, CGSuite's `Spawning` codes): coins numbered \
         1, 2, 3, … (Winning Ways numbers some games from 0: there coin n − 1 has the value heap \
         n has here); a move turns over some coins, the rightmost (at n) from heads to tails; \
         heap n is one head at n. Elements separated by commas: `3`, `1-3`, `2+` coins, then \
         `C` consecutive, `E` equally spaced, `S` symmetric, `F` the leftmost is coin 1, \
         `C(m)` all coins turned within m adjacent positions (from n − m + 1 to n). `ruler` = \
         `turning{1+C}` (g(n): the largest power of 2 dividing n), `mock-turtles` = \
         `turning{1-3}` (the odious numbers, A000069), `turning-turtles` = `turning{1-2}` \
         (Nim), `moebius` = `1-5`, `mogul` = `1-7`, `twins` = `2`, `triplets` = `3`, \
         `turnips` = `3E`, `grunt` = `4SF` (Grundy's game one heap down). `ruler` to 10^5: \
         0.14 s; `mock-turtles`: 0.7 s; Moebius's values grow like n^3, so it stops near 10^4",
    ),
    Family::new(
        "ruler",
        "",
        "ruler",
        "turning{1+C}; also mock-turtles, turning-turtles, moebius, mogul, twins, triplets, turnips, grunt",
        "option list",
    )
    .hook(named_turning)
    .aliases(&["turning-turtles", "mock-turtles", "moebius", "mogul", "twins", "triplets", "turnips", "grunt"]),
    Family::new(
        "splittles",
        "{..}",
        "splittles{1,3}",
        "remove s in S, optionally split the rest in two (the code 0.707)",
        "code digits",
    )
    .hook(splittles)
    .row(
        "`splittles{1,3}`",
        "remove s in S, then leave the rest, split it into two heaps, or nothing: the octal \
         code with 7 at every s, and printed as it (`splittles{1,2}` is Kayles, `0.77`)",
    ),
    Family::new(
        "sink",
        "(..)",
        "sink(sub{2,5})",
        "subtract any s in S, even past 0: a move to a non-positive heap wins",
        "option list",
    )
    .hook(sink)
    .row(
        "`sink(sub{2,5})`",
        "a move may subtract any s in the set, even more than the heap, and a move to a \
         non-positive heap wins (Bhagat, Larsson, Manabe, Yamashita, arXiv 2601.18715): heap \
         n ≥ 1 has the options n − s for s < n, and a move to the empty heap whenever some s ≥ \
         n; heap 0 has no move (a P-position). In a sum such a move empties its heap, as in any \
         sum of normal play. For subtraction sets (and unions whose moves are a finite set, such as \
         `upto{3}\\|sub{7}`)",
    ),
    Family::new(
        "seed",
        "(..)",
        "seed(sub{1,2}; NN)",
        "prescribed outcomes of heaps 0, 1, … (P or N), then the moves (outcomes only)",
        "seeded outcomes",
    )
    .hook(seed)
    .row(
        "`seed(sub{1,2}; NN)`",
        "prescribed starting outcomes (Miklós and Post, arXiv 2312.02426): heaps 0, 1, … have \
         the outcomes written (`P` or `N`, one letter a heap), later heaps follow the game's \
         moves (a game whose every move leaves one heap: subtraction, divisor, interval, \
         `rule{}` games and their unions). Outcomes only: `table --grundy` is refused, \
         `analyze` analyses the outcomes (`seed(sub{1,2}; NN)` has P-positions 2, 5, 8, …)",
    ),
    Family::new(
        "misere",
        "(..)",
        "misere(sub{1,2,3})",
        "any game in misère play: the last player to move loses (also --play misere)",
        "finite set",
    )
    .hook(misere)
    .row(
        "`misere(SPEC)`",
        "the same moves in misère play (the last player to move loses); same as `--play \
         misere`. Not available for extended codes, coin-turning, `sink` and `seed` games \
         (refused with that reason)",
    ),
    Family::new("wythoff", "", "wythoff", "two heaps (a, b): remove from one heap, or the same from both", "two heaps")
        .beyond(crate::beyond::wythoff)
        .row(
            "`wythoff`, `wythoff{2}`",
            "two heaps (a, b): remove any positive amount from one heap, or x ≥ 1 and y ≥ 1 \
             from both with \\|x − y\\| < a (`wythoff` is a = 1: the same from both; Fraenkel's \
             a-Wythoff, CGSuite's `GenWythoff(k -> k + a)`). P-positions (⌊nα⌋, ⌊nα⌋ + an), \
             α = (2 − a + √(a²+4))/2 (Fraenkel 1982), in exact integer arithmetic to 2^64",
        ),
    Family::new("vectors", "{..}", "vectors{(1,2),(2,1)}", "two heaps (a, b): remove (x, y) for a listed vector", "two heaps")
        .beyond(crate::beyond::vectors)
        .row(
            "`vectors{(1,2),(2,1),(1,1)}`",
            "two heaps (a, b): move to (a − x, b − y) for a listed vector (x, y) (neither below \
             0; (0,0) is refused). Vectors apply as written: list (y,x) too for a symmetric game",
        ),
    Family::new("pair", "{..}", "pair{x = 0 OR y = 0 OR x = y}", "two heaps (a, b): your own rule over a, b, x, y", "two heaps")
        .beyond(crate::beyond::pair_rule)
        .row(
            "`pair{x = 0 OR y = 0 OR x = y}`",
            "a two-heap rule of your own: from (a, b) take x from the first heap and y from \
             the second (0 ≤ x ≤ a, 0 ≤ y ≤ b, not both 0) when the predicate over a, b, x, y \
             holds; the language of `rule{…}`. Every (x, y) is tried: squares to about 600 \
             (about 300 when the rule names a or b)",
        ),
    Family::new("fibonacci-nim", "", "fibonacci-nim", "one heap with memory: take at most twice the previous move", "move memory")
        .beyond(crate::beyond::fibonacci_nim)
        .row(
            "`fibonacci-nim`, `takeaway{3}`, `takeaway{3/2}`, `takeaway{2 * k + 1}`",
            "one heap with move memory: the first move takes 1..n − 1, every later move at \
             most r times the previous one (`fibonacci-nim` = `takeaway{2}`, Whinihan 1963: \
             P-positions are the Fibonacci numbers; CGSuite's `TakeAway(r)`), or at most f(k) \
             after a move of k for f over k of your own (Schwenk 1970). Positions (heap, \
             previous move) as CGSuite writes them",
        ),
    Family::new("takeaway", "{..}", "takeaway{3}", "one heap with memory: take at most r times (or f of) the previous move", "move memory")
        .beyond(crate::beyond::takeaway),
    Family::new("put-or-take", "{..}", "put-or-take{squares}", "loopy: put or take the largest square (or triangular) <= n", "loopy")
        .beyond(crate::beyond::put_or_take)
        .row(
            "`put-or-take{squares}`, `put-or-take{triangular}`, `add-or-divide`",
            "loopy games, whose moves may grow the heap: add or remove the largest square \
             (Epstein's Put or Take a Square, OEIS A005240) or triangular number (Norton's \
             Tribulations, A266726) not above n; add 1 or divide by a prime factor, reaching 1 \
             wins (A362416). Outcomes win, loss or draw by retrograde analysis on a window \
             that grows until every answer is certified (the window is printed)",
        ),
    Family::new("add-or-divide", "", "add-or-divide", "loopy: add 1 or divide by a prime factor; reaching 1 wins", "loopy")
        .beyond(crate::beyond::add_or_divide),
    Family::new("loopy", "{..}", "loopy{1; k = -1 OR is_square(k)}", "loopy: your own rule, k < 0 adds tokens (at most C)", "loopy")
        .beyond(crate::beyond::loopy_rule)
        .row(
            "`loopy{1; k = -1 OR is_square(k)}`",
            "a loopy rule of your own: move from n to n − k when the predicate over n and k \
             holds, for −C ≤ k ≤ n, k ≠ 0 (k < 0 adds −k tokens; C, at most 65536, is the \
             bound that makes every heap's moves finite: a rule without one is refused). The \
             language of `rule{…}`. Windows up to 2^14 (the amounts are tried one by one: a rule \
             without a conjunct `k <= E` takes about a minute there)",
        ),
];

/// The README's table of game specs, made from the registry (`heaplab games --markdown`):
/// one row per family that starts one — the specs, the moves, the structure of the moves
/// (which picks the engines).
pub fn spec_table() -> String {
    let mut out = String::from(
        "| spec | moves from a heap of n (or the position named) | structure |\n|---|---|---|\n",
    );
    for f in FAMILIES {
        if let Some((specs, moves)) = f.row {
            out.push_str(&format!("| {specs} | {moves} | {} |\n", f.structure));
        }
    }
    out
}

fn sub(c: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Set(MoveSet::finite(c.list("subtraction set")?)))
}

fn allbut(c: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Set(MoveSet::all_but(c.list("all-but set")?)))
}

fn nim(_: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Set(MoveSet::all_but(vec![])))
}

fn nondivisors(_: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Game(Game::NonDivisors))
}

fn divisors(_: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Game(Game::Divisors { nontrivial: false }))
}

fn divisors_nontrivial(
    _: &mut Cursor<'_>,
    _: &str,
    _: usize,
    _: Nested,
) -> Result<Term, SpecError> {
    Ok(Term::Game(Game::Divisors { nontrivial: true }))
}

fn sqrt(_: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Game(Game::Interval {
        bound: Bound::Sqrt,
        leave1: false,
    }))
}

fn half(_: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Game(Game::Interval {
        bound: Bound::Half,
        leave1: false,
    }))
}

fn kayles(_: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Game(Game::TakeBreak(TakeBreak::new(vec![0, 7, 7]))))
}

fn dawson(_: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Game(Game::TakeBreak(TakeBreak::new(vec![0, 0, 7]))))
}

fn grundy_game(_: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    Ok(Term::Game(Game::GrundyGame))
}

/// The family named `word` (lower case), if any.
pub(crate) fn family_named(word: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| {
        f.hook.is_some() && !f.name.is_empty() && (f.name == word || f.aliases.contains(&word))
    })
}

/// The hook that reads a take-and-break code (a term that starts with a digit).
pub(crate) fn code_hook() -> Hook {
    code
}

/// The known words for messages: `sub{..}, allbut{..}, squares, …, or a code such as 0.77
/// or 4!.0`.
pub(crate) fn known_words() -> String {
    let mut words: Vec<String> = vec![];
    for f in FAMILIES
        .iter()
        .filter(|f| !f.name.is_empty() && f.hook.is_some())
    {
        words.push(format!("{}{}", f.name, f.args));
        words.extend(f.aliases.iter().map(|a| a.to_string()));
    }
    format!("{}, or a code such as 0.77 or 4!.0", words.join(", "))
}

/// Largest move of `splittles{S}` (its code has a digit per token up to it).
const SPLITTLES_MAX: u64 = 1000;

fn named(_: &mut Cursor<'_>, word: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    let set = NamedSet::from_name(word).expect("registered names are named sets");
    Ok(Term::Set(MoveSet::named(set)))
}

fn upto(c: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    c.expect('{', "after `upto`")?;
    // upto{0} allows no move at all: a game still
    c.ws();
    let k = if c.peek() == Some('0') && !c.chars.get(c.i + 1).is_some_and(|c| c.is_ascii_digit()) {
        c.i += 1;
        0
    } else {
        c.number()?
    };
    c.expect('}', "after the bound of `upto`")?;
    Ok(Term::Game(Game::Interval {
        bound: Bound::Upto(k),
        leave1: false,
    }))
}

/// `( spec )` after the word `name` (`leave1`, `misere`, `sink`): the game inside and
/// where it starts.
fn wrapped(c: &mut Cursor<'_>, name: &str, nested: Nested) -> Result<(Game, usize), SpecError> {
    c.expect('(', &format!("after `{name}`"))?;
    c.ws();
    if c.peek() == Some(')') {
        return Err(c.err(&format!("expected a game inside {name}( )")));
    }
    let inner_at = c.i;
    let inner = inside(c, name, nested)?;
    c.expect(')', &format!("to close {name}("))?;
    Ok((inner.into_game(), inner_at))
}

/// A whole spec nested one level deeper (refused past [`Cursor::MAX_DEPTH`], not followed
/// down the stack).
fn inside(c: &mut Cursor<'_>, name: &str, nested: Nested) -> Result<Term, SpecError> {
    if c.depth >= Cursor::MAX_DEPTH {
        return Err(c.err(&format!("{name}( ) nested more than 64 deep")));
    }
    c.depth += 1;
    let inner = nested(c);
    c.depth -= 1;
    inner
}

fn leave1(c: &mut Cursor<'_>, _: &str, _: usize, nested: Nested) -> Result<Term, SpecError> {
    let (inner, inner_at) = wrapped(c, "leave1", nested)?;
    never_whole(inner).map(Term::Game).map_err(|part| {
        c.err_at(
            inner_at,
            &format!(
                "leave1( ) applies to subtraction games (sets, intervals and their unions), \
                 and `{part}` is not one"
            ),
        )
    })
}

/// `game` with every move that takes the whole heap left out: a union's moves without the
/// whole heap are the union of its parts' (`leave1(half|sub{1})` is
/// `leave1(half)|leave1(sub{1})`). `Err` with the first part that has no such form.
fn never_whole(game: Game) -> Result<Game, Game> {
    Ok(match game {
        Game::Subtraction { set, .. } => Game::Subtraction { set, leave1: true },
        Game::Interval { bound, .. } => Game::Interval {
            bound,
            leave1: true,
        },
        // Divisor moves never take the whole heap already.
        g @ Game::Divisors { .. } => g,
        Game::Union(parts) => union_of(
            parts
                .into_iter()
                .map(never_whole)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        g => return Err(g),
    })
}

fn sink(c: &mut Cursor<'_>, _: &str, _: usize, nested: Nested) -> Result<Term, SpecError> {
    let (inner, inner_at) = wrapped(c, "sink", nested)?;
    match inner {
        Game::Subtraction { set, leave1: false } => {
            Ok(Term::Game(Game::Ruleset(Ruleset::Sink(set))))
        }
        // a union whose moves are a finite set (`upto{3}|sub{7}`)
        g => match g.structure().moves {
            Moves::Finite {
                moves,
                leave1: false,
            } if g.play() == Play::Normal => Ok(Term::Game(Game::Ruleset(Ruleset::Sink(
                MoveSet::finite(moves),
            )))),
            _ => Err(c.err_at(
                inner_at,
                &format!("sink( ) applies to subtraction sets, and `{g}` is not one"),
            )),
        },
    }
}

fn seed(c: &mut Cursor<'_>, _: &str, _: usize, nested: Nested) -> Result<Term, SpecError> {
    c.expect('(', "after `seed`")?;
    c.ws();
    let inner_at = c.i;
    let inner = inside(c, "seed", nested)?.into_game();
    if !joinable(&inner) {
        return Err(c.err_at(
            inner_at,
            &format!(
                "seed( ) takes a game whose every move leaves one heap (subtraction, \
                 divisor, interval, rule{{}} games and their unions), in normal play, \
                 not `{inner}`"
            ),
        ));
    }
    c.expect(';', "between the game and the outcomes in seed( ; )")?;
    c.ws();
    let mut start = vec![];
    while let Some(ch) = c.peek() {
        match ch.to_ascii_uppercase() {
            'P' => start.push(false),
            'N' => start.push(true),
            _ => break,
        }
        c.i += 1;
    }
    c.ws();
    if start.is_empty() || c.peek() != Some(')') {
        return Err(c.err("expected the outcomes of heaps 0, 1, 2, … as P or N letters, then ')'"));
    }
    c.i += 1;
    Ok(Term::Game(Game::Ruleset(Ruleset::Seed(Seed {
        game: Box::new(inner),
        start,
    }))))
}

fn misere(c: &mut Cursor<'_>, _: &str, _: usize, nested: Nested) -> Result<Term, SpecError> {
    let (inner, inner_at) = wrapped(c, "misere", nested)?;
    match inner {
        Game::Misere(_) => Err(c.err_at(inner_at, "misere( ) of a misère game: write it once")),
        g => match g.misere_unsupported() {
            Some(why) => Err(c.err_at(inner_at, &why)),
            None => Ok(Term::Game(Game::Misere(Box::new(g)))),
        },
    }
}

fn turning(c: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    c.expect('{', "after `turning`")?;
    let (t, close) = Turning::parse(&c.chars, c.i).map_err(|(at, msg)| c.err_at(at, &msg))?;
    c.i = close + 1;
    Ok(Term::Game(Game::Ruleset(Ruleset::Turning(t))))
}

fn named_turning(
    c: &mut Cursor<'_>,
    word: &str,
    start: usize,
    _: Nested,
) -> Result<Term, SpecError> {
    let code = NAMED
        .iter()
        .find(|(name, _)| *name == word)
        .map_or("1", |(_, c)| c);
    let chars: Vec<char> = format!("{code}}}").chars().collect();
    let (t, _) = Turning::parse(&chars, 0).map_err(|(_, msg)| c.err_at(start, &msg))?;
    Ok(Term::Game(Game::Ruleset(Ruleset::Turning(t))))
}

/// Remove s in S, and leave the rest as it is, split in two, or nothing: the code with the
/// digit 7 at every s (Winning Ways, ch. 4: splittles{1,2} is Kayles).
fn splittles(c: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    let at = c.i;
    let v = c.list("set of splittles")?;
    if let Some(&m) = v.iter().max().filter(|&&m| m > SPLITTLES_MAX) {
        return Err(c.err_at(
            at,
            &format!("splittles takes moves up to {SPLITTLES_MAX}, not {m}"),
        ));
    }
    let mut digits = vec![0u8; v.iter().max().map_or(1, |&m| m as usize + 1)];
    for &x in &v {
        digits[x as usize] = 7;
    }
    Ok(Term::Game(Game::TakeBreak(TakeBreak::new(digits))))
}

fn rule(c: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    c.expect('{', "after `rule`")?;
    let from = c.i;
    let Some(len) = c.chars[from..].iter().position(|&ch| ch == '}') else {
        return Err(c.err_at(from, "unclosed rule{ (expected '}')"));
    };
    let text: String = c.chars[from..from + len].iter().collect();
    let p = MovePredicate::parse(&text).map_err(|e| c.err_at(from + e.pos - 1, &e.message))?;
    c.i = from + len + 1;
    Ok(Term::Game(Game::Rule(Box::new(p))))
}

/// A take-and-break code in CGSuite's notation (see [`code`]): a plain octal or
/// hexadecimal code becomes [`Game::TakeBreak`], any other an extended code.
fn code(c: &mut Cursor<'_>, _: &str, _: usize, _: Nested) -> Result<Term, SpecError> {
    let (code, end) = parse_code(&c.chars, c.i).map_err(|(at, msg)| c.err_at(at, &msg))?;
    c.i = end;
    if let Some(ch) = c.peek().filter(|ch| ch.is_alphanumeric()) {
        return Err(c.err(&format!("unexpected '{ch}' in code")));
    }
    Ok(Term::Game(if code.is_plain() {
        Game::TakeBreak(TakeBreak::new(
            code.digits.iter().map(|d| d.counts as u8).collect(),
        ))
    } else {
        Game::Ruleset(Ruleset::Code(code))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cert::{CertRule, Sequence};

    #[test]
    fn the_readme_spec_table_is_the_registry() {
        let readme = include_str!("../../../../README.md");
        assert!(
            readme.contains(&spec_table()),
            "README.md's table of game specs is not the registry's: paste `heaplab games --markdown`"
        );
    }

    #[test]
    fn every_family_example_parses_and_certificates_follow_the_family() {
        for f in FAMILIES {
            if f.beyond.is_some() {
                let g = crate::BeyondGame::parse(f.spec).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(f.structure, g.structure(), "{}", f.spec);
                assert_eq!(g.to_string(), f.spec);
                assert!(Game::parse(f.spec).is_err(), "{}", f.spec);
                continue;
            }
            let g = Game::parse(f.spec).unwrap_or_else(|e| panic!("{}: {e}", f.spec));
            // the registry says what structure the engines see, and it is the one they see
            assert_eq!(f.structure, g.structure_kind(), "{}", f.spec);
        }
        let rule = |s: &str, q| CertRule::of(&Game::parse(s).unwrap(), q);
        assert_eq!(
            rule("leave1(sub{1,3})", Sequence::Outcome),
            CertRule::FiniteSubtraction { largest_move: 3 }
        );
        assert_eq!(
            rule("0.77", Sequence::Grundy),
            CertRule::Octal { last_digit: 2 }
        );
        assert_eq!(
            rule("upto{6}", Sequence::Grundy),
            CertRule::FiniteSubtraction { largest_move: 6 }
        );
        for (s, q) in [
            ("0.77", Sequence::Outcome),
            ("0.3F", Sequence::Grundy),
            ("squares", Sequence::Grundy),
            ("nim", Sequence::Grundy),
            ("grundy-game", Sequence::Grundy),
            ("sqrt", Sequence::Outcome),
        ] {
            assert_eq!(rule(s, q), CertRule::None, "{s}");
        }
        let fin = CertRule::FiniteSubtraction { largest_move: 4 };
        assert_eq!(fin.bound(0, 7, 0), Some(11));
        assert_eq!(fin.bound(0, 7, 1), None);
        assert_eq!(
            CertRule::Octal { last_digit: 2 }.bound(71, 12, 0),
            Some(168)
        );
        assert_eq!(CertRule::None.bound(0, 1, 0), None);
    }
}
