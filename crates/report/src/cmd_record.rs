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

/// Every value of the run on disk, two bytes each (little-endian), in order: what the
/// record mode reads back for the rare heaps that need values no longer in memory.
struct Spill {
    path: PathBuf,
    w: BufWriter<std::fs::File>,
    /// Values written.
    len: u64,
    /// The hash of the values written ([`mix`]), kept in `SPILL.sum` with each checkpoint.
    hash: u64,
}

/// The spill file's hash before any value (FNV-1a's offset basis).
const HASH0: u64 = 0xcbf2_9ce4_8422_2325;

/// The spill file's hash `h` after one more value `v`, FNV-1a over 16-bit values: damage
/// to any value changes it.
fn mix(h: u64, v: u16) -> u64 {
    (h ^ u64::from(v)).wrapping_mul(0x0000_0100_0000_01b3)
}

/// The file beside the spill file that holds `n hash` of its values at the last checkpoint.
fn sum_path(spill: &Path) -> PathBuf {
    crate::sink::side_path(spill, ".sum")
}

impl Spill {
    /// Opens the spill file at `path` for a run at heap `n` (0: a fresh run, the file made
    /// anew). A resumed run's file must hold its n values: Ok(Err(why)) when it is missing
    /// or shorter, an error when its values are not those the checkpoint's run wrote (their
    /// hash at the last checkpoint, in `SPILL.sum`, differs: the file is damaged).
    fn open(path: &Path, n: u64) -> Result<std::result::Result<Spill, String>> {
        let file = if n == 0 {
            let _ = std::fs::remove_file(sum_path(path));
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
        } else {
            match std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
            {
                Ok(f) => {
                    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
                    if len < 2 * n {
                        return Ok(Err(format!(
                            "the spill file `{}` holds {} of the {n} values before the checkpoint",
                            path.display(),
                            len / 2
                        )));
                    }
                    Ok(f)
                }
                Err(_) => {
                    return Ok(Err(format!("no spill file `{}`", path.display())));
                }
            }
        }
        .with_context(|| format!("cannot open the spill file `{}`", path.display()))?;
        let hash = if n == 0 {
            HASH0
        } else {
            check(path, &file, n)?
        };
        file.set_len(2 * n)
            .with_context(|| format!("cannot cut the spill file `{}`", path.display()))?;
        let mut w = BufWriter::with_capacity(1 << 20, file);
        std::io::Seek::seek(&mut w, std::io::SeekFrom::Start(2 * n))?;
        Ok(Ok(Spill {
            path: path.to_path_buf(),
            w,
            len: n,
            hash,
        }))
    }

    /// Records the hash of the values written so far in `SPILL.sum` (after a checkpoint).
    fn write_sum(&self) -> std::result::Result<(), String> {
        let body = format!("{} {:016x}\n", self.len, self.hash);
        AtomicFile::write_whole(&sum_path(&self.path), body.as_bytes(), "spill sum")
            .map(|_| ())
            .map_err(|e| format!("{e:#}"))
    }

    fn push(&mut self, from: u64, values: &[u32]) -> std::result::Result<(), String> {
        if from != self.len {
            return Err(format!(
                "the spill file `{}` is out of step",
                self.path.display()
            ));
        }
        for &v in values {
            let v = u16::try_from(v).map_err(|_| {
                format!(
                    "a value reached {v}: the spill file holds values below 2^16 (use --no-spill)"
                )
            })?;
            self.hash = mix(self.hash, v);
            self.w.write_all(&v.to_le_bytes()).map_err(|e| {
                format!("cannot write the spill file `{}`: {e}", self.path.display())
            })?;
        }
        self.len += values.len() as u64;
        Ok(())
    }

    /// Writes what is buffered and waits until the file's data is on disk.
    fn sync(&mut self) -> std::result::Result<(), String> {
        let why = |e: std::io::Error| {
            format!("cannot write the spill file `{}`: {e}", self.path.display())
        };
        self.w.flush().map_err(why)?;
        self.w.get_ref().sync_data().map_err(why)
    }

