//! A cursor over a game spec's characters: the small readers every family's parser hook
//! uses (a word, `{n, n, …}`, a positive integer, an expected character), and
//! [`SpecError`], which names the 1-based position of a problem.

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
pub(crate) fn word_shown(word: &str) -> String {
    if word.chars().count() <= 40 {
        return word.to_string();
    }
    let head: String = word.chars().take(40).collect();
    format!("{head}…")
}

/// A position in a spec being read. `depth` counts the wrappers (`leave1( )`, `misere( )`,
/// `seed( )`, …) open at the cursor: nesting deeper than [`Cursor::MAX_DEPTH`] is refused.
pub struct Cursor<'a> {
    pub(crate) spec: &'a str,
    pub(crate) chars: Vec<char>,
    /// The cursor: an index into `chars`.
    pub(crate) i: usize,
    pub(crate) depth: usize,
}

impl<'a> Cursor<'a> {
    /// Most wrappers open at once.
    pub const MAX_DEPTH: usize = 64;

    /// A cursor at the start of `spec`.
    pub fn new(spec: &'a str) -> Cursor<'a> {
        Cursor {
            spec,
            chars: spec.chars().collect(),
            i: 0,
            depth: 0,
        }
    }

    pub(crate) fn err(&self, msg: &str) -> SpecError {
        self.err_at(self.i, msg)
    }
    pub(crate) fn err_at(&self, i: usize, msg: &str) -> SpecError {
        SpecError {
            spec: self.spec.to_string(),
            pos: i + 1,
            message: msg.to_string(),
        }
    }
    pub(crate) fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    pub(crate) fn at_end(&self) -> bool {
        self.i >= self.chars.len()
    }
    pub(crate) fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }
    pub(crate) fn expect(&mut self, c: char, what: &str) -> Result<(), SpecError> {
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

    /// The characters from `from` to the cursor.
    pub(crate) fn text_from(&self, from: usize) -> String {
        self.chars[from..self.i].iter().collect()
    }

    /// `{n, n, …}` of positive integers, non-empty (`what` names it in messages).
    pub(crate) fn list(&mut self, what: &str) -> Result<Vec<u64>, SpecError> {
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
    pub(crate) fn number(&mut self) -> Result<u64, SpecError> {
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

    /// A non-negative integer (a coordinate of a move vector: 0 allowed).
    pub(crate) fn count(&mut self) -> Result<u64, SpecError> {
        self.ws();
        if self.peek() == Some('0')
            && !self
                .chars
                .get(self.i + 1)
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            self.i += 1;
            return Ok(0);
        }
        self.number()
    }
}
