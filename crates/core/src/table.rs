//! Result tables: outcomes (one bit per position) and Grundy values (the smallest unsigned
//! type that holds the largest value). Both cover positions 0 <= n <= N.

use bitvec::prelude::*;
use serde::Serialize;

/// Outcome of every position 0..=N: bit n is set when n is an N-position (the player to
/// move wins), clear for a P-position. Memory: N/8 bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomeTable {
    win: BitVec<u64, Lsb0>,
}

impl OutcomeTable {
    /// Wraps a bit vector of length N + 1 (bit n set = N-position).
    ///
    /// # Panics
    /// If `win` is empty (a table always holds position 0).
    pub fn from_bits(win: BitVec<u64, Lsb0>) -> OutcomeTable {
        assert!(
            !win.is_empty(),
            "an outcome table holds at least position 0"
        );
        OutcomeTable { win }
    }

    /// The bits (set = N-position), one per position 0..=N, in `u64` words, least
    /// significant bit first (Arrow's and NumPy's `packbits(bitorder="little")` order).
    pub fn into_bits(self) -> BitVec<u64, Lsb0> {
        self.win
    }

    /// N, the largest position held.
    pub fn max(&self) -> u64 {
        self.win.len() as u64 - 1
    }

    /// True when n is an N-position. Panics beyond N.
    pub fn is_win(&self, n: u64) -> bool {
        self.win[n as usize]
    }

    /// The bits (set = N-position).
    pub fn bits(&self) -> &BitSlice<u64, Lsb0> {
        &self.win
    }

    /// The P-positions, increasing.
    pub fn p_positions(&self) -> impl Iterator<Item = u64> + '_ {
        self.win.iter_zeros().map(|i| i as u64)
    }

    /// The largest P-position (None when there is none).
    pub fn last_p(&self) -> Option<u64> {
        self.win.last_zero().map(|i| i as u64)
    }

    /// Number of P-positions in 0..=N.
    pub fn count_p(&self) -> u64 {
        self.win.count_zeros() as u64
    }
}

/// Grundy values of positions 0..=N in the narrowest type that fits the largest value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrundyTable {
    /// Largest value below 256.
    U8(Vec<u8>),
    /// Largest value below 65536.
    U16(Vec<u16>),
    /// Anything larger.
    U32(Vec<u32>),
}

impl GrundyTable {
    /// Narrows a `u32` table to the smallest type that holds its largest value.
    ///
    /// # Panics
    /// If `v` is empty (a table always holds position 0).
    pub fn from_u32(v: Vec<u32>) -> GrundyTable {
        assert!(!v.is_empty(), "a Grundy table holds at least position 0");
        let m = v.iter().copied().max().unwrap_or(0);
        if m < 256 {
            GrundyTable::U8(v.into_iter().map(|x| x as u8).collect())
        } else if m < 65536 {
            GrundyTable::U16(v.into_iter().map(|x| x as u16).collect())
        } else {
            GrundyTable::U32(v)
        }
    }

    /// Narrows a `u16` table when every value fits in `u8`.
    ///
    /// # Panics
    /// If `v` is empty (a table always holds position 0).
    pub fn from_u16(v: Vec<u16>) -> GrundyTable {
        assert!(!v.is_empty(), "a Grundy table holds at least position 0");
        if v.iter().all(|&x| x < 256) {
            GrundyTable::U8(v.into_iter().map(|x| x as u8).collect())
        } else {
            GrundyTable::U16(v)
        }
    }

    /// Number of positions (N + 1).
    pub fn len(&self) -> usize {
        match self {
            GrundyTable::U8(v) => v.len(),
            GrundyTable::U16(v) => v.len(),
            GrundyTable::U32(v) => v.len(),
        }
    }

    /// Always false: a table holds position 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// N, the largest position held.
    pub fn max(&self) -> u64 {
        self.len() as u64 - 1
    }

    /// g(n). Panics beyond N.
    pub fn get(&self, n: u64) -> u32 {
        let i = n as usize;
        match self {
            GrundyTable::U8(v) => v[i] as u32,
            GrundyTable::U16(v) => v[i] as u32,
            GrundyTable::U32(v) => v[i],
        }
    }

    /// The largest Grundy value in the table.
    pub fn max_value(&self) -> u32 {
        match self {
            GrundyTable::U8(v) => v.iter().copied().max().unwrap_or(0) as u32,
            GrundyTable::U16(v) => v.iter().copied().max().unwrap_or(0) as u32,
            GrundyTable::U32(v) => v.iter().copied().max().unwrap_or(0),
        }
    }

    /// Bytes per value (1, 2 or 4).
    pub fn value_bytes(&self) -> usize {
        match self {
            GrundyTable::U8(_) => 1,
            GrundyTable::U16(_) => 2,
            GrundyTable::U32(_) => 4,
        }
    }

    /// Values `lo..hi` widened to `u32` (for writers that work in chunks).
    pub fn slice_u32(&self, lo: usize, hi: usize) -> Vec<u32> {
        match self {
            GrundyTable::U8(v) => v[lo..hi].iter().map(|&x| x as u32).collect(),
            GrundyTable::U16(v) => v[lo..hi].iter().map(|&x| x as u32).collect(),
            GrundyTable::U32(v) => v[lo..hi].to_vec(),
        }
    }

    /// Every value widened to `u32`.
    pub fn to_u32_vec(&self) -> Vec<u32> {
        self.slice_u32(0, self.len())
    }

    /// The outcome table implied by the values (g = 0 exactly at P-positions).
    pub fn outcomes(&self) -> OutcomeTable {
        let mut win = bitvec![u64, Lsb0; 0; self.len()];
        for i in 0..self.len() {
            if self.get(i as u64) != 0 {
                win.set(i, true);
            }
        }
        OutcomeTable::from_bits(win)
    }
}

/// The number of P-positions in 0..=N and the largest, found without listing them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PCount {
    /// P-positions in 0..=N.
    pub count: u64,
    /// The largest of them (None when there is none).
    pub largest: Option<u64>,
    /// How they were counted, for reports ("closed form", "outcomes proven periodic …").
    pub method: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_picks_the_smallest_type() {
        assert_eq!(GrundyTable::from_u32(vec![0, 1, 255]).value_bytes(), 1);
        assert_eq!(GrundyTable::from_u32(vec![0, 256]).value_bytes(), 2);
        assert_eq!(GrundyTable::from_u32(vec![0, 70000]).value_bytes(), 4);
        let t = GrundyTable::from_u32(vec![0, 1, 0, 2]);
        assert_eq!(t.max_value(), 2);
        assert_eq!(t.outcomes().p_positions().collect::<Vec<_>>(), vec![0, 2]);
        assert_eq!(t.outcomes().count_p(), 2);
        assert_eq!(t.outcomes().last_p(), Some(2));
    }
}
