//! `heaplab census` and `heaplab merge`: a whole space of games, class by class
//! ([`heaplab_core::CensusSpace`], [`heaplab_analysis::census`]), optionally one shard of
//! it, resumable from a journal, and the merge of shards.

use crate::cli::{CensusArgs, MergeArgs};
use crate::cmd_census_games::parse_shard;
use crate::output::{print_json, secs, write_frame};
use anyhow::{bail, Context, Result};
use heaplab_analysis::{
    census, census_frame, census_from_frame, census_id, columns_frame, journal_header,
    journal_line, member_columns, merge_census, read_journal, resume_rows, CensusBudget,
    CensusPart, CensusRow,
};
use heaplab_core::{census::shard, CensusSpace, Class, Silent};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// The journal of a run writing `out`: `out` with `.journal` appended.
fn journal_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".journal");
    PathBuf::from(s)
}

/// Rows already in the journal at `p` ([`read_journal`]; none when there is no journal).
fn read_journal_file(p: &Path, header: &str) -> Result<Vec<CensusRow>> {
    let cannot = || format!("cannot read the journal `{}`", p.display());
    match std::fs::metadata(p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(e).with_context(cannot),
        Ok(m) if !m.is_file() => bail!("the journal `{}` is not a file", p.display()),
        Ok(_) => {}
    }
    let bytes = std::fs::read(p).with_context(cannot)?;
    read_journal(&bytes, header)
        .map_err(|why| anyhow::anyhow!("`{}` {why}: remove it to start afresh", p.display()))
}

/// The census a run computes: its space, budget and identity, and this run's classes.
struct Run {
    space: CensusSpace,
    budget: CensusBudget,
    id: String,
    /// Classes of the whole census.
    total: u64,
    /// Items of the whole census.
    items: usize,
    /// This run's classes (one shard, or all).
    mine: Vec<Class>,
    shard: String,
}

/// Reads the space, the budget and the shard, refusing a bad one before any work.
fn prepare(a: &CensusArgs) -> Result<Run> {
    let space = CensusSpace::parse(&a.game, &a.param, &a.constraints)?;
    let budget = CensusBudget {
        start: a.start,
        max: a.max,
        seconds: a.seconds,
    };
    budget
        .check()
        .map_err(|e| anyhow::anyhow!("--start, --max, --seconds: {e}"))?;
    let shard_of = a.shard.as_deref().map(parse_shard).transpose()?;
    if shard_of.is_some() && a.output.is_none() {
        bail!("--shard needs -o FILE (the shard's Parquet file)");
    }
    for p in a.output.iter().chain(&a.members) {
        crate::output::frame_format(p)?;
        crate::files::AtomicFile::check(p)?;
    }
    if let (Some(o), Some(m)) = (&a.output, &a.members) {
        if crate::files::same_file_key(o) == crate::files::same_file_key(m) {
            bail!("--members and -o name the same file `{}`", m.display());
        }
    }
    let classes = space.classes()?;
    let total = classes.len() as u64;
    let items = classes.iter().map(|c| c.members.len()).sum();
    let id = census_id(&space.describe(), &budget);
    let (mine, shard) = match shard_of {
        Some((i, n)) => (shard(classes, i, n)?, format!("{i}/{n}")),
        None => (classes, "1/1".to_string()),
    };
    Ok(Run {
        space,
        budget,
        id,
        total,
        items,
        mine,
        shard,
    })
}

