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

pub mod grundy;
pub mod stream;

use xxhash_rust::xxh3::xxh3_64;

/// `body` followed by its xxh3-64 (little-endian).
pub(crate) fn seal(mut body: Vec<u8>) -> Vec<u8> {
    let sum = xxh3_64(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    body
}

/// The body of sealed `bytes`, or why they are no sealed checkpoint.
pub(crate) fn unseal(bytes: &[u8]) -> Result<&[u8], &'static str> {
    let Some(body_len) = bytes.len().checked_sub(8) else {
        return Err("is too short to be a checkpoint");
    };
    let (body, sum) = bytes.split_at(body_len);
    if xxh3_64(body).to_le_bytes() != sum {
        return Err("is damaged (its checksum does not match)");
    }
    Ok(body)
}
