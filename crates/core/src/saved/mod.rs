//! Resumable runs: the formats a long run saves its state in, and the rules a saved state
//! must pass before a run resumes from it — the same for every front end (the command
//! line, the Python package). The front ends keep the files: they write the bytes made
//! here (atomically), read them back, and lock them; nothing here touches a file.
//!
//! - [`grundy`]: Grundy tables computed in segments ([`grundy::in_segments`]), saved as
//!   `HLGRUNDY` checkpoints, resumed after a check of their first values.
//! - [`stream`]: P-position streams, saved as the stream's [`crate::Checkpoint`] with the
//!   state of the file the P-positions went to ([`stream::SavedStream`]), resumed only when
//!   the file still holds exactly what was saved.
//!
//! Every checkpoint ends in a seal ([`seal`]): the xxh3-64 of its body, which finds damage
//! (a cut-short file, flipped bits), then a BLAKE3 keyed hash of the body under the user's
//! checkpoint [`Key`] (O'Connor, Aumasson, Neves, Wilcox-O'Hearn, "BLAKE3: one function,
//! fast everywhere", 2020, keyed mode as a MAC). Re-deriving every saved value would cost
//! as much as the run it saves, so a resume trusts saved values that carry this key's
//! seal: a checkpoint edited on purpose, even with its xxh3 computed afresh, is refused
//! unless the editor holds the key. The key is 32 random bytes kept by the front end in a
//! file of the user's ([`key_path`]); a checkpoint moves to another machine or account
//! with that file.

pub mod grundy;
pub mod stream;

use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::xxh3_64;

/// Bytes of a seal: the xxh3-64, then the 32-byte keyed BLAKE3.
const SEAL: usize = 8 + 32;

/// The environment variable naming the checkpoint key's file.
pub const KEY_VAR: &str = "HEAPLAB_CHECKPOINT_KEY";

/// The secret a user's checkpoints are sealed with: 32 bytes, and where they came from (a
/// file's path, for messages).
#[derive(Clone)]
pub struct Key {
    bytes: [u8; 32],
    origin: String,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Key(from {})", self.origin)
    }
}

impl Key {
    /// A fresh key of 32 bytes from the operating system's random source, to be kept at
    /// `origin`.
    ///
    /// # Errors
    /// When the system has no random source to read.
    pub fn generate(origin: &str) -> Result<Key, String> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| format!("cannot make a checkpoint key: no random source ({e})"))?;
        Ok(Key {
            bytes,
            origin: origin.to_string(),
        })
    }

    /// The key written in `text` (64 hexadecimal digits, surrounding white space ignored),
    /// read from `origin`.
    ///
    /// # Errors
    /// `checkpoint key `ORIGIN` is not 64 hexadecimal digits; …` when it is anything else.
    pub fn parse(text: &[u8], origin: &str) -> Result<Key, String> {
        let bad = || {
            format!(
                "checkpoint key `{origin}` is not 64 hexadecimal digits; remove it \
                 (checkpoints sealed with it can then no longer be resumed) or restore it"
            )
        };
        let text = std::str::from_utf8(text).map_err(|_| bad())?.trim();
        if text.len() != 64 || !text.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(Key {
            bytes,
            origin: origin.to_string(),
        })
    }

    /// The key as its file holds it: 64 lowercase hexadecimal digits and a newline.
    pub fn to_text(&self) -> String {
        let mut s: String = self.bytes.iter().map(|b| format!("{b:02x}")).collect();
        s.push('\n');
        s
    }

    /// Where the key came from.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    fn mac(&self, body: &[u8]) -> [u8; 32] {
        *blake3::keyed_hash(&self.bytes, body).as_bytes()
    }
}

/// Where the checkpoint key is kept, from the environment as `var` reads it: the file
/// `$HEAPLAB_CHECKPOINT_KEY` when set, else `$XDG_CONFIG_HOME/heaplab/checkpoint.key`, else
/// `$HOME/.config/heaplab/checkpoint.key` (the XDG base-directory convention). Empty
/// variables count as unset, and so does a relative `XDG_CONFIG_HOME`.
///
/// # Errors
/// When none of the three is set: the message says to set `HEAPLAB_CHECKPOINT_KEY`.
pub fn key_path(var: impl Fn(&str) -> Option<OsString>) -> Result<PathBuf, String> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    if let Some(p) = set(KEY_VAR) {
        return Ok(PathBuf::from(p));
    }
    // (a relative XDG_CONFIG_HOME is ignored, as the XDG base-directory spec says)
    let config = set("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| set("HOME").map(|h| PathBuf::from(h).join(".config")))
        .ok_or_else(|| {
            format!(
                "no place for the checkpoint key: neither {KEY_VAR}, XDG_CONFIG_HOME nor \
                 HOME is set; set {KEY_VAR} to a file path"
            )
        })?;
    Ok(config.join("heaplab").join("checkpoint.key"))
}