/// The rows of this run: those its journal (`FILE.journal` beside `-o FILE`, locked for
/// the run) holds and [`resume_rows`] keeps, and the rest computed, each written to the
/// journal as it is found. Returns the rows (in class order) and how many were resumed.
fn rows(r: &Run, journal: Option<&Path>) -> Result<(Vec<CensusRow>, usize)> {
    let header = journal_header(&r.id, r.total, &r.shard);
    let done: Vec<CensusRow> = match journal {
        Some(j) => read_journal_file(j, &header)?,
        None => vec![],
    };
    let (done, todo) = resume_rows(done, &r.mine);
    let resumed = done.len();
    let writer = match journal {
        Some(j) => {
            // the header and the rows kept, written whole before the old journal goes (a
            // kill now loses nothing), then the journal open to append
            let cannot = || format!("cannot write `{}`", j.display());
            let fresh = crate::files::AtomicFile::create(j)?;
            {
                let mut f = std::io::BufWriter::new(fresh.file()?);
                writeln!(f, "{header}").with_context(cannot)?;
                for row in &done {
                    writeln!(f, "{}", journal_line(row, &r.id, r.total)).with_context(cannot)?;
                }
                f.flush().with_context(cannot)?;
            }
            fresh.commit()?;
            let f = std::fs::OpenOptions::new()
                .append(true)
                .open(j)
                .with_context(cannot)?;
            Some(Mutex::new(f))
        }
        None => None,
    };
    let spinner = crate::progress::Spinner::new(format!(
        "census of {} classes ({} to compute)",
        r.mine.len(),
        todo.len()
    ));
    let on_row = |row: &CensusRow| {
        if let Some(w) = &writer {
            if let Ok(mut f) = w.lock() {
                // a journal line lost to a full disk is recomputed on resume
                let _ =
                    writeln!(f, "{}", journal_line(row, &r.id, r.total)).and_then(|_| f.flush());
            }
        }
    };
    let fresh = census(
        &todo,
        &r.budget,
        &crate::machine::budget(),
        &Silent,
        &on_row,
    )?;
    drop(spinner);
    let mut rows = done;
    rows.extend(fresh);
    rows.sort_by_key(|row| row.class);
    heaplab_analysis::link_same_values(&mut rows);
    Ok((rows, resumed))
}

