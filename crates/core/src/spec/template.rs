//! Spec templates: a spec with parameters (`sub{1,2,k}`, `sub{3,b,b+3}`, `0.a7`,
//! `rule{k <= n // b}`) made into one spec per assignment of values.
//!
//! - In the lists of `sub{…}`, `allbut{…}`, `upto{…}` and `splittles{…}` each item is an
//!   expression of heaplab's language over the parameters (`b+3`, `2*a+1`, `c // 2`):
//!   once every parameter in it has a value, it is evaluated (a negative result is written
//!   as such, and the spec then refuses it).
//! - Inside `rule{…}` a parameter is replaced by its value and the rule does the arithmetic;
//!   `n` and `k` are the rule's own variables, never parameters.
//! - In a take-and-break code (`0.a7`, `a.07`) a one-letter parameter is a digit wherever
//!   it stands, replaced by its value as text (a census refuses values above 9).
//! - Elsewhere (a coin-turning code, a family's name) a parameter is a word of its own — a
//!   maximal run of letters, digits, `_` and `-`, so `k` inside `kayles` is left alone —
//!   replaced by its value as text.

use crate::expr::eval::Val;
use crate::expr::parse::{parse, Dialect};

/// The families whose `{…}` is a list of numbers, where items are expressions.
const LISTS: &[&str] = &["sub", "allbut", "upto", "splittles"];

/// Replaces every mention of `name` in `template` by `value` (see the module documentation):
/// `sub{1,2,k}` with k = 5 → `sub{1,2,5}`, `sub{3,b,b+3}` with b = 4 → `sub{3,4,7}`.
pub fn substitute_param(template: &str, name: &str, value: u64) -> String {
    instantiate(template, &[(name, value)])
}

