//! Long Grundy tables in segments (`heaplab table --grundy --checkpoint FILE
//! --snapshots DIR`): the library grows the table segment by segment and says when a
//! checkpoint is due and when a power of two is passed
//! ([`heaplab_core::saved::grundy::in_segments`], with the checkpoint format and the checks
//! a saved table passes); here the files: the checkpoint written atomically, read back
//! and refused in one line when it fails a check, and the value frequencies over 0..=2^k
//! written as each 2^k is passed.

use crate::files::AtomicFile;
use crate::progress::Progress;
use anyhow::{bail, Context, Result};
use heaplab_core::saved::grundy;
use heaplab_core::{Game, GrundyTable};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// What a segmented run was asked for.
pub struct Segmented<'a> {
    pub game: &'a Game,
    pub max: u64,
    pub checkpoint: Option<&'a Path>,
    /// Most seconds between checkpoints (the first after 10 s, then doubling up to this).
    pub every: f64,
    pub snapshots: Option<&'a Path>,
    /// The whole run's estimate: announced for what is left once the checkpoint is read.
    pub plan: &'a heaplab_core::Estimate,
}

/// Writes the checkpoint of `table` (values 0..table.len() of `game`) to `path`
/// atomically ([`heaplab_core::saved::grundy::encode`]).
pub fn save(path: &Path, game: &Game, table: &GrundyTable) -> Result<()> {
    let key = crate::sink::checkpoint_key(path)?;
    AtomicFile::write_whole(path, &grundy::encode(game, table, key), "checkpoint")?;
    Ok(())
}

/// Reads the checkpoint at `path` for `game`: None when there is none; an error naming
/// the problem when it is damaged, from another heaplab version or format, of another
/// game, or its values are not the game's.
pub fn load(path: &Path, game: &Game) -> Result<Option<GrundyTable>> {
    let key = crate::sink::checkpoint_key(path)?;
    let Some(table) = crate::sink::read_checkpoint(path, |b| grundy::decode(b, game, key))? else {
        return Ok(None);
    };
    // The first values again from the definition's engines: a file of another game
    // that was given this game's name is refused too.
    if let Err(why) = grundy::verify(game, &table)? {
        bail!(
            "checkpoint `{}` {why}; remove it to start over",
            path.display()
        );
    }
    Ok(Some(table))
}

/// The snapshot file of 2^k in `dir`.
pub fn snapshot_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("freq-2^{k}.txt"))
}

/// Writes the value frequencies of `table` over the heaps 1..=2^k to `dir` (atomically),
/// as record tables publish them (e.g. the sparse-space solver's `results/CODE/2^k` files,
/// github rogalski-wmii-uni-lodz-pl/octal): one line `value frequency` for every value from
/// 0 to the largest, zero counts included, and nothing else.
fn write_snapshot(dir: &Path, game: &Game, table: &GrundyTable, k: u32) -> Result<PathBuf> {
    let (freq, _) = heaplab_core::record::frequencies(table, 1u64 << k);
    write_frequencies(dir, game, k, &freq)
}

/// The file in a snapshot folder naming the game its snapshots are of.
const GAME_FILE: &str = "game.txt";

