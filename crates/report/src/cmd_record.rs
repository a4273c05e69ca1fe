//! `heaplab record`: a record run of a take-and-break code or Grundy's game
//! ([`heaplab_core::record::record_run`]): the library keeps a prefix and a window and says
//! when a snapshot or a checkpoint is due; here the files (snapshots in the record tables'
//! format, the rare positions, the checkpoint written atomically, an optional b-file of
//! every value), the checks before any work (memory, disk, paths), progress and the summary.

use crate::cli::RecordArgs;
use crate::files::AtomicFile;
use crate::progress::Progress;
use anyhow::{bail, Context, Result};
use heaplab_core::record::{self, RecordHooks, RecordRun, RecordState};
use heaplab_core::Game;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// What the command line does during a run.
struct Hooks<'a> {
    a: &'a RecordArgs,
    game: &'a Game,
    snaps: Vec<PathBuf>,
    values: Option<BufWriter<std::fs::File>>,
    /// When the run started, and whether the measured rate has been told.
    t0: Instant,
    told: bool,
}

impl RecordHooks for Hooks<'_> {
    fn passed(&mut self, k: u32, freq: &[u64]) -> std::result::Result<(), String> {
        if let Some(dir) = &self.a.snapshots {
            let p =
                crate::segments::write_frequencies(dir, k, freq).map_err(|e| format!("{e:#}"))?;
            self.snaps.push(p);
        }
        // the estimate to N from the rate measured so far, once the run has gone 10 s (and
        // past its first phase, whose snapshots all come when it ends)
        let secs = self.t0.elapsed().as_secs_f64();
        let measured = 1u64 << k > 2 * self.a.keep;
        if !self.told && measured && secs >= 10.0 && !crate::progress::quiet() {
            self.told = true;
            let rate = (1u64 << k) as f64 / secs;
            let left = self.a.max.saturating_sub(1 << k) as f64 / rate;
            eprintln!(
                "heaplab: {} passed 2^{k} in {}: about {:.3e} values/s, about {} more to N",
                self.game,
                heaplab_core::duration(secs),
                rate,
                heaplab_core::duration(left)
            );
        }
        Ok(())
    }

    fn save(&mut self, state: &RecordState) -> std::result::Result<(), String> {
        let Some(cp) = &self.a.checkpoint else {
            return Ok(());
        };
        let key = crate::sink::checkpoint_key(cp).map_err(|e| format!("{e:#}"))?;
        AtomicFile::write_whole(cp, &record::encode(self.game, state, key), "checkpoint")
            .map(|_| ())
            .map_err(|e| format!("{e:#}"))
    }

    fn values(&mut self, from: u64, values: &[u32]) -> std::result::Result<(), String> {
        let Some(w) = &mut self.values else {
            return Ok(());
        };
        (from..)
            .zip(values)
            .try_for_each(|(n, v)| writeln!(w, "{n} {v}"))
            .map_err(|e| format!("cannot write the values file: {e}"))
    }
}

/// Reads the checkpoint at `path` for `game`: None when there is none; one line naming
/// the problem when it cannot be resumed.
fn load(path: &Path, game: &Game) -> Result<Option<RecordState>> {
    let key = crate::sink::checkpoint_key(path)?;
    crate::sink::read_checkpoint(path, |b| record::decode(b, game, key))
}

