//! The files heaplab's front ends (the command line, the Python package) share, kept
//! here so that neither copies the other and the core stays free of file I/O: the user's
//! checkpoint key ([`checkpoint_key`]), whose rules — where it lives, what it holds, when
//! it is made — are the core's ([`heaplab_core::saved`]).

use heaplab_core::saved::{key_path, load_or_make_key, Key};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

/// The user's checkpoint key, read from its file ([`heaplab_core::saved::key_path`]:
/// `$HEAPLAB_CHECKPOINT_KEY`, else `$XDG_CONFIG_HOME/heaplab/checkpoint.key`, else
/// `~/.config/heaplab/checkpoint.key`), which is made — readable by the user only, in a
/// folder only the user can enter — the first time a checkpoint is used, unless `resuming`
/// (a checkpoint exists already: a new key could not open it).
///
/// # Errors
/// One line naming the key's file: no place for it (no HOME), it cannot be read or made
/// (these start `cannot`), it holds no key, or there is none to resume with.
pub fn checkpoint_key(resuming: bool) -> Result<Key, String> {
    let path = key_path(|v| std::env::var_os(v))?;
    key_at(&path, resuming)
}

/// The key kept at `path` ([`load_or_make_key`] with this crate's file work).
fn key_at(path: &Path, resuming: bool) -> Result<Key, String> {
    load_or_make_key(path, !resuming, read_small, create_private)
}

/// The key for the checkpoint at `cp`: [`checkpoint_key`], resuming when `cp` exists.
///
/// # Errors
/// As [`checkpoint_key`]; also when `cp` is the key's own file (a checkpoint written there
/// would destroy the key).
pub fn checkpoint_key_for(cp: &Path) -> Result<Key, String> {
    let key = key_path(|v| std::env::var_os(v))?;
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    if same(cp, &key) {
        return Err(format!(
            "checkpoint `{}` is the checkpoint key's own file; pick another path for the checkpoint",
            cp.display()
        ));
    }
    key_at(&key, std::fs::symlink_metadata(cp).is_ok())
}

/// The first bytes of the regular file `path` (a key is 65): anything else — a device, a
/// pipe, a folder — is refused before it is opened, so a key path that names `/dev/zero`
/// or a FIFO neither fills memory nor waits.
fn read_small(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is not a regular file",
        ));
    }
    // a key others can read lets them seal checkpoints you would trust (as ssh refuses a
    // private key others can read)
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "others may read or change it (mode {mode:o}): `chmod 600 {}` to keep it yours",
                    path.display()
                ),
            ));
        }
    }
    let mut bytes = Vec::with_capacity(130);
    std::fs::File::open(path)?
        .take(129)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Makes the new file `path` (and its folder, mode 0700), mode 0600, holding `bytes`,
/// synced; `AlreadyExists` when it exists.
fn create_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        b.mode(0o700);
        b.create(dir)?;
    }
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    o.mode(0o600);
    let mut f = o.open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_made_private_once_and_read_back() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("a/b/checkpoint.key");
        create_private(&path, b"x").unwrap();
        let e = create_private(&path, b"y").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"x");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o600);
            assert_eq!(mode(&d.path().join("a/b")), 0o700);
        }
        let key = d.path().join("k/checkpoint.key");
        let made = load_or_make_key(&key, true, read_small, create_private).unwrap();
        let again = load_or_make_key(&key, false, read_small, create_private).unwrap();
        assert_eq!(made.to_text(), again.to_text());
        assert_eq!(std::fs::read_to_string(&key).unwrap(), made.to_text());
        // devices and folders are refused unread; a long file is read only in part
        for p in [Path::new("/dev/zero"), d.path()] {
            let e = read_small(p).unwrap_err();
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::InvalidInput,
                "{}",
                p.display()
            );
        }
        let long = d.path().join("long");
        std::fs::write(&long, vec![b'a'; 1 << 20]).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&long, std::fs::Permissions::from_mode(0o644)).unwrap();
            let e = read_small(&long).unwrap_err();
            assert!(
                e.to_string()
                    .contains("others may read or change it (mode 644)"),
                "{e}"
            );
            std::fs::set_permissions(&long, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        assert_eq!(read_small(&long).unwrap().len(), 129);
    }
}