/// Writes `freq` (`freq[v]` heaps among 1..=2^k have value v) as the snapshot of 2^k of
/// `game` in `dir`, atomically, in the record tables' format (see [`write_snapshot`]);
/// the folder's `game.txt` names the game (written with the first snapshot, so that a
/// folder a failed run made stays empty and is removed).
pub fn write_frequencies(dir: &Path, game: &Game, k: u32, freq: &[u64]) -> Result<PathBuf> {
    let marker = dir.join(GAME_FILE);
    if !marker.exists() {
        AtomicFile::write_whole(&marker, format!("{game}\n").as_bytes(), "snapshot folder")?;
    }
    let path = snapshot_path(dir, k);
    let file = AtomicFile::create(&path)?;
    {
        let mut w = BufWriter::new(file.file()?);
        freq.iter()
            .enumerate()
            .try_for_each(|(v, f)| writeln!(w, "{v} {f}"))
            .and_then(|_| w.flush())
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    file.commit()
}

/// Makes the snapshot folder `dir` if missing (the guard removes what it made if the run
/// fails); fails when `dir` is a file or cannot be made, or holds the snapshots of another
/// game than `game` (its `game.txt`: a folder of one game's snapshots never mixes in
/// another's; a folder from before heaplab wrote `game.txt` is taken as it is).
pub fn prepare_snapshots(dir: &Path, game: &Game) -> Result<crate::cleanup::MadeDirs> {
    if dir.exists() && !dir.is_dir() {
        bail!(
            "--snapshots `{}` is not a folder; pick a folder for the frequency files",
            dir.display()
        );
    }
    let marker = dir.join(GAME_FILE);
    if marker.is_file() {
        let text = std::fs::read_to_string(&marker)
            .with_context(|| format!("cannot read `{}`", marker.display()))?;
        let theirs = text.trim();
        if theirs != game.to_string() {
            bail!(
                "the snapshot folder `{}` holds the snapshots of `{theirs}` (its {GAME_FILE}), not of `{game}`; pick another folder",
                dir.display()
            );
        }
    }
    // (snapshots written stay when the run is interrupted: a resumed run goes on from them)
    crate::cleanup::make_dirs_kept(dir)
        .with_context(|| format!("cannot make the snapshot folder `{}`", dir.display()))
}

/// Refuses an output inside the snapshot folder `dir` (made already, so that paths in it
/// compare by their real folder): each `(flag, path)` given must lie outside it.
pub fn refuse_inside(dir: &Path, outputs: &[(&str, Option<&Path>)]) -> Result<()> {
    let key = crate::files::same_file_key(dir);
    for &(flag, p) in outputs {
        if let Some(p) = p.filter(|p| crate::files::same_file_key(p).starts_with(&key)) {
            bail!(
                "{flag} `{}` is in the snapshot folder `{}`; keep it outside",
                p.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// What the command line does between segments: save the checkpoint, write the value
/// frequencies of each 2^k passed.
struct Hooks<'a> {
    s: &'a Segmented<'a>,
    snaps: Vec<PathBuf>,
}

impl grundy::Segments for Hooks<'_> {
    fn save(&mut self, table: &GrundyTable) -> std::result::Result<(), String> {
        match self.s.checkpoint {
            Some(cp) => save(cp, self.s.game, table).map_err(|e| format!("{e:#}")),
            None => Ok(()),
        }
    }
    fn passed(&mut self, table: &GrundyTable, k: u32) -> std::result::Result<(), String> {
        if let Some(dir) = self.s.snapshots {
            let p = write_snapshot(dir, self.s.game, table, k).map_err(|e| format!("{e:#}"))?;
            self.snaps.push(p);
        }
        Ok(())
    }
}

/// The estimate of a run of 0..=max (`plan`) for what is left once positions 0..from are
/// known: the cost to n grows as n^growth ([`heaplab_core::Estimate::growth`]), so
/// seconds·(1 − (from/(max + 1))^growth) are left.
fn left_of(plan: &heaplab_core::Estimate, from: u64, max: u64) -> heaplab_core::Estimate {
    let mut left = *plan;
    let done = (from as f64 / max.saturating_add(1) as f64).min(1.0);
    left.seconds *= 1.0 - done.powf(left.growth.max(1.0));
    left
}

/// The Grundy table 0..=max of a [`Segmented`] run
/// ([`heaplab_core::saved::grundy::in_segments`]), resumed from its checkpoint when one
/// exists, saving and writing snapshots as it goes; the snapshot files written, and whether
/// the checkpoint holds more than this run needs (a longer run's: it is read, never
/// written, and stays for that run to resume), and the heap the run resumed at (None: it
/// started from heap 0).
pub fn run(
    s: &Segmented,
    progress: &Progress,
) -> Result<(GrundyTable, Vec<PathBuf>, bool, Option<u64>)> {
    let table = match s.checkpoint {
        Some(cp) => load(cp, s.game)?,
        None => None,
    };
    let longer = table
        .as_ref()
        .is_some_and(|t| t.len() as u64 > s.max.saturating_add(1));
    if let (Some(t), Some(cp)) = (&table, s.checkpoint) {
        if !crate::progress::quiet() {
            if longer {
                eprintln!(
                    "heaplab: checkpoint `{}` holds {} to n = {}, past N = {}: its values \
                     are used, and it is kept for the longer run",
                    cp.display(),
                    s.game,
                    t.len() - 1,
                    s.max
                );
            } else {
                eprintln!(
                    "heaplab: resuming {} from checkpoint `{}` at n = {}",
                    s.game,
                    cp.display(),
                    t.len()
                );
            }
        }
    }
    // what is left, announced (a resumed run announced the whole run's before)
    let from = table.as_ref().map_or(0, |t| t.len() as u64);
    heaplab_core::Observer::planned(progress, &left_of(s.plan, from, s.max));
    let keep = Segmented {
        checkpoint: if longer { None } else { s.checkpoint },
        ..*s
    };
    let mut hooks = Hooks {
        s: &keep,
        snaps: vec![],
    };
    let resumed = table.as_ref().map(|t| t.len() as u64);
    let t = grundy::in_segments(s.game, s.max, table, s.every, progress, &mut hooks)?;
    Ok((t, hooks.snaps, longer, resumed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::Silent;

    #[test]
    fn a_resumed_run_is_estimated_for_what_is_left() {
        // squares to 10^9 (6.3 hours, cost growing as n^1.5) resumed at a quarter: 7/8 left
        // (it announced the whole 6.3 hours at every resume)
        let plan = heaplab_core::Estimate {
            task: heaplab_core::Task::Grundy,
            max: 1_000_000_000,
            engine: heaplab_core::Engine::BlockedMex,
            memory: 1 << 31,
            seconds: 6.3 * 3600.0,
            growth: 1.5,
        };
        let left = left_of(&plan, 250_000_000, 999_999_999);
        assert!(
            (left.seconds - 6.3 * 3600.0 * 0.875).abs() < 1.0,
            "{}",
            left.seconds
        );
        assert_eq!(left_of(&plan, 0, 999_999_999).seconds, plan.seconds);
        assert_eq!(left_of(&plan, 1_000_000_000, 999_999_999).seconds, 0.0);
        // a linear cost: half left at half
        let flat = heaplab_core::Estimate {
            growth: 1.0,
            ..plan
        };
        assert!(
            (left_of(&flat, 500_000_000, 999_999_999).seconds - plan.seconds / 2.0).abs() < 1.0
        );
    }

    #[test]
    fn saved_tables_load_back() {
        let d = tempfile::tempdir().unwrap();
        let g = Game::parse("0.6").unwrap();
        for t in [
            heaplab_core::grundy_table(&g, 5000, &Silent).unwrap(),
            GrundyTable::U16(
                heaplab_core::grundy_table(&g, 15, &Silent)
                    .unwrap()
                    .to_u32_vec()
                    .iter()
                    .map(|&x| x as u16)
                    .collect(),
            ),
        ] {
            let path = d.path().join("c.ckpt");
            save(&path, &g, &t).unwrap();
            let back = load(&path, &g).unwrap().unwrap();
            assert_eq!(back.to_u32_vec(), t.to_u32_vec());
        }
        // a table of other values under this game's name
        let path = d.path().join("w.ckpt");
        save(&path, &g, &GrundyTable::U8(vec![0, 1, 1])).unwrap();
        let e = load(&path, &g).unwrap_err().to_string();
        assert!(e.contains("says g(1) = 1 but 0.6 has g(1) = 0"), "{e}");
    }
}
