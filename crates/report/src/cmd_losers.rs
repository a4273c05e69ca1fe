//! `heaplab losers`: P-positions streamed as they are found, with progress and
//! checkpoint/resume (the files: [`crate::sink`]).

use crate::cli::LosersArgs;
use crate::files::same_file_key;
use crate::output::{print_json, refuse_binary_terminal, resolve_format, secs, Format, Labels};
use crate::progress::Progress;
use crate::sink::{check_same, load_run, side_path, CheckpointLock, SavedRun, Sink};
use anyhow::{bail, Result};
use heaplab_core::Observer;
use heaplab_core::{
    count_by_period, count_p_positions, open_stream, p_count_estimate, plan, resume_stream, Task,
};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: LosersArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, shown_max) = (a.gm.played()?, a.gm.max);
    let max = crate::output::unshift("--max", shown_max, a.shift)?;
    let labels = Labels {
        offset: a.offset,
        shift: a.shift,
    };
    let format = resolve_format(a.format, a.output.as_deref())?;
    let rows_to_stdout = a.output.is_none() && !a.count && !a.json;
    check_args(&a, format, rows_to_stdout)?;
    // Only the count, from a closed form or a proven period: no engine at all.
    let count_only = a.output.is_none() && (a.count || a.json);
    let mut closed = count_only.then(|| count_p_positions(&game, max)).flatten();
    if let Some(out) = &a.output {
        check_space(&game, max, out, format)?;
    }
    let planned = match closed {
        None => {
            let budget = crate::machine::budget();
            let p = plan(&game, Task::PPositions, max, &budget);
            // a count the engines are refused, or would take more than a second over: a
            // period proved for the values (Guy–Smith; a misère quotient's) counts it at
            // once, searched for within the engine's own estimate (a minute when refused)
            let search = match &p {
                Err(_) => Some(budget.seconds),
                Ok(p) => (p.seconds > BY_PERIOD_AFTER).then_some(p.seconds.min(budget.seconds)),
            };
            if let Some(seconds) = search.filter(|_| count_only) {
                let within = heaplab_core::Budget { seconds, ..budget };
                let progress = Progress::new(&format!("looking for a proved period of {game}"), 0);
                closed = count_by_period(&game, max, &within, &progress)?;
                progress.finish();
            }
            match (&closed, p) {
                (Some(_), _) => None,
                (None, Ok(p)) => Some(p),
                (None, Err(e)) if search.is_some() && count_only => {
                    let searched = match game.play() {
                        heaplab_core::Play::Normal => {
                            "of its Grundy values (tables of up to 2^22 positions, as far as \
                             a minute and this run's memory allow)"
                        }
                        heaplab_core::Play::Misere => "of its misère quotient (the quick try)",
                    };
                    return Err(anyhow::Error::new(e).context(format!(
                        "no period {searched} was proved to count {game} at once"
                    )));
                }
                (None, Err(e)) => return Err(e.into()),
            }
        }
        Some(_) => None,
    };
    // One run per checkpoint; a checkpoint from an earlier run of the same command?
    let _lock = a
        .checkpoint
        .as_deref()
        .map(CheckpointLock::take)
        .transpose()?;
    let resume = resumed(&a, &game.to_string(), max, format, labels)?;
    let sink = Sink::open(
        a.output.as_deref(),
        format,
        a.count || a.json,
        a.checkpoint.as_deref(),
        resume.as_ref(),
        labels,
    )?;
    if let (Some(r), Some(cp)) = (&resume, &a.checkpoint) {
        eprintln!(
            "heaplab: resuming {game} from checkpoint `{}` after {} P-positions{}",
            cp.display(),
            r.stream.count,
            r.stream
                .last
                .map_or(String::new(), |p| format!(" (the last p = {p})"))
        );
    }
    let found = match (closed.filter(|_| resume.is_none()), planned) {
        (Some(c), _) => Found {
            count: c.count,
            largest: c.largest,
            method: c.method,
            files: vec![],
        },
        (None, planned) => stream_into(&a, &game, max, planned, resume, sink)?,
    };
    report(&a, &game, shown_max, found, secs(t0), rows_to_stdout)
}

