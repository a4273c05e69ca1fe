//! Long Grundy tables in segments, and their checkpoints.
//!
//! [`in_segments`] grows the table segment by segment ([`crate::grundy_table_after`]),
//! every segment ending at the next power of two or sooner, so that one takes about the
//! time between checkpoints (only at powers of two when the engine makes the whole table
//! again, [`crate::grundy_continues`]); it hands the table to [`Segments::save`] every few
//! minutes (the first time after 10 s, then at doubling intervals) and to
//! [`Segments::passed`] as each 2^k is passed.
//!
//! A checkpoint ([`encode`]) is `HLGRUNDY`, its format version and the heaplab version,
//! the game's canonical spec, the value width (1, 2 or 4 bytes), the number of values and
//! the values (little-endian), then the seal of everything before it under the user's
//! checkpoint key ([`crate::saved::Key`]). [`decode`] takes it back only when the seal,
//! both versions and the game agree; [`verify`] then compares its first values with a fresh
//! computation (a checkpoint made by another heaplab under a copied key is refused there). Values depend on nothing but the game, so a
//! resumed run's table is identical to an uninterrupted one.

use crate::error::Error;
use crate::game::Game;
use crate::observe::Observer;
use crate::plan::grundy_table;
use crate::plan::run::{grundy_continues, grundy_table_after};
use crate::saved::{after_header, header, seal, unseal, Key};
use crate::table::GrundyTable;
use std::time::Instant;

const MAGIC: &[u8; 8] = b"HLGRUNDY";
/// Version of the file layout.
const FORMAT: u32 = 1;
/// Values of a resumed checkpoint computed again and compared, at most.
pub const RECHECK: u64 = 4096;
/// The first segment, and the least one after it.
const MIN_SEGMENT: u64 = 1 << 16;
/// The first power of two [`Segments::passed`] hears of: 2^10.
pub const SNAP_FROM: u32 = 10;

/// The bytes of a checkpoint of `table` (values 0..table.len() of `game`), sealed with `key`.
pub fn encode(game: &Game, table: &GrundyTable, key: &Key) -> Vec<u8> {
    let mut b = header(MAGIC, FORMAT, game);
    b.reserve(16 + table.len() * table.value_bytes());
    b.push(table.value_bytes() as u8);
    b.extend_from_slice(&(table.len() as u64).to_le_bytes());
    match table {
        GrundyTable::U8(v) => b.extend_from_slice(v),
        GrundyTable::U16(v) => v.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes())),
        GrundyTable::U32(v) => v.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes())),
    }
    seal(b, key)
}