/// Runs `heaplab census`.
pub fn run(a: CensusArgs) -> Result<ExitCode> {
    if a.per_game {
        return crate::cmd_census_games::run(&a);
    }
    // (clap's `requires` counts --per-game's default as given)
    for (given, name) in [
        (a.play.is_some(), "--play"),
        (a.grundy, "--grundy"),
        (a.limit.is_some(), "--limit"),
        (a.plots.is_some(), "--plots"),
    ] {
        if given {
            bail!("{name} goes with --per-game (a class census computes Grundy values of normal play)");
        }
    }
    let t0 = Instant::now();
    let r = prepare(&a)?;
    if a.list {
        return list(&r.mine, r.items, a.json);
    }
    let journal = a.output.as_deref().map(journal_path);
    // one run at a time writes a journal
    let _lock = journal
        .as_deref()
        .map(|j| crate::sink::CheckpointLock::take_named(j, "journal"))
        .transpose()?;
    let (rows, resumed) = rows(&r, journal.as_deref())?;
    let part = CensusPart {
        id: r.id.clone(),
        classes: r.total,
        timed: true,
        rows,
    };
    let mut files = vec![];
    if let Some(p) = &a.output {
        let mut df = census_frame(&part, !a.no_seconds)?;
        let written = write_frame(&mut df, p).context("writing the census")?;
        files.push(written.display().to_string());
        if let Some(j) = &journal {
            let _ = std::fs::remove_file(j);
        }
    }
    if let Some(p) = &a.members {
        let cols = member_columns(&r.space, &r.mine, &part)?;
        let mut df = columns_frame(cols, r.mine.iter().map(|c| c.members.len()).sum())?;
        let written = write_frame(&mut df, p).context("writing the per-game table")?;
        files.push(written.display().to_string());
    }
    for row in part.rows.iter().filter(|row| row.disagrees) {
        eprintln!(
            "DISAGREEMENT with a published result, class {} ({}): {}",
            row.class,
            row.game,
            row.known.as_deref().unwrap_or_default()
        );
    }
    if a.json {
        print_json(&json!({
            "census": part.id,
            "items": r.items,
            "classes": r.total,
            "shard": r.shard,
            "resumed": resumed,
            "rows": part.rows,
            "files": files,
            "seconds": secs(t0),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    print_rows(&r, &part, resumed, &files, secs(t0));
    Ok(ExitCode::SUCCESS)
}

/// The rows as a table on stdout, and the summary line.
fn print_rows(r: &Run, part: &CensusPart, resumed: usize, files: &[String], seconds: f64) {
    println!(
        "{:>6} {:<16} {:>7} {:<24} {:>9} {:>7} {:>6} {:>10} {:>8}  known",
        "class",
        "game",
        "members",
        "verdict",
        "preperiod",
        "period",
        "saltus",
        "max_grundy",
        "P-pos"
    );
    let opt = |x: Option<String>| x.unwrap_or_else(|| "-".into());
    for row in &part.rows {
        println!(
            "{:>6} {:<16} {:>7} {:<24} {:>9} {:>7} {:>6} {:>10} {:>8}  {}",
            row.class,
            row.game,
            row.members,
            row.verdict,
            opt(row.preperiod.map(|x| x.to_string())),
            opt(row.period.map(|x| x.to_string())),
            opt(row.saltus.map(|x| x.to_string())),
            opt(row.max_grundy.map(|x| x.to_string())),
            row.p_positions,
            match (row.same_values_as, row.known.as_deref()) {
                (Some(c), Some(k)) => format!("{k} [first values as class {c}]"),
                (Some(c), None) => format!("[first values as class {c}]"),
                (None, k) => k.unwrap_or("").to_string(),
            }
        );
    }
    let count = |s: &str| part.rows.iter().filter(|row| row.status == s).count();
    println!(
        "{} items in {} classes{}: {} certified, {} observed, {} none, {} failed{} ({:.1} s)",
        r.items,
        r.total,
        if r.shard == "1/1" {
            String::new()
        } else {
            format!(", shard {} has {}", r.shard, part.rows.len())
        },
        count("certified"),
        count("observed"),
        count("none"),
        count("failed"),
        if resumed > 0 {
            format!("; {resumed} resumed from the journal")
        } else {
            String::new()
        },
        seconds
    );
    if !files.is_empty() {
        println!("wrote {}", files.join(", "));
    }
}

/// `--list`: the classes and their members.
fn list(classes: &[Class], items: usize, as_json: bool) -> Result<ExitCode> {
    if as_json {
        print_json(&json!({
            "items": items,
            "classes": classes.iter().map(|c| json!({
                "class": c.index,
                "game": c.representative.to_string(),
                "members": c.members.len(),
                "member_list": c.member_list(),
            })).collect::<Vec<_>>(),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    for c in classes {
        println!(
            "{:>6} {:<16} {:>4}  {}",
            c.index,
            c.representative.to_string(),
            c.members.len(),
            c.member_list()
        );
    }
    println!("{items} items in {} classes", classes.len());
    Ok(ExitCode::SUCCESS)
}

/// A census file (Parquet or CSV) back as rows.
fn read_part(p: &Path) -> Result<CensusPart> {
    // CSV: every column read as text (a game like 0.77 is no number), converted by name
    let df = crate::cmd_census_games::read_census_frame(p, Some(0))?;
    census_from_frame(&df).map_err(|e| anyhow::anyhow!("`{}`: {e}", p.display()))
}

/// Runs `heaplab merge`: exit code 0 for a complete census, 1 when classes are missing
/// (the merged file is written all the same, and the missing classes are listed).
pub fn merge(a: MergeArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    crate::output::frame_format(&a.output)?;
    if let Some(first) = a.parts.first() {
        if crate::cmd_census_games::is_per_game(first)? {
            return crate::cmd_census_games::merge(&a, t0);
        }
    }
    let parts = a
        .parts
        .iter()
        .map(|p| read_part(p))
        .collect::<Result<Vec<_>>>()?;
    let (merged, missing) = merge_census(parts)?;
    // (parts written without `seconds` have none to merge)
    let mut df = census_frame(&merged, !a.no_seconds && merged.timed)?;
    let written = write_frame(&mut df, &a.output).context("writing the merged census")?;
    let shown: Vec<String> = missing.iter().take(20).map(u64::to_string).collect();
    if a.json {
        print_json(&json!({
            "census": merged.id,
            "classes": merged.classes,
            "rows": merged.rows.len(),
            "missing": missing,
            "files": [written.display().to_string()],
            "seconds": secs(t0),
        }));
    } else {
        println!(
            "merged {} parts: {} of {} classes; wrote {}",
            a.parts.len(),
            merged.rows.len(),
            merged.classes,
            written.display()
        );
    }
    if missing.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "incomplete: {} classes missing ({}{})",
        missing.len(),
        shown.join(", "),
        if missing.len() > shown.len() {
            ", …"
        } else {
            ""
        }
    );
    Ok(ExitCode::from(1))
}