/// The checkpoint key kept at `path`, made there first when there is none and `may_make`
/// (false when a checkpoint is about to be resumed: no new key can open it): the front end
/// does the file work — `read` reads a whole file, `create` makes a new one (failing with
/// `AlreadyExists` when it exists: two runs that start together then share the first one's
/// key) readable by the user only, with the bytes given — and this decides what to do.
///
/// # Errors
/// One line naming the file: it cannot be read or made (with the system's reason and the
/// advice to set `HEAPLAB_CHECKPOINT_KEY`), or it holds no key.
pub fn load_or_make_key(
    path: &Path,
    may_make: bool,
    read: impl Fn(&Path) -> std::io::Result<Vec<u8>>,
    create: impl Fn(&Path, &[u8]) -> std::io::Result<()>,
) -> Result<Key, String> {
    let origin = path.display().to_string();
    let cannot = |what: &str, e: std::io::Error| {
        format!("cannot {what} the checkpoint key `{origin}`: {e}; set {KEY_VAR} to another file")
    };
    let read_key = || match read(path) {
        Ok(bytes) => Key::parse(&bytes, &origin).map(Some),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(cannot("read", e)),
    };
    if let Some(key) = read_key()? {
        return Ok(key);
    }
    if !may_make {
        // (a new key could never open the checkpoint waiting to be resumed)
        return Err(format!(
            "there is no checkpoint key at `{origin}`, and the checkpoint to resume was sealed \
             with one: copy the key of the account or machine that made it (by default \
             ~/.config/heaplab/checkpoint.key there) to `{origin}`, or point {KEY_VAR} at it"
        ));
    }
    let key = Key::generate(&origin)?;
    match create(path, key.to_text().as_bytes()) {
        Ok(()) => Ok(key),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            // Another run made it meanwhile: its key, once it is written whole.
            for _ in 0..50 {
                match read_key() {
                    Ok(Some(key)) => return Ok(key),
                    Ok(None) => break,
                    Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
                }
            }
            read_key()?.ok_or_else(|| cannot("read", ErrorKind::NotFound.into()))
        }
        Err(e) => Err(cannot("make", e)),
    }
}

/// The start of a checkpoint body: `magic`, the layout version `format`, then heaplab's
/// version and the game's canonical spec (each a little-endian u32 length and its bytes).
pub(crate) fn header(magic: &[u8; 8], format: u32, game: &crate::Game) -> Vec<u8> {
    let mut b = magic.to_vec();
    b.extend_from_slice(&format.to_le_bytes());
    for s in [env!("CARGO_PKG_VERSION").to_string(), game.to_string()] {
        b.extend_from_slice(&(s.len() as u32).to_le_bytes());
        b.extend_from_slice(s.as_bytes());
    }
    b
}