    fn read(&mut self, from: u64, out: &mut [u32]) -> std::result::Result<(), String> {
        let why = |e: std::io::Error| {
            format!("cannot read the spill file `{}`: {e}", self.path.display())
        };
        self.w.flush().map_err(why)?;
        let mut buf = vec![0u8; out.len() * 2];
        #[cfg(unix)]
        std::os::unix::fs::FileExt::read_exact_at(self.w.get_ref(), &mut buf, from * 2)
            .map_err(why)?;
        #[cfg(not(unix))]
        {
            use std::io::{Read, Seek};
            let mut f = self.w.get_ref().try_clone().map_err(why)?;
            f.seek(std::io::SeekFrom::Start(from * 2)).map_err(why)?;
            f.read_exact(&mut buf).map_err(why)?;
            self.w
                .get_mut()
                .seek(std::io::SeekFrom::Start(self.len * 2))
                .map_err(why)?;
        }
        for (o, c) in out.iter_mut().zip(buf.chunks_exact(2)) {
            *o = u32::from(u16::from_le_bytes([c[0], c[1]]));
        }
        Ok(())
    }
}

/// The hash of the first `n` values of the spill `file`, checked against `SPILL.sum` where
/// it was recorded (at heap m <= the file's length): an error naming the damage when it
/// differs. Without a sum file (a run of an older heaplab) the values are taken unchecked,
/// and said so.
fn check(path: &Path, file: &std::fs::File, n: u64) -> Result<u64> {
    let sum = std::fs::read_to_string(sum_path(path)).ok().and_then(|t| {
        let mut it = t.split_whitespace();
        let m: u64 = it.next()?.parse().ok()?;
        let h = u64::from_str_radix(it.next()?, 16).ok()?;
        Some((m, h))
    });
    let len = file.metadata().map(|m| m.len() / 2).unwrap_or(0);
    let upto = match sum {
        Some((m, _)) if m <= len => n.max(m),
        _ => n,
    };
    if upto >= 1 << 28 && !crate::progress::quiet() {
        eprintln!(
            "heaplab: checking the spill file `{}` ({})",
            path.display(),
            size(2 * upto)
        );
    }
    let mut r = std::io::BufReader::with_capacity(1 << 23, file);
    std::io::Seek::seek(&mut r, std::io::SeekFrom::Start(0))?;
    let (mut h, mut at_n, mut at_m) = (HASH0, None, None);
    let mut buf = vec![0u8; 1 << 23];
    let mut x = 0u64;
    while x < upto {
        let take = ((upto - x) * 2).min(buf.len() as u64) as usize;
        std::io::Read::read_exact(&mut r, &mut buf[..take])
            .with_context(|| format!("cannot read the spill file `{}`", path.display()))?;
        for c in buf[..take].chunks_exact(2) {
            if x == n {
                at_n = Some(h);
            }
            if sum.is_some_and(|(m, _)| m == x) {
                at_m = Some(h);
            }
            h = mix(h, u16::from_le_bytes([c[0], c[1]]));
            x += 1;
        }
    }
    let at_n = at_n.unwrap_or(h);
    if sum.is_some_and(|(m, _)| m == x) {
        at_m = Some(h);
    }
    match (sum, at_m) {
        (Some((m, want)), Some(got)) if got != want => bail!(
            "the spill file `{}` does not hold the values it held at heap {m} (damaged); \
             remove it to go on without it, or start over",
            path.display()
        ),
        (Some(_), Some(_)) => {}
        _ if !crate::progress::quiet() => eprintln!(
            "heaplab: the spill file `{}` has no sum of its values to check them by; taken as it is",
            path.display()
        ),
        _ => {}
    }
    Ok(at_n)
}

/// What the command line does during a run.
struct Hooks<'a> {
    a: &'a RecordArgs,
    game: &'a Game,
    snaps: Vec<PathBuf>,
    values: Option<BufWriter<std::fs::File>>,
    spill: Option<Spill>,
    /// When the run started, and whether the measured rate has been told.
    t0: Instant,
    told: bool,
}

