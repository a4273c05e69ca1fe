//! P-position streams saved with the file their P-positions go to.
//!
//! A [`SavedStream`] holds the stream's [`Checkpoint`], how many bytes of the side file the
//! P-positions were written to hold at that moment and their xxh3-64, and whatever the
//! front end keeps about its output (`front`: the command line's file name, format and
//! labels; nothing for the Python package). Its bytes ([`SavedStream::encode`]) are the
//! postcard encoding and its seal under the user's checkpoint key ([`crate::saved::Key`]).
//!
//! The resume rule: a checkpoint is resumed only when its seal is right, it belongs to
//! this run ([`SavedStream::check_same`]), the side file holds at least the saved bytes
//! and they hash to the saved checksum ([`SideHash::check`]), its last P-position is the
//! checkpoint's (for a spool of raw P-positions, [`spool_ends_right`]), and the stream's
//! state passes the checks against the rule when it is reopened ([`crate::resume_stream`]).

use crate::engines::stream::Checkpoint;
use crate::saved::{seal, unseal, Key};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::Read;
use xxhash_rust::xxh3::Xxh3;

/// Version of the layout.
const VERSION: u32 = 5;

/// A P-position stream saved with its side file's state and the front end's own `T`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SavedStream<T> {
    version: u32,
    /// The stream.
    pub stream: Checkpoint,
    /// Bytes of the side file at the checkpoint.
    pub bytes: u64,
    /// Their xxh3-64.
    pub hash: u64,
    /// The front end's state of its output.
    pub front: T,
}

impl<T: Serialize + DeserializeOwned> SavedStream<T> {
    /// A checkpoint of `stream` whose side file held `bytes` bytes hashing to `hash`.
    pub fn new(stream: Checkpoint, bytes: u64, hash: u64, front: T) -> SavedStream<T> {
        SavedStream {
            version: VERSION,
            stream,
            bytes,
            hash,
            front,
        }
    }

    /// The checkpoint's bytes: the postcard encoding and its seal under `key`.
    ///
    /// # Errors
    /// When `T` cannot be encoded.
    pub fn encode(&self, key: &Key) -> Result<Vec<u8>, String> {
        postcard::to_stdvec(self)
            .map(|b| seal(b, key))
            .map_err(|e| format!("cannot encode the checkpoint: {e}"))
    }

    /// The checkpoint in `bytes` sealed with `key`, or why they are none (a phrase after
    /// the file's name: `is damaged (its checksum does not match)`, `was not sealed with the
    /// checkpoint key …`, `is from another heaplab version`, …).
    ///
    /// # Errors
    /// The reason, as above.
    pub fn decode(bytes: &[u8], key: &Key) -> Result<SavedStream<T>, String> {
        let body = unseal(bytes, key)?;
        let run: SavedStream<T> =
            postcard::from_bytes(body).map_err(|_| "is not a heaplab checkpoint".to_string())?;
        if run.version != VERSION {
            return Err("is from another heaplab version".into());
        }
        Ok(run)
    }

    /// `None` when this checkpoint is of the run of `game` (canonical spec) to `max`, else
    /// what differs (each front end names it in its own words).
    pub fn differs(&self, game: &str, max: u64) -> Option<Difference> {
        if self.stream.game != game {
            Some(Difference::Game(self.stream.game.clone()))
        } else if self.stream.max != max {
            Some(Difference::Max(self.stream.max))
        } else {
            None
        }
    }
}

/// What differs between a checkpoint and the run that would resume it: the checkpoint's
/// game (canonical spec) or N.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// Another game.
    Game(String),
    /// Another N.
    Max(u64),
}

/// The running length and xxh3-64 of what a side file holds.
#[derive(Clone)]
pub struct SideHash {
    hash: Xxh3,
    len: u64,
}

impl std::fmt::Debug for SideHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (len, hash) = self.now();
        write!(f, "SideHash({len} bytes, {hash:016x})")
    }
}

impl Default for SideHash {
    fn default() -> SideHash {
        SideHash {
            hash: Xxh3::new(),
            len: 0,
        }
    }
}

impl SideHash {
    /// Adds bytes written.
    pub fn add(&mut self, bytes: &[u8]) {
        self.hash.update(bytes);
        self.len += bytes.len() as u64;
    }

    /// (bytes so far, their xxh3-64).
    pub fn now(&self) -> (u64, u64) {
        (self.len, self.hash.digest())
    }

    /// Reads the saved part of a side file (`saved` bytes of `file`, which must hold at
    /// least that many) and checks its checksum: the running hash to carry on with, and
    /// the last 64 KiB read (where the last row is).
    ///
    /// # Errors
    /// Why the file does not match (a phrase: `it is shorter than the 100 bytes saved`,
    /// `its saved part has changed`), or a read error.
    pub fn check(
        file: impl Read,
        saved: u64,
        saved_hash: u64,
    ) -> Result<(SideHash, Vec<u8>), String> {
        let mut sum = SideHash::default();
        let mut r = std::io::BufReader::new(file).take(saved);
        let mut buf = vec![0u8; 1 << 20];
        let mut tail: Vec<u8> = Vec::new();
        loop {
            let n = r
                .read(&mut buf)
                .map_err(|e| format!("it cannot be read ({e})"))?;
            if n == 0 {
                break;
            }
            sum.add(&buf[..n]);
            tail.extend_from_slice(&buf[..n]);
            if tail.len() > 1 << 16 {
                tail.drain(..tail.len() - (1 << 16));
            }
        }
        if sum.len < saved {
            return Err(format!("it is shorter than the {saved} bytes saved"));
        }
        if sum.now() != (saved, saved_hash) {
            return Err("its saved part has changed".into());
        }
        Ok((sum, tail))
    }
}

