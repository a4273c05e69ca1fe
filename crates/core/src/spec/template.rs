//! Spec templates: a spec with parameters (`sub{1,2,k}`) made into one spec per value.

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
