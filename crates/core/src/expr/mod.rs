//! heaplab's one expression language: its tokens ([`lex`], the one tokenizer of rules,
//! census constraints, spec templates and claims), the tree ([`ast`]), its reader
//! ([`parse`], one for `rule{…}` predicates, census constraints and spec templates), its
//! canonical text (`Display`), its evaluation with SQL's nulls
//! ([`eval`]) and the analyses the engines and the census need: how an expression over n
//! grows ([`growth`]) and linear forms over parameters ([`linear`]).
//!
//! Claims are run by polars SQL, whose language is this one plus SQL's own (`CASE`, `IN`,
//! strings, …); their checks and analyses read them with this language's tokens
//! (`analysis`'s `claim_text`: names, calls and their arity, operators, residues of n).

pub(crate) mod ast;
pub(crate) mod eval;
pub(crate) mod growth;
pub mod lex;
pub(crate) mod linear;
pub(crate) mod parse;

/// Why a text could not be read: the 1-based character position in it and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based position in the text.
    pub pos: usize,
    /// What is wrong there.
    pub message: String,
}