/// A spool of raw P-positions (8 bytes each, little-endian) ends in the checkpoint's last
/// P-position after exactly as many of them as it counts.
///
/// # Errors
/// What differs, as a phrase.
pub fn spool_ends_right(tail: &[u8], bytes: u64, cp: &Checkpoint) -> Result<(), String> {
    if bytes != cp.count.saturating_mul(8) {
        return Err(format!(
            "it holds {bytes} bytes for {} P-positions",
            cp.count
        ));
    }
    let p = tail
        .len()
        .checked_sub(8)
        .map(|i| u64::from_le_bytes(tail[i..].try_into().expect("8 bytes")));
    last_agrees(cp.count.checked_sub(1), p, cp)
}

/// The last (index, P-position) a side file holds is the checkpoint's last.
///
/// # Errors
/// What differs, as a phrase.
pub fn last_agrees(k: Option<u64>, p: Option<u64>, cp: &Checkpoint) -> Result<(), String> {
    let (count, last) = (cp.count, cp.last);
    if (k, p) != (count.checked_sub(1), last) {
        return Err(format!(
            "its last row is {} but the checkpoint's last P-position is {}",
            p.map_or("none".into(), |p| format!(
                "k = {}, p = {p}",
                k.unwrap_or(0)
            )),
            last.map_or("none".into(), |p| format!("k = {}, p = {p}", count - 1))
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::saved::tests::{body_len, forged, key};
    use crate::{open_stream, Game, Silent};

    fn saved(count: u64) -> SavedStream<String> {
        let g = Game::parse("squares").unwrap();
        let mut s = open_stream(&g, 100_000, &Silent).unwrap();
        let mut out = vec![];
        while s.count() < count && s.advance(&mut out) {}
        SavedStream::new(s.checkpoint(), 1234, 99, "x.txt".to_string())
    }

    #[test]
    fn any_damage_to_a_checkpoint_is_refused() {
        let bytes = saved(1).encode(&key()).unwrap();
        assert!(SavedStream::<String>::decode(&bytes, &key()).is_ok());
        for i in 0..100 {
            let at = i * bytes.len() / 100;
            for bit in [0, 3, 7] {
                let mut b = bytes.clone();
                b[at] ^= 1 << bit;
                assert!(
                    SavedStream::<String>::decode(&b, &key()).is_err(),
                    "bit {bit} of byte {at}"
                );
            }
        }
        for len in 0..bytes.len() {
            assert!(
                SavedStream::<String>::decode(&bytes[..len], &key()).is_err(),
                "{len} bytes"
            );
        }
        let s = saved(3);
        assert_eq!(s.differs("squares", 100_000), None);
        assert_eq!(
            s.differs("cubes", 100_000),
            Some(Difference::Game("squares".into()))
        );
        assert_eq!(s.differs("squares", 7), Some(Difference::Max(100_000)));
    }

    /// Every stored field — the stream's state and P-positions, the side file's length and
    /// hash, the front end's part — changed without the key, xxh3 computed afresh, is
    /// refused.
    #[test]
    fn forged_checkpoints_are_refused_whatever_field_is_changed() {
        let bytes = saved(40).encode(&key()).unwrap();
        for at in 0..body_len(&bytes) {
            let e = SavedStream::<String>::decode(&forged(&bytes, at, 1), &key()).unwrap_err();
            assert!(
                e.contains("was not sealed with the checkpoint key"),
                "{at}: {e}"
            );
        }
    }

    #[test]
    fn side_files_and_spools_are_checked_against_the_checkpoint() {
        let mut h = SideHash::default();
        h.add(b"0 0\n1 2\n");
        let (n, sum) = h.now();
        let (again, tail) = SideHash::check(&b"0 0\n1 2\nmore"[..], n, sum).unwrap();
        assert_eq!(again.now(), (n, sum));
        assert_eq!(tail, b"0 0\n1 2\n");
        assert!(SideHash::check(&b"0 0\n"[..], n, sum)
            .unwrap_err()
            .contains("shorter"));
        assert!(SideHash::check(&b"0 0\n1 3\n"[..], n, sum)
            .unwrap_err()
            .contains("changed"));
        let s = saved(5);
        let cp = &s.stream;
        let last = cp.last.unwrap();
        // the spool's tail: its last P-position, after count - 1 others
        let bytes = cp.count * 8;
        let mut spool = vec![0u8; 64];
        spool.extend(last.to_le_bytes());
        assert!(spool_ends_right(&spool, bytes, cp).is_ok());
        assert!(spool_ends_right(&spool, bytes + 8, cp).is_err());
        let n = spool.len();
        spool[n - 8..].copy_from_slice(&(last + 1).to_le_bytes());
        assert!(spool_ends_right(&spool, bytes, cp).is_err());
    }
}
