//! The tokens of heaplab's expression language, the one tokenizer every reader of it uses:
//! the parser of rules, census constraints and templates ([`crate::expr::parse`]) and the
//! checks and analyses of claims (`heaplab_analysis`'s `claim_text`), so a name, a number,
//! an operator or a string literal is the same thing in all of them.

/// What a [`Token`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A name or keyword: a letter or `_`, then letters, digits and `_` (`isqrt`, `AND`,
    /// `grundy_at`).
    Word,
    /// A run of ASCII digits and `_` (`1_000`); what follows it without a space (`e6` in
    /// `1e6`) is a token of its own.
    Number,
    /// A string literal in single quotes, quotes included (claims only: SQL's `'abc'`).
    Str,
    /// A string literal not closed before the end of the text.
    OpenStr,
    /// An operator or punctuation: one of `<> != <= >= == // || << >> ::`, else one
    /// character (`(`, `)`, `,`, `+`, `;`, …).
    Sym,
}

/// One token of a text, with its place in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Its text, as written.
    pub text: String,
    /// 0-based character index of its first character.
    pub start: usize,
    /// 0-based character index just past its last character.
    pub end: usize,
}

impl Token {
    /// Whether it is the symbol `s`.
    pub fn is_sym(&self, s: &str) -> bool {
        self.kind == TokenKind::Sym && self.text == s
    }

    /// Whether it is the word `w`, in any case.
    pub fn is_word(&self, w: &str) -> bool {
        self.kind == TokenKind::Word && self.text.eq_ignore_ascii_case(w)
    }

    /// Whether it is a binary or comparison operator symbol (a run of `+-*/%=<>!|&^`).
    pub fn is_operator(&self) -> bool {
        self.kind == TokenKind::Sym && self.text.chars().all(|c| "+-*/%=<>!|&^".contains(c))
    }
}

/// Symbols of two characters, read as one token.
const PAIRS: [&str; 10] = ["<>", "!=", "<=", ">=", "==", "//", "||", "<<", ">>", "::"];

/// The tokens of `text`, spaces dropped. Never fails: every character belongs to a token
/// (an unclosed string literal is an [`TokenKind::OpenStr`] to the end), so each reader
/// says in its own words what it does not accept.
pub fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        let kind = if c.is_whitespace() {
            i += 1;
            continue;
        } else if c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            if i < chars.len() {
                i += 1;
                TokenKind::Str
            } else {
                TokenKind::OpenStr
            }
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '_') {
                i += 1;
            }
            TokenKind::Number
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            TokenKind::Word
        } else {
            let pair: String = chars[i..chars.len().min(i + 2)].iter().collect();
            i += if PAIRS.contains(&pair.as_str()) { 2 } else { 1 };
            TokenKind::Sym
        };
        out.push(Token {
            kind,
            text: chars[start..i].iter().collect(),
            start,
            end: i,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Vec<(TokenKind, &'static str)> {
        tokens(text)
            .into_iter()
            .map(|t| (t.kind, &*t.text.leak()))
            .collect()
    }

    #[test]
    fn tokens_of_rules_claims_and_counts() {
        use TokenKind::*;
        assert_eq!(
            shape("k <= n // 2 OR k=1"),
            [
                (Word, "k"),
                (Sym, "<="),
                (Word, "n"),
                (Sym, "//"),
                (Number, "2"),
                (Word, "OR"),
                (Word, "k"),
                (Sym, "="),
                (Number, "1")
            ]
        );
        assert_eq!(
            shape("'a+b' <> 'x"),
            [(Str, "'a+b'"), (Sym, "<>"), (OpenStr, "'x")]
        );
        assert_eq!(
            shape("1e6 10^6 1_000"),
            [
                (Number, "1"),
                (Word, "e6"),
                (Number, "10"),
                (Sym, "^"),
                (Number, "6"),
                (Number, "1_000")
            ]
        );
        let t = tokens("  grundy_at(n-12)");
        assert_eq!((t[0].start, t[0].end), (2, 11));
        assert!(t[1].is_sym("(") && t[3].is_operator() && !t[1].is_operator());
        assert!(tokens("ãb ∑").iter().map(|t| t.kind).eq([Word, Sym]));
    }
}
