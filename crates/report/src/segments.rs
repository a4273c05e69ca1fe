//! Long Grundy tables in segments (`heaplab table --grundy --checkpoint FILE
//! --snapshots DIR`): the table grows segment by segment
//! ([`heaplab_core::grundy_table_after`]), every segment ending at the next power of two
//! or sooner (so one takes about the time between checkpoints; only at powers of two when
//! the engine makes the whole table again, [`heaplab_core::grundy_continues`]), the values so far are
//! saved to the checkpoint every few minutes, and the value frequencies over 0..=2^k are
//! written as each 2^k is passed.
//!
//! A checkpoint file is `HLGRUNDY`, its format version and the heaplab version, the game's
//! canonical spec, the value width (1, 2 or 4 bytes), the number of values and the values
//! (little-endian), then the xxh3-64 of everything before it. It is resumed only when the
//! checksum, both versions and the game agree, and its first values equal a fresh
//! computation; anything else is refused in one line. Values depend on nothing but the
//! game, so a resumed run's table is byte-identical to an uninterrupted one.

use crate::files::AtomicFile;
use crate::progress::Progress;
use crate::sink::{HashWrite, Hashed};
use anyhow::{bail, Context, Result};
use heaplab_core::{
    grundy_continues, grundy_table, grundy_table_after, Game, GrundyTable, Observer, Silent,
};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use xxhash_rust::xxh3::xxh3_64;

const MAGIC: &[u8; 8] = b"HLGRUNDY";
/// Version of the file layout.
const FORMAT: u32 = 1;
/// Values of a resumed checkpoint recomputed and compared, at most.
const RECHECK: u64 = 4096;
/// The first segment, and the least one after it.
const MIN_SEGMENT: u64 = 1 << 16;
/// Snapshots start at 2^SNAP_FROM.
const SNAP_FROM: u32 = 10;

/// What a segmented run was asked for.
pub struct Segmented<'a> {
    pub game: &'a Game,
    pub max: u64,
    pub checkpoint: Option<&'a Path>,
    /// Most seconds between checkpoints (the first after 10 s, then doubling up to this).
    pub every: f64,
    pub snapshots: Option<&'a Path>,
}

/// The game's spec as checkpoints name it.
fn spec(game: &Game) -> String {
    game.to_string()
}

/// Writes the checkpoint of `table` (values 0..table.len() of `game`) to `path`
/// atomically.
pub fn save(path: &Path, game: &Game, table: &GrundyTable) -> Result<()> {
    let file = AtomicFile::create(path)?;
    {
        let sum = Hashed::new();
        let mut w = BufWriter::with_capacity(
            1 << 20,
            HashWrite {
                file: file.file()?,
                sum: sum.clone(),
            },
        );
        let name = spec(game);
        let version = env!("CARGO_PKG_VERSION");
        let mut write = || -> std::io::Result<()> {
            w.write_all(MAGIC)?;
            w.write_all(&FORMAT.to_le_bytes())?;
            w.write_all(&(version.len() as u32).to_le_bytes())?;
            w.write_all(version.as_bytes())?;
            w.write_all(&(name.len() as u32).to_le_bytes())?;
            w.write_all(name.as_bytes())?;
            w.write_all(&[table.value_bytes() as u8])?;
            w.write_all(&(table.len() as u64).to_le_bytes())?;
            match table {
                GrundyTable::U8(v) => w.write_all(v)?,
                GrundyTable::U16(v) => {
                    for c in v.chunks(1 << 16) {
                        let b: Vec<u8> = c.iter().flat_map(|x| x.to_le_bytes()).collect();
                        w.write_all(&b)?;
                    }
                }
                GrundyTable::U32(v) => {
                    for c in v.chunks(1 << 16) {
                        let b: Vec<u8> = c.iter().flat_map(|x| x.to_le_bytes()).collect();
                        w.write_all(&b)?;
                    }
                }
            }
            w.flush()?;
            let digest = sum.now().1;
            let mut f = &w.get_ref().file;
            f.write_all(&digest.to_le_bytes())?;
            f.sync_data()
        };
        write().with_context(|| format!("cannot write checkpoint `{}`", path.display()))?;
    }
    file.commit()?;
    Ok(())
}

