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

/// A multiset of small non-negative integers with insert, remove and mex in O(log_64 of the
/// largest value) word operations: a count per value, a bitmap of the values present, and
/// above it summary bitmaps, each bit of one saying that a word of the level below is full
/// (all 64 values present), up to a single word. The mex descends from the top: five levels
/// cover 2^30 values, so a sliding window whose mex is in the millions (`half`'s values
/// grow like n / 2) pays a handful of word reads per query, not a scan of the values below
/// it.
#[derive(Debug, Default, Clone)]
pub struct MexCounter {
    count: Vec<u32>,
    /// `levels[0]`: bit v set when value v is present; `levels[i + 1]`: bit j set when word j
    /// of `levels[i]` is full. The last level is one word.
    levels: Vec<Vec<u64>>,
}

impl MexCounter {
    fn grow(&mut self, v: usize) {
        if v < self.count.len() {
            return;
        }
        let n = (v + 1).next_power_of_two().max(64);
        self.count.resize(n, 0);
        let mut present = std::mem::take(&mut self.levels)
            .into_iter()
            .next()
            .unwrap_or_default();
        present.resize(n / 64, 0);
        self.levels = vec![present];
        // the summaries, rebuilt from the level below (a growth doubles the values, so
        // rebuilding costs O(values / 64) amortised over as many inserts)
        while let Some(below) = self.levels.last().filter(|l| l.len() > 1) {
            let mut up = vec![0u64; below.len().div_ceil(64)];
            for (j, &w) in below.iter().enumerate() {
                if w == u64::MAX {
                    up[j / 64] |= 1 << (j % 64);
                }
            }
            self.levels.push(up);
        }
    }

    /// Adds one copy of `v`.
    pub fn add(&mut self, v: u32) {
        let v = v as usize;
        self.grow(v);
        self.count[v] += 1;
        if self.count[v] == 1 {
            let mut bit = v;
            for level in &mut self.levels {
                let w = &mut level[bit / 64];
                *w |= 1 << (bit % 64);
                if *w != u64::MAX {
                    break;
                }
                bit /= 64;
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
            let mut bit = v;
            for level in &mut self.levels {
                let w = &mut level[bit / 64];
                let was_full = *w == u64::MAX;
                *w &= !(1 << (bit % 64));
                if !was_full {
                    break;
                }
                bit /= 64;
            }
        }
    }

    /// How many copies of `v` are held.
    pub fn count(&self, v: u32) -> u32 {
        self.count.get(v as usize).copied().unwrap_or(0)
    }

    /// The least clear bit at or after bit `p` of level `l`, None when every bit from there
    /// to the end of the level is set.
    fn gap(&self, l: usize, p: usize) -> Option<usize> {
        let words = &self.levels[l];
        if l + 1 == self.levels.len() {
            // the top level: one word
            return first_gap(words, p as u32).map(|b| b as usize);
        }
        let w = p / 64;
        let here = !*words.get(w)? & (u64::MAX << (p % 64));
        if here != 0 {
            return Some(w * 64 + here.trailing_zeros() as usize);
        }
        // the next word of this level that is not full, from the level above
        let next = self.gap(l + 1, w + 1)?;
        let free = !*words.get(next)?;
        debug_assert_ne!(free, 0, "a summary bit is clear over a full word");
        Some(next * 64 + free.trailing_zeros() as usize)
    }

    /// The least value with count 0.
    pub fn mex(&self) -> u32 {
        if self.levels.is_empty() {
            return 0;
        }
        self.gap(0, 0).unwrap_or(self.count.len()) as u32
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

    /// The counter's mex against a count of the values held, through growth across three
    /// summary levels and removals that empty full words at every level.
    #[test]
    fn the_counter_equals_a_scan() {
        let mut m = MexCounter::default();
        let mut held = vec![0u32; 1 << 19];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for v in 0..300_000u32 {
            m.add(v);
            held[v as usize] += 1;
        }
        assert_eq!(m.mex(), 300_000);
        for step in 0..20_000 {
            let r = next();
            let v = (r % 310_000) as u32;
            if r >> 40 & 1 == 0 {
                m.add(v);
                held[v as usize] += 1;
            } else {
                m.remove(v);
                held[v as usize] = held[v as usize].saturating_sub(1);
            }
            if step % 97 == 0 {
                let want = held.iter().position(|&c| c == 0).unwrap() as u32;
                assert_eq!(m.mex(), want, "step {step}");
            }
        }
        let want = held.iter().position(|&c| c == 0).unwrap() as u32;
        assert_eq!(m.mex(), want);
        for v in 0..300_000u32 {
            while m.count(v) > 0 {
                m.remove(v);
            }
        }
        assert_eq!(m.mex(), 0);
    }
}
