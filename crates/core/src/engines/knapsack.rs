//! Bit sets of reachable XOR values, the rows the knapsack engines keep (extended codes,
//! coin-turning games): XOR of a whole row by a constant, the mex of a set, and the checks
//! that a table and its sets fit.

/// The bit masks that swap neighbouring blocks of 1, 2, 4, 8, 16, 32 bits.
const SWAP: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// The word whose bit p is bit p ^ lo of `x` (lo < 64): XOR by `lo` inside a word.
#[inline(always)]
pub(crate) fn xor_in_word(mut x: u64, lo: u32) -> u64 {
    for (b, m) in SWAP.iter().enumerate() {
        if lo >> b & 1 == 1 {
            let s = 1u32 << b;
            x = ((x & m) << s) | ((x >> s) & m);
        }
    }
    x
}

/// `dst |= {x ^ c : x in src}` over whole words (one row).
#[inline]
fn or_xored(dst: &mut [u64], src: &[u64], c: u32) {
    let hi = (c >> 6) as usize;
    let lo = c & 63;
    for (w, d) in dst.iter_mut().enumerate() {
        *d |= xor_in_word(src[w ^ hi], lo);
    }
}

/// [`or_xored`] with c mod 64 = `LO` known when compiled (so only its swaps remain) and
/// `hi` = c / 64: XOR by `hi` maps aligned blocks of `lowbit(hi)` words onto each other, so
/// the loop runs over contiguous slices.
#[inline(always)]
fn or_xored_lo<const LO: u32>(dst: &mut [u64], src: &[u64], hi: usize) {
    let words = dst.len();
    let b = if hi == 0 {
        words
    } else {
        (1usize << hi.trailing_zeros()).min(words)
    };
    let mut start = 0;
    while start < words {
        let s = &src[start ^ hi..(start ^ hi) + b];
        for (d, &x) in dst[start..start + b].iter_mut().zip(s) {
            *d |= xor_in_word(x, LO);
        }
        start += b;
    }
}

/// Words of rows from which a block goes to the thread pool (small in tests, so that they
/// run the parallel path).
const PAR_WORDS: usize = if cfg!(test) { 256 } else { 1 << 14 };

/// Rows of `words` words: `dst[r] |= c ^ src[r]` for every row r, the rows in parallel
/// when there are many words.
pub(crate) fn or_xored_rows(dst: &mut [u64], src: &[u64], words: usize, c: u32) {
    use rayon::prelude::*;
    fn rows(dst: &mut [u64], src: &[u64], words: usize, f: impl Fn(&mut [u64], &[u64]) + Sync) {
        if dst.len() >= PAR_WORDS {
            dst.par_chunks_mut(words)
                .zip(src.par_chunks(words))
                .for_each(|(d, s)| f(d, s));
        } else {
            dst.chunks_mut(words)
                .zip(src.chunks(words))
                .for_each(|(d, s)| f(d, s));
        }
    }
    let hi = (c >> 6) as usize;
    macro_rules! by_lo {
        ($($lo:literal)*) => {
            match c & 63 {
                $($lo => rows(dst, src, words, |d, s| or_xored_lo::<$lo>(d, s, hi)),)*
                _ => rows(dst, src, words, |d, s| or_xored(d, s, c)),
            }
        };
    }
    by_lo!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63)
}

/// The length of a table of 0..=max (`max` + 1), refused where it cannot be addressed.
pub(crate) fn table_len(max: u64) -> Result<usize, crate::Error> {
    usize::try_from(max)
        .ok()
        .and_then(|m| m.checked_add(1))
        .ok_or(crate::Error::TooLarge {
            what: "a Grundy table",
            n: max,
            limit: usize::MAX as u64 - 1,
        })
}

/// The mex of a set of values given as bits (bit v of word v / 64) at heap n: the first
/// clear bit, or the set's width when every bit is set.
///
/// # Errors
/// [`crate::Error::Unsupported`] past u32.
pub(crate) fn bits_mex(acc: &[u64], n: u64) -> Result<u32, crate::Error> {
    let mex = acc
        .iter()
        .enumerate()
        .find(|(_, &w)| w != u64::MAX)
        .map_or(acc.len() as u64 * 64, |(k, w)| {
            k as u64 * 64 + u64::from(w.trailing_ones())
        });
    u32::try_from(mex).map_err(|_| crate::Error::Unsupported {
        what: format!(
            "heap {n} has a Grundy value of 2^32 or more, past the 32 bits values are kept in"
        ),
    })
}

/// Whether bit sets of `bytes` in all fit in `room` and can be allocated now.
///
/// # Errors
/// [`crate::Error::OutOfMemory`] when they do not.
pub(crate) fn bitsets_fit(bytes: u64, room: u64) -> Result<(), crate::Error> {
    if bytes > room || !crate::engines::mem::can_allocate(bytes) {
        return Err(crate::Error::OutOfMemory {
            what: "the bit sets of the values reached (the values grow too fast)",
            bytes,
            most: None,
        });
    }
    Ok(())
}
