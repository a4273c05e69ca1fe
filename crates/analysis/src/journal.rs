//! Census journals: how a census run records its rows as they are computed, so that a
//! killed run resumes where it stopped — the same rule for every front end (the command
//! line writes `FILE.journal` beside its output; the Python package a journal it is
//! given). The front ends keep the file and its lock; the lines and the rule are here.
//!
//! A journal's first line is a JSON header naming the census ([`census_id`]), its number of
//! classes and the shard (`"1/1"` for all of it). Each later line is one row: its check
//! ([`CensusRow::check`]), a space, the row as JSON. Reading ([`read_journal`]) ignores a
//! last line cut short by a kill and skips rows whose check fails (an edited row is computed
//! again); resuming ([`resume_rows`]) keeps only the rows of this run's classes that fit
//! their class, validate and did not fail, one per class.

use crate::census::CensusRow;
use heaplab_core::Class;
use serde_json::json;
use std::collections::{HashMap, HashSet};

/// The journal's first line: which census and shard its rows belong to.
pub fn journal_header(id: &str, classes: u64, shard: &str) -> String {
    json!({"census": id, "classes": classes, "shard": shard}).to_string()
}

/// One row of a journal: its check, a space, the row as JSON.
pub fn journal_line(r: &CensusRow, id: &str, classes: u64) -> String {
    format!(
        "{} {}",
        r.check(id, classes),
        serde_json::to_string(r).unwrap_or_default()
    )
}

/// The rows a journal's `bytes` hold for the census of `header` (as [`journal_header`]
/// made it); none for an empty journal.
///
/// # Errors
/// A phrase when the journal is another census's or shard's, naming what differs: `is the
/// journal of another census or shard: shard 2/4, not 1/4`.
pub fn read_journal(bytes: &[u8], header: &str) -> Result<Vec<CensusRow>, String> {
    // lines as bytes: a line cut inside a character is a cut line, not an unreadable file
    let mut lines = bytes
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8(l.to_vec()).unwrap_or_default());
    let first = lines.next().unwrap_or_default();
    let want: serde_json::Value = serde_json::from_str(header).unwrap_or(json!(null));
    let found: serde_json::Value = serde_json::from_str(&first).unwrap_or(json!(null));
    if found.is_null() && first.trim().is_empty() {
        return Ok(vec![]);
    }
    if found != want {
        // what differs, in the user's terms
        let field = |v: &serde_json::Value, k: &str| v.get(k).cloned().unwrap_or(json!(null));
        let text = |v: serde_json::Value| match v {
            serde_json::Value::String(s) => s,
            serde_json::Value::Null => "none".into(),
            v => v.to_string(),
        };
        let mut why = vec![];
        if field(&found, "census") != field(&want, "census") {
            why.push(format!(
                "census {} (another game pattern, parameter range, N or play), not {}",
                text(field(&found, "census")),
                text(field(&want, "census"))
            ));
        } else {
            if field(&found, "classes") != field(&want, "classes") {
                why.push(format!(
                    "{} classes, not {}",
                    text(field(&found, "classes")),
                    text(field(&want, "classes"))
                ));
            }
            if field(&found, "shard") != field(&want, "shard") {
                why.push(format!(
                    "shard {}, not {}",
                    text(field(&found, "shard")),
                    text(field(&want, "shard"))
                ));
            }
        }
        if why.is_empty() {
            why.push("an unreadable header".into());
        }
        return Err(format!(
            "is the journal of another census or shard: {}",
            why.join("; ")
        ));
    }
    let id = want["census"].as_str().unwrap_or_default();
    let classes = want["classes"].as_u64().unwrap_or_default();
    let mut rows = vec![];
    for line in lines {
        // `CHECK JSON`: a row whose check fails (cut, or edited) is computed again
        let Some((check, text)) = line.split_once(' ') else {
            break;
        };
        match serde_json::from_str::<CensusRow>(text) {
            Ok(r) if r.check(id, classes) == check => rows.push(r),
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    Ok(rows)
}

/// The rows of `done` worth keeping for a run over `mine` — of one of its classes, fitting
/// it (representative, members, first item), valid, not failed (a failure may be passing),
/// one per class, in class order — and the classes still to compute.
pub fn resume_rows(mut done: Vec<CensusRow>, mine: &[Class]) -> (Vec<CensusRow>, Vec<Class>) {
    let ours: HashMap<u64, &Class> = mine.iter().map(|c| (c.index, c)).collect();
    done.retain(|r| {
        ours.get(&r.class).is_some_and(|c| {
            c.representative.to_string() == r.game
                && c.member_list() == r.member_list
                && c.members.first().map(|m| m.item) == Some(r.item)
        }) && r.status != "failed"
            && r.validate().is_ok()
    });
    done.sort_by_key(|r| r.class);
    done.dedup_by_key(|r| r.class);
    let have: HashSet<u64> = done.iter().map(|r| r.class).collect();
    let todo = mine
        .iter()
        .filter(|c| !have.contains(&c.index))
        .cloned()
        .collect();
    (done, todo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::census::{census, census_id, CensusBudget};
    use heaplab_core::{Budget, CensusSpace, Silent};

    #[test]
    fn journals_resume_what_fits_and_refuse_other_censuses() {
        let space = CensusSpace::parse(&["sub{1,a}".to_string()], &[], "2 <= a <= 9").unwrap();
        let classes = space.classes().unwrap();
        let budget = CensusBudget::default();
        let id = census_id(&space.describe(), &budget);
        let total = classes.len() as u64;
        let header = journal_header(&id, total, "1/1");
        let rows = census(
            &classes[..3],
            &budget,
            &Budget::new(1 << 30),
            &Silent,
            &|_| {},
        )
        .unwrap();
        let mut text = header.clone();
        for r in &rows {
            text.push('\n');
            text.push_str(&journal_line(r, &id, total));
        }
        // a last line cut short by a kill
        text.push('\n');
        text.push_str(&journal_line(&rows[0], &id, total)[..20]);
        let back = read_journal(text.as_bytes(), &header).unwrap();
        assert_eq!(back, rows);
        let (kept, todo) = resume_rows(back, &classes);
        assert_eq!(kept, rows);
        assert_eq!(todo.len(), classes.len() - 3);
        // a row whose check fails (edited) is computed again
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let flipped = if lines[2].starts_with('0') { "1" } else { "0" };
        lines[2].replace_range(0..1, flipped);
        let back = read_journal(lines.join("\n").as_bytes(), &header).unwrap();
        assert_eq!(back.len(), rows.len() - 1);
        assert!(back.iter().all(|r| r.class != rows[1].class));
        // another census's journal is refused
        let other = journal_header("another", total, "1/1");
        let e = read_journal(text.as_bytes(), &other).unwrap_err();
        assert!(
            e.starts_with("is the journal of another census or shard: census ")
                && e.contains("not another"),
            "{e}"
        );
        // another shard of the same census: the shards are named
        let shard = journal_header(&id, total, "2/4");
        let e = read_journal(text.as_bytes(), &shard).unwrap_err();
        assert!(e.ends_with(": shard 1/1, not 2/4"), "{e}");
        assert_eq!(read_journal(b"", &header).unwrap(), vec![]);
    }
}
