//! Game specs: one string names one game (`squares`, `sub{1,2,3}`, `0.77`, `leave1(primes)`,
//! …). [`Game::parse`] reads a spec; `Display` writes its canonical form, which parses back
//! to the same game.
//!
//! Grammar (whitespace allowed between tokens):
//!
//! ```text
//! spec    := term ('|' term)*            -- '|' joins one-heap games: a move of any of them
//! term    := 'sub{' list '}' | 'allbut{' list '}' | NAMED | 'nim'
//!          | 'leave1(' spec ')' | 'divisors' | 'divisors-nontrivial' | 'nondivisors'
//!          | 'rule{' predicate over n and k '}'   -- see games::predicate
//!          | 'splittles{' list '}'           -- written back as its octal code
//!          | 'sqrt' | 'half' | 'upto{' k '}'
//!          | CODE | 'kayles' | 'dawson' | 'grundy-game'
//!          | 'turning{' coin-turning code '}' | 'ruler' | 'mock-turtles' | …  -- games::turning
//!          | 'misere(' spec ')'              -- the same moves, misère play (outermost only)
//! NAMED   := squares | cubes | triangular | fibonacci | primes | powers2 | factorials | practical
//! CODE    := digit '.' digit+ [ '[' digit+ ']' ]  -- CGSuite's take-and-break codes: digit is
//!            0-9 | A-V | '&' n ';' | '{' counts '}' | '*', each maybe followed by ! ? =
//!            (see games::code; plain octal/hexadecimal codes are TakeBreak)
//! ```

use crate::sets::{MoveSet, NamedSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// A game spec that could not be read: the spec, the 1-based character position of the
/// problem, and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid game spec `{}`: {} at position {pos}", short(.spec, *.pos), visible(.message))]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// 1-based character position.
    pub pos: usize,
    /// What is wrong.
    pub message: String,
}

/// A long spec shown around the problem: at most 60 characters, with `…` where cut.
fn short(spec: &str, pos: usize) -> String {
    let chars: Vec<char> = spec.chars().collect();
    if chars.len() <= 60 {
        return visible(spec);
    }
    let from = pos.saturating_sub(30).min(chars.len() - 60);
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    out.extend(&chars[from..from + 60]);
    if from + 60 < chars.len() {
        out.push('…');
    }
    visible(&out)
}

/// `s` with control characters written as escapes (`\u{1b}`), so a message stays one
/// readable line that cannot move a terminal's cursor or change its colours.
fn visible(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A word from a spec as a message quotes it: at most 40 characters, with `…` where cut.
fn word_shown(word: &str) -> String {
    if word.chars().count() <= 40 {
        return word.to_string();
    }
    let head: String = word.chars().take(40).collect();
    format!("{head}…")
}

/// The move bound of an interval game: from n you may remove 1..=f(n) tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Bound {
    /// f(n) = floor(sqrt(n)).
    Sqrt,
    /// f(n) = k: the Bash game.
    Upto(u64),
    /// f(n) = floor(n / 2).
    Half,
}

impl Bound {
    /// f(n), exact.
    pub fn f(self, n: u64) -> u64 {
        match self {
            Bound::Sqrt => crate::num::isqrt(n),
            Bound::Upto(k) => k,
            Bound::Half => n / 2,
        }
    }
}

/// A take-and-break code in CGSuite's notation `d0.d1d2…dt`: digit `d_i` says what may be
/// left after removing `i` tokens from a heap — bit 1: nothing; bit 2: one non-empty heap;
/// bit 4: two non-empty heaps; bit 8 (hexadecimal codes): three non-empty heaps. `d0` (the
/// digit before the point) may only use bits 4 and 8: split without removing.
/// Winning Ways, ch. 4.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TakeBreak {
    /// `digits[i]` is `d_i`; `digits[0]` is the digit before the point. No trailing zero
    /// beyond index 0.
    pub digits: Vec<u8>,
}

