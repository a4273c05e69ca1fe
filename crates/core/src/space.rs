//! Families of games in one spec: a template with a parameter (`sub{1,2,k}`) and the values
//! it takes (`k=3..40`), enumerated in order so that item i is the same game everywhere.

use crate::game::Game;
use crate::num::{parse_count, CountError};
use crate::spec::cursor::SpecError;
use crate::spec::template::substitute_param;
use thiserror::Error;

/// Most values one parameter may take.
pub const MAX_VALUES: u64 = 100_000;

/// Why a parameter range or template cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SpaceError {
    /// Not `NAME=A..B` or `NAME=a,b,c`.
    #[error("the parameter must look like k=3..40 or k=3,5,8, not `{0}`")]
    Malformed(String),
    /// A name with other characters than letters, digits and `_`.
    #[error("parameter name `{0}` must be letters, digits or _")]
    BadName(String),
    /// A value that is no count.
    #[error(transparent)]
    Value(#[from] CountError),
    /// `k=` with nothing after it.
    #[error("the parameter `{0}` has no values: write k=3..40 or k=3,5,8")]
    NoValues(String),
    /// A..B with A > B.
    #[error("empty parameter range {0}..{1}")]
    Empty(u64, u64),
    /// More than [`MAX_VALUES`] values.
    #[error("parameter range {0}..{1} has more than {MAX_VALUES} values")]
    TooMany(u64, u64),
    /// The template does not contain the parameter.
    #[error("the game spec `{template}` does not mention the parameter `{name}`")]
    Unused {
        /// The template.
        template: String,
        /// The parameter.
        name: String,
    },
    /// A value makes a spec that does not parse.
    #[error(transparent)]
    Spec(#[from] SpecError),
}

/// A one-parameter family of games: `template` with every identifier `name` replaced by
/// each of `values` in turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Space {
    /// The spec with the parameter, e.g. `sub{1,2,k}`.
    pub template: String,
    /// The parameter's name, e.g. `k`.
    pub name: String,
    /// Its values, in order.
    pub values: Vec<u64>,
}

impl Space {
    /// Reads `param` as `NAME=A..B` (inclusive) or `NAME=a,b,c` for `template`, which must
    /// mention NAME.
    ///
    /// # Errors
    /// [`SpaceError`] naming the problem.
    pub fn parse(template: &str, param: &str) -> Result<Space, SpaceError> {
        let (name, values) = Space::parse_values(param)?;
        if substitute_param(template, &name, 0) == template {
            return Err(SpaceError::Unused {
                template: template.to_string(),
                name,
            });
        }
        Ok(Space {
            template: template.to_string(),
            name,
            values,
        })
    }

    /// Reads `param` as `NAME=A..B` (inclusive) or `NAME=a,b,c`: the name and the values in
    /// order.
    ///
    /// # Errors
    /// [`SpaceError`] naming the problem (never [`SpaceError::Unused`] or
    /// [`SpaceError::Spec`]).
    pub fn parse_values(param: &str) -> Result<(String, Vec<u64>), SpaceError> {
        let Some((name, range)) = param.split_once('=') else {
            return Err(SpaceError::Malformed(param.to_string()));
        };
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(SpaceError::BadName(name.to_string()));
        }
        if range.trim().is_empty() {
            return Err(SpaceError::NoValues(name.to_string()));
        }
        let values: Vec<u64> = if let Some((a, b)) = range.split_once("..") {
            let a = parse_count(a.trim())?;
            let b = parse_count(b.trim().trim_start_matches('='))?;
            if a > b {
                return Err(SpaceError::Empty(a, b));
            }
            if b - a > MAX_VALUES {
                return Err(SpaceError::TooMany(a, b));
            }
            (a..=b).collect()
        } else {
            range
                .split(',')
                .map(|x| parse_count(x.trim()))
                .collect::<Result<_, _>>()?
        };
        Ok((name.to_string(), values))
    }

    /// Every (value, game) of the family, in order.
    ///
    /// # Errors
    /// [`SpaceError::Spec`] for the first value whose spec does not parse.
    pub fn games(&self) -> Result<Vec<(u64, Game)>, SpaceError> {
        self.values
            .iter()
            .map(|&v| {
                Ok((
                    v,
                    Game::parse(&substitute_param(&self.template, &self.name, v))?,
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_enumerate_their_games() {
        let s = Space::parse("sub{1,2,k}", "k=3..5").unwrap();
        let specs: Vec<String> = s.games().unwrap().iter().map(|g| g.1.to_string()).collect();
        assert_eq!(specs, ["sub{1,2,3}", "sub{1,2,4}", "sub{1,2,5}"]);
        assert_eq!(Space::parse("upto{k}", "k=1e1,2").unwrap().values, [10, 2]);
        for (t, p, says) in [
            ("sub{1,k}", "k3..4", "must look like"),
            ("sub{1,k}", "k-1=3", "letters, digits"),
            ("sub{1,k}", "k=5..3", "empty"),
            ("sub{1,k}", "k=1..1e9", "more than 100000"),
            ("squares", "k=1..3", "does not mention"),
            ("sub{1,k}", "k=x", "not a number"),
            ("sub{1,k}", "k=", "has no values"),
        ] {
            let e = Space::parse(t, p).unwrap_err().to_string();
            assert!(e.contains(says), "{t} {p}: {e}");
        }
        let e = Space::parse("sub{k}", "k=0,1")
            .unwrap()
            .games()
            .unwrap_err();
        assert!(e.to_string().contains("0 is not a move"), "{e}");
    }
}