impl RecordHooks for Hooks<'_> {
    fn passed(&mut self, k: u32, freq: &[u64]) -> std::result::Result<(), String> {
        if let Some(dir) = &self.a.snapshots {
            let p = crate::segments::write_frequencies(dir, self.game, k, freq)
                .map_err(|e| format!("{e:#}"))?;
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
        // the spill file holds every value the checkpoint does before the checkpoint is
        // replaced (a resume reads it up to the checkpoint's heap)
        if let Some(s) = &mut self.spill {
            s.sync()?;
        }
        let key = crate::sink::checkpoint_key(cp).map_err(|e| format!("{e:#}"))?;
        AtomicFile::write_whole(cp, &record::encode(self.game, state, key), "checkpoint")
            .map_err(|e| format!("{e:#}"))?;
        match &self.spill {
            Some(s) => s.write_sum(),
            None => Ok(()),
        }
    }

    fn values(&mut self, from: u64, values: &[u32]) -> std::result::Result<(), String> {
        if let Some(s) = &mut self.spill {
            s.push(from, values)?;
        }
        let Some(w) = &mut self.values else {
            return Ok(());
        };
        let name = self.a.values.as_deref().unwrap_or(Path::new("-")).display();
        write_values(w, from, values)
            .map_err(|e| format!("cannot write the values file `{name}`: {e}"))
    }

    fn can_fetch(&self) -> bool {
        self.spill.is_some()
    }

    fn fetch(&mut self, from: u64, out: &mut [u32]) -> std::result::Result<bool, String> {
        match &mut self.spill {
            Some(s) => s.read(from, out).map(|_| true),
            None => Ok(false),
        }
    }
}

/// Reads the checkpoint at `path` for `game`: None when there is none; one line naming
/// the problem when it cannot be resumed.
fn load(path: &Path, game: &Game) -> Result<Option<RecordState>> {
    let key = crate::sink::checkpoint_key(path)?;
    crate::sink::read_checkpoint(path, |b| record::decode(b, game, key))
}

/// Refuses an output inside the snapshot folder ([`crate::segments::refuse_inside`]):
/// `--values`, `--checkpoint` and the spill file named by `--spill` (`spill`).
fn check_outside_snapshots(a: &RecordArgs, spill: Option<&Path>) -> Result<()> {
    match &a.snapshots {
        Some(dir) => crate::segments::refuse_inside(
            dir,
            &[
                ("--values", a.values.as_deref()),
                ("--checkpoint", a.checkpoint.as_deref()),
                ("--spill", spill),
            ],
        ),
        None => Ok(()),
    }
}

/// Makes the snapshot folder (the guard removes it if the run fails) and checks that it
/// has room and, for a run that lists rare positions (`rare`), that `rare.txt` can be
/// written there.
fn prepare(a: &RecordArgs, rare: bool) -> Result<Option<crate::cleanup::MadeDirs>> {
    let Some(dir) = &a.snapshots else {
        return Ok(None);
    };
    let made = crate::segments::prepare_snapshots(dir, &a.game)?;
    if rare {
        AtomicFile::check(&dir.join("rare.txt"))?;
    }
    let need = 64 * 8 * 4096u64;
    if crate::machine::free_space(dir).is_some_and(|f| f < need) {
        bail!(
            "the snapshot folder `{}` has less than {} free",
            dir.display(),
            size(need)
        );
    }
    Ok(Some(made))
}

/// Opens `--values` (a b-file of heaps 0..=N), refused when the disk will not hold it.
fn open_values(a: &RecordArgs) -> Result<Option<AtomicFile>> {
    let Some(p) = &a.values else {
        return Ok(None);
    };
    let digits = a.max.to_string().len() as u64;
    let need = (a.max + 1).saturating_mul(digits + 5);
    if crate::machine::free_space(p).is_some_and(|f| f < need) {
        bail!(
            "--values `{}` would take about {}, more than is free there",
            p.display(),
            size(need)
        );
    }
    Ok(Some(AtomicFile::create(p)?))
}