/// What follows a [`header`] for `game` in `body`, or why the body is not one (a phrase
/// after the checkpoint's name: `is not a heaplab {kind}`, `has layout version …`, `was
/// written by heaplab …`, `belongs to game …`, `is cut short`).
pub(crate) fn after_header<'a>(
    body: &'a [u8],
    magic: &[u8; 8],
    format: u32,
    game: &crate::Game,
    kind: &str,
) -> Result<&'a [u8], String> {
    if !body.starts_with(magic) {
        return Err(format!("is not a heaplab {kind}"));
    }
    let mut at = magic.len();
    let mut take = |k: usize| -> Result<&'a [u8], String> {
        let s = body.get(at..at + k).ok_or("is cut short")?;
        at += k;
        Ok(s)
    };
    let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("four bytes"));
    let found = u32_of(take(4)?);
    if found != format {
        return Err(format!(
            "has layout version {found}, not {format} (another heaplab version)"
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
    if name != game.to_string() {
        return Err(format!("belongs to game {name}, not {game}"));
    }
    Ok(&body[at..])
}

/// `body` followed by its seal under `key`: the xxh3-64 (little-endian) of `body`, then
/// the keyed BLAKE3 of `body`.
pub(crate) fn seal(mut body: Vec<u8>, key: &Key) -> Vec<u8> {
    let sum = xxh3_64(&body);
    let mac = key.mac(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    body.extend_from_slice(&mac);
    body
}

/// The body of sealed `bytes`, or why they are refused: damaged (the xxh3 does not match),
/// or sealed with another key or edited (the xxh3 matches, the keyed hash does not).
pub(crate) fn unseal<'a>(bytes: &'a [u8], key: &Key) -> Result<&'a [u8], String> {
    let Some(body_len) = bytes.len().checked_sub(SEAL) else {
        return Err("is too short to be a checkpoint".into());
    };
    let (body, seal) = bytes.split_at(body_len);
    let (sum, mac) = seal.split_at(8);
    if xxh3_64(body).to_le_bytes() != sum {
        return Err("is damaged (its checksum does not match)".into());
    }
    // Not a timing-sensitive comparison: the caller learns only "refused".
    if key.mac(body) != mac {
        return Err(format!(
            "was not sealed with the checkpoint key `{}` (made under another key, or edited \
             after it was saved); to resume it here, use the key it was made with ({KEY_VAR})",
            key.origin
        ));
    }
    Ok(body)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fixed key for tests.
    pub(crate) fn key() -> Key {
        Key::parse(&[b'7'; 64], "test.key").unwrap()
    }

    /// Bytes sealed under `key` with one byte of the body changed and the xxh3 computed
    /// afresh: what a forger without the key can make.
    pub(crate) fn forged(sealed: &[u8], at: usize, bit: u32) -> Vec<u8> {
        let body_len = sealed.len() - SEAL;
        let mut b = sealed[..body_len].to_vec();
        b[at] ^= 1 << bit;
        let sum = xxh3_64(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b.extend_from_slice(&sealed[body_len + 8..]);
        b
    }

    /// The length of the body of sealed bytes.
    pub(crate) fn body_len(sealed: &[u8]) -> usize {
        sealed.len() - SEAL
    }

    #[test]
    fn seals_find_damage_forgery_and_other_keys() {
        let k = key();
        let sealed = seal(b"values 0 1 2".to_vec(), &k);
        assert_eq!(unseal(&sealed, &k).unwrap(), b"values 0 1 2");
        for at in 0..body_len(&sealed) {
            let e = unseal(&forged(&sealed, at, 0), &k).unwrap_err();
            assert!(
                e.contains("was not sealed with the checkpoint key `test.key`"),
                "{e}"
            );
        }
        let mut damaged = sealed.clone();
        damaged[3] ^= 4;
        assert!(unseal(&damaged, &k).unwrap_err().contains("damaged"));
        let other = Key::parse(&[b'a'; 64], "other.key").unwrap();
        assert!(unseal(&sealed, &other).unwrap_err().contains("other.key"));
        assert!(unseal(&sealed[..10], &k).unwrap_err().contains("too short"));
    }

    #[test]
    fn keys_are_made_once_then_read() {
        use std::cell::RefCell;
        let file: RefCell<Option<Vec<u8>>> = RefCell::new(None);
        let read = |_: &Path| {
            file.borrow()
                .clone()
                .ok_or_else(|| std::io::Error::from(ErrorKind::NotFound))
        };
        let create = |_: &Path, b: &[u8]| {
            *file.borrow_mut() = Some(b.to_vec());
            Ok(())
        };
        let p = Path::new("/c/heaplab/checkpoint.key");
        let e = load_or_make_key(p, false, read, create).unwrap_err();
        assert!(
            e.starts_with("there is no checkpoint key at `/c/heaplab"),
            "{e}"
        );
        let made = load_or_make_key(p, true, read, create).unwrap();
        let again = load_or_make_key(p, false, read, |_, _| panic!("made twice")).unwrap();
        assert_eq!(made.bytes, again.bytes);
        assert_eq!(again.origin(), "/c/heaplab/checkpoint.key");
        let denied = |_: &Path, _: &[u8]| Err(ErrorKind::PermissionDenied.into());
        let e = load_or_make_key(p, true, |_| Err(ErrorKind::NotFound.into()), denied).unwrap_err();
        assert!(
            e.starts_with("cannot make the checkpoint key `/c/heaplab"),
            "{e}"
        );
        assert!(
            e.ends_with("set HEAPLAB_CHECKPOINT_KEY to another file"),
            "{e}"
        );
        let e = load_or_make_key(p, true, |_| Ok(b"xyz".to_vec()), create).unwrap_err();
        assert!(e.contains("is not 64 hexadecimal digits"), "{e}");
    }

    #[test]
    fn keys_read_back_and_bad_key_files_are_named() {
        let k = Key::generate("k").unwrap();
        let again = Key::parse(k.to_text().as_bytes(), "k").unwrap();
        assert_eq!(k.bytes, again.bytes);
        assert_ne!(k.bytes, Key::generate("k").unwrap().bytes);
        for bad in [&b""[..], b"12", &[b'g'; 64], &[0xff; 64], &[b'a'; 66]] {
            let e = Key::parse(bad, "/x/checkpoint.key").unwrap_err();
            assert!(
                e.starts_with("checkpoint key `/x/checkpoint.key` is not 64"),
                "{e}"
            );
        }
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        assert_eq!(
            key_path(env(&[(KEY_VAR, "/k"), ("HOME", "/h")])).unwrap(),
            PathBuf::from("/k")
        );
        assert_eq!(
            key_path(env(&[
                (KEY_VAR, ""),
                ("XDG_CONFIG_HOME", "/c"),
                ("HOME", "/h")
            ]))
            .unwrap(),
            PathBuf::from("/c/heaplab/checkpoint.key")
        );
        assert_eq!(
            key_path(env(&[("HOME", "/h")])).unwrap(),
            PathBuf::from("/h/.config/heaplab/checkpoint.key")
        );
        assert!(key_path(env(&[])).unwrap_err().contains(KEY_VAR));
        assert_eq!(
            key_path(env(&[("XDG_CONFIG_HOME", "rel"), ("HOME", "/h")])).unwrap(),
            PathBuf::from("/h/.config/heaplab/checkpoint.key")
        );
    }
}