impl TakeBreak {
    /// Builds a code from its digits (trailing zeros dropped).
    pub fn new(mut digits: Vec<u8>) -> TakeBreak {
        while digits.len() > 1 && *digits.last().unwrap() == 0 {
            digits.pop();
        }
        if digits.is_empty() {
            digits.push(0);
        }
        TakeBreak { digits }
    }

    /// `t`: the position of the last non-zero digit after the point (0 if none).
    pub fn last_digit(&self) -> usize {
        self.digits.len() - 1
    }

    /// The digit for removing `i` tokens (0 beyond the code).
    pub fn digit(&self, i: usize) -> u8 {
        self.digits.get(i).copied().unwrap_or(0)
    }

    /// The largest number of heaps a move may leave (0 to 3).
    pub fn max_heaps_left(&self) -> u32 {
        let all = self.digits.iter().fold(0u8, |a, &d| a | d);
        if all & 8 != 0 {
            3
        } else if all & 4 != 0 {
            2
        } else if all & 2 != 0 {
            1
        } else {
            0
        }
    }
}

impl fmt::Display for TakeBreak {
    /// `d0.d1d2…` in hexadecimal digits (of four bits: higher bits, which no move uses,
    /// are not shown), `0.0` for a code without digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = |d: u8| {
            char::from_digit(u32::from(d & 15), 16)
                .unwrap_or('0')
                .to_ascii_uppercase()
        };
        write!(f, "{}.", hex(self.digits.first().copied().unwrap_or(0)))?;
        if self.digits.len() <= 1 {
            return write!(f, "0");
        }
        for &d in &self.digits[1..] {
            write!(f, "{}", hex(d))?;
        }
        Ok(())
    }
}

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
    Rule(Box<crate::games::predicate::MovePredicate>),
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
    /// [`crate::games::Ruleset`]).
    Ruleset(crate::games::Ruleset),
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
    /// Parses a spec (see the module documentation for the grammar).
    ///
    /// # Errors
    /// [`SpecError`] with the position of the first problem.
    pub fn parse(spec: &str) -> Result<Game, SpecError> {
        let mut p = Parser {
            spec,
            chars: spec.chars().collect(),
            i: 0,
            depth: 0,
        };
        p.ws();
        if p.at_end() {
            return Err(p.err("empty spec; try `squares`, `sub{1,2,3}` or `0.77`"));
        }
        let g = p.expr()?;
        p.ws();
        if let Some(c) = p.peek() {
            return Err(p.err(&format!("unexpected '{c}'")));
        }
        Ok(g.into_game())
    }

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
        !matches!(
            self.under_normal_play(),
            Game::Ruleset(crate::games::Ruleset::Seed(_))
        )
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

impl std::str::FromStr for Game {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Game, SpecError> {
        Game::parse(s)
    }
}

/// Why `|` cannot join `g` (the `|` at 1-based position `bar`, when it is not next to it).
fn unjoinable(g: &Game, bar: Option<usize>) -> String {
    let at = bar.map_or(String::new(), |b| format!(" at position {b}"));
    match g.play() {
        Play::Misere => format!(
            "`{g}` is in misère play, so the '|'{at} cannot join it: put misere( ) around the \
             whole union"
        ),
        Play::Normal => format!("`{g}` is not a one-heap game, so the '|'{at} cannot join it"),
    }
}

/// Largest move of `splittles{S}` (its code has a digit per token up to it).
const SPLITTLES_MAX: u64 = 1000;