/// Seconds of an engine's estimate past which a count only (`--count`, `--json`) first
/// looks for a proved period of the values ([`count_by_period`]: tables to 2^22 within
/// the engine's estimate; milliseconds where a period is proved early, as for 0.77). The
/// estimate can be short of the run (0.77 to 3·10^9: estimated under 10 s, ran 16–40 s in
/// up to 14.7 GB), so anything past a second tries.
const BY_PERIOD_AFTER: f64 = 1.0;

/// What a run found: the count, the largest P-position, the method, the files written.
struct Found {
    count: u64,
    largest: Option<u64>,
    method: String,
    files: Vec<String>,
}

/// The checkpoint this run resumes from (`--checkpoint` of an earlier run of the same
/// command), refused when it belongs to another run; without one, a checkpoint path that
/// cannot be written fails now, not minutes into the run.
fn resumed(
    a: &LosersArgs,
    game: &str,
    max: u64,
    format: Format,
    labels: Labels,
) -> Result<Option<SavedRun>> {
    let Some(cp) = &a.checkpoint else {
        return Ok(None);
    };
    let saved = load_run(cp)?;
    match &saved {
        Some(s) => check_same(s, cp, game, max, a.output.as_deref(), format, labels)?,
        None => crate::files::AtomicFile::check(cp)?,
    }
    Ok(saved)
}

/// The stream the plan chose (or the one the checkpoint resumes) run into the sink, with
/// checkpoints early (after 10 s), then at doubling intervals up to --checkpoint-every.
fn stream_into(
    a: &LosersArgs,
    game: &heaplab_core::Game,
    max: u64,
    planned: Option<heaplab_core::Plan>,
    resume: Option<SavedRun>,
    mut sink: Sink,
) -> Result<Found> {
    let progress = Progress::new(
        &format!("P-positions of {game} to {max}"),
        max.saturating_add(1),
    );
    let mut stream = match (resume, &planned) {
        (Some(saved), _) => resume_stream(saved.stream, &progress)?,
        (None, Some(p)) => {
            if a.checkpoint.is_some() && p.lists_after_table() && !crate::progress::quiet() {
                // (normal play: a Grundy table can be checkpointed as it grows)
                let instead = match game.play() {
                    heaplab_core::Play::Normal => {
                        "; `heaplab table --grundy --checkpoint FILE` saves a long table as \
                         it goes (its P-positions are the zeros)"
                    }
                    heaplab_core::Play::Misere => "",
                };
                eprintln!(
                    "heaplab: {} builds its whole table before the first P-position of \
                     {game}, so --checkpoint saves nothing until it is done{instead}",
                    p.engine.name()
                );
            }
            progress.planned(p);
            p.stream(&progress)?
        }
        (None, None) => open_stream(game, max, &progress)?,
    };
    let target = a
        .output
        .as_ref()
        .map_or("to stdout".to_string(), |p| format!("`{}`", p.display()));
    let (mut buf, mut last_cp) = (Vec::new(), Instant::now());
    let mut every = a.checkpoint_every.min(10.0);
    while stream.advance(&mut buf) {
        sink.push(&buf)
            .map_err(|e| crate::output::write_context(e, &target))?;
        buf.clear();
        progress.set(stream.done().min(max.saturating_add(1)));
        if let Some(cp) = &a.checkpoint {
            if last_cp.elapsed().as_secs_f64() >= every {
                sink.checkpoint(cp, stream.checkpoint())?;
                last_cp = Instant::now();
                every = (every * 2.0).min(a.checkpoint_every);
            }
        }
    }
    progress.finish();
    let files = sink
        .finish()
        .map_err(|e| crate::output::write_context(e, &target))?;
    if let Some(cp) = a.checkpoint.as_ref().filter(|cp| cp.exists()) {
        // the checkpoint a link points to goes, and the link with it
        std::fs::remove_file(crate::files::resolve_links(cp))?;
        let _ = std::fs::remove_file(cp);
    }
    Ok(Found {
        count: stream.count(),
        largest: stream.last(),
        method: stream.method().to_string(),
        files,
    })
}

