//! Reading an extended code in CGSuite's notation (`4!.0`, `{2+}!.0`, `0.[3]`, `0.&96;`).

use crate::games::code::{Code, CodeDigit, CodeError, Constraint, BASE32};

/// Reads a code from `chars` at `start` (a digit, `{`, `&` or `*`), to the first character
/// that cannot continue it. Returns the code and the index after it.
///
/// # Errors
/// The 0-based character index of the problem and a message.
pub(crate) fn parse_code(chars: &[char], start: usize) -> Result<(Code, usize), (usize, String)> {
    let mut i = start;
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut point = None;
    let mut period_start = None;
    let mut closed = false;
    let mut digit_at = vec![];
    while let Some(&c) = chars.get(i) {
        if closed {
            if c.is_ascii_alphanumeric() || "{}&*[].!?=".contains(c) {
                return Err((
                    i,
                    "nothing may follow the repeating part ']' of a code".into(),
                ));
            }
            break;
        }
        let at = i;
        let d = match c {
            '.' => {
                if point.is_some() {
                    return Err((i, "a second '.' in a code".into()));
                }
                point = Some(i);
                i += 1;
                continue;
            }
            '[' => {
                if point.is_none() {
                    return Err((i, "'[' may only come after the '.' of a code".into()));
                }
                if period_start.is_some() {
                    return Err((i, "a second '[' in a code".into()));
                }
                period_start = Some(after.len());
                i += 1;
                continue;
            }
            ']' => {
                match period_start {
                    None => return Err((i, "']' without '['".into())),
                    Some(p) if p == after.len() => {
                        return Err((i, "expected a digit between '[' and ']'".into()))
                    }
                    Some(_) => {}
                }
                closed = true;
                i += 1;
                continue;
            }
            '*' => {
                i += 1;
                CodeDigit {
                    counts: 1,
                    more: true,
                    constraint: Constraint::Any,
                }
            }
            '&' => {
                let end = (i + 1..chars.len()).find(|&k| !chars[k].is_ascii_digit());
                let Some(end) = end.filter(|&e| chars.get(e) == Some(&';') && e > i + 1) else {
                    return Err((i, "expected `&n;` with a number n, as in &96;".into()));
                };
                let text: String = chars[i + 1..end].iter().collect();
                let counts: u64 = text
                    .parse()
                    .map_err(|_| (i + 1, "digit `&n;` too large for 64 bits".to_string()))?;
                i = end + 1;
                CodeDigit {
                    counts,
                    more: false,
                    constraint: Constraint::Any,
                }
            }
            '{' => {
                let (d, end) = braces(chars, i)?;
                i = end;
                d
            }
            c if c.is_ascii_alphanumeric() => {
                let v = BASE32
                    .iter()
                    .position(|&b| b as char == c.to_ascii_uppercase())
                    .ok_or_else(|| {
                        (
                            i,
                            format!("unexpected '{c}' in code (digits are 0-9 and A-V)"),
                        )
                    })?;
                i += 1;
                CodeDigit {
                    counts: v as u64,
                    more: false,
                    constraint: Constraint::Any,
                }
            }
            _ => break,
        };
        let constraint = match chars.get(i) {
            Some('!') => Some(Constraint::Unequal),
            Some('?') => Some(Constraint::NotAllEqual),
            Some('=') => Some(Constraint::AllEqual),
            _ => None,
        };
        let mut d = d;
        if let Some(cn) = constraint {
            d.constraint = cn;
            i += 1;
        }
        if point.is_none() {
            before.push(d);
        } else {
            after.push(d);
        }
        digit_at.push(at);
    }
    if let Some(p) = period_start {
        if !closed {
            return Err((i, "expected ']' to close the repeating part".into()));
        }
        let _ = p;
    }
    if point.is_some() && after.is_empty() {
        return Err(match chars.get(i) {
            Some(&c) if !c.is_whitespace() && !")|".contains(c) => (
                i,
                // (control characters are shown escaped by the error's display)
                format!("unexpected '{c}' after '.' (digits are 0-9 and A-V)"),
            ),
            _ => (i, "expected at least one digit after '.'".into()),
        });
    }
    let d0 = before.pop().unwrap_or(CodeDigit::ZERO);
    // the digits further left add tokens: the nearest adds one
    let adds: Vec<CodeDigit> = before.iter().rev().copied().collect();
    let period = period_start.map_or(0, |p| after.len() - p);
    let mut digits = vec![d0];
    digits.extend(after);
    // the digits that add tokens are checked first: a loopy code is refused as such
    let checked = Code::checked_adds(adds)
        .map_err(|e| CodeError {
            // the add digit's place, counted back from the point
            digit: usize::MAX - e.digit,
            message: e.message,
        })
        .and_then(|adds| Code::new(digits, period).map(|c| Code { adds, ..c }));
    match checked {
        Ok(code) => Ok((code, i)),
        Err(e) if e.digit > usize::MAX / 2 => {
            // the t-th digit left of the point was read at index T - t (T digits add)
            let t = usize::MAX - e.digit;
            let at = before
                .len()
                .checked_sub(t)
                .and_then(|k| digit_at.get(k).copied())
                .unwrap_or(start);
            Err((at, e.message))
        }
        Err(e) => {
            // the digit's place: index 0 before the point, then one per digit
            let k = if point.is_some() && chars[start] == '.' {
                e.digit.saturating_sub(1)
            } else {
                e.digit
            };
            Err((digit_at.get(k).copied().unwrap_or(start), e.message))
        }
    }
}

/// `{a,b,…}` or `{a,…,k+}` at `chars[start] == '{'`: the digit and the index after `}`.
fn braces(chars: &[char], start: usize) -> Result<(CodeDigit, usize), (usize, String)> {
    let mut i = start + 1;
    let mut counts = 0u64;
    let mut more = false;
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        let from = i;
        while chars.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        if i == from {
            return Err((i, "expected a number of heaps in { }".into()));
        }
        let text: String = chars[from..i].iter().collect();
        let j: u32 = text
            .parse()
            .ok()
            .filter(|&j| j <= 63)
            .ok_or_else(|| (from, "heap counts in { } go up to 63".to_string()))?;
        counts |= 1 << j;
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        match chars.get(i) {
            Some('+') => {
                more = true;
                i += 1;
                while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                    i += 1;
                }
                if chars.get(i) != Some(&'}') {
                    return Err((i, "`+` ends the list: expected '}'".into()));
                }
                if 1u64 << j != 1u64 << (63 - counts.leading_zeros()) {
                    return Err((from, "the count before `+` must be the largest".into()));
                }
                return Ok((
                    CodeDigit {
                        counts,
                        more,
                        constraint: Constraint::Any,
                    },
                    i + 1,
                ));
            }
            Some(',') => i += 1,
            Some('}') => {
                return Ok((
                    CodeDigit {
                        counts,
                        more,
                        constraint: Constraint::Any,
                    },
                    i + 1,
                ))
            }
            Some('!' | '?' | '=') => {
                return Err((
                    i,
                    "one constraint per digit, written after the braces, as in {2,3}!".into(),
                ))
            }
            Some(c) => return Err((i, format!("unexpected '{c}' in {{ }}"))),
            None => return Err((i, "expected '}' to close the heap counts".into())),
        }
    }
}
