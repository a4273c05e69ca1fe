//! The mex (minimum excluded value) — the one search every Grundy engine ends in: the
//! least non-negative integer not among the values of a position's options (Sprague 1935,
//! Grundy 1939; Winning Ways, ch. 3). Values are kept as bits of `u64` words, and
//! [`first_gap`] finds the least clear bit a word at a time. [`ValueSet`] is a growable set
//! of values with its mex, [`MexCounter`] a multiset that also removes values (sliding
//! windows).

/// The least bit not set in `words` at or after bit `from`, or `None` when every bit from
/// there to the end of `words` is set.
#[inline(always)]
pub fn first_gap(words: &[u64], from: u32) -> Option<u32> {
    let mut j = (from / 64) as usize;
    let mut free = !*words.get(j)? & (u64::MAX << (from % 64));
    while free == 0 {
        j += 1;
        free = !*words.get(j)?;
    }
    Some(j as u32 * 64 + free.trailing_zeros())
}

/// A growable set of small non-negative values, one bit each: the option values of one
/// position, and their mex.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ValueSet(Vec<u64>);

impl ValueSet {
    /// Adds `v` (memory grows to v / 8 bytes).
    #[inline]
    pub fn insert(&mut self, v: u32) {
        let w = (v >> 6) as usize;
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (v & 63);
    }

    /// Is `v` in the set?
    pub fn contains(&self, v: u32) -> bool {
        self.0
            .get((v >> 6) as usize)
            .is_some_and(|w| w >> (v & 63) & 1 == 1)
    }

    /// Empties the set (keeping its memory).
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|w| *w = 0);
    }

    /// The least value at least `from` that is not in the set.
    ///
    /// # Panics
    /// When every value from `from` to `u32::MAX` is in the set (the answer would not fit
    /// in `u32`).
    pub fn next_absent(&self, from: u32) -> u32 {
        first_gap(&self.0, from).unwrap_or_else(|| {
            let end = (self.0.len() as u64 * 64).max(u64::from(from));
            u32::try_from(end).expect("every value up to u32::MAX is in the set")
        })
    }

    /// The mex: the least value not in the set.
    pub fn mex(&self) -> u32 {
        self.next_absent(0)
    }

    /// The bits, word by word (bit v of word v / 64 is value v).
    pub fn words(&self) -> &[u64] {
        &self.0
    }
}

/// mex of a list of values: the least non-negative integer not in it.
pub fn mex(values: &[u32]) -> u32 {
    let mut s = ValueSet::default();
    for &v in values {
        s.insert(v);
    }
    s.mex()
}

/// A multiset of small non-negative integers with O(1) insert and remove and a fast mex:
/// a count per value, a bitmap of the values present and a summary bitmap of the full
/// words of that bitmap, so the mex reads one summary word per 4096 values — from the
/// first word that may not be full (remembered), so a mex that only grows (nim's values
/// 0, 1, 2, …) costs O(1) amortised, not O(values / 4096).
#[derive(Debug, Default, Clone)]
pub struct MexCounter {
    count: Vec<u32>,
    present: Vec<u64>,
    full: Vec<u64>,
    /// Every word of `present` below this one is full.
    low: std::cell::Cell<u32>,
}

impl MexCounter {
    fn grow(&mut self, v: usize) {
        if v >= self.count.len() {
            let n = (v + 1).next_power_of_two().max(64);
            self.count.resize(n, 0);
            self.present.resize(n / 64, 0);
            self.full.resize(n.div_ceil(4096), 0);
        }
    }

    /// Adds one copy of `v`.
    pub fn add(&mut self, v: u32) {
        let v = v as usize;
        self.grow(v);
        self.count[v] += 1;
        if self.count[v] == 1 {
            let w = v / 64;
            self.present[w] |= 1 << (v % 64);
            if self.present[w] == u64::MAX {
                self.full[w / 64] |= 1 << (w % 64);
            }
        }
    }

    /// Removes one copy of `v`; a value not present is left alone.
    pub fn remove(&mut self, v: u32) {
        let v = v as usize;
        let Some(c) = self.count.get_mut(v).filter(|c| **c > 0) else {
            return;
        };
        *c -= 1;
        if *c == 0 {
            let w = v / 64;
            self.present[w] &= !(1 << (v % 64));
            self.full[w / 64] &= !(1 << (w % 64));
            self.low.set(self.low.get().min(w as u32));
        }
    }

    /// How many copies of `v` are held.
    pub fn count(&self, v: u32) -> u32 {
        self.count.get(v as usize).copied().unwrap_or(0)
    }

    /// The least value with count 0.
    pub fn mex(&self) -> u32 {
        let gap = first_gap(&self.full, self.low.get());
        if let Some(w) = gap {
            self.low.set(w);
        }
        match gap {
            // the first word of `present` that is not full, then its first clear bit
            Some(w) if (w as usize) < self.present.len() => {
                first_gap(&self.present, w * 64).unwrap_or(self.present.len() as u32 * 64)
            }
            _ => self.present.len() as u32 * 64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_sets_and_counters_agree_with_a_scan() {
        assert_eq!(mex(&[3, 0, 1, 1, 5]), 2);
        assert_eq!(mex(&[]), 0);
        assert_eq!(first_gap(&[u64::MAX, 0b1011], 0), Some(66));
        assert_eq!(first_gap(&[0b1011], 2), Some(2));
        assert_eq!(first_gap(&[u64::MAX], 0), None);
        let mut s = ValueSet::default();
        for v in (0..200).filter(|v| v % 7 != 3) {
            s.insert(v);
        }
        assert_eq!((s.mex(), s.next_absent(4), s.next_absent(11)), (3, 10, 17));
        assert!(s.contains(198) && !s.contains(199) && !s.contains(200) && !s.contains(10_000));
        assert_eq!(s.next_absent(500), 500);
        s.clear();
        assert_eq!(s.mex(), 0);
        let mut m = MexCounter::default();
        for v in 0..10_000 {
            m.add(v);
        }
        assert_eq!(m.mex(), 10_000);
        m.remove(4100);
        assert_eq!(m.mex(), 4100);
        m.add(4100);
        m.remove(0);
        assert_eq!(m.mex(), 0);
        m.remove(0); // not present: no change
        assert_eq!((m.count(0), m.count(1), m.mex()), (0, 1, 0));
    }
}