/// Runs the command.
pub fn run(a: RecordArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let game = a.game.clone();
    let br = record::record_rule(&game)?;
    if a.max < 1 << record::SNAP_FROM {
        bail!(
            "--max {} is below 2^{}: a record run is for long tables (use `heaplab table --grundy`)",
            a.max,
            record::SNAP_FROM
        );
    }
    if a.max > 1 << 40 {
        bail!(
            "--max {} is beyond 2^40, the largest heap a record run addresses",
            a.max
        );
    }
    if a.keep < record::MIN_KEEP {
        bail!(
            "--keep {} is below {}, the least prefix a record run keeps",
            a.keep,
            record::MIN_KEEP
        );
    }
    if a.values.is_some() && a.checkpoint.is_some() {
        bail!("--values writes every value from heap 0 and cannot resume: leave out --checkpoint, or --values");
    }
    // memory first: refused up front when it will not hold
    let need = record::record_memory(&br, a.max, a.keep);
    let have = crate::machine::available_memory();
    if need > have {
        bail!(
            "a record run of {game} to N = {} keeping {} values needs about {}, more than the {} available; use a smaller --keep",
            a.max,
            a.keep,
            size(need),
            size(have)
        );
    }
    let mut made = None;
    if let Some(dir) = &a.snapshots {
        made = Some(crate::segments::prepare_snapshots(dir)?);
        let need = 64 * 8 * 4096u64;
        if crate::machine::free_space(dir).is_some_and(|f| f < need) {
            bail!(
                "the snapshot folder `{}` has less than {} free",
                dir.display(),
                size(need)
            );
        }
    }
    let _lock = a
        .checkpoint
        .as_deref()
        .map(crate::sink::CheckpointLock::take)
        .transpose()?;
    let saved = match &a.checkpoint {
        Some(cp) => {
            let need = record::record_checkpoint_bytes(&br, a.keep);
            if crate::machine::free_space(cp).is_some_and(|f| f < 2 * need) {
                bail!(
                    "checkpoint `{}` needs about {} (twice while it is replaced), more than is free there",
                    cp.display(),
                    size(need)
                );
            }
            load(cp, &game)?
        }
        None => None,
    };
    if let (Some(s), Some(cp)) = (&saved, &a.checkpoint) {
        if s.keep < a.keep {
            bail!(
                "checkpoint `{}` keeps {} values, fewer than --keep {}: resume with --keep {} (or remove it to start over)",
                cp.display(),
                s.keep,
                a.keep,
                s.keep
            );
        }
        if !crate::progress::quiet() {
            eprintln!(
                "heaplab: resuming {game} from checkpoint `{}` at heap {}",
                cp.display(),
                s.n
            );
        }
    }
    let values_file = match &a.values {
        Some(p) => {
            let digits = a.max.to_string().len() as u64;
            let need = (a.max + 1).saturating_mul(digits + 5);
            if crate::machine::free_space(p).is_some_and(|f| f < need) {
                bail!(
                    "--values `{}` would take about {}, more than is free there",
                    p.display(),
                    size(need)
                );
            }
            Some(AtomicFile::create(p)?)
        }
        None => None,
    };
    let progress = Progress::new(&format!("record {game} to {}", a.max), a.max + 1);
    let mut hooks = Hooks {
        a: &a,
        game: &game,
        snaps: vec![],
        values: values_file
            .as_ref()
            .map(|f| f.file().map(BufWriter::new))
            .transpose()?,
        t0,
        told: false,
    };
    let keep = saved.as_ref().map_or(a.keep, |s| s.keep);
    let run = record::record_run(
        &game,
        a.max,
        keep,
        saved,
        a.checkpoint_every,
        &progress,
        &mut hooks,
    )?;
    progress.finish();
    let snaps = std::mem::take(&mut hooks.snaps);
    let mut files: Vec<String> = snaps.iter().map(|p| p.display().to_string()).collect();
    if let Some(mut w) = hooks.values.take() {
        w.flush().context("cannot write the values file")?;
        drop(w);
        let f = values_file.expect("a values file");
        files.push(f.commit()?.display().to_string());
    }
    if let Some(dir) = &a.snapshots {
        let p = dir.join("rare.txt");
        let body: String = run.rare.iter().map(|(n, v)| format!("{n} {v}\n")).collect();
        AtomicFile::write_whole(&p, body.as_bytes(), "rare positions")?;
        files.push(p.display().to_string());
    }
    made.into_iter().for_each(crate::cleanup::MadeDirs::keep);
    if let Some(cp) = &a.checkpoint {
        if cp.exists() {
            std::fs::remove_file(cp)
                .with_context(|| format!("cannot remove checkpoint `{}`", cp.display()))?;
        }
    }
    summary(&a, &game, &run, &files, t0.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

fn size(b: u64) -> String {
    bytesize::ByteSize(b).display().iec().to_string()
}

/// What the periods of the last values say, in words.
fn periods(run: &RecordRun) -> String {
    match (run.period, run.tail) {
        (Some((n0, p)), _) => format!("period {p} from heap {n0}, proven (Guy–Smith)"),
        (None, Some((len, p))) => format!(
            "no period below {p} starts at or before heap {} (the last {len} values looked at)",
            (run.max + 1).saturating_sub(len)
        ),
        (None, None) => "none looked at".into(),
    }
}

/// Prints the summary: JSON, or a few lines.
fn summary(a: &RecordArgs, game: &Game, run: &RecordRun, files: &[String], secs: f64) {
    if a.json {
        let j = serde_json::json!({
            "game": game.to_string(),
            "max": run.max,
            "largest_value": run.largest,
            "largest_first_at": run.largest_at,
            "mask": run.mask.map(|m| m.to_string()),
            "rare_count": run.rare.len(),
            "rare": run.rare.iter().map(|(n, v)| [*n, u64::from(*v)]).collect::<Vec<_>>(),
            "frequencies": run.freq,
            "period": run.period.map(|(n0, p)| serde_json::json!({"preperiod": n0, "period": p})),
            "tail_values": run.tail.map(|t| t.0),
            "periods_excluded_below": run.tail.map(|t| t.1),
            "keep": run.keep,
            "keep_asked": run.keep_asked,
            "window": run.window,
            "planned_bytes": run.planned_bytes,
            "resumed_at": run.resumed_at,
            "files": files,
            "seconds": (secs * 1000.0).round() / 1000.0,
        });
        println!("{j}");
        return;
    }
    println!(
        "{game} to N = {}: largest value {}, first at heap {}; {} rare positions ({}), the last at {}",
        run.max,
        run.largest,
        run.largest_at,
        run.rare.len(),
        run.mask.map_or("no mask".into(), |m| m.to_string()),
        run.rare.last().map_or("none".into(), |r| format!("heap {} (value {})", r.0, r.1))
    );
    println!("periods: {}", periods(run));
    let grown = if run.keep > run.keep_asked {
        format!(
            " (grown from {} to hold every rare position)",
            run.keep_asked
        )
    } else {
        String::new()
    };
    println!(
        "kept {} values at the start{grown} and {} recent ones; planned peak memory {}; {:.1} s",
        run.keep,
        run.window,
        size(run.planned_bytes),
        secs
    );
    match files.len() {
        0 => println!("no files written (--snapshots DIR writes the frequencies)"),
        n => println!("wrote {n} files: {} … {}", files[0], files[n - 1]),
    }
}