/// Writes `values` (of heaps from, from + 1, …) as b-file lines `n g(n)`.
fn write_values(w: &mut impl Write, from: u64, values: &[u32]) -> std::io::Result<()> {
    (from..)
        .zip(values)
        .try_for_each(|(n, v)| writeln!(w, "{n} {v}"))
}

/// A record run that keeps the whole table ([`record::RecordWay::WholeTable`]: a
/// subtraction game such as `squares`): the table grown in segments with checkpoints and
/// snapshots ([`crate::segments::run`]), then the b-file and the summary.
fn run_whole(a: &RecordArgs, t0: Instant) -> Result<ExitCode> {
    let game = &a.game;
    if a.spill.is_some() || a.no_spill {
        bail!("{game} keeps every value in memory in a record run: --spill and --no-spill are for take-and-break codes");
    }
    if let (Some(cp), Some(v)) = (&a.checkpoint, &a.values) {
        if crate::files::same_file_key(cp) == crate::files::same_file_key(v) {
            bail!("--checkpoint must be another file than --values");
        }
    }
    // memory up front: the whole table (a run that saves its state may take days)
    let long = heaplab_core::Budget {
        seconds: f64::INFINITY,
        ..crate::machine::budget()
    };
    let plan = heaplab_core::plan_table(game, a.max, &long)?;
    let made = prepare(a, false)?;
    check_outside_snapshots(a, None)?;
    let _lock = a
        .checkpoint
        .as_deref()
        .map(crate::sink::CheckpointLock::take)
        .transpose()?;
    let values_file = open_values(a)?;
    let progress = Progress::new(&format!("record {game} to {}", a.max), a.max + 1);
    let s = crate::segments::Segmented {
        game,
        max: a.max,
        checkpoint: a.checkpoint.as_deref(),
        every: a.checkpoint_every,
        snapshots: a.snapshots.as_deref(),
        plan: &plan,
    };
    let (table, snaps, longer, resumed) = crate::segments::run(&s, &progress)?;
    progress.finish();
    let mut run = record::whole_table_run(&table);
    run.planned_bytes = plan.memory;
    run.resumed_at = resumed;
    let mut files: Vec<String> = snaps.iter().map(|p| p.display().to_string()).collect();
    if let Some(f) = values_file {
        let mut w = BufWriter::with_capacity(1 << 20, f.file()?);
        let name = a
            .values
            .as_deref()
            .unwrap_or(Path::new("-"))
            .display()
            .to_string();
        let len = table.len();
        let mut from = 0;
        while from < len {
            let to = (from + (1 << 20)).min(len);
            write_values(&mut w, from as u64, &table.slice_u32(from, to))
                .with_context(|| format!("cannot write the values file `{name}`"))?;
            from = to;
        }
        w.flush()
            .with_context(|| format!("cannot write the values file `{name}`"))?;
        drop(w);
        files.push(f.commit()?.display().to_string());
    }
    made.into_iter().for_each(crate::cleanup::MadeDirs::keep);
    if let Some(cp) = a.checkpoint.as_ref().filter(|_| !longer) {
        crate::sink::remove_finished(cp)?;
    }
    summary(a, game, &run, &files, t0.elapsed().as_secs_f64(), true);
    Ok(ExitCode::SUCCESS)
}