/// Reads the checkpoint at `path` for `game`: None when there is none; an error naming
/// the problem when it is damaged, from another heaplab version or format, of another
/// game, or its values are not the game's.
pub fn load(path: &Path, game: &Game) -> Result<Option<GrundyTable>> {
    let Some(table) = crate::sink::read_checkpoint(path, |b| decode(b, game))? else {
        return Ok(None);
    };
    // The first values again from the definition's engines: a file of another game
    // that was given this game's name is refused too.
    let n = (table.len() as u64).min(RECHECK);
    let fresh = grundy_table(game, n - 1, &Silent)?;
    if let Some(x) = (0..n).find(|&x| fresh.get(x) != table.get(x)) {
        bail!(
            "checkpoint `{}` says g({x}) = {} but {game} has g({x}) = {}; remove it to start over",
            path.display(),
            table.get(x),
            fresh.get(x)
        );
    }
    Ok(Some(table))
}

/// The table in a checkpoint's `bytes`, or why it cannot be one of `game`.
fn decode(bytes: &[u8], game: &Game) -> std::result::Result<GrundyTable, String> {
    let Some(body_len) = bytes.len().checked_sub(8) else {
        return Err("is too short to be a checkpoint".into());
    };
    let (body, sum) = bytes.split_at(body_len);
    if !body.starts_with(MAGIC) {
        return Err("is not a heaplab Grundy-table checkpoint".into());
    }
    if xxh3_64(body).to_le_bytes() != sum {
        return Err("is damaged (its checksum does not match)".into());
    }
    let mut at = MAGIC.len();
    let mut take = |k: usize| -> std::result::Result<&[u8], String> {
        let s = body.get(at..at + k).ok_or("is cut short")?;
        at += k;
        Ok(s)
    };
    let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("four bytes"));
    let format = u32_of(take(4)?);
    if format != FORMAT {
        return Err(format!(
            "has layout version {format}, not {FORMAT} (another heaplab version)"
        ));
    }
    let vlen = u32_of(take(4)?) as usize;
    let version = String::from_utf8_lossy(take(vlen)?).into_owned();
    if version != env!("CARGO_PKG_VERSION") {
        return Err(format!(
            "was written by heaplab {version}, not {}",
            env!("CARGO_PKG_VERSION")
        ));
    }
    let glen = u32_of(take(4)?) as usize;
    let name = String::from_utf8_lossy(take(glen)?).into_owned();
    if name != spec(game) {
        return Err(format!("belongs to game {name}, not {game}"));
    }
    let width = take(1)?[0] as usize;
    let count = u64::from_le_bytes(take(8)?.try_into().expect("eight bytes"));
    if !matches!(width, 1 | 2 | 4) || count == 0 {
        return Err("is damaged (bad value width or count)".into());
    }
    let len = usize::try_from(count)
        .ok()
        .and_then(|c| c.checked_mul(width))
        .ok_or("is damaged (bad count)")?;
    let data = take(len)?;
    if at != body.len() {
        return Err("is damaged (bytes after the values)".into());
    }
    Ok(match width {
        1 => GrundyTable::U8(data.to_vec()),
        2 => GrundyTable::U16(
            data.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
        ),
        _ => GrundyTable::U32(
            data.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
    })
}

/// The snapshot file of 2^k in `dir`.
pub fn snapshot_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("freq-2^{k}.txt"))
}

