//! `heaplab census --per-game`: one row per game of a space of finite subtraction sets, at
//! bit speed ([`heaplab_core::census::games`]), streamed to the output in chunks, resumable,
//! shardable, and summarized ([`heaplab_analysis::GameTally`]).
//!
//! While it runs, each finished chunk is a Parquet file in `FILE.parts/` (with the census's
//! identity in `FILE.parts/census`); a killed run resumes with the chunks there. At the end
//! the chunks are copied into FILE in order and the folder goes.

use crate::cli::CensusArgs;
use crate::output::{print_json, secs, RowWriter};
use anyhow::{bail, Context, Result};
use heaplab_analysis::{game_census_id, game_frame, game_rows_from_frame, GameTally, ParamColumns};
use heaplab_core::census::games::{count_items, game_census, GameCensusOptions};
use heaplab_core::census::window::WINDOW_LIMIT;
use heaplab_core::{CensusError, CensusSpace, Play};
use polars::prelude::*;
use serde_json::json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// `i/n` with 1 <= i <= n.
pub(crate) fn parse_shard(s: &str) -> Result<(u64, u64)> {
    let bad =
        || anyhow::anyhow!("--shard must look like 2/4 (shard i of n, 1 <= i <= n), not `{s}`");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The folder of finished chunks beside `out`.
fn parts_dir(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".parts");
    PathBuf::from(s)
}

fn chunk_path(dir: &Path, c: u64) -> PathBuf {
    dir.join(format!("chunk-{c:09}.parquet"))
}

/// The chunks already in `dir` for this census (none when there is no folder).
fn done_chunks(dir: &Path, id: &str) -> Result<BTreeSet<u64>> {
    let mut done = BTreeSet::new();
    if !dir.exists() {
        return Ok(done);
    }
    if !dir.is_dir() {
        bail!(
            "`{}` is where this census keeps its chunks, but it is not a folder: move it away",
            dir.display()
        );
    }
    let stamp = dir.join("census");
    let have = std::fs::read_to_string(&stamp).unwrap_or_default();
    if have.trim_end() != id {
        bail!(
            "`{}` holds chunks of another census ({}): remove it to start afresh",
            dir.display(),
            if have.is_empty() {
                "no identity".to_string()
            } else {
                format!("`{}`", have.trim_end())
            }
        );
    }
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read `{}`", dir.display()))? {
        let name = e?.file_name();
        let name = name.to_string_lossy();
        if let Some(c) = chunk_index(&name) {
            done.insert(c);
        }
    }
    Ok(done)
}

fn read_chunk(p: &Path) -> Result<DataFrame> {
    let f = std::fs::File::open(p).with_context(|| format!("cannot read `{}`", p.display()))?;
    ParquetReader::new(f)
        .finish()
        .map_err(|e| anyhow::anyhow!("cannot read the chunk `{}`: {e}", p.display()))
}

/// Whether the chunk file `p` holds exactly chunk `c` of census `id` (`items` games in
/// chunks of `chunk`): the census's columns, its items in order, each row of this census;
/// why not, otherwise.
fn check_chunk(
    p: &Path,
    c: u64,
    id: &str,
    (items, chunk): (u64, u64),
    schema: &Schema,
) -> Result<(), String> {
    let df = read_chunk(p).map_err(|e| e.to_string())?;
    if df.schema().as_ref() != schema {
        return Err("its columns are not this census's".into());
    }
    let first = c * chunk;
    let want = (items - first).min(chunk);
    if df.height() as u64 != want {
        return Err(format!("{} rows, not {want}", df.height()));
    }
    let item = df
        .column("item")
        .and_then(|x| x.cast(&DataType::UInt64))
        .map_err(|e| e.to_string())?;
    let item = item.u64().map_err(|e| e.to_string())?;
    if !item
        .iter()
        .enumerate()
        .all(|(k, x)| x == Some(first + k as u64))
    {
        return Err(format!("its items are not {first}..{}", first + want));
    }
    let ids = df
        .column("census")
        .and_then(|x| x.str().cloned())
        .map_err(|e| e.to_string())?;
    if ids.iter().any(|x| x != Some(id)) {
        return Err("it holds rows of another census".into());
    }
    Ok(())
}

