//! `heaplab table`: outcome (and Grundy value) of every position
//! ([`heaplab_core::tables`]).

use crate::cli::TableArgs;
use crate::output::{print_json, secs, write_table, AtomicFile, Format};
use crate::progress::Progress;
use anyhow::{bail, Context, Result};
use heaplab_core::{tables, Play, Task};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Refuses a `--checkpoint` or `--snapshots` run that cannot be made: no --grundy, a
/// game whose engine cannot continue a table, a checkpoint that is the output, a
/// snapshot path that is not a folder, or that holds the output or the checkpoint. Makes
/// the snapshot folder (removed again if the run fails while it is empty).
fn check_segmented(
    a: &TableArgs,
    game: &heaplab_core::Game,
) -> Result<Option<crate::cleanup::MadeDirs>> {
    let flag = if a.checkpoint.is_some() {
        "--checkpoint"
    } else {
        "--snapshots"
    };
    if !a.grundy {
        bail!("{flag} saves Grundy values: add --grundy");
    }
    if !heaplab_core::grundy_resumable(game) {
        bail!("{flag} works for take-and-break codes, Grundy's game and subtraction games (finite or named sets) in normal play, not {game}");
    }
    if let (Some(cp), Some(out)) = (&a.checkpoint, &a.output) {
        if crate::files::same_file_key(cp) == crate::files::same_file_key(out) {
            bail!("--checkpoint must be another file than -o");
        }
    }
    if let Some(cp) = &a.checkpoint {
        if cp.is_dir() {
            bail!(
                "--checkpoint `{}` is a folder; pick a file path",
                cp.display()
            );
        }
    }
    match &a.snapshots {
        Some(dir) => {
            // (made first, so that paths inside it compare by their real folder)
            let made = crate::segments::prepare_snapshots(dir, game)?;
            crate::segments::refuse_inside(
                dir,
                &[
                    ("-o", a.output.as_deref()),
                    ("--checkpoint", a.checkpoint.as_deref()),
                ],
            )?;
            Ok(Some(made))
        }
        None => Ok(None),
    }
}

/// `11 value-frequency snapshots (2^10..2^20) in DIR`.
fn snapshot_note(a: &TableArgs, count: usize) -> String {
    if count == 0 {
        return "no value-frequency snapshot (the first is at 2^10)".into();
    }
    format!(
        "{count} value-frequency snapshots (2^10..2^{}) in {}",
        9 + count,
        a.snapshots
            .as_ref()
            .map_or(String::new(), |d| d.display().to_string())
    )
}

/// Runs the command.
pub fn run(a: TableArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, shown_max) = (a.gm.played()?, a.gm.max);
    let max = crate::output::unshift("--max", shown_max, a.shift)?;
    // The format (from --format, else the file name, else CSV on stdout), and the
    // destination opened first: a bad path or format fails before any work.
    let format = crate::output::resolve_format(a.format.map(Format::from), a.output.as_deref())?;
    if format == Format::Bfile {
        bail!("a b-file holds one sequence; write the table as csv or parquet (b-files of P-positions: `heaplab losers -o FILE.txt`)");
    }
    if a.output.is_none() && !a.json {
        crate::files::check_stdout()?;
        if format == Format::Parquet {
            crate::output::refuse_binary_terminal()?;
        }
    }
    let segmented = a.checkpoint.is_some() || a.snapshots.is_some();
    let made = if segmented {
        check_segmented(&a, &game)?
    } else {
        None
    };
    let _lock = a
        .checkpoint
        .as_deref()
        .map(crate::sink::CheckpointLock::take)
        .transpose()?;
    let budget = crate::machine::budget();
    // remoteness and birthday are planned before any work: a refusal comes first
    let lengths = plan_lengths(&a, &game, max, &budget)?;
    let dest = a.output.as_deref().map(AtomicFile::create).transpose()?;
    let progress = Progress::new(&format!("{game} to {max}"), max.saturating_add(1));
    let mut snapshots = vec![];
    let mut keep_checkpoint = false;
    let (out, g) = if segmented {
        // A run that saves its state may take longer than a day: only memory is budgeted.
        let long = heaplab_core::Budget {
            seconds: f64::INFINITY,
            ..budget
        };
        let p = heaplab_core::plan_table(&game, max, &long)?;
        let s = crate::segments::Segmented {
            game: &game,
            max,
            checkpoint: a.checkpoint.as_deref(),
            every: a.checkpoint_every,
            snapshots: a.snapshots.as_deref(),
            plan: &p,
        };
        let (g, snaps, longer, _) = crate::segments::run(&s, &progress)?;
        snapshots = snaps;
        keep_checkpoint = longer;
        (g.outcomes(), Some(g))
    } else {
        tables(&game, max, a.grundy, &budget, &progress)?
    };
    // misère play of a one-heap game: the genus and phylum of every heap with the values
    let genus = match (game.play(), a.grundy) {
        (Play::Misere, true) => heaplab_core::misere::genera(&game, max, &budget, &progress)?,
        _ => None,
    };
    let mut extra = vec![];
    for (name, p) in &lengths {
        heaplab_core::Observer::planned(&progress, p);
        extra.push((*name, p.lengths(&progress)?));
    }
    progress.finish();
    let mut files = write_out(&a, dest, format, &out, g.as_ref(), genus.as_ref(), &extra)?;
    made.into_iter().for_each(crate::cleanup::MadeDirs::keep);
    if let Some(cp) = a.checkpoint.as_ref().filter(|_| !keep_checkpoint) {
        // the run is complete: its checkpoint goes (a longer run's stays)
        crate::sink::remove_finished(cp)?;
    }
    let snaps: Vec<String> = snapshots.iter().map(|p| p.display().to_string()).collect();
    if !files.is_empty() && !snaps.is_empty() && !a.json {
        files.push(snapshot_note(&a, snaps.len()));
    }
    summary(
        &a,
        &game,
        shown_max,
        &out,
        g.as_ref(),
        &extra,
        &files,
        &snaps,
        secs(t0),
    );
    Ok(ExitCode::SUCCESS)
}