/// Prints what was found: JSON, or one line (on stderr when the rows went to stdout).
fn report(
    a: &LosersArgs,
    game: &heaplab_core::Game,
    shown_max: u64,
    f: Found,
    seconds: f64,
    rows_to_stdout: bool,
) -> Result<ExitCode> {
    let largest = f.largest.map(|p| p + a.shift);
    if a.json {
        print_json(&json!({
            "game": game.to_string(),
            "max": shown_max,
            "offset": a.offset,
            "shift": a.shift,
            "p_positions": f.count,
            "largest_p": largest,
            "max_grundy": null,
            "files": f.files,
            "seconds": seconds,
            "method": f.method,
        }));
        return Ok(ExitCode::SUCCESS);
    }
    let line = format!(
        "{game}: {} P-positions in {}..={shown_max}, largest {}{} ({}, {seconds:.2} s)",
        f.count,
        a.shift,
        largest.map_or("none".into(), |p| p.to_string()),
        if f.files.is_empty() {
            String::new()
        } else {
            format!("; wrote {}", f.files.join(", "))
        },
        f.method,
    );
    // rows on stdout: the summary goes to stderr
    let rows_there = rows_to_stdout || a.output.as_deref().is_some_and(crate::files::is_stdout);
    match rows_there {
        true if !crate::progress::quiet() => eprintln!("{line}"),
        true => {}
        false => println!("{line}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Combinations of options that cannot work, refused before any work.
fn check_args(a: &LosersArgs, format: Format, rows_to_stdout: bool) -> Result<()> {
    if a.format.is_some() && a.output.is_none() && !rows_to_stdout {
        bail!("--format applies to rows, and --count/--json without -o writes none; add -o FILE");
    }
    if rows_to_stdout {
        crate::files::check_stdout()?;
        if format == Format::Parquet {
            refuse_binary_terminal()?;
        }
    }
    if let (Some(cp), Some(out)) = (&a.checkpoint, &a.output) {
        let cp = same_file_key(cp);
        let sides = [
            out.clone(),
            side_path(out, ".partial"),
            side_path(out, ".spool"),
        ];
        if sides.iter().any(|p| same_file_key(p) == cp) {
            bail!("--checkpoint must be another file than -o (and its .partial/.spool)");
        }
        if crate::files::is_special(out) {
            bail!(
                "--checkpoint needs a regular file as -o, not the device or pipe `{}`",
                out.display()
            );
        }
    }
    if a.checkpoint.is_some() && rows_to_stdout {
        bail!("--checkpoint needs -o FILE or --count: rows on stdout cannot be resumed");
    }
    Ok(())
}

/// A file of rows must fit on its disk: the count is known for closed forms and estimated
/// for interval games (sieve games are bounded by their run time instead).
fn check_space(game: &heaplab_core::Game, max: u64, out: &Path, format: Format) -> Result<()> {
    let Some(rows) = p_count_estimate(game, max) else {
        return Ok(());
    };
    // k, p and gap in decimal (Parquet: delta-coded, a few bytes a row)
    let digits = (max.max(1) as f64).log10().floor() + 1.0;
    let per_row = match format {
        Format::Parquet => 4.0,
        Format::Csv | Format::Bfile => 2.0 * digits + 4.0,
    };
    crate::machine::budget_for(out).check_disk(
        || format!("{rows:.3e} P-positions in `{}`", out.display()),
        rows * per_row,
    )?;
    Ok(())
}
