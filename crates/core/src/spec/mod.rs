//! Game specs: one string names one game (`squares`, `sub{1,2,3}`, `0.77`, `leave1(primes)`,
//! …). [`Game::parse`] reads a spec; `Display` writes its canonical form, which parses back
//! to the same game.
//!
//! Grammar (whitespace allowed between tokens):
//!
//! ```text
//! spec    := term ('|' term)*            -- '|' joins one-heap games: a move of any of them
//! term    := WORD [args]                 -- a family of the registry (games::FAMILIES), e.g.
//!            'sub{' list '}' | 'leave1(' spec ')' | 'rule{' predicate '}' | 'squares' | …
//!          | CODE                        -- CGSuite's take-and-break codes
//! CODE    := digit '.' digit+ [ '[' digit+ ']' ]  -- digit is 0-9 | A-V | '&' n ';' |
//!            '{' counts '}' | '*', each maybe followed by ! ? = (see games::code; plain
//!            octal/hexadecimal codes are TakeBreak)
//! ```
//!
//! The grammar knows no family: a word is looked up in the registry, whose hook reads the
//! rest of the term ([`crate::games::FAMILIES`]).

pub(crate) mod cursor;
pub(crate) mod template;

use crate::game::{joinable, union_of, unjoinable, Game};
use crate::games::{code_hook, family_named, known_words, Term};
use cursor::{word_shown, Cursor, SpecError};

impl Game {
    /// Parses a spec (see the module documentation for the grammar).
    ///
    /// # Errors
    /// [`SpecError`] with the position of the first problem.
    pub fn parse(spec: &str) -> Result<Game, SpecError> {
        let mut c = Cursor::new(spec);
        c.ws();
        if c.at_end() {
            return Err(c.err("empty spec; try `squares`, `sub{1,2,3}` or `0.77`"));
        }
        let g = expr(&mut c)?;
        c.ws();
        if let Some(ch) = c.peek() {
            return Err(c.err(&format!("unexpected '{ch}'")));
        }
        Ok(g.into_game())
    }
}

impl std::str::FromStr for Game {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Game, SpecError> {
        Game::parse(s)
    }
}

/// `term ('|' term)*`: sets joined into one set, one-heap games into a union.
fn expr(c: &mut Cursor<'_>) -> Result<Term, SpecError> {
    let start = c.i;
    let mut acc = term(c)?;
    loop {
        c.ws();
        if c.peek() != Some('|') {
            return Ok(acc);
        }
        let bar = c.i;
        c.i += 1;
        c.ws();
        if c.at_end() {
            return Err(c.err("expected a game after '|'"));
        }
        let rhs_at = c.i;
        let rhs = term(c)?;
        acc = match (acc, rhs) {
            (Term::Set(a), Term::Set(b)) => Term::Set(a.union(b)),
            (Term::Game(g), _) if !joinable(&g) => {
                return Err(c.err_at(start, &unjoinable(&g, Some(bar + 1))))
            }
            (_, Term::Game(g)) if !joinable(&g) => {
                return Err(c.err_at(rhs_at, &unjoinable(&g, None)))
            }
            (a, b) => Term::Game(union_of(vec![a.into_game(), b.into_game()])),
        };
    }
}

/// One term: a code (it starts with a digit, `.`, `{`, `&` or `*`, or with a base-32 digit
/// right before the point) or a family's word and what its hook reads.
fn term(c: &mut Cursor<'_>) -> Result<Term, SpecError> {
    c.ws();
    let start = c.i;
    let at = |k: usize| c.chars.get(c.i + k).copied();
    match c.peek() {
        None => Err(c.err("expected a game, found the end")),
        Some(ch) if ch.is_ascii_digit() || ".{&*".contains(ch) => code_hook()(c, "", start, expr),
        // base-32 digits before the point (`C.0`: split into two or three heaps; `O0.0`:
        // add a token, leave three or four heaps), maybe with constraints (`G!.0`)
        Some(ch)
            if ch.is_ascii_alphanumeric() && {
                let mut k = 0;
                while at(k).is_some_and(|x| {
                    x.is_ascii_digit()
                        || ('a'..='v').contains(&x.to_ascii_lowercase())
                        || "!?=".contains(x)
                }) {
                    k += 1;
                }
                at(k) == Some('.')
            } =>
        {
            code_hook()(c, "", start, expr)
        }
        Some(ch) if ch.is_ascii_alphabetic() => {
            while c
                .peek()
                .is_some_and(|x| x.is_ascii_alphanumeric() || x == '-')
            {
                c.i += 1;
            }
            // a name with a letter beyond ASCII is named whole in the error
            let mut end = c.i;
            while c.chars.get(end).is_some_and(|x| x.is_alphanumeric()) {
                end += 1;
                while c
                    .chars
                    .get(end)
                    .is_some_and(|x| x.is_ascii_alphanumeric() || *x == '-')
                {
                    end += 1;
                }
            }
            if end > c.i {
                let word: String = c.chars[start..end].iter().collect();
                return Err(c.err_at(
                    start,
                    &format!(
                        "unknown game family `{}` (names are ASCII: {})",
                        word_shown(&word),
                        known_words()
                    ),
                ));
            }
            let word = c.text_from(start).to_ascii_lowercase();
            match family_named(&word).and_then(|f| f.hook) {
                Some(hook) => hook(c, &word, start, expr),
                None if crate::beyond::beyond_family(&word).is_some() => Err(c.err_at(
                    start,
                    &format!(
                        "`{word}` is not a one-heap game (its positions are pairs, a heap with \
                         move memory, or loopy): the command line's who, losers, table, plot, \
                         check and guess take it as --game, and `heaplab who` in a sum \
                         (`wythoff:3,5 + squares:7`); not in unions or wrappers"
                    ),
                )),
                None => Err(c.err_at(
                    start,
                    &format!(
                        "unknown game family `{}` (known: {})",
                        word_shown(&word),
                        known_words()
                    ),
                )),
            }
        }
        Some(ch) => Err(c.err(&format!("unexpected '{ch}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SLUG_MAX;
    use crate::games::takebreak::TakeBreak;
    use crate::sets::MoveSet;
    use crate::spec::template::substitute_param;

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
        // specs that differ only in what a file name drops get different names
        let slug = |s: &str| Game::parse(s).unwrap().slug();
        let (a, b) = (
            slug("rule{k <= n // 2 OR k = 1}"),
            slug("rule{k < n - 2 OR k = 1}"),
        );
        assert!(a.starts_with("rule-k-n-2-OR-k-1-") && a != b, "{a} {b}");
        assert_ne!(slug("4!.0"), slug("4?.0"));
        assert!(slug("4!.0")
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'));
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
