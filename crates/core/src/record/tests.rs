use super::*;
use crate::saved::tests::key;

/// Keeps every snapshot, saved state and value a run hands over.
#[derive(Default)]
struct Keep {
    snaps: Vec<(u32, Vec<u64>)>,
    saves: Vec<RecordState>,
    values: Vec<u32>,
    /// The first heap whose value was handed over.
    start: Option<u64>,
    /// Whether it gives values back (a copy kept, as `heaplab record` keeps on disk).
    copy: bool,
}

impl RecordHooks for Keep {
    fn passed(&mut self, k: u32, freq: &[u64]) -> Result<(), String> {
        self.snaps.push((k, freq.to_vec()));
        Ok(())
    }
    fn save(&mut self, state: &RecordState) -> Result<(), String> {
        self.saves.push(state.clone());
        Ok(())
    }
    fn values(&mut self, from: u64, values: &[u32]) -> Result<(), String> {
        let start = *self.start.get_or_insert(from);
        assert_eq!(
            from,
            start + self.values.len() as u64,
            "values in order, once"
        );
        self.values.extend_from_slice(values);
        Ok(())
    }
    fn can_fetch(&self) -> bool {
        self.copy
    }
    fn fetch(&mut self, from: u64, out: &mut [u32]) -> Result<bool, String> {
        if !self.copy {
            return Ok(false);
        }
        let at = (from - self.start.unwrap()) as usize;
        out.copy_from_slice(&self.values[at..at + out.len()]);
        Ok(true)
    }
}

/// The whole table of `spec` to `max` by the usual engines.
fn whole(spec: &str, max: u64) -> Vec<u32> {
    let g = Game::parse(spec).unwrap();
    crate::plan::grundy_table(&g, max, &crate::Silent)
        .unwrap()
        .to_u32_vec()
}

/// Value frequencies over heaps 1..=top.
fn freq_of(g: &[u32], top: u64) -> Vec<u64> {
    let mut f = vec![];
    for &v in &g[1..=top as usize] {
        if v as usize >= f.len() {
            f.resize(v as usize + 1, 0);
        }
        f[v as usize] += 1;
    }
    f
}

#[test]
fn record_runs_equal_the_whole_table_with_a_small_prefix() {
    // (the record tables' codes whose rare positions and witnesses stay small by 2^18)
    for spec in ["0.167", "0.161"] {
        let max = 1 << 18;
        let g = Game::parse(spec).unwrap();
        let want = whole(spec, max);
        let mut k = Keep::default();
        let run = run_keeping(&g, max, 1 << 14, 200, None, 1e9, &crate::Silent, &mut k)
            .map_err(|e| format!("{spec}: {e}"))
            .unwrap();
        assert_eq!(k.values, want, "{spec}");
        assert_eq!(run.freq, freq_of(&want, max), "{spec}");
        for (p, f) in &k.snaps {
            assert_eq!(f, &freq_of(&want, 1 << p), "{spec} 2^{p}");
        }
        assert_eq!(k.snaps.len(), 9, "{spec}: 2^10..2^18");
        let m = run.mask.unwrap();
        assert_eq!(run.rare, rare_of(m, &want), "{spec}");
        let largest = *want.iter().max().unwrap();
        assert_eq!(run.largest, largest);
        assert_eq!(want[run.largest_at as usize], largest);
        assert!(want[..run.largest_at as usize].iter().all(|&v| v < largest));
        // the prefix was released below the window: this run kept a fraction of the table
        assert!(run.keep + run.window < max / 2, "{spec}: keep {}", run.keep);
    }
}

/// A sweep that would read past the prefix stops the run at that heap, with every value
/// before it right (0.034 with a prefix of 2^14 needs a witness near 31000 at heap 71722).
#[test]
fn a_witness_beyond_the_prefix_stops_the_run_where_it_is_needed() {
    let g = Game::parse("0.034").unwrap();
    let max = 1 << 18;
    let mut k = Keep::default();
    let e = run_keeping(&g, max, 1 << 14, 200, None, 1e9, &crate::Silent, &mut k).unwrap_err();
    let e = e.to_string();
    assert!(
        e.starts_with("record run stopped: a witness for the value of heap 71722 lies in"),
        "{e}"
    );
    assert!(
        e.contains("rerun with a larger --keep or with a copy"),
        "{e}"
    );
    let want = whole("0.034", 71721);
    assert_eq!(k.values[..], want[..k.values.len()]);
    assert!(k.values.len() > 1 << 15);
    assert_eq!(k.snaps.len(), 7, "2^10..2^16 written");
}