/// `template` with the parameters in `values` written in: list items whose every
/// parameter has a value evaluated, other mentions replaced as text.
pub fn instantiate(template: &str, values: &[(&str, u64)]) -> String {
    let value = |w: &str| values.iter().find(|(n, _)| *n == w).map(|&(_, v)| v);
    let chars: Vec<char> = template.chars().collect();
    let code_like = is_code_like(template);
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_word(c) {
            let start = i;
            while i < chars.len() && is_word(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if chars.get(i) == Some(&'{') {
                let close = (i..chars.len()).find(|&j| chars[j] == '}');
                if let Some(close) = close {
                    let inside: String = chars[i + 1..close].iter().collect();
                    let lower = word.to_ascii_lowercase();
                    out.push_str(&word);
                    out.push('{');
                    if LISTS.contains(&lower.as_str()) {
                        out.push_str(&list_items(&inside, &value));
                    } else if lower == "rule" {
                        out.push_str(&replace_names(&inside, &value, true));
                    } else {
                        out.push_str(&replace_words(&inside, &value));
                    }
                    out.push('}');
                    i = close + 1;
                    continue;
                }
            }
            match value(&word) {
                Some(v) => out.push_str(&v.to_string()),
                // a digit of a code: `a` in `0.a7` (the word is `a7`)
                None if code_like => {
                    for d in word.chars() {
                        match value(d.encode_utf8(&mut [0; 4])) {
                            Some(v) => out.push_str(&v.to_string()),
                            None => out.push(d),
                        }
                    }
                }
                None => out.push_str(&word),
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Whether `template` is a take-and-break code (`0.a7`, `4.0?`): a point, and no braces,
/// parentheses or unions. In a code a one-letter parameter is a digit wherever it stands.
pub(crate) fn is_code_like(template: &str) -> bool {
    template.contains('.') && !template.contains(['{', '(', '|'])
}

/// The byte offset of the first mention of `name` in `template` (as [`instantiate`] sees
/// mentions), `None` when there is none.
pub(crate) fn first_mention(template: &str, name: &str) -> Option<usize> {
    // a value no mention can keep: every mention changes the text where it stands
    let marked = instantiate(template, &[(name, u64::MAX)]);
    if marked == template {
        return None;
    }
    template
        .bytes()
        .zip(marked.bytes())
        .position(|(a, b)| a != b)
        .or(Some(template.len().min(marked.len())))
}

/// A character of a word outside lists (`grundy-game`, `a7`).
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Every word of `text` that has a value replaced by it.
fn replace_words(text: &str, value: &dyn Fn(&str) -> Option<u64>) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if is_word(c) {
            word.push(c);
            continue;
        }
        match value(&word) {
            Some(v) => out.push_str(&v.to_string()),
            None => out.push_str(&word),
        }
        word.clear();
        if c != '\0' {
            out.push(c);
        }
    }
    out
}

/// Every name of an expression (`[A-Za-z_][A-Za-z0-9_]*`) that has a value replaced by it;
/// with `rule`, not `n` or `k`.
fn replace_names(text: &str, value: &dyn Fn(&str) -> Option<u64>, rule: bool) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let own = rule && (word.eq_ignore_ascii_case("n") || word.eq_ignore_ascii_case("k"));
            match value(&word).filter(|_| !own && !c.is_ascii_digit()) {
                Some(v) => out.push_str(&v.to_string()),
                None => out.push_str(&word),
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The items of a list, each an expression over the parameters: evaluated once every name
/// in it has a value, else with the values it has written in.
fn list_items(inside: &str, value: &dyn Fn(&str) -> Option<u64>) -> String {
    inside
        .split(',')
        .map(|item| {
            let has_name = item.chars().any(|c| c.is_ascii_alphabetic() || c == '_');
            if !has_name {
                return item.to_string();
            }
            let written = replace_names(item, value, false);
            if written.chars().any(|c| c.is_ascii_alphabetic() || c == '_') {
                // a name without a value yet
                return written;
            }
            match parse(&written, Dialect::TEMPLATE).map(|e| e.eval(0, 0)) {
                Ok(Val::Int(v)) => {
                    let lead: String = item.chars().take_while(|c| c.is_whitespace()).collect();
                    format!("{lead}{v}")
                }
                _ => written,
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_take_arithmetic_in_lists_and_words_elsewhere() {
        assert_eq!(substitute_param("sub{1,2,k}", "k", 7), "sub{1,2,7}");
        assert_eq!(substitute_param("kayles", "k", 7), "kayles");
        assert_eq!(substitute_param("upto{k}", "k", 3), "upto{3}");
        assert_eq!(substitute_param("sub{3,b,b+3}", "b", 4), "sub{3,4,7}");
        assert_eq!(substitute_param("sub{a,2*a+1}", "a", 5), "sub{5,11}");
        assert_eq!(substitute_param("sub{b - 4}", "b", 2), "sub{-2}");
        assert_eq!(substitute_param("0.a7", "a", 3), "0.37");
        assert_eq!(substitute_param("0.a", "a", 3), "0.3");
        assert_eq!(
            substitute_param("rule{k <= n // b}", "b", 3),
            "rule{k <= n // 3}"
        );
        assert_eq!(
            substitute_param("rule{k <= n // n}", "n", 3),
            "rule{k <= n // n}"
        );
        assert_eq!(
            substitute_param("leave1(sub{c,c*c})", "c", 3),
            "leave1(sub{3,9})"
        );
        // several parameters, one at a time: an item waits for all of its names
        let one = substitute_param("sub{a,a+b}", "a", 1);
        assert_eq!(one, "sub{1,1+b}");
        assert_eq!(substitute_param(&one, "b", 2), "sub{1,3}");
        assert_eq!(
            instantiate("sub{a,b,a+b}|squares", &[("a", 2), ("b", 5)]),
            "sub{2,5,7}|squares"
        );
        assert_eq!(first_mention("sub{1,2,k}", "k"), Some(8));
        assert_eq!(first_mention("sub{3,b,b+3}", "b"), Some(6));
        assert_eq!(first_mention("squares", "k"), None);
        // a parameter is a digit of a code wherever it stands
        assert_eq!(substitute_param("0.a7", "a", 3), "0.37");
        assert_eq!(substitute_param("4.0a", "a", 5), "4.05");
        assert_eq!(substitute_param("0.ab", "b", 6), "0.a6");
        assert_eq!(first_mention("0.7a", "a"), Some(3));
        assert_eq!(substitute_param("kayles", "a", 1), "kayles");
    }
}