/// Runs the command.
pub fn run(a: RecordArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let game = a.game.clone();
    let way = record::record_way(&game)?;
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
    let br = match way {
        record::RecordWay::Sparse(br) => br,
        record::RecordWay::WholeTable => return run_whole(&a, t0),
    };
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
    // the spill file: --spill, else beside the checkpoint, else a temporary one here
    let spill_path: Option<PathBuf> = match (&a.spill, &a.checkpoint, a.no_spill) {
        (_, _, true) => None,
        (Some(p), _, _) => Some(p.clone()),
        (None, Some(cp), _) => Some(crate::sink::side_path(cp, ".spill")),
        (None, None, _) => Some(PathBuf::from(format!(
            ".heaplab-record-{}.spill",
            std::process::id()
        ))),
    };
    if let Some(sp) = &spill_path {
        let key = crate::files::same_file_key(sp);
        for (flag, p) in [
            ("--values", a.values.as_deref()),
            ("--checkpoint", a.checkpoint.as_deref()),
        ] {
            if p.is_some_and(|p| crate::files::same_file_key(p) == key) {
                bail!("--spill must be another file than {flag}");
            }
        }
    }
    let made = prepare(&a, true)?;
    check_outside_snapshots(&a, spill_path.as_deref().filter(|_| a.spill.is_some()))?;
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
            // snapshots are written as the run passes 2^k: those before the checkpoint
            // are not written again
            if let Some(dir) = &a.snapshots {
                let missing: Vec<u32> = (record::SNAP_FROM..64)
                    .take_while(|&k| 1u64 << k < s.n)
                    .filter(|&k| !crate::segments::snapshot_path(dir, k).exists())
                    .collect();
                if let (Some(lo), Some(hi)) = (missing.first(), missing.last()) {
                    eprintln!(
                        "heaplab: {} snapshots between 2^{lo} and 2^{hi}, before the checkpoint, are not in `{}` and will not be written (rerun without the checkpoint to have them)",
                        missing.len(),
                        dir.display()
                    );
                }
            }
        }
    }
    let values_file = open_values(&a)?;
    let at = saved.as_ref().map_or(0, |s| s.n);
    if let Some(sp) = a.spill.as_ref().filter(|p| at == 0 && p.exists()) {
        bail!(
            "--spill `{}` exists: a fresh run makes its spill file itself; remove it or name another",
            sp.display()
        );
    }
    let spill = match &spill_path {
        Some(p) => {
            let need = 2 * (a.max + 1);
            if at == 0 && crate::machine::free_space(p).is_some_and(|f| f < need) {
                bail!(
                    "the spill file `{}` needs about {} (2 bytes a value), more than is free there; \
                     use --spill FILE elsewhere, or --no-spill",
                    p.display(),
                    size(need)
                );
            }
            match Spill::open(p, at)? {
                Ok(s) => {
                    if a.checkpoint.is_none() {
                        // No checkpoint can resume it: on Unix the file goes from its
                        // folder now and lives while the run holds it open, so nothing is
                        // left behind however the run ends (a kill, a closed pipe).
                        #[cfg(unix)]
                        let _ = std::fs::remove_file(p);
                    }
                    Some(s)
                }
                Err(why) => {
                    if !crate::progress::quiet() {
                        eprintln!(
                            "heaplab: {why}: a heap that needs values no longer in memory \
                             will stop the run"
                        );
                    }
                    None
                }
            }
        }
        None => None,
    };
    // without a checkpoint the spill file goes when the run is interrupted; one beside a
    // checkpoint stays for the resume
    let _spill_guard = spill
        .as_ref()
        .filter(|_| a.checkpoint.is_none())
        .map(|s| crate::cleanup::Pending::new(s.path.clone()));
    let progress = Progress::new(&format!("record {game} to {}", a.max), a.max + 1);
    let mut hooks = Hooks {
        a: &a,
        game: &game,
        snaps: vec![],
        values: values_file
            .as_ref()
            .map(|f| f.file().map(BufWriter::new))
            .transpose()?,
        spill,
        t0,
        told: false,
    };
    let keep = saved.as_ref().map_or(a.keep, |s| s.keep);
    // an interrupt lets a run with a checkpoint save it first
    let saver = a
        .checkpoint
        .as_ref()
        .map(|_| crate::cleanup::SaveOnStop::new());
    let run = record::record_run(
        &game,
        a.max,
        keep,
        saved,
        a.checkpoint_every,
        &progress,
        &mut hooks,
    );
    // the spill file stays only for a checkpoint to resume from: it goes when the run is
    // done, when there is no checkpoint, or none was saved yet (also one a resume found
    // short or missing: the run no longer needs it)
    if let Some(s) = hooks.spill.take() {
        drop(s.w);
    }
    let resumable = run.is_err() && a.checkpoint.as_ref().is_some_and(|cp| cp.exists());
    if let Some(p) = spill_path.as_ref().filter(|_| !resumable) {
        let _ = std::fs::remove_file(p);
        let _ = std::fs::remove_file(sum_path(p));
    }
    if let (Err(heaplab_core::Error::Cancelled { done }), Some(cp)) = (&run, &a.checkpoint) {
        if crate::cleanup::stop_requested() {
            progress.finish();
            if cp.exists() {
                eprintln!(
                    "heaplab: stopped at heap {done}; checkpoint `{}` saved: rerun the same command to resume",
                    cp.display()
                );
            } else {
                eprintln!(
                    "heaplab: stopped at heap {done}, in the first phase (the whole table to 2·keep), before any checkpoint: nothing saved"
                );
            }
            drop(hooks);
            drop(saver);
            // (the handler ends the process with code 130 once the saver is gone)
            return Ok(ExitCode::from(130));
        }
    }
    drop(saver);
    let run = run?;
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
        crate::sink::remove_finished(cp)?;
    }
    summary(&a, &game, &run, &files, t0.elapsed().as_secs_f64(), false);
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