/// The table in a checkpoint's `bytes` sealed with `key`, or why they cannot be one of
/// `game` (a phrase after the checkpoint's name: `is damaged (its checksum does not
/// match)`, `was not sealed with the checkpoint key …`, `belongs to game 0.16, not 0.6`,
/// `was written by heaplab 0.0.1, not 0.1.0`, …).
///
/// # Errors
/// The reason, as above.
pub fn decode(bytes: &[u8], game: &Game, key: &Key) -> Result<GrundyTable, String> {
    if bytes.len() >= 8 && !bytes.starts_with(MAGIC) {
        return Err("is not a heaplab Grundy-table checkpoint".into());
    }
    let body = unseal(bytes, key)?;
    let body = after_header(body, MAGIC, FORMAT, game, "Grundy-table checkpoint")?;
    let mut at = 0;
    let mut take = |k: usize| -> Result<&[u8], String> {
        let s = body.get(at..at + k).ok_or("is cut short")?;
        at += k;
        Ok(s)
    };
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

/// Checks a decoded table's first [`RECHECK`] values against a fresh computation from the
/// definition's engines, so that a file of another game given this game's name is refused.
///
/// # Errors
/// `says g(x) = a but GAME has g(x) = b` (a phrase after the checkpoint's name), or the
/// engine's error.
pub fn verify(game: &Game, table: &GrundyTable) -> Result<Result<(), String>, Error> {
    let n = (table.len() as u64).min(RECHECK);
    if n == 0 {
        return Ok(Ok(()));
    }
    let fresh = grundy_table(game, n - 1, &crate::observe::Silent)?;
    Ok(match (0..n).find(|&x| fresh.get(x) != table.get(x)) {
        Some(x) => Err(format!(
            "says g({x}) = {} but {game} has g({x}) = {}",
            table.get(x),
            fresh.get(x)
        )),
        None => Ok(()),
    })
}

/// What a segmented run does between segments: the front end's side of it.
pub trait Segments {
    /// Saves the table so far (a checkpoint is due). An error stops the run.
    ///
    /// # Errors
    /// Why it could not be saved, in one line.
    fn save(&mut self, table: &GrundyTable) -> Result<(), String>;
    /// The table has passed 2^k (positions 0..=2^k are known); k from [`SNAP_FROM`] on.
    ///
    /// # Errors
    /// Why what it does with them failed, in one line.
    fn passed(&mut self, table: &GrundyTable, k: u32) -> Result<(), String> {
        let _ = (table, k);
        Ok(())
    }
}

/// The Grundy table 0..=max of `game` in segments, continuing `saved` (values 0..len of a
/// checked checkpoint, cut to max + 1 when it went further), calling `hooks` to save at
/// most every `every` seconds (the first after 10 s) and as powers of two are passed.
/// `obs` sees the whole run as one (positions out of max + 1).
///
/// # Errors
/// The engine's errors; [`Error::Callback`] when a hook fails; [`Error::Cancelled`] when
/// `obs` stops the run.
pub fn in_segments(
    game: &Game,
    max: u64,
    saved: Option<GrundyTable>,
    every: f64,
    obs: &dyn Observer,
    hooks: &mut dyn Segments,
) -> Result<GrundyTable, Error> {
    let callback = |what: String| Error::Callback { what };
    let mut table = saved.map(|t| match t.len() as u64 > max.saturating_add(1) {
        true => GrundyTable::from_u32(t.slice_u32(0, max as usize + 1)),
        false => t,
    });
    let total = max.saturating_add(1);
    let mut snapped = SNAP_FROM;
    let mut gap = every.min(10.0);
    let mut since = Instant::now();
    let mut rate = 0.0f64;
    // seconds the last save took: a segment is at least four times that much work, so
    // the saves themselves cost at most a fifth of the run even with `every` = 0 (each
    // segment also restarts the engine: short segments cost more than their saves)
    let mut save_secs = 0.0f64;
    let continues = grundy_continues(game, max);
    loop {
        let len = table.as_ref().map_or(0, |t| t.len() as u64);
        if let Some(t) = &table {
            while snapped < 64 && (1u64 << snapped) < len {
                hooks.passed(t, snapped).map_err(callback)?;
                snapped += 1;
            }
        }
        if len == total {
            break;
        }
        // the next power of two, or about a quarter of `gap` seconds of work at the last
        // rate: a segment that runs slower than planned (a machine that became busy, the
        // cost per position rising with n, as for subtract-a-square) still ends near the
        // save that is due (one planned at the whole gap ran 52 minutes past a 15-minute
        // checkpoint interval when the machine became busy, and all of it was lost)
        let boundary = if len == 0 {
            MIN_SEGMENT
        } else {
            len.next_power_of_two()
        };
        // (an engine that makes the whole table again stops at powers of two only)
        let step = if continues {
            ((rate * (gap / 4.0).max(1.0).max(4.0 * save_secs)) as u64).max(MIN_SEGMENT)
        } else {
            u64::MAX
        };
        let target = max.min(boundary).min(len.saturating_add(step));
        let t0 = Instant::now();
        // (an engine reports a continued table from 0: the values before `len` are done, so
        // the run's progress never goes back)
        let whole = |done: u64, _: u64| obs.observe(done.max(len), total);
        table = Some(match table.take() {
            None => grundy_table(game, target, &whole)?,
            Some(done) => grundy_table_after(game, done, target, &whole)?,
        });
        rate = (target + 1 - len) as f64 / t0.elapsed().as_secs_f64().max(1e-3);
        if let Some(t) = &table {
            if target < max && since.elapsed().as_secs_f64() >= gap {
                let s0 = Instant::now();
                hooks.save(t).map_err(callback)?;
                save_secs = s0.elapsed().as_secs_f64();
                since = Instant::now();
                gap = (gap * 2.0).min(every);
            }
        }
    }
    Ok(table.expect("a table holds position 0"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::saved::tests::{body_len, forged, key};

    /// A checkpoint body with `version` and `game`, sealed with the test key.
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
        seal(b, &key())
    }

    #[test]
    fn checkpoints_of_other_versions_games_or_layouts_are_refused() {
        let g = Game::parse("0.6").unwrap();
        let here = env!("CARGO_PKG_VERSION");
        let t = decode(&file(here, "0.6", &[0, 0, 1, 2]), &g, &key()).unwrap();
        assert_eq!(t, GrundyTable::U8(vec![0, 0, 1, 2]));
        let e = decode(&file("0.0.1-old", "0.6", &[0, 0]), &g, &key()).unwrap_err();
        assert!(e.contains("was written by heaplab 0.0.1-old"), "{e}");
        let e = decode(&file(here, "0.16", &[0, 0]), &g, &key()).unwrap_err();
        assert_eq!(e, "belongs to game 0.16, not 0.6");
        let mut cut = file(here, "0.6", &[0, 0, 1, 2]);
        cut.truncate(cut.len() - 9);
        assert!(decode(&cut, &g, &key()).unwrap_err().contains("damaged"));
        assert!(decode(b"HLGRUN", &g, &key())
            .unwrap_err()
            .contains("too short"));
        let e = decode(b"not a checkpoint at all", &g, &key()).unwrap_err();
        assert!(e.contains("not a heaplab Grundy-table checkpoint"), "{e}");
    }

    #[test]
    fn tables_encode_and_decode_back_and_wrong_values_are_found() {
        let g = Game::parse("0.6").unwrap();
        for t in [
            grundy_table(&g, 5000, &crate::Silent).unwrap(),
            GrundyTable::U16(
                grundy_table(&g, 15, &crate::Silent)
                    .unwrap()
                    .to_u32_vec()
                    .iter()
                    .map(|&x| x as u16)
                    .collect(),
            ),
        ] {
            let back = decode(&encode(&g, &t, &key()), &g, &key()).unwrap();
            assert_eq!(back.to_u32_vec(), t.to_u32_vec());
            assert_eq!(verify(&g, &back).unwrap(), Ok(()));
        }
        let wrong = GrundyTable::U8(vec![0, 1, 1]);
        let e = verify(&g, &wrong).unwrap().unwrap_err();
        assert!(e.contains("says g(1) = 1 but 0.6 has g(1) = 0"), "{e}");
    }

    /// Every stored field — layout, versions, game, width, count, each value — changed by
    /// someone without the key, with the xxh3 computed afresh, is refused; past the values
    /// a fresh computation would check, too.
    #[test]
    fn forged_checkpoints_are_refused_whatever_field_is_changed() {
        let g = Game::parse("0.6").unwrap();
        let t = grundy_table(&g, 6000, &crate::Silent).unwrap();
        let sealed = encode(&g, &t, &key());
        assert!(decode(&sealed, &g, &key()).is_ok());
        for at in 0..body_len(&sealed) {
            for bit in [0, 5] {
                let e = decode(&forged(&sealed, at, bit), &g, &key()).unwrap_err();
                // (the magic is read first: another file type is named as such)
                let why = match at < MAGIC.len() {
                    true => "is not a heaplab Grundy-table checkpoint",
                    false => "was not sealed with the checkpoint key",
                };
                assert!(e.contains(why), "{at}: {e}");
            }
        }
    }

    /// Saves what it is given; counts the powers of two passed.
    struct Keep(Vec<GrundyTable>, Vec<u32>);

    impl Segments for Keep {
        fn save(&mut self, t: &GrundyTable) -> Result<(), String> {
            self.0.push(t.clone());
            Ok(())
        }
        fn passed(&mut self, _: &GrundyTable, k: u32) -> Result<(), String> {
            self.1.push(k);
            Ok(())
        }
    }

    #[test]
    fn segments_resume_from_any_save_to_the_same_table() {
        let g = Game::parse("0.6").unwrap();
        let max = 300_000;
        let whole = grundy_table(&g, max, &crate::Silent).unwrap();
        // checkpoints due at once: one after every segment but the last
        let mut keep = Keep(vec![], vec![]);
        let t = in_segments(&g, max, None, 0.0, &crate::Silent, &mut keep).unwrap();
        assert_eq!(t, whole);
        assert_eq!(keep.1, (10..=18).collect::<Vec<u32>>());
        assert!(keep.0.len() >= 2, "{}", keep.0.len());
        // the least progress reported: a resumed run never reports less than it saved
        struct Least(std::sync::atomic::AtomicU64);
        impl Observer for Least {
            fn observe(&self, done: u64, _: u64) -> std::ops::ControlFlow<()> {
                self.0.fetch_min(done, std::sync::atomic::Ordering::Relaxed);
                std::ops::ControlFlow::Continue(())
            }
        }
        for saved in keep.0 {
            let len = saved.len() as u64;
            let back = decode(&encode(&g, &saved, &key()), &g, &key()).unwrap();
            let mut again = Keep(vec![], vec![]);
            let least = Least(u64::MAX.into());
            let t = in_segments(&g, max, Some(back), 1e9, &least, &mut again).unwrap();
            assert_eq!(t, whole);
            assert_eq!(least.0.into_inner(), len);
        }
        // a saved table longer than this run's N: its first N + 1 values
        let t = in_segments(
            &g,
            1000,
            Some(whole.clone()),
            1e9,
            &crate::Silent,
            &mut Keep(vec![], vec![]),
        );
        assert_eq!(t.unwrap().to_u32_vec(), whole.to_u32_vec()[..1001]);
        // a hook's failure stops the run with its reason
        struct Full;
        impl Segments for Full {
            fn save(&mut self, _: &GrundyTable) -> Result<(), String> {
                Err("the disk is full".into())
            }
        }
        let e = in_segments(&g, max, None, 0.0, &crate::Silent, &mut Full).unwrap_err();
        assert_eq!(e.to_string(), "the disk is full");
    }
}