/// The chunk index of a file name `chunk-NNNNNNNNN.parquet` (nine digits).
fn chunk_index(name: &str) -> Option<u64> {
    name.strip_prefix("chunk-")
        .and_then(|s| s.strip_suffix(".parquet"))
        .filter(|s| s.len() == 9 && s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse::<u64>().ok())
}

/// Removes this run's chunks from `dir`, and the folder when no chunk of another run
/// (`other`: another shard of a census begun whole) is left in it.
fn remove_parts(dir: &Path, own: impl Iterator<Item = u64>, other: impl Fn(u64) -> bool) {
    for c in own {
        let _ = std::fs::remove_file(chunk_path(dir, c));
    }
    let others = std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| chunk_index(&e.file_name().to_string_lossy()).is_some_and(&other))
    });
    if !others {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Runs `heaplab census --per-game`.
pub fn run(a: &CensusArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let space = CensusSpace::parse(&a.game, &a.param, &a.constraints)?;
    let limit = a.limit.unwrap_or(1 << 24);
    if limit == 0 || limit > WINDOW_LIMIT {
        bail!("--limit must be between 1 and {WINDOW_LIMIT} positions, not {limit}");
    }
    let play: Play = a.play.map_or(Play::Normal, Into::into);
    if a.grundy && play == Play::Misere {
        bail!("--grundy gives Grundy values of normal play: leave out --play misere");
    }
    let opts = GameCensusOptions {
        play,
        grundy: a.grundy,
        limit,
        ..GameCensusOptions::default()
    };
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && a.output.is_none() {
        bail!("--shard needs -o FILE (the shard's Parquet or CSV file)");
    }
    let format = match &a.output {
        Some(p) => {
            let f = crate::output::frame_format(p)?;
            crate::files::AtomicFile::check(p)?;
            Some(f)
        }
        None => None,
    };
    if let Some(d) = &a.plots {
        if !d.is_dir() {
            bail!("--plots: `{}` is not a folder", d.display());
        }
        // (a folder the plots cannot be written to is refused now, not after the run)
        let probe = d.join(format!(".heaplab-probe-{}", std::process::id()));
        std::fs::File::create(&probe)
            .map_err(|e| anyhow::anyhow!("--plots: cannot write into `{}`: {e}", d.display()))?;
        let _ = std::fs::remove_file(&probe);
    }
    let spinner = crate::progress::Spinner::new("counting and checking the games".to_string());
    let count = count_items(&space)?;
    let items = count.items;
    drop(spinner);
    let id = game_census_id(&space, &opts);
    let cols = ParamColumns::of(&space);
    let chunks = items.div_ceil(opts.chunk);
    let mine = |c: u64| shard.is_none_or(|(i, n)| c % n == i - 1);
    let dir = a.output.as_deref().map(parts_dir);
    let _lock = dir
        .as_deref()
        .map(|d| crate::sink::CheckpointLock::take_named(d, "census chunks"))
        .transpose()?;
    let mut done = match &dir {
        Some(d) => done_chunks(d, &id)?,
        None => BTreeSet::new(),
    };
    // only this run's chunks are resumed, each checked whole: a damaged one is computed again
    done.retain(|&c| c < chunks && mine(c));
    if let Some(d) = &dir {
        let schema = game_frame(&[], &cols, &id, count, opts.grundy)?
            .schema()
            .as_ref()
            .clone();
        done.retain(|&c| {
            let p = chunk_path(d, c);
            match check_chunk(&p, c, &id, (items, opts.chunk), &schema) {
                Ok(()) => true,
                Err(why) => {
                    eprintln!(
                        "chunk {c} in `{}` is damaged ({why}): computed again",
                        d.display()
                    );
                    let _ = std::fs::remove_file(&p);
                    false
                }
            }
        });
    }
    if let Some(d) = &dir {
        if !d.exists() {
            std::fs::create_dir(d).with_context(|| format!("cannot create `{}`", d.display()))?;
            crate::files::AtomicFile::write_whole(&d.join("census"), id.as_bytes(), "census")?;
        }
    }
    let todo: u64 = (0..chunks)
        .filter(|&c| mine(c) && !done.contains(&c))
        .map(|c| (items - c * opts.chunk).min(opts.chunk))
        .sum();
    let bar =
        crate::progress::Progress::counting(&format!("census of {items} games"), todo, "games");
    let mut tally = GameTally::new(opts.play);
    let mut computed = 0u64;
    let mut fail: Option<anyhow::Error> = None;
    game_census(
        &space,
        &opts,
        &|c| mine(c) && !done.contains(&c),
        &mut |c, rows| {
            tally.add(&rows);
            computed += rows.len() as u64;
            bar.set(computed);
            if let Some(d) = &dir {
                let written = game_frame(&rows, &cols, &id, count, opts.grundy)
                    .map_err(anyhow::Error::from)
                    .and_then(|mut df| crate::output::write_frame(&mut df, &chunk_path(d, c)));
                if let Err(e) = written {
                    fail = Some(e);
                    return Err(CensusError::Syntax("stopped".into()));
                }
            }
            Ok(())
        },
    )
    .map_err(|e| fail.take().unwrap_or_else(|| e.into()))?;
    bar.finish();
    let mut files = vec![];
    if let (Some(out), Some(d), Some(format)) = (&a.output, &dir, format) {
        let file = crate::files::AtomicFile::create(out)?;
        let mut w: Option<RowWriter<std::fs::File>> = None;
        for c in (0..chunks).filter(|&c| mine(c)) {
            let df = read_chunk(&chunk_path(d, c))?;
            if done.contains(&c) {
                let rows = game_rows_from_frame(&df, &cols)
                    .map_err(|e| anyhow::anyhow!("chunk {c} in `{}`: {e}", d.display()))?;
                tally.add(&rows);
            }
            if w.is_none() {
                w = Some(RowWriter::new(file.file()?, format, df.schema(), true)?);
            }
            if let Some(w) = w.as_mut() {
                w.write(&df)
                    .with_context(|| format!("cannot write `{}`", out.display()))?;
            }
        }
        let plots = || -> Result<Vec<String>> {
            match &a.plots {
                Some(p) => {
                    let name = out
                        .file_stem()
                        .map_or("census".into(), |s| s.to_string_lossy().into_owned());
                    crate::plot::census_plots(&tally, p, &name, &space.describe())
                }
                None => Ok(vec![]),
            }
        };
        // the plots first: a plot that fails leaves no output, and the chunks to resume
        match w {
            Some(w) => {
                w.finish()?;
                let drawn = plots()?;
                files.push(file.commit()?.display().to_string());
                files.extend(drawn);
            }
            None => {
                // a shard without chunks: a file with the columns and no rows
                drop(file);
                let drawn = plots()?;
                let mut df = game_frame(&[], &cols, &id, count, opts.grundy)?;
                let p = crate::output::write_frame(&mut df, out)?;
                files.push(p.display().to_string());
                files.extend(drawn);
            }
        }
        remove_parts(d, (0..chunks).filter(|&c| mine(c)), |c| {
            c < chunks && !mine(c)
        });
    } else if let Some(p) = &a.plots {
        files.extend(crate::plot::census_plots(
            &tally,
            p,
            "census",
            &space.describe(),
        )?);
    }
    let resumed: u64 = done
        .iter()
        .map(|&c| (items - c * opts.chunk).min(opts.chunk))
        .sum();
    if a.json {
        print_json(&json!({
            "census": id,
            "items": items,
            "shard": a.shard.clone().unwrap_or_else(|| "1/1".into()),
            "rows": tally.rows,
            "resumed": resumed,
            "tally": tally,
            "files": files,
            "seconds": secs(t0),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    print_summary(&tally, items, resumed, &files, secs(t0), a.output.is_none());
    Ok(ExitCode::SUCCESS)
}

fn print_summary(t: &GameTally, items: u64, resumed: u64, files: &[String], s: f64, no_out: bool) {
    println!(
        "{} of {items} games in {} play ({} primitive, the rest scaled copies of a primitive set): {} with a proven outcome period, {} without one within the limit{}{} ({s:.1} s)",
        t.rows,
        if t.play == "misere" { "misère" } else { "normal" },
        t.primitive,
        t.certified,
        t.none,
        if t.grundy_certified > 0 {
            format!(", {} with a proven Grundy period", t.grundy_certified)
        } else {
            String::new()
        },
        if resumed > 0 {
            format!("; {resumed} resumed from the chunks")
        } else {
            String::new()
        }
    );
    let common: Vec<String> = t
        .common_periods(8)
        .iter()
        .map(|(p, n)| format!("{p} ({n})"))
        .collect();
    println!("most common periods: {}", common.join(", "));
    let pre: Vec<String> = t
        .preperiods
        .iter()
        .map(|(&d, &n)| match d {
            0 => format!("0: {n}"),
            d => format!("{d}-{}: {n}", d * 10 - 1),
        })
        .collect();
    println!("preperiods: {}", pre.join(", "));
    if let Some(e) = &t.longest_period {
        println!("longest period: {} ({})", e.value, e.game);
    }
    if let Some(e) = &t.longest_preperiod {
        println!("longest preperiod: {} ({})", e.value, e.game);
    }
    for c in t.claims.iter().filter(|c| c.rows > 0) {
        println!(
            "claim: {}: {}",
            c.claim,
            if c.holds() {
                format!("holds on all {} sets", c.rows)
            } else {
                format!("FAILS on {} of {} sets", c.fails, c.rows)
            }
        );
        for x in c.counterexamples.iter().take(5) {
            println!(
                "  {}: preperiod {}, period {} ({})",
                x.game, x.preperiod, x.period, x.certificate
            );
        }
        if c.fails > 5 {
            println!("  … (the first 20 in --json; all of them in the rows)");
        }
    }
    if let Some(e) = &t.additive_period_over_c2 {
        println!(
            "additive sets: largest period / c^2 = {:.3} ({})",
            e.value, e.game
        );
    }
    if let Some(e) = &t.non_additive_period_over_c {
        println!(
            "non-additive sets: largest period / c = {:.3} ({})",
            e.value, e.game
        );
    }
    if !files.is_empty() {
        println!("wrote {}", files.join(", "));
    } else if no_out {
        println!("(write one row per game with -o FILE.parquet or FILE.csv)");
    }
}

/// A census file (Parquet or CSV) as a frame, every column typed.
fn read_frame(p: &Path) -> Result<DataFrame> {
    read_census_frame(p, None)
}

/// A census file (Parquet or CSV) as a frame; a CSV must end with a line break (a copy
/// cut short must not pass for a census) and has its column types inferred from
/// `csv_infer` rows (`Some(0)`: all text; `None`: every row).
pub(crate) fn read_census_frame(p: &Path, csv_infer: Option<usize>) -> Result<DataFrame> {
    let format = crate::output::frame_format(p).map_err(|_| {
        anyhow::anyhow!(
            "cannot read `{}`: use a .parquet or .csv census",
            p.display()
        )
    })?;
    let f = std::fs::File::open(p).with_context(|| format!("cannot read `{}`", p.display()))?;
    if format == crate::output::Format::Csv {
        use std::io::{Read, Seek, SeekFrom};
        let mut last = [0u8; 1];
        let mut g = f.try_clone()?;
        let len = g.seek(SeekFrom::End(0))?;
        if len > 0 {
            g.seek(SeekFrom::End(-1))?;
            g.read_exact(&mut last)?;
        }
        if len > 0 && last[0] != b'\n' {
            bail!(
                "`{}` does not end with a line break: it looks cut short",
                p.display()
            );
        }
        g.seek(SeekFrom::Start(0))?;
    }
    match format {
        crate::output::Format::Parquet => ParquetReader::new(f).finish(),
        _ => CsvReadOptions::default()
            .with_infer_schema_length(csv_infer)
            .into_reader_with_file_handle(f)
            .finish(),
    }
    .map_err(|e| anyhow::anyhow!("cannot read `{}`: {e}", p.display()))
}

/// Whether `p` is a per-game census (it has an `items` column).
pub fn is_per_game(p: &Path) -> Result<bool> {
    Ok(read_frame(p)?.column("items").is_ok())
}

/// `heaplab merge` of per-game shards: every part of the same census, rows in the space's
/// order, each item once; exit code 1 (the file written all the same) when items are
/// missing.
pub fn merge(a: &crate::cli::MergeArgs, t0: Instant) -> Result<ExitCode> {
    let mut all: Option<DataFrame> = None;
    let mut id: Option<String> = None;
    let mut items = 0u64;
    for p in &a.parts {
        let mut df = read_frame(p)?;
        if df.height() == 0 {
            continue;
        }
        // counts read from CSV are Int64: the census's own type is UInt64
        let ints: Vec<PlSmallStr> = df
            .columns()
            .iter()
            .filter(|c| c.dtype() == &DataType::Int64)
            .map(|c| c.name().clone())
            .collect();
        for name in ints {
            let c = df
                .column(&name)?
                .strict_cast(&DataType::UInt64)
                .map_err(|_| {
                    anyhow::anyhow!("`{}`: column `{name}` has a negative value", p.display())
                })?;
            df.with_column(c)?;
        }
        let ids = df
            .column("census")
            .and_then(|c| c.str().cloned())
            .map_err(|_| anyhow::anyhow!("`{}` is not a per-game census", p.display()))?;
        let this = ids.get(0).unwrap_or_default().to_string();
        if ids.n_unique()? != 1 || id.as_ref().is_some_and(|i| *i != this) {
            bail!(
                "`{}` belongs to another census than the first part (`{}`)",
                p.display(),
                id.as_deref().unwrap_or(&this)
            );
        }
        let counts = df.column("items")?.cast(&DataType::UInt64)?;
        let this_items = counts.u64()?.get(0).unwrap_or(0);
        if counts.u64()?.iter().any(|x| x != Some(this_items)) {
            bail!("`{}`: its `items` column is not one count", p.display());
        }
        if id.is_some() && this_items != items {
            bail!(
                "`{}` counts {this_items} games in the census, the parts before it {items}",
                p.display()
            );
        }
        items = this_items;
        id = Some(this);
        all = Some(match all {
            None => df,
            Some(mut d) => {
                d.vstack_mut(&df).map_err(|e| {
                    anyhow::anyhow!(
                        "`{}` has other columns than the first part: {e}",
                        p.display()
                    )
                })?;
                d
            }
        });
    }
    let Some(all) = all else {
        bail!("the parts hold no rows");
    };
    // each item once (a part given twice, or two copies of one shard, merge to one)
    let mut all = all
        .unique_stable(None, UniqueKeepStrategy::First, None)?
        .sort(["item"], SortMultipleOptions::default())?;
    let item = all.column("item")?.cast(&DataType::UInt64)?;
    let item = item.u64()?;
    // the missing items as ranges (the first 20 ranges)
    let mut missing: Vec<(u64, u64)> = vec![];
    let mut note = |lo: u64, hi: u64| {
        if lo < hi && missing.len() < 20 {
            missing.push((lo, hi - 1));
        }
    };
    let mut next = 0u64;
    if item.null_count() > 0 {
        bail!("a part has rows without an `item`");
    }
    for i in 0..item.len() {
        let x = item.get(i).unwrap_or(0);
        if x >= items {
            bail!("item {x} is past the census's {items} games: not a row of this census");
        }
        if x < next {
            bail!("item {x} appears twice with different rows: the parts disagree");
        }
        note(next, x);
        next = x + 1;
    }
    note(next, items);
    let lacking = items.saturating_sub(all.height() as u64);
    let written = crate::output::write_frame(&mut all, &a.output)?;
    if a.json {
        print_json(&json!({
            "census": id,
            "items": items,
            "rows": all.height(),
            "missing": lacking,
            "first_missing": missing.iter().map(|&(a, b)| json!([a, b])).collect::<Vec<_>>(),
            "files": [written.display().to_string()],
            "seconds": secs(t0),
        }));
    } else {
        println!(
            "merged {} parts: {} of {items} games; wrote {}",
            a.parts.len(),
            all.height(),
            written.display()
        );
    }
    if lacking == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let chunk = GameCensusOptions::default().chunk;
    let shown: Vec<String> = missing
        .iter()
        .map(|&(a, b)| {
            let (c0, c1) = (a / chunk, b / chunk);
            let chunks = if c0 == c1 {
                format!("chunk {c0}")
            } else {
                format!("chunks {c0}-{c1}")
            };
            if a == b {
                format!("item {a} ({chunks})")
            } else {
                format!("items {a}-{b} ({chunks})")
            }
        })
        .collect();
    eprintln!(
        "incomplete: {lacking} games missing: {}{}; chunk c of {chunk} games is in the shard i/n with c % n = i - 1",
        shown.join(", "),
        if missing.len() == 20 { ", …" } else { "" }
    );
    Ok(ExitCode::from(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_files_sort_by_name() {
        let d = Path::new("x.parts");
        assert!(chunk_path(d, 9) < chunk_path(d, 10));
        assert_eq!(
            parts_dir(Path::new("a/b.parquet")),
            PathBuf::from("a/b.parquet.parts")
        );
    }
}