/// With a copy of the values given back, a witness or a new rare position beyond the
/// prefix is read back instead of stopping the run: two codes whose structure settles late
/// (0.034: 46 heaps read back; 0.172: 4001), with a prefix of 2^12, equal the whole table.
#[test]
fn a_copy_of_the_values_given_back_carries_the_run_past_the_prefix() {
    for spec in ["0.034", "0.172"] {
        let max = 1 << 16;
        let g = Game::parse(spec).unwrap();
        let want = whole(spec, max);
        let mut k = Keep {
            copy: true,
            ..Keep::default()
        };
        let run = run_keeping(&g, max, 1 << 12, 200, None, 1e9, &crate::Silent, &mut k)
            .map_err(|e| format!("{spec}: {e}"))
            .unwrap();
        assert_eq!(k.values, want, "{spec}");
        assert_eq!(run.rare, rare_of(run.mask.unwrap(), &want), "{spec}");
        assert!(!run.fallbacks.is_empty(), "{spec}: the prefix sufficed");
        for (p, f) in &k.snaps {
            assert_eq!(f, &freq_of(&want, 1 << p), "{spec} 2^{p}");
        }
    }
}

#[test]
fn record_runs_resume_from_every_checkpoint_to_identical_results() {
    let spec = "0.167";
    let g = Game::parse(spec).unwrap();
    let max = 1 << 17;
    let mut k = Keep::default();
    let run = run_keeping(&g, max, 4096, 200, None, 0.0, &crate::Silent, &mut k).unwrap();
    assert!(k.saves.len() >= 5, "{}", k.saves.len());
    for s in &k.saves {
        let back = decode(&encode(&g, s, &key()), &g, &key()).unwrap();
        assert_eq!(&back, s);
        let mut again = Keep::default();
        let r = run_keeping(
            &g,
            max,
            4096,
            200,
            Some(back),
            1e9,
            &crate::Silent,
            &mut again,
        )
        .unwrap();
        assert_eq!(r.resumed_at, Some(s.n));
        assert_eq!(
            (r.freq, r.rare, r.largest_at),
            (run.freq.clone(), run.rare.clone(), run.largest_at)
        );
        // the snapshots after the checkpoint, and the values after it
        let later: Vec<_> = k
            .snaps
            .iter()
            .filter(|x| 1u64 << x.0 >= s.n)
            .cloned()
            .collect();
        assert_eq!(again.snaps, later);
        assert_eq!(again.values[..], k.values[s.n as usize..]);
    }
    // another game's checkpoint, a damaged one
    let other = Game::parse("0.161").unwrap();
    let e = decode(&encode(&g, &k.saves[0], &key()), &other, &key()).unwrap_err();
    assert_eq!(e, "belongs to game 0.167, not 0.161");
    let mut bad = k.saves[0].clone();
    bad.freq[0] += 1;
    let e = decode(&encode(&g, &bad, &key()), &g, &key()).unwrap_err();
    assert!(e.contains("do not fit together"), "{e}");
}

#[test]
fn games_the_record_mode_cannot_run_are_refused() {
    for (spec, why) in [
        ("0.6", ""),
        ("0.8", "split a heap in two"),
        ("sub{1,2}", "take-and-break"),
    ] {
        let g = Game::parse(spec).unwrap();
        let r = record_rule(&g);
        if why.is_empty() {
            assert!(r.is_ok(), "{spec}");
            continue;
        }
        let e = r.unwrap_err().to_string();
        assert!(e.contains(why), "{spec}: {e}");
    }
    // the other ways: the whole table for games whose table continues, else refused
    for (spec, way) in [
        ("0.167", Some(false)),
        ("grundy-game", Some(false)),
        ("squares", Some(true)),
        ("sub{1,2}", Some(true)),
        ("0.8", Some(true)),
        ("nondivisors", None),
        ("misere(squares)", None),
        ("misere(0.167)", None),
    ] {
        let got = record_way(&Game::parse(spec).unwrap())
            .ok()
            .map(|w| matches!(w, RecordWay::WholeTable));
        assert_eq!(got, way, "{spec}");
    }
}

/// The frequencies of a whole table, and its summary, against an obvious count.
#[test]
fn whole_table_frequencies_count_every_heap_from_one() {
    for (spec, max) in [("squares", 5000u64), ("0.167", 3000), ("sub{1,2,3}", 100)] {
        let g = whole(spec, max);
        let t = crate::GrundyTable::from_u32(g.clone());
        for top in [0, 1, 2, max / 2, max] {
            let (f, at) = frequencies(&t, top);
            let want = if top == 0 { vec![] } else { freq_of(&g, top) };
            // (over 1..=0 the count of value 0 is kept, at zero)
            assert_eq!(
                f.iter().filter(|&&c| c > 0).count(),
                want.iter().filter(|&&c| c > 0).count()
            );
            assert_eq!(&f[..want.len()], &want[..], "{spec} to {top}");
            let top_v = *g[..=top as usize].iter().max().unwrap();
            assert_eq!(g[at as usize], top_v, "{spec} to {top}");
            assert!(g[..at as usize].iter().all(|&v| v < top_v));
        }
        let run = whole_table_run(&t);
        assert_eq!(run.freq, freq_of(&g, max), "{spec}");
        assert_eq!(run.largest, *g.iter().max().unwrap());
        assert_eq!(run.max, max);
    }
}