/// Writes the value frequencies of `table` over 0 <= n <= 2^k to `dir` (atomically): a
/// comment line, then `value frequency` for every value that occurs, increasing.
fn write_snapshot(dir: &Path, game: &Game, table: &GrundyTable, k: u32) -> Result<PathBuf> {
    let top = 1u64 << k;
    let mut freq: Vec<u64> = Vec::new();
    for n in 0..=top {
        let v = table.get(n) as usize;
        if v >= freq.len() {
            freq.resize(v + 1, 0);
        }
        freq[v] += 1;
    }
    let path = snapshot_path(dir, k);
    let file = AtomicFile::create(&path)?;
    {
        let mut w = BufWriter::new(file.file()?);
        writeln!(
            w,
            "# Grundy value frequencies of {game} over 0 <= n <= 2^{k} = {top} (heaplab {})",
            env!("CARGO_PKG_VERSION")
        )
        .and_then(|_| {
            freq.iter()
                .enumerate()
                .filter(|(_, &f)| f > 0)
                .try_for_each(|(v, f)| writeln!(w, "{v} {f}"))
        })
        .and_then(|_| w.flush())
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    file.commit()
}

/// Makes the snapshot folder `dir` if missing (the guard removes what it made if the run
/// fails); fails when `dir` is a file or cannot be made.
pub fn prepare_snapshots(dir: &Path) -> Result<crate::cleanup::MadeDirs> {
    if dir.exists() && !dir.is_dir() {
        bail!(
            "--snapshots `{}` is not a folder; pick a folder for the frequency files",
            dir.display()
        );
    }
    crate::cleanup::make_dirs(dir)
        .with_context(|| format!("cannot make the snapshot folder `{}`", dir.display()))
}

/// The Grundy table 0..=max of a [`Segmented`] run, resumed from its checkpoint when one
/// exists, saving and writing snapshots as it goes; the snapshot files written.
pub fn run(s: &Segmented, progress: &Progress) -> Result<(GrundyTable, Vec<PathBuf>)> {
    let mut table = match s.checkpoint {
        Some(cp) => load(cp, s.game)?,
        None => None,
    };
    if let (Some(t), Some(cp)) = (&table, s.checkpoint) {
        if !crate::progress::quiet() {
            eprintln!(
                "heaplab: resuming {} from checkpoint `{}` at n = {}",
                s.game,
                cp.display(),
                t.len()
            );
        }
    }
    if let Some(t) = table.take() {
        // a checkpoint that went further than this run's --max: its first max + 1 values
        table = Some(if t.len() as u64 > s.max + 1 {
            GrundyTable::from_u32(t.slice_u32(0, s.max as usize + 1))
        } else {
            t
        });
    }
    let total = s.max + 1;
    let obs = |done: u64, _: u64| progress.observe(done, total);
    let mut snaps = vec![];
    let mut snapped = SNAP_FROM;
    let mut every = s.every.min(10.0);
    let mut since = Instant::now();
    let mut rate = 0.0f64;
    let continues = grundy_continues(s.game, s.max);
    loop {
        let len = table.as_ref().map_or(0, |t| t.len() as u64);
        if let (Some(dir), Some(t)) = (s.snapshots, &table) {
            while snapped < 64 && (1u64 << snapped) < len {
                snaps.push(write_snapshot(dir, s.game, t, snapped)?);
                snapped += 1;
            }
        }
        if len == total {
            break;
        }
        // the next power of two, or about `every` seconds of work at the last rate
        let boundary = if len == 0 {
            MIN_SEGMENT
        } else {
            len.next_power_of_two()
        };
        // (an engine that makes the whole table again stops at powers of two only)
        let step = if continues {
            ((rate * every.max(1.0)) as u64).max(MIN_SEGMENT)
        } else {
            u64::MAX
        };
        let target = s.max.min(boundary).min(len.saturating_add(step));
        let t0 = Instant::now();
        table = Some(match table.take() {
            None => grundy_table(s.game, target, &obs)?,
            Some(done) => grundy_table_after(s.game, done, target, &obs)?,
        });
        rate = (target + 1 - len) as f64 / t0.elapsed().as_secs_f64().max(1e-3);
        if let (Some(cp), Some(t)) = (s.checkpoint, &table) {
            if target < s.max && since.elapsed().as_secs_f64() >= every {
                save(cp, s.game, t)?;
                since = Instant::now();
                every = (every * 2.0).min(s.every);
            }
        }
    }
    Ok((table.expect("a table holds position 0"), snaps))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint body with `version` and `game`, its checksum appended.
    fn file(version: &str, game: &str, values: &[u8]) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.extend(FORMAT.to_le_bytes());
        b.extend((version.len() as u32).to_le_bytes());
        b.extend(version.as_bytes());
        b.extend((game.len() as u32).to_le_bytes());
        b.extend(game.as_bytes());
        b.push(1);
        b.extend((values.len() as u64).to_le_bytes());
        b.extend(values);
        let sum = xxh3_64(&b);
        b.extend(sum.to_le_bytes());
        b
    }

    #[test]
    fn checkpoints_of_other_versions_games_or_layouts_are_refused() {
        let g = Game::parse("0.6").unwrap();
        let here = env!("CARGO_PKG_VERSION");
        let t = decode(&file(here, "0.6", &[0, 0, 1, 2]), &g).unwrap();
        assert_eq!(t, GrundyTable::U8(vec![0, 0, 1, 2]));
        let e = decode(&file("0.0.1-old", "0.6", &[0, 0]), &g).unwrap_err();
        assert!(e.contains("was written by heaplab 0.0.1-old"), "{e}");
        let e = decode(&file(here, "0.16", &[0, 0]), &g).unwrap_err();
        assert_eq!(e, "belongs to game 0.16, not 0.6");
        let mut cut = file(here, "0.6", &[0, 0, 1, 2]);
        cut.truncate(cut.len() - 9);
        assert!(decode(&cut, &g).unwrap_err().contains("damaged"));
        assert!(decode(b"HLGRUN", &g).unwrap_err().contains("too short"));
        let e = decode(b"not a checkpoint at all", &g).unwrap_err();
        assert!(e.contains("not a heaplab Grundy-table checkpoint"), "{e}");
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