/// The plans of the `remoteness` and `birthday` columns asked for, each within `budget` and
/// together within its memory.
fn plan_lengths(
    a: &TableArgs,
    game: &heaplab_core::Game,
    max: u64,
    budget: &heaplab_core::Budget,
) -> Result<Vec<(&'static str, heaplab_core::Plan)>> {
    let mut plans = vec![];
    for (on, name, task) in [
        (a.remoteness, "remoteness", Task::Remoteness),
        (a.birthday, "birthday", Task::Birthday),
    ] {
        if on {
            plans.push((name, heaplab_core::plan(game, task, max, budget)?));
        }
    }
    if plans.len() > 1 {
        let bytes = plans
            .iter()
            .map(|(_, p)| p.memory)
            .fold(0u64, u64::saturating_add);
        budget.check_memory(
            || format!("the remoteness and birthday of {game} to N = {max}"),
            bytes,
        )?;
    }
    Ok(plans)
}

/// Writes the table to the destination (a file committed into place, or stdout unless
/// --json): the files written.
fn write_out(
    a: &TableArgs,
    dest: Option<AtomicFile>,
    format: Format,
    out: &heaplab_core::OutcomeTable,
    g: Option<&heaplab_core::GrundyTable>,
    genus: Option<&heaplab_core::misere::GenusTable>,
    extra: &[(&str, heaplab_core::GrundyTable)],
) -> Result<Vec<String>> {
    match dest {
        Some(file) => {
            write_table(file.file()?, format, out, g, genus, extra, a.shift).with_context(
                || {
                    format!(
                        "cannot write `{}`",
                        a.output
                            .as_ref()
                            .map_or("-".into(), |p| p.display().to_string())
                    )
                },
            )?;
            Ok(vec![file.commit()?.display().to_string()])
        }
        None if !a.json => {
            write_table(std::io::stdout(), format, out, g, genus, extra, a.shift)
                .context("cannot write to stdout")?;
            Ok(vec![])
        }
        None => Ok(vec![]),
    }
}

/// Prints the run's summary: JSON, the snapshots' note, or one line (on stderr when the
/// rows went to stdout).
#[allow(clippy::too_many_arguments)]
fn summary(
    a: &TableArgs,
    game: &heaplab_core::Game,
    shown_max: u64,
    out: &heaplab_core::OutcomeTable,
    g: Option<&heaplab_core::GrundyTable>,
    extra: &[(&str, heaplab_core::GrundyTable)],
    files: &[String],
    snaps: &[String],
    seconds: f64,
) {
    let count = out.count_p();
    let largest = out.last_p().map(|p| p + a.shift);
    let max_g = g.map(|g| g.max_value());
    if a.json {
        let mut v = json!({
            "game": game.to_string(),
            "max": shown_max,
            "shift": a.shift,
            "p_positions": count,
            "largest_p": largest,
            "max_grundy": max_g,
            "files": files,
            "snapshots": snaps,
            "seconds": seconds,
        });
        // `max_remoteness`, `max_birthday`: the largest value of each column asked for
        for (name, t) in extra {
            v[format!("max_{name}")] = json!(t.max_value());
        }
        print_json(&v);
    } else if a.output.is_none() && !snaps.is_empty() && !crate::progress::quiet() {
        // rows on stdout: the note goes to stderr
        eprintln!("{game}: wrote {}", snapshot_note(a, snaps.len()));
    } else if !files.is_empty() {
        let line = format!(
            "{game}: {count} P-positions in {}..={shown_max} (largest {}){}; wrote {} in {seconds:.2} s",
            a.shift,
            largest.map_or("none".into(), |p| p.to_string()),
            max_g.map_or(String::new(), |m| {
                crate::plot::in_play(&format!(", largest Grundy value {m}"), game.play())
            }),
            files.join(", "),
        );
        // rows on stdout: the summary goes to stderr
        match a.output.as_deref().is_some_and(crate::files::is_stdout) {
            true if !crate::progress::quiet() => eprintln!("{line}"),
            true => {}
            false => println!("{line}"),
        }
    }
}