/// Can `|` join this game (a one-heap game in normal play)?
fn joinable(g: &Game) -> bool {
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

/// Replaces every identifier token equal to `name` in `template` by `value` (for parameter
/// sweeps: `sub{1,2,k}` with k = 5 → `sub{1,2,5}`). Identifiers are maximal runs of ASCII
/// letters, digits, `_` and `-`, so `k` inside `kayles` is left alone.
pub fn substitute_param(template: &str, name: &str, value: u64) -> String {
    let mut out = String::new();
    let mut token = String::new();
    // inside rule{…}, `n` and `k` are the rule's own variables, never the parameter
    let mut in_rule = false;
    let flush = |token: &mut String, out: &mut String, in_rule: bool| {
        let own = in_rule && (token.eq_ignore_ascii_case("n") || token.eq_ignore_ascii_case("k"));
        if token == name && !own {
            out.push_str(&value.to_string());
        } else {
            out.push_str(token);
        }
        token.clear();
    };
    for c in template.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            token.push(c);
        } else {
            let opens_rule = c == '{' && token.eq_ignore_ascii_case("rule");
            flush(&mut token, &mut out, in_rule);
            out.push(c);
            if opens_rule {
                in_rule = true;
            } else if c == '}' {
                in_rule = false;
            }
        }
    }
    flush(&mut token, &mut out, in_rule);
    out
}

/// A parsed term before normalisation: sets stay sets until the whole union is known.
enum Term {
    Set(MoveSet),
    Game(Game),
}

impl Term {
    fn into_game(self) -> Game {
        match self {
            Term::Set(set) => Game::Subtraction { set, leave1: false },
            Term::Game(g) => g,
        }
    }
}

struct Parser<'a> {
    spec: &'a str,
    chars: Vec<char>,
    i: usize,
    /// leave1( ) levels open at the cursor.
    depth: usize,
}

const FAMILIES: &str = "sub{..}, allbut{..}, squares, cubes, triangular, fibonacci, primes, \
powers2, factorials, practical, nim, leave1(..), divisors, divisors-nontrivial, sqrt, half, \
upto{k}, nondivisors, rule{..}, splittles{..}, kayles, dawson, grundy-game, turning{..}, \
turning-turtles, mock-turtles, moebius, mogul, ruler, twins, triplets, turnips, grunt, misere(..), \
or a code such as 0.77 or 4!.0";