/// Prints the summary: JSON, or a few lines (`whole`: the run kept the whole table).
fn summary(a: &RecordArgs, game: &Game, run: &RecordRun, files: &[String], secs: f64, whole: bool) {
    if a.json {
        let j = serde_json::json!({
            "game": game.to_string(),
            "max": run.max,
            "largest_value": run.largest,
            "largest_first_at": run.largest_at,
            "mask": run.mask.map(|m| serde_json::json!({
                "type": if m.domain { "domain" } else { "range" },
                "bits": m.bits,
                "rare_class": m.rare,
                "text": m.to_string(),
            })),
            "rare_count": run.rare.len(),
            "rare": run.rare.iter().map(|(n, v)| [*n, u64::from(*v)]).collect::<Vec<_>>(),
            "frequencies": run.freq,
            "period": run.period.map(|(n0, p)| serde_json::json!({"preperiod": n0, "period": p})),
            "tail_values": run.tail.map(|t| t.0),
            "periods_excluded_below": run.tail.map(|t| t.1),
            "whole_table": whole,
            "keep": run.keep,
            "keep_asked": run.keep_asked,
            "window": run.window,
            "planned_bytes": run.planned_bytes,
            "resumed_at": run.resumed_at,
            "fallbacks": run.fallbacks,
            "files": files,
            "seconds": (secs * 1000.0).round() / 1000.0,
        });
        println!("{j}");
        return;
    }
    if whole {
        println!(
            "{game} to N = {}: largest value {}, first at heap {}",
            run.max, run.largest, run.largest_at
        );
        println!(
            "kept the whole table ({} values); planned peak memory {}; {:.1} s",
            run.keep,
            size(run.planned_bytes),
            secs
        );
        return written(files);
    }
    println!(
        "{game} to N = {}: largest value {}, first at heap {}; {} rare positions ({}), the last: {}",
        run.max,
        run.largest,
        run.largest_at,
        run.rare.len(),
        run.mask.map_or("no mask".into(), |m| m.to_string()),
        run.rare.last().map_or("none".into(), |r| format!("heap {} (value {})", r.0, r.1))
    );
    if !run.fallbacks.is_empty() {
        let show: Vec<String> = run.fallbacks.iter().take(10).map(u64::to_string).collect();
        println!(
            "{} heaps needed values no longer in memory, read back from the spill file: {}{}",
            run.fallbacks.len(),
            show.join(", "),
            if run.fallbacks.len() > 10 {
                ", …"
            } else {
                ""
            }
        );
    }
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
    written(files);
}

/// Prints the files written, in one line.
fn written(files: &[String]) {
    match files.len() {
        0 => println!("no files written (--snapshots DIR writes the frequencies)"),
        1 => println!("wrote {}", files[0]),
        n => println!("wrote {n} files: {} … {}", files[0], files[n - 1]),
    }
}