impl Parser<'_> {
    fn err(&self, msg: &str) -> SpecError {
        self.err_at(self.i, msg)
    }
    fn err_at(&self, i: usize, msg: &str) -> SpecError {
        SpecError {
            spec: self.spec.to_string(),
            pos: i + 1,
            message: msg.to_string(),
        }
    }
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn at_end(&self) -> bool {
        self.i >= self.chars.len()
    }
    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }
    fn expect(&mut self, c: char, what: &str) -> Result<(), SpecError> {
        self.ws();
        match self.peek() {
            Some(x) if x == c => {
                self.i += 1;
                Ok(())
            }
            Some(x) => Err(self.err(&format!("expected '{c}' {what}, found '{x}'"))),
            None => Err(self.err(&format!("expected '{c}' {what}, found the end"))),
        }
    }

    fn expr(&mut self) -> Result<Term, SpecError> {
        let start = self.i;
        let mut acc = self.term()?;
        loop {
            self.ws();
            if self.peek() != Some('|') {
                return Ok(acc);
            }
            let bar = self.i;
            self.i += 1;
            self.ws();
            if self.at_end() {
                return Err(self.err("expected a game after '|'"));
            }
            let rhs_at = self.i;
            let rhs = self.term()?;
            acc = match (acc, rhs) {
                (Term::Set(a), Term::Set(b)) => Term::Set(a.union(b)),
                (Term::Game(g), _) if !joinable(&g) => {
                    return Err(self.err_at(start, &unjoinable(&g, Some(bar + 1))))
                }
                (_, Term::Game(g)) if !joinable(&g) => {
                    return Err(self.err_at(rhs_at, &unjoinable(&g, None)))
                }
                (a, b) => Term::Game(union_of(vec![a.into_game(), b.into_game()])),
            };
        }
    }

    fn term(&mut self) -> Result<Term, SpecError> {
        self.ws();
        let start = self.i;
        match self.peek() {
            None => Err(self.err("expected a game, found the end")),
            Some(c) if c.is_ascii_digit() || ".{&*".contains(c) => self.code().map(Term::Game),
            // a base-32 digit before the point (`C.0`: split into two or three heaps), maybe
            // with a constraint (`G!.0`)
            Some(c)
                if c.is_ascii_alphanumeric()
                    && (self.chars.get(self.i + 1) == Some(&'.')
                        || (self
                            .chars
                            .get(self.i + 1)
                            .is_some_and(|c| "!?=".contains(*c))
                            && self.chars.get(self.i + 2) == Some(&'.'))) =>
            {
                self.code().map(Term::Game)
            }
            Some(c) if c.is_ascii_alphabetic() => {
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
                {
                    self.i += 1;
                }
                // a name with a letter beyond ASCII is named whole in the error
                let mut end = self.i;
                while self.chars.get(end).is_some_and(|c| c.is_alphanumeric()) {
                    end += 1;
                    while self
                        .chars
                        .get(end)
                        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '-')
                    {
                        end += 1;
                    }
                }
                if end > self.i {
                    let word: String = self.chars[start..end].iter().collect();
                    return Err(self.err_at(
                        start,
                        &format!(
                            "unknown game family `{}` (names are ASCII: {FAMILIES})",
                            word_shown(&word)
                        ),
                    ));
                }
                let word: String = self.chars[start..self.i].iter().collect::<String>();
                let word = word.to_ascii_lowercase();
                self.named_term(&word, start)
            }
            Some(c) => Err(self.err(&format!("unexpected '{c}'"))),
        }
    }

    /// `( spec )` after the word `name` (`leave1`, `misere`): the game inside and where it
    /// starts.
    fn wrapped(&mut self, name: &str) -> Result<(Game, usize), SpecError> {
        self.expect('(', &format!("after `{name}`"))?;
        self.ws();
        if self.peek() == Some(')') {
            return Err(self.err(&format!("expected a game inside {name}( )")));
        }
        let inner_at = self.i;
        // Nesting deeper than this is refused, not followed down the stack.
        if self.depth >= 64 {
            return Err(self.err(&format!("{name}( ) nested more than 64 deep")));
        }
        self.depth += 1;
        let inner = self.expr();
        self.depth -= 1;
        let inner = inner?;
        self.expect(')', &format!("to close {name}("))?;
        Ok((inner.into_game(), inner_at))
    }

    fn named_term(&mut self, word: &str, start: usize) -> Result<Term, SpecError> {
        if let Some(s) = NamedSet::from_name(word) {
            return Ok(Term::Set(MoveSet::named(s)));
        }
        Ok(match word {
            "sub" => {
                let v = self.list("subtraction set")?;
                Term::Set(MoveSet::finite(v))
            }
            "allbut" => {
                let v = self.list("all-but set")?;
                Term::Set(MoveSet::all_but(v))
            }
            "nim" => Term::Set(MoveSet::all_but(vec![])),
            "upto" => {
                self.expect('{', "after `upto`")?;
                // upto{0} allows no move at all: a game still
                self.ws();
                let k = if self.peek() == Some('0')
                    && !self
                        .chars
                        .get(self.i + 1)
                        .is_some_and(|c| c.is_ascii_digit())
                {
                    self.i += 1;
                    0
                } else {
                    self.number()?
                };
                self.expect('}', "after the bound of `upto`")?;
                Term::Game(Game::Interval {
                    bound: Bound::Upto(k),
                    leave1: false,
                })
            }
            "leave1" => {
                let (inner, inner_at) = self.wrapped("leave1")?;
                Term::Game(match inner {
                    Game::Subtraction { set, .. } => Game::Subtraction { set, leave1: true },
                    Game::Interval { bound, .. } => Game::Interval {
                        bound,
                        leave1: true,
                    },
                    // Divisor moves never take the whole heap already.
                    g @ Game::Divisors { .. } => g,
                    g => {
                        return Err(self.err_at(
                            inner_at,
                            &format!(
                                "leave1( ) applies to subtraction games, and `{g}` is not one"
                            ),
                        ))
                    }
                })
            }
            "divisors" => Term::Game(Game::Divisors { nontrivial: false }),
            "divisors-nontrivial" => Term::Game(Game::Divisors { nontrivial: true }),
            "nondivisors" => Term::Game(Game::NonDivisors),
            "sink" => {
                let (inner, inner_at) = self.wrapped("sink")?;
                match inner {
                    Game::Subtraction { set, leave1: false } => {
                        Term::Game(Game::Ruleset(crate::games::Ruleset::Sink(set)))
                    }
                    g => {
                        return Err(self.err_at(
                            inner_at,
                            &format!("sink( ) applies to subtraction sets, and `{g}` is not one"),
                        ))
                    }
                }
            }
            "seed" => {
                self.expect('(', "after `seed`")?;
                self.ws();
                let inner_at = self.i;
                if self.depth >= 64 {
                    return Err(self.err("seed( ) nested more than 64 deep"));
                }
                self.depth += 1;
                let inner = self.expr();
                self.depth -= 1;
                let inner = inner?.into_game();
                if !joinable(&inner) {
                    return Err(self.err_at(
                        inner_at,
                        &format!(
                            "seed( ) takes a game whose every move leaves one heap (subtraction, \
                             divisor, interval, rule{{}} games and their unions), in normal play, \
                             not `{inner}`"
                        ),
                    ));
                }
                self.expect(';', "between the game and the outcomes in seed( ; )")?;
                self.ws();
                let mut start = vec![];
                while let Some(c) = self.peek() {
                    match c.to_ascii_uppercase() {
                        'P' => start.push(false),
                        'N' => start.push(true),
                        _ => break,
                    }
                    self.i += 1;
                }
                self.ws();
                if start.is_empty() || self.peek() != Some(')') {
                    return Err(self.err(
                        "expected the outcomes of heaps 0, 1, 2, … as P or N letters, then ')'",
                    ));
                }
                self.i += 1;
                Term::Game(Game::Ruleset(crate::games::Ruleset::Seed(
                    crate::games::terminal::Seed {
                        game: Box::new(inner),
                        start,
                    },
                )))
            }
            "turning" => {
                self.expect('{', "after `turning`")?;
                let (t, close) = crate::games::turning::Turning::parse(&self.chars, self.i)
                    .map_err(|(at, msg)| self.err_at(at, &msg))?;
                self.i = close + 1;
                Term::Game(Game::Ruleset(crate::games::Ruleset::Turning(t)))
            }
            w if crate::games::turning::NAMED
                .iter()
                .any(|(name, _)| *name == w) =>
            {
                let code = crate::games::turning::NAMED
                    .iter()
                    .find(|(name, _)| *name == w)
                    .map_or("1", |(_, c)| c);
                let chars: Vec<char> = format!("{code}}}").chars().collect();
                let (t, _) = crate::games::turning::Turning::parse(&chars, 0)
                    .map_err(|(_, msg)| self.err_at(start, &msg))?;
                Term::Game(Game::Ruleset(crate::games::Ruleset::Turning(t)))
            }
            // remove s in S, and leave the rest as it is, split in two, or nothing: the code
            // with the digit 7 at every s (Winning Ways, ch. 4: splittles{1,2} is Kayles)
            "splittles" => {
                let at = self.i;
                let v = self.list("set of splittles")?;
                match v.iter().max() {
                    Some(&m) if m > SPLITTLES_MAX => {
                        return Err(self.err_at(
                            at,
                            &format!("splittles takes moves up to {SPLITTLES_MAX}, not {m}"),
                        ))
                    }
                    _ => {}
                }
                let mut digits = vec![0u8; v.iter().max().map_or(1, |&m| m as usize + 1)];
                for &x in &v {
                    digits[x as usize] = 7;
                }
                Term::Game(Game::TakeBreak(TakeBreak::new(digits)))
            }
            "rule" => {
                self.expect('{', "after `rule`")?;
                let from = self.i;
                let Some(len) = self.chars[from..].iter().position(|&c| c == '}') else {
                    return Err(self.err_at(from, "unclosed rule{ (expected '}')"));
                };
                let text: String = self.chars[from..from + len].iter().collect();
                let p = crate::games::predicate::MovePredicate::parse(&text)
                    .map_err(|e| self.err_at(from + e.pos - 1, &e.message))?;
                self.i = from + len + 1;
                Term::Game(Game::Rule(Box::new(p)))
            }
            "sqrt" => Term::Game(Game::Interval {
                bound: Bound::Sqrt,
                leave1: false,
            }),
            "half" => Term::Game(Game::Interval {
                bound: Bound::Half,
                leave1: false,
            }),
            "kayles" => Term::Game(Game::TakeBreak(TakeBreak::new(vec![0, 7, 7]))),
            "dawson" => Term::Game(Game::TakeBreak(TakeBreak::new(vec![0, 0, 7]))),
            "grundy-game" => Term::Game(Game::GrundyGame),
            "misere" => {
                let (inner, inner_at) = self.wrapped("misere")?;
                match inner {
                    Game::Misere(_) => {
                        return Err(
                            self.err_at(inner_at, "misere( ) of a misère game: write it once")
                        )
                    }
                    g => match g.misere_unsupported() {
                        Some(why) => return Err(self.err_at(inner_at, &why)),
                        None => Term::Game(Game::Misere(Box::new(g))),
                    },
                }
            }
            _ => {
                return Err(self.err_at(
                    start,
                    &format!(
                        "unknown game family `{}` (known: {FAMILIES})",
                        word_shown(word)
                    ),
                ))
            }
        })
    }

    /// `{n, n, …}` of positive integers, non-empty.
    fn list(&mut self, what: &str) -> Result<Vec<u64>, SpecError> {
        self.expect('{', &format!("to open the {what}"))?;
        self.ws();
        if self.peek() == Some('}') {
            return Err(self.err(&format!("empty {what}: list at least one move")));
        }
        let mut v = Vec::new();
        loop {
            v.push(self.number()?);
            self.ws();
            match self.peek() {
                Some(',') => self.i += 1,
                Some('}') => {
                    self.i += 1;
                    return Ok(v);
                }
                Some(c) => return Err(self.err(&format!("expected ',' or '}}', found '{c}'"))),
                None => return Err(self.err(&format!("unclosed {what}: expected '}}'"))),
            }
        }
    }

    /// A positive integer (underscores allowed between digits).
    fn number(&mut self) -> Result<u64, SpecError> {
        self.ws();
        let start = self.i;
        match self.peek() {
            Some('-') => return Err(self.err("moves must be positive integers, found '-'")),
            Some(c) if c.is_ascii_digit() => {}
            Some(c) => return Err(self.err(&format!("expected a positive integer, found '{c}'"))),
            None => return Err(self.err("expected a positive integer, found the end")),
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit() || c == '_') {
            self.i += 1;
        }
        // letters right after the digits (`0x10`, `3k`): the whole token is no number
        if self.peek().is_some_and(|c| c.is_alphanumeric()) {
            let mut end = self.i;
            while self
                .chars
                .get(end)
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
            {
                end += 1;
            }
            let token: String = self.chars[start..end].iter().collect();
            return Err(self.err_at(
                start,
                &format!("`{token}` is not a positive integer (moves are decimal)"),
            ));
        }
        let text: String = self.chars[start..self.i]
            .iter()
            .filter(|&&c| c != '_')
            .collect();
        let v: u64 = text
            .parse()
            .map_err(|_| self.err_at(start, "number too large for 64 bits"))?;
        if v == 0 {
            return Err(self.err_at(start, "moves must be positive (0 is not a move)"));
        }
        Ok(v)
    }

    /// A take-and-break code in CGSuite's notation (see [`crate::games::code`]): a plain
    /// octal or hexadecimal code becomes [`Game::TakeBreak`], any other an extended code.
    fn code(&mut self) -> Result<Game, SpecError> {
        let (code, end) = crate::games::code::parse_code(&self.chars, self.i)
            .map_err(|(at, msg)| self.err_at(at, &msg))?;
        self.i = end;
        if let Some(c) = self.peek() {
            if c.is_alphanumeric() {
                return Err(self.err(&format!("unexpected '{c}' in code")));
            }
        }
        Ok(if code.is_plain() {
            Game::TakeBreak(TakeBreak::new(
                code.digits.iter().map(|d| d.counts as u8).collect(),
            ))
        } else {
            Game::Ruleset(crate::games::Ruleset::Code(code))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        Game::parse(s).unwrap_or_else(|e| panic!("{e}")).to_string()
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(canon("sub{3,1,2,2}"), "sub{1,2,3}");
        assert_eq!(canon(" sub{ 1 , 2 } "), "sub{1,2}");
        assert_eq!(canon("squares"), "squares");
        assert_eq!(canon("divisors"), "divisors");
        assert_eq!(canon("sqrt"), "sqrt");
        assert_eq!(canon(".77"), "0.77");
        assert_eq!(canon("0.770"), "0.77");
        assert_eq!(canon("kayles"), "0.77");
        assert_eq!(canon("dawson"), "0.07");
        assert_eq!(canon("0.3f"), "0.3F");
        assert_eq!(canon("4.07"), "4.07");
        assert_eq!(canon("4"), "4.0");
        assert_eq!(canon("sub{1}|primes"), "primes|sub{1}");
        assert_eq!(canon("cubes|squares|sub{4,8,5}"), "squares|cubes|sub{5}");
        assert_eq!(canon("leave1(primes|sub{1})"), "leave1(primes|sub{1})");
        assert_eq!(canon("leave1(divisors)"), "divisors");
        assert_eq!(canon("upto{3}"), "upto{3}");
        assert_eq!(canon("allbut{7,2,3}"), "allbut{2,3,7}");
        assert_eq!(canon("allbut{2}|sub{2}"), "nim");
        assert_eq!(canon("grundy-game"), "grundy-game");
        assert_eq!(canon("upto{0}"), "upto{0}");
        // built by hand, shown and normalised without a panic
        let g = Game::TakeBreak(TakeBreak { digits: vec![] });
        assert_eq!(g.to_string(), "0.0");
        let g = Game::TakeBreak(TakeBreak {
            digits: vec![0, 23, 0],
        });
        assert_eq!(g.normalized().to_string(), "0.7");
        let g = Game::Subtraction {
            set: MoveSet::Union {
                named: vec![],
                finite: vec![5, 0, 2, 2],
            },
            leave1: false,
        };
        assert_eq!(g.normalized().to_string(), "sub{2,5}");
    }

    #[test]
    fn canonical_forms_round_trip() {
        for s in [
            "sub{1,2,3}",
            "squares",
            "divisors",
            "divisors-nontrivial",
            "sqrt",
            "half",
            "upto{5}",
            "0.77",
            "0.137",
            "4.07",
            "C.0",
            "0.3F",
            "4.0",
            "0.0",
            "allbut{2,3,7}",
            "nim",
            "primes|sub{1}",
            "leave1(sqrt)",
            "leave1(squares|cubes)",
            "grundy-game",
            "practical",
            "fibonacci|powers2|factorials",
        ] {
            let g = Game::parse(s).unwrap();
            assert_eq!(g.to_string(), s);
            assert_eq!(Game::parse(&g.to_string()).unwrap(), g);
        }
    }

    #[test]
    fn bad_specs_name_the_position() {
        let cases = [
            ("sub{}", 5, "empty"),
            ("sub{0}", 5, "0 is not a move"),
            ("sub{1,-2}", 7, "positive"),
            ("squares(", 8, "unexpected '('"),
            ("foo", 1, "unknown game family `foo`"),
            ("squäres", 1, "unknown game family `squäres`"),
            ("sub{0x10}", 5, "`0x10` is not a positive integer"),
            ("sub{1,3k}", 7, "`3k` is not a positive integer"),
            ("allbut{}", 8, "empty"),
            ("0.", 3, "at least one digit"),
            ("0.7x", 4, "unexpected 'x'"),
            ("0..7", 3, "a second '.'"),
            ("leave1()", 8, "inside leave1"),
            ("primes|", 8, "after '|'"),
            ("sub{1,2", 8, "unclosed"),
            ("0.77|sub{1}", 1, "is not a one-heap game"),
            (
                "sub{1}|misere(half)",
                8,
                "put misere( ) around the whole union",
            ),
            ("leave1(0.77)", 8, "applies to subtraction games"),
            ("", 1, "empty spec"),
            ("1.7", 1, "may only split into two or more heaps"),
            ("23.7", 1, "loopy code"),
            ("sub{1,2,k}", 9, "expected a positive integer"),
        ];
        for (s, pos, msg) in cases {
            let e = Game::parse(s).expect_err(s);
            assert_eq!(e.pos, pos, "{s}: {e}");
            assert!(e.to_string().contains(msg), "{s}: {e}");
            assert!(!e.to_string().contains('\n'));
        }
        // control characters are shown as escapes, long names cut
        let e = Game::parse("foo\u{1b}[31m\u{7}").unwrap_err().to_string();
        assert!(
            !e.chars().any(char::is_control) && e.contains("\\u{1b}"),
            "{e}"
        );
        let e = Game::parse(&"x".repeat(100_000)).unwrap_err().to_string();
        assert!(e.len() < 600, "{} bytes", e.len());
        // a long spec is shown cut around the problem
        let long = format!("sub{{{}x}}", vec!["1"; 5000].join(","));
        let e = Game::parse(&long).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
        assert!(e.to_string().contains("1,1x}"), "{e}");
    }

    #[test]
    fn slugs_and_params() {
        assert_eq!(Game::parse("sub{1,2,3}").unwrap().slug(), "sub-1-2-3");
        assert_eq!(Game::parse("0.77").unwrap().slug(), "0.77");
        assert_eq!(Game::parse("primes|sub{1}").unwrap().slug(), "primes-sub-1");
        let many = |top: u32| {
            let moves: Vec<String> = (1..=top).map(|i| i.to_string()).collect();
            Game::parse(&format!("sub{{{}}}", moves.join(",")))
                .unwrap()
                .slug()
        };
        let (a, b) = (many(119), many(118));
        assert!(a.len() <= SLUG_MAX && b.len() <= SLUG_MAX, "{a}");
        assert!(a.starts_with("sub-1-2-3-4-5") && a != b);
        assert_eq!(substitute_param("sub{1,2,k}", "k", 7), "sub{1,2,7}");
        assert_eq!(substitute_param("kayles", "k", 7), "kayles");
        assert_eq!(substitute_param("upto{k}", "k", 3), "upto{3}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Any string: an error or a game, never a panic; a game's canonical form parses
        /// back to it.
        #[test]
        fn arbitrary_specs_parse_or_fail_cleanly(
            s in "[a-z0-9{}(),.|_ \\-]{0,30}|\\PC{0,20}|(sub|allbut|leave1|upto)[{(][0-9, }{)(]{0,12}"
        ) {
            if let Ok(g) = Game::parse(&s) {
                proptest::prop_assert_eq!(Game::parse(&g.to_string()).unwrap(), g);
            } else {
                let e = Game::parse(&s).unwrap_err().to_string();
                proptest::prop_assert!(!e.contains('\n'));
            }
        }
    }
}
